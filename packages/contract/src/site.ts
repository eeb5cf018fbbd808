// With its extension: apps/web/vite.config.ts loads this file by path, as Node would.
import { formatCount } from './english.js';
/** Product identity used in page metadata, headings and texts, by the web app and the server. */
export const PRODUCT_NAME = 'Earshot';
export const TAGLINE = 'Hear what your friends are playing';
export const DEFAULT_PAGE_TITLE = `${PRODUCT_NAME} - ${TAGLINE}`;
export const DEFAULT_DESCRIPTION =
  "Social music listening on your Spotify account: your and your friends' plays, likes and discoveries.";
export const SOCIAL_CARD_PATH = '/social-card.png';
/**
 * Written by the web app's build beside index.html: the script chunks that every page but the
 * landing and error pages loads, which the server names in those pages' HTML (decision 0037),
 * and the feed pages' own chunks and stylesheets, which it names in theirs (decision 0045).
 */
export const PAGE_PRELOADS_FILE = 'page-preloads.json';

/** The contents of `PAGE_PRELOADS_FILE`: addresses of built files, from the site's root. */
export interface PagePreloads {
  modules: string[];
  feedPage: { modules: string[]; styles: string[] };
}

/** "{page title} - {product name}" (docs/product.md §2, Global behaviour). */
export function pageTitle(title: string): string {
  return `${title} - ${PRODUCT_NAME}`;
}

/** A profile's own title: "{name} (@{username})". */
export function profileTitle(user: { name: string; username: string }): string {
  return `${user.name} (@${user.username})`;
}

/** A profile's description for search engines and link previews, rendered alike by both sides. */
export function profileDescription(
  user: { name: string; username: string },
  stats: { total_plays: number; total_likes: number; most_played_genre: string | null },
): string {
  const parts = [
    `${formatCount(stats.total_plays)} plays`,
    `${formatCount(stats.total_likes)} liked tracks`,
  ];
  if (stats.most_played_genre) parts.push(`mostly ${stats.most_played_genre}`);
  return `${profileTitle(user)} on ${PRODUCT_NAME}: ${parts.join(', ')}.`;
}

/**
 * A profile's structured data (schema.org ProfilePage), rendered alike by both sides; `url` is
 * the profile's absolute address when the renderer knows its origin.
 */
export function profileStructuredData(
  user: { id: string; name: string; username: string; picture: string | null },
  stats: { total_plays: number },
  url?: string,
) {
  return {
    '@context': 'https://schema.org',
    '@type': 'ProfilePage',
    ...(url ? { url } : {}),
    mainEntity: {
      '@type': 'Person',
      name: user.name,
      alternateName: `@${user.username}`,
      identifier: user.id,
      ...(user.picture ? { image: user.picture } : {}),
      interactionStatistic: {
        '@type': 'InteractionCounter',
        interactionType: 'https://schema.org/ListenAction',
        userInteractionCount: stats.total_plays,
      },
    },
  };
}
