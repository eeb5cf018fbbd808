import { Navigate, useLocation } from 'react-router';

/** A visitor on a page for signed-in users: off to log in, and back here afterwards. */
export function LogInFirst() {
  const { pathname, search } = useLocation();
  const next = new URLSearchParams({ next: `${pathname}${search}` });
  return <Navigate to={`/login?${next.toString()}`} replace />;
}
