/** Words and numbers of the import page. */

const SECONDS_PER_MINUTE = 60;
const MINUTES_PER_HOUR = 60;

function plural(count: number, unit: string): string {
  return `${count} ${unit}${count === 1 ? '' : 's'}`;
}

/**
 * A wait in hours and minutes, rounded up to the minute: "1 hour", "1 hour and 5 minutes",
 * "59 minutes", "1 minute".
 */
export function formatWait(seconds: number): string {
  const totalMinutes = Math.ceil(Math.max(0, seconds) / SECONDS_PER_MINUTE);
  const hours = Math.floor(totalMinutes / MINUTES_PER_HOUR);
  const minutes = totalMinutes % MINUTES_PER_HOUR;
  if (hours === 0) return plural(minutes, 'minute');
  if (minutes === 0) return plural(hours, 'hour');
  return `${plural(hours, 'hour')} and ${plural(minutes, 'minute')}`;
}

/** The locked text (docs/product.md §8) while a wait time remains. */
export function importLockedMessage(waitSeconds: number): string {
  return `Extended history import is temporarily unavailable. Please try again in ${formatWait(waitSeconds)}.`;
}

/** Why rows were not imported, in the order the summary lists them. */
const SKIP_REASON_LABELS: Readonly<Record<string, string>> = {
  podcast: 'Podcast episodes',
  audiobook: 'Audiobook chapters',
  video: 'Videos',
  short: 'Shorter than 30 s',
  incognito: 'Played in a private session (incognito)',
  no_track: 'No track',
  malformed: 'Malformed rows',
  duplicate: 'Already imported',
};

const KNOWN_REASONS = Object.keys(SKIP_REASON_LABELS);

function readableReason(reason: string): string {
  const words = reason.replace(/_/g, ' ');
  return `${words.charAt(0).toUpperCase()}${words.slice(1)}`;
}

export interface SkippedRows {
  reason: string;
  label: string;
  count: number;
}

/** The reasons that skipped any rows, known ones first in a fixed order, each in plain words. */
export function skippedRowsByReason(skipped: Readonly<Record<string, number>>): SkippedRows[] {
  const order = (reason: string) => {
    const index = KNOWN_REASONS.indexOf(reason);
    return index === -1 ? KNOWN_REASONS.length : index;
  };
  return Object.entries(skipped)
    .filter(([, count]) => count > 0)
    .sort(([a], [b]) => order(a) - order(b) || a.localeCompare(b))
    .map(([reason, count]) => ({
      reason,
      label: SKIP_REASON_LABELS[reason] ?? readableReason(reason),
      count,
    }));
}
