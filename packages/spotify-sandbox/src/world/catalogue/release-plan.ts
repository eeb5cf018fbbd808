/**
 * Plans each artist's releases (originals, lead singles, remasters, compilations, live albums) and
 * their track counts, so the world has exactly the albums and tracks asked for before any is built.
 */
import type { GenreFamily } from '../genres';
import type { ReleaseDatePrecision } from '../model';
import { cumulative, pickCumulative, type Random } from '../random';
import {
  clamp,
  FIRST_RELEASE_YEAR,
  LAST_RELEASE_YEAR,
  yearOf,
  type ArtistDraft,
  type ReleaseDraft,
} from './drafts';

const DAY_MS = 86_400_000;

/** Every artist gets a release; the rest go to artists with long careers and big audiences. */
export function allocateReleases(random: Random, drafts: ArtistDraft[], albums: number): void {
  const counts = new Int32Array(drafts.length).fill(1);
  const weights = cumulative(
    drafts.map((draft) => 0.4 + (draft.end - draft.debut) / 6 + draft.popularity / 25),
  );
  for (let extra = albums - drafts.length; extra > 0; extra--) {
    const index = pickCumulative(random, weights);
    counts[index] = (counts[index] ?? 0) + 1;
  }
  drafts.forEach((draft, index) => planReleases(random, draft, counts[index] ?? 1, drafts));
}

function planReleases(
  random: Random,
  draft: ArtistDraft,
  count: number,
  drafts: readonly ArtistDraft[],
): void {
  const career = draft.end - draft.debut;
  const compilations = count >= 5 && career >= 8 && random.chance(0.55) ? (count >= 12 ? 2 : 1) : 0;
  const remasters = count - compilations >= 4 && draft.debut <= 2008 && random.chance(0.4) ? 1 : 0;
  const originals = count - compilations - remasters;

  const start = Date.UTC(draft.debut, 0, 1);
  const stop = Date.UTC(draft.end, 11, 31);
  const kinds: ('album' | 'ep' | 'single')[] = [];
  for (let index = 0; index < originals; index++) {
    kinds.push(
      random.weighted(
        ['album', 'ep', 'single'] as const,
        index === 0 ? [65, 15, 20] : [50, 15, 35],
      ),
    );
  }
  if ((compilations > 0 || remasters > 0) && !kinds.includes('album')) kinds[0] = 'album';

  const dates = kinds.map(() => start + random.next() * (stop - start)).sort((a, b) => a - b);
  const albums: ReleaseDraft[] = [];
  const releases: ReleaseDraft[] = [];
  kinds.forEach((kind, index) => {
    const date = dates[index] as number;
    const release: ReleaseDraft = {
      role: 'original',
      kind,
      date,
      precision: precisionFor(random, date),
      count: originalTrackCount(random, draft.family, kind),
      recordings: [],
    };
    if (kind === 'album') {
      albums.push(release);
      if (releases.length > 1 && random.chance(0.06)) release.role = 'live';
      if (random.chance(0.015)) {
        const partners = drafts.filter(
          (other) => other.familyIndex === draft.familyIndex && other.index !== draft.index,
        );
        if (partners.length > 0) release.partner = random.pick(partners).index;
      }
    }
    releases.push(release);
  });

  // Some singles announce an album: the same recording, weeks before.
  for (const release of releases) {
    if (release.kind !== 'single' || albums.length === 0 || !random.chance(0.6)) continue;
    const album = random.pick(albums);
    if (album.role === 'live') continue;
    release.role = 'lead-single';
    release.source = album;
    release.date = Math.max(
      Date.UTC(FIRST_RELEASE_YEAR, 0, 1),
      album.date - random.int(20, 120) * DAY_MS,
    );
    release.precision = album.precision === 'year' ? 'year' : 'day';
    release.count = random.chance(0.2) ? 1 : 0;
  }

  for (let index = 0; index < remasters; index++) {
    const candidates = albums.filter(
      (album) => album.role === 'original' && !album.remastered && yearOf(album.date) <= 2008,
    );
    const source = candidates.length > 0 ? random.pick(candidates) : undefined;
    if (!source) {
      releases.push(extraAlbum(random, draft, start, stop));
      continue;
    }
    source.remastered = true;
    const year = random.int(Math.max(yearOf(source.date) + 10, 1995), LAST_RELEASE_YEAR);
    const date = Date.UTC(year, random.int(0, 11), random.int(1, 28));
    releases.push({
      role: 'remaster',
      kind: 'album',
      date,
      precision: 'day',
      count: random.chance(0.3) ? random.int(1, 4) : 0,
      source,
      recordings: [],
    });
  }

  for (let index = 0; index < compilations; index++) {
    // A compilation needs something to compile: it comes out at least a year after the first
    // original release.
    const first = Math.min(
      ...releases.filter((release) => release.role === 'original').map((release) => release.date),
    );
    if (yearOf(first) >= LAST_RELEASE_YEAR) {
      releases.push(extraAlbum(random, draft, start, stop));
      continue;
    }
    const year = random.int(yearOf(first) + 1, LAST_RELEASE_YEAR);
    const date = Date.UTC(year, random.int(0, 11), random.int(1, 28));
    releases.push({
      role: 'compilation',
      kind: 'compilation',
      date,
      precision: precisionFor(random, date),
      count: random.int(10, 20),
      recordings: [],
    });
  }
  releases.sort((a, b) => a.date - b.date);
  draft.releases = releases;
}

