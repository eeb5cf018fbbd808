import { useEffect, type FocusEvent } from 'react';
import { useNotifications, useNotificationStack } from '../../lib/notifications';
import { DismissNotificationButton } from './DismissNotificationButton';

/**
 * The notification stack on screen, newest first; leaving ones play the exit animation. New
 * notifications are announced (errors as alerts). While the pointer or the focus is on them their
 * countdowns hold, so they can be read to the end and reached with Tab (WCAG 2.2.1).
 */
export function NotificationToasts() {
  const notifications = useNotifications();
  const stack = useNotificationStack();
  const empty = notifications.length === 0;
  useEffect(() => {
    // The last toast may leave from under the pointer or the focus: nothing holds an empty stack.
    if (empty) stack.resume();
  }, [empty, stack]);

  const resumeUnlessFocusStays = (event: FocusEvent<HTMLDivElement>) => {
    if (!event.currentTarget.contains(event.relatedTarget)) stack.resume();
  };

  return (
    <div
      className="toasts"
      aria-live="polite"
      onPointerEnter={stack.pause}
      onPointerLeave={stack.resume}
      onFocus={stack.pause}
      onBlur={resumeUnlessFocusStays}
    >
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
