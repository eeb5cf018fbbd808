import { setTimeout as sleep } from 'node:timers/promises';
import { ManualClock } from '@earshot/spotify-sandbox/clock';
import type { FaultConfigInput } from '@earshot/spotify-sandbox/faults/config';
import { createWorld } from '@earshot/spotify-sandbox/world/world';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ErrorBody } from '@earshot/contract/errors';
import type { Device, DeviceList, PlaybackState, PlayerToken } from '@earshot/contract/playback';
import type { CurrentUser } from '@earshot/contract/user';
import { tracks } from '../src/db/schema/catalog';
import { savedTracks } from '../src/db/schema/library';
import { plays } from '../src/db/schema/listening';
import { nowPlaying } from '../src/db/schema/live';
import { playedEvents } from '../src/db/schema/playback';
import { spotifyAccounts } from '../src/db/schema/spotify-accounts';
import { users } from '../src/db/schema/users';
import {
  CONNECTION_REFUSED_DETAIL,
  currentPlayback,
  listDevices,
  NO_ACTIVE_DEVICE_DETAIL,
  nextTrack,
  pause,
  playerAccessToken,
  playTrack,
  PREMIUM_REQUIRED_DETAIL,
  STREAMING_SCOPE_MISSING_DETAIL,
  type Listener as PlaybackListener,
} from '../src/services/playback';
import type { SpotifyClient } from '../src/spotify/client';
import { SpotifyError } from '../src/spotify/errors';
import { track as spotifyTrack, type PlaybackStateResponse } from '../src/spotify/schemas';
import { storeTracks } from '../src/services/catalog';
import { SpotifyRateGate } from '../src/spotify/rate-gate';
import { startHarness, TEST_CLIENT_ID, type Harness, type Viewer } from './support/harness';

/*
 * Every test signs in people nobody else in this file uses, and sets the app's mode, faults,
 * rate gate and patience it needs (`beforeEach` puts them back): a sandbox player keeps its
 * state, so tests that shared an account would depend on each other's order.
 */

const MINUTE = 60_000;
/** The sandbox's frozen instant: an evening when most of the world's people are not listening. */
const NOW = Date.UTC(2026, 3, 14, 19, 30);
/** Enough people for every test to have its own. */
const world = createWorld({ sizes: { accounts: 170 } });
const MODES = ['extended', 'development'] as const;
type Mode = (typeof MODES)[number];
type Plan = 'premium' | 'free';

/** An album of the world with at least four tracks (one played, three to skip to). */
const album = world.albums.find((each) => each.trackIds.length >= 4)!;
const [FIRST, SECOND, THIRD] = album.trackIds as [string, string, string, ...string[]];
const ALBUM_URI = `spotify:album:${album.id}`;
/** A track of another album: only the test of a track new to the catalogue shows it. */
const UNSEEN = world.albums.find((each) => each.id !== album.id)!.trackIds[0]!;

const listeningAt = new Map<string, boolean>();
const taken = new Set<string>();

/** A sandbox account of `plan` that no test used yet, listening at NOW or not. */
function unusedAccount(plan: Plan, listening: boolean): string {
  const found = world.accounts.find((account) => {
    if (taken.has(account.id) || account.product !== plan) return false;
    if (!listeningAt.has(account.id)) {
      listeningAt.set(account.id, world.nowPlaying(account.id, NOW) !== null);
    }
    return listeningAt.get(account.id) === listening;
  });
  if (!found) throw new Error(`no unused ${plan} account ${listening ? 'listening' : 'idle'}`);
  taken.add(found.id);
  return found.id;
}

const PLAYER_CALLS = [
  ['POST', '/api/spotify/play'],
  ['GET', '/api/spotify/playback'],
  ['POST', '/api/spotify/pause'],
  ['POST', '/api/spotify/resume'],
  ['POST', '/api/spotify/next'],
  ['GET', '/api/spotify/next'],
  ['GET', '/api/spotify/token'],
  ['GET', '/api/spotify/devices'],
  ['POST', '/api/spotify/transfer'],
] as const;
const COMMANDS = ['/api/spotify/pause', '/api/spotify/resume', '/api/spotify/next'] as const;

let harness: Harness;
let patienceMs: number;
let maxAttempts: number;

beforeAll(async () => {
  harness = await startHarness({ sandbox: { world, clock: new ManualClock(NOW) } });
  ({ timeoutMs: patienceMs, maxAttempts } = harness.spotify.http.options);
}, 120_000);
afterAll(() => harness.close());

beforeEach(async () => {
  expect((await harness.control('DELETE', '/faults')).status).toBe(204);
  await useMode('extended');
  // A long Retry-After parks an endpoint for hours of real time: no test inherits another's.
  harness.spotify.http.gate = new SpotifyRateGate();
  harness.spotify.http.options.timeoutMs = patienceMs;
});

async function useMode(mode: Mode): Promise<void> {
  const response = await harness.control('PUT', `/clients/${TEST_CLIENT_ID}/mode`, { mode });
  expect(response.status).toBe(200);
}

/** A signed-in person: their session, the sandbox account behind it, and their address. */
interface Listener extends Viewer {
  account: string;
  address: string;
}

let people = 0;

/**
 * Signs `account` in through the whole OAuth round trip, granting Earshot's scopes but
 * `withheld`. Each person comes from an address of their own, as people do: the API's limits
 * per address (30 logins a minute) then count each one alone.
 */
async function signIn(account: string, withheld?: string): Promise<Listener> {
  people += 1;
  const address = `10.0.${Math.floor(people / 200)}.${(people % 200) + 1}`;
  const started = await harness.startLogin('/', address);
  const callback = await harness.returnFromSpotify(started, account, {
    remoteAddress: address,
    editForm: (form) => {
      if (withheld === undefined) return;
      const scopes = (form.get('scope') ?? '').split(' ');
      expect(scopes).toContain(withheld);
      form.set('scope', scopes.filter((scope) => scope !== withheld).join(' '));
    },
  });
  const session = callback.cookies.find((cookie) => cookie.name === 'earshot_session');
  expect(session, `no session; went to ${callback.headers.location}`).toBeDefined();
  const cookie = `earshot_session=${session?.value}`;
  const me = await harness.app.inject({
    url: '/api/user/me',
    headers: { cookie },
    remoteAddress: address,
  });
  return { cookie, id: me.json<CurrentUser>().id, account, address };
}

/** Signs in an account of `plan` no other test uses. */
function someone(plan: Plan, listening = false): Promise<Listener> {
  return signIn(unusedAccount(plan, listening));
}

