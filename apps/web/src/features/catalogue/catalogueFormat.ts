import { formatCount } from '@earshot/contract/english';

/** A track's duration as m:ss (docs/product.md, "Business constants and limits"). */
export function formatDuration(ms: number): string {
  const totalSeconds = Math.floor(Math.max(0, ms) / 1000);
  const minutes = Math.floor(totalSeconds / 60);
  const seconds = totalSeconds % 60;
  return `${minutes}:${String(seconds).padStart(2, '0')}`;
}

export function formatPlays(count: number): string {
  return count === 1 ? '1 play' : `${formatCount(count)} plays`;
}

const ALBUM_TYPE_LABELS: Record<string, string> = {
  album: 'Album',
  single: 'Single',
  compilation: 'Compilation',
};

/** "Album", "Single" or "Compilation"; an unknown type reads as an album. */
export function albumTypeLabel(albumType: string | null): string {
  return (albumType && ALBUM_TYPE_LABELS[albumType]) ?? 'Album';
}
