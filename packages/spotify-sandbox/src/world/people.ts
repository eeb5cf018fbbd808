import { pickArtistTrack, type Catalogue } from './catalogue';
import { DEMO_FRIENDSHIPS, DEMO_PEOPLE, type DemoPerson, type DemoPersona } from './demo-accounts';
import { familyNamed, type NameFlavour } from './genres';
import type { Account, FollowedArtist, Playlist, PlaylistItem, Taste, WorldSizes } from './model';
import { personName, playlistDescription, playlistName } from './names';
import { cumulative, hashString, pickCumulative, Random } from './random';

/**
 * The generated side of the sandbox's people: taste, when they joined, their playlists and the
 * artists they followed early on. Listening, likes and later follows come from `listening.ts` and
 * `library.ts`.
 */

/**
 * Generated libraries (playlists, first follows) date from before this instant; listening goes on
 * from the accounts' creation to whenever the world is asked about.
 */
export const WORLD_REFERENCE_TIME = Date.UTC(2026, 0, 1);
const DAY_MS = 86_400_000;
const YEAR_MS = 365.25 * DAY_MS;
const PEOPLE_SALT = 0x70706c65;

export interface PlaylistFollow {
  accountId: string;
  playlistId: string;
  followedAt: number;
}

export interface People {
  accounts: Account[];
  personas: DemoPersona[];
  playlists: Playlist[];
  /** Playlists accounts follow without owning them (collaborators included). */
  playlistFollows: PlaylistFollow[];
  /** Per account (same order): artists followed when the library was generated. */
  initialFollows: FollowedArtist[][];
  /** Per account: favourite artists and the artists of its genres, as catalogue indexes. */
  favourites: number[][];
  genrePools: number[][];
}

export function generatePeople(seed: number, catalogue: Catalogue, sizes: WorldSizes): People {
  const accounts: Account[] = [];
  const favourites: number[][] = [];
  const genrePools: number[][] = [];
  const people = [...DEMO_PEOPLE];
  for (let index = DEMO_PEOPLE.length; index < sizes.accounts; index++) {
    people.push(crowdPerson(seed, index));
  }
  for (const { account, persona } of people) {
    const random = Random.derive(seed, PEOPLE_SALT, hashString(account.id));
    const createdAt = Math.round(
      WORLD_REFERENCE_TIME - sizes.historyYears * YEAR_MS * random.between(0.6, 1),
    );
    const genres = tasteGenres(random, catalogue, persona);
    const pool = [...new Set(genres.flatMap((genre) => catalogue.genreArtists.get(genre) ?? []))];
    const favouriteIndexes = pickFavourites(random, catalogue, pool);
    favourites.push(favouriteIndexes);
    genrePools.push(pool.filter((artist) => !favouriteIndexes.includes(artist)));
    const taste: Taste = {
      genres,
      favouriteArtistIds: favouriteIndexes.map((index) => catalogue.artists[index]?.id ?? ''),
      discoveryRate: persona.discoveryRate,
      dailyPlays: persona.dailyPlays,
      skipRate: Math.round(random.between(0.08, 0.25) * 100) / 100,
      dayShiftHours: persona.dayShiftHours,
    };
    accounts.push({ ...account, timeZone: persona.timeZone, createdAt, taste });
  }

  const playlists: Playlist[] = [];
  const playlistFollows: PlaylistFollow[] = [];
  accounts.forEach((account, index) => {
    const random = Random.derive(seed, PEOPLE_SALT, hashString(account.id), 1);
    const count = random.int(2, 6);
    const names = new Set<string>();
    for (let made = 0; made < count; made++) {
      const playlist = makePlaylist(
        random,
        catalogue,
        account,
        favourites[index] ?? [],
        genrePools[index] ?? [],
        names,
      );
      playlists.push(playlist);
      if (playlist.collaborative) {
        const friends = acceptedFriends(account.id).filter((id) =>
          accounts.some((other) => other.id === id),
        );
        for (const friend of random.sample(friends, random.int(1, 2))) {
          addCollaborator(random, catalogue, playlist, friend, accounts, favourites, genrePools);
          playlistFollows.push({
            accountId: friend,
            playlistId: playlist.id,
            // They join when they first add to it, or when both it and they exist.
            followedAt:
              playlist.items.find((item) => item.addedBy === friend)?.addedAt ??
              Math.max(
                playlist.createdAt,
                accounts.find((other) => other.id === friend)?.createdAt ?? 0,
              ),
          });
        }
      }
    }
  });

  // Everyone follows a few public playlists of others, friends' first.
  accounts.forEach((account) => {
    const random = Random.derive(seed, PEOPLE_SALT, hashString(account.id), 2);
    const friends = new Set(acceptedFriends(account.id));
    const candidates = playlists.filter(
      (playlist) => playlist.public && playlist.ownerId !== account.id,
    );
    const weights = candidates.map((playlist) => (friends.has(playlist.ownerId) ? 6 : 1));
    const chosen = new Set<Playlist>();
    for (let pick = random.int(1, 4); pick > 0 && chosen.size < candidates.length; pick--) {
      chosen.add(random.weighted(candidates, weights));
    }
    for (const playlist of chosen) {
      const from = Math.max(playlist.createdAt, account.createdAt);
      playlistFollows.push({
        accountId: account.id,
        playlistId: playlist.id,
        followedAt: Math.round(from + random.next() * (WORLD_REFERENCE_TIME - from)),
      });
    }
  });
  for (const playlist of playlists) {
    const random = Random.derive(seed, PEOPLE_SALT, hashString(playlist.id));
    const followers = playlistFollows.filter((follow) => follow.playlistId === playlist.id).length;
    playlist.followers = followers + (playlist.public ? Math.floor(random.next() ** 3 * 120) : 0);
  }

  const initialFollows = accounts.map((account, index) =>
    firstFollows(seed, catalogue, account, favourites[index] ?? [], genrePools[index] ?? []),
  );
  return {
    accounts,
    personas: people.map(({ persona }) => persona),
    playlists,
    playlistFollows,
    initialFollows,
    favourites,
    genrePools,
  };
}

