import type { IgnoreState } from '@earshot/contract/ignore';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  activityItem,
  activityPage,
  deferred,
  FakeIntersectionObserver,
  ignoredList,
  requestsTo,
} from './activityFixtures';
import { ada, fakeApi, json, type FakeAnswer } from './fakeApi';
import { renderApp } from './renderApp';

const dancing = activityItem({ id: 'track-dq', uid: 'uid-dq', title: 'Dancing Queen' });
const ignoredAnswer: IgnoreState = { ignored: true, reported: false, is_global: false };

function rowOf(title: string): HTMLElement {
  const row = screen.getByRole('link', { name: title }).closest('li');
  if (!row) throw new Error(`no row for ${title}`);
  return row;
}

async function openMenu(title: string) {
  fireEvent.contextMenu(rowOf(title), { clientX: 40, clientY: 40 });
  return screen.findByRole('menu', { name: `Track actions: ${title}` });
}

function renderRecent(ignoreAnswer: FakeAnswer) {
  let ignored = false;
  const fetchMock = fakeApi({
    'GET /api/user/me': json(200, ada),
    'GET /api/spotify/stats': json(200, { active: true }),
    // The server's list: the track is in it once the POST went through.
    'GET /api/ignore': () => ignoredList(ignored ? [dancing] : [])(),
    'GET /api/recent': activityPage([dancing]),
    'POST /api/ignore/track/uid-dq': async () => {
      const response = await ignoreAnswer();
      ignored = response.ok;
      return response;
    },
  });
  renderApp('/recent');
  return fetchMock;
}

beforeEach(() => {
  FakeIntersectionObserver.install();
});

describe('ignoring a track from its context menu', () => {
  it('shows the track as ignoring while pending, then "Already ignored"', async () => {
    const post = deferred();
    const fetchMock = renderRecent(post.answer);
    await screen.findByRole('link', { name: 'Dancing Queen' });
    const menu = await openMenu('Dancing Queen');
    await waitFor(() =>
      expect(within(menu).getByRole('menuitem', { name: 'Ignore track' })).not.toHaveAttribute(
        'aria-disabled',
      ),
    );

    await userEvent.click(within(menu).getByRole('menuitem', { name: 'Ignore track' }));

    expect(await within(rowOf('Dancing Queen')).findByText('Ignoring…')).toBeInTheDocument();
    expect(requestsTo(fetchMock, '/api/ignore/track/uid-dq')).toHaveLength(1);
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/ignore/track/uid-dq',
      expect.objectContaining({ method: 'POST', credentials: 'include' }),
    );
    const pendingMenu = await openMenu('Dancing Queen');
    expect(within(pendingMenu).getByRole('menuitem', { name: 'Ignoring track…' })).toHaveAttribute(
      'aria-disabled',
      'true',
    );
    fireEvent.keyDown(pendingMenu, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('menu')).not.toBeInTheDocument());

    post.resolve(json(200, ignoredAnswer));

    expect(await within(rowOf('Dancing Queen')).findByText('Ignored')).toBeInTheDocument();
    const after = await openMenu('Dancing Queen');
    expect(within(after).getByRole('menuitem', { name: 'Already ignored' })).toHaveAttribute(
      'aria-disabled',
      'true',
    );
    // The list was fetched again after the call.
    await waitFor(() => expect(requestsTo(fetchMock, '/api/ignore')).toHaveLength(2));
    expect(within(after).getByRole('menuitem', { name: 'Already ignored' })).toBeInTheDocument();
  });

  it('reports a failure and leaves the track not ignored', async () => {
    renderRecent(json(503, { detail: 'Ignoring is unavailable' }));
    await screen.findByRole('link', { name: 'Dancing Queen' });
    const menu = await openMenu('Dancing Queen');
    const item = await within(menu).findByRole('menuitem', { name: 'Ignore track' });
    await waitFor(() => expect(item).not.toHaveAttribute('aria-disabled'));

    await userEvent.click(item);

    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Failed to ignore track: Ignoring is unavailable',
    );
    expect(within(rowOf('Dancing Queen')).queryByText(/Ignor/)).toBeNull();
    const again = await openMenu('Dancing Queen');
    expect(within(again).getByRole('menuitem', { name: 'Ignore track' })).not.toHaveAttribute(
      'aria-disabled',
    );
  });
});
