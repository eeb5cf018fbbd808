import { useQueryClient } from '@tanstack/react-query';
import { Popover } from 'radix-ui';
import { useId } from 'react';
import { BellIcon } from '../../components/ui/icons';
import { useAdminNotificationsQuery } from '../../features/admin/api/adminNotifications';
import {
  AdminNotificationsPanel,
  adminItemCount,
} from '../../features/admin/components/AdminNotificationsPanel';
import { usePendingFriendRequestsQuery } from '../../features/friends/api/pendingFriendRequests';
import { FriendRequestList } from '../../features/friends/components/FriendRequestList';
import { profileQueryKeys } from '../../features/profile/api/publicProfile';
import { useNotifications } from '../../lib/notifications';
import { DismissNotificationButton } from './DismissNotificationButton';

/**
 * The header bell (shown to logged-in users only): a panel listing the friend requests waiting
 * for an answer and the current notifications, and for admins what waits for them (polled); the
 * badge counts all of these.
 */
export function NotificationBell({ isAdmin }: { isAdmin: boolean }) {
  const queryClient = useQueryClient();
  const titleId = useId();
  const notifications = useNotifications().filter((notification) => !notification.leaving);
  const pending = usePendingFriendRequestsQuery();
  const requests = pending.data?.requests ?? [];
  const admin = useAdminNotificationsQuery(isAdmin);
  const adminCount = adminItemCount(admin.data);
  const count = notifications.length + requests.length + adminCount;

  return (
    <Popover.Root>
      <Popover.Trigger
        className="round-button icon-button"
        aria-label={count > 0 ? `Notifications (${count})` : 'Notifications'}
      >
        <BellIcon />
        {count > 0 && (
          <span className="icon-button__badge" aria-hidden="true">
            {count}
          </span>
        )}
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          className="popover notification-panel"
          align="end"
          sideOffset={8}
          collisionPadding={8}
          aria-labelledby={titleId}
        >
          <h2 id={titleId} className="notification-panel__title">
            Notifications
          </h2>
          {requests.length > 0 && (
            <FriendRequestList
              requests={requests}
              // Accepting changes what profiles show (friend button, highlights).
              onAnswered={() =>
                void queryClient.invalidateQueries({ queryKey: profileQueryKeys.all })
              }
            />
          )}
          {pending.isError && (
            <p className="notification-panel__error">Couldn&apos;t load friend requests.</p>
          )}
          {count === 0 ? (
            <p className="notification-panel__empty">No notifications</p>
          ) : (
            notifications.length > 0 && (
              <ul className="notification-panel__list">
                {notifications.map((notification) => (
                  <li
                    key={notification.id}
                    className={`notification-panel__item notification-panel__item--${notification.kind}`}
                  >
                    <span>{notification.message}</span>
                    <DismissNotificationButton notificationId={notification.id} />
                  </li>
                ))}
              </ul>
            )
          )}
          {isAdmin && <AdminNotificationsPanel data={admin.data} error={admin.error} />}
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
