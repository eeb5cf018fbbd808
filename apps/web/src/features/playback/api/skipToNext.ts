import { requestWithoutContent } from '../../../lib/apiClient';

/** `POST /api/spotify/next`: Spotify skips to its next track. */
export function postSkipToNext(): Promise<void> {
  return requestWithoutContent('/api/spotify/next', { method: 'POST' });
}
