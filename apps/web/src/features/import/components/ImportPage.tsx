import { PageMeta } from '../../../components/ui/PageMeta';
import { isImportInProgress, useImportStatusQuery } from '../api/importStatus';
import { useImportWaitCountdown } from '../hooks/useImportWaitCountdown';
import { ImportGapNotice } from './ImportGapNotice';
import { ImportInstructions } from './ImportInstructions';
import { ImportProgressBar } from './ImportProgressBar';
import { ImportSummary } from './ImportSummary';
import { ImportUploadForm } from './ImportUploadForm';
import './import.css';

/** `/spotify/import` for a logged-in user (docs/product.md §2, Import page). */
export function ImportPage() {
  const status = useImportStatusQuery();
  const waitSeconds = useImportWaitCountdown(
    status.data?.full_history_sync_wait ?? 0,
    status.dataUpdatedAt,
  );
  const current = status.data?.current ?? null;
  const inProgress = isImportInProgress(current);

  return (
    <section className="import-page" aria-labelledby="import-title">
      <PageMeta
        title="Import your listening history"
        description="Bring your whole Spotify listening history into Earshot from Spotify's data export."
        noindex
      />
      <h1 id="import-title" className="import-page__title">
        Import your listening history
      </h1>
      <p className="import-muted">
        Spotify only shares about the last 24 hours of plays from when you connect. Its extended
        streaming history export holds every play since you opened your account: import it and your
        whole history shows in Recent, Likes and your stats.
      </p>
      {status.data && <ImportGapNotice status={status.data} />}

      <ImportInstructions />
      <ImportUploadForm
        status={status.data ?? null}
        waitSeconds={waitSeconds}
        importInProgress={inProgress}
      />
      {status.isError && (
        <p className="import-upload__error" role="alert">
          Failed to load the import status: {status.error.message}
        </p>
      )}
      {current !== null &&
        (inProgress ? (
          <ImportProgressBar progress={current} />
        ) : (
          <ImportSummary progress={current} />
        ))}
    </section>
  );
}
