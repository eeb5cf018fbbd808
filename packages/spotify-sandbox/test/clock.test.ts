import { describe, expect, it } from 'vitest';
import { ManualClock, SandboxClock } from '../src/clock';

const T0 = Date.UTC(2026, 2, 1, 12);

/** Wall time the test moves by hand. */
function fakeWall(start = T0) {
  let now = start;
  return {
    read: () => now,
    pass(ms: number) {
      now += ms;
    },
  };
}

describe('SandboxClock', () => {
  it('runs with wall time by default', () => {
    const wall = fakeWall();
    const clock = new SandboxClock({ wallTime: wall.read });

    wall.pass(1500);

    expect(clock.now()).toBe(T0 + 1500);
    expect(clock.state()).toEqual({ now: T0 + 1500, frozen: false });
  });

  it('reads Date.now when no wall time is injected', () => {
    const before = Date.now();
    const now = new SandboxClock().now();
    expect(now).toBeGreaterThanOrEqual(before);
    expect(now).toBeLessThanOrEqual(Date.now());
  });

  it('can start running from another instant', () => {
    const wall = fakeWall();
    const clock = new SandboxClock({ at: new Date('2020-01-01T00:00:00Z'), wallTime: wall.read });

    wall.pass(60_000);

    expect(clock.now()).toBe(Date.UTC(2020, 0, 1, 0, 1));
  });

  it('stands still while frozen and runs on from the same instant when unfrozen', () => {
    const wall = fakeWall();
    const clock = new SandboxClock({ wallTime: wall.read });
    wall.pass(1000);
    clock.freeze();

    wall.pass(10_000);
    expect(clock.now()).toBe(T0 + 1000);
    expect(clock.frozen).toBe(true);

    clock.unfreeze();
    wall.pass(500);
    expect(clock.now()).toBe(T0 + 1500);
    expect(clock.frozen).toBe(false);
  });

  it('freezes at a given instant', () => {
    const wall = fakeWall();
    const clock = new SandboxClock({ wallTime: wall.read });

    clock.freeze(T0 - 5000);
    wall.pass(1000);

    expect(clock.now()).toBe(T0 - 5000);
  });

  it('advances running and frozen clocks alike', () => {
    const wall = fakeWall();
    const running = new SandboxClock({ wallTime: wall.read });
    const frozen = new SandboxClock({ wallTime: wall.read, frozen: true });

    running.advance(3_600_000);
    frozen.advance(3_600_000);
    wall.pass(1000);

    expect(running.now()).toBe(T0 + 3_601_000);
    expect(frozen.now()).toBe(T0 + 3_600_000);
  });

  it('sets the instant and keeps running or standing still as before', () => {
    const wall = fakeWall();
    const running = new SandboxClock({ wallTime: wall.read });
    const frozen = new SandboxClock({ wallTime: wall.read, frozen: true });
    const target = Date.UTC(2025, 11, 24, 18);

    running.set(target);
    frozen.set(new Date(target));
    wall.pass(2000);

    expect(running.now()).toBe(target + 2000);
    expect(frozen.now()).toBe(target);
  });

  it('refuses to go backwards by advancing, or to an invalid instant', () => {
    const clock = new SandboxClock();
    expect(() => clock.advance(-1)).toThrow(RangeError);
    expect(() => clock.advance(Number.NaN)).toThrow(RangeError);
    expect(() => clock.set(new Date('not a date'))).toThrow(RangeError);
  });
});

describe('ManualClock', () => {
  it('is a SandboxClock frozen at its start', () => {
    const clock = new ManualClock(new Date(T0));
    expect(clock).toBeInstanceOf(SandboxClock);
    expect(clock.frozen).toBe(true);

    clock.advance(250);

    expect(clock.now()).toBe(T0 + 250);
  });
});
