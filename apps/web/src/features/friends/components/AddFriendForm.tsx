import type { Friend, FriendshipStatus } from '@earshot/contract/friendship';
import { useId, useState, type FormEvent } from 'react';
import { AddFriendIcon } from '../../../components/ui/icons';
import { useFriendListQuery } from '../api/friendList';
import { useSendFriendRequestMutation } from '../api/sendFriendRequest';

/**
 * What a request did. The server answers a repeated request as the first (already friends,
 * already asked), so the table's row from before the request tells a new answer from an old one.
 */
function outcomeText(answer: FriendshipStatus, username: string, before?: Friend['status']) {
  if (answer === 'friends') {
    return before === 'accepted'
      ? `You and ${username} are already friends.`
      : `You and ${username} are now friends.`;
  }
  return before === 'requested'
    ? `Your request to ${username} is still waiting for an answer.`
    : `Friend request sent to ${username}.`;
}

/** Sends a friend request by username; says what happened, or the server's reason it did not. */
export function AddFriendForm() {
  const inputId = useId();
  const messageId = useId();
  const [username, setUsername] = useState('');
  const send = useSendFriendRequestMutation();
  const friends = useFriendListQuery();
  const [rowBefore, setRowBefore] = useState<Friend['status']>();

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const target = username.trim();
    if (target === '') return;
    const lower = target.toLowerCase();
    setRowBefore(
      friends.data?.friends.find((friend) => friend.username.toLowerCase() === lower)?.status,
    );
    send.mutate(target, { onSuccess: () => setUsername('') });
  }

  return (
    <form className="card add-friend" onSubmit={submit} aria-labelledby={`${inputId}-title`}>
      <h2 id={`${inputId}-title`} className="card__title">
        Add a friend
      </h2>
      <div className="add-friend__row">
        <label htmlFor={inputId} className="field-label add-friend__label">
          Username
        </label>
        <input
          id={inputId}
          className="text-input add-friend__input"
          type="text"
          name="username"
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          placeholder="Their Earshot username"
          value={username}
          aria-describedby={send.isIdle ? undefined : messageId}
          aria-invalid={send.isError || undefined}
          onChange={(event) => {
            setUsername(event.target.value);
            if (!send.isPending) send.reset();
          }}
        />
        <button
          type="submit"
          className="button button--primary"
          disabled={send.isPending || username.trim() === ''}
        >
          <AddFriendIcon size={20} />
          <span>{send.isPending ? 'Sending…' : 'Send request'}</span>
        </button>
      </div>
      {send.isError && (
        <p id={messageId} className="add-friend__message add-friend__message--error" role="alert">
          {send.error.message}
        </p>
      )}
      {send.isSuccess && (
        <p id={messageId} className="add-friend__message" role="status">
          {outcomeText(send.data.status, send.variables, rowBefore)}
        </p>
      )}
    </form>
  );
}
