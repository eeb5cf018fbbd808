import { Link } from 'react-router';
import { PageMeta } from '../../../components/ui/PageMeta';

/** Any path without a page. */
export function NotFoundPage() {
  return (
    <section className="status-page">
      <PageMeta title="Page Not Found" noindex />
      <div className="card status-page__card">
        <p className="status-page__code" aria-hidden="true">
          404
        </p>
        <h1 className="status-page__title">Page Not Found</h1>
        <p className="status-page__message">
          There is nothing at this address. It may have moved, or the link may be mistyped.
        </p>
        <Link to="/" className="button button--primary">
          Return to Home
        </Link>
      </div>
    </section>
  );
}
