import { formatCount } from '@earshot/contract/english';
import type { ImportStatus } from '@earshot/contract/import';
import { useId, useRef, useState, type FormEvent } from 'react';
import { AbsoluteDate } from '../../../components/ui/AbsoluteDate';
import { useNotificationStack } from '../../../lib/notifications';
import {
  UPLOAD_RECEIVED_MESSAGE,
  uploadErrorMessage,
  useUploadHistoryMutation,
} from '../api/uploadHistory';
import { importLockedMessage } from '../importTexts';

interface ImportUploadFormProps {
  /** The status, or null while it loads or when it failed to load. */
  status: ImportStatus | null;
  /** Seconds before another import may start, as counted down on the page. */
  waitSeconds: number;
  /** An import is queued or running: the server refuses another until it ends. */
  importInProgress: boolean;
}

type Outcome = { kind: 'success' | 'error'; message: string };

/**
 * The last upload, the plays imported so far, and the `.zip` picker with its Upload button,
 * disabled without a file, while uploading, or while a wait time remains (docs/product.md §5).
 */
export function ImportUploadForm({ status, waitSeconds, importInProgress }: ImportUploadFormProps) {
  const inputId = useId();
  const outcomeId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const upload = useUploadHistoryMutation();
  const notifications = useNotificationStack();
  const waiting = waitSeconds > 0;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (file === null) return;
    setOutcome(null);
    upload.mutate(file, {
      onSuccess: (answer) => {
        setOutcome({ kind: 'success', message: answer.message || UPLOAD_RECEIVED_MESSAGE });
        setFile(null);
        if (inputRef.current) inputRef.current.value = '';
      },
      onError: (error) => {
        const message = uploadErrorMessage(error);
        setOutcome({ kind: 'error', message });
        notifications.push(message, { kind: 'error' });
      },
    });
  }

  return (
    <section className="card import-card" aria-labelledby="import-upload-title">
      <h2 id="import-upload-title" className="card__title">
        Upload your export
      </h2>
      <dl className="import-figures">
        <div className="import-figure">
          <dt>Last upload</dt>
          <dd>
            {status === null ? (
              '…'
            ) : status.last_full_history_sync === null ? (
              'Never'
            ) : (
              <AbsoluteDate iso={status.last_full_history_sync} />
            )}
          </dd>
        </div>
        <div className="import-figure">
          <dt>Plays imported</dt>
          <dd>{status === null ? '…' : formatCount(status.total_plays_synced)}</dd>
        </div>
      </dl>

      {waiting && <p className="import-notice">{importLockedMessage(waitSeconds)}</p>}

      <form className="import-upload" onSubmit={submit}>
        <label htmlFor={inputId} className="import-upload__label">
          Spotify export (.zip)
        </label>
        <div className="import-upload__row">
          <input
            ref={inputRef}
            id={inputId}
            className="import-upload__input"
            type="file"
            name="file"
            accept=".zip,application/zip"
            disabled={upload.isPending}
            aria-invalid={outcome?.kind === 'error' || undefined}
            aria-describedby={outcome === null ? undefined : outcomeId}
            onChange={(event) => {
              setFile(event.target.files?.[0] ?? null);
              setOutcome(null);
            }}
          />
          <button
            type="submit"
            className="button button--primary import-upload__button"
            disabled={file === null || upload.isPending || waiting || importInProgress}
          >
            {upload.isPending ? 'Uploading…' : 'Upload'}
          </button>
        </div>
        {outcome?.kind === 'success' && (
          <p id={outcomeId} className="import-upload__success" role="status">
            {outcome.message}
          </p>
        )}
        {outcome?.kind === 'error' && (
          <p id={outcomeId} className="import-upload__error">
            {outcome.message}
          </p>
        )}
      </form>
    </section>
  );
}