function call(viewer: Listener | undefined, method: 'GET' | 'POST', url: string, body?: object) {
  return harness.app.inject({
    method,
    url,
    ...(viewer && { headers: { cookie: viewer.cookie }, remoteAddress: viewer.address }),
    ...(body && { payload: body }),
  });
}
const state = async (viewer: Listener) =>
  (await call(viewer, 'GET', '/api/spotify/playback')).json<PlaybackState>().state;
const devices = async (viewer: Listener) =>
  (await call(viewer, 'GET', '/api/spotify/devices')).json<DeviceList>().devices;
const subscribed = async (viewer: Listener) =>
  (await call(viewer, 'GET', '/api/user/me')).json<CurrentUser>().subscribed;
const play = (viewer: Listener, trackId: string, contextUri: string | null, source = 'album') =>
  call(viewer, 'POST', '/api/spotify/play', {
    track_id: trackId,
    context: { source, user: null, context_uri: contextUri },
  });

/** Moves the viewer's playback to their first device and plays the album from its first track. */
async function startAlbum(viewer: Listener): Promise<Device> {
  const device = (await devices(viewer))[0]!;
  const transfer = await call(viewer, 'POST', '/api/spotify/transfer', {
    device_id: device.id,
    play: false,
  });
  expect(transfer.statusCode).toBe(204);
  expect((await play(viewer, FIRST, ALBUM_URI)).json()).toEqual({
    track_id: FIRST,
    confirmed: true,
  });
  return device;
}

/** The Spotify exchanges of `endpoint` while `run` ran, by status ("0": no answer in time). */
async function exchanges<T>(
  endpoint: string,
  run: () => Promise<T>,
): Promise<{ result: T; sent: Record<string, number> }> {
  const counts = async () => {
    const { values } = await harness.metrics.spotifyRequests.get();
    const byStatus = new Map<string, number>();
    for (const value of values) {
      if (value.labels.endpoint === endpoint)
        byStatus.set(String(value.labels.status), value.value);
    }
    return byStatus;
  };
  const before = await counts();
  const result = await run();
  const sent: Record<string, number> = {};
  for (const [status, count] of await counts()) {
    const added = count - (before.get(status) ?? 0);
    if (added > 0) sent[status] = added;
  }
  return { result, sent };
}
const total = (sent: Record<string, number>) => Object.values(sent).reduce((a, b) => a + b, 0);

type FaultRuleInput = NonNullable<FaultConfigInput['rules']>[number];

async function faults(...rules: FaultRuleInput[]): Promise<void> {
  expect((await harness.control('PUT', '/faults', { seed: 1, rules })).status).toBe(200);
}

async function storedGrant(viewer: Listener) {
  const [row] = await harness.database.db
    .select()
    .from(spotifyAccounts)
    .where(eq(spotifyAccounts.userId, viewer.id));
  return row!;
}

/*
 * A stand-in for Spotify's player, for answers the sandbox never gives (restricted devices, a
 * track shown only on a later look, a refusal of each kind) and to drive the player service
 * directly.
 */
type Stand = Partial<
  Pick<SpotifyClient, 'playbackState' | 'devices' | 'queue' | 'play' | 'pause' | 'transferPlayback'>
>;
const spotifyOf = (stand: Stand) => stand as unknown as SpotifyClient;
const auth = {
  accessToken: () => Promise.resolve('stand-in'),
  renewedAccessToken: () => Promise.resolve('stand-in'),
};

async function listenerFor(viewer: Listener): Promise<PlaybackListener> {
  const [user] = await harness.database.db.select().from(users).where(eq(users.id, viewer.id));
  return { user: user!, auth };
}

