import { formatCount, mediumDateTime } from '@earshot/contract/english';
import { useSyncExternalStore } from 'react';
import { RELATIVE_TIME_REFRESH_MS } from '../../lib/constants';

type Unit = 'year' | 'month' | 'week' | 'day' | 'hour' | 'minute';

const UNITS: readonly [Unit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
];

/** One unit back, in words (as `Intl.RelativeTimeFormat('en', { numeric: 'auto' })` says it). */
const ONE_BACK: Partial<Record<Unit, string>> = {
  year: 'last year',
  month: 'last month',
  week: 'last week',
  day: 'yesterday',
};

function unitsAgo(count: number, unit: Unit): string {
  if (count === 1) return ONE_BACK[unit] ?? `1 ${unit} ago`;
  return `${formatCount(count)} ${unit}s ago`;
}

/** "3 hours ago", "yesterday", "2 weeks ago"; "just now" within a minute (or a clock ahead). */
export function relativeTimeText(iso: string, nowMs: number): string {
  const elapsedSec = (nowMs - Date.parse(iso)) / 1000;
  for (const [unit, unitSec] of UNITS) {
    if (elapsedSec >= unitSec) return unitsAgo(Math.floor(elapsedSec / unitSec), unit);
  }
  return 'just now';
}

/**
 * One clock for every relative date on the page: a feed shows dozens of them, and one timer
 * (running while any is shown) costs less than one per row, at start and at each tick.
 */
const clock = {
  nowMs: Date.now(),
  listeners: new Set<() => void>(),
  timer: undefined as ReturnType<typeof setInterval> | undefined,
};

function tick() {
  clock.nowMs = Date.now();
  for (const listener of clock.listeners) listener();
}

function subscribeToClock(listener: () => void) {
  clock.listeners.add(listener);
  clock.timer ??= setInterval(tick, RELATIVE_TIME_REFRESH_MS);
  return () => {
    clock.listeners.delete(listener);
    if (clock.listeners.size === 0) {
      clearInterval(clock.timer);
      clock.timer = undefined;
    }
  };
}

function clockNow(): number {
  // Stopped while nothing showed a date: the first to show one again reads the time afresh (the
  // same value for a minute, as React asks of a snapshot; a clock set back is read again too).
  if (clock.timer === undefined && Math.abs(Date.now() - clock.nowMs) >= RELATIVE_TIME_REFRESH_MS) {
    clock.nowMs = Date.now();
  }
  return clock.nowMs;
}

/** A past moment as a relative date, with the exact date and time as its tooltip. */
export function RelativeTime({ iso }: { iso: string }) {
  const nowMs = useSyncExternalStore(subscribeToClock, clockNow);
  return (
    <time dateTime={iso} title={mediumDateTime(new Date(iso))}>
      {relativeTimeText(iso, nowMs)}
    </time>
  );
}
