/** Product identity used in page metadata, headings and texts, by the web app and the server. */
export const PRODUCT_NAME = 'Earshot';
export const TAGLINE = 'Hear what your friends are playing';
export const DEFAULT_PAGE_TITLE = `${PRODUCT_NAME} - ${TAGLINE}`;
export const DEFAULT_DESCRIPTION =
  "Social music listening on your Spotify account: your and your friends' plays, likes and discoveries.";
export const SOCIAL_CARD_PATH = '/social-card.png';

/** "{page title} - {product name}" (docs/product.md §2, Global behaviour). */
export function pageTitle(title: string): string {
  return `${title} - ${PRODUCT_NAME}`;
}