/** A track object as Spotify's player shows it. */
async function trackObject(viewer: Listener, id: string): Promise<unknown> {
  const token = await harness.spotifyTokenOf(viewer.id);
  const response = await fetch(`${harness.sandboxUrl}/v1/tracks/${id}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(response.status).toBe(200);
  return response.json();
}

const stateOf = (item: unknown, is_playing = true, progress_ms: number | null = 1234) => ({
  device: { id: 'd1', name: 'Kitchen', type: 'Speaker', is_active: true },
  is_playing,
  progress_ms,
  item,
});

describe('the player service, in front of a stand-in Spotify', () => {
  it('lists only the devices it can control: none without an id, none restricted', async () => {
    const listener = await listenerFor(await someone('premium'));
    const spotify = spotifyOf({
      devices: () =>
        Promise.resolve([
          { id: null, name: 'Anonymous', type: 'Computer', is_active: false },
          { id: 'r1', name: 'Car', type: 'Automobile', is_active: false, is_restricted: true },
          { id: 'k1', name: 'Kitchen', type: 'Speaker', is_active: true, is_restricted: false },
          { id: 'p1', name: 'Phone', type: 'Smartphone', is_active: false },
        ]),
    });
    expect(await listDevices(spotify, listener)).toEqual([
      { id: 'k1', name: 'Kitchen', type: 'Speaker', is_active: true },
      { id: 'p1', name: 'Phone', type: 'Smartphone', is_active: false },
    ]);
  });

  it.each([
    [new SpotifyError('Bad thing', 400), 409, 'Spotify refused: Bad thing'],
    [
      new SpotifyError('Restriction violated', 403, 'UNKNOWN'),
      409,
      'Spotify refused: Restriction violated',
    ],
    [new SpotifyError('Odd thing', 499), 409, 'Spotify refused: Odd thing'],
    [new SpotifyError('Device not found', 404), 404, 'Spotify: Device not found'],
    [
      new SpotifyError('Bad gateway', 500),
      424,
      'Spotify is not answering right now. Please try again.',
    ],
    [
      new SpotifyError('No answer', 0),
      424,
      'Spotify is not answering right now. Please try again.',
    ],
    [new SpotifyError('Bad token', 401), 409, CONNECTION_REFUSED_DETAIL],
  ])('answers a command Spotify refuses with %s by %i', async (error, status, detail) => {
    const viewer = await someone('premium');
    const listener = await listenerFor(viewer);
    const spotify = spotifyOf({ pause: () => Promise.reject(error) });
    await expect(pause(harness.database.db, spotify, listener)).rejects.toMatchObject({
      statusCode: status,
      message: detail,
    });
    // Only Premium's refusal teaches the plan; a failed command teaches nothing.
    expect(await subscribed(viewer)).toBe(listener.user.subscribed);
  });

  it('lets a fault of its own pass as it is, not as a refusal of Spotify', async () => {
    const listener = await listenerFor(await someone('premium'));
    const fault = new TypeError('not a Spotify answer');
    const failing = spotifyOf({
      pause: () => Promise.reject(fault),
      devices: () => Promise.reject(fault),
      playbackState: () => Promise.reject(fault),
    });
    await expect(pause(harness.database.db, failing, listener)).rejects.toBe(fault);
    await expect(listDevices(failing, listener)).rejects.toBe(fault);
    await expect(currentPlayback(harness.database.db, failing, listener)).rejects.toBe(fault);
    await expect(nextTrack(harness.database.db, failing, listener)).rejects.toBe(fault);
  });

  it('plays the track alone when its context refuses it (400 or 404), and only then', async () => {
    const viewer = await someone('premium');
    const listener = await listenerFor(viewer);
    const item = await trackObject(viewer, FIRST);
    const albumContext = { source: 'album' as const, user: null, context_uri: ALBUM_URI };
    const playing = () => Promise.resolve(stateOf(item));
    for (const refusal of [
      new SpotifyError('Not in context', 404, 'NO_SPECIFIC_TRACK'),
      new SpotifyError('Bad offset', 400),
    ]) {
      const asked: (string | null)[] = [];
      const spotify = spotifyOf({
        playbackState: playing,
        play: (_auth, _track, contextUri) => {
          asked.push(contextUri);
          return contextUri === null ? Promise.resolve() : Promise.reject(refusal);
        },
      });
      expect(await playTrack(harness.database.db, spotify, listener, FIRST, albumContext)).toEqual({
        track_id: FIRST,
        confirmed: true,
      });
      expect(asked).toEqual([ALBUM_URI, null]);
    }
    // Other refusals, and any refusal of a play without a context, are answered as they are.
    for (const [refusal, context, status] of [
      [new SpotifyError('No device', 404, 'NO_ACTIVE_DEVICE'), albumContext, 409],
      [new SpotifyError('Restricted', 403, 'UNKNOWN'), albumContext, 409],
      [new SpotifyError('Bad gateway', 502), albumContext, 424],
      [new SpotifyError('No such track', 404), { ...albumContext, context_uri: null }, 404],
      [new SpotifyError('Bad uri', 400), { ...albumContext, context_uri: null }, 409],
    ] as const) {
      let calls = 0;
      const spotify = spotifyOf({
        playbackState: playing,
        play: () => {
          calls += 1;
          return Promise.reject(refusal);
        },
      });
      await expect(
        playTrack(harness.database.db, spotify, listener, FIRST, context),
      ).rejects.toMatchObject({ statusCode: status });
      expect(calls, refusal.message).toBe(1);
    }
  });

  it('confirms a play the player shows only on a later look, and gives up after four', async () => {
    const viewer = await someone('premium');
    const listener = await listenerFor(viewer);
    const item = await trackObject(viewer, SECOND);
    const other = await trackObject(viewer, THIRD);
    const answers = [
      () => Promise.resolve(null),
      () => Promise.reject(new SpotifyError('Bad gateway', 502)),
      () => Promise.resolve(stateOf(other)),
      () => Promise.resolve(stateOf(item, false, null)),
    ];
    let looks = 0;
    const settling = spotifyOf({
      play: () => Promise.resolve(),
      playbackState: () => answers[looks++]!(),
    });
    const context = { source: 'track' as const, user: null, context_uri: null };
    expect(await playTrack(harness.database.db, settling, listener, SECOND, context)).toEqual({
      track_id: SECOND,
      confirmed: true,
    });
    expect(looks).toBe(4);
    // What the last look saw is what friends are shown: paused, at no known position.
    const [seen] = await harness.database.db
      .select()
      .from(nowPlaying)
      .where(eq(nowPlaying.userId, viewer.id));
    expect(seen).toMatchObject({ trackId: SECOND, isPlaying: false, progressMs: null });

    looks = 0;
    const elsewhere = spotifyOf({
      play: () => Promise.resolve(),
      playbackState: () => {
        looks += 1;
        return Promise.resolve(stateOf(other));
      },
    });
    expect(await playTrack(harness.database.db, elsewhere, listener, SECOND, context)).toEqual({
      track_id: SECOND,
      confirmed: false,
    });
    expect(looks).toBe(4);
    const events = await harness.database.db
      .select()
      .from(playedEvents)
      .where(eq(playedEvents.userId, viewer.id));
    expect(events.map((event) => event.trackId)).toEqual([SECOND]);

    const fault = new TypeError('not a Spotify answer');
    const broken = spotifyOf({
      play: () => Promise.resolve(),
      playbackState: () => Promise.reject(fault),
    });
    await expect(playTrack(harness.database.db, broken, listener, SECOND, context)).rejects.toBe(
      fault,
    );
  });

  it('shows a playing track with its position, whether the viewer likes it, and no episode', async () => {
    const viewer = await someone('premium');
    const listener = await listenerFor(viewer);
    const item = await trackObject(viewer, THIRD);
    const showing = (state: unknown) =>
      spotifyOf({ playbackState: () => Promise.resolve(state as PlaybackStateResponse) });
    const shown = await currentPlayback(
      harness.database.db,
      showing(stateOf(item, false, null)),
      listener,
    );
    expect(shown.state).toMatchObject({
      is_playing: false,
      progress_ms: 0,
      item: { liked: false, track: { id: THIRD } },
      device: { name: 'Kitchen', type: 'Speaker' },
    });
    await harness.database.db
      .insert(savedTracks)
      .values({ userId: viewer.id, trackId: THIRD, addedAt: new Date() });
    const liked = await currentPlayback(harness.database.db, showing(stateOf(item)), listener);
    expect(liked.state).toMatchObject({ progress_ms: 1234, item: { liked: true } });
    const episode = { id: 'e1', type: 'episode', name: 'A podcast' };
    expect(
      (await currentPlayback(harness.database.db, showing(stateOf(episode)), listener)).state?.item,
    ).toBeNull();
  });

  it("names Spotify's queue next unless the last play Earshot started plays, with a next", async () => {
    const viewer = await someone('premium');
    const listener = await listenerFor(viewer);
    const first = await trackObject(viewer, FIRST);
    const second = await trackObject(viewer, SECOND);
    await harness.database.db
      .insert(playedEvents)
      .values([{ userId: viewer.id, trackId: FIRST, source: 'recent', nextTrackId: THIRD }]);
    const player = (item: unknown, queue: string[]) =>
      spotifyOf({
        playbackState: () => Promise.resolve(stateOf(item)),
        queue: () => Promise.resolve(queue),
      });
    const next = (item: unknown, queue: string[]) =>
      nextTrack(harness.database.db, player(item, queue), listener);
    expect(await next(first, [SECOND])).toEqual({ next: { track_id: THIRD } });
    expect(await next(second, [FIRST])).toEqual({ next: { track_id: FIRST } });
    expect(await next(second, [])).toEqual({ next: null });
    expect(await next(null, [SECOND])).toEqual({ next: { track_id: SECOND } });
  });
  it('keeps a track the player shows that the catalogue lacks, and shows it', async () => {
    const viewer = await someone('premium');
    const listener = await listenerFor(viewer);
    const item = await trackObject(viewer, UNSEEN);
    const catalogued = () =>
      harness.database.db.select({ id: tracks.id }).from(tracks).where(eq(tracks.id, UNSEEN));
    expect(await catalogued()).toEqual([]);
    const shown = await currentPlayback(
      harness.database.db,
      spotifyOf({ playbackState: () => Promise.resolve(stateOf(item)) }),
      listener,
    );
    expect(shown.state?.item).toMatchObject({ liked: false, track: { id: UNSEEN } });
    expect(await catalogued()).toEqual([{ id: UNSEEN }]);
  });

  it('waits between looks: a player that shows the track after half a second is confirmed', async () => {
    const viewer = await someone('premium');
    const listener = await listenerFor(viewer);
    const item = await trackObject(viewer, SECOND);
    let playedAt = 0;
    const slow = spotifyOf({
      play: () => {
        playedAt = Date.now();
        return Promise.resolve();
      },
      playbackState: () => Promise.resolve(Date.now() - playedAt >= 500 ? stateOf(item) : null),
    });
    const context = { source: 'track' as const, user: null, context_uri: null };
    expect(await playTrack(harness.database.db, slow, listener, SECOND, context)).toEqual({
      track_id: SECOND,
      confirmed: true,
    });
  });

  it('writes the plan only when a command teaches something new', async () => {
    const viewer = await someone('premium');
    const obeying = spotifyOf({ pause: () => Promise.resolve() });
    const updatedAt = async () => (await listenerFor(viewer)).user.updatedAt;
    await pause(harness.database.db, obeying, await listenerFor(viewer));
    const learned = await updatedAt();
    expect((await listenerFor(viewer)).user.subscribed).toBe(true);
    await sleep(20);
    await pause(harness.database.db, obeying, await listenerFor(viewer));
    expect(await updatedAt()).toEqual(learned);
  });

  it("gives the token's first lifetime when the grant goes while the token is fetched", async () => {
    const viewer = await someone('premium');
    const { user } = await listenerFor(viewer);
    const { accessTokenExpiresAt } = await storedGrant(viewer);
    const disconnecting = {
      accessToken: async () => {
        await harness.database.db
          .delete(spotifyAccounts)
          .where(eq(spotifyAccounts.userId, user.id));
        return 'last';
      },
      renewedAccessToken: () => Promise.resolve('last'),
    };
    const given = await playerAccessToken(harness.database.db, { user, auth: disconnecting });
    expect(given.accessToken).toBe('last');
    const expected = Math.floor((accessTokenExpiresAt.getTime() - Date.now()) / 1000);
    expect(given.expiresInSec).toBeGreaterThan(0);
    expect(Math.abs(given.expiresInSec - expected)).toBeLessThanOrEqual(1);
  });
});

/*
 * What follows a play started from a feed: the feed as the viewer sees it then, read with the
 * feed's own rules (worked out by `playTrack` and kept with the play).
 */
describe('the next track of a feed', () => {
  const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * MINUTE);
  type Step = [who: Listener, trackId: string, minutesAgo: number];

  /** Keeps the tracks in the catalogue, as Spotify describes them. */
  async function catalogue(viewer: Listener, ids: readonly string[]): Promise<void> {
    for (const id of ids) {
      await storeTracks(harness.database.db, [spotifyTrack.parse(await trackObject(viewer, id))]);
    }
  }

  const played = (steps: readonly Step[]) =>
    harness.database.db.insert(plays).values(
      steps.map(([who, trackId, minutes]) => ({
        userId: who.id,
        trackId,
        playedAt: minutesAgo(minutes),
        source: 'api' as const,
      })),
    );
  const liked = (steps: readonly Step[]) =>
    harness.database.db.insert(savedTracks).values(
      steps.map(([who, trackId, minutes]) => ({
        userId: who.id,
        trackId,
        addedAt: minutesAgo(minutes),
      })),
    );

  const usernameOf = async (viewer: Listener) =>
    (await call(viewer, 'GET', '/api/user/me')).json<CurrentUser>().username;

  /** Plays `trackId` from `context` before a player that shows it; the play Earshot keeps. */
  async function playFrom(
    viewer: Listener,
    trackId: string,
    source: 'recent' | 'recent_friends' | 'likes' | 'likes_friends',
    user: Listener | null = null,
  ) {
    const item = await trackObject(viewer, trackId);
    const spotify = spotifyOf({
      play: () => Promise.resolve(),
      playbackState: () => Promise.resolve(stateOf(item)),
    });
    const context = { source, user: user && (await usernameOf(user)), context_uri: null };
    const listener = await listenerFor(viewer);
    const answer = await playTrack(harness.database.db, spotify, listener, trackId, context);
    expect(answer).toEqual({ track_id: trackId, confirmed: true });
    const events = await harness.database.db
      .select()
      .from(playedEvents)
      .where(and(eq(playedEvents.userId, viewer.id), eq(playedEvents.trackId, trackId)))
      .orderBy(playedEvents.id);
    return events.at(-1)!;
  }

  it('reads on into the next page, passing over the same track again', async () => {
    const viewer = await someone('premium');
    await catalogue(viewer, [FIRST, SECOND, THIRD]);
    const filler = Array.from({ length: 49 }, (_, i): Step => [viewer, FIRST, i + 1]);
    // Page one: 49 plays of FIRST, then SECOND; page two: SECOND again, then THIRD.
    await played([...filler, [viewer, SECOND, 50], [viewer, SECOND, 51], [viewer, THIRD, 52]]);
    expect((await playFrom(viewer, SECOND, 'recent')).nextTrackId).toBe(THIRD);
  });

  it('looks no further than three pages of the feed', async () => {
    const viewer = await someone('premium');
    await catalogue(viewer, [FIRST, SECOND, THIRD]);
    const filler = Array.from({ length: 149 }, (_, i): Step => [viewer, FIRST, i + 1]);
    await played([...filler, [viewer, SECOND, 150], [viewer, THIRD, 151]]);
    expect((await playFrom(viewer, SECOND, 'recent')).nextTrackId).toBeNull();
  });

  it("follows the friends' feed without the viewer's plays, and one friend's feed alone", async () => {
    const viewer = await someone('premium');
    const friend = await someone('free');
    await harness.befriend(viewer, friend);
    await catalogue(viewer, [FIRST, SECOND, THIRD]);
    await played([
      [friend, FIRST, 10],
      [viewer, THIRD, 15],
      [friend, SECOND, 20],
    ]);
    expect((await playFrom(viewer, FIRST, 'recent_friends')).nextTrackId).toBe(SECOND);
    const fromFriend = await playFrom(viewer, FIRST, 'recent', friend);
    expect(fromFriend).toMatchObject({ nextTrackId: SECOND, contextUserId: friend.id });
    // The feed's last item: nothing follows it.
    expect((await playFrom(viewer, SECOND, 'recent', friend)).nextTrackId).toBeNull();
    expect((await playFrom(viewer, FIRST, 'recent')).nextTrackId).toBe(THIRD);
  });

  it("follows the likes, the viewer's with friends', or friends' alone", async () => {
    const viewer = await someone('premium');
    const friend = await someone('free');
    await harness.befriend(viewer, friend);
    await catalogue(viewer, [FIRST, SECOND, THIRD]);
    // The plays' order differs from the likes', so a next read from the plays would show.
    await played([
      [viewer, FIRST, 1],
      [viewer, THIRD, 2],
      [viewer, SECOND, 3],
    ]);
    await liked([
      [friend, FIRST, 10],
      [viewer, SECOND, 15],
      [friend, THIRD, 20],
    ]);
    expect((await playFrom(viewer, FIRST, 'likes')).nextTrackId).toBe(SECOND);
    expect((await playFrom(viewer, FIRST, 'likes_friends')).nextTrackId).toBe(THIRD);
  });

  it('names nothing next from a feed the viewer may not see, and still keeps the play', async () => {
    const viewer = await someone('premium');
    const stranger = await someone('free');
    await catalogue(viewer, [FIRST, SECOND]);
    await played([
      [stranger, FIRST, 10],
      [stranger, SECOND, 20],
    ]);
    expect(await playFrom(viewer, FIRST, 'recent', stranger)).toMatchObject({
      nextTrackId: null,
      contextUserId: stranger.id,
    });
  });
});

describe('who may use the player', () => {
  it('answers 401 to every player call without a session, before looking at the body', async () => {
    for (const [method, url] of PLAYER_CALLS) {
      const response = await call(undefined, method, url, method === 'POST' ? {} : undefined);
      expect(response.statusCode, `${method} ${url}`).toBe(401);
      expect(response.json()).toEqual({ detail: 'Not logged in' });
    }
  });

  it("never lets one user drive another's player", async () => {
    const owner = await someone('premium');
    const other = await someone('premium');
    const device = await startAlbum(owner);
    const transfer = await call(other, 'POST', '/api/spotify/transfer', {
      device_id: device.id,
      play: true,
    });
    expect(transfer.statusCode).toBe(404);
    expect((await call(other, 'POST', '/api/spotify/pause')).statusCode).toBe(409);
    expect(await state(other)).toBeNull();
    expect(await state(owner)).toMatchObject({ is_playing: true, item: { track: { id: FIRST } } });
  });

  it('gives the owner a short-lived token for the web player, never the refresh token', async () => {
    const owner = await someone('premium');
    const response = await call(owner, 'GET', '/api/spotify/token');
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const body = response.json<PlayerToken>();
    expect(Object.keys(body).sort()).toEqual(['access_token', 'expires_in', 'sdk_url']);
    expect(body.expires_in).toBeGreaterThan(0);
    expect(body.expires_in).toBeLessThanOrEqual(3600);
    expect(body.sdk_url).toBe(harness.config.spotify.sdkUrl);
    const grant = await storedGrant(owner);
    expect(body.access_token).toBe(harness.cipher.decrypt(grant.accessTokenEncrypted));
    expect(response.body).not.toContain(harness.cipher.decrypt(grant.refreshTokenEncrypted));
    // The token is the owner's own: with it the SDK registers a web player on their account.
    const register = await fetch(`${harness.sandboxUrl}/sdk/devices`, {
      method: 'POST',
      headers: { authorization: `Bearer ${body.access_token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Earshot Web Player' }),
    });
    expect(register.status).toBe(201);
    expect((await devices(owner)).map((device) => device.name)).toContain('Earshot Web Player');
  });

  it('refreshes an expiring token before giving it, and tells its new lifetime', async () => {
    const owner = await someone('premium');
    const before = await storedGrant(owner);
    await harness.database.db
      .update(spotifyAccounts)
      .set({ accessTokenExpiresAt: new Date(Date.now() + 1000) })
      .where(eq(spotifyAccounts.userId, owner.id));
    const response = await call(owner, 'GET', '/api/spotify/token');
    expect(response.statusCode).toBe(200);
    const body = response.json<PlayerToken>();
    expect(body.access_token).not.toBe(harness.cipher.decrypt(before.accessTokenEncrypted));
    expect(body.expires_in).toBeGreaterThan(3000);
    expect(response.body).not.toContain(
      harness.cipher.decrypt((await storedGrant(owner)).refreshTokenEncrypted),
    );
  });

  it('refuses the token (409) to a grant without the `streaming` scope, and gives none', async () => {
    const owner = await signIn(unusedAccount('premium', false), 'streaming');
    expect((await storedGrant(owner)).scopes.split(' ')).not.toContain('streaming');
    const response = await call(owner, 'GET', '/api/spotify/token');
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({ detail: STREAMING_SCOPE_MISSING_DETAIL });
    // The rest of the player works with the scopes granted.
    expect((await devices(owner)).length).toBeGreaterThanOrEqual(3);
  });

  it('refuses the token (409, connect again) once the connection is revoked', async () => {
    const owner = await someone('premium');
    await harness.control('POST', `/accounts/${owner.account}/revoke`, {});
    // Spotify refuses the stored token at the first call: the refresh finds the grant revoked.
    expect((await call(owner, 'GET', '/api/spotify/devices')).json()).toEqual({ devices: [] });
    const response = await call(owner, 'GET', '/api/spotify/token');
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({ detail: CONNECTION_REFUSED_DETAIL });
  });
});

