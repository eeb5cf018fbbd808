import { z } from 'zod';
import { activityItem } from './activity';
import { friendshipStatus } from './friendship';
import { trackSummary } from './track';
import { userReference } from './user';

/**
 * `GET /api/live`: a `text/event-stream` of what the viewer may see happen (see docs/product.md,
 * Recent and Likes, and docs/decisions/0019). Every event has an `id`; a reconnect sends it back as `Last-Event-ID` and gets
 * what it missed in the last `LIVE_REPLAY_MINUTES`.
 */
export const LIVE_REPLAY_MINUTES = 10;

/** The event names of the stream, each with its data below. */
export const LIVE_EVENTS = [
  'ready',
  'play',
  'like',
  'now-playing',
  'friendship',
  'dropped',
] as const;
export type LiveEventName = (typeof LIVE_EVENTS)[number];

/**
 * `ready`: sent first on every connection, after the replay. `missed`: the gap since
 * `Last-Event-ID` was longer than the replay keeps (or unknown): reload what is shown.
 */
export const liveReady = z.object({ missed: z.boolean() }).meta({ id: 'LiveReady' });
export type LiveReady = z.infer<typeof liveReady>;

/** `play`: a new play of the viewer or a friend, as `GET /api/recent` shows it. */
export const livePlay = activityItem;

/**
 * `like`: the viewer or a friend liked a song (an item as `GET /api/likes` shows it) or, with
 * `unliked`, stopped liking it: the song is `track.uid`.
 */
export const liveLike = activityItem.extend({ unliked: z.boolean() }).meta({ id: 'LiveLike' });
export type LiveLike = z.infer<typeof liveLike>;

/** `now-playing`: what a friend plays now, or `track: null` when they stopped. */
export const liveNowPlaying = z
  .object({
    user: userReference,
    track: trackSummary.nullable(),
    is_playing: z.boolean(),
    /** Milliseconds into the track at `observed_at`; it moves on while `is_playing`. */
    progress_ms: z.number().int().nullable(),
    /** ISO time. */
    observed_at: z.string().nullable(),
  })
  .meta({ id: 'LiveNowPlaying' });
export type LiveNowPlaying = z.infer<typeof liveNowPlaying>;

/** `friendship`: the viewer's friendship with `user` changed (a request, an answer, an unfriend). */
export const liveFriendship = z
  .object({
    user: userReference,
    status: friendshipStatus,
  })
  .meta({ id: 'LiveFriendship' });
export type LiveFriendship = z.infer<typeof liveFriendship>;

/**
 * `dropped`: the last event of a stream whose client stopped reading; come back no sooner than
 * `retry_ms` (the `retry:` field says the same, but a page cannot read it from EventSource).
 */
export const liveDropped = z
  .object({ retry_ms: z.number().int().min(0) })
  .meta({ id: 'LiveDropped' });
export type LiveDropped = z.infer<typeof liveDropped>;
