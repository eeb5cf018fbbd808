import { formatCount, mediumDate } from '@earshot/contract/english';
import { MEDAL_RANKS } from '../../lib/constants';

const MEDALS = ['gold', 'silver', 'bronze'] as const;

export type Medal = (typeof MEDALS)[number];

const SECONDS_PER_MINUTE = 60;
const MINUTES_PER_DAY = 24 * 60;

function listeningTimeParts(totalSec: number) {
  const totalMinutes = Math.floor(Math.max(0, totalSec) / SECONDS_PER_MINUTE);
  return {
    days: Math.floor(totalMinutes / MINUTES_PER_DAY),
    hours: Math.floor((totalMinutes % MINUTES_PER_DAY) / 60),
    minutes: totalMinutes % 60,
  };
}

/**
 * Listening time in days, hours and minutes (docs/product.md §9): "3d 4h 12m", "4h 0m", "12m".
 * Leading zero units are left out; seconds are dropped.
 */
export function formatListeningTime(totalSec: number): string {
  const { days, hours, minutes } = listeningTimeParts(totalSec);
  if (days > 0) return `${days}d ${hours}h ${minutes}m`;
  if (hours > 0) return `${hours}h ${minutes}m`;
  return `${minutes}m`;
}

/** The same duration as an ISO 8601 duration, for `<time dateTime>`: "P3DT4H12M". */
export function listeningTimeDuration(totalSec: number): string {
  const { days, hours, minutes } = listeningTimeParts(totalSec);
  return `P${days}DT${hours}H${minutes}M`;
}

/** The medal of ranks 1 to 3 (docs/product.md §9), none after them ("#n"). */
export function rankMedal(rank: number): Medal | null {
  return rank >= 1 && rank <= MEDAL_RANKS ? (MEDALS[rank - 1] ?? null) : null;
}

/** "1 play", "12 plays". */
export function formatPlays(count: number): string {
  return `${formatCount(count)} ${count === 1 ? 'play' : 'plays'}`;
}

/** A week's first day ("2025-03-03", a UTC calendar day) as "Mar 3, 2025". */
export function formatWeek(week: string): string {
  return mediumDate(new Date(`${week}T00:00:00Z`), 'utc');
}

/** A moment (ISO time) as its local calendar day, "Mar 3, 2025". */
export function formatDate(iso: string): string {
  return mediumDate(new Date(iso));
}
