/**
 * Full-page navigations. They leave the single-page app (a new document is loaded), so they are
 * kept in one place that tests can replace.
 */

/** Loads `url` as a new document (e.g. Spotify's authorization page, or `/` after logout). */
export function loadPage(url: string): void {
  window.location.assign(url);
}

/** Reloads the current document. */
export function reloadPage(): void {
  window.location.reload();
}
