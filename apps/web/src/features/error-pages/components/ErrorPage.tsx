import { Link, useSearchParams } from 'react-router';
import { PageMeta } from '../../../components/ui/PageMeta';
import { ERROR_PAGE_CONTENT, errorPageType } from './errorPageContent';

/** `/error?type=spotify|api|network&message=…`: a message parameter replaces the type's text. */
export function ErrorPage() {
  const [searchParams] = useSearchParams();
  const content = ERROR_PAGE_CONTENT[errorPageType(searchParams.get('type'))];
  const message = searchParams.get('message') || content.message;

  return (
    <section className="status-page">
      <PageMeta title={content.title} noindex />
      <div className="card status-page__card">
        <h1 className="status-page__title">{content.title}</h1>
        <p className="status-page__message">{message}</p>
        <h2 className="status-page__help-title">What you can do</h2>
        <ul className="status-page__help">
          {content.help.map((tip) => (
            <li key={tip}>{tip}</li>
          ))}
        </ul>
        <Link to="/" className="button button--primary">
          Return to Home
        </Link>
      </div>
    </section>
  );
}
