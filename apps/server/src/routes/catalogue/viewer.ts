import type { FastifyRequest } from 'fastify';
import type { PageViewer } from '../../services/catalogue-viewer';
import { tokenSourceFor } from '../../services/spotify-tokens';
import type { RouteContext } from '../context';

/**
 * The viewer of a public page, as `identifyUser` found them: a user with their Spotify
 * connection, or a visitor with Earshot's own token (within its budget).
 */
export function pageViewer(
  request: FastifyRequest,
  { db, cipher, spotify, visitorSpotify }: RouteContext,
): PageViewer {
  const user = request.user;
  return { user, spotify: user ? tokenSourceFor(db, cipher, spotify, user.id) : visitorSpotify };
}
