import { playerToken, type PlayerToken } from '@earshot/contract/playback';
import { requestJson } from '../../../lib/apiClient';

/** `GET /api/spotify/token`: the user's access token for the Web Playback SDK, and its script. */
export function fetchPlayerToken(): Promise<PlayerToken> {
  return requestJson('/api/spotify/token', playerToken);
}
