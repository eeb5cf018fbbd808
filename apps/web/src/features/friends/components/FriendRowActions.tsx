import type { Friend } from '@earshot/contract/friendship';
import { AlertDialog, DropdownMenu } from 'radix-ui';
import { useState } from 'react';
import { Link } from 'react-router';
import { MoreIcon } from '../../../components/ui/icons';
import { useNotificationStack } from '../../../lib/notifications';
import { useAcceptFriendRequestMutation } from '../api/acceptFriendRequest';
import { useDeclineFriendRequestMutation } from '../api/declineFriendRequest';
import { useUnfriendMutation } from '../api/unfriend';
import { FriendRequestAnswerButtons } from './FriendRequestAnswerButtons';

/** Reports a failed friendship change as an error notification (docs/product.md §8). */
function useFailureNotice() {
  const notifications = useNotificationStack();
  return (action: string) => (error: Error) =>
    notifications.push(`Failed to ${action}: ${error.message}`, { kind: 'error' });
}

/** A request the viewer sent: the "Requested" badge and a way to take it back. */
function RequestedActions({ friend }: { friend: Friend }) {
  const decline = useDeclineFriendRequestMutation();
  const failed = useFailureNotice();
  return (
    <div className="friend-actions">
      <span className="friends-badge">Requested</span>
      <button
        type="button"
        className="button button--secondary"
        aria-label={`Cancel friend request to ${friend.username}`}
        disabled={decline.isPending}
        onClick={() => decline.mutate(friend.id, { onError: failed('cancel the friend request') })}
      >
        Cancel
      </button>
    </div>
  );
}

/** A request to the viewer: the "Incoming request" badge with Accept and Decline. */
function IncomingActions({ friend }: { friend: Friend }) {
  const accept = useAcceptFriendRequestMutation();
  const decline = useDeclineFriendRequestMutation();
  const failed = useFailureNotice();
  return (
    <div className="friend-actions">
      <span className="friends-badge friends-badge--incoming">Incoming request</span>
      <FriendRequestAnswerButtons
        username={friend.username}
        busy={accept.isPending || decline.isPending}
        onAccept={() => accept.mutate(friend.id, { onError: failed('accept the friend request') })}
        onDecline={() =>
          decline.mutate(friend.id, { onError: failed('decline the friend request') })
        }
      />
    </div>
  );
}

/** A friend: a menu with their pages and Unfriend, which asks for confirmation first. */
function FriendMenu({ friend }: { friend: Friend }) {
  const unfriend = useUnfriendMutation();
  const failed = useFailureNotice();
  const [confirming, setConfirming] = useState(false);
  const username = encodeURIComponent(friend.username);
  const displayName = friend.name || friend.username;

  return (
    <>
      <DropdownMenu.Root
        // Not modal and not portaled: the page under it stays exposed (no aria-hidden over
        // focusable content) and the menu stays inside its landmark (axe-core).
        modal={false}
      >
        <DropdownMenu.Trigger
          className="round-button icon-button"
          aria-label={`Actions for ${friend.username}`}
          disabled={unfriend.isPending}
        >
          <MoreIcon size={20} />
        </DropdownMenu.Trigger>
        <DropdownMenu.Content className="menu" align="end" sideOffset={4} collisionPadding={8}>
          <DropdownMenu.Item className="menu__item" asChild>
            <Link to={`/user/${username}`}>View profile</Link>
          </DropdownMenu.Item>
          <DropdownMenu.Item className="menu__item" asChild>
            <Link to={`/recent/user/${username}`}>Recent plays</Link>
          </DropdownMenu.Item>
          <DropdownMenu.Separator className="menu__separator" />
          <DropdownMenu.Item
            className="menu__item friends-menu__danger"
            onSelect={() => setConfirming(true)}
          >
            Unfriend
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Root>
      <AlertDialog.Root open={confirming} onOpenChange={setConfirming}>
        <AlertDialog.Portal>
          <AlertDialog.Overlay className="friends-dialog__overlay" />
          <AlertDialog.Content className="card friends-dialog">
            <AlertDialog.Title className="friends-dialog__title">
              Unfriend {displayName}?
            </AlertDialog.Title>
            <AlertDialog.Description className="friends-dialog__text">
              You will stop seeing each other&apos;s plays and likes. You can send a new friend
              request later.
            </AlertDialog.Description>
            <div className="friends-dialog__actions">
              <AlertDialog.Cancel className="button button--secondary">
                Keep friend
              </AlertDialog.Cancel>
              <AlertDialog.Action
                className="button friends-dialog__confirm"
                onClick={() => unfriend.mutate(friend.id, { onError: failed('unfriend') })}
              >
                Unfriend
              </AlertDialog.Action>
            </div>
          </AlertDialog.Content>
        </AlertDialog.Portal>
      </AlertDialog.Root>
    </>
  );
}

/** The row's actions by status (docs/product.md §4, "Friend list statuses"). */
export function FriendRowActions({ friend }: { friend: Friend }) {
  switch (friend.status) {
    case 'accepted':
      return <FriendMenu friend={friend} />;
    case 'requested':
      return <RequestedActions friend={friend} />;
    case 'pending':
      return <IncomingActions friend={friend} />;
  }
}
