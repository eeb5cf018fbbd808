import type { CurrentUser } from '@earshot/contract/user';
import { lazy, Suspense } from 'react';
import { Link, useLocation } from 'react-router';
import { Avatar } from '../../components/ui/Avatar';
import { BellIcon, SearchIcon } from '../../components/ui/icons';
import { Logo } from '../../components/ui/Logo';
import { holdsSession } from '../../features/account/api/currentUser';
import type { Session } from '../../features/account/hooks/useSession';
import { AfterFirstPaint } from '../../lib/AfterFirstPaint';
import { prefetchOnIntent } from '../prefetch';
import { useOpenSearch } from '../searchNavigation';
import { MainTabs } from './MainTabs';

// The bell and the user menu (popover, dropdown) load once a user is signed in (decision 0023).
const AccountActions = lazy(() =>
  import('./AccountActions').then((module) => ({ default: module.AccountActions })),
);

/**
 * The bell and the avatar as they look closed, while their chunk loads: nothing shifts. Before
 * the session is known (`user` undefined) the avatar is an empty circle.
 */
function AccountActionsPlaceholder({ user }: { user?: CurrentUser }) {
  return (
    <>
      <span className="round-button icon-button" aria-hidden="true">
        <BellIcon />
      </span>
      <span className="user-menu__trigger" aria-hidden="true">
        {user ? (
          <Avatar name={user.name || user.username} picture={user.picture} />
        ) : (
          <span className="avatar avatar--initial" style={{ width: 32, height: 32 }} />
        )}
      </span>
    </>
  );
}

export function Header({ session }: { session: Session }) {
  const { pathname } = useLocation();
  const openSearch = useOpenSearch();

  return (
    <header className="app-header">
      <div className="app-header__inner">
        <Link
          to="/"
          className="app-header__logo"
          aria-label="Earshot home"
          {...prefetchOnIntent('/')}
        >
          <Logo />
        </Link>
        {session.status === 'authenticated' && <MainTabs placement="header" />}
        <div className="app-header__actions">
          {/* Public pages are searchable by visitors too. */}
          <button
            type="button"
            className="round-button icon-button"
            aria-label="Search"
            aria-keyshortcuts="/"
            title="Search (/)"
            onClick={openSearch}
            {...prefetchOnIntent('/search')}
          >
            <SearchIcon />
          </button>
          {session.status === 'authenticated' ? (
            // The bell and the menu load once the page has (decision 0034); their look is there.
            <Suspense fallback={<AccountActionsPlaceholder user={session.user} />}>
              <AfterFirstPaint fallback={<AccountActionsPlaceholder user={session.user} />}>
                <AccountActions user={session.user} />
              </AfterFirstPaint>
            </Suspense>
          ) : session.status === 'loading' && holdsSession() ? (
            // Most likely signed in (the server's cookie says so): the actions' room is kept.
            <AccountActionsPlaceholder />
          ) : (
            session.status === 'visitor' &&
            pathname !== '/login' && (
              <Link
                to="/login"
                className="button button--secondary"
                {...prefetchOnIntent('/login')}
              >
                Log in
              </Link>
            )
          )}
        </div>
      </div>
    </header>
  );
}
