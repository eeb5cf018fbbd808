import { CloseIcon } from '../../components/ui/icons';
import { useNotificationStack, useNotifications } from '../../lib/notifications';

/** The notification stack on screen, newest first; leaving ones play the exit animation. */
export function NotificationToasts() {
  const stack = useNotificationStack();
  const notifications = useNotifications();

  return (
    <div className="toasts" aria-live="polite">
      {notifications.map((notification) => (
        <div
          key={notification.id}
          role={notification.kind === 'error' ? 'alert' : 'status'}
          className={[
            'toast',
            `toast--${notification.kind}`,
            notification.leaving ? 'toast--leaving' : '',
          ].join(' ')}
        >
          <span className="toast__message">{notification.message}</span>
          <button
            type="button"
            className="icon-button icon-button--small"
            aria-label="Dismiss notification"
            onClick={() => stack.dismiss(notification.id)}
          >
            <CloseIcon size={16} />
          </button>
        </div>
      ))}
    </div>
  );
}
