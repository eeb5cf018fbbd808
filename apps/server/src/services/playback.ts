import type {
  Device,
  NextTrack,
  PlayContext,
  PlaybackState,
  PlayResponse,
} from '@earshot/contract/playback';
import { FEED_PLAY_SOURCES } from '@earshot/contract/playback';
import { desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { playedEvents } from '../db/schema/playback';
import { users, type UserRow } from '../db/schema/users';
import { HttpError } from '../errors';
import type { SpotifyClient, TokenSource } from '../spotify/client';
import { SpotifyError, SpotifyRateLimitedError } from '../spotify/errors';
import { track as spotifyTrack } from '../spotify/schemas';
import { likedActivity, recentActivity } from './activity';
import { storeTracks } from './catalog';
import { recordStartedPlay, type StartedPlay } from './now-playing';
import { SpotifyDisconnectedError, spotifyGrant } from './spotify-tokens';
import { trackSummaries } from './tracks';
import { findUserByHandle } from './users';

/**
 * The texts the web app reads to choose what to do (docs/product.md, Play start): "no active
 * device" starts the web player in the browser.
 */
export const NO_ACTIVE_DEVICE_DETAIL =
  'No active device: open Spotify on one of your devices, or play in the browser.';
export const PREMIUM_REQUIRED_DETAIL = 'Spotify Premium is required to control playback.';
export const STREAMING_SCOPE_MISSING_DETAIL =
  'Playing in the browser needs a newer Spotify permission. Please connect Spotify again.';
export const CONNECTION_REFUSED_DETAIL =
  'Spotify refused your connection. Please connect Spotify again.';

/** How often and how long the play command's effect is looked for in the player's state. */
const CONFIRM_ATTEMPTS = 4;
const CONFIRM_INTERVAL_MS = 250;
/** How far down a feed the played track is looked for, to find what follows it. */
const FEED_PAGES_SEARCHED = 3;
const FEED_PAGE_LIMIT = 50;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Who asks, with their token: every player call acts on the signed-in user's own player. */
export interface Listener {
  user: UserRow;
  auth: TokenSource;
}

/**
 * Spotify refused the user's token even after a refresh, or the connection is gone. Playback and
 * device calls then give an empty state, not an error (docs/product.md §6): the reads answer
 * theirs (nothing plays, no devices, nothing next). A command has no state to answer; its empty
 * state is "nothing was done", said as a 409 asking to connect again: not a 2xx, which would
 * claim the command happened, and not a 401/403, which the web app takes for a lost session.
 */
function tokenRefused(error: unknown): boolean {
  return (
    error instanceof SpotifyDisconnectedError ||
    (error instanceof SpotifyError && error.status === 401)
  );
}

/**
 * How a failed player call is answered: always a 4xx the web app can act on, never a 5xx for a
 * fault on Spotify's side (the player is interactive: the user retries).
 */
function playerFailure(error: unknown): unknown {
  if (tokenRefused(error)) return new HttpError(409, CONNECTION_REFUSED_DETAIL);
  if (error instanceof SpotifyRateLimitedError) {
    return new HttpError(
      429,
      `Spotify is busy. Please try again in ${error.retryAfterSec} seconds.`,
      { 'retry-after': String(error.retryAfterSec) },
    );
  }
  if (!(error instanceof SpotifyError)) return error;
  if (error.reason === 'NO_ACTIVE_DEVICE') return new HttpError(409, NO_ACTIVE_DEVICE_DETAIL);
  if (error.reason === 'PREMIUM_REQUIRED') return new HttpError(402, PREMIUM_REQUIRED_DETAIL);
  if (error.status === 404) return new HttpError(404, `Spotify: ${error.message}`);
  if (error.status >= 400 && error.status < 500) {
    return new HttpError(409, `Spotify refused: ${error.message}`);
  }
  return new HttpError(424, 'Spotify is not answering right now. Please try again.');
}

/** Keeps what the player taught about the plan (Development Mode apps hide it from `/me`). */
async function learnSubscribed(db: Db, user: UserRow, subscribed: boolean): Promise<void> {
  if (user.subscribed === subscribed) return;
  await db.update(users).set({ subscribed, updatedAt: new Date() }).where(eq(users.id, user.id));
}

/** Runs a player command; its answer tells whether the user's plan is Premium. */
async function command<T>(db: Db, listener: Listener, run: () => Promise<T>): Promise<T> {
  try {
    const result = await run();
    await learnSubscribed(db, listener.user, true);
    return result;
  } catch (error) {
    if (error instanceof SpotifyError && error.reason === 'PREMIUM_REQUIRED') {
      await learnSubscribed(db, listener.user, false);
    }
    throw playerFailure(error);
  }
}

/** The track Spotify plays, as Earshot shows it; stored in the catalogue when new. */
async function shownItem(db: Db, userId: string, item: unknown): Promise<PlaybackItem | null> {
  const parsed = spotifyTrack.safeParse(item);
  if (!parsed.success || !parsed.data.id) return null;
  const id = parsed.data.id;
  let summary = (await trackSummaries(db, [id])).get(id);
  if (!summary) {
    await storeTracks(db, [parsed.data]);
    summary = (await trackSummaries(db, [id])).get(id);
  }
  if (!summary) return null;
  const liked = await db.execute<{ liked: boolean }>(sql`
    SELECT EXISTS (SELECT 1 FROM tracks v JOIN saved_tracks st ON st.track_id = v.id
                   WHERE v.uid = ${summary.uid} AND st.user_id = ${userId}) AS liked`);
  return { liked: liked.rows[0]!.liked, track: summary };
}

type PlaybackItem = NonNullable<NonNullable<PlaybackState['state']>['item']>;

/** `GET /api/spotify/playback`. A refused Spotify token gives the empty state. */
export async function currentPlayback(db: Db, spotify: SpotifyClient, listener: Listener) {
  let state;
  try {
    state = await spotify.playbackState(listener.auth);
  } catch (error) {
    if (tokenRefused(error)) return { state: null };
    throw playerFailure(error);
  }
  if (!state) return { state: null };
  return {
    state: {
      is_playing: state.is_playing,
      progress_ms: state.progress_ms ?? 0,
      item: await shownItem(db, listener.user.id, state.item),
      device: { name: state.device.name, type: state.device.type },
    },
  } satisfies PlaybackState;
}

/** `GET /api/spotify/devices`: the controllable devices. A refused token gives none. */
export async function listDevices(spotify: SpotifyClient, listener: Listener): Promise<Device[]> {
  try {
    const devices = await spotify.devices(listener.auth);
    return devices.flatMap((device) =>
      device.id && !device.is_restricted
        ? [{ id: device.id, name: device.name, type: device.type, is_active: device.is_active }]
        : [],
    );
  } catch (error) {
    if (tokenRefused(error)) return [];
    throw playerFailure(error);
  }
}

export function pause(db: Db, spotify: SpotifyClient, listener: Listener) {
  return command(db, listener, () => spotify.pause(listener.auth));
}

export function resume(db: Db, spotify: SpotifyClient, listener: Listener) {
  return command(db, listener, () => spotify.resume(listener.auth));
}

export function skipToNext(db: Db, spotify: SpotifyClient, listener: Listener) {
  return command(db, listener, () => spotify.skipToNext(listener.auth));
}

export function transferPlayback(
  db: Db,
  spotify: SpotifyClient,
  listener: Listener,
  deviceId: string,
  play: boolean,
) {
  return command(db, listener, () => spotify.transferPlayback(listener.auth, deviceId, play));
}

/** The track after `trackId` in the feed a play started from, as the feed is now. */
async function nextInFeed(
  db: Db,
  viewer: UserRow,
  trackId: string,
  context: PlayContext,
): Promise<string | null> {
  const likes = context.source === 'likes' || context.source === 'likes_friends';
  const friendsOnly = context.source.endsWith('_friends');
  const read = likes ? likedActivity : recentActivity;
  let before: string | undefined;
  let found = false;
  for (let page = 0; page < FEED_PAGES_SEARCHED; page++) {
    let items;
    try {
      const answer = await read(db, viewer, {
        limit: FEED_PAGE_LIMIT,
        before,
        includeMe: !friendsOnly,
        user: friendsOnly ? undefined : (context.user ?? undefined),
      });
      items = answer.items;
      before = answer.next_before ?? undefined;
    } catch (error) {
      // The feed is no longer the viewer's to see (a friendship ended): nothing follows.
      if (error instanceof HttpError) return null;
      throw error;
    }
    for (const item of items) {
      if (found && item.track.id !== trackId) return item.track.id;
      if (item.track.id === trackId) found = true;
    }
    if (!before) return null;
  }
  return null;
}

function isFeed(context: PlayContext): boolean {
  return (FEED_PLAY_SOURCES as readonly string[]).includes(context.source);
}

/**
 * What Spotify's player shows once `trackId` is loaded, looking a few times while it settles;
 * undefined when it never does.
 */
async function confirmPlaying(
  spotify: SpotifyClient,
  listener: Listener,
  trackId: string,
): Promise<StartedPlay | undefined> {
  for (let attempt = 1; attempt <= CONFIRM_ATTEMPTS; attempt++) {
    try {
      const state = await spotify.playbackState(listener.auth);
      if (state !== null) {
        const playing = spotifyTrack.safeParse(state.item);
        if (playing.success && playing.data.id === trackId) {
          return {
            track: playing.data,
            isPlaying: state.is_playing,
            progressMs: state.progress_ms,
          };
        }
      }
    } catch (error) {
      if (!(error instanceof SpotifyError)) throw error;
    }
    if (attempt < CONFIRM_ATTEMPTS) await sleep(CONFIRM_INTERVAL_MS);
  }
  return undefined;
}

/**
 * `POST /api/spotify/play`: starts the track on the user's active device (in its Spotify
 * context when one is given) and, once the player shows it, records the played event.
 */
export async function playTrack(
  db: Db,
  spotify: SpotifyClient,
  listener: Listener,
  trackId: string,
  context: PlayContext,
): Promise<PlayResponse> {
  await command(db, listener, async () => {
    try {
      await spotify.play(listener.auth, trackId, context.context_uri);
    } catch (error) {
      // The track is not (or no longer) in that context: play it on its own.
      const notInContext =
        context.context_uri !== null &&
        error instanceof SpotifyError &&
        (error.status === 400 || error.status === 404) &&
        error.reason !== 'NO_ACTIVE_DEVICE';
      if (!notInContext) throw error;
      await spotify.play(listener.auth, trackId, null);
    }
  });
  const started = await confirmPlaying(spotify, listener, trackId);
  if (started) {
    // Friends watching see it now, not at the next now-playing poll.
    await recordStartedPlay(db, listener.user.id, started);
    const contextUser = context.user ? await findUserByHandle(db, context.user) : undefined;
    await db.insert(playedEvents).values({
      userId: listener.user.id,
      trackId,
      source: context.source,
      contextUserId: contextUser?.id ?? null,
      contextUri: context.context_uri,
      nextTrackId: isFeed(context) ? await nextInFeed(db, listener.user, trackId, context) : null,
    });
  }
  return { track_id: trackId, confirmed: started !== undefined };
}

/**
 * `GET /api/spotify/next`: what should follow the playing track. After a play started from a
 * feed, the feed's next item; otherwise (albums, playlists, anything else) Spotify's queue.
 */
export async function nextTrack(
  db: Db,
  spotify: SpotifyClient,
  listener: Listener,
): Promise<NextTrack> {
  let state;
  let queue;
  try {
    state = await spotify.playbackState(listener.auth);
    const playing = spotifyTrack.safeParse(state?.item);
    if (playing.success && playing.data.id) {
      const [latest] = await db
        .select({ trackId: playedEvents.trackId, nextTrackId: playedEvents.nextTrackId })
        .from(playedEvents)
        .where(eq(playedEvents.userId, listener.user.id))
        .orderBy(desc(playedEvents.playedAt), desc(playedEvents.id))
        .limit(1);
      if (latest?.trackId === playing.data.id && latest.nextTrackId) {
        return { next: { track_id: latest.nextTrackId } };
      }
    }
    queue = await spotify.queue(listener.auth);
  } catch (error) {
    if (tokenRefused(error)) return { next: null };
    throw playerFailure(error);
  }
  const [first] = queue;
  return { next: first ? { track_id: first } : null };
}

/**
 * `GET /api/spotify/token`: the user's own access token for the Web Playback SDK, only when
 * their grant includes `streaming` (and their plan is not known to be free). Never the refresh
 * token.
 */
export async function playerAccessToken(
  db: Db,
  listener: Listener,
): Promise<{ accessToken: string; expiresInSec: number }> {
  if (listener.user.subscribed === false) throw new HttpError(402, PREMIUM_REQUIRED_DETAIL);
  const before = await spotifyGrant(db, listener.user.id);
  if (!before) throw new HttpError(409, CONNECTION_REFUSED_DETAIL);
  if (!before.scopes.includes('streaming'))
    throw new HttpError(409, STREAMING_SCOPE_MISSING_DETAIL);
  let accessToken: string;
  try {
    accessToken = await listener.auth.accessToken();
  } catch (error) {
    throw playerFailure(error);
  }
  // Getting the token may have refreshed it: its expiry is read afterwards.
  const expiresAt = (await spotifyGrant(db, listener.user.id))?.accessTokenExpiresAt;
  const expiresInMs = (expiresAt ?? before.accessTokenExpiresAt).getTime() - Date.now();
  return { accessToken, expiresInSec: Math.max(0, Math.floor(expiresInMs / 1000)) };
}
