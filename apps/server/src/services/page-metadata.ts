import {
  DEFAULT_DESCRIPTION,
  DEFAULT_PAGE_TITLE,
  pageTitle,
  profileDescription,
  profileTitle,
} from '@earshot/contract/site';
import type { Db } from '../db/client';
import { profileStats } from './stats';
import { findUserByHandle, isUserId, USERNAME_PATTERN } from './users';

/** What the server writes into a page's `<head>` (docs/product.md §2, Global behaviour). */
export interface PageMetadata {
  /** False: no page answers this path, or its entity does not exist (status 404). */
  found: boolean;
  title: string;
  description: string;
  canonicalPath: string;
  /** A square picture for the card; null: Earshot's large social card. */
  image: string | null;
  type: 'website' | 'profile';
  noindex: boolean;
  structuredData?: Record<string, unknown>;
}

/** Pages that are personal or transient: kept out of search engines. */
const NOINDEX = new Set([
  '/login',
  '/error',
  '/settings',
  '/spotify/import',
  '/friends',
  '/playlists',
  '/search',
  '/search/:query',
]);

function defaults(pathname: string, pattern: string | null): PageMetadata {
  return {
    found: pattern !== null,
    title: pattern === null ? pageTitle('Page not found') : DEFAULT_PAGE_TITLE,
    description: DEFAULT_DESCRIPTION,
    canonicalPath: pathname,
    image: null,
    type: 'website',
    noindex: pattern === null || NOINDEX.has(pattern),
  };
}

async function profileMetadata(db: Db, handle: string, pathname: string): Promise<PageMetadata> {
  // A handle that no username or id could be never reaches the database.
  const user =
    USERNAME_PATTERN.test(handle) || isUserId(handle)
      ? await findUserByHandle(db, handle)
      : undefined;
  if (!user) return { ...defaults(pathname, null), title: pageTitle('Profile not found') };
  const stats = await profileStats(db, user.id, false);
  const canonicalPath = `/user/${encodeURIComponent(user.username)}`;
  return {
    found: true,
    title: pageTitle(profileTitle(user)),
    description: profileDescription(user, stats),
    canonicalPath,
    image: user.picture,
    type: 'profile',
    noindex: false,
    structuredData: {
      '@context': 'https://schema.org',
      '@type': 'ProfilePage',
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
    },
  };
}

/**
 * The metadata of the page at `pathname`, which matched `pattern` of the web app's paths (null:
 * none did) with `params` still percent-encoded. Mirrors what the web app's pages render, so a
 * crawler or a link preview without JavaScript sees the same.
 */
export async function pageMetadata(
  db: Db,
  pattern: string | null,
  params: Record<string, string>,
  pathname: string,
): Promise<PageMetadata> {
  if (pattern === '/user/:handle') {
    let handle: string;
    try {
      handle = decodeURIComponent(params.handle ?? '');
    } catch {
      return { ...defaults(pathname, null), title: pageTitle('Profile not found') };
    }
    return profileMetadata(db, handle, pathname);
  }
  return defaults(pathname, pattern);
}
