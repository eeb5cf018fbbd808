import { playResponse, type PlayRequest, type PlayResponse } from '@earshot/contract/playback';
import { requestJson } from '../../../lib/apiClient';

/** `POST /api/spotify/play`: starts a track on the active device and records the play. */
export function postPlay(request: PlayRequest): Promise<PlayResponse> {
  return requestJson('/api/spotify/play', playResponse, { method: 'POST', body: request });
}