const CROWD_SALT = 0x63726f77;
const CROWD_ID_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
const ACCOUNT_ID_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const CROWD_FLAVOURS: readonly NameFlavour[] = ['english', 'nordic', 'german'];

/**
 * A generated listener beyond the demo people (the `index`-th account of a bigger world): the
 * habits of one of the demo personas, with a name, pace and taste of their own. A pure function
 * of the seed and the index, so bigger worlds keep the accounts of smaller ones.
 */
export function crowdPerson(seed: number, index: number): DemoPerson {
  const random = Random.derive(seed, CROWD_SALT, index);
  const template = random.pick(DEMO_PEOPLE);
  const displayName = personName(random, random.pick(CROWD_FLAVOURS));
  return {
    account: {
      // Newer Spotify user ids: 28 random lower-case letters and digits.
      id: `31${random.chars(CROWD_ID_ALPHABET, 26)}`,
      accountId: random.chars(ACCOUNT_ID_ALPHABET, 10),
      displayName,
      email: `${displayName.toLowerCase().replace(/[^a-z]+/g, '.')}.${index}@example.com`,
      product: random.chance(0.7) ? 'premium' : 'free',
      country: template.account.country,
      followers: Math.floor(random.next() ** 3 * 400),
      explicitContent: { filterEnabled: random.chance(0.05), filterLocked: false },
    },
    persona: {
      ...template.persona,
      dailyPlays: Math.max(4, Math.round(template.persona.dailyPlays * random.between(0.4, 1.6))),
      discoveryRate: Math.round(random.between(0.1, 0.45) * 100) / 100,
    },
  };
}

/** Ids of the people an account is (accepted) friends with in the demo. */
export function acceptedFriends(accountId: string): string[] {
  return DEMO_FRIENDSHIPS.filter(
    (friendship) =>
      friendship.state === 'accepted' &&
      (friendship.from === accountId || friendship.to === accountId),
  ).map((friendship) => (friendship.from === accountId ? friendship.to : friendship.from));
}

/** 3–4 genres of the main family, 1–2 of each other one, those with more artists more likely. */
function tasteGenres(random: Random, catalogue: Catalogue, persona: DemoPersona): string[] {
  const genres: string[] = [];
  persona.families.forEach((name, rank) => {
    const names = familyNamed(name)
      .genres.map(([genre]) => genre)
      .filter((genre) => catalogue.genreArtists.has(genre));
    const weights = names.map((genre) => catalogue.genreArtists.get(genre)?.length ?? 0);
    const wanted = Math.min(names.length, rank === 0 ? random.int(3, 4) : random.int(1, 2));
    let picked = 0;
    for (let attempt = 0; picked < wanted && attempt < wanted * 8; attempt++) {
      const genre = random.weighted(names, weights);
      if (genres.includes(genre)) continue;
      genres.push(genre);
      picked++;
    }
  });
  return genres;
}

function pickFavourites(random: Random, catalogue: Catalogue, pool: readonly number[]): number[] {
  if (pool.length === 0) return [];
  const weights = cumulative(
    pool.map((artist) => Math.exp((catalogue.artists[artist]?.popularity ?? 0) / 25)),
  );
  const chosen = new Set<number>();
  const wanted = Math.min(pool.length, random.int(8, 20));
  for (let attempt = 0; chosen.size < wanted && attempt < wanted * 10; attempt++) {
    chosen.add(pool[pickCumulative(random, weights)] as number);
  }
  return [...chosen];
}

