import type { Friend } from '@earshot/contract/friendship';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FRIENDS_LINK_COPIED_MS } from '../src/lib/constants';
import { ada, fakeApi, json, loggedOut, type FakeAnswer } from './fakeApi';
import { renderApp } from './renderApp';

vi.mock('../src/lib/browserLocation', () => ({ loadPage: vi.fn(), reloadPage: vi.fn() }));

const HOUR_MS = 3_600_000;

function friendRow(username: string, overrides: Partial<Friend> = {}): Friend {
  return {
    id: `user-${username}`,
    username,
    name: `${username[0]?.toUpperCase()}${username.slice(1)} Example`,
    picture: null,
    status: 'accepted',
    likes: 0,
    last_play: null,
    ...overrides,
  };
}

const grace = friendRow('grace', {
  name: 'Grace Hopper',
  likes: 1234,
  last_play: new Date(Date.now() - 3 * HOUR_MS).toISOString(),
});
const mary = friendRow('mary', { likes: 7 });
const alan = friendRow('alan', { status: 'requested', likes: 12 });
const linus = friendRow('linus', { status: 'pending', likes: 1030 });

function friendsApi(list: FakeAnswer, extra: Record<string, FakeAnswer> = {}) {
  return fakeApi({
    'GET /api/user/me': json(200, ada),
    'GET /api/friendship/pending': json(200, { requests: [] }),
    'GET /api/friendship/list': list,
    ...extra,
  });
}

function calls(fetchMock: ReturnType<typeof fakeApi>, method: string, path: string) {
  return fetchMock.mock.calls.filter(
    ([input, init]) => String(input) === path && (init?.method ?? 'GET') === method,
  );
}

async function rowOf(username: string) {
  const link = await screen.findByRole('link', { name: username });
  const row = link.closest('tr');
  if (!row) throw new Error(`no row for ${username}`);
  return row;
}

describe('/friends table', () => {
  it('shows avatar, username, likes linking to their likes, last play or "Never"', async () => {
    friendsApi(json(200, { friends: [grace, mary] }));
    renderApp('/friends');

    const graceRow = await rowOf('grace');
    expect(within(graceRow).getByRole('link', { name: 'grace' })).toHaveAttribute(
      'href',
      '/user/grace',
    );
    expect(within(graceRow).getByText('Grace Hopper')).toBeInTheDocument();
    expect(within(graceRow).getByRole('link', { name: '1,234 likes of grace' })).toHaveAttribute(
      'href',
      '/likes/user/grace',
    );
    expect(within(graceRow).getByText('3 hours ago')).toHaveAttribute('datetime', grace.last_play);
    expect(within(graceRow).getByText('G')).toHaveClass('avatar');

    const maryRow = await rowOf('mary');
    expect(within(maryRow).getByText('Never')).toBeInTheDocument();
    expect(within(maryRow).getByRole('link', { name: '7 likes of mary' })).toBeInTheDocument();

    expect(screen.getAllByRole('columnheader').map((cell) => cell.textContent)).toEqual([
      'Avatar',
      'Username',
      '# Likes',
      'Last Play',
      'Actions',
    ]);
    expect(document.title).toBe('Friends - Earshot');
  });

  it('shows badges instead of the actions menu for requests both ways', async () => {
    friendsApi(json(200, { friends: [alan, linus] }));
    renderApp('/friends');

    const alanRow = await rowOf('alan');
    expect(within(alanRow).getByText('Requested')).toBeInTheDocument();
    expect(within(alanRow).getByRole('button', { name: /^Cancel/ })).toBeInTheDocument();
    expect(within(alanRow).queryByRole('button', { name: /^Actions/ })).not.toBeInTheDocument();

    const linusRow = await rowOf('linus');
    expect(within(linusRow).getByText('Incoming request')).toBeInTheDocument();
    expect(within(linusRow).getByRole('button', { name: /^Accept/ })).toBeInTheDocument();
    expect(within(linusRow).getByRole('button', { name: /^Decline/ })).toBeInTheDocument();
    expect(within(linusRow).queryByRole('button', { name: /^Actions/ })).not.toBeInTheDocument();
  });

  it("shows a request's like count without a link, and no last play: both are for friends", async () => {
    friendsApi(json(200, { friends: [alan, linus] }));
    renderApp('/friends');

    for (const [username, count] of [
      ['alan', '12'],
      ['linus', '1,030'],
    ] as const) {
      const row = await rowOf(username);
      expect(within(row).getByText(count)).not.toHaveAttribute('href');
      expect(
        within(row)
          .getAllByRole('link')
          .map((link) => link.getAttribute('href')),
      ).toEqual([`/user/${username}`]);
      expect(within(row).queryByText('Never')).not.toBeInTheDocument();
      expect(within(row).getByText('Shown once you are friends')).toBeInTheDocument();
    }
  });

  it('says "No friends yet." for an empty list', async () => {
    friendsApi(json(200, { friends: [] }));
    renderApp('/friends');
    expect(await screen.findByText('No friends yet.')).toBeInTheDocument();
  });

  it('says "Loading…" while the list loads', async () => {
    friendsApi(() => new Promise<Response>(() => undefined));
    renderApp('/friends');
    await screen.findByRole('heading', { name: 'Friends' });
    expect(screen.getByRole('status')).toHaveTextContent('Loading…');
  });

  it('says "Failed to load friends." when the list fails', async () => {
    friendsApi(json(400, { detail: 'Bad request' }));
    renderApp('/friends');
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to load friends.');
  });

  it('sends visitors to log in first', async () => {
    fakeApi({ 'GET /api/user/me': loggedOut });
    const { router } = renderApp('/friends');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(router.state.location.search).toBe('?next=%2Ffriends');
  });
});

