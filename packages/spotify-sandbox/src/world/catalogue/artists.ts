/**
 * Drafts the artists of a catalogue: genre family, career span, name, popularity, labels; then
 * their followers and genres once they are Artists. The release plan builds on these drafts.
 */
import { GENRE_FAMILIES, type GenreFamily } from '../genres';
import type { Artist } from '../model';
import { artistName } from '../names';
import type { Random } from '../random';
import { clamp, FIRST_RELEASE_YEAR, LAST_RELEASE_YEAR, type ArtistDraft } from './drafts';

export function draftArtists(
  random: Random,
  count: number,
  labels: readonly string[],
): ArtistDraft[] {
  const familyWeights = GENRE_FAMILIES.map((family) => family.weight);
  const familyIndexes = GENRE_FAMILIES.map((_, index) => index);
  const names = new Set<string>();
  const drafts: ArtistDraft[] = [];
  for (let index = 0; index < count; index++) {
    const familyIndex = random.weighted(familyIndexes, familyWeights);
    const family = GENRE_FAMILIES[familyIndex] as GenreFamily;
    const [, from, to] = random.pick(family.genres);
    const first = Math.max(FIRST_RELEASE_YEAR, from);
    const last = Math.min(LAST_RELEASE_YEAR, to);
    // More artists debut recently, as in a streaming catalogue.
    const debut = Math.min(last, first + Math.floor(Math.sqrt(random.next()) * (last - first + 1)));
    const end = random.chance(0.55)
      ? LAST_RELEASE_YEAR
      : Math.min(LAST_RELEASE_YEAR, debut + random.int(1, 25));
    const flavour = random.pick(family.flavours);
    const act = random.pick(family.acts);
    let name = artistName(random, flavour, act);
    for (let attempt = 0; names.has(name) && attempt < 20; attempt++) {
      name = artistName(random, flavour, act);
    }
    if (names.has(name)) name = `${name} ${random.pick(['II', 'Collective', 'Project', 'Band'])}`;
    names.add(name);
    const popularity = clamp(
      Math.round(random.normal(38, 16) + (random.chance(0.05) ? 35 : 0)),
      1,
      97,
    );
    drafts.push({
      index,
      family,
      familyIndex,
      flavour,
      act,
      name,
      debut,
      end,
      popularity,
      country: random.pick(family.countries),
      labels: random.sample(labels, random.int(1, 2)),
      explicitness: clamp(family.explicitRate * random.between(0.2, 1.8), 0, 0.95),
      releases: [],
    });
  }
  return drafts;
}

export function followersFor(random: Random, popularity: number): number {
  return Math.round(10 ** (1.2 + popularity * 0.065 + random.normal(0, 0.35)));
}

/** 1–3 genres: one from the artist's era first, then neighbours of the same family. */
export function assignGenres(
  random: Random,
  drafts: readonly ArtistDraft[],
  artists: Artist[],
): void {
  drafts.forEach((draft, index) => {
    const living = draft.family.genres.filter(
      ([, from, to]) => from <= draft.end && to >= draft.debut,
    );
    const pool = living.length > 0 ? living : draft.family.genres;
    const count = random.weighted([1, 2, 3], [3, 4, 3]);
    const genres = random.sample(
      pool.map(([name]) => name),
      count,
    );
    (artists[index] as Artist).genres = genres;
  });
}
