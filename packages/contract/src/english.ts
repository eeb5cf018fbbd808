/**
 * Earshot's numbers and dates in English, as `Intl`'s "en" formats write them, without `Intl`:
 * a page's first `Intl` formatter loads the browser's locale data, 20–35 ms of the main thread
 * on a desktop and four times that on Lighthouse's phone, on every first load (decision 0043).
 * The web tests hold each function to `Intl`'s own output.
 */

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** 1234567 → "1,234,567" (`Intl.NumberFormat('en')` for whole numbers). */
export function formatCount(count: number): string {
  const digits = String(Math.abs(Math.round(count)));
  const grouped = digits.replace(/\B(?=(\d{3})+$)/g, ',');
  return count < 0 && grouped !== '0' ? `-${grouped}` : grouped;
}

/** Which clock a date is read on: the viewer's, or UTC (calendar days the server names). */
export type DateZone = 'local' | 'utc';

function parts(date: Date, zone: DateZone) {
  return zone === 'utc'
    ? {
        year: date.getUTCFullYear(),
        month: date.getUTCMonth(),
        day: date.getUTCDate(),
        hours: date.getUTCHours(),
        minutes: date.getUTCMinutes(),
      }
    : {
        year: date.getFullYear(),
        month: date.getMonth(),
        day: date.getDate(),
        hours: date.getHours(),
        minutes: date.getMinutes(),
      };
}

/** "May 17, 2024" (`dateStyle: 'medium'`). */
export function mediumDate(date: Date, zone: DateZone = 'local'): string {
  const { year, month, day } = parts(date, zone);
  return `${MONTHS[month]} ${day}, ${year}`;
}

/** "May 17, 2024, 3:04 PM" (`dateStyle: 'medium', timeStyle: 'short'`). */
export function mediumDateTime(date: Date, zone: DateZone = 'local'): string {
  const { hours, minutes } = parts(date, zone);
  const clock = `${hours % 12 || 12}:${String(minutes).padStart(2, '0')}`;
  return `${mediumDate(date, zone)}, ${clock} ${hours < 12 ? 'AM' : 'PM'}`;
}
