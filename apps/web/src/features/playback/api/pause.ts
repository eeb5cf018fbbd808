import { requestWithoutContent } from '../../../lib/apiClient';

/** `POST /api/spotify/pause`. */
export function postPause(): Promise<void> {
  return requestWithoutContent('/api/spotify/pause', { method: 'POST' });
}
