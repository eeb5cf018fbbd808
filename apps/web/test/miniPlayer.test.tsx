import type { PlaybackState } from '@earshot/contract/playback';
import type { TrackSummary } from '@earshot/contract/track';
import type { CurrentUser } from '@earshot/contract/user';
import { QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PlayButton } from '../src/components/ui/PlayButton';
import { MiniPlayer } from '../src/features/playback/components/MiniPlayer';
import { PlaybackProvider } from '../src/features/playback/components/PlaybackProvider';
import { createQueryClient } from '../src/lib/queryClient';
import { NotificationsProvider } from '../src/lib/notifications';
import { deferred, requestsTo } from './activityFixtures';
import { ada, fakeApi, json, noContent, type FakeAnswer } from './fakeApi';

const SECOND = 1000;

function track(id: string, title: string, durationMs = 200 * SECOND): TrackSummary {
  return {
    id,
    uid: `uid-${id}`,
    title,
    artists: [{ id: 'artist-abba', name: 'ABBA' }],
    album: { id: 'album-arrival', name: 'Arrival', picture: null, release_date: '1976' },
    duration: durationMs,
    popularity: 80,
  };
}

const dancing = track('track-dq', 'Dancing Queen');
const waterloo = track('track-w', 'Waterloo');

function playing(item: TrackSummary, progressMs: number, isPlaying = true): PlaybackState {
  return {
    state: {
      is_playing: isPlaying,
      progress_ms: progressMs,
      item: { liked: false, track: item },
      device: { name: 'Ada’s phone', type: 'Smartphone' },
    },
  };
}

/** A fake API whose playback answer the test changes as it goes. */
function playerApi(initial: PlaybackState, answers: Record<string, FakeAnswer> = {}) {
  let current = initial;
  const fetchMock = fakeApi({
    'GET /api/spotify/playback': () => json(200, current)(),
    ...answers,
  });
  return {
    fetchMock,
    set(next: PlaybackState) {
      current = next;
    },
  };
}

function renderPlayer(user: CurrentUser = ada, extra: React.ReactNode = null) {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <NotificationsProvider>
        <MemoryRouter>
          <PlaybackProvider user={user}>
            {extra}
            <MiniPlayer />
          </PlaybackProvider>
        </MemoryRouter>
      </NotificationsProvider>
    </QueryClientProvider>,
  );
}

/** Lets timers run for `ms`, with React's updates applied. */
async function advance(ms: number) {
  await act(() => vi.advanceTimersByTimeAsync(ms));
}

function progress() {
  return Number(screen.getByRole('progressbar').getAttribute('aria-valuenow'));
}

