const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];

function month(name: string): number | undefined {
  const lower = name.toLowerCase();
  if (lower.length < 3) return undefined;
  const index = MONTHS.findIndex((full) => full.startsWith(lower));
  return index >= 0 ? index : undefined;
}

const utc = (year: number, monthIndex = 0, day = 1) => new Date(Date.UTC(year, monthIndex, day));

/**
 * A date the feed search understands, as the UTC range it covers: "2024", "2024-05",
 * "2024-05-17", "May 2024", "17 May 2024", and "May 17, 2024" as the feed's dates read (month
 * names in English, full or abbreviated). Anything else is not a date.
 */
export function parseDateQuery(q: string): { from: Date; to: Date } | undefined {
  const text = q.trim().replace(/\s+/g, ' ');
  let match = /^(\d{4})$/.exec(text);
  if (match) {
    const year = Number(match[1]);
    return { from: utc(year), to: utc(year + 1) };
  }
  match = /^(\d{4})-(\d{2})$/.exec(text);
  if (match) {
    const [year, m] = [Number(match[1]), Number(match[2]) - 1];
    if (m < 0 || m > 11) return undefined;
    return { from: utc(year, m), to: utc(year, m + 1) };
  }
  match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (match) return day(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  match = /^([a-z]+)\.? (\d{4})$/i.exec(text);
  if (match) {
    const m = month(match[1]!);
    if (m === undefined) return undefined;
    const year = Number(match[2]);
    return { from: utc(year, m), to: utc(year, m + 1) };
  }
  match = /^(\d{1,2}) ([a-z]+)\.? (\d{4})$/i.exec(text);
  if (match) {
    const m = month(match[2]!);
    return m === undefined ? undefined : day(Number(match[3]), m, Number(match[1]));
  }
  match = /^([a-z]+)\.? (\d{1,2}),? (\d{4})$/i.exec(text);
  if (match) {
    const m = month(match[1]!);
    return m === undefined ? undefined : day(Number(match[3]), m, Number(match[2]));
  }
  return undefined;
}

function day(year: number, monthIndex: number, dayOfMonth: number) {
  const from = utc(year, monthIndex, dayOfMonth);
  // Reject dates that roll over (2024-02-31).
  if (from.getUTCMonth() !== monthIndex || from.getUTCDate() !== dayOfMonth) return undefined;
  return { from, to: utc(year, monthIndex, dayOfMonth + 1) };
}
