import { mediumDateTime } from '@earshot/contract/english';
import type { DataExport } from '@earshot/contract/export';
import {
  DATA_EXPORT_DOWNLOAD_PATH,
  isExportInProgress,
  useDataExportQuery,
  useStartDataExportMutation,
} from '../api/dataExport';

/** A ZIP's size as people read it: "127.4 MB", "12 KB". */
function formatSize(bytes: number): string {
  return bytes >= 1e6
    ? `${(bytes / 1e6).toFixed(1)} MB`
    : `${Math.max(1, Math.round(bytes / 1e3))} KB`;
}

/** How far a running export is, in whole percent; 100 only once it is ready. */
function exportPercent(current: DataExport): number {
  if (current.status === 'ready') return 100;
  if (current.rows_total <= 0) return 0;
  return Math.min(99, Math.floor((current.rows_written * 100) / current.rows_total));
}

function ExportProgress({ current }: { current: DataExport }) {
  const percent = exportPercent(current);
  const text =
    current.status === 'pending' || current.phase === null
      ? 'Waiting to start…'
      : `Writing ${current.phase}… ${percent}%`;
  return (
    <div className="settings__export-progress">
      <div
        className="settings__progress"
        role="progressbar"
        aria-label="Export progress"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={`${percent}%`}
      >
        <div className="settings__progress-fill" style={{ width: `${percent}%` }} />
      </div>
      <p className="settings__muted" aria-live="polite">
        {text}
      </p>
    </div>
  );
}

/**
 * "Download my data" (docs/product.md §2, Settings): starts an export job, shows its progress,
 * then a link to the ZIP. Reads the export's state from the server, so a reload shows it too.
 */
export function DataExportCard() {
  const state = useDataExportQuery();
  const start = useStartDataExportMutation();
  const current = state.data?.export ?? null;
  const inProgress = isExportInProgress(current);

  const startButton = (label: string) => (
    <button
      type="button"
      className="button button--secondary settings__import"
      disabled={start.isPending || state.isPending}
      onClick={() => start.mutate()}
    >
      {start.isPending ? 'Starting…' : label}
    </button>
  );

  return (
    <section className="card settings__card" aria-labelledby="settings-export-title">
      <h2 id="settings-export-title" className="card__title">
        Download my data
      </h2>
      <p className="settings__muted">
        A ZIP of your profile, plays, likes, friends and ignored items, each in JSON and CSV. It is
        made in the background: you can leave this page while it runs.
      </p>
      {current !== null && inProgress && <ExportProgress current={current} />}
      {current?.status === 'ready' && (
        <>
          <p>
            Your data is ready: {formatSize(current.size_bytes ?? 0)} ZIP, until{' '}
            {mediumDateTime(new Date(current.expires_at ?? current.created_at))}.
          </p>
          <a
            href={DATA_EXPORT_DOWNLOAD_PATH}
            download
            className="button button--primary settings__import"
          >
            Download ZIP
          </a>
          {startButton('Make a new export')}
        </>
      )}
      {current?.status === 'failed' && (
        <>
          <p className="settings__error" role="alert">
            The export failed: {current.error}
          </p>
          {startButton('Try again')}
        </>
      )}
      {current === null && !state.isError && startButton('Download my data')}
      {state.isError && (
        <p className="settings__error" role="alert">
          Failed to load your export: {state.error.message}
        </p>
      )}
      {start.isError && (
        <p className="settings__error" role="alert">
          Failed to start the export: {start.error.message}
        </p>
      )}
    </section>
  );
}
