import { Link, useLocation } from 'react-router';
import { SearchIcon } from '../../components/ui/icons';
import { Logo } from '../../components/ui/Logo';
import type { Session } from '../../features/account/hooks/useSession';
import { UserMenu } from '../../features/account/components/UserMenu';
import { useOpenSearch } from '../searchNavigation';
import { MainTabs } from './MainTabs';
import { NotificationBell } from './NotificationBell';

export function Header({ session }: { session: Session }) {
  const { pathname } = useLocation();
  const openSearch = useOpenSearch();

  return (
    <header className="app-header">
      <div className="app-header__inner">
        <Link to="/" className="app-header__logo" aria-label="Earshot home">
          <Logo />
        </Link>
        {session.status === 'authenticated' && <MainTabs placement="header" />}
        <div className="app-header__actions">
          {/* Public pages are searchable by visitors too. */}
          <button
            type="button"
            className="icon-button"
            aria-label="Search"
            aria-keyshortcuts="/"
            title="Search (/)"
            onClick={openSearch}
          >
            <SearchIcon />
          </button>
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
