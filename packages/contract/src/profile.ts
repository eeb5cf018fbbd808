import { z } from 'zod';
import { friendshipStatus } from './friendship';
import { trackSummary } from './track';
import { userSummary } from './user';

export const topSong = z.object({ track: trackSummary, play_count: z.number().int() });
export type TopSong = z.infer<typeof topSong>;

export const topArtist = z.object({
  id: z.string(),
  name: z.string(),
  picture: z.string().nullable(),
  play_count: z.number().int(),
});
export type TopArtist = z.infer<typeof topArtist>;

/**
 * A profile's stats (docs/product.md §3). Ignored tracks and artists (the profile owner's own and
 * global ones) do not count. The highlights (top lists, weekly activity) are shown to the owner
 * and friends only: null for anyone else.
 */
export const profileStats = z.object({
  total_likes: z.number().int(),
  total_plays: z.number().int(),
  total_listening_time_sec: z.number().int(),
  listening_time_last_30_days_sec: z.number().int(),
  /** ISO time of the first play Earshot knows, null before any. */
  tracking_since: z.string().nullable(),
  /** e.g. "1990s". */
  most_played_decade: z.string().nullable(),
  most_played_genre: z.string().nullable(),
  playlists: z.number().int(),
  /** Distinct artists listened to. */
  artists: z.number().int(),
  top_songs_30_days: z.array(topSong).nullable(),
  top_songs_all_time: z.array(topSong).nullable(),
  top_artists: z.array(topArtist).nullable(),
  /** Plays per week (weeks start on Monday, UTC) over the last 52 weeks, oldest first. */
  weekly_plays: z.array(z.object({ week: z.string(), plays: z.number().int() })).nullable(),
});
export type ProfileStats = z.infer<typeof profileStats>;

export const publicProfile = z
  .object({
    user: userSummary.extend({ is_friend: z.boolean() }),
    /** The viewer's friendship with this user; null for visitors. */
    friendship: friendshipStatus.nullable(),
    /** Share of listening (by artist) the viewer and this friend have in common, 0–100. */
    taste_match: z.number().int().min(0).max(100).nullable(),
    stats: profileStats,
  })
  .meta({ id: 'PublicProfile' });
export type PublicProfile = z.infer<typeof publicProfile>;