describe('/friends actions', () => {
  it('accepts an incoming request and refreshes the list', async () => {
    const fetchMock = friendsApi(json(200, { friends: [linus] }), {
      'POST /api/friendship/accept/user-linus': json(200, { status: 'friends' }),
    });
    renderApp('/friends');

    await userEvent.click(within(await rowOf('linus')).getByRole('button', { name: /^Accept/ }));

    await waitFor(() =>
      expect(calls(fetchMock, 'POST', '/api/friendship/accept/user-linus')).toHaveLength(1),
    );
    await waitFor(() => expect(calls(fetchMock, 'GET', '/api/friendship/list')).toHaveLength(2));
  });

  it('declines an incoming request', async () => {
    const fetchMock = friendsApi(json(200, { friends: [linus] }), {
      'POST /api/friendship/decline/user-linus': json(200, { status: 'none' }),
    });
    renderApp('/friends');

    await userEvent.click(within(await rowOf('linus')).getByRole('button', { name: /^Decline/ }));

    await waitFor(() =>
      expect(calls(fetchMock, 'POST', '/api/friendship/decline/user-linus')).toHaveLength(1),
    );
  });

  it('cancels a sent request with the decline call', async () => {
    const fetchMock = friendsApi(json(200, { friends: [alan] }), {
      'POST /api/friendship/decline/user-alan': json(200, { status: 'none' }),
    });
    renderApp('/friends');

    await userEvent.click(within(await rowOf('alan')).getByRole('button', { name: /^Cancel/ }));

    await waitFor(() =>
      expect(calls(fetchMock, 'POST', '/api/friendship/decline/user-alan')).toHaveLength(1),
    );
  });

  it('unfriends from the actions menu after confirmation', async () => {
    const fetchMock = friendsApi(json(200, { friends: [grace] }), {
      'DELETE /api/friendship/unfriend/user-grace': json(200, { status: 'none' }),
    });
    renderApp('/friends');

    await userEvent.click(
      within(await rowOf('grace')).getByRole('button', { name: 'Actions for grace' }),
    );
    const menu = await screen.findByRole('menu');
    expect(within(menu).getByRole('menuitem', { name: 'View profile' })).toHaveAttribute(
      'href',
      '/user/grace',
    );
    await userEvent.click(within(menu).getByRole('menuitem', { name: 'Unfriend' }));

    const dialog = await screen.findByRole('alertdialog', { name: 'Unfriend Grace Hopper?' });
    expect(calls(fetchMock, 'DELETE', '/api/friendship/unfriend/user-grace')).toHaveLength(0);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Unfriend' }));

    await waitFor(() =>
      expect(calls(fetchMock, 'DELETE', '/api/friendship/unfriend/user-grace')).toHaveLength(1),
    );
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
  });

  it('keeps the friend when the confirmation is dismissed', async () => {
    const fetchMock = friendsApi(json(200, { friends: [grace] }));
    renderApp('/friends');

    await userEvent.click(
      within(await rowOf('grace')).getByRole('button', { name: 'Actions for grace' }),
    );
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Unfriend' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Keep friend' }));

    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(calls(fetchMock, 'DELETE', '/api/friendship/unfriend/user-grace')).toHaveLength(0);
  });

  it('reports a failed action as an error notification', async () => {
    friendsApi(json(200, { friends: [linus] }), {
      'POST /api/friendship/accept/user-linus': json(404, {
        detail: 'There is no friend request from this user to accept.',
      }),
    });
    renderApp('/friends');

    await userEvent.click(within(await rowOf('linus')).getByRole('button', { name: /^Accept/ }));

    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Failed to accept the friend request: There is no friend request from this user to accept.',
    );
  });
});

