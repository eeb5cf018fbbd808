import type { SandboxAccount } from './account';

/**
 * The plain data of the sandbox's world and the `World` that answers questions about it. Everything
 * here is generated from a seed (see `generate.ts`); the Web API, the player and the exports read it
 * through `World` and never generate anything themselves.
 *
 * Times are milliseconds since the Unix epoch (UTC). Ids are Spotify-style 22-character base62.
 * Lists are read-only: the world owns them; mutations go through `World`'s methods.
 */

export interface Artist {
  id: string;
  name: string;
  /** 1–3 real Spotify genre names, most characteristic first. */
  genres: readonly string[];
  followers: number;
  /** 0–100, as Spotify reports it. */
  popularity: number;
  /** The artist's own releases (albums, singles, EPs, compilations), oldest first. */
  albumIds: readonly string[];
}

/**
 * What a release is. Spotify reports EPs as `album_type: "single"`; `albumType` is the value the Web
 * API shows, `kind` what the release really is.
 */
export type AlbumKind = 'album' | 'single' | 'ep' | 'compilation';
export type AlbumType = 'album' | 'single' | 'compilation';
export type ReleaseDatePrecision = 'year' | 'month' | 'day';

export interface Copyright {
  text: string;
  /** C = the composition's copyright, P = the sound recording's. */
  type: 'C' | 'P';
}

export interface Album {
  id: string;
  name: string;
  kind: AlbumKind;
  albumType: AlbumType;
  /** Album artists, the main one first. */
  artistIds: readonly string[];
  /** As Spotify prints it: "1974", "1974-05" or "1974-05-17", per `releaseDatePrecision`. */
  releaseDate: string;
  releaseDatePrecision: ReleaseDatePrecision;
  /** The release date as a UTC midnight (missing month/day taken as 1): for sorting and filtering. */
  releasedAt: number;
  label: string;
  /** 12 digits with a valid check digit. */
  upc: string;
  copyrights: readonly Copyright[];
  popularity: number;
  /** In disc and track order. */
  trackIds: readonly string[];
}

export interface Track {
  id: string;
  name: string;
  albumId: string;
  /** Performing artists, the main one first (features after). */
  artistIds: readonly string[];
  discNumber: number;
  trackNumber: number;
  durationMs: number;
  explicit: boolean;
  popularity: number;
  /**
   * The recording's ISRC. The same recording released again (a single and its album, a remaster,
   * a compilation) keeps its ISRC, so several tracks can share one.
   */
  isrc: string;
}

/** How a simulated person listens. */
export interface Taste {
  /** Genres the person gravitates to, favourite first. */
  genres: readonly string[];
  /** Artists they come back to, favourite first. */
  favouriteArtistIds: readonly string[];
  /** Share of plays (0–1) that go outside the favourite artists. */
  discoveryRate: number;
  /** Average plays per day (before the world's `dailyPlaysScale`). */
  dailyPlays: number;
  /** Share of plays (0–1) cut short by skipping to the next track. */
  skipRate: number;
  /** Hours their listening day runs late (night owls, positive) or early (negative). */
  dayShiftHours: number;
}

/** A sandbox user: the `/v1/me` facts plus what the living world needs. */
export interface Account extends SandboxAccount {
  /** IANA time zone of the person's country: drives the daily rhythm of listening. */
  timeZone: string;
  /** When the account was created; simulated listening starts then. */
  createdAt: number;
  taste: Taste;
}

export interface SavedTrack {
  trackId: string;
  addedAt: number;
}

export interface FollowedArtist {
  artistId: string;
  followedAt: number;
}

export interface PlaylistItem {
  trackId: string;
  addedAt: number;
  /** Account id of whoever added it (other people add to collaborative playlists). */
  addedBy: string;
}

export interface Playlist {
  id: string;
  name: string;
  description: string;
  ownerId: string;
  public: boolean;
  collaborative: boolean;
  createdAt: number;
  followers: number;
  /** In playlist order, which is also the order they were added in. */
  items: readonly PlaylistItem[];
}

export type PlayContextType = 'album' | 'playlist' | 'artist';

export interface PlayContext {
  type: PlayContextType;
  /** e.g. "spotify:album:…", "spotify:playlist:…", "spotify:artist:…". */
  uri: string;
}

/** Spotify's device classes, as the player reports `device.type` (lower-cased). */
export type DeviceType = 'computer' | 'smartphone' | 'speaker';

/**
 * A file on the listener's own device played through Spotify (a "local file"): Spotify knows it
 * only by the tags it read, and gives it no id.
 */
export interface LocalFile {
  artist: string;
  album: string;
  title: string;
  durationMs: number;
}

/** Spotify's URI of a local file: `spotify:local:{artist}:{album}:{title}:{seconds}`, form-encoded. */
export function localFileUri(file: LocalFile): string {
  const part = (text: string) => encodeURIComponent(text).replace(/%20/g, '+');
  const seconds = Math.round(file.durationMs / 1000);
  return `spotify:local:${part(file.artist)}:${part(file.album)}:${part(file.title)}:${seconds}`;
}

