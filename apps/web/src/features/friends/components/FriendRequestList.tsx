import type { PendingRequest } from '@earshot/contract/friendship';
import { Link } from 'react-router';
import { Avatar } from '../../../components/ui/Avatar';
import { useNotificationStack } from '../../../lib/notifications';
import { useAcceptFriendRequestMutation } from '../api/acceptFriendRequest';
import { useDeclineFriendRequestMutation } from '../api/declineFriendRequest';
import { FriendRequestAnswerButtons } from './FriendRequestAnswerButtons';
import './friends.css';

interface FriendRequestListProps {
  requests: readonly PendingRequest[];
  /** Called after a request was accepted or declined, for pages that show friendship. */
  onAnswered?: () => void;
}

function FriendRequestItem({
  request,
  onAnswered,
}: { request: PendingRequest } & Pick<FriendRequestListProps, 'onAnswered'>) {
  const { user } = request;
  const accept = useAcceptFriendRequestMutation();
  const decline = useDeclineFriendRequestMutation();
  const notifications = useNotificationStack();
  const busy = accept.isPending || decline.isPending;
  const displayName = user.name || user.username;

  async function answer(action: 'accept' | 'decline') {
    const mutation = action === 'accept' ? accept : decline;
    // Awaited rather than callbacks given to mutate(): those are dropped when this item unmounts,
    // and it does, as soon as the refreshed pending list no longer holds the request.
    try {
      await mutation.mutateAsync(user.id);
    } catch (error) {
      notifications.push(
        `Failed to ${action} the friend request: ${error instanceof Error ? error.message : String(error)}`,
        { kind: 'error' },
      );
      return;
    }
    if (action === 'accept') {
      notifications.push(`You and ${displayName} are now friends.`, { kind: 'success' });
    }
    onAnswered?.();
  }

  return (
    <li className="friend-request">
      <Avatar name={displayName} picture={user.picture} size={36} />
      <div className="friend-request__text">
        <Link to={`/user/${encodeURIComponent(user.username)}`} className="friend-request__name">
          {displayName}
        </Link>
        <span className="friend-request__detail">@{user.username} wants to be friends</span>
      </div>
      <div className="friend-request__actions">
        <FriendRequestAnswerButtons
          username={user.username}
          busy={busy}
          onAccept={() => void answer('accept')}
          onDecline={() => void answer('decline')}
        />
      </div>
    </li>
  );
}

/** Friend requests waiting for the viewer, each with Accept and Decline (the bell panel). */
export function FriendRequestList({ requests, onAnswered }: FriendRequestListProps) {
  return (
    <ul className="friend-requests" aria-label="Friend requests">
      {requests.map((request) => (
        <FriendRequestItem key={request.user.id} request={request} onAnswered={onAnswered} />
      ))}
    </ul>
  );
}
