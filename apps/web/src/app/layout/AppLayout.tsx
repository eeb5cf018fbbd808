import { lazy, Suspense, useEffect } from 'react';
import { Outlet, useRoutes, type Location, type RouteObject } from 'react-router';
import { LoadingState } from '../../components/ui/LoadingState';
import { useSession } from '../../features/account/hooks/useSession';
import { forgetOfflineCopies, reportSavedQueriesError } from '../../lib/savedQueries';
import { AfterFirstPaint } from '../../lib/AfterFirstPaint';
import { markPromoted } from '../../lib/visitor';
import { PlaybackProvider } from '../../features/playback/components/PlaybackProvider';
import { RouteErrorBoundary } from '../RouteErrorBoundary';
import { useSearchBackground } from '../searchNavigation';
import { useSearchShortcut } from './useSearchShortcut';
import { Footer } from './Footer';
import { Header } from './Header';
import { MainTabs } from './MainTabs';
import { OfflineBanner } from './OfflineBanner';
import './layout.css';

// Logged-in users' parts of the layout stay out of the visitors' entry chunk (decision 0023).
const MiniPlayer = lazy(() =>
  import('../../features/playback/components/MiniPlayer').then((module) => ({
    default: module.MiniPlayer,
  })),
);
const LiveCacheSync = lazy(() =>
  import('./LiveCacheSync').then((module) => ({ default: module.LiveCacheSync })),
);
const OfflinePagesKeeper = lazy(() =>
  import('../offlinePages').then((module) => ({ default: module.OfflinePagesKeeper })),
);

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
  const visitor = session.status === 'visitor';
  useEffect(() => {
    // The session is over (logged out elsewhere, expired): no saved page of it may stay.
    if (visitor) forgetOfflineCopies().catch(reportSavedQueriesError);
  }, [visitor]);
  useEffect(() => {
    // The anonymous visitor became a user (docs/product.md §3): kept through later logouts.
    if (authenticated) markPromoted();
  }, [authenticated]);

  return (
    <PlaybackProvider user={authenticated ? session.user : null}>
      <div className={authenticated ? 'app app--with-tab-bar' : 'app'}>
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        {session.status === 'authenticated' && (
          <Suspense>
            <LiveCacheSync viewerId={session.user.id} />
            <OfflinePagesKeeper />
          </Suspense>
        )}
        <Header session={session} />
        <OfflineBanner />
        <main id="main" className="app-main">
          <RouteErrorBoundary>
            {/* A page's chunk is loading: the spinner pages show while their data loads. */}
            <Suspense fallback={<LoadingState />}>
              {background && <BackgroundPage pages={pages} location={background} />}
              <Outlet />
            </Suspense>
          </RouteErrorBoundary>
        </main>
        <Footer />
        {authenticated && <div className="mini-player-spacer" aria-hidden="true" />}
        {authenticated && (
          // The player starts once the page has loaded (decision 0034); the live stream does not.
          <AfterFirstPaint>
            <Suspense>
              <MiniPlayer />
            </Suspense>
          </AfterFirstPaint>
        )}
        {authenticated && <MainTabs placement="bottom" />}
      </div>
    </PlaybackProvider>
  );
}