function extraAlbum(random: Random, draft: ArtistDraft, start: number, stop: number): ReleaseDraft {
  const date = start + random.next() * (stop - start);
  return {
    role: 'original',
    kind: 'album',
    date,
    precision: precisionFor(random, date),
    count: originalTrackCount(random, draft.family, 'album'),
    recordings: [],
  };
}

function originalTrackCount(random: Random, family: GenreFamily, kind: 'album' | 'ep' | 'single') {
  if (kind === 'single') return random.chance(0.25) ? 2 : 1;
  if (kind === 'ep') return random.int(4, 6);
  return clamp(Math.round(random.normal(family.albumTracks, 2.5)), 6, 24);
}

/** Old releases often carry only a year on Spotify; recent ones a full date. */
function precisionFor(random: Random, date: number): ReleaseDatePrecision {
  const year = yearOf(date);
  if (year < 1980) return random.weighted(['year', 'month', 'day'] as const, [55, 10, 35]);
  if (year < 2000) return random.weighted(['year', 'month', 'day'] as const, [25, 10, 65]);
  return random.weighted(['year', 'day'] as const, [4, 96]);
}

/**
 * Grows or shrinks original albums and EPs until the world has exactly the tracks asked for (or as
 * close as their size limits allow). Compilations are first capped to what their sources hold at
 * the smallest, so resizing a source never changes them.
 */
export function fitTrackCount(random: Random, drafts: ArtistDraft[], target: number): void {
  for (const draft of drafts) {
    for (const release of draft.releases) {
      if (release.role === 'compilation') {
        release.count = Math.min(release.count, smallestSources(draft, release));
      }
    }
  }
  const adjustable = drafts.flatMap((draft) =>
    draft.releases.filter((release) => sizeLimits(release) !== undefined),
  );
  let missing = target - countTracks(drafts);
  let stalled = 0;
  while (missing !== 0 && adjustable.length > 0 && stalled < adjustable.length * 4) {
    const release = random.pick(adjustable);
    const [low, high] = sizeLimits(release) ?? [0, 0];
    const step = release.remastered ? 2 : 1;
    if (missing > 0 && release.count < high && step <= missing) {
      release.count++;
      missing -= step;
      stalled = 0;
    } else if (missing < 0 && release.count > low && step <= -missing) {
      release.count--;
      missing += step;
      stalled = 0;
    } else {
      stalled++;
    }
  }
}

/** How small and big a resizable release may get; undefined for the others. */
function sizeLimits(release: ReleaseDraft): readonly [number, number] | undefined {
  if (release.role === 'live') return [5, 40];
  if (release.role !== 'original') return undefined;
  if (release.kind === 'album') return [5, 40];
  if (release.kind === 'ep') return [3, 8];
  return undefined;
}

function countTracks(drafts: readonly ArtistDraft[]): number {
  let total = 0;
  for (const draft of drafts) {
    for (const release of draft.releases) total += tracksOn(release);
  }
  return total;
}

/** Tracks on a release once built (new recordings plus those shared with other releases). */
function tracksOn(release: ReleaseDraft): number {
  switch (release.role) {
    case 'original':
    case 'live':
    case 'compilation':
      return release.count;
    case 'lead-single':
      return 1 + release.count;
    case 'remaster':
      return (release.source?.count ?? 0) + release.count;
  }
}

/** Recordings a compilation can draw from however its sources are resized. */
function smallestSources(draft: ArtistDraft, compilation: ReleaseDraft): number {
  let available = 0;
  for (const release of draft.releases) {
    if (
      release.date < compilation.date &&
      (release.role === 'original' || release.role === 'live')
    ) {
      available += sizeLimits(release)?.[0] ?? release.count;
    }
  }
  return available;
}
