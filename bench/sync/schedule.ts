/**
 * Earshot's polling schedule over simulated hours, without waiting for them: each account is
 * polled as `syncRecentPlays` schedules it (the product's own `nextRecentInterval`, jitter
 * averaged out), against the sandbox world's recently-played window (the last 50 plays of at
 * least 30 s). Counts the polls each listener needs and any play that would have left the
 * window before the next poll (lost).
 */
import type { World } from '@earshot/spotify-sandbox/world/model';
import { RECENT_WINDOW, nextRecentInterval } from '../../apps/server/src/services/sync-recent';

const MIN_STREAM_MS = 30_000;

export interface ScheduleSummary {
  hours: number;
  users: number;
  /** Users with at least one play in the simulated hours. */
  activeUsers: number;
  playsPerUserHour: number;
  pollsPerUserHour: number;
  pollsPerActiveUserHour: number;
  /** The busiest listener's polls per hour. */
  maxPollsPerUserHour: number;
  /** Polls that found the window full (a possible gap). */
  fullWindows: number;
  /** Plays that left the window before a poll saw them. */
  lostPlays: number;
}

export function simulateSchedule(
  world: World,
  accountIds: readonly string[],
  fromMs: number,
  hours: number,
): ScheduleSummary {
  const untilMs = fromMs + hours * 3_600_000;
  let polls = 0;
  let activePolls = 0;
  let activeUsers = 0;
  let plays = 0;
  let maxPolls = 0;
  let fullWindows = 0;
  let lostPlays = 0;
  for (const id of accountIds) {
    // The first poll, at connection: the last 50 plays, no cursor.
    const first = world.recentPlays(id, fromMs + 1, RECENT_WINDOW);
    let cursor = first[0]?.playedAt ?? fromMs;
    let interval = nextRecentInterval(
      first.map((play) => play.playedAt),
      null,
    );
    let at = fromMs;
    let userPolls = 0;
    let userPlays = 0;
    for (;;) {
      at += interval * 1000;
      if (at > untilMs) break;
      const newer = world
        .recentPlays(id, at + 1, RECENT_WINDOW)
        .filter((play) => play.playedAt > cursor);
      userPolls++;
      if (newer.length >= RECENT_WINDOW) {
        fullWindows++;
        const all = world
          .playsBetween(id, cursor, at)
          .filter((play) => play.msPlayed >= MIN_STREAM_MS).length;
        lostPlays += all - newer.length;
      }
      userPlays += newer.length;
      if (newer.length > 0) cursor = newer[0]!.playedAt;
      interval = nextRecentInterval(
        newer.map((play) => play.playedAt),
        interval,
      );
    }
    polls += userPolls;
    plays += userPlays;
    maxPolls = Math.max(maxPolls, userPolls);
    if (userPlays > 0) {
      activeUsers++;
      activePolls += userPolls;
    }
  }
  const users = accountIds.length;
  return {
    hours,
    users,
    activeUsers,
    playsPerUserHour: plays / users / hours,
    pollsPerUserHour: polls / users / hours,
    pollsPerActiveUserHour: activeUsers > 0 ? activePolls / activeUsers / hours : 0,
    maxPollsPerUserHour: maxPolls / hours,
    fullWindows,
    lostPlays,
  };
}