describe('/friends add a friend', () => {
  it('sends a request to the trimmed username and says so', async () => {
    const fetchMock = friendsApi(json(200, { friends: [] }), {
      'POST /api/friendship/request/grace': json(200, { status: 'pending_outgoing' }),
    });
    renderApp('/friends');

    const field = await screen.findByRole('textbox', { name: 'Username' });
    await userEvent.type(field, '  grace ');
    await userEvent.click(screen.getByRole('button', { name: 'Send request' }));

    expect(await screen.findByText('Friend request sent to grace.')).toBeInTheDocument();
    expect(calls(fetchMock, 'POST', '/api/friendship/request/grace')).toHaveLength(1);
    expect(field).toHaveValue('');
  });

  it.each([
    ['nobody yet', [], 'pending_outgoing', 'Friend request sent to Grace.'],
    ['an incoming request', [linus], 'friends', 'You and Linus are now friends.'],
    ['a friend', [friendRow('grace')], 'friends', 'You and Grace are already friends.'],
    [
      'an unanswered request',
      [friendRow('grace', { status: 'requested' })],
      'pending_outgoing',
      'Your request to Grace is still waiting for an answer.',
    ],
  ])(
    'tells a request to %s what it did, from the row before it',
    async (_who, rows, status, text) => {
      const name = text.includes('Linus') ? 'Linus' : 'Grace';
      friendsApi(json(200, { friends: rows }), {
        [`POST /api/friendship/request/${name}`]: json(200, { status }),
      });
      renderApp('/friends');
      await screen.findByRole(rows.length > 0 ? 'table' : 'heading', {
        name: rows.length > 0 ? 'Your friends and friend requests' : 'Add a friend',
      });

      await userEvent.type(screen.getByRole('textbox', { name: 'Username' }), name);
      await userEvent.click(screen.getByRole('button', { name: 'Send request' }));

      expect(await screen.findByRole('status')).toHaveTextContent(text);
    },
  );

  it("shows the server's detail when the request fails", async () => {
    friendsApi(json(200, { friends: [] }), {
      'POST /api/friendship/request/nobody': json(404, { detail: 'User not found' }),
    });
    renderApp('/friends');

    const field = await screen.findByRole('textbox', { name: 'Username' });
    await userEvent.type(field, 'nobody');
    await userEvent.click(screen.getByRole('button', { name: 'Send request' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('User not found');
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(field).toHaveValue('nobody');
  });
});

/** A clipboard for jsdom (which has none); removed after each test. */
function stubClipboard(writeText: (text: string) => Promise<void>) {
  const mock = vi.fn(writeText);
  Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText: mock } });
  return mock;
}

describe('/friends stats link', () => {
  afterEach(() => {
    vi.useRealTimers();
    Reflect.deleteProperty(navigator, 'clipboard');
  });

  it('copies the public stats page and says "Copied!" for 1.2 s', async () => {
    friendsApi(json(200, { friends: [] }));
    renderApp('/friends');
    const field = await screen.findByRole('textbox', { name: 'Your public stats page' });
    expect(field).toHaveValue(`${window.location.origin}/user/ada`);
    const writeText = stubClipboard(() => Promise.resolve());

    vi.useFakeTimers();
    fireEvent.click(screen.getByRole('button', { name: 'Copy link' }));
    await act(async () => undefined);

    expect(writeText).toHaveBeenCalledWith(`${window.location.origin}/user/ada`);
    expect(screen.getByRole('button', { name: 'Copied!' })).toBeInTheDocument();

    act(() => vi.advanceTimersByTime(FRIENDS_LINK_COPIED_MS - 1));
    expect(screen.getByRole('button', { name: 'Copied!' })).toBeInTheDocument();

    act(() => vi.advanceTimersByTime(1));
    expect(screen.getByRole('button', { name: 'Copy link' })).toBeInTheDocument();
  });

  it('selects the link for copying by hand when the clipboard refuses', async () => {
    friendsApi(json(200, { friends: [] }));
    renderApp('/friends');
    const field = await screen.findByRole('textbox', { name: 'Your public stats page' });
    stubClipboard(() => Promise.reject(new Error('Not allowed')));

    await userEvent.click(screen.getByRole('button', { name: 'Copy link' }));

    expect(await screen.findByRole('alert')).toHaveTextContent("Couldn't copy automatically");
    expect(screen.getByRole('button', { name: 'Copy link' })).toBeInTheDocument();
    const url = `${window.location.origin}/user/ada`;
    expect([
      (field as HTMLInputElement).selectionStart,
      (field as HTMLInputElement).selectionEnd,
    ]).toEqual([0, url.length]);
  });
});
