import { CloseIcon } from '../../components/ui/icons';
import { useNotificationStack } from '../../lib/notifications';

/** The × of a notification, in the toasts and in the bell's panel alike. */
export function DismissNotificationButton({ notificationId }: { notificationId: number }) {
  const stack = useNotificationStack();
  return (
    <button
      type="button"
      className="round-button icon-button icon-button--small"
      aria-label="Dismiss notification"
      onClick={() => stack.dismiss(notificationId)}
    >
      <CloseIcon size={16} />
    </button>
  );
}
