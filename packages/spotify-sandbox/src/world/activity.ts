import type { Play } from './model';

/**
 * What the sandbox's real player did for one account, and how it pauses the simulated person.
 *
 * The rule: simulated listening stops while the account uses the real player, and resumes
 * `RESUME_AFTER_MS` after it stops. The real player is "in use" during
 * - a real session: from `beginRealSession(at)` to `endRealSession(at)` (open-ended until then);
 * - every recorded real play: from its start (`playedAt − msPlayed`) to its end.
 * A simulated play that starts while the real player is in use (or within the resume gap) does not
 * happen. One that is under way when the real player starts is cut short there: it ends then, with
 * the shorter `msPlayed`, like a person switching devices. Likes that came from a play that did not
 * happen (or was cut) do not happen either. Everything else stays as generated, so the past before
 * a real session never changes.
 */
export const RESUME_AFTER_MS = 30 * 60_000;

interface Window {
  from: number;
  /** When simulated listening may start again (Infinity while a session is open). */
  until: number;
}

export class RealActivity {
  /** Recorded plays, by `playedAt`. */
  readonly plays: Play[] = [];
  private readonly sessions: { from: number; to: number }[] = [];
  private openSession: { from: number; to: number } | undefined;
  /** Merged, sorted windows when simulated plays may not start. */
  private windows: Window[] = [];

  record(play: Play): void {
    let index = this.plays.length;
    while (index > 0 && (this.plays[index - 1]?.playedAt ?? 0) > play.playedAt) index--;
    this.plays.splice(index, 0, play);
    this.sessions.push({ from: play.playedAt - play.msPlayed, to: play.playedAt });
    this.rebuild();
  }

  begin(atMs: number): void {
    if (this.openSession) return;
    this.openSession = { from: atMs, to: Infinity };
    this.sessions.push(this.openSession);
    this.rebuild();
  }

  end(atMs: number): void {
    if (!this.openSession) return;
    this.openSession.to = Math.max(this.openSession.from, atMs);
    this.openSession = undefined;
    this.rebuild();
  }

  /** Whether the simulated person is kept from listening at this instant. */
  blocks(atMs: number): boolean {
    const window = this.windows[this.lastStartingBy(atMs)];
    return window !== undefined && atMs < window.until;
  }

  /**
   * When a simulated play over [start, end) really ends under the rule: `end` if untouched, an
   * earlier instant if it is cut short, `start` or less if it does not happen.
   */
  clip(start: number, end: number): number {
    if (this.windows.length === 0) return end;
    const index = this.lastStartingBy(start);
    const before = this.windows[index];
    if (before && start < before.until) return start;
    const after = this.windows[index + 1];
    return after && after.from < end ? after.from : end;
  }

  /** Recorded plays with `playedAt` in (fromMs, toMs]. */
  playsBetween(fromMs: number, toMs: number): Play[] {
    const result: Play[] = [];
    for (const play of this.plays) {
      if (play.playedAt > toMs) break;
      if (play.playedAt > fromMs) result.push(play);
    }
    return result;
  }

  /** Index of the last window starting at or before `atMs`, or -1. */
  private lastStartingBy(atMs: number): number {
    let low = 0;
    let high = this.windows.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((this.windows[middle]?.from ?? 0) <= atMs) low = middle + 1;
      else high = middle;
    }
    return low - 1;
  }

  private rebuild(): void {
    const sorted = this.sessions
      .map(({ from, to }) => ({ from, until: to + RESUME_AFTER_MS }))
      .sort((a, b) => a.from - b.from);
    const merged: Window[] = [];
    for (const window of sorted) {
      const last = merged[merged.length - 1];
      if (last && window.from <= last.until) last.until = Math.max(last.until, window.until);
      else merged.push({ ...window });
    }
    this.windows = merged;
  }
}
