interface FriendRequestAnswerButtonsProps {
  /** Who sent the request: the buttons' accessible names say it. */
  username: string;
  /** While an answer is being sent: both buttons are disabled. */
  busy: boolean;
  onAccept: () => void;
  onDecline: () => void;
}

/** Accept and Decline of a friend request to the viewer. */
export function FriendRequestAnswerButtons({
  username,
  busy,
  onAccept,
  onDecline,
}: FriendRequestAnswerButtonsProps) {
  return (
    <>
      <button
        type="button"
        className="button button--primary"
        aria-label={`Accept friend request from ${username}`}
        disabled={busy}
        onClick={onAccept}
      >
        Accept
      </button>
      <button
        type="button"
        className="button button--secondary"
        aria-label={`Decline friend request from ${username}`}
        disabled={busy}
        onClick={onDecline}
      >
        Decline
      </button>
    </>
  );
}
