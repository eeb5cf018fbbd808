import type { PlayContext } from '../world/model';
import { Random } from '../world/random';

export type RepeatState = 'off' | 'track' | 'context';

/** A track the playback has left, and how long it was heard (seeking forward is not hearing). */
export interface FinishedListen {
  trackId: string;
  endedAt: number;
  heardMs: number;
}

export interface PlaybackHooks {
  durationOf(trackId: string): number;
  /** Called for every track the playback leaves: ended, skipped, replaced or abandoned. */
  finished(listen: FinishedListen): void;
}

export interface PlaybackStart {
  context: PlayContext | null;
  /** The context's tracks in context order (the request's `uris` when there is no context). */
  trackIds: readonly string[];
  /** Where in `trackIds` playback starts. */
  startAt: number;
  positionMs: number;
  shuffle: boolean;
  repeat: RepeatState;
  at: number;
  /** Seeds the shuffle orders. */
  seed: number;
}

/** Going back restarts the track instead when more than this of it has played, as Spotify does. */
const RESTART_THRESHOLD_MS = 3000;
/**
 * A player nobody touches stops at the end of the first track past this (a device sleeping, a
 * battery running out), so a repeating context left alone does not play for ever.
 */
export const UNATTENDED_LIMIT_MS = 12 * 60 * 60 * 1000;

/**
 * One account's real playback: a context (or a list of tracks) in play order, a user queue, and a
 * position anchored at an instant. Nothing runs on its own: `settle(now)` works out, from the
 * clock, which tracks ended since it was last asked and moves on, so every method takes `now`.
 */
export class Playback {
  readonly context: PlayContext | null;
  private readonly tracks: readonly string[];
  /** Positions in `tracks` in play order: the context's order, or a shuffle of it. */
  private order: number[];
  /** Where in `order` the context stands: the playing track, or the last one before the queue. */
  private index: number;
  private readonly queue: string[] = [];
  private current: { trackId: string; fromQueue: boolean };
  private shuffled: boolean;
  private repeatState: RepeatState;
  private playing = true;
  /** The position was `anchorPositionMs` at `anchorAt`, and moves on from there while playing. */
  private anchorAt: number;
  private anchorPositionMs: number;
  /** How long the current track was heard before `anchorAt`. */
  private heardBeforeAnchorMs: number;
  private stoppedAtMs: number;
  /** When a command last came. */
  private attendedAt: number;
  private changedAtMs: number;
  private changes = 0;
  private readonly random: Random;

  constructor(
    start: PlaybackStart,
    private readonly hooks: PlaybackHooks,
  ) {
    if (start.trackIds.length === 0) throw new RangeError('a playback needs at least one track');
    if (start.startAt < 0 || start.startAt >= start.trackIds.length) {
      throw new RangeError('a playback must start at one of its tracks');
    }
    this.context = start.context;
    this.tracks = start.trackIds;
    this.random = new Random(start.seed);
    this.shuffled = start.shuffle;
    this.repeatState = start.repeat;
    this.order = this.tracks.map((_, position) => position);
    this.index = start.startAt;
    if (start.shuffle) this.shuffleFrom(start.startAt);
    this.current = { trackId: this.trackAt(this.index), fromQueue: false };
    this.anchorAt = start.at;
    this.anchorPositionMs = start.positionMs;
    this.heardBeforeAnchorMs = 0;
    this.stoppedAtMs = start.at;
    this.attendedAt = start.at;
    this.changedAtMs = start.at;
  }

  get trackId(): string {
    return this.current.trackId;
  }

  get isPlaying(): boolean {
    return this.playing;
  }

  get shuffle(): boolean {
    return this.shuffled;
  }

  get repeat(): RepeatState {
    return this.repeatState;
  }

  /** When playback last stopped (meaningful while paused). */
  get stoppedAt(): number {
    return this.stoppedAtMs;
  }

  /** When anything about the playback last changed (Spotify's `timestamp`). */
  get changedAt(): number {
    return this.changedAtMs;
  }

  /** Grows with every change, including the ones `settle` discovers. */
  get revision(): number {
    return this.changes;
  }

  /** The position in the current track; call `settle(now)` first. */
  positionAt(now: number): number {
    return this.anchorPositionMs + (this.playing ? Math.max(0, now - this.anchorAt) : 0);
  }

  /** Moves past every track that ended by `now`: the next one plays, or playback stops. */
  settle(now: number): void {
    while (this.playing) {
      const duration = this.hooks.durationOf(this.current.trackId);
      const endsAt = this.anchorAt + Math.max(0, duration - this.anchorPositionMs);
      if (endsAt > now) return;
      this.finish(endsAt);
      if (!this.advance(endsAt, true)) {
        this.stopAtEnd(endsAt);
      } else if (endsAt - this.attendedAt >= UNATTENDED_LIMIT_MS) {
        this.playing = false;
        this.stoppedAtMs = endsAt;
      }
    }
  }

  /** Returns false when it was already paused. */
  pause(now: number): boolean {
    this.command(now);
    if (!this.playing) return false;
    this.reanchor(now);
    this.playing = false;
    this.stoppedAtMs = now;
    this.touch(now);
    return true;
  }

  resume(now: number): void {
    this.command(now);
    if (this.playing) return;
    this.anchorAt = now;
    this.playing = true;
    this.touch(now);
  }