describe.each(MODES)('a free account (%s mode)', (mode) => {
  beforeEach(() => useMode(mode));

  it('reads an empty player and devices, and learns nothing from reading', async () => {
    const free = await someone('free');
    const plan = await subscribed(free);
    // Extended Quota Mode apps read the plan on /me; Development Mode apps do not.
    expect(plan).toBe(mode === 'extended' ? false : null);
    expect((await call(free, 'GET', '/api/spotify/playback')).json()).toEqual({ state: null });
    expect((await call(free, 'GET', '/api/spotify/next')).json()).toEqual({ next: null });
    const list = await devices(free);
    expect(list.length).toBeGreaterThanOrEqual(3);
    expect(list.every((device) => !device.is_active)).toBe(true);
    expect(await subscribed(free)).toBe(plan);
  });

  it('reads what plays while the person listens on another app', async () => {
    const free = await someone('free', true);
    const playing = world.nowPlaying(free.account, NOW)!;
    const now = await state(free);
    expect(now).toMatchObject({ is_playing: true, item: { track: { id: playing.track.id } } });
    expect(now?.device.name).toEqual(expect.any(String));
    // Nothing Earshot started, and Spotify knows nothing queued after a listen of its own.
    expect((await call(free, 'GET', '/api/spotify/next')).json()).toEqual({ next: null });
  });

  it('answers 402 Premium required to every command and to the token, and keeps the plan', async () => {
    const free = await someone('free');
    const device = (await devices(free))[0]!;
    const refused = [
      await call(free, 'POST', '/api/spotify/transfer', { device_id: device.id, play: true }),
      await play(free, FIRST, null, 'track'),
    ];
    for (const url of COMMANDS) refused.push(await call(free, 'POST', url));
    for (const response of refused) {
      expect(response.statusCode).toBe(402);
      expect(response.json()).toEqual({ detail: PREMIUM_REQUIRED_DETAIL });
    }
    expect(await subscribed(free)).toBe(false);
    const token = await call(free, 'GET', '/api/spotify/token');
    expect(token.statusCode).toBe(402);
    expect(token.json()).toEqual({ detail: PREMIUM_REQUIRED_DETAIL });
    expect((await devices(free)).every((each) => !each.is_active)).toBe(true);
  });
});

