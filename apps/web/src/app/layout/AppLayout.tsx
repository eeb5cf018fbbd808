import { Outlet } from 'react-router';
import { useSession } from '../../features/account/hooks/useSession';
import { RouteErrorBoundary } from '../RouteErrorBoundary';
import { Footer } from './Footer';
import { Header } from './Header';
import { LiveCacheSync } from './LiveCacheSync';
import { MainTabs } from './MainTabs';
import './layout.css';

/** Header, page, footer and, for logged-in users on narrow screens, the bottom tab bar. */
export function AppLayout() {
  const session = useSession();
  const authenticated = session.status === 'authenticated';

  return (
    <div className={authenticated ? 'app app--with-tab-bar' : 'app'}>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      {session.status === 'authenticated' && <LiveCacheSync viewerId={session.user.id} />}
      <Header session={session} />
      <main id="main" className="app-main">
        <RouteErrorBoundary>
          <Outlet />
        </RouteErrorBoundary>
      </main>
      <Footer />
      {authenticated && <MainTabs placement="bottom" />}
    </div>
  );
}
