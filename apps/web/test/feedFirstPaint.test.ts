import { afterEach, describe, expect, it, vi } from 'vitest';
import { firstPaintRows } from '../src/features/activity/components/ActivityList';

/** A screen `height` px tall, at most 600 px wide or wider. */
function screenOf(height: number, narrow: boolean) {
  vi.stubGlobal('innerHeight', height);
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: query === '(max-width: 600px)' && narrow,
  }));
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("the rows a feed's first answer paints before the rest", () => {
  it('fill the screen at the least row height, and no more', () => {
    screenOf(823, true); // a phone: rows are 117-137 px there
    expect(firstPaintRows()).toBe(8);
    screenOf(667, true);
    expect(firstPaintRows()).toBe(6);
    screenOf(900, false); // a laptop: rows are 69 px
    expect(firstPaintRows()).toBe(14);
    screenOf(690, false);
    expect(firstPaintRows()).toBe(10);
  });
});