describe.each(MODES)('no active device (%s mode)', (mode) => {
  beforeEach(() => useMode(mode));

  it.each([...COMMANDS])(
    'answers POST %s with 409 "No active device", learning nothing',
    async (url) => {
      const premium = await someone('premium');
      const plan = await subscribed(premium);
      const response = await call(premium, 'POST', url);
      expect(response.statusCode).toBe(409);
      expect(response.json()).toEqual({ detail: NO_ACTIVE_DEVICE_DETAIL });
      expect(await subscribed(premium)).toBe(plan);
    },
  );

  it('answers a play with 409 "No active device", for the web player to take over', async () => {
    const premium = await someone('premium');
    const response = await play(premium, FIRST, null, 'track');
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({ detail: NO_ACTIVE_DEVICE_DETAIL });
    const events = await harness.database.db
      .select()
      .from(playedEvents)
      .where(eq(playedEvents.userId, premium.id));
    expect(events).toEqual([]);
  });

  it('reads an empty state, nothing next, and only inactive devices', async () => {
    const premium = await someone('premium');
    expect((await call(premium, 'GET', '/api/spotify/playback')).json()).toEqual({ state: null });
    expect((await call(premium, 'GET', '/api/spotify/next')).json()).toEqual({ next: null });
    const list = await devices(premium);
    expect(list.length).toBeGreaterThanOrEqual(3);
    expect(list.every((device) => !device.is_active)).toBe(true);
  });

  it('transfers to one of the devices, which becomes the active one; not to an unknown one', async () => {
    const premium = await someone('premium');
    const unknown = await call(premium, 'POST', '/api/spotify/transfer', {
      device_id: 'f'.repeat(40),
      play: false,
    });
    expect(unknown.statusCode).toBe(404);
    expect((await devices(premium)).every((device) => !device.is_active)).toBe(true);

    const target = (await devices(premium))[1]!;
    const transfer = await call(premium, 'POST', '/api/spotify/transfer', {
      device_id: target.id,
      play: false,
    });
    expect(transfer.statusCode).toBe(204);
    const active = (await devices(premium)).filter((device) => device.is_active);
    expect(active.map((device) => device.id)).toEqual([target.id]);
    expect(await subscribed(premium)).toBe(true);
  });
});

