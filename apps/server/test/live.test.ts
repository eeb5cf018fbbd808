import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActivityPage } from '@earshot/contract/activity';
import { connectPostgres } from '../src/db/client';
import { plays } from '../src/db/schema/listening';
import { storeTracks } from '../src/services/catalog';
import { LiveHub } from '../src/services/live';
import { NowPlayingPoller } from '../src/services/now-playing';
import { tokenSourceFor } from '../src/services/spotify-tokens';
import type { SpotifyTrack } from '../src/spotify/schemas';
import { startHarness, TEST_CLIENT_ID, type Harness, type Viewer } from './support/harness';
import { MemorySink, openLive, type LiveClient, type LiveEvent } from './support/live-client';

let harness: Harness;
let baseUrl: string;
let mara: Viewer;
let tomas: Viewer;
let aiko: Viewer;
const open: LiveClient[] = [];
let first: string;
let second: string;

const call = (...request: Parameters<Harness['request']>) => harness.request(...request);

/** A play stored as a sync stores it: just finished. */
let playedAt = Date.now() - 60 * 60_000;
const play = (userId: string, trackId: string) =>
  harness.database.db
    .insert(plays)
    .values({ userId, trackId, playedAt: new Date((playedAt += 1_000)), source: 'api' });

async function stream(viewer: Viewer, lastEventId?: string) {
  const client = await openLive(baseUrl, viewer.cookie, lastEventId);
  open.push(client);
  await expect.poll(() => client.events().some((e) => e.event === 'ready')).toBe(true);
  return client;
}

const named = (client: { events(): LiveEvent[] }, event: string) =>
  client.events().filter((e) => e.event === event);

const playsOf = (client: LiveClient, username: string) =>
  named(client, 'play').filter(
    (e) => (e.data as { user: { username: string } }).user.username === username,
  );

beforeAll(async () => {
  harness = await startHarness({
    env: { NOW_PLAYING_TICK_SEC: '0.1', LIVE_HEARTBEAT_SEC: '0.2' },
  });
  baseUrl = await harness.app.listen({ port: 0, host: '127.0.0.1' });
  mara = await harness.signIn('maralindqvist');
  tomas = await harness.signIn('31kzt4wq7yv2jhd6ncx3bfrm5lpa');
  aiko = await harness.signIn('11183207465');
  await harness.befriend(mara, tomas);
  // Two songs of the sandbox's catalogue: a like goes to Spotify first.
  const token = await tokenSourceFor(
    harness.database.db,
    harness.cipher,
    harness.spotify,
    tomas.id,
  ).accessToken();
  const recent = (await (
    await fetch(`${harness.sandboxUrl}/v1/me/player/recently-played?limit=50`, {
      headers: { authorization: `Bearer ${token}` },
    })
  ).json()) as { items: { track: SpotifyTrack & { id: string } }[] };
  const tracks = [...new Map(recent.items.map((item) => [item.track.id, item.track])).values()];
  await storeTracks(harness.database.db, tracks.slice(0, 2));
  [first, second] = [tracks[0]!.id, tracks[1]!.id];
});
afterAll(async () => {
  for (const client of open) client.close();
  await harness.close();
});

