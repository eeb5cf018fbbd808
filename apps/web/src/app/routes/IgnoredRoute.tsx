import { IgnoredPage } from '../../features/ignore/components/IgnoredPage';
import { SignedInOnly } from './SignedInOnly';

/** `/ignored`, for logged-in users: visitors log in first and come back. */
export function IgnoredRoute() {
  return (
    <SignedInOnly failure="Failed to load your ignored items.">
      {(user) => <IgnoredPage isAdmin={user.is_admin} />}
    </SignedInOnly>
  );
}