describe('playing', () => {
  it('transfers, plays in a context, records the play and shows it', async () => {
    const premium = await someone('premium');
    const phone = await startAlbum(premium);
    const now = await state(premium);
    expect(now).toMatchObject({
      is_playing: true,
      device: { name: phone.name, type: phone.type },
      item: { track: { id: FIRST } },
    });
    expect(now?.item?.track.uid).toEqual(expect.any(String));
    expect(now?.item?.liked).toEqual(expect.any(Boolean));
    const events = await harness.database.db
      .select()
      .from(playedEvents)
      .where(eq(playedEvents.userId, premium.id));
    expect(events).toEqual([
      expect.objectContaining({ trackId: FIRST, source: 'album', contextUri: ALBUM_URI }),
    ]);
  });

  it("names Spotify's queue as what comes next in an album, and skips to it", async () => {
    const premium = await someone('premium');
    await startAlbum(premium);
    expect((await call(premium, 'GET', '/api/spotify/next')).json()).toEqual({
      next: { track_id: SECOND },
    });
    expect((await call(premium, 'POST', '/api/spotify/next')).statusCode).toBe(204);
    expect((await state(premium))?.item?.track.id).toBe(SECOND);
  });

  it('pauses and resumes', async () => {
    const premium = await someone('premium');
    await startAlbum(premium);
    expect((await call(premium, 'POST', '/api/spotify/pause')).statusCode).toBe(204);
    expect((await state(premium))?.is_playing).toBe(false);
    expect((await call(premium, 'POST', '/api/spotify/resume')).statusCode).toBe(204);
    expect(await state(premium)).toMatchObject({
      is_playing: true,
      item: { track: { id: FIRST } },
    });
  });

  it("names the feed's next item after a play started from a feed", async () => {
    const premium = await someone('premium');
    await startAlbum(premium);
    // Each track Spotify plays enters the catalogue when the player shows it.
    for (const id of [THIRD, SECOND]) {
      expect((await play(premium, id, null, 'track')).json()).toMatchObject({ confirmed: true });
    }
    const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * MINUTE);
    await harness.database.db.insert(plays).values([
      { userId: premium.id, trackId: FIRST, playedAt: minutesAgo(30), source: 'api' },
      { userId: premium.id, trackId: SECOND, playedAt: minutesAgo(40), source: 'api' },
      { userId: premium.id, trackId: THIRD, playedAt: minutesAgo(50), source: 'api' },
    ]);
    const { username } = (await call(premium, 'GET', '/api/user/me')).json<CurrentUser>();

    const response = await call(premium, 'POST', '/api/spotify/play', {
      track_id: SECOND,
      context: { source: 'recent', user: username, context_uri: null },
    });
    expect(response.json()).toEqual({ track_id: SECOND, confirmed: true });
    // Spotify plays the track alone; what follows is the feed's next item.
    expect((await call(premium, 'GET', '/api/spotify/next')).json()).toEqual({
      next: { track_id: THIRD },
    });
  });

  describe('in Development Mode', () => {
    beforeEach(() => useMode('development'));

    it('learns the plan from the first command, as /me hides it', async () => {
      const premium = await someone('premium');
      const free = await someone('free');
      expect(await subscribed(premium)).toBeNull();
      expect(await subscribed(free)).toBeNull();
      const device = (await devices(premium))[0]!;
      const transfer = await call(premium, 'POST', '/api/spotify/transfer', {
        device_id: device.id,
        play: false,
      });
      expect(transfer.statusCode).toBe(204);
      expect(await subscribed(premium)).toBe(true);
      expect((await call(free, 'POST', '/api/spotify/resume')).statusCode).toBe(402);
      expect(await subscribed(free)).toBe(false);
    });

    it('plays a track on its own and shows it without the fields Development Mode hides', async () => {
      const premium = await someone('premium');
      const device = (await devices(premium))[0]!;
      await call(premium, 'POST', '/api/spotify/transfer', { device_id: device.id, play: false });
      const response = await play(premium, FIRST, null, 'track');
      expect(response.json()).toEqual({ track_id: FIRST, confirmed: true });
      expect((await state(premium))?.item?.track.id).toBe(FIRST);
      expect((await call(premium, 'GET', '/api/spotify/next')).json()).toEqual({ next: null });
    });
  });
});

