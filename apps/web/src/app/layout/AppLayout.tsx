import { Outlet } from 'react-router';
import { useSession } from '../../features/account/hooks/useSession';
import { MiniPlayer } from '../../features/playback/components/MiniPlayer';
import { PlaybackProvider } from '../../features/playback/components/PlaybackProvider';
import { RouteErrorBoundary } from '../RouteErrorBoundary';
import { Footer } from './Footer';
import { Header } from './Header';
import { MainTabs } from './MainTabs';
import './layout.css';

/**
 * Header, page, footer and, for logged-in users, the mini player and (on narrow screens) the
 * bottom tab bar. Logged-in pages can start tracks through the player around them.
 */
export function AppLayout() {
  const session = useSession();
  const authenticated = session.status === 'authenticated';

  return (
    <PlaybackProvider user={authenticated ? session.user : null}>
      <div className={authenticated ? 'app app--with-tab-bar' : 'app'}>
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        <Header session={session} />
        <main id="main" className="app-main">
          <RouteErrorBoundary>
            <Outlet />
          </RouteErrorBoundary>
        </main>
        <Footer />
        {authenticated && <MiniPlayer />}
        {authenticated && <MainTabs placement="bottom" />}
      </div>
    </PlaybackProvider>
  );
}
