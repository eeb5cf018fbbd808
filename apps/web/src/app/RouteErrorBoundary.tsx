import { Component, type ErrorInfo, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import { StatusPage } from '../components/ui/StatusPage';
import { reloadPage } from '../lib/browserLocation';
import { reportError } from '../lib/errorReporting';
import { useNotificationStack } from '../lib/notifications';

export const UNEXPECTED_ERROR_NOTIFICATION = 'An unexpected error occurred. Please try again.';

interface BoundaryProps {
  /** A new key (the path) clears the error: the boundary resets on route change. */
  resetKey: string;
  onError: () => void;
  children: ReactNode;
}

interface BoundaryState {
  hasError: boolean;
  resetKey: string;
}

class ErrorBoundary extends Component<BoundaryProps, BoundaryState> {
  override state: BoundaryState = { hasError: false, resetKey: this.props.resetKey };

  static getDerivedStateFromError(): Partial<BoundaryState> {
    return { hasError: true };
  }

  static getDerivedStateFromProps(
    props: BoundaryProps,
    state: BoundaryState,
  ): Partial<BoundaryState> | null {
    return props.resetKey === state.resetKey ? null : { hasError: false, resetKey: props.resetKey };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    this.props.onError();
    reportError(error, { source: 'render', componentStack: info.componentStack ?? undefined });
  }

  override render() {
    if (!this.state.hasError) return this.props.children;
    return <ErrorFallback onRetry={() => this.setState({ hasError: false })} />;
  }
}

function ErrorFallback({ onRetry }: { onRetry: () => void }) {
  return (
    <StatusPage title="Something went wrong" role="alert">
      <p className="status-page__message">We hit an unexpected error while rendering this page.</p>
      <div className="status-page__actions">
        <button type="button" className="button button--primary" onClick={onRetry}>
          Try again
        </button>
        <button type="button" className="button button--secondary" onClick={reloadPage}>
          Reload page
        </button>
      </div>
    </StatusPage>
  );
}

/**
 * Catches rendering errors below it (docs/product.md §2): shows the fallback with "Try again" and
 * "Reload page", raises an error notification for 6 s, reports the error (when error reporting is
 * configured) and resets when the route changes.
 */
export function RouteErrorBoundary({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  const notifications = useNotificationStack();
  return (
    <ErrorBoundary
      resetKey={pathname}
      onError={() => notifications.push(UNEXPECTED_ERROR_NOTIFICATION, { kind: 'error' })}
    >
      {children}
    </ErrorBoundary>
  );
}
