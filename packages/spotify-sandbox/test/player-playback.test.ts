import { describe, expect, it } from 'vitest';
import {
  Playback,
  UNATTENDED_LIMIT_MS,
  type FinishedListen,
  type PlaybackStart,
} from '../src/player/playback';

const SECOND = 1000;
const HOUR = 3600 * SECOND;
const T0 = Date.UTC(2026, 3, 14, 19, 0);
/** A context of five tracks of 100 s to 140 s, and two more tracks to queue. */
const TRACKS = ['t0', 't1', 't2', 't3', 't4'];
const DURATIONS = new Map([
  ...TRACKS.map((id, index): [string, number] => [id, (100 + 10 * index) * SECOND]),
  ['x', 200 * SECOND],
  ['y', 210 * SECOND],
]);

function durationOf(id: string): number {
  const duration = DURATIONS.get(id);
  if (duration === undefined) throw new Error(`no track ${id}`);
  return duration;
}

function playback(start: Partial<PlaybackStart> = {}) {
  const finished: FinishedListen[] = [];
  const value = new Playback(
    {
      context: { type: 'album', uri: 'spotify:album:a' },
      trackIds: TRACKS,
      startAt: 0,
      positionMs: 0,
      shuffle: false,
      repeat: 'off',
      at: T0,
      seed: 7,
      ...start,
    },
    {
      durationOf,
      finished: (listen) => finished.push(listen),
    },
  );
  return { playback: value, finished };
}

describe('Playback', () => {
  it('advances through the context as the clock passes the ends of tracks', () => {
    const { playback: p, finished } = playback();

    p.settle(T0 + 50 * SECOND);
    expect([p.trackId, p.positionAt(T0 + 50 * SECOND)]).toEqual(['t0', 50 * SECOND]);

    const at = T0 + 100 * SECOND + 110 * SECOND + 5 * SECOND;
    p.settle(at);

    expect(p.trackId).toBe('t2');
    expect(p.positionAt(at)).toBe(5 * SECOND);
    expect(p.changedAt).toBe(T0 + 210 * SECOND);
    expect(finished).toEqual([
      { trackId: 't0', endedAt: T0 + 100 * SECOND, heardMs: 100 * SECOND },
      { trackId: 't1', endedAt: T0 + 210 * SECOND, heardMs: 110 * SECOND },
    ]);
  });

  it('stops at the end of the context without repeat, back at its first track', () => {
    const { playback: p, finished } = playback({ startAt: 4 });

    p.settle(T0 + 500 * SECOND);

    expect(p.isPlaying).toBe(false);
    expect(p.trackId).toBe('t0');
    expect(p.positionAt(T0 + 500 * SECOND)).toBe(0);
    expect(p.stoppedAt).toBe(T0 + 140 * SECOND);
    expect(finished.map((listen) => listen.trackId)).toEqual(['t4']);
  });

  it('wraps around with repeat context and replays the track with repeat track', () => {
    const context = playback({ startAt: 4, repeat: 'context' });
    context.playback.settle(T0 + 141 * SECOND);
    expect([context.playback.trackId, context.playback.isPlaying]).toEqual(['t0', true]);

    const track = playback({ startAt: 1, repeat: 'track' });
    track.playback.settle(T0 + 230 * SECOND);
    expect(track.playback.trackId).toBe('t1');
    expect(track.playback.positionAt(T0 + 230 * SECOND)).toBe(10 * SECOND);
    expect(track.finished.map((listen) => listen.trackId)).toEqual(['t1', 't1']);
  });

  it('stops a repeating context nobody touches at the end of a track past the limit', () => {
    const { playback: p, finished } = playback({ repeat: 'context' });
    p.setRepeat(T0 + HOUR, 'context');

    p.settle(T0 + 3 * UNATTENDED_LIMIT_MS);

    expect(p.isPlaying).toBe(false);
    expect(p.stoppedAt).toBeGreaterThanOrEqual(T0 + HOUR + UNATTENDED_LIMIT_MS);
    expect(p.stoppedAt).toBeLessThan(T0 + HOUR + UNATTENDED_LIMIT_MS + 140 * SECOND);
    expect(p.positionAt(T0 + 3 * UNATTENDED_LIMIT_MS)).toBe(0);
    expect(finished.at(-1)?.endedAt).toBe(p.stoppedAt);
  });

  it('counts heard time, not position: pauses and seeks forward do not add to it', () => {
    const { playback: p, finished } = playback();

    p.pause(T0 + 10 * SECOND);
    p.resume(T0 + 60 * SECOND);
    p.seek(T0 + 70 * SECOND, 90 * SECOND);
    p.next(T0 + 75 * SECOND);

    expect(finished).toEqual([{ trackId: 't0', endedAt: T0 + 75 * SECOND, heardMs: 25 * SECOND }]);
    expect([p.trackId, p.positionAt(T0 + 75 * SECOND)]).toEqual(['t1', 0]);
  });

  it('reports pausing while paused, and does not move while paused', () => {
    const { playback: p } = playback();

    expect(p.pause(T0 + 10 * SECOND)).toBe(true);
    expect(p.pause(T0 + 20 * SECOND)).toBe(false);
    p.settle(T0 + 1000 * SECOND);

    expect([p.trackId, p.positionAt(T0 + 1000 * SECOND)]).toEqual(['t0', 10 * SECOND]);
  });

  it('goes back a track early in one, and restarts it later on', () => {
    const { playback: p } = playback({ startAt: 2 });

    p.previous(T0 + 2 * SECOND);
    expect(p.trackId).toBe('t1');

    p.previous(T0 + 20 * SECOND);
    expect([p.trackId, p.positionAt(T0 + 20 * SECOND)]).toEqual(['t1', 0]);
  });

  it('a seek past the end of the track moves to the next one', () => {
    const { playback: p } = playback();

    p.seek(T0, 200 * SECOND);

    expect([p.trackId, p.positionAt(T0)]).toEqual(['t1', 0]);
  });

  it('plays the queue before going on with the context', () => {
    const { playback: p } = playback({ startAt: 1 });
    p.enqueue(T0, 'x');
    p.enqueue(T0, 'y');

    expect(p.upNext(4)).toEqual(['x', 'y', 't2', 't3']);
    p.next(T0 + SECOND);
    expect(p.trackId).toBe('x');
    expect(p.playedBefore(2)).toEqual(['t0', 't1']);
    p.next(T0 + 2 * SECOND);
    p.next(T0 + 3 * SECOND);
    expect(p.trackId).toBe('t2');
  });

  it('shuffles around the current track and restores the order when shuffle goes off', () => {
    const { playback: p } = playback({ startAt: 2 });

    p.setShuffle(T0, true);
    expect(p.trackId).toBe('t2');
    expect([...p.upNext(10)].sort()).toEqual(['t0', 't1', 't3', 't4']);

    p.setShuffle(T0, false);
    expect(p.upNext(10)).toEqual(['t3', 't4']);
  });

  it('ends the current listen when it was paused at the pause', () => {
    const { playback: p, finished } = playback();
    p.pause(T0 + 45 * SECOND);

    p.end(T0 + 3600 * SECOND);

    expect(finished).toEqual([{ trackId: 't0', endedAt: T0 + 45 * SECOND, heardMs: 45 * SECOND }]);
  });
});
