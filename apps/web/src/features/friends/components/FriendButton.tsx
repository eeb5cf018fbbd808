import type { FriendshipStatus } from '@earshot/contract/friendship';
import { useId } from 'react';
import { useNotificationStack } from '../../../lib/notifications';
import { useFriendshipStatusQuery } from '../api/friendshipStatus';
import { useSendFriendRequestMutation } from '../api/sendFriendRequest';
import './friends.css';

interface FriendButtonProps {
  /** The other user's username. */
  username: string;
  /** The status already known (from the profile answer) and when it was fetched. */
  knownStatus: FriendshipStatus;
  knownAt: number;
  /** Called after this button changed the friendship. */
  onChange?: (status: FriendshipStatus) => void;
}

const LABELS: Record<Exclude<FriendshipStatus, 'self'>, string> = {
  friends: '✓ Friends',
  pending_outgoing: 'Request sent',
  pending_incoming: 'Respond pending',
  none: 'Add friend',
};

/**
 * The friend button of a profile (docs/product.md §4): only "Add friend" acts; an incoming
 * request is answered from the notifications. Nothing for one's own profile.
 */
export function FriendButton({ username, knownStatus, knownAt, onChange }: FriendButtonProps) {
  const hintId = useId();
  const status = useFriendshipStatusQuery(username, { status: knownStatus, knownAt }).data.status;
  const send = useSendFriendRequestMutation();
  const notifications = useNotificationStack();

  if (status === 'self') return null;

  if (status === 'none') {
    return (
      <button
        type="button"
        className="button button--primary friend-button"
        disabled={send.isPending}
        onClick={() =>
          send.mutate(username, {
            onSuccess: (answer) => onChange?.(answer.status),
            onError: (error) =>
              notifications.push(`Failed to send the friend request: ${error.message}`, {
                kind: 'error',
              }),
          })
        }
      >
        {LABELS.none}
      </button>
    );
  }

  return (
    <div className="friend-button__state">
      <button
        type="button"
        className={`button button--secondary friend-button friend-button--${status}`}
        disabled
        aria-describedby={status === 'pending_incoming' ? hintId : undefined}
      >
        {LABELS[status]}
      </button>
      {status === 'pending_incoming' && (
        <span id={hintId} className="friend-button__hint">
          Respond from the notifications.
        </span>
      )}
    </div>
  );
}
