import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import {
  USERNAME_CHARACTERS_MESSAGE,
  USERNAME_MAX_LENGTH,
  USERNAME_PATTERN,
} from '@earshot/contract/user';
import { USERNAME_SAVED_MS } from '../../../lib/constants';
import {
  USERNAME_EMPTY_MESSAGE,
  useUpdateUsernameMutation,
  usernameErrorMessage,
} from '../api/updateUsername';

interface UsernameEditorProps {
  username: string;
  onSaved: (username: string) => void;
}

/** The public username: at most 40 characters, trimmed on save (docs/product.md §5). */
export function UsernameEditor({ username, onSaved }: UsernameEditorProps) {
  const inputId = useId();
  const hintId = useId();
  const errorId = useId();
  const [draft, setDraft] = useState(username);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const savedTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const save = useUpdateUsernameMutation();

  useEffect(() => () => clearTimeout(savedTimer.current), []);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const value = draft.trim();
    clearTimeout(savedTimer.current);
    setSaved(false);
    if (value === '') {
      setError(USERNAME_EMPTY_MESSAGE);
      return;
    }
    // Said before asking: the server's 400 would read "cannot be empty" (docs/product.md §5).
    if (!USERNAME_PATTERN.test(value)) {
      setError(USERNAME_CHARACTERS_MESSAGE);
      return;
    }
    setError(null);
    save.mutate(value, {
      onSuccess: (savedUsername) => {
        setDraft(savedUsername);
        setSaved(true);
        savedTimer.current = setTimeout(() => setSaved(false), USERNAME_SAVED_MS);
        onSaved(savedUsername);
      },
      onError: (failure) => setError(usernameErrorMessage(failure)),
    });
  }

  return (
    <form className="username-editor" onSubmit={submit} noValidate>
      <label htmlFor={inputId} className="field-label">
        Username
      </label>
      <div className="username-editor__row">
        <input
          id={inputId}
          className="text-input settings__input"
          type="text"
          name="username"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          maxLength={USERNAME_MAX_LENGTH}
          value={draft}
          aria-invalid={error !== null || undefined}
          aria-describedby={error === null ? hintId : `${errorId} ${hintId}`}
          onChange={(event) => {
            setDraft(event.target.value);
            setError(null);
          }}
        />
        <button
          type="submit"
          className="button button--primary"
          disabled={save.isPending || draft.trim() === username}
        >
          {save.isPending ? 'Saving…' : 'Save'}
        </button>
        <span className="username-editor__saved" role="status">
          {saved ? 'Saved' : ''}
        </span>
      </div>
      {error !== null && (
        <p id={errorId} className="settings__error" role="alert">
          {error}
        </p>
      )}
      <p id={hintId} className="settings__hint">
        Up to {USERNAME_MAX_LENGTH} characters. It is the address of your public profile.
      </p>
    </form>
  );
}
