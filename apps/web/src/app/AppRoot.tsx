import type { RouteObject } from 'react-router';
import { AppLayout } from './layout/AppLayout';
import { NotificationToasts } from './layout/NotificationToasts';
import { RouteErrorBoundary } from './RouteErrorBoundary';
import { ScrollReset } from './ScrollReset';

/**
 * The element of the root route. A second error boundary around the whole layout catches
 * errors of the header or footer; the notifications stay outside it so they always show.
 */
export function AppRoot({ pages }: { pages: RouteObject[] }) {
  return (
    <>
      <ScrollReset />
      <RouteErrorBoundary>
        <AppLayout pages={pages} />
      </RouteErrorBoundary>
      <NotificationToasts />
    </>
  );
}
