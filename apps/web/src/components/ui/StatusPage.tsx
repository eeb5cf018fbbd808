import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { PageMeta } from './PageMeta';

interface StatusPageProps {
  /** The page's title and heading. */
  title: string;
  /** A status code shown large above the title, e.g. 404. */
  code?: number;
  /** `alert` for a failure that happened while the user was on the page. */
  role?: 'alert';
  /** What follows the heading: the message, help and actions. */
  children: ReactNode;
}

/** A full-page card that says what went wrong (not found, errors); kept out of search engines. */
export function StatusPage({ title, code, role, children }: StatusPageProps) {
  return (
    <section className="status-page">
      <PageMeta title={title} noindex />
      <div className="card status-page__card" role={role}>
        {code !== undefined && (
          <p className="status-page__code" aria-hidden="true">
            {code}
          </p>
        )}
        <h1 className="status-page__title">{title}</h1>
        {children}
      </div>
    </section>
  );
}

/** A 404 status page: its message and the way back home. */
export function NotFoundStatusPage({ title, message }: { title: string; message: ReactNode }) {
  return (
    <StatusPage title={title} code={404}>
      <p className="status-page__message">{message}</p>
      <ReturnHomeLink />
    </StatusPage>
  );
}

export function ReturnHomeLink() {
  return (
    <Link to="/" className="button button--primary">
      Return to Home
    </Link>
  );
}
