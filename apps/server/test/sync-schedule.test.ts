import { describe, expect, it } from 'vitest';
import {
  MAX_INTERVAL_SEC,
  MIN_INTERVAL_SEC,
  RECENT_WINDOW,
  nextRecentInterval,
} from '../src/services/sync-recent';

const minutes = (n: number) => n * 60_000;
const playsEvery = (gapMs: number, count: number) =>
  Array.from({ length: count }, (_, i) => 1_700_000_000_000 + i * gapMs);

describe('nextRecentInterval', () => {
  it('polls a back-to-back listener of 30-second plays before the window is half full', () => {
    const interval = nextRecentInterval(playsEvery(30_000, 20), 600);
    const playsBeforeNextPoll = (interval * 1000) / 30_000;
    expect(playsBeforeNextPoll).toBeLessThanOrEqual(RECENT_WINDOW / 2);
    // Even with the +10 % jitter the window cannot overflow.
    expect(playsBeforeNextPoll * 1.1).toBeLessThan(RECENT_WINDOW);
  });

  it('never assumes plays shorter than Spotify counts (30 s)', () => {
    expect(nextRecentInterval(playsEvery(5_000, 10), 600)).toBe(750);
  });

  it('polls an ordinary listener less often', () => {
    expect(nextRecentInterval(playsEvery(minutes(3.5), 8), 600)).toBe(MAX_INTERVAL_SEC);
    expect(nextRecentInterval(playsEvery(minutes(1.5), 8), 600)).toBe(25 * 90);
  });

  it('backs off gradually while nothing is played, up to the ceiling', () => {
    expect(nextRecentInterval([], 600)).toBe(900);
    expect(nextRecentInterval([], MAX_INTERVAL_SEC)).toBe(MAX_INTERVAL_SEC);
    expect(nextRecentInterval([], null)).toBe(450);
  });

  it('reads the pace whatever the order of the plays: Spotify answers newest first', () => {
    expect(nextRecentInterval(playsEvery(minutes(1.5), 8).reverse(), 600)).toBe(25 * 90);
    expect(nextRecentInterval([1_700_000_000_000, 1_700_000_090_000], 600)).toBe(25 * 90);
  });

  it('takes a single play for no pace at all', () => {
    expect(nextRecentInterval([1_700_000_000_000], 600)).toBe(900);
  });

  it('never polls more often than once a minute, even when backing off from a short interval', () => {
    expect(nextRecentInterval([], 30)).toBe(MIN_INTERVAL_SEC);
    expect(nextRecentInterval([], 50)).toBe(75);
  });

  it('stays within bounds', () => {
    expect(nextRecentInterval(playsEvery(1, 3), null)).toBeGreaterThanOrEqual(MIN_INTERVAL_SEC);
  });
});