describe('GET /api/live', () => {
  it('is for signed-in users only, whatever the request carries', async () => {
    const anonymous = await harness.app.inject({
      url: '/api/live',
      headers: { 'last-event-id': 'x'.repeat(5000) },
    });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toEqual({ detail: 'Not logged in' });
  });

  it('streams a friend’s new play to their friends only, as the Recent page shows it', async () => {
    const maras = await stream(mara);
    const aikos = await stream(aiko);
    expect(maras.contentType).toBe('text/event-stream; charset=utf-8');
    expect(maras.text()).toMatch(/^retry: \d+\n\n/);
    await play(tomas.id, first);
    await expect.poll(() => playsOf(maras, 'tomas-ferreira').length).toBe(1);
    const [event] = playsOf(maras, 'tomas-ferreira');
    expect(Number(event?.id)).toBeGreaterThan(0);
    const recent = (await call(mara, 'GET', '/api/recent?limit=1')).json<ActivityPage>();
    expect(event?.data).toEqual(recent.items[0]);
    // The stranger hears her own play, never the friend's.
    await play(aiko.id, second);
    const userOf = (e: LiveEvent) => (e.data as { user: { id: string } }).user.id;
    await expect.poll(() => named(aikos, 'play').length).toBe(1);
    expect(named(aikos, 'play').map(userOf)).toEqual([aiko.id]);
    expect(named(maras, 'play').map(userOf)).not.toContain(aiko.id);
  });

  it('streams likes and unlikes with the song’s uid and the viewer’s own like', async () => {
    const maras = await stream(mara);
    expect((await call(tomas, 'POST', '/api/like', { uid: second, liked: true })).statusCode).toBe(
      200,
    );
    await expect.poll(() => named(maras, 'like').length).toBe(1);
    expect(named(maras, 'like')[0]?.data).toMatchObject({
      user: { id: tomas.id },
      track: { uid: second },
      liked: false,
      unliked: false,
    });
    await call(tomas, 'POST', '/api/like', { uid: second, liked: false });
    await expect.poll(() => named(maras, 'like').length).toBe(2);
    expect(named(maras, 'like')[1]?.data).toMatchObject({ track: { uid: second }, unliked: true });
  });

  it('keeps idle streams open with heartbeats', async () => {
    const maras = await stream(mara);
    await expect.poll(() => (maras.text().match(/^:/gm) ?? []).length).toBeGreaterThan(1);
  });

  it('tells both people of a request and its answer, and stops a friend’s events at the unfriend', async () => {
    const maras = await stream(mara);
    const aikos = await stream(aiko);
    await call(aiko, 'POST', '/api/friendship/request/mara-lindqvist');
    await expect.poll(() => named(maras, 'friendship').length).toBe(1);
    expect(named(maras, 'friendship')[0]?.data).toEqual({
      user: { id: aiko.id, username: expect.any(String), name: expect.any(String) },
      status: 'pending_incoming',
    });
    expect(named(aikos, 'friendship')[0]?.data).toMatchObject({ status: 'pending_outgoing' });
    await call(mara, 'POST', `/api/friendship/decline/${aiko.id}`);
    await expect.poll(() => named(maras, 'friendship').length).toBe(2);

    await call(mara, 'DELETE', '/api/friendship/unfriend/tomas-ferreira');
    await play(tomas.id, second);
    // Mara's own play after the friend's: once it arrives, the friend's would have too.
    await play(mara.id, first);
    await expect.poll(() => playsOf(maras, 'mara-lindqvist').length).toBe(1);
    expect(playsOf(maras, 'tomas-ferreira')).toEqual([]);
    expect(named(maras, 'friendship').at(-1)?.data).toMatchObject({
      user: { id: tomas.id },
      status: 'none',
    });
    await harness.befriend(mara, tomas);
    await play(tomas.id, second);
    await expect.poll(() => playsOf(maras, 'tomas-ferreira').length).toBe(1);
  });

  it('replays what a reconnecting viewer missed, and says when it cannot', async () => {
    const before = await stream(mara);
    const lastId = before.events().at(-1)?.id;
    before.close();
    await play(tomas.id, first);
    const liked = await call(tomas, 'POST', '/api/like', { uid: first, liked: true });
    expect(liked.json()).toEqual({ uid: first, liked: true });
    const again = await stream(mara, lastId);
    const replayed = again.events();
    expect(replayed.map((e) => e.event).slice(0, 3)).toEqual(['play', 'like', 'ready']);
    expect(replayed.at(2)?.data).toEqual({ missed: false });
    expect(Number(replayed[2]?.id)).toBeGreaterThanOrEqual(Number(replayed[1]?.id));
    expect(Number(replayed[0]?.id)).toBeGreaterThan(Number(lastId));

    // A page reopening the stream passes the id in the query.
    const reopened = await openLive(baseUrl, mara.cookie, undefined, `?last_event_id=${lastId}`);
    open.push(reopened);
    await expect.poll(() => named(reopened, 'ready').length).toBe(1);
    expect(
      reopened
        .events()
        .map((e) => e.event)
        .slice(0, 3),
    ).toEqual(['play', 'like', 'ready']);

    const forged = await stream(mara, "1' OR 1=1");
    expect(named(forged, 'ready')[0]?.data).toEqual({ missed: true });
    // Older than the replay keeps.
    await harness.database.db.execute(
      sql`UPDATE live_events SET at = now() - interval '11 minutes' WHERE id = ${Number(lastId)}`,
    );
    const late = await stream(mara, lastId);
    expect(late.events().map((e) => e.event)[0]).toBe('ready');
    expect(named(late, 'ready')[0]?.data).toEqual({ missed: true });
  });

  it('drops a client that stops reading, with a retry hint, instead of keeping its events', async () => {
    const hub = new LiveHub({
      db: harness.database.db,
      changes: harness.database.changes,
      metrics: harness.metrics,
      settings: { heartbeatMs: 60_000, maxBufferedBytes: 1024, retryMs: 3000, dropRetryMs: 30_000 },
      log: (error) => {
        throw error;
      },
    });
    try {
      const slow = new MemorySink();
      await hub.open(mara.id, slow, undefined);
      expect(hub.openStreams).toBe(1);
      const dropped = (await harness.metrics.liveDropped.get()).values[0]?.value ?? 0;
      slow.unread = 4096;
      await play(tomas.id, first);
      await expect.poll(() => slow.ended).toBe(true);
      expect(slow.written.endsWith('retry: 30000\n\n')).toBe(true);
      expect(slow.events().at(-1)).toMatchObject({ event: 'dropped', data: { retry_ms: 30_000 } });
      expect(slow.events().filter((e) => e.event === 'play')).toEqual([]);
      expect(hub.openStreams).toBe(0);
      expect((await harness.metrics.liveDropped.get()).values[0]?.value).toBe(dropped + 1);
    } finally {
      await hub.stop();
    }
  });

  it.runIf(process.env.TEST_DATABASE_URL)(
    'carries a like made on one process to a viewer on another, through PostgreSQL',
    async () => {
      const other = connectPostgres(String(harness.database.pool.options.connectionString), 2);
      const hub = new LiveHub({
        db: other.db,
        changes: other.changes,
        metrics: harness.metrics,
        settings: {
          heartbeatMs: 60_000,
          maxBufferedBytes: 1 << 20,
          retryMs: 3000,
          dropRetryMs: 30_000,
        },
        log: (error) => {
          throw error;
        },
      });
      try {
        const sink = new MemorySink();
        await hub.open(mara.id, sink, undefined);
        await call(tomas, 'POST', '/api/like', { uid: second, liked: true });
        await expect.poll(() => sink.events().filter((e) => e.event === 'like').length).toBe(1);
        expect(sink.events().find((e) => e.event === 'like')?.data).toMatchObject({
          user: { id: tomas.id },
          track: { uid: second },
        });
      } finally {
        // The other tests find the song not liked, as the world made it.
        await call(tomas, 'POST', '/api/like', { uid: second, liked: false });
        await hub.stop();
        await other.close();
      }
    },
  );
});

