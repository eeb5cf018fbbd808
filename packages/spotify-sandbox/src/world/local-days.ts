/**
 * Calendar days in a time zone. Day `d` is the local date that is `d` days after 1970-01-01; it
 * starts at local midnight. Days tile time exactly, also across daylight-saving changes (such days
 * are 23 or 25 hours long), so every instant belongs to exactly one day.
 */
export const DAY_MS = 86_400_000;
export const HOUR_MS = 3_600_000;
export const MINUTE_MS = 60_000;

export class LocalDays {
  private readonly format: Intl.DateTimeFormat;
  private readonly starts = new Map<number, number>();

  constructor(readonly timeZone: string) {
    this.format = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' });
  }

  /** When day `day` starts (local midnight), in UTC milliseconds. */
  start(day: number): number {
    let start = this.starts.get(day);
    if (start === undefined) {
      // The offset at noon UTC of that date is the one in force for most of the local day.
      start = day * DAY_MS - this.offsetMinutes(day * DAY_MS + 12 * HOUR_MS) * MINUTE_MS;
      this.starts.set(day, start);
    }
    return start;
  }

  /** The day an instant falls in. */
  dayOf(ms: number): number {
    let day = Math.floor((ms + this.offsetMinutes(ms) * MINUTE_MS) / DAY_MS);
    while (ms < this.start(day)) day--;
    while (ms >= this.start(day + 1)) day++;
    return day;
  }

  /** 0 = Sunday … 6 = Saturday (1970-01-01 was a Thursday). */
  static weekday(day: number): number {
    return (((day + 4) % 7) + 7) % 7;
  }

  private offsetMinutes(ms: number): number {
    const name = this.format.formatToParts(ms).find((part) => part.type === 'timeZoneName')?.value;
    const match = /^GMT([+-])(\d{2}):(\d{2})$/.exec(name ?? '');
    if (!match) return 0;
    const minutes = Number(match[2]) * 60 + Number(match[3]);
    return match[1] === '-' ? -minutes : minutes;
  }
}
