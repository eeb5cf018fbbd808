import { nextTrack, type NextTrack } from '@earshot/contract/playback';
import { requestJson } from '../../../lib/apiClient';

/** `GET /api/spotify/next`: what should follow the playing track in its Earshot context. */
export function fetchNextTrack(): Promise<NextTrack> {
  return requestJson('/api/spotify/next', nextTrack, { redirectOnAuthFailure: false });
}
