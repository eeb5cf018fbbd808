import { describe, expect, it } from 'vitest';
import { DataChanges } from '../src/db/changes';

describe('DataChanges', () => {
  it('counts an answer changed when one of its users or the catalogue is announced after it', () => {
    const changes = new DataChanges();
    const read = changes.version();
    changes.announce('u:a,b');
    expect(changes.changedSince(read, ['a'], false)).toBe(true);
    expect(changes.changedSince(read, ['c'], true)).toBe(false);
    const later = changes.version();
    expect(changes.changedSince(later, ['a', 'b'], false)).toBe(false);
    changes.announce('c');
    expect(changes.changedSince(later, ['c'], false)).toBe(false);
    expect(changes.changedSince(later, ['c'], true)).toBe(true);
    const last = changes.version();
    changes.announce('*');
    expect(changes.changedSince(last, [], false)).toBe(true);
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
