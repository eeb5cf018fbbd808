import { describe, expect, it } from 'vitest';
import { SpotifyRateGate } from '../src/spotify/rate-gate';

describe('SpotifyRateGate', () => {
  it('holds every endpoint for a short Retry-After (the limit is per app)', () => {
    let now = 0;
    const gate = new SpotifyRateGate(60, () => now);
    expect(gate.noteRetryAfter('GET /me/tracks', 5)).toBe(false);
    expect(gate.delayFor('GET /me/player/recently-played')).toEqual({ waitMs: 5000 });
    now = 5000;
    expect(gate.delayFor('GET /me/tracks')).toEqual({ waitMs: 0 });
  });

  it('parks only the endpoint that got a Retry-After of hours', () => {
    let now = 0;
    const gate = new SpotifyRateGate(60, () => now);
    expect(gate.noteRetryAfter('GET /artists', 3 * 3600)).toBe(true);
    expect(gate.delayFor('GET /artists')).toEqual({ waitMs: 0, parkedUntil: 3 * 3600 * 1000 });
    expect(gate.delayFor('GET /me/player/recently-played')).toEqual({ waitMs: 0 });
    now = 3 * 3600 * 1000;
    expect(gate.delayFor('GET /artists')).toEqual({ waitMs: 0 });
  });
});
