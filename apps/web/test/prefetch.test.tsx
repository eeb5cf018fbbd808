import { fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { MainTabs } from '../src/app/layout/MainTabs';
import { pageRoutes, searchRoutes, type PageHandle } from '../src/app/pages';
import { prefetchPage } from '../src/app/prefetch';

/** Watches the chunk download of the page route at `path` (decision 0023). */
function watchPreload(path: string) {
  const route = [...searchRoutes, ...pageRoutes].find((candidate) => candidate.path === path);
  const handle = route?.handle as PageHandle | undefined;
  if (!handle) throw new Error(`no page route ${path}`);
  return vi.spyOn(handle, 'preload').mockResolvedValue(undefined);
}

describe('prefetch on intent', () => {
  it('fetches the chunk of the page a path leads to, whatever its query', () => {
    const profile = watchPreload('user/:handle');
    const settings = watchPreload('settings');
    prefetchPage('/user/grace?tab=likes');
    expect(profile).toHaveBeenCalledOnce();
    expect(settings).not.toHaveBeenCalled();
  });

  it('fetches the search modal for its path', () => {
    const search = watchPreload('search/:query');
    prefetchPage('/search/bj');
    expect(search).toHaveBeenCalledOnce();
  });

  it('starts when a tab is hovered, focused or touched, before it is followed', () => {
    const likes = watchPreload('likes');
    const discover = watchPreload('discover');
    render(
      <MemoryRouter>
        <MainTabs placement="header" />
      </MemoryRouter>,
    );
    fireEvent.mouseEnter(screen.getByRole('link', { name: 'Likes' }));
    expect(likes).toHaveBeenCalledOnce();
    fireEvent.focus(screen.getByRole('link', { name: 'Discover' }));
    fireEvent.touchStart(screen.getByRole('link', { name: 'Discover' }));
    expect(discover).toHaveBeenCalledTimes(2);
  });
});
