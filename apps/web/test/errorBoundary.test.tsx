import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { AppRoot } from '../src/app/AppRoot';
import { reloadPage } from '../src/lib/browserLocation';
import { NOTIFICATION_DURATION_MS } from '../src/lib/constants';
import { ada, fakeApi, json } from './fakeApi';
import { renderApp } from './renderApp';

vi.mock('../src/lib/browserLocation', () => ({ loadPage: vi.fn(), reloadPage: vi.fn() }));

const crash = { enabled: true };

function Fragile() {
  if (crash.enabled) throw new Error('render failure');
  return <p>Fragile page rendered</p>;
}

const routes = [
  {
    element: <AppRoot pages={[]} />,
    children: [
      { path: '/fragile', element: <Fragile /> },
      { path: '/sturdy', element: <p>Sturdy page rendered</p> },
    ],
  },
];

describe('error boundary', () => {
  beforeEach(() => {
    crash.enabled = true;
    fakeApi({ 'GET /api/user/me': json(200, ada) });
    // React reports caught render errors on the console; they are expected here.
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
  });

  it('shows its texts and buttons inside the shell and raises a notification', async () => {
    renderApp('/fragile', routes);

    expect(
      await screen.findByRole('heading', { name: 'Something went wrong' }),
    ).toBeInTheDocument();
    expect(
      screen.getByText('We hit an unexpected error while rendering this page.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Reload page' })).toBeInTheDocument();
    expect(screen.getAllByText('An unexpected error occurred. Please try again.')).toHaveLength(1);
    // The header survives a page error.
    expect(
      await screen.findByRole('button', { name: 'Account menu for Ada Lovelace' }),
    ).toBeInTheDocument();
  });

  it('renders the page again on "Try again"', async () => {
    renderApp('/fragile', routes);
    await screen.findByRole('heading', { name: 'Something went wrong' });

    crash.enabled = false;
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));

    expect(screen.getByText('Fragile page rendered')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Something went wrong' })).not.toBeInTheDocument();
  });

  it('reloads the document on "Reload page"', async () => {
    renderApp('/fragile', routes);
    await userEvent.click(await screen.findByRole('button', { name: 'Reload page' }));
    expect(reloadPage).toHaveBeenCalledOnce();
  });

  it('resets on route change', async () => {
    const { router } = renderApp('/fragile', routes);
    await screen.findByRole('heading', { name: 'Something went wrong' });

    await act(() => router.navigate('/sturdy'));

    expect(screen.getByText('Sturdy page rendered')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Something went wrong' })).not.toBeInTheDocument();
  });

  it('keeps the notification for 6 s', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      renderApp('/fragile', routes);
      const notification = await screen.findByText(
        'An unexpected error occurred. Please try again.',
      );

      await act(() => vi.advanceTimersByTimeAsync(NOTIFICATION_DURATION_MS - 100));
      expect(notification).toBeInTheDocument();

      await act(() => vi.advanceTimersByTimeAsync(1_000));
      expect(
        screen.queryByText('An unexpected error occurred. Please try again.'),
      ).not.toBeInTheDocument();
    } finally {
      vi.useRealTimers();
    }
  });
});
