import { isSearchPath } from './searchNavigation';

const ARTIST_PATH = /^\/artist\/([^/]+)/;

function artistIdOf(pathname: string): string | null {
  return ARTIST_PATH.exec(pathname)?.[1] ?? null;
}

/**
 * Whether moving from one path to another scrolls back to the top: on every route change,
 * except between the pages (tabs) of one artist (docs/product.md §2), and around the search modal,
 * which opens over the page and goes back to it (`back`: a move back through the history).
 */
export function shouldResetScroll(previousPath: string, nextPath: string, back = false): boolean {
  if (previousPath === nextPath) return false;
  if (isSearchPath(nextPath) || (back && isSearchPath(previousPath))) return false;
  const previousArtist = artistIdOf(previousPath);
  return previousArtist === null || previousArtist !== artistIdOf(nextPath);
}
