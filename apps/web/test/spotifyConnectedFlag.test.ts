import { describe, expect, it, vi } from 'vitest';
import { removeSpotifyConnectedFlag } from '../src/app/spotifyConnectedFlag';

describe('spotify=connected flag', () => {
  it('is removed from the address, keeping the other parameters and the hash', () => {
    window.history.replaceState(
      { from: 'oauth' },
      '',
      '/likes/me?q=bowie&spotify=connected&x=1#top',
    );

    removeSpotifyConnectedFlag();

    expect(window.location.pathname).toBe('/likes/me');
    expect(window.location.search).toBe('?q=bowie&x=1');
    expect(window.location.hash).toBe('#top');
    expect(window.history.state).toEqual({ from: 'oauth' });
  });

  it('leaves a bare path clean', () => {
    window.history.replaceState(null, '', '/?spotify=connected');
    removeSpotifyConnectedFlag();
    expect(`${window.location.pathname}${window.location.search}`).toBe('/');
  });

  it('does not touch the address without the flag', () => {
    window.history.replaceState(null, '', '/recent?spotify=other');
    const replaceState = vi.spyOn(window.history, 'replaceState');

    removeSpotifyConnectedFlag();

    expect(replaceState).not.toHaveBeenCalled();
    expect(window.location.search).toBe('?spotify=other');
  });
});
