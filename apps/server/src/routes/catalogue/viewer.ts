import type { FastifyRequest } from 'fastify';
import type { PageViewer } from '../../services/catalogue-viewer';
import { tokenSourceFor } from '../../services/spotify-tokens';
import type { RouteContext } from '../context';

/** The viewer of a public page, as `identifyUser` found them, with their Spotify connection. */
export function pageViewer(
  request: FastifyRequest,
  { db, cipher, spotify }: RouteContext,
): PageViewer {
  const user = request.user;
  return { user, spotify: user ? tokenSourceFor(db, cipher, spotify, user.id) : null };
}
