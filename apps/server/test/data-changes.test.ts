import { describe, expect, it } from 'vitest';
import { DataChanges } from '../src/db/changes';
import { ActivityPageCache } from '../src/services/activity-cache';

describe('DataChanges', () => {
  it('counts an answer changed when one of its users or the catalogue is announced after it', () => {
    const changes = new DataChanges();
    const read = changes.version();
    changes.announce('41|u:a,b');
    expect(changes.changedSince(read, ['a'], false)).toBe(true);
    expect(changes.changedSince(read, ['c'], true)).toBe(false);
    const later = changes.version();
    expect(changes.changedSince(later, ['a', 'b'], false)).toBe(false);
    changes.announce('42|c');
    expect(changes.changedSince(later, ['c'], false)).toBe(false);
    expect(changes.changedSince(later, ['c'], true)).toBe(true);
    const last = changes.version();
    changes.announce('43|*');
    expect(changes.changedSince(last, [], false)).toBe(true);
  });

  it('counts a like only for answers that show that user’s likes', () => {
    const changes = new DataChanges();
    const read = changes.version();
    changes.announce('41|l:a');
    expect(changes.changedSince(read, ['a', 'b'], false)).toBe(true);
    expect(changes.changedSince(read, ['a', 'b'], false, ['a'])).toBe(true);
    expect(changes.changedSince(read, ['a', 'b'], false, ['b'])).toBe(false);
    expect(changes.changedSince(read, ['a'], false, [])).toBe(false);
    changes.announce('42|u:b');
    expect(changes.changedSince(read, ['a', 'b'], false, [])).toBe(true);
  });

  it('counts each announcement once, however many connections hear it', () => {
    const changes = new DataChanges();
    changes.announce('41|u:a');
    const read = changes.version();
    // The same transaction heard again on another connection, after the answer was read.
    changes.announce('41|u:a');
    expect(changes.changedSince(read, ['a'], true)).toBe(false);
    // The same transaction also changed the catalogue: a different announcement.
    changes.announce('41|c');
    expect(changes.changedSince(read, ['a'], true)).toBe(true);
  });

  it('trusts nothing while not listening, and nothing read before listening resumed', () => {
    const changes = new DataChanges(false);
    expect(changes.live).toBe(false);
    const read = changes.version();
    expect(changes.changedSince(read, [], false)).toBe(true);
    changes.resumed();
    expect(changes.changedSince(read, [], false)).toBe(true);
    const fresh = changes.version();
    expect(changes.changedSince(fresh, ['a'], true)).toBe(false);
    changes.lost();
    expect(changes.live).toBe(false);
    expect(changes.changedSince(fresh, ['a'], true)).toBe(true);
  });
});

describe('ActivityPageCache', () => {
  const reader = () => {
    let reads = 0;
    return { read: async () => `page ${++reads}`, reads: () => reads };
  };

  it('reads every page while the database is not heard', async () => {
    const changes = new DataChanges(false);
    const cache = new ActivityPageCache(changes, 1024 * 1024);
    const pages = reader();
    const dependsOn = async () => ['a'];
    expect(await cache.page('k', pages.read, dependsOn)).toEqual({
      json: 'page 1',
      result: 'bypass',
    });
    expect(await cache.page('k', pages.read, dependsOn)).toEqual({
      json: 'page 2',
      result: 'bypass',
    });
    changes.resumed();
    expect(await cache.page('k', pages.read, dependsOn)).toEqual({
      json: 'page 3',
      result: 'miss',
    });
    expect(await cache.page('k', pages.read, dependsOn)).toEqual({ json: 'page 3', result: 'hit' });
    changes.lost();
    expect((await cache.page('k', pages.read, dependsOn)).result).toBe('bypass');
  });

  it('keeps no page with 0 bytes to keep them in', async () => {
    const cache = new ActivityPageCache(new DataChanges(), 0);
    const pages = reader();
    await cache.page('k', pages.read, async () => []);
    expect((await cache.page('k', pages.read, async () => [])).result).toBe('bypass');
    expect(pages.reads()).toBe(2);
  });
});
