import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { MAIN_TABS } from '../src/app/layout/mainTabs';
import { ada, fakeApi, json, loggedOut } from './fakeApi';
import { renderApp } from './renderApp';

function activeTabs(pathname: string): string[] {
  return MAIN_TABS.filter((tab) => tab.isActive(pathname)).map((tab) => tab.label);
}

describe('tab highlighting rules', () => {
  it.each([
    ['/', ['Recents']],
    ['/recent', ['Recents']],
    ['/recent/friends', ['Recents']],
    ['/recent/me', ['Recents']],
    ['/recent/user/grace', ['Recents']],
    ['/likes', ['Likes']],
    ['/likes/friends', ['Likes']],
    ['/likes/user/grace', ['Likes']],
    ['/discover', ['Discover']],
    ['/friends', []],
    ['/settings', []],
    ['/artist/4Z8W4fKeB5YxbusRsdQVPb', []],
  ])('%s highlights %j', (pathname, expected) => {
    expect(activeTabs(pathname)).toEqual(expected);
  });
});

async function renderLoggedIn(path: string) {
  fakeApi({
    'GET /api/user/me': json(200, ada),
    'GET /api/spotify/stats': json(200, { active: true }),
  });
  const view = renderApp(path);
  await screen.findByRole('button', { name: 'Account menu for Ada Lovelace' });
  return view;
}

function tabIn(navName: string, label: string) {
  return within(screen.getByRole('navigation', { name: navName })).getByRole('link', {
    name: label,
  });
}

describe('main tabs in the shell', () => {
  it.each([
    ['/', 'Recents'],
    ['/recent/friends', 'Recents'],
    ['/likes/me', 'Likes'],
    ['/discover', 'Discover'],
  ])(
    'on %s marks %s as the current page in the header and the bottom bar',
    async (path, active) => {
      await renderLoggedIn(path);
      for (const nav of ['Main', 'Main (bottom bar)']) {
        for (const label of ['Recents', 'Likes', 'Discover']) {
          const tab = tabIn(nav, label);
          if (label === active) expect(tab).toHaveAttribute('aria-current', 'page');
          else expect(tab).not.toHaveAttribute('aria-current');
        }
      }
    },
  );

  it('links the tabs to their pages and the logo to /', async () => {
    await renderLoggedIn('/recent/friends');
    expect(tabIn('Main', 'Recents')).toHaveAttribute('href', '/');
    expect(tabIn('Main', 'Likes')).toHaveAttribute('href', '/likes');
    expect(tabIn('Main', 'Discover')).toHaveAttribute('href', '/discover');
    expect(screen.getByRole('link', { name: 'Earshot home' })).toHaveAttribute('href', '/');
  });

  it('moves the highlight when a tab is followed', async () => {
    const { router } = await renderLoggedIn('/likes');
    await userEvent.click(tabIn('Main', 'Recents'));
    // Routes with loaders (the pages' data) finish navigating a microtask later.
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    await waitFor(() => expect(tabIn('Main', 'Recents')).toHaveAttribute('aria-current', 'page'));
    expect(tabIn('Main', 'Likes')).not.toHaveAttribute('aria-current');
  });

  it('shows visitors no tabs, bell or user menu, but a way to log in', async () => {
    fakeApi({ 'GET /api/user/me': loggedOut });
    renderApp('/error');
    expect(await screen.findByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/login');
    expect(screen.queryByRole('navigation', { name: 'Main' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Notifications/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Account menu/ })).not.toBeInTheDocument();
  });
});
