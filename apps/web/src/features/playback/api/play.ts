import type { PlayRequest, PlayResponse } from '@earshot/contract/playback';
import { requestJson } from '../../../lib/apiClient';

/** `POST /api/spotify/play`: starts a track on the active device and records the play. */
export function postPlay(request: PlayRequest): Promise<PlayResponse> {
  // Loaded with the answer: the player's provider is on every page, visitors' too.
  const schema = () => import('@earshot/contract/playback').then((module) => module.playResponse);
  return requestJson('/api/spotify/play', schema, { method: 'POST', body: request });
}
