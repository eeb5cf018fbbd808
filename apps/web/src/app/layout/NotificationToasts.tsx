import { useNotifications } from '../../lib/notifications';
import { DismissNotificationButton } from './DismissNotificationButton';

/** The notification stack on screen, newest first; leaving ones play the exit animation. */
export function NotificationToasts() {
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
          <DismissNotificationButton notificationId={notification.id} />
        </div>
      ))}
    </div>
  );
}