/** An artist of the account's taste: a favourite mostly, else one of its genres. */
export function tasteArtist(
  random: Random,
  favourites: readonly number[],
  pool: readonly number[],
  favouriteShare: number,
): number {
  if (favourites.length > 0 && (pool.length === 0 || random.chance(favouriteShare))) {
    // Favourites are in order of preference: the first ones come up most.
    const rank = Math.floor(favourites.length * random.next() ** 1.6);
    return favourites[rank] as number;
  }
  return pool.length > 0 ? random.pick(pool) : -1;
}

function makePlaylist(
  random: Random,
  catalogue: Catalogue,
  account: Account,
  favourites: readonly number[],
  pool: readonly number[],
  takenNames: Set<string>,
): Playlist {
  const span = WORLD_REFERENCE_TIME - account.createdAt;
  const createdAt = Math.round(account.createdAt + random.between(0.02, 0.9) * span);
  const genre = random.pick(account.taste.genres.length > 0 ? account.taste.genres : ['music']);
  const collaborative = random.chance(0.15);
  const year = new Date(createdAt).getUTCFullYear();
  let name = playlistName(random, genre, year);
  for (let attempt = 0; takenNames.has(name) && attempt < 10; attempt++) {
    name = playlistName(random, genre, year);
  }
  if (takenNames.has(name)) name = `${name} ${takenNames.size + 1}`;
  takenNames.add(name);
  const playlist: Playlist = {
    id: random.base62Id(),
    name,
    description: playlistDescription(random, genre),
    ownerId: account.id,
    public: !collaborative && random.chance(0.75),
    collaborative,
    createdAt,
    followers: 0,
    items: [],
  };
  const growUntil = Math.min(WORLD_REFERENCE_TIME, createdAt + 540 * DAY_MS);
  const count = random.int(12, 60);
  const items: PlaylistItem[] = [];
  const seen = new Set<string>();
  for (let attempt = 0; items.length < count && attempt < count * 4; attempt++) {
    // Most of a playlist is put together the day it is made; the rest trickles in.
    const addedAt = random.chance(0.6)
      ? createdAt + random.int(0, 3_600_000)
      : Math.round(createdAt + random.next() * (growUntil - createdAt));
    const artist = tasteArtist(random, favourites, pool, 0.65);
    const track = artist < 0 ? -1 : pickArtistTrack(catalogue, random, artist, addedAt);
    const trackId = catalogue.tracks[track]?.id;
    if (!trackId || seen.has(trackId)) continue;
    seen.add(trackId);
    items.push({ trackId, addedAt, addedBy: account.id });
  }
  playlist.items = items.sort((a, b) => a.addedAt - b.addedAt);
  return playlist;
}

function addCollaborator(
  random: Random,
  catalogue: Catalogue,
  playlist: Playlist,
  friendId: string,
  accounts: readonly Account[],
  favourites: readonly number[][],
  pools: readonly number[][],
): void {
  const index = accounts.findIndex((account) => account.id === friendId);
  const friend = accounts[index];
  if (!friend) return;
  const from = Math.max(playlist.createdAt, friend.createdAt);
  const items = playlist.items.slice();
  const seen = new Set(items.map((item) => item.trackId));
  for (let added = random.int(4, 15); added > 0; added--) {
    const addedAt = Math.round(from + random.next() * (WORLD_REFERENCE_TIME - from));
    const artist = tasteArtist(random, favourites[index] ?? [], pools[index] ?? [], 0.6);
    const trackId =
      catalogue.tracks[artist < 0 ? -1 : pickArtistTrack(catalogue, random, artist, addedAt)]?.id;
    if (!trackId || seen.has(trackId)) continue;
    seen.add(trackId);
    items.push({ trackId, addedAt, addedBy: friendId });
  }
  playlist.items = items.sort((a, b) => a.addedAt - b.addedAt);
}

/** Most favourites and a few others, half followed in the first month, the rest later. */
function firstFollows(
  seed: number,
  catalogue: Catalogue,
  account: Account,
  favourites: readonly number[],
  pool: readonly number[],
): FollowedArtist[] {
  const random = Random.derive(seed, PEOPLE_SALT, hashString(account.id), 3);
  const artists = new Set(favourites.filter(() => random.chance(0.75)));
  for (const artist of random.sample(pool, random.int(5, 25))) artists.add(artist);
  const span = WORLD_REFERENCE_TIME - account.createdAt;
  return [...artists].map((artist) => {
    const firstRelease = catalogue.artistTrackReleases[artist]?.[0] ?? account.createdAt;
    const from = Math.max(account.createdAt, firstRelease);
    const followedAt = random.chance(0.5)
      ? from + random.int(0, 30) * DAY_MS + random.int(0, DAY_MS - 1)
      : from + random.next() * Math.max(0, WORLD_REFERENCE_TIME - from);
    return {
      artistId: catalogue.artists[artist]?.id ?? '',
      followedAt: Math.round(Math.min(followedAt, account.createdAt + span)),
    };
  });
}
