import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ada, fakeApi, json, loggedOut, requestedUrls, type FakeAnswer } from './fakeApi';
import { renderApp } from './renderApp';

vi.mock('../src/lib/browserLocation', () => ({ loadPage: vi.fn(), reloadPage: vi.fn() }));

const linusRequest = {
  user: { id: 'user-linus', name: 'Linus Example', username: 'linus', picture: null },
};
const maryRequest = {
  user: { id: 'user-mary', name: 'Mary Example', username: 'mary', picture: null },
};

function bellApi(pending: FakeAnswer, extra: Record<string, FakeAnswer> = {}) {
  return fakeApi({
    'GET /api/user/me': json(200, ada),
    'GET /api/spotify/stats': json(200, { active: true }),
    'GET /api/friendship/pending': pending,
    ...extra,
  });
}

async function openBell(name: string) {
  await userEvent.click(await screen.findByRole('button', { name }));
  return screen.findByRole('dialog');
}

describe('bell panel: friend requests', () => {
  it('counts pending requests on the bell and lists them with Accept and Decline', async () => {
    bellApi(json(200, { requests: [linusRequest, maryRequest] }));
    renderApp('/');

    const panel = await openBell('Notifications (2)');
    const list = within(panel).getByRole('list', { name: 'Friend requests' });
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(
      within(items[0] as HTMLElement).getByRole('link', { name: 'Linus Example' }),
    ).toHaveAttribute('href', '/user/linus');
    expect(
      within(items[0] as HTMLElement).getByText('@linus wants to be friends'),
    ).toBeInTheDocument();
    expect(
      within(panel).getByRole('button', { name: 'Accept friend request from mary' }),
    ).toBeInTheDocument();
    expect(within(panel).queryByText('No notifications')).not.toBeInTheDocument();
  });

  it('accepts a request, says so and refreshes the requests', async () => {
    let answered = false;
    const fetchMock = bellApi(() => json(200, { requests: answered ? [] : [linusRequest] })(), {
      'POST /api/friendship/accept/user-linus': () => {
        answered = true;
        return json(200, { status: 'friends' })();
      },
    });
    renderApp('/');

    const panel = await openBell('Notifications (1)');
    await userEvent.click(
      within(panel).getByRole('button', { name: 'Accept friend request from linus' }),
    );

    expect(requestedUrls(fetchMock)).toContain('/api/friendship/accept/user-linus');
    expect(
      await within(panel).findByText('You and Linus Example are now friends.'),
    ).toBeInTheDocument();
    expect(within(panel).queryByRole('list', { name: 'Friend requests' })).not.toBeInTheDocument();
  });

  it('still says so when the request leaves the list before the other friendship data is back', async () => {
    let answered = false;
    bellApi(() => json(200, { requests: answered ? [] : [linusRequest] })(), {
      'POST /api/friendship/accept/user-linus': () => {
        answered = true;
        return json(200, { status: 'friends' })();
      },
      // The friends page's list refreshes slowly after the answer: the request item is gone
      // from the refreshed pending list long before.
      'GET /api/friendship/list': async () => {
        if (answered) await new Promise((resolve) => setTimeout(resolve, 300));
        return json(200, { friends: [] })();
      },
    });
    renderApp('/friends');

    const panel = await openBell('Notifications (1)');
    await userEvent.click(
      within(panel).getByRole('button', { name: 'Accept friend request from linus' }),
    );

    expect(
      (await screen.findAllByText('You and Linus Example are now friends.')).length,
    ).toBeGreaterThan(0);
  });

  it('declines a request', async () => {
    let answered = false;
    const fetchMock = bellApi(() => json(200, { requests: answered ? [] : [linusRequest] })(), {
      'POST /api/friendship/decline/user-linus': () => {
        answered = true;
        return json(200, { status: 'none' })();
      },
    });
    renderApp('/');

    const panel = await openBell('Notifications (1)');
    await userEvent.click(
      within(panel).getByRole('button', { name: 'Decline friend request from linus' }),
    );

    expect(requestedUrls(fetchMock)).toContain('/api/friendship/decline/user-linus');
    expect(await within(panel).findByText('No notifications')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Notifications' })).toBeInTheDocument();
  });

  it('says "No notifications" when there are no requests and no notifications', async () => {
    bellApi(json(200, { requests: [] }));
    renderApp('/');
    const panel = await openBell('Notifications');
    await waitFor(() => expect(panel).toHaveTextContent('No notifications'));
    expect(within(panel).queryByRole('list')).not.toBeInTheDocument();
  });

  it('does not ask visitors for friend requests', async () => {
    const fetchMock = fakeApi({
      'GET /api/user/me': loggedOut,
      'GET /api/status': json(200, { version: '1.0.0' }),
    });
    renderApp('/');
    expect(await screen.findByRole('link', { name: 'Log in' })).toBeInTheDocument();
    expect(requestedUrls(fetchMock)).not.toContain('/api/friendship/pending');
  });
});
