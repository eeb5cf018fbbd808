import { betaRequested, type BetaRequested } from '@earshot/contract/admin';
import { useMutation } from '@tanstack/react-query';
import { ApiError, requestJson } from '../../../lib/apiClient';

/** `POST /api/user/beta/request`: asks for beta access. */
export function postBetaRequest(email: string): Promise<BetaRequested> {
  return requestJson('/api/user/beta/request', betaRequested, {
    method: 'POST',
    body: { email },
  });
}

export const BETA_FAILURE_FALLBACK = 'Something went wrong. Please try again.';

/**
 * The beta failure text: the server's message for a refused request (4xx), else the fallback
 * (unreachable server, server failure).
 */
export function betaFailureMessage(error: Error): string {
  return error instanceof ApiError && error.status >= 400 && error.status < 500
    ? error.message
    : BETA_FAILURE_FALLBACK;
}

export function useBetaRequestMutation() {
  return useMutation({ mutationFn: postBetaRequest });
}
