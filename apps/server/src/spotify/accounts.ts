import { createHash, randomBytes } from 'node:crypto';
import type { SpotifyConfig } from '../config';

/**
 * What Earshot asks of a Spotify account, and why (the README explains each to operators):
 * identity and plan, listening history, library (likes, follows, playlists), playback control
 * and in-browser playback.
 */
export const SPOTIFY_SCOPES = [
  'user-read-email',
  'user-read-private',
  'user-read-recently-played',
  'user-top-read',
  'user-library-read',
  'user-library-modify',
  'user-follow-read',
  'user-follow-modify',
  'playlist-read-private',
  'playlist-read-collaborative',
  'user-read-playback-state',
  'user-modify-playback-state',
  'user-read-currently-playing',
  'streaming',
] as const;

export function createPkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(48).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  return { verifier, challenge };
}

export function authorizationUrl(
  spotify: SpotifyConfig,
  params: { state: string; codeChallenge: string },
): string {
  const url = new URL(`${spotify.accountsUrl}/authorize`);
  url.search = new URLSearchParams({
    client_id: spotify.clientId,
    response_type: 'code',
    redirect_uri: spotify.redirectUri,
    state: params.state,
    scope: SPOTIFY_SCOPES.join(' '),
    code_challenge_method: 'S256',
    code_challenge: params.codeChallenge,
  }).toString();
  return url.toString();
}
