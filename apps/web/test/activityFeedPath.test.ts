import { activityFeedPath } from '@earshot/contract/activity';
import { describe, expect, it } from 'vitest';

// The server names this address in a feed page's HTML for the browser to fetch early, and the
// app hands that early answer to its own fetch only when the address is the same, byte for byte
// (decision 0042): the builder's text is what both sides rely on.
describe('activityFeedPath', () => {
  const tricky = { includeMe: false, user: 'aiko-tanaka', q: 'rock & roll+ ö/?#=' };
  const cursor = '2026-11-29T01:02:03.000Z|4f2a';

  it('writes each filter only when it narrows the feed, in a fixed order', () => {
    expect(activityFeedPath('recent', { includeMe: true, user: null, q: '' })).toBe(
      '/api/recent?limit=30',
    );
    expect(activityFeedPath('likes', tricky, cursor)).toBe(
      '/api/likes?limit=30&before=2026-11-29T01%3A02%3A03.000Z%7C4f2a&include_me=false' +
        '&user=aiko-tanaka&q=rock%20%26%20roll%2B%20%C3%B6%2F%3F%23%3D',
    );
  });

  it('is read back as the same filters, a plus sign included', () => {
    const params = new URL(activityFeedPath('likes', tricky, cursor), 'http://earshot.test')
      .searchParams;
    expect(Object.fromEntries(params)).toEqual({
      limit: '30',
      before: cursor,
      include_me: 'false',
      user: tricky.user,
      q: tricky.q,
    });
  });
});