describe('now playing', () => {
  const polls = async () =>
    (await harness.metrics.spotifyRequests.get()).values
      .filter((v) => v.labels.endpoint === 'GET /me/player/currently-playing')
      .reduce((sum, v) => sum + v.value, 0);

  async function startPlaying(viewer: Viewer): Promise<string> {
    const token = await harness.spotifyTokenOf(viewer.id);
    const api = (path: string, init: RequestInit = {}) =>
      fetch(`${harness.sandboxUrl}/v1${path}`, {
        ...init,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      });
    const recent = (await (await api('/me/player/recently-played?limit=1')).json()) as {
      items: { track: { id: string } }[];
    };
    const trackId = recent.items[0]!.track.id;
    const devices = (await (await api('/me/player/devices')).json()) as {
      devices: { id: string }[];
    };
    const played = await api(`/me/player/play?device_id=${devices.devices[0]!.id}`, {
      method: 'PUT',
      body: JSON.stringify({ uris: [`spotify:track:${trackId}`] }),
    });
    expect(played.status).toBe(204);
    return trackId;
  }

  it('asks Spotify only while a friend watches, at most every 30 s, and streams what plays', async () => {
    for (const client of open.splice(0)) client.close();
    const streamsOpen = async () => (await harness.metrics.liveStreams.get()).values[0]?.value;
    await expect.poll(streamsOpen).toBe(0);
    const moveLeaseBack = () =>
      harness.database.db.execute(
        sql`UPDATE now_playing SET checked_at = now() - interval '31 seconds'`,
      );
    // Nobody watches: nothing is asked, however many ticks go by.
    await new Promise((resolve) => setTimeout(resolve, 400));
    const before = await polls();
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(await polls()).toBe(before);

    const trackId = await startPlaying(tomas);
    await moveLeaseBack();
    const maras = await stream(mara);
    const nowPlayingTrack = () =>
      (named(maras, 'now-playing').at(-1)?.data as { track: { id: string } } | undefined)?.track.id;
    await expect.poll(nowPlayingTrack).toBe(trackId);
    expect(named(maras, 'now-playing').at(-1)?.data).toMatchObject({
      user: { id: tomas.id },
      track: { id: trackId },
      is_playing: true,
      progress_ms: expect.any(Number),
    });
    // Tomas was asked once (mara, his only watching friend, has no friend playing but him).
    const asked = await polls();
    expect(asked).toBeGreaterThan(before);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await polls()).toBe(asked);

    // Past 30 s (the lease moved back), he is asked again while watched...
    await moveLeaseBack();
    await expect.poll(polls).toBeGreaterThan(asked);
    // ...and no more once the stream closed.
    maras.close();
    await expect.poll(streamsOpen).toBe(0);
    await moveLeaseBack();
    const stopped = await polls();
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await polls()).toBe(stopped);
  });
  it('announces a play started through Earshot at once, before the 30 s lease is over', async () => {
    const maras = await stream(mara);
    const playing = await startPlaying(tomas);
    // Tomas was just asked: the poller leaves him alone for 30 s.
    await harness.database.db.execute(sql`
      INSERT INTO now_playing (user_id, checked_at) VALUES (${tomas.id}, now())
      ON CONFLICT (user_id) DO UPDATE SET checked_at = now()`);
    const trackId = playing === first ? second : first;
    const asked = await polls();
    const played = await call(tomas, 'POST', '/api/spotify/play', {
      track_id: trackId,
      context: { source: 'track', user: null, context_uri: null },
    });
    expect(played.json()).toEqual({ track_id: trackId, confirmed: true });
    const announced = () =>
      (named(maras, 'now-playing').at(-1)?.data as { track: { id: string } } | null)?.track.id;
    await expect.poll(announced).toBe(trackId);
    // What the play's confirmation saw is announced: no extra call to Spotify is spent on it.
    expect(await polls()).toBe(asked);
    expect(named(maras, 'now-playing').at(-1)?.data).toMatchObject({
      user: { id: tomas.id },
      track: { id: trackId },
      is_playing: true,
    });
    maras.close();
  });
  /** A poller of its own, ticking only when told to, over `watched`. */
  const pollerFor = (watched: string[], budgetPer30s: number) =>
    new NowPlayingPoller({
      db: harness.database.db,
      cipher: harness.cipher,
      spotify: harness.spotify,
      metrics: harness.metrics,
      settings: { tickMs: 3_600_000, budgetPer30s },
      watched: () => watched,
      log: (error) => {
        throw error;
      },
    });
  const allDue = () =>
    harness.database.db.execute(
      sql`UPDATE now_playing SET checked_at = now() - interval '31 seconds'`,
    );
  const outcome = async (name: string) =>
    (await harness.metrics.nowPlayingPolls.get()).values.find((v) => v.labels.outcome === name)
      ?.value ?? 0;

  it('keeps within its budget per 30 s, and /metrics counts the asks it declined', async () => {
    // Only this test's poller asks: nobody's stream is open, so the app's own poller rests.
    for (const client of open.splice(0)) client.close();
    await expect
      .poll(async () => (await harness.metrics.liveStreams.get()).values[0]?.value)
      .toBe(0);
    const poller = pollerFor([tomas.id, aiko.id, mara.id], 1);
    await allDue();
    const before = await polls();
    await poller.kick();
    expect(await polls()).toBe(before + 1);

    await allDue();
    const declined = await outcome('over_budget');
    await poller.kick();
    expect(await polls()).toBe(before + 1);
    expect(await outcome('over_budget')).toBe(declined + 1);

    const scraped = await harness.app.inject({ method: 'GET', url: '/metrics' });
    expect(scraped.statusCode).toBe(200);
    expect(scraped.body).toContain(
      `earshot_now_playing_polls_total{outcome="over_budget"} ${declined + 1}`,
    );
    expect(scraped.body).toMatch(
      /earshot_spotify_requests_total\{[^}]*endpoint="GET \/me\/player\/currently-playing"/,
    );
  });

  it('asks and writes what plays in a Development Mode app too', async () => {
    const mode = (value: string) =>
      harness.control('PUT', `/clients/${TEST_CLIENT_ID}/mode`, { mode: value });
    expect((await mode('development')).status).toBe(200);
    try {
      const trackId = await startPlaying(tomas);
      await allDue();
      await pollerFor([tomas.id], 10).kick();
      const row = await harness.database.db.execute<{ track_id: string; is_playing: boolean }>(
        sql`SELECT track_id, is_playing FROM now_playing WHERE user_id = ${tomas.id}`,
      );
      expect(row.rows[0]).toEqual({ track_id: trackId, is_playing: true });
    } finally {
      await mode('extended');
    }
  });
});

describe('now playing in a Development Mode app', () => {
  it('reads what a user plays, or nothing, through the same endpoint', async () => {
    const mode = (value: string) =>
      harness.control('PUT', `/clients/${TEST_CLIENT_ID}/mode`, { mode: value });
    expect((await mode('development')).status).toBe(200);
    try {
      const auth = tokenSourceFor(harness.database.db, harness.cipher, harness.spotify, tomas.id);
      const token = await auth.accessToken();
      const direct = await fetch(`${harness.sandboxUrl}/v1/me/player/currently-playing`, {
        headers: { authorization: `Bearer ${token}` },
      });
      const current = await harness.spotify.currentlyPlaying(auth);
      if (direct.status === 204) {
        expect(current).toBeUndefined();
      } else {
        expect(direct.status).toBe(200);
        const body = (await direct.json()) as { item: { id: string } };
        expect(current?.track.id).toBe(body.item.id);
      }
    } finally {
      await mode('extended');
    }
  });
});
