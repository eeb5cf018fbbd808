import { formatCount } from '@earshot/contract/english';
import type { ImportProgress } from '@earshot/contract/import';
import { AbsoluteDate } from '../../../components/ui/AbsoluteDate';
import { skippedRowsByReason } from '../importTexts';
import { ImportFigures } from './ImportFigures';

/** A finished or failed import: what it added, and why the rows it left out were skipped. */
export function ImportSummary({ progress }: { progress: ImportProgress }) {
  const skipped = skippedRowsByReason(progress.skipped);
  const skippedTotal = skipped.reduce((sum, row) => sum + row.count, 0);
  const failed = progress.state === 'failed';
  return (
    <section className="card import-card" aria-labelledby="import-summary-title">
      <h2 id="import-summary-title" className="card__title">
        {failed ? 'Your last import failed' : 'Your last import'}
      </h2>
      {progress.finished_at !== null && (
        <p className="import-muted">
          {failed ? 'Stopped' : 'Finished'} <AbsoluteDate iso={progress.finished_at} />
        </p>
      )}
      <ImportFigures
        figures={[
          ['Plays added', formatCount(progress.plays_added)],
          ['Rows read', formatCount(progress.rows_read)],
          ['Rows skipped', formatCount(skippedTotal)],
        ]}
      />

      {skipped.length > 0 && (
        <section aria-labelledby="import-skipped-title" className="import-summary__part">
          <h3 id="import-skipped-title" className="import-summary__subtitle">
            Why rows were skipped
          </h3>
          <p className="import-muted">
            Earshot keeps music only, and like Spotify counts a play from 30 s on.
          </p>
          <dl className="import-reasons">
            {skipped.map((row) => (
              <div key={row.reason} className="import-reason">
                <dt>{row.label}</dt>
                <dd>{formatCount(row.count)}</dd>
              </div>
            ))}
          </dl>
        </section>
      )}

      {progress.errors.length > 0 && (
        <section aria-labelledby="import-errors-title" className="import-summary__part">
          <h3 id="import-errors-title" className="import-summary__subtitle">
            Problems
          </h3>
          <ul className="import-errors">
            {progress.errors.map((error, index) => (
              <li key={index}>{error}</li>
            ))}
          </ul>
        </section>
      )}
    </section>
  );
}
