/**
 * Every path the web app renders a page for (docs/product.md §2, Routes), as React Router
 * patterns. The server answers these with the app's HTML and status 200, and anything else with
 * the same HTML and status 404 (the app shows its not-found page); the web router is tested to
 * declare exactly these.
 */
export const webAppPaths = [
  '/',
  '/recent',
  '/recent/friends',
  '/recent/me',
  '/recent/user/:username',
  '/likes',
  '/likes/friends',
  '/likes/me',
  '/likes/user/:username',
  '/discover',
  '/login',
  '/error',
  '/friends',
  '/settings',
  '/ignored',
  '/spotify/import',
  '/spotify/beta',
  '/user/:handle',
  '/artist/:artistId',
  '/artist/:artistId/likes',
  '/artist/:artistId/albums',
  '/track/:trackId',
  '/album/:albumId',
  '/playlist/:playlistId',
  '/playlists',
  '/search',
  '/search/:query',
] as const;

export type WebAppPath = (typeof webAppPaths)[number];

/** The path's parameters when `pathname` matches `pattern`, else null. */
export function matchWebAppPath(pattern: string, pathname: string): Record<string, string> | null {
  const wanted = pattern.split('/');
  const given = pathname.replace(/\/+$/, '').split('/');
  if (pathname === '/' || pathname === '') return pattern === '/' ? {} : null;
  if (wanted.length !== given.length) return null;
  const params: Record<string, string> = {};
  for (const [index, segment] of wanted.entries()) {
    const value = given[index] ?? '';
    if (segment.startsWith(':')) {
      if (value === '') return null;
      params[segment.slice(1)] = value;
    } else if (segment !== value) {
      return null;
    }
  }
  return params;
}
