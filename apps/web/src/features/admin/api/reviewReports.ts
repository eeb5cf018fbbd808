import { useMutation, useQueryClient } from '@tanstack/react-query';
import { requestWithoutContent } from '../../../lib/apiClient';
import { useNotificationStack } from '../../../lib/notifications';

export type ReviewDecision = 'approve' | 'reject';

export interface ReportedItem {
  kind: 'track' | 'artist';
  /** The song's uid or the artist's id. */
  key: string;
  name: string;
}

/** `POST /api/admin/ignore/{track|artist}/{key}/{approve|reject}`. */
export function postReview(item: ReportedItem, decision: ReviewDecision): Promise<void> {
  return requestWithoutContent(
    `/api/admin/ignore/${item.kind}/${encodeURIComponent(item.key)}/${decision}`,
    { method: 'POST' },
  );
}

/**
 * Approves (ignored for everyone) or rejects a reported item. Every query is refreshed: an
 * approval changes stats, suggestions and feeds everywhere.
 */
export function useReviewMutation(item: ReportedItem) {
  const queryClient = useQueryClient();
  const notifications = useNotificationStack();
  return useMutation({
    mutationKey: ['admin', 'review', item.kind, item.key],
    mutationFn: (decision: ReviewDecision) => postReview(item, decision),
    onSuccess: async (_answer, decision) => {
      notifications.push(
        decision === 'approve'
          ? `${item.name} is now ignored for everyone.`
          : `Report of ${item.name} rejected.`,
        { kind: 'success' },
      );
      await queryClient.invalidateQueries();
    },
    onError: (error, decision) =>
      notifications.push(`Failed to ${decision} ${item.name}: ${error.message}`, {
        kind: 'error',
      }),
  });
}