function player() {
  return screen.getByRole('region', { name: 'Mini player' });
}

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('the mini player', () => {
  it('ticks progress by 500 ms while playing, capped at the duration', async () => {
    playerApi(playing(dancing, 10 * SECOND));
    renderPlayer();
    await advance(0);
    expect(within(player()).getByText('Dancing Queen')).toBeInTheDocument();
    expect(progress()).toBe(10);

    await advance(499);
    expect(progress()).toBe(10);
    await advance(1);
    // 10.5 s
    await advance(500);
    expect(progress()).toBe(11);
    await advance(3 * SECOND);
    expect(progress()).toBe(14);
  });

  it('never ticks past the duration', async () => {
    playerApi(playing(dancing, 199 * SECOND), {
      'GET /api/spotify/next': json(200, { next: null }),
    });
    renderPlayer();
    await advance(0);
    await advance(3 * SECOND);
    expect(progress()).toBe(200);
  });

  it('does not tick while paused', async () => {
    playerApi(playing(dancing, 10 * SECOND, false));
    renderPlayer();
    await advance(0);
    await advance(3 * SECOND);
    expect(progress()).toBe(10);
  });

  it('refetches the playback every 5 s while playing and every 20 s otherwise', async () => {
    const api = playerApi(playing(dancing, 10 * SECOND));
    renderPlayer();
    await advance(0);
    const calls = () => requestsTo(api.fetchMock, '/api/spotify/playback').length;
    expect(calls()).toBe(1);
    await advance(5 * SECOND);
    expect(calls()).toBe(2);
    await advance(5 * SECOND);
    expect(calls()).toBe(3);

    api.set(playing(dancing, 20 * SECOND, false));
    await advance(5 * SECOND);
    expect(calls()).toBe(4);
    await advance(19 * SECOND);
    expect(calls()).toBe(4);
    await advance(1 * SECOND);
    expect(calls()).toBe(5);
  });

  it('keeps play/pause as asked for 10 s, and flashes the button for 200 ms', async () => {
    // Spotify is slow to show the pause: it still says playing.
    const api = playerApi(playing(dancing, 10 * SECOND), {
      'POST /api/spotify/pause': noContent(),
    });
    renderPlayer();
    await advance(0);

    fireEvent.click(screen.getByRole('button', { name: 'Pause' }));
    const toggle = screen.getByRole('button', { name: 'Play' });
    expect(toggle).toHaveClass('mini-player__button--flash');
    await advance(200);
    expect(toggle).not.toHaveClass('mini-player__button--flash');
    expect(requestsTo(api.fetchMock, '/api/spotify/pause')).toHaveLength(1);

    await advance(9700);
    expect(screen.getByRole('button', { name: 'Play' })).toBeInTheDocument();
    await advance(100);
    expect(screen.getByRole('button', { name: 'Pause' })).toBeInTheDocument();
  });

  it('shows "!" with "Failed to toggle", "Failed to skip" and "Failed to like"', async () => {
    playerApi(playing(dancing, 10 * SECOND), {
      'POST /api/spotify/pause': json(502, { detail: 'Spotify is down' }),
      'GET /api/spotify/next': json(424, { detail: 'Spotify is not answering' }),
      'POST /api/like': json(502, { detail: 'Spotify is down' }),
    });
    renderPlayer();
    await advance(0);

    fireEvent.click(screen.getByRole('button', { name: 'Pause' }));
    await advance(0);
    expect(screen.getByRole('alert')).toHaveTextContent('!Failed to toggle');
    // The override is dropped: Spotify's state shows again.
    expect(screen.getByRole('button', { name: 'Pause' })).toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    await advance(0);
    expect(screen.getByRole('alert')).toHaveTextContent('Failed to skip');

    fireEvent.click(screen.getByRole('button', { name: 'Like Dancing Queen' }));
    await advance(0);
    expect(screen.getByRole('alert')).toHaveTextContent('Failed to like');
    expect(screen.getByRole('button', { name: 'Like Dancing Queen' })).toHaveAttribute(
      'aria-pressed',
      'false',
    );
  });

  it('shows no play/pause or next to a user who is not subscribed', async () => {
    playerApi(playing(dancing, 10 * SECOND));
    renderPlayer({ ...ada, subscribed: false });
    await advance(0);
    expect(within(player()).getByText('Dancing Queen')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Pause' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Next' })).not.toBeInTheDocument();
  });

  it('asks once for the next track when playback stopped at the end, and plays it', async () => {
    const api = playerApi(playing(dancing, 199 * SECOND), {
      'GET /api/spotify/next': json(200, { next: { track_id: 'track-w' } }),
      'POST /api/spotify/play': json(200, { track_id: 'track-w', confirmed: true }),
    });
    renderPlayer();
    await advance(0);
    // Spotify stops at the end of the track and goes back to its start.
    api.set(playing(dancing, 0, false));
    await advance(1 * SECOND);
    await advance(0);
    expect(requestsTo(api.fetchMock, '/api/spotify/next')).toHaveLength(1);
    const plays = api.fetchMock.mock.calls.filter(([url]) => url === '/api/spotify/play');
    expect(plays).toHaveLength(1);
    expect(JSON.parse(String(plays[0]?.[1]?.body))).toMatchObject({ track_id: 'track-w' });

    // Spotify stays stopped on the same track: no second ask.
    await advance(60 * SECOND);
    expect(requestsTo(api.fetchMock, '/api/spotify/next')).toHaveLength(1);
  });

  it('does not ask for the next track when paused mid-track', async () => {
    const api = playerApi(playing(dancing, 100 * SECOND, false), {
      'GET /api/spotify/next': json(200, { next: { track_id: 'track-w' } }),
    });
    renderPlayer();
    await advance(60 * SECOND);
    expect(requestsTo(api.fetchMock, '/api/spotify/next')).toHaveLength(0);
  });

  it('shows a played track at once with "Loading..." for up to 10 s, and keeps it 30 s', async () => {
    const api = playerApi(
      { state: null },
      { 'POST /api/spotify/play': json(200, { track_id: 'track-w', confirmed: false }) },
    );
    renderPlayer(
      ada,
      <PlayButton track={waterloo} context={{ source: 'recent', user: null, context_uri: null }} />,
    );
    await advance(0);
    expect(within(player()).getByText('Nothing playing')).toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: 'Play Waterloo' }));
    await advance(0);
    expect(within(player()).getByText('Waterloo')).toBeInTheDocument();
    expect(within(player()).getByText('Loading...')).toBeInTheDocument();
    expect(requestsTo(api.fetchMock, '/api/spotify/play')).toHaveLength(1);

    await advance(10 * SECOND);
    expect(within(player()).queryByText('Loading...')).not.toBeInTheDocument();
    expect(within(player()).getByText('Waterloo')).toBeInTheDocument();

    await advance(20 * SECOND);
    expect(within(player()).queryByText('Waterloo')).not.toBeInTheDocument();
    expect(within(player()).getByText('Nothing playing')).toBeInTheDocument();
  });

  it('says nothing and offers no control until the player has answered', async () => {
    const playback = deferred();
    fakeApi({ 'GET /api/spotify/playback': playback.answer });
    renderPlayer();
    await advance(0);
    expect(within(player()).queryByText('Nothing playing')).not.toBeInTheDocument();
    expect(within(player()).queryByRole('button')).not.toBeInTheDocument();

    playback.resolve(json(200, { state: null }));
    await advance(0);
    expect(within(player()).getByText('Nothing playing')).toBeInTheDocument();
    expect(within(player()).getByRole('button', { name: 'Devices' })).toBeInTheDocument();
  });

  it('stays there while nothing plays, with the device picker and no controls', async () => {
    playerApi({ state: null });
    renderPlayer();
    await advance(0);
    expect(within(player()).getByText('Nothing playing')).toBeInTheDocument();
    expect(within(player()).getByRole('button', { name: 'Devices' })).toBeInTheDocument();
    expect(within(player()).queryByRole('button', { name: 'Pause' })).not.toBeInTheDocument();
    expect(within(player()).queryByRole('button', { name: 'Play' })).not.toBeInTheDocument();
    expect(within(player()).queryByRole('button', { name: /^Like / })).not.toBeInTheDocument();
  });

  it('gives way to the real state as soon as it shows the played track', async () => {
    const api = playerApi(
      { state: null },
      { 'POST /api/spotify/play': json(200, { track_id: 'track-w', confirmed: true }) },
    );
    renderPlayer(
      ada,
      <PlayButton track={waterloo} context={{ source: 'recent', user: null, context_uri: null }} />,
    );
    await advance(0);
    api.set(playing(waterloo, 2 * SECOND));
    fireEvent.click(screen.getByRole('button', { name: 'Play Waterloo' }));
    await advance(600);
    expect(within(player()).queryByText('Loading...')).not.toBeInTheDocument();
    expect(progress()).toBeGreaterThanOrEqual(2);
  });
});
