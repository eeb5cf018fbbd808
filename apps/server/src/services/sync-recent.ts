import type { Db } from '../db/client';
import { recordRecentSync, spotifyAccount } from './spotify-accounts';
import { plays } from '../db/schema/listening';
import type { SpotifyClient, TokenSource } from '../spotify/client';
import type { RecentlyPlayedPage, SpotifyTrack } from '../spotify/schemas';
import { storeTracks } from './catalog';

/** Spotify's recently-played remembers this many plays; anything older is gone. */
export const RECENT_WINDOW = 50;
/** Spotify counts a play from 30 s: the fastest anyone can fill the window. */
const SHORTEST_PLAY_MS = 30_000;
/** Poll when the window is at most half full at the listener's fastest observed pace. */
const SAFE_FILL = RECENT_WINDOW / 2;
export const MIN_INTERVAL_SEC = 60;
/**
 * The ceiling for idle listeners: even back-to-back 72-second tracks leave room in the window.
 * A listener who plays faster than that is seen doing it and polled faster from then on.
 */
export const MAX_INTERVAL_SEC = 60 * 60;
const FIRST_INTERVAL_SEC = 5 * 60;
/** How many `next` pages one sync follows at most (the window is one page of 50). */
const MAX_PAGES = 4;

export interface RecentSyncResult {
  fetched: number;
  stored: number;
  /** A later poll found the window full: plays older than it may have been missed. */
  possibleGap: boolean;
  intervalSec: number;
  nextDueAt: Date;
}

/**
 * The next polling interval: 25 plays at the fastest pace seen in this fetch (the smallest gap
 * between consecutive plays), never faster than Spotify's 30-s minimum play, within bounds.
 * No new plays: back off gradually towards the ceiling.
 */
export function nextRecentInterval(
  playedAtMs: readonly number[],
  previousIntervalSec: number | null,
): number {
  if (playedAtMs.length < 2) {
    const grown = Math.round((previousIntervalSec ?? FIRST_INTERVAL_SEC) * 1.5);
    return Math.min(MAX_INTERVAL_SEC, Math.max(MIN_INTERVAL_SEC, grown));
  }
  const sorted = [...playedAtMs].sort((a, b) => a - b);
  let fastest = Number.POSITIVE_INFINITY;
  for (let i = 1; i < sorted.length; i++) fastest = Math.min(fastest, sorted[i]! - sorted[i - 1]!);
  const pace = Math.max(fastest, SHORTEST_PLAY_MS);
  const interval = Math.floor((SAFE_FILL * pace) / 1000);
  return Math.min(MAX_INTERVAL_SEC, Math.max(MIN_INTERVAL_SEC, interval));
}

/** ±10 % so that users connected together do not poll together forever. */
const jitter = (seconds: number) => seconds * (0.9 + Math.random() * 0.2);

async function fetchSince(
  spotify: SpotifyClient,
  auth: TokenSource,
  afterMs: number | undefined,
): Promise<RecentlyPlayedPage['items']> {
  const items: RecentlyPlayedPage['items'] = [];
  let page = await spotify.recentlyPlayed(auth, afterMs);
  for (let pages = 1; ; pages++) {
    items.push(...page.items);
    if (!page.next || page.items.length === 0 || pages >= MAX_PAGES) return items;
    page = await spotify.recentlyPlayed(auth, afterMs, page.next);
  }
}

/**
 * Polls one user's recently-played after the stored cursor, stores new plays exactly once
 * (the (user, played_at) key makes overlapping polls harmless) and schedules the next poll.
 */
export async function syncRecentPlays(
  db: Db,
  spotify: SpotifyClient,
  auth: TokenSource,
  userId: string,
): Promise<RecentSyncResult> {
  const stored = await spotifyAccount(db, userId);
  if (!stored) throw new Error(`No Spotify account for user ${userId}`);
  const account = { cursor: stored.recentCursorMs, intervalSec: stored.recentIntervalSec };

  const items = await fetchSince(spotify, auth, account.cursor ?? undefined);
  const catalogueTracks = items
    .map((item) => item.track)
    .filter((track): track is SpotifyTrack => track.is_local !== true);
  await storeTracks(db, catalogueTracks);
  const rows = items
    .filter((item) => item.track.id !== null)
    .map((item) => ({
      userId,
      playedAt: new Date(item.played_at),
      trackId: item.track.id!,
      contextUri: item.context?.uri ?? null,
      source: 'api' as const,
      msPlayed: null,
    }));
  const inserted =
    rows.length === 0
      ? []
      : await db
          .insert(plays)
          .values(rows)
          .onConflictDoNothing()
          .returning({ playedAt: plays.playedAt });

  // Plays Earshot cannot keep (local files) still fill Spotify's window: they count for the
  // cursor and the pace alike.
  const playedAtMs = items.map((item) => Date.parse(item.played_at));
  const newestMs = Math.max(account.cursor ?? 0, ...playedAtMs);
  const intervalSec = nextRecentInterval(playedAtMs, account.intervalSec);
  const nextDueAt = new Date(Date.now() + jitter(intervalSec) * 1000);
  const now = new Date();
  // On the first poll a full window is expected; later it means the cursor may be outrun.
  const possibleGap = account.cursor !== null && items.length >= RECENT_WINDOW;
  await recordRecentSync(db, userId, {
    cursorMs: newestMs > 0 ? newestMs : null,
    intervalSec,
    nextDueAt,
    gapAt: possibleGap ? now : null,
    at: now,
  });
  return {
    fetched: items.length,
    stored: inserted.length,
    possibleGap,
    intervalSec,
    nextDueAt,
  };
}
