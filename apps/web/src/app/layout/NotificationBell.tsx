import { Popover } from 'radix-ui';
import { BellIcon, CloseIcon } from '../../components/ui/icons';
import { useNotificationStack, useNotifications } from '../../lib/notifications';

/** The header bell: a panel listing the current notifications. */
export function NotificationBell() {
  const stack = useNotificationStack();
  const notifications = useNotifications().filter((notification) => !notification.leaving);
  const count = notifications.length;

  return (
    <Popover.Root>
      <Popover.Trigger
        className="icon-button"
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
        >
          <h2 className="notification-panel__title">Notifications</h2>
          {count === 0 ? (
            <p className="notification-panel__empty">No notifications</p>
          ) : (
            <ul className="notification-panel__list">
              {notifications.map((notification) => (
                <li
                  key={notification.id}
                  className={`notification-panel__item notification-panel__item--${notification.kind}`}
                >
                  <span>{notification.message}</span>
                  <button
                    type="button"
                    className="icon-button icon-button--small"
                    aria-label="Dismiss notification"
                    onClick={() => stack.dismiss(notification.id)}
                  >
                    <CloseIcon size={16} />
                  </button>
                </li>
              ))}
            </ul>
          )}
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
