import { useEffect, useState } from 'react';
import { RELATIVE_TIME_REFRESH_MS } from '../../lib/constants';

const UNITS: readonly [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
];

const relativeFormat = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
const fullFormat = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short' });

/** "3 hours ago", "yesterday", "2 weeks ago"; "just now" within a minute (or a clock ahead). */
export function relativeTimeText(iso: string, nowMs: number): string {
  const elapsedSec = (nowMs - Date.parse(iso)) / 1000;
  for (const [unit, unitSec] of UNITS) {
    if (elapsedSec >= unitSec)
      return relativeFormat.format(-Math.floor(elapsedSec / unitSec), unit);
  }
  return 'just now';
}

/** A past moment as a relative date, with the exact date and time as its tooltip. */
export function RelativeTime({ iso }: { iso: string }) {
  const [nowMs, setNowMs] = useState(() => Date.now());

  useEffect(() => {
    const timer = setInterval(() => setNowMs(Date.now()), RELATIVE_TIME_REFRESH_MS);
    return () => clearInterval(timer);
  }, []);

  return (
    <time dateTime={iso} title={fullFormat.format(new Date(iso))}>
      {relativeTimeText(iso, nowMs)}
    </time>
  );
}
