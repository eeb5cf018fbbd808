import type { PlayerToken } from '@earshot/contract/playback';
import { requestJson } from '../../../lib/apiClient';

/** `GET /api/spotify/token`: the user's access token for the Web Playback SDK, and its script. */
export function fetchPlayerToken(): Promise<PlayerToken> {
  // Loaded with the answer: the player's provider is on every page, visitors' too.
  const schema = () => import('@earshot/contract/playback').then((module) => module.playerToken);
  return requestJson('/api/spotify/token', schema);
}
