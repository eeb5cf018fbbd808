import { formatCount, mediumDate, mediumDateTime } from '@earshot/contract/english';
import { describe, expect, it } from 'vitest';
import { relativeTimeText } from '../src/components/ui/RelativeTime';

// Earshot writes its English without Intl (decision 0043); Intl's own "en" output is the
// oracle here, so the two cannot drift apart.

/** Moments over the years, at every hour and across month ends, leap days and the new year. */
function moments(): Date[] {
  const dates: Date[] = [];
  for (let hour = 0; hour < 24; hour++) dates.push(new Date(2024, 1, 29, hour, hour * 2));
  for (let month = 0; month < 12; month++) {
    dates.push(new Date(2025, month, 1, 0, 0), new Date(2025, month + 1, 0, 23, 59));
  }
  dates.push(
    new Date(1999, 11, 31, 12, 5),
    new Date(2000, 0, 1, 0, 0),
    new Date(2026, 10, 29, 9, 7),
  );
  for (let step = 0; step < 200; step++)
    dates.push(new Date(Date.UTC(2020, 0, 1) + step * 7_919_000_123));
  return dates;
}

describe('English formats', () => {
  it('groups counts as Intl.NumberFormat does', () => {
    const intl = new Intl.NumberFormat('en');
    const counts = [0, 1, 12, 999, 1_000, 12_345, 999_999, 1_000_000, 1_234_567_890, -1, -1_234];
    for (let value = 1; value < 1e15; value *= 7) counts.push(value);
    for (const count of counts) expect(formatCount(count), String(count)).toBe(intl.format(count));
  });

  it.each([
    ['UTC', 0],
    ['Asia/Kolkata', -330],
    ['America/St_Johns', 210],
  ])(
    'writes dates and times as Intl.DateTimeFormat medium and short do, locally (%s) and in UTC',
    (zone, januaryOffset) => {
      const before = process.env.TZ;
      process.env.TZ = zone;
      try {
        // The zone took: the local clock is the zone's.
        expect(new Date(2025, 0, 15).getTimezoneOffset()).toBe(januaryOffset);
        const date = new Intl.DateTimeFormat('en', { dateStyle: 'medium' });
        const dateTime = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short' });
        const utcDate = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeZone: 'UTC' });
        const utcDateTime = new Intl.DateTimeFormat('en', {
          dateStyle: 'medium',
          timeStyle: 'short',
          timeZone: 'UTC',
        });
        for (const moment of moments()) {
          const label = moment.toISOString();
          expect(mediumDate(moment), label).toBe(date.format(moment));
          expect(mediumDateTime(moment), label).toBe(dateTime.format(moment));
          expect(mediumDate(moment, 'utc'), label).toBe(utcDate.format(moment));
          expect(mediumDateTime(moment, 'utc'), label).toBe(utcDateTime.format(moment));
        }
      } finally {
        if (before === undefined) delete process.env.TZ;
        else process.env.TZ = before;
      }
    },
  );

  it('says how long ago as Intl.RelativeTimeFormat does with numeric auto', () => {
    const relative = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
    const now = Date.UTC(2026, 10, 29, 12, 0);
    const units: [Intl.RelativeTimeFormatUnit, number][] = [
      ['year', 365 * 86_400],
      ['month', 30 * 86_400],
      ['week', 7 * 86_400],
      ['day', 86_400],
      ['hour', 3_600],
      ['minute', 60],
    ];
    for (const [unit, seconds] of units) {
      const larger = units[units.findIndex(([other]) => other === unit) - 1]?.[1] ?? Infinity;
      for (const count of [1, 2, 3, 5, 11, 59, 1_500]) {
        const elapsed = count * seconds;
        if (elapsed >= larger) continue;
        const iso = new Date(now - elapsed * 1000).toISOString();
        expect(relativeTimeText(iso, now), `${count} ${unit}`).toBe(relative.format(-count, unit));
      }
    }
    expect(relativeTimeText(new Date(now - 59_000).toISOString(), now)).toBe('just now');
  });
});
