import { usernameUpdated } from '@earshot/contract/user';
import { useMutation } from '@tanstack/react-query';
import { ApiError, requestJson } from '../../../lib/apiClient';

/** Sets the viewer's public username; the answer is the username as saved. */
export function postUsername(username: string): Promise<string> {
  return requestJson('/api/user/username', usernameUpdated, {
    method: 'POST',
    body: { username },
  }).then((answer) => answer.username);
}

export const USERNAME_EMPTY_MESSAGE = 'Username cannot be empty.';

/** The message for a failed save (docs/product.md §5). */
export function usernameErrorMessage(error: Error): string {
  if (error instanceof ApiError && error.status === 409) return 'That username is taken.';
  if (error instanceof ApiError && error.status === 400) return USERNAME_EMPTY_MESSAGE;
  return "Couldn't save username.";
}

export function useUpdateUsernameMutation() {
  return useMutation({ mutationFn: postUsername });
}
