/**
 * Removes the `spotify=connected` query flag (set by the server after a Spotify login) from the
 * address, keeping every other parameter and the hash (docs/product.md §2). Runs once on load.
 */
export function removeSpotifyConnectedFlag(): void {
  const url = new URL(window.location.href);
  if (url.searchParams.get('spotify') !== 'connected') return;
  url.searchParams.delete('spotify');
  window.history.replaceState(window.history.state, '', `${url.pathname}${url.search}${url.hash}`);
}
