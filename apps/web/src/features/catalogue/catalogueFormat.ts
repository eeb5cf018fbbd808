const numberFormat = new Intl.NumberFormat('en');

/** A track's duration as m:ss (docs/product.md, "Business constants and limits"). */
export function formatDuration(ms: number): string {
  const totalSeconds = Math.floor(Math.max(0, ms) / 1000);
  const minutes = Math.floor(totalSeconds / 60);
  const seconds = totalSeconds % 60;
  return `${minutes}:${String(seconds).padStart(2, '0')}`;
}

/** The year of a Spotify release date ("1974", "1974-05" or "1974-05-17"). */
export function releaseYear(releaseDate: string | null): string | null {
  return releaseDate ? releaseDate.slice(0, 4) : null;
}

export function formatCount(count: number): string {
  return numberFormat.format(count);
}

export function formatPlays(count: number): string {
  return count === 1 ? '1 play' : `${formatCount(count)} plays`;
}

/** "12 tracks", "1 track". */
export function formatTrackCount(count: number): string {
  return count === 1 ? '1 track' : `${formatCount(count)} tracks`;
}

/** Artist names for a text: "A, B and C" reads best in titles and descriptions. */
export function joinNames(names: readonly string[]): string {
  if (names.length <= 1) return names[0] ?? '';
  return `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
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
