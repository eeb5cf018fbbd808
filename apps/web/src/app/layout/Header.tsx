import { Link, useLocation } from 'react-router';
import { Logo } from '../../components/ui/Logo';
import type { Session } from '../../features/account/hooks/useSession';
import { UserMenu } from '../../features/account/components/UserMenu';
import { MainTabs } from './MainTabs';
import { NotificationBell } from './NotificationBell';

export function Header({ session }: { session: Session }) {
  const { pathname } = useLocation();

  return (
    <header className="app-header">
      <div className="app-header__inner">
        <Link to="/" className="app-header__logo" aria-label="Earshot home">
          <Logo />
        </Link>
        {session.status === 'authenticated' && <MainTabs placement="header" />}
        <div className="app-header__actions">
          {session.status === 'authenticated' ? (
            <>
              <NotificationBell isAdmin={session.user.is_admin} />
              <UserMenu user={session.user} />
            </>
          ) : (
            session.status === 'visitor' &&
            pathname !== '/login' && (
              <Link to="/login" className="button button--secondary">
                Log in
              </Link>
            )
          )}
        </div>
      </div>
    </header>
  );
}
