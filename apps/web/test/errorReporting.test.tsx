import { screen } from '@testing-library/react';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppRoot } from '../src/app/AppRoot';
import { reportServiceWorkerError } from '../src/app/serviceWorker';
import { configureErrorReporting, reportError } from '../src/lib/errorReporting';
import { PROMOTED_KEY, VISITOR_ID_KEY } from '../src/lib/visitor';
import { ada, fakeApi, json } from './fakeApi';
import { renderApp } from './renderApp';

const sentry = vi.hoisted(() => ({
  init: vi.fn(),
  setUser: vi.fn(),
  captureException: vi.fn(),
}));
vi.mock('@sentry/browser', () => sentry);

const DSN = 'https://publickey@o1.ingest.sentry.io/42';

function Fragile(): never {
  throw new Error('render failure');
}

describe('error reporting with a DSN from the server', () => {
  const early = new Error('raised before the status arrived');
  // Calls made while setting up (mocks are cleared before each test).
  let setUp: { init: unknown[][]; setUser: unknown[][]; captureException: unknown[][] };

  beforeAll(async () => {
    localStorage.setItem(VISITOR_ID_KEY, 'visitor-1');
    // Waits for the status: reported once Sentry is set up.
    reportError(early, { source: 'service-worker' });
    await configureErrorReporting({ version: '1.4.0', sentry_dsn: DSN });
    await vi.waitFor(() => expect(sentry.captureException).toHaveBeenCalled());
    setUp = {
      init: sentry.init.mock.calls,
      setUser: sentry.setUser.mock.calls,
      captureException: sentry.captureException.mock.calls,
    };
  });

  beforeEach(() => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
  });

  it('sets Sentry up with the DSN, the release and the anonymous visitor id', () => {
    expect(setUp.init).toEqual([[expect.objectContaining({ dsn: DSN, release: '1.4.0' })]]);
    expect(setUp.setUser).toEqual([[{ id: 'visitor-1' }]]);
    expect(setUp.captureException).toEqual([
      [early, { tags: { source: 'service-worker', route: '/' } }],
    ]);
  });

  it('tags every event with its route and whether the visitor was promoted', () => {
    const [[options]] = setUp.init as [[{ beforeSend: (event: object) => object }]];
    window.history.replaceState(null, '', '/likes');
    localStorage.setItem(PROMOTED_KEY, 'true');
    expect(options.beforeSend({ message: 'uncaught' })).toEqual({
      message: 'uncaught',
      tags: { route: '/likes', promoted: 'true' },
    });
  });

  it('reports a rendering error with its route and component stack', async () => {
    fakeApi({ 'GET /api/user/me': json(200, ada) });
    window.history.replaceState(null, '', '/fragile');
    renderApp('/fragile', [
      {
        element: <AppRoot pages={[]} />,
        children: [{ path: '/fragile', element: <Fragile /> }],
      },
    ]);
    await screen.findByRole('heading', { name: 'Something went wrong' });

    await vi.waitFor(() =>
      expect(sentry.captureException).toHaveBeenCalledWith(
        expect.objectContaining({ message: 'render failure' }),
        {
          tags: { source: 'render', route: '/fragile' },
          contexts: { react: { componentStack: expect.stringContaining('Fragile') } },
        },
      ),
    );
  });

  it('reports service-worker errors', async () => {
    const failure = new Error('update failed');
    reportServiceWorkerError(failure);
    await vi.waitFor(() =>
      expect(sentry.captureException).toHaveBeenCalledWith(failure, {
        tags: { source: 'service-worker', route: '/' },
      }),
    );
  });
});
