import { NotFoundStatusPage } from '../../../components/ui/StatusPage';

/** Any path without a page. */
export function NotFoundPage() {
  return (
    <NotFoundStatusPage
      title="Page Not Found"
      message="There is nothing at this address. It may have moved, or the link may be mistyped."
    />
  );
}