describe('a connection Spotify refuses (401)', () => {
  it('gives the empty state on playback, device and next calls', async () => {
    const premium = await someone('premium');
    await startAlbum(premium);
    expect(await state(premium)).not.toBeNull();
    await harness.control('POST', `/accounts/${premium.account}/revoke`, {});
    for (const [url, empty] of [
      ['/api/spotify/playback', { state: null }],
      ['/api/spotify/devices', { devices: [] }],
      ['/api/spotify/next', { next: null }],
    ] as const) {
      const response = await call(premium, 'GET', url);
      expect(response.statusCode, url).toBe(200);
      expect(response.json(), url).toEqual(empty);
    }
  });

  it.each([
    ['POST /api/spotify/play', (viewer: Listener) => play(viewer, SECOND, null, 'track')],
    ['POST /api/spotify/pause', (viewer: Listener) => call(viewer, 'POST', '/api/spotify/pause')],
    ['POST /api/spotify/resume', (viewer: Listener) => call(viewer, 'POST', '/api/spotify/resume')],
    ['POST /api/spotify/next', (viewer: Listener) => call(viewer, 'POST', '/api/spotify/next')],
    [
      'POST /api/spotify/transfer',
      (viewer: Listener) =>
        call(viewer, 'POST', '/api/spotify/transfer', { device_id: 'f'.repeat(40), play: true }),
    ],
  ])('answers %s with 409 "connect again": nothing was done', async (_name, send) => {
    const premium = await someone('premium');
    await startAlbum(premium);
    await harness.control('POST', `/accounts/${premium.account}/revoke`, {});
    const response = await send(premium);
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({ detail: CONNECTION_REFUSED_DETAIL });
    expect(await subscribed(premium)).toBe(true);
  });

  it('sends a command again with a renewed token when Spotify refused the old one, once', async () => {
    const premium = await someone('premium');
    await startAlbum(premium);
    // Spotify forgets the token Earshot holds as still valid.
    expect((await harness.control('POST', '/tokens/expire')).status).toBe(200);
    const { result, sent } = await exchanges('POST /me/player/next', () =>
      call(premium, 'POST', '/api/spotify/next'),
    );
    expect(result.statusCode).toBe(204);
    expect(sent).toEqual({ '401': 1, '200': 1 });
    expect((await state(premium))?.item?.track.id).toBe(SECOND);
  });
});

type InjectResponse = Awaited<ReturnType<typeof call>>;

/**
 * A player call as a fault meets it: the Spotify endpoint it calls first (the fault's path, and
 * the metrics' label), and whether Earshot may send that request again after a 5xx or a lost
 * answer (a resent POST /me/player/next would skip twice).
 */
interface FaultedCall {
  call: string;
  endpoint: string;
  path: string;
  repeatable: boolean;
  /** What the call needs before the fault is in force; answers the request to send. */
  prepare(viewer: Listener): Promise<() => Promise<InjectResponse>>;
}

const ready =
  (send: (viewer: Listener) => Promise<InjectResponse>) => async (viewer: Listener) => () =>
    send(viewer);

const FAULTED_CALLS: FaultedCall[] = [
  {
    call: 'POST /api/spotify/play',
    endpoint: 'PUT /me/player/play',
    path: '/v1/me/player/play',
    repeatable: true,
    prepare: ready((viewer) => play(viewer, FIRST, ALBUM_URI)),
  },
  {
    call: 'GET /api/spotify/playback',
    endpoint: 'GET /me/player',
    path: '/v1/me/player',
    repeatable: true,
    prepare: ready((viewer) => call(viewer, 'GET', '/api/spotify/playback')),
  },
  {
    call: 'POST /api/spotify/pause',
    endpoint: 'PUT /me/player/pause',
    path: '/v1/me/player/pause',
    repeatable: true,
    prepare: ready((viewer) => call(viewer, 'POST', '/api/spotify/pause')),
  },
  {
    call: 'POST /api/spotify/resume',
    endpoint: 'PUT /me/player/play',
    path: '/v1/me/player/play',
    repeatable: true,
    prepare: ready((viewer) => call(viewer, 'POST', '/api/spotify/resume')),
  },
  {
    call: 'POST /api/spotify/next',
    endpoint: 'POST /me/player/next',
    path: '/v1/me/player/next',
    repeatable: false,
    prepare: ready((viewer) => call(viewer, 'POST', '/api/spotify/next')),
  },
  {
    call: 'GET /api/spotify/next',
    endpoint: 'GET /me/player',
    path: '/v1/me/player',
    repeatable: true,
    prepare: ready((viewer) => call(viewer, 'GET', '/api/spotify/next')),
  },
  {
    call: 'GET /api/spotify/token',
    endpoint: 'POST /api/token',
    path: '/accounts/api/token',
    // A token request may be sent again: see SpotifyClient.requestToken.
    repeatable: true,
    async prepare(viewer) {
      // The token Earshot holds is about to expire: giving it means refreshing it first.
      await harness.database.db
        .update(spotifyAccounts)
        .set({ accessTokenExpiresAt: new Date(Date.now() + 1000) })
        .where(eq(spotifyAccounts.userId, viewer.id));
      return () => call(viewer, 'GET', '/api/spotify/token');
    },
  },
  {
    call: 'GET /api/spotify/devices',
    endpoint: 'GET /me/player/devices',
    path: '/v1/me/player/devices',
    repeatable: true,
    prepare: ready((viewer) => call(viewer, 'GET', '/api/spotify/devices')),
  },
  {
    call: 'POST /api/spotify/transfer',
    endpoint: 'PUT /me/player',
    path: '/v1/me/player',
    repeatable: true,
    async prepare(viewer) {
      const device = (await devices(viewer))[0]!;
      return () =>
        call(viewer, 'POST', '/api/spotify/transfer', { device_id: device.id, play: true });
    },
  },
];

