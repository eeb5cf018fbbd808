import { describe, expect, it } from 'vitest';
import { DEMO_PEOPLE } from '../src/world/demo-accounts';
import { createWorld, DEFAULT_WORLD_SIZES } from '../src/world/world';

const SMALL = { artists: 120, albums: 320, tracks: 3000, historyYears: 1 };
const NOW = Date.UTC(2026, 10, 21, 20);

describe('the accounts size (benchmarks)', () => {
  it('is the demo people by default', () => {
    expect(DEFAULT_WORLD_SIZES.accounts).toBe(DEMO_PEOPLE.length);
    expect(createWorld({ seed: 31, sizes: SMALL }).accounts.map((account) => account.id)).toEqual(
      DEMO_PEOPLE.map(({ account }) => account.id),
    );
  });

  it('adds generated listeners after the demo people, the same for the same seed', () => {
    const world = createWorld({ seed: 31, sizes: { ...SMALL, accounts: 60 } });
    expect(world.accounts).toHaveLength(60);
    expect(world.accounts.slice(0, DEMO_PEOPLE.length).map((account) => account.id)).toEqual(
      DEMO_PEOPLE.map(({ account }) => account.id),
    );
    expect(new Set(world.accounts.map((account) => account.id)).size).toBe(60);
    const crowd = world.accounts.slice(DEMO_PEOPLE.length);
    for (const account of crowd) {
      expect(account.id).toMatch(/^31[a-z0-9]{26}$/);
      expect(world.account(account.id)).toBe(account);
    }
    // They listen like the demo people do, and keep their identity in bigger worlds.
    const listening = crowd.filter(
      (account) => world.playsBetween(account.id, NOW - 7 * 86_400_000, NOW).length > 0,
    );
    expect(listening.length).toBeGreaterThan(crowd.length * 0.9);
    const bigger = createWorld({ seed: 31, sizes: { ...SMALL, accounts: 80 } });
    expect(bigger.accounts.slice(0, 60).map((account) => account.id)).toEqual(
      world.accounts.map((account) => account.id),
    );
  });

  it('refuses fewer accounts than the demo people, or a fraction', () => {
    expect(() => createWorld({ sizes: { ...SMALL, accounts: 3 } })).toThrow(RangeError);
    expect(() => createWorld({ sizes: { ...SMALL, accounts: 20.5 } })).toThrow(RangeError);
  });
});
