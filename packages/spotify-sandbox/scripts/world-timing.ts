/**
 * How long the sandbox's world takes to build and answer, and what it weighs:
 *   npx tsx packages/spotify-sandbox/scripts/world-timing.ts [historyYears] [dailyPlaysScale]
 */
import { createWorld, DEFAULT_WORLD_SIZES } from '../src/world/world';

const historyYears = Number(process.argv[2] ?? DEFAULT_WORLD_SIZES.historyYears);
const dailyPlaysScale = Number(process.argv[3] ?? DEFAULT_WORLD_SIZES.dailyPlaysScale);

function measure<T>(label: string, work: () => T): T {
  const started = performance.now();
  const result = work();
  console.log(`${label}: ${(performance.now() - started).toFixed(0)} ms`);
  return result;
}

const heapBefore = process.memoryUsage().heapUsed;
const world = measure('build the world', () =>
  createWorld({ sizes: { historyYears, dailyPlaysScale } }),
);
console.log(
  `  ${world.artists.length} artists, ${world.albums.length} albums, ${world.tracks.length} tracks`,
);
const now = Date.now();
measure("everyone's recently played", () => {
  for (const account of world.accounts) world.recentPlays(account.id, now, 50);
});
measure("everyone's saved tracks (works out years of likes)", () => {
  for (const account of world.accounts) world.savedTracks(account.id, now);
});
const plays = measure("everyone's whole history", () => {
  let count = 0;
  for (const account of world.accounts) for (const _play of world.history(account.id, now)) count++;
  return count;
});
console.log(`  ${plays} plays`);
const { heapUsed, rss } = process.memoryUsage();
console.log(
  `heap +${((heapUsed - heapBefore) / 1e6).toFixed(0)} MB, rss ${(rss / 1e6).toFixed(0)} MB`,
);
