import { useSearchParams } from 'react-router';
import { ReturnHomeLink, StatusPage } from '../../../components/ui/StatusPage';
import { ERROR_PAGE_CONTENT, errorPageType } from './errorPageContent';

/** `/error?type=spotify|api|network&message=…`: a message parameter replaces the type's text. */
export function ErrorPage() {
  const [searchParams] = useSearchParams();
  const content = ERROR_PAGE_CONTENT[errorPageType(searchParams.get('type'))];
  const message = searchParams.get('message') || content.message;

  return (
    <StatusPage title={content.title}>
      <p className="status-page__message">{message}</p>
      <h2 className="status-page__help-title">What you can do</h2>
      <ul className="status-page__help">
        {content.help.map((tip) => (
          <li key={tip}>{tip}</li>
        ))}
      </ul>
      <ReturnHomeLink />
    </StatusPage>
  );
}
