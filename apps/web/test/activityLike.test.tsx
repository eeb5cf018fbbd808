import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  activityItem,
  activityPage,
  deferred,
  FakeIntersectionObserver,
  ignoredList,
  inSequence,
  requestsTo,
  watchingObserver,
} from './activityFixtures';
import { ada, fakeApi, json, type FakeAnswer } from './fakeApi';
import { renderApp } from './renderApp';

const dancing = activityItem({ id: 'track-dq', uid: 'uid-dq', title: 'Dancing Queen' });
// The same song (uid) in another version, played again.
const dancingAgain = activityItem({ id: 'track-dq-live', uid: 'uid-dq', title: 'Dancing Queen' });
const waterloo = activityItem({ id: 'track-w', uid: 'uid-w', title: 'Waterloo', liked: true });

function renderRecent(likeAnswer: FakeAnswer) {
  const fetchMock = fakeApi({
    'GET /api/user/me': json(200, ada),
    'GET /api/spotify/stats': json(200, { active: true }),
    'GET /api/ignore': ignoredList(),
    'GET /api/recent': activityPage([dancing, dancingAgain, waterloo]),
    'POST /api/like': likeAnswer,
  });
  renderApp('/recent');
  return fetchMock;
}

async function likeButtons(title: string) {
  return screen.findAllByRole('button', { name: `Like ${title}` });
}

function likeBodies(fetchMock: ReturnType<typeof fakeApi>): unknown[] {
  return fetchMock.mock.calls
    .filter(([input]) => String(input) === '/api/like')
    .map(([, init]) => JSON.parse(String(init?.body)));
}

beforeEach(() => {
  FakeIntersectionObserver.install();
});

describe('like button', () => {
  it('flips at once on every row of the song and is disabled until the answer', async () => {
    const like = deferred();
    const fetchMock = renderRecent(like.answer);
    const [first, second] = await likeButtons('Dancing Queen');
    if (!first || !second) throw new Error('two rows of the song expected');
    expect(first).toHaveAttribute('aria-pressed', 'false');

    await userEvent.click(first);

    for (const button of [first, second]) {
      expect(button).toHaveAttribute('aria-pressed', 'true');
      expect(button).toBeDisabled();
    }
    // Another song is not affected.
    expect((await likeButtons('Waterloo'))[0]).toBeEnabled();
    expect(likeBodies(fetchMock)).toEqual([{ uid: 'uid-dq', liked: true }]);

    like.resolve(json(200, { uid: 'uid-dq', liked: true }));

    await waitFor(() => expect(first).toBeEnabled());
    expect(first).toHaveAttribute('aria-pressed', 'true');
    expect(second).toHaveAttribute('aria-pressed', 'true');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('keeps a like answered while the next page was on its way', async () => {
    const nextPage = deferred();
    const firstPage = [dancing, ...Array.from({ length: 29 }, () => activityItem())];
    fakeApi({
      'GET /api/user/me': json(200, ada),
      'GET /api/spotify/stats': json(200, { active: true }),
      'GET /api/ignore': ignoredList(),
      'GET /api/recent': inSequence(activityPage(firstPage, 'cursor-30'), nextPage.answer),
      'POST /api/like': json(200, { uid: 'uid-dq', liked: true }),
    });
    renderApp('/recent');
    const [heart] = await likeButtons('Dancing Queen');
    if (!heart) throw new Error('no like button');
    const observer = await watchingObserver();
    act(() => observer.report(true));
    await screen.findByText('Loading more…');

    await userEvent.click(heart);
    await waitFor(() => expect(heart).toBeEnabled());
    act(() => nextPage.resolve(activityPage([activityItem({ title: 'From the next page' })])));

    await screen.findByText('From the next page');
    expect((await likeButtons('Dancing Queen'))[0]).toHaveAttribute('aria-pressed', 'true');
  });

  it('unlikes a liked song', async () => {
    const fetchMock = renderRecent(json(200, { uid: 'uid-w', liked: false }));
    const [button] = await likeButtons('Waterloo');
    if (!button) throw new Error('no like button');
    expect(button).toHaveAttribute('aria-pressed', 'true');

    await userEvent.click(button);

    await waitFor(() => expect(button).toBeEnabled());
    expect(button).toHaveAttribute('aria-pressed', 'false');
    expect(likeBodies(fetchMock)).toEqual([{ uid: 'uid-w', liked: false }]);
  });

  it.each([
    [409, 'Your Spotify connection has expired. Reconnect Spotify.'],
    [502, 'Spotify did not answer'],
  ])('reverts on a %i and shows the detail as an error notification', async (status, detail) => {
    const like = deferred();
    renderRecent(like.answer);
    const [first, second] = await likeButtons('Dancing Queen');
    if (!first || !second) throw new Error('two rows of the song expected');

    await userEvent.click(first);
    expect(first).toHaveAttribute('aria-pressed', 'true');
    like.resolve(json(status, { detail }));

    expect(await screen.findByRole('alert')).toHaveTextContent(detail);
    for (const button of [first, second]) {
      expect(button).toHaveAttribute('aria-pressed', 'false');
      expect(button).toBeEnabled();
    }
  });

  it('needs the uid: "Cannot like track: uid not available"', async () => {
    const noUid = activityItem({ title: 'Lost Song', uid: '' });
    const fetchMock = fakeApi({
      'GET /api/user/me': json(200, ada),
      'GET /api/spotify/stats': json(200, { active: true }),
      'GET /api/ignore': ignoredList(),
      'GET /api/likes': activityPage([noUid]),
    });
    renderApp('/likes');

    const [button] = await likeButtons('Lost Song');
    if (!button) throw new Error('no like button');
    await userEvent.click(button);

    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Cannot like track: uid not available',
    );
    expect(button).toHaveAttribute('aria-pressed', 'false');
    expect(requestsTo(fetchMock, '/api/like')).toHaveLength(0);
    expect(
      within(screen.getByRole('listitem')).getByRole('link', { name: 'Lost Song' }),
    ).toBeInTheDocument();
  });
});