/** One listen of one track, simulated or recorded by the sandbox's real player. */
export interface Play {
  accountId: string;
  /** The catalogue track; for a local file, its `spotify:local:` URI (see `localFile`). */
  trackId: string;
  /** Set when the play was of a local file, never for generated plays. */
  localFile?: LocalFile;
  /** When the play ended, as Spotify's `played_at` and the exports' `ts`. */
  playedAt: number;
  /** How long it was heard; less than the track's duration when skipped or stopped. */
  msPlayed: number;
  context: PlayContext | null;
  shuffle: boolean;
  device: DeviceType;
}

export interface NowPlaying {
  /** The play as it will be recorded when it ends (its `msPlayed` tells whether it gets skipped). */
  play: Play;
  track: Track;
  /** When the play started (`play.playedAt - play.msPlayed`). */
  startedAt: number;
  /** How far into the track the person is at the asked time. */
  progressMs: number;
}

/** Sizes of a generated world. The benchmark asks for bigger ones. */
export interface WorldSizes {
  artists: number;
  albums: number;
  tracks: number;
  /** How many years of listening history accounts have before the world's reference date. */
  historyYears: number;
  /** Multiplies every account's daily listening (1 = the default, 10 = ten times the plays). */
  dailyPlaysScale: number;
  /**
   * How many accounts: the demo people (the default, and the least), then generated listeners
   * after them, e.g. a thousand for the sync benchmark.
   */
  accounts: number;
}

/**
 * The world: a catalogue, accounts, their libraries and their listening, as a pure function of
 * the seed and the time asked about, plus overlays of what the API and the real player changed.
 *
 * Every question about accounts takes the time (`atMs`) it is asked at, normally the sandbox
 * clock's `now()`: nothing happens before it is asked about, and no timers run.
 */
export interface World {
  readonly seed: number;
  readonly sizes: Readonly<WorldSizes>;

  // Catalogue
  readonly artists: readonly Artist[];
  readonly albums: readonly Album[];
  readonly tracks: readonly Track[];
  /** Every genre artists of this world have. */
  readonly genres: readonly string[];
  artist(id: string): Artist | undefined;
  album(id: string): Album | undefined;
  track(id: string): Track | undefined;
  /** Every release of a recording (at least the track itself for a known ISRC). */
  tracksByIsrc(isrc: string): readonly Track[];
  /** Up to 10 of the artist's most popular tracks, most popular first. */
  topTracks(artistId: string): readonly Track[];

  // Accounts
  readonly accounts: readonly Account[];
  account(id: string): Account | undefined;
  readonly playlists: readonly Playlist[];
  playlist(id: string): Playlist | undefined;
  /**
   * The playlists in an account's library at a time (its own and those it follows), as
   * `/me/playlists` lists them: most recently created or followed first.
   */
  playlistsOf(accountId: string, atMs: number): readonly Playlist[];
  /** A playlist's items as they were at a time (those added at or before it). */
  playlistItems(playlistId: string, atMs: number): readonly PlaylistItem[];

  // Library: generated, evolving with the listening, with the API's changes on top.
  /** Saved tracks at a time, most recently added first. */
  savedTracks(accountId: string, atMs: number): readonly SavedTrack[];
  saveTracks(accountId: string, trackIds: readonly string[], atMs: number): void;
  removeSavedTracks(accountId: string, trackIds: readonly string[], atMs: number): void;
  /** Followed artists at a time, most recently followed first. */
  followedArtists(accountId: string, atMs: number): readonly FollowedArtist[];
  follow(accountId: string, artistIds: readonly string[], atMs: number): void;
  unfollow(accountId: string, artistIds: readonly string[], atMs: number): void;

  // Listening
  /** Plays that ended in (fromMs, toMs], oldest first, simulated and recorded ones merged. */
  playsBetween(accountId: string, fromMs: number, toMs: number): Play[];
  /**
   * The last `limit` plays that ended before `beforeMs` (exclusive) and lasted 30 s or more,
   * newest first: what recently-played shows.
   */
  recentPlays(accountId: string, beforeMs: number, limit: number): Play[];
  /** What the simulated person is hearing at a time, or null between plays and during real sessions. */
  nowPlaying(accountId: string, atMs: number): NowPlaying | null;
  /** Every play from the account's creation until `untilMs` (inclusive), oldest first, lazily. */
  history(accountId: string, untilMs: number): Iterable<Play>;
  /** Adds a play made with the sandbox's real player (see `listening.ts` for the rules). */
  recordPlay(play: Play): void;
  /** The real player started playing for the account: simulated listening pauses. */
  beginRealSession(accountId: string, atMs: number): void;
  /** The real player stopped: simulated listening resumes after a while. */
  endRealSession(accountId: string, atMs: number): void;
}
