import { describe, expect, it } from 'vitest';
import { buildSandbox } from './helpers';
import { createWorld, DEFAULT_WORLD_SEED } from '../src/world/world';

describe('start-up', () => {
  it('builds the default-sized world in well under 2 seconds and 300 MB', () => {
    const heapBefore = process.memoryUsage().heapUsed;
    const started = performance.now();
    // A seed no other test uses, so nothing is cached.
    const world = createWorld({ seed: DEFAULT_WORLD_SEED + 1 });
    const recent = world.accounts.map((account) => world.recentPlays(account.id, Date.now(), 50));
    const elapsed = performance.now() - started;
    const heapMb = (process.memoryUsage().heapUsed - heapBefore) / 1e6;
    console.log(
      `world start-up: ${elapsed.toFixed(0)} ms (with everyone's recently played), +${heapMb.toFixed(0)} MB heap`,
    );

    expect(recent.every((plays) => plays.length === 50)).toBe(true);
    // Generous bounds: CI machines are slow and shared; the figure above is the real one.
    expect(elapsed).toBeLessThan(6000);
    expect(heapMb).toBeLessThan(300);
  });

  it('lets sandboxes share a prebuilt world, or build their own from a seed', async () => {
    const world = createWorld({ seed: 99, sizes: { artists: 50, albums: 120, tracks: 900 } });
    const shared = await buildSandbox({ world });
    const own = await buildSandbox({
      seed: 99,
      worldSizes: { artists: 50, albums: 120, tracks: 900 },
    });
    try {
      const album = world.albums[0]?.id ?? '';
      for (const app of [shared, own]) {
        const cover = await app.inject({ url: `/sandbox/images/albums/300/${album}` });
        expect(cover.statusCode).toBe(200);
      }
      await expect(buildSandbox({ world, seed: 1 })).rejects.toThrow(/either a world/);
    } finally {
      await Promise.all([shared.close(), own.close()]);
    }
  });
});
