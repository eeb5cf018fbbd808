/**
 * The sandbox's only source of time. Everything that expires (authorization codes, access and
 * refresh tokens) and, later, everything the demo world does reads `now()` from here, so tests and
 * demos can freeze or advance time.
 */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

export interface SandboxClockOptions {
  /** The instant the clock shows at construction; default: wall time. */
  at?: number | Date;
  /** Start frozen at `at` (or at wall time); default false. */
  frozen?: boolean;
  /** Wall time, in ms since the epoch; default `Date.now`. Injectable for the clock's own tests. */
  wallTime?: () => number;
}

export interface ClockState {
  /** What `now()` returns, in ms since the epoch. */
  now: number;
  frozen: boolean;
}

/**
 * The sandbox's controllable clock. Running, it shows wall time plus an offset; frozen, a fixed
 * instant. Advancing or setting moves the offset (running) or the instant (frozen), so both modes
 * keep their nature: a running clock keeps running from the new instant.
 */
export class SandboxClock implements Clock {
  private readonly wallTime: () => number;
  private offsetMs: number;
  private frozenAt: number | null;

  constructor(options: SandboxClockOptions = {}) {
    this.wallTime = options.wallTime ?? Date.now;
    const start = options.at === undefined ? this.wallTime() : toMs(options.at);
    this.offsetMs = start - this.wallTime();
    this.frozenAt = options.frozen ? start : null;
  }

  now(): number {
    return this.frozenAt ?? this.wallTime() + this.offsetMs;
  }

  get frozen(): boolean {
    return this.frozenAt !== null;
  }

  /** Stops the clock at `at`, or where it stands now. */
  freeze(at?: number | Date): void {
    this.frozenAt = at === undefined ? this.now() : toMs(at);
  }

  /** Lets the clock run again from the instant it was frozen at. */
  unfreeze(): void {
    if (this.frozenAt === null) return;
    this.offsetMs = this.frozenAt - this.wallTime();
    this.frozenAt = null;
  }

  /** Moves the clock forward; use `set` to go back. */
  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`cannot advance a clock by ${ms} ms`);
    if (this.frozenAt === null) this.offsetMs += ms;
    else this.frozenAt += ms;
  }

  /** Puts the clock at an instant, frozen or running as it was. */
  set(at: number | Date): void {
    const target = toMs(at);
    if (this.frozenAt === null) this.offsetMs = target - this.wallTime();
    else this.frozenAt = target;
  }

  state(): ClockState {
    return { now: this.now(), frozen: this.frozen };
  }
}

/** A clock that stands still until told to move: for unit tests and reproducible demos. */
export class ManualClock extends SandboxClock {
  constructor(start: number | Date) {
    super({ at: start, frozen: true });
  }
}

function toMs(at: number | Date): number {
  const ms = typeof at === 'number' ? at : at.getTime();
  if (!Number.isFinite(ms)) throw new RangeError('a clock needs a valid instant');
  return ms;
}