  /** A position past the end of the track moves to the next one, as Spotify documents. */
  seek(now: number, positionMs: number): void {
    this.command(now);
    if (positionMs >= this.hooks.durationOf(this.current.trackId)) {
      this.next(now);
      return;
    }
    this.reanchor(now);
    this.anchorPositionMs = positionMs;
    this.touch(now);
  }

  /** The queue first, then the context; at the end of a context without repeat, playback stops. */
  next(now: number): void {
    this.command(now);
    this.finish(now);
    if (!this.advance(now, false)) this.stopAtEnd(now);
  }

  previous(now: number): void {
    this.command(now);
    const restart = this.positionAt(now) > RESTART_THRESHOLD_MS;
    this.finish(now);
    if (restart) {
      this.startTrack(this.current.trackId, false, now);
    } else if (this.current.fromQueue) {
      this.startTrack(this.trackAt(this.index), false, now);
    } else if (this.index > 0) {
      this.index -= 1;
      this.startTrack(this.trackAt(this.index), false, now);
    } else if (this.repeatState !== 'off') {
      this.index = this.order.length - 1;
      this.startTrack(this.trackAt(this.index), false, now);
    } else {
      this.startTrack(this.current.trackId, false, now);
    }
  }

  /** Turning shuffle on keeps the current track and shuffles the rest; off restores the order. */
  setShuffle(now: number, on: boolean): void {
    this.command(now);
    if (on !== this.shuffled) {
      const position = this.order[this.index] ?? 0;
      this.shuffled = on;
      if (on) {
        this.shuffleFrom(position);
      } else {
        this.order = this.tracks.map((_, index) => index);
        this.index = position;
      }
    }
    this.touch(now);
  }

  setRepeat(now: number, state: RepeatState): void {
    this.command(now);
    this.repeatState = state;
    this.touch(now);
  }

  enqueue(now: number, trackId: string): void {
    this.command(now);
    this.queue.push(trackId);
    this.touch(now);
  }

  /** The playback is replaced or dropped: the current listen ends now, or when it was paused. */
  end(now: number): void {
    this.settle(now);
    this.finish(this.playing ? now : this.stoppedAtMs);
  }

  /** Tracks that will play next: the queue, then the context (around again with repeat). */
  upNext(limit: number): string[] {
    const ids = this.queue.slice(0, limit);
    let index = this.index;
    for (let step = 0; step < this.order.length && ids.length < limit; step++) {
      index += 1;
      if (index >= this.order.length) {
        if (this.repeatState === 'off') break;
        index = 0;
      }
      ids.push(this.trackAt(index));
    }
    return ids;
  }

  /** The context's tracks played before the current one, oldest first. */
  playedBefore(limit: number): string[] {
    const end = this.current.fromQueue ? this.index + 1 : this.index;
    const ids: string[] = [];
    for (let index = Math.max(0, end - limit); index < end; index++) ids.push(this.trackAt(index));
    return ids;
  }

  /** Every command first catches up with the clock; it also shows someone is there. */
  private command(now: number): void {
    this.settle(now);
    this.attendedAt = now;
  }

  private trackAt(index: number): string {
    const trackId = this.tracks[this.order[index] ?? -1];
    if (trackId === undefined) throw new RangeError(`no track at play position ${index}`);
    return trackId;
  }

  /** Puts `position` first and the other positions after it in random order. */
  private shuffleFrom(position: number): void {
    const rest = this.tracks.map((_, index) => index).filter((index) => index !== position);
    this.order = [position, ...this.random.shuffle(rest)];
    this.index = 0;
  }

  private reanchor(now: number): void {
    if (this.playing) {
      const elapsed = Math.max(0, now - this.anchorAt);
      this.heardBeforeAnchorMs += elapsed;
      this.anchorPositionMs += elapsed;
    }
    this.anchorAt = now;
  }

  private finish(at: number): void {
    const heardMs = this.heardBeforeAnchorMs + (this.playing ? Math.max(0, at - this.anchorAt) : 0);
    this.hooks.finished({ trackId: this.current.trackId, endedAt: at, heardMs });
  }

  /** Starts the next track; false at the end of the context with repeat off. */
  private advance(at: number, trackEnded: boolean): boolean {
    if (trackEnded && this.repeatState === 'track') {
      this.startTrack(this.current.trackId, this.current.fromQueue, at);
      return true;
    }
    const queued = this.queue.shift();
    if (queued !== undefined) {
      this.startTrack(queued, true, at);
      return true;
    }
    let index = this.index + 1;
    if (index >= this.order.length) {
      if (this.repeatState === 'off') return false;
      index = 0;
    }
    this.index = index;
    this.startTrack(this.trackAt(index), false, at);
    return true;
  }

  /** Spotify's players go back to the start of the context, paused. */
  private stopAtEnd(at: number): void {
    this.index = 0;
    this.playing = false;
    this.stoppedAtMs = at;
    this.startTrack(this.trackAt(0), false, at);
  }

  private startTrack(trackId: string, fromQueue: boolean, at: number): void {
    this.current = { trackId, fromQueue };
    this.anchorAt = at;
    this.anchorPositionMs = 0;
    this.heardBeforeAnchorMs = 0;
    this.touch(at);
  }

  private touch(at: number): void {
    this.changedAtMs = at;
    this.changes += 1;
  }
}
