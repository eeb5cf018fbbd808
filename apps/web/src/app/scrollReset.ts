const ARTIST_PATH = /^\/artist\/([^/]+)/;

function artistIdOf(pathname: string): string | null {
  return ARTIST_PATH.exec(pathname)?.[1] ?? null;
}

/**
 * Whether moving from one path to another scrolls back to the top: on every route change,
 * except between the pages (tabs) of one artist (docs/product.md §2).
 */
export function shouldResetScroll(previousPath: string, nextPath: string): boolean {
  if (previousPath === nextPath) return false;
  const previousArtist = artistIdOf(previousPath);
  return previousArtist === null || previousArtist !== artistIdOf(nextPath);
}
