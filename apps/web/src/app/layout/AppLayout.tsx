import { Outlet, useRoutes, type Location, type RouteObject } from 'react-router';
import { useSession } from '../../features/account/hooks/useSession';
import { MiniPlayer } from '../../features/playback/components/MiniPlayer';
import { PlaybackProvider } from '../../features/playback/components/PlaybackProvider';
import { RouteErrorBoundary } from '../RouteErrorBoundary';
import { useSearchBackground } from '../searchNavigation';
import { useSearchShortcut } from './useSearchShortcut';
import { Footer } from './Footer';
import { Header } from './Header';
import { LiveCacheSync } from './LiveCacheSync';
import { MainTabs } from './MainTabs';
import './layout.css';

/** The page under the search modal, matched from the layout (whose base is `/`). */
function BackgroundPage({ pages, location }: { pages: RouteObject[]; location: Location }) {
  return useRoutes(pages, location);
}

/**
 * Header, page, footer and, for logged-in users, the mini player and (on narrow screens) the
 * bottom tab bar. Logged-in pages can start tracks through the player around them. On
 * `/search/{query}` the page the search was opened from stays shown under the modal.
 */
export function AppLayout({ pages }: { pages: RouteObject[] }) {
  const session = useSession();
  const authenticated = session.status === 'authenticated';
  const background = useSearchBackground();
  useSearchShortcut();

  return (
    <PlaybackProvider user={authenticated ? session.user : null}>
      <div className={authenticated ? 'app app--with-tab-bar' : 'app'}>
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        {session.status === 'authenticated' && <LiveCacheSync viewerId={session.user.id} />}
        <Header session={session} />
        <main id="main" className="app-main">
          <RouteErrorBoundary>
            {background && <BackgroundPage pages={pages} location={background} />}
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
