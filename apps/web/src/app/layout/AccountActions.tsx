import type { CurrentUser } from '@earshot/contract/user';
import { UserMenu } from '../../features/account/components/UserMenu';
import { prefetchOnIntent } from '../prefetch';
import { NotificationBell } from './NotificationBell';

/** The signed-in user's bell and menu in the header. */
export function AccountActions({ user }: { user: CurrentUser }) {
  return (
    <>
      <NotificationBell isAdmin={user.is_admin} />
      <UserMenu user={user} linkProps={prefetchOnIntent} />
    </>
  );
}
