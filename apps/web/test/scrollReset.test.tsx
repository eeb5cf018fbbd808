import { act, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { shouldResetScroll } from '../src/app/scrollReset';
import { fakeApi, loggedOut } from './fakeApi';
import { renderApp } from './renderApp';

describe('scroll reset rule', () => {
  it.each([
    ['/recent', '/likes', true],
    ['/artist/abc', '/artist/abc/likes', false],
    ['/artist/abc/likes', '/artist/abc/albums', false],
    ['/artist/abc/albums', '/artist/abc', false],
    ['/artist/abc', '/artist/xyz', true],
    ['/artist/abc', '/album/abc', true],
    ['/album/abc', '/artist/abc', true],
  ])('%s → %s resets: %s', (from, to, expected) => {
    expect(shouldResetScroll(from, to)).toBe(expected);
  });
});

describe('scroll reset in the shell', () => {
  it('scrolls to the top on route changes except between pages of one artist', async () => {
    fakeApi({ 'GET /api/user/me': loggedOut });
    const { router } = renderApp('/artist/abc');
    await screen.findByRole('heading', { name: 'Artist Not Found' });
    expect(window.scrollTo).not.toHaveBeenCalled();

    await act(() => router.navigate('/artist/abc/likes'));
    expect(window.scrollTo).not.toHaveBeenCalled();

    await act(() => router.navigate('/artist/xyz'));
    expect(window.scrollTo).toHaveBeenCalledTimes(1);

    // The error page's chunk loads first: the old page stays on screen until it is in.
    await act(() => router.navigate('/error'));
    await waitFor(() => expect(window.scrollTo).toHaveBeenCalledTimes(2));
  });
});
