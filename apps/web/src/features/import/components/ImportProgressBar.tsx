import { formatCount } from '@earshot/contract/english';
import type { ImportProgress } from '@earshot/contract/import';
import { ImportFigures } from './ImportFigures';

/** A queued or running import: files done of all files, rows read and plays added so far. */
export function ImportProgressBar({ progress }: { progress: ImportProgress }) {
  const { files_done: filesDone, files_total: filesTotal } = progress;
  const share = filesTotal > 0 ? Math.min(1, filesDone / filesTotal) : 0;
  return (
    <section className="card import-card" aria-labelledby="import-progress-title">
      <h2 id="import-progress-title" className="card__title">
        {progress.interrupted
          ? 'Import interrupted, resuming…'
          : progress.state === 'queued'
            ? 'Import waiting to start…'
            : 'Importing your history…'}
      </h2>
      <div
        className="import-progress"
        role="progressbar"
        aria-label="Import progress"
        aria-valuemin={0}
        aria-valuemax={filesTotal}
        aria-valuenow={filesDone}
        aria-valuetext={`${filesDone} of ${filesTotal} files`}
      >
        <div className="import-progress__fill" style={{ width: `${share * 100}%` }} />
      </div>
      <ImportFigures
        figures={[
          ['Files', `${formatCount(filesDone)} of ${formatCount(filesTotal)}`],
          ['Rows read', formatCount(progress.rows_read)],
          ['Plays added', formatCount(progress.plays_added)],
        ]}
      />
      <p className="import-muted">
        {progress.interrupted
          ? 'The server restarted during the import. It resumes by itself within a minute from the last file it finished; nothing is counted twice.'
          : 'You can leave this page; the import carries on.'}
      </p>
    </section>
  );
}
