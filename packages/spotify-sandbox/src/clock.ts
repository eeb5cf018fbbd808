/**
 * The sandbox's only source of time. Everything that expires (authorization codes, access and
 * refresh tokens) and, later, everything the demo world does reads `now()` from here, so tests and
 * demos can freeze or advance time.
 */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock that stands still until told to move: for tests and reproducible demos. */
export class ManualClock implements Clock {
  private current: number;

  constructor(start: number | Date) {
    this.current = typeof start === 'number' ? start : start.getTime();
  }

  now(): number {
    return this.current;
  }

  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`cannot advance a clock by ${ms} ms`);
    this.current += ms;
  }
}
