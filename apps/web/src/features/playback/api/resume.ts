import { requestWithoutContent } from '../../../lib/apiClient';

/** `POST /api/spotify/resume`. */
export function postResume(): Promise<void> {
  return requestWithoutContent('/api/spotify/resume', { method: 'POST' });
}