/** How long Earshot waits for Spotify under the latency fault, which answers far later. */
const SHORT_PATIENCE_MS = 100;
const LATENCY_MS = 400;

interface Fault {
  fault: string;
  rule: FaultRuleInput;
  /** What Earshot answers, and how many requests it sent Spotify (by call). */
  status: number;
  headers?: Record<string, string>;
  detail: RegExp;
  sent(call: FaultedCall): Record<string, number> | number;
}

const FAULTS: Fault[] = [
  {
    fault: 'a 5xx',
    rule: { type: 'server-error', every: 1 },
    status: 424,
    detail: /^Spotify is not answering right now/,
    sent: (faulted) => (faulted.repeatable ? maxAttempts : 1),
  },
  {
    fault: 'a 429 with a long Retry-After',
    rule: { type: 'rate-limit', every: 1, retryAfterSec: 7200 },
    status: 429,
    headers: { 'retry-after': '7200' },
    detail: /try again in 7200 seconds/,
    sent: () => ({ '429': 1 }),
  },
  {
    fault: 'no answer in time',
    rule: { type: 'latency', ms: LATENCY_MS },
    status: 424,
    detail: /^Spotify is not answering right now/,
    sent: (faulted) => ({ '0': faulted.repeatable ? maxAttempts : 1 }),
  },
];

describe.each(MODES)('Spotify faults (%s mode)', (mode) => {
  beforeEach(() => useMode(mode));

  const cases = FAULTED_CALLS.flatMap((faulted) =>
    FAULTS.map((fault) => ({ ...faulted, ...fault })),
  );
  it.each(cases)('answers $call meeting $fault with $status', async (faulted) => {
    const premium = await someone('premium');
    const send = await faulted.prepare(premium);
    await faults({ ...faulted.rule, path: faulted.path });
    if (faulted.rule.type === 'latency') {
      harness.spotify.http.options.timeoutMs = SHORT_PATIENCE_MS;
    }
    const { result, sent } = await exchanges(faulted.endpoint, send);
    expect(result.statusCode).toBe(faulted.status);
    expect(result.json<ErrorBody>().detail).toMatch(faulted.detail);
    expect(result.headers).toMatchObject(faulted.headers ?? {});
    const expected = faulted.sent(faulted);
    if (typeof expected === 'number') expect(total(sent)).toBe(expected);
    else expect(sent).toEqual(expected);
  });
});

describe('sending a command again', () => {
  it('never sends a skip again after a 5xx', async () => {
    const premium = await someone('premium');
    await startAlbum(premium);
    await faults({ type: 'server-error', every: 1, path: '/v1/me/player/next' });
    const { result, sent } = await exchanges('POST /me/player/next', () =>
      call(premium, 'POST', '/api/spotify/next'),
    );
    expect(result.statusCode).toBe(424);
    expect(total(sent)).toBe(1);
    await harness.control('DELETE', '/faults');
    expect((await state(premium))?.item?.track.id).toBe(FIRST);
  });

  it('never sends a skip again whose answer was lost: Spotify skips once', async () => {
    const premium = await someone('premium');
    await startAlbum(premium);
    await faults({ type: 'latency', ms: LATENCY_MS, path: '/v1/me/player/next' });
    harness.spotify.http.options.timeoutMs = SHORT_PATIENCE_MS;
    const response = await call(premium, 'POST', '/api/spotify/next');
    expect(response.statusCode).toBe(424);
    // Spotify carries out what it received, later; sent again, the skip would land again.
    await sleep(3 * LATENCY_MS);
    await harness.control('DELETE', '/faults');
    harness.spotify.http.options.timeoutMs = patienceMs;
    expect((await state(premium))?.item?.track.id).toBe(SECOND);
  });

  it('sends a skip again once a short 429 has passed, and skips once', async () => {
    const premium = await someone('premium');
    await startAlbum(premium);
    // Every second skip is refused once with a 429 of 1 s.
    await faults({ type: 'rate-limit', every: 2, retryAfterSec: 1, path: '/v1/me/player/next' });
    expect((await call(premium, 'POST', '/api/spotify/next')).statusCode).toBe(204);
    const { result, sent } = await exchanges('POST /me/player/next', () =>
      call(premium, 'POST', '/api/spotify/next'),
    );
    expect(result.statusCode).toBe(204);
    expect(sent).toEqual({ '429': 1, '200': 1 });
    expect((await state(premium))?.item?.track.id).toBe(THIRD);
  });

  it('sends a pause again after a 5xx, and it pauses', async () => {
    const premium = await someone('premium');
    await startAlbum(premium);
    // Every second pause meets a 5xx: the first goes through, the second is refused once.
    await faults({ type: 'server-error', every: 2, path: '/v1/me/player/pause' });
    expect((await call(premium, 'POST', '/api/spotify/pause')).statusCode).toBe(204);
    expect((await call(premium, 'POST', '/api/spotify/resume')).statusCode).toBe(204);
    const { result, sent } = await exchanges('PUT /me/player/pause', () =>
      call(premium, 'POST', '/api/spotify/pause'),
    );
    expect(result.statusCode).toBe(204);
    expect(sent).toEqual({ '500': 1, '200': 1 });
    expect((await state(premium))?.is_playing).toBe(false);
  });
});
