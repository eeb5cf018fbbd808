import type { SpotifyConfig } from '../config';
import { SpotifyError } from './errors';
import { spotifyFetch } from './http';
import { privateUser, type PrivateUser } from './schemas';

export async function fetchCurrentUser(
  spotify: SpotifyConfig,
  accessToken: string,
): Promise<PrivateUser> {
  const user = await spotifyFetch(
    `${spotify.apiUrl}/me`,
    { headers: { authorization: `Bearer ${accessToken}` } },
    privateUser,
  );
  if (!user) throw new SpotifyError('Spotify answered without a profile', 502);
  return user;
}
