import type { TransferRequest } from '@earshot/contract/playback';
import { requestWithoutContent } from '../../../lib/apiClient';

/** `POST /api/spotify/transfer`: moves playback to a device. */
export function postTransfer(request: TransferRequest): Promise<void> {
  return requestWithoutContent('/api/spotify/transfer', { method: 'POST', body: request });
}
