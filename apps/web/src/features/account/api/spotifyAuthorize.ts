import { useMutation } from '@tanstack/react-query';
import { requestJson } from '../../../lib/apiClient';

export const NO_AUTHORIZATION_URL_MESSAGE = 'No authorization URL received from server';

/**
 * The answer may lack the URL; that case has its own message (docs/product.md §8). Loaded with
 * the answer: the button is on the landing page, which needs no zod until it is pressed.
 */
const authorizationAnswer = () =>
  import('@earshot/contract/spotify').then((module) => module.authorizationResponse.partial());

/** Spotify's authorization page for logging in, returning to `next` afterwards. */
export async function fetchAuthorizationUrl(next: string): Promise<string> {
  const answer = await requestJson(
    `/api/spotify/authorize?${new URLSearchParams({ next }).toString()}`,
    authorizationAnswer,
  );
  if (!answer.authorization_url) throw new Error(NO_AUTHORIZATION_URL_MESSAGE);
  return answer.authorization_url;
}

export function useSpotifyAuthorizeMutation() {
  return useMutation({ mutationFn: fetchAuthorizationUrl });
}
