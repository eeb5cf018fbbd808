import {
  albumPageMeta,
  artistPageMeta,
  catalogueNotFoundTitle,
  playlistPageMeta,
  PRIVATE_PLAYLIST_TEXT,
  trackPageMeta,
  type CatalogueEntity,
  type CataloguePageMeta,
} from '@earshot/contract/catalogue-meta';
import { catalogueId } from '@earshot/contract/catalogue';
import {
  DEFAULT_DESCRIPTION,
  DEFAULT_PAGE_TITLE,
  pageTitle,
  profileDescription,
  profileStructuredData,
  profileTitle,
} from '@earshot/contract/site';
import { USERNAME_PATTERN } from '@earshot/contract/user';
import type { Db } from '../db/client';
import { HttpError } from '../errors';
import type { SpotifyClient, TokenSource } from '../spotify/client';
import { albumHead, artistHead, knownTrack } from './catalogue-pages';
import { isUpstreamFailure, type PageViewer } from './catalogue-viewer';
import { playlistHead } from './playlist-pages';
import { profileStats } from './stats';
import { findUserByHandle, isUserId } from './users';

/** What the server writes into a page's `<head>` (docs/product.md §2, Global behaviour). */
export interface PageMetadata {
  /**
   * 404: no page answers this path, or its entity does not exist; 503: Spotify could not say
   * whether it does (nothing stored, and Spotify failed or the visitors' budget is spent).
   */
  status: 200 | 404 | 503;
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
    status: pattern === null ? 404 : 200,
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
    status: 200,
    title: pageTitle(profileTitle(user)),
    description: profileDescription(user, stats),
    canonicalPath,
    image: user.picture,
    type: 'profile',
    noindex: false,
    structuredData: profileStructuredData(user, stats),
  };
}

/** Where a catalogue page's metadata comes from: the store, filled as for a visitor. */
export interface CatalogueSources {
  spotify: SpotifyClient;
  /** Earshot's own token for visitors (null: none), as the visitor's API calls use it. */
  visitorSpotify: TokenSource | null;
  /** The site's address, for the structured data's `url`. */
  publicUrl: string;
}

/**
 * A catalogue page's metadata as a visitor sees it (never anything private), from `build` given
 * the decoded id: 404 with "{entity} Not Found" for an id no one knows or could not be, and 503
 * when Spotify could not say.
 */
async function catalogueMetadata(
  pathname: string,
  entity: CatalogueEntity,
  rawId: string | undefined,
  build: (id: string) => Promise<CataloguePageMeta>,
): Promise<PageMetadata> {
  const notFound = {
    ...defaults(pathname, null),
    title: pageTitle(catalogueNotFoundTitle(entity)),
  };
  let id: string;
  try {
    id = decodeURIComponent(rawId ?? '');
  } catch {
    return notFound;
  }
  // An id Spotify could not have issued never reaches the database.
  if (!catalogueId.safeParse(id).success) return notFound;
  try {
    const meta = await build(id);
    return { ...meta, status: 200, title: pageTitle(meta.title), type: 'website' };
  } catch (error) {
    if (error instanceof HttpError && error.statusCode === 404) return notFound;
    // A private playlist: the page is there, but says nothing of it.
    if (error instanceof HttpError && error.statusCode === 403) {
      return { ...defaults(pathname, null), status: 200, title: pageTitle(PRIVATE_PLAYLIST_TEXT) };
    }
    if (isUpstreamFailure(error)) {
      return { ...defaults(pathname, null), status: 503, title: pageTitle(entity) };
    }
    throw error;
  }
}

const ARTIST_TABS = {
  '/artist/:artistId': 'tracks',
  '/artist/:artistId/likes': 'likes',
  '/artist/:artistId/albums': 'albums',
} as const;

function isArtistPage(pattern: string): pattern is keyof typeof ARTIST_TABS {
  return pattern in ARTIST_TABS;
}

/**
 * The metadata of the page at `pathname`, which matched `pattern` of the web app's paths (null:
 * none did) with `params` still percent-encoded. Mirrors what the web app's pages render, so a
 * crawler or a link preview without JavaScript sees the same.
 */
export async function pageMetadata(
  db: Db,
  { spotify, visitorSpotify, publicUrl }: CatalogueSources,
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
  const visitor: PageViewer = { user: null, spotify: visitorSpotify };
  if (pattern !== null && isArtistPage(pattern)) {
    return catalogueMetadata(pathname, 'Artist', params.artistId, async (id) =>
      artistPageMeta(await artistHead(db, spotify, visitor, id), ARTIST_TABS[pattern], publicUrl),
    );
  }
  if (pattern === '/album/:albumId') {
    return catalogueMetadata(pathname, 'Album', params.albumId, async (id) =>
      albumPageMeta(await albumHead(db, spotify, visitor, id), publicUrl),
    );
  }
  if (pattern === '/track/:trackId') {
    return catalogueMetadata(pathname, 'Track', params.trackId, async (id) =>
      trackPageMeta(await knownTrack(db, spotify, visitor, id), publicUrl),
    );
  }
  if (pattern === '/playlist/:playlistId') {
    return catalogueMetadata(pathname, 'Playlist', params.playlistId, async (id) =>
      playlistPageMeta(await playlistHead(db, spotify, visitor, id), publicUrl),
    );
  }
  return defaults(pathname, pattern);
}
