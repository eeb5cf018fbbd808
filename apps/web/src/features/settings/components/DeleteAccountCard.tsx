import { useState, type FormEvent } from 'react';
import { useDeleteAccountMutation } from '../api/deleteAccount';

export const SPOTIFY_APPS_URL = 'https://www.spotify.com/account/apps/';

/**
 * "Delete my account": removes every row of the user once they type their username; says how to
 * also take back Earshot's access on Spotify's side.
 */
export function DeleteAccountCard({ username }: { username: string }) {
  const [typed, setTyped] = useState('');
  const deletion = useDeleteAccountMutation();
  const confirmed = typed.trim().toLowerCase() === username.toLowerCase();

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (confirmed) deletion.mutate(typed);
  }

  return (
    <section
      className="card settings__card settings__danger"
      aria-labelledby="settings-delete-title"
    >
      <h2 id="settings-delete-title" className="card__title">
        Delete my account
      </h2>
      <p className="settings__muted">
        This removes your plays, likes, friends, friend requests, ignored items, reports, imports
        and sessions from Earshot for good, and logs you out on every device. Your friends keep
        their own data. It cannot be undone.
      </p>
      <p className="settings__muted">
        Earshot can still reach your Spotify account until you remove it from{' '}
        <a href={SPOTIFY_APPS_URL} target="_blank" rel="noreferrer">
          Spotify&apos;s account page → Manage apps
        </a>{' '}
        (choose Earshot, then Remove access).
      </p>
      <form className="settings__delete-form" onSubmit={submit}>
        <label className="field-label" htmlFor="delete-confirmation">
          Type your username <strong>{username}</strong> to confirm
        </label>
        <div className="settings__delete-row">
          <input
            id="delete-confirmation"
            className="text-input"
            autoComplete="off"
            value={typed}
            onChange={(event) => setTyped(event.target.value)}
          />
          <button
            type="submit"
            className="button settings__delete-button"
            disabled={!confirmed || deletion.isPending}
          >
            {deletion.isPending ? 'Deleting…' : 'Delete my account'}
          </button>
        </div>
        {deletion.isError && (
          <p className="settings__error" role="alert">
            Failed to delete the account: {deletion.error.message}
          </p>
        )}
      </form>
    </section>
  );
}
