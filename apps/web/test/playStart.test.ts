import type { PlayRequest, PlaybackState } from '@earshot/contract/playback';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../src/lib/apiClient';
import {
  NO_DEVICE_MESSAGE,
  startPlayback,
  WEB_PLAYBACK_FAILED_MESSAGE,
  type PlayStartDeps,
} from '../src/features/playback/playStart';

const request: PlayRequest = {
  track_id: '4uLU6hMCjMI75M1A2tKUQC',
  context: { source: 'track', user: null, context_uri: null },
};
const noActiveDevice = () =>
  new ApiError(
    409,
    'No active device: open Spotify on one of your devices, or play in the browser.',
  );
const playingIt: PlaybackState = {
  state: {
    is_playing: true,
    progress_ms: 0,
    device: { name: 'Earshot Web Player', type: 'Computer' },
    item: {
      liked: false,
      track: {
        id: request.track_id,
        uid: 'uid',
        title: 'Song',
        artists: [],
        album: null,
        duration: 1000,
        popularity: null,
      },
    },
  },
};

/** Deps that record what happened, in order; `plays` answers each play call in turn. */
function deps(plays: (() => Promise<unknown>)[], playback: PlaybackState = { state: null }) {
  const log: string[] = [];
  const fake: PlayStartDeps = {
    play: vi.fn(async () => {
      log.push('play');
      const answer = plays.shift();
      return answer ? answer() : undefined;
    }),
    startWebPlayer: vi.fn(async () => {
      log.push('web player');
      return 'web-device';
    }),
    transfer: vi.fn(async (id: string) => {
      log.push(`transfer ${id}`);
    }),
    fetchPlayback: vi.fn(async () => {
      log.push('poll');
      return playback;
    }),
    sleep: vi.fn(async (ms: number) => {
      log.push(`sleep ${ms}`);
    }),
  };
  return { fake, log };
}

const fail = (error: Error) => () => Promise.reject(error);
const ok = () => Promise.resolve();

describe('Play start', () => {
  it('plays on the active device, then polls until the player shows the track', async () => {
    const { fake, log } = deps([ok], playingIt);
    await startPlayback(request, 'play-button', fake);
    expect(log).toEqual(['play', 'sleep 500', 'poll']);
  });

  it('polls at most 10 times at 500 ms', async () => {
    const { fake, log } = deps([ok]);
    await startPlayback(request, 'play-button', fake);
    expect(log.filter((entry) => entry === 'poll')).toHaveLength(10);
    expect(log.filter((entry) => entry === 'sleep 500')).toHaveLength(10);
  });

  it('with no active device starts the web player, transfers, waits 1.5 s, retries, polls 15 times', async () => {
    const { fake, log } = deps([fail(noActiveDevice()), fail(noActiveDevice()), ok]);
    await startPlayback(request, 'play-button', fake);
    expect(log.slice(0, 7)).toEqual([
      'play',
      'web player',
      'transfer web-device',
      'sleep 1500',
      'play',
      'sleep 500',
      'play',
    ]);
    expect(log.filter((entry) => entry === 'poll')).toHaveLength(15);
  });

  it('retries 3 times at 500 ms × attempt, then says to open Spotify elsewhere', async () => {
    const { fake, log } = deps([
      fail(noActiveDevice()),
      fail(noActiveDevice()),
      fail(noActiveDevice()),
      fail(noActiveDevice()),
    ]);
    await expect(startPlayback(request, 'play-button', fake)).rejects.toThrow(NO_DEVICE_MESSAGE);
    expect(log.slice(3)).toEqual(['sleep 1500', 'play', 'sleep 500', 'play', 'sleep 1000', 'play']);
  });

  it('the mini player waits 1 s after the transfer, then retries and polls alike', async () => {
    const { fake, log } = deps([fail(noActiveDevice()), fail(noActiveDevice()), ok], playingIt);
    await startPlayback(request, 'mini-player', fake);
    expect(log).toEqual([
      'play',
      'web player',
      'transfer web-device',
      'sleep 1000',
      'play',
      'sleep 500',
      'play',
      'sleep 500',
      'poll',
    ]);
    const failing = deps(Array.from({ length: 4 }, () => fail(noActiveDevice())));
    await expect(startPlayback(request, 'mini-player', failing.fake)).rejects.toThrow(
      NO_DEVICE_MESSAGE,
    );
    expect(failing.log.filter((entry) => entry === 'play')).toHaveLength(4);
  });

  it('the mini player polls after a play on the active device too', async () => {
    const { fake, log } = deps([ok], playingIt);
    await startPlayback(request, 'mini-player', fake);
    expect(log).toEqual(['play', 'sleep 500', 'poll']);
  });

  it('says "Cannot start web playback" when the web player cannot start', async () => {
    const { fake } = deps([fail(noActiveDevice())]);
    fake.startWebPlayer = () => Promise.reject(new Error('SDK unavailable'));
    await expect(startPlayback(request, 'play-button', fake)).rejects.toThrow(
      WEB_PLAYBACK_FAILED_MESSAGE,
    );
  });

  it("shows other failures with the server's message, else the default text", async () => {
    const premium = deps([
      fail(new ApiError(402, 'Spotify Premium is required to control playback.')),
    ]);
    await expect(startPlayback(request, 'play-button', premium.fake)).rejects.toThrow(
      'Spotify Premium is required to control playback.',
    );
    expect(premium.log).toEqual(['play']);
    const silent = deps([fail(new Error(''))]);
    await expect(startPlayback(request, 'play-button', silent.fake)).rejects.toThrow(
      'Failed to start playback',
    );
  });
});
