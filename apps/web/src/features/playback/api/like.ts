import { likeResponse, type LikeResponse } from '@earshot/contract/activity';
import { requestJson } from '../../../lib/apiClient';

/** `POST /api/like`, from the mini player: likes or unlikes the playing song. */
export function postLike(uid: string, liked: boolean): Promise<LikeResponse> {
  return requestJson('/api/like', likeResponse, { method: 'POST', body: { uid, liked } });
}
