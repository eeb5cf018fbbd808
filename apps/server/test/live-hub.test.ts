import { createWorld } from '@earshot/spotify-sandbox/world/world';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DataChanges } from '../src/db/changes';
import { savedTracks } from '../src/db/schema/library';
import { globalIgnoredTracks, ignoredTracks } from '../src/db/schema/ignores';
import { storeTracks } from '../src/services/catalog';
import { LiveHub, type LiveSettings } from '../src/services/live';
import { track as spotifyTrack } from '../src/spotify/schemas';
import { startHarness, type Harness, type Viewer } from './support/harness';
import { MemorySink, type LiveEvent } from './support/live-client';

/*
 * The live hub on its own: each test starts a hub of its own and tells it, as the database's
 * announcements would, which `live_events` rows were written (rows the test writes itself, so
 * it decides their ids, times and people). The cast is shared: Vera is friends with Finn and
 * Fay; Otto is friends with Finn only; Sam knows nobody.
 */

const world = createWorld({ sizes: { accounts: 20 } });
let harness: Harness;
let vera: Viewer;
let finn: Viewer;
let fay: Viewer;
let otto: Viewer;
let sam: Viewer;
/** Songs in the catalogue: [track id, uid]. */
let songs: [string, string][];
/** A track id no catalogue holds. */
const UNKNOWN_TRACK = '0000000000000000000000';

const db = () => harness.database.db;

beforeAll(async () => {
  harness = await startHarness({ sandbox: { world } });
  const cast = await Promise.all(
    world.accounts.slice(0, 5).map((account) => harness.signIn(account.id)),
  );
  [vera, finn, fay, otto, sam] = cast as [Viewer, Viewer, Viewer, Viewer, Viewer];
  await harness.befriend(vera, finn);
  await harness.befriend(vera, fay);
  await harness.befriend(otto, finn);
  const token = await harness.spotifyTokenOf(vera.id);
  const ids = world.albums[0]!.trackIds.slice(0, 3);
  for (const id of ids) {
    const response = await fetch(`${harness.sandboxUrl}/v1/tracks/${id}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    await storeTracks(db(), [spotifyTrack.parse(await response.json())]);
  }
  const stored = await db().execute<{ id: string; uid: string }>(
    sql`SELECT id, uid FROM tracks WHERE id = ANY(${sql.param(ids)}::text[]) ORDER BY id`,
  );
  songs = stored.rows.map((row) => [row.id, row.uid]);
}, 120_000);
afterAll(() => harness.close());

interface Started {
  hub: LiveHub;
  /** Announces ids (or `n:<user>`) as the database's channel would. */
  announce(payload: string): void;
  errors: unknown[];
}
const started: LiveHub[] = [];
afterEach(async () => {
  for (const hub of started.splice(0)) await hub.stop();
});

function startHub(settings: Partial<LiveSettings> = {}): Started {
  const changes = new DataChanges();
  const errors: unknown[] = [];
  const hub = new LiveHub({
    db: db(),
    changes,
    metrics: harness.metrics,
    settings: {
      heartbeatMs: 60_000,
      maxBufferedBytes: 1 << 20,
      retryMs: 3000,
      dropRetryMs: 30_000,
      ...settings,
    },
    log: (error) => errors.push(error),
  });
  started.push(hub);
  return { hub, announce: (payload) => changes.heardLive(payload), errors };
}

type Kind = 'play' | 'like' | 'unlike' | 'friendship';

/** Writes one `live_events` row (not announced); its id. */
async function logged(
  kind: Kind,
  user: Viewer | string,
  fields: { track?: string; other?: Viewer | string; status?: string; minutesAgo?: number } = {},
): Promise<number> {
  const idOf = (who: Viewer | string) => (typeof who === 'string' ? who : who.id);
  const at = new Date(Date.now() - (fields.minutesAgo ?? 0) * 60_000);
  const result = await db().execute<{ id: string }>(sql`
    INSERT INTO live_events (at, kind, user_id, track_id, happened_at, other_id, status)
    VALUES (${at}, ${kind}, ${idOf(user)}, ${fields.track ?? null},
            ${kind === 'friendship' ? null : at}, ${fields.other ? idOf(fields.other) : null},
            ${fields.status ?? null})
    RETURNING id`);
  return Number(result.rows[0]!.id);
}

async function open(started: Started, viewer: Viewer, lastEventId?: string) {
  const sink = new MemorySink();
  await started.hub.open(viewer.id, sink, lastEventId);
  return sink;
}

const named = (sink: MemorySink, event: string) => sink.events().filter((e) => e.event === event);
const dataOf = (events: LiveEvent[]) => events.map((e) => e.data);

async function sentCount(event: string): Promise<number> {
  const { values } = await harness.metrics.liveEvents.get();
  return values.find((value) => value.labels.event === event)?.value ?? 0;
}

describe('opening a stream', () => {
  it('opens with the retry hint and `ready`, nothing missed, without a last id', async () => {
    const live = startHub();
    const sink = await open(live, vera);
    expect(sink.written.startsWith('retry: 3000\n\n')).toBe(true);
    expect(dataOf(named(sink, 'ready'))).toEqual([{ missed: false }]);
    expect(live.hub.openStreams).toBe(1);
  });

  it('registers nothing for a client gone while its stream opened', async () => {
    const live = startHub();
    const sink = new MemorySink();
    const opening = live.hub.open(vera.id, sink, undefined);
    sink.emit('close');
    await opening;
    expect(live.hub.openStreams).toBe(0);
    expect(live.hub.watchedUsers()).toEqual([]);
    expect(named(sink, 'ready')).toEqual([]);
    expect(live.errors).toEqual([]);
  });

  it('sends the friends playing now, and only them', async () => {
    const [track] = songs[0]!;
    await db().execute(sql`
      INSERT INTO now_playing (user_id, checked_at, track_id, is_playing, progress_ms, observed_at)
      VALUES (${finn.id}, now(), ${track}, true, 1000, now()),
             (${fay.id}, now(), ${track}, false, 1000, now()),
             (${sam.id}, now(), ${track}, true, 1000, now())
      ON CONFLICT (user_id) DO UPDATE SET checked_at = now(), track_id = excluded.track_id,
        is_playing = excluded.is_playing, progress_ms = 1000, observed_at = now()`);
    try {
      const live = startHub();
      const sink = await open(live, vera);
      const playing = named(sink, 'now-playing');
      expect(playing.map((e) => (e.data as { user: { id: string } }).user.id)).toEqual([finn.id]);
      expect(playing[0]?.data).toMatchObject({ track: { id: track }, is_playing: true });
      // Sam has no friends: nothing is read for him.
      expect(named(await open(live, sam), 'now-playing')).toEqual([]);
    } finally {
      await db().execute(sql`DELETE FROM now_playing`);
    }
  });

  it('logs what fails while a stream opens, and opens the next ones', async () => {
    const live = startHub();
    await expect(live.hub.open('not-a-user-id', new MemorySink(), undefined)).rejects.toThrow();
    expect(live.errors).toHaveLength(1);
    expect(named(await open(live, vera), 'ready')).toHaveLength(1);
  });

  it('removes events past the replay window when it starts', async () => {
    const old = await logged('play', finn, { track: songs[0]![0], minutesAgo: 20 });
    const recent = await logged('play', finn, { track: songs[0]![0], minutesAgo: 12 });
    startHub();
    const left = async () =>
      (
        await db().execute<{ id: string }>(
          sql`SELECT id FROM live_events WHERE id IN (${old}, ${recent})`,
        )
      ).rows.map((row) => Number(row.id));
    await expect.poll(left).toEqual([recent]);
  });
});

describe('replaying what a viewer missed', () => {
  it('replays events after a two-digit (or longer) last id, with the viewer’s own flags', async () => {
    const [track, uid] = songs[1]!;
    await db().insert(savedTracks).values({ userId: vera.id, trackId: track, addedAt: new Date() });
    await db()
      .insert(ignoredTracks)
      .values({ userId: vera.id, uid, reported: true })
      .onConflictDoNothing();
    try {
      // Ten events first, so that the last id has two digits at least.
      for (let i = 0; i < 10; i++) await logged('play', otto, { track });
      const last = await logged('play', otto, { track });
      const missed = await logged('play', finn, { track });
      const sink = await open(startHub(), vera, String(last));
      expect(dataOf(named(sink, 'ready'))).toEqual([{ missed: false }]);
      expect(named(sink, 'play').map((e) => Number(e.id))).toEqual([missed]);
      expect(named(sink, 'play')[0]?.data).toMatchObject({
        user: { id: finn.id },
        liked: true,
        reported: true,
      });
    } finally {
      await db().execute(sql`DELETE FROM saved_tracks WHERE user_id = ${vera.id}`);
      await db().execute(sql`DELETE FROM ignored_tracks WHERE user_id = ${vera.id}`);
    }
  });

  it('replays the whole window after the last id 0, and nothing after the newest or beyond', async () => {
    const [track] = songs[0]!;
    const newest = await logged('play', finn, { track });
    const fromZero = await open(startHub(), vera, '0');
    expect(dataOf(named(fromZero, 'ready'))).toEqual([{ missed: false }]);
    expect(named(fromZero, 'play').map((e) => Number(e.id))).toContain(newest);
    for (const last of [newest, newest + 1000]) {
      const sink = await open(startHub(), vera, String(last));
      expect(sink.events().map((e) => e.event)).toEqual(['ready']);
      expect(dataOf(named(sink, 'ready'))).toEqual([{ missed: false }]);
    }
  });

  it('misses nothing for a viewer who saw the newest event, however long ago it was', async () => {
    const newest = await logged('play', finn, { track: songs[0]![0], minutesAgo: 11 });
    const sink = await open(startHub(), vera, String(newest));
    expect(sink.events().map((e) => [e.event, e.data])).toEqual([['ready', { missed: false }]]);
    await db().execute(sql`DELETE FROM live_events WHERE id = ${newest}`);
  });

  it('replays up to 500 events, and says a longer gap was missed', async () => {
    const [track] = songs[2]!;
    const last = await logged('play', fay, { track });
    const many = (count: number) =>
      db().execute(sql`
        INSERT INTO live_events (kind, user_id, track_id, happened_at)
        SELECT 'play', ${fay.id}::uuid, ${track}, now() FROM generate_series(1, ${count})`);
    // Other tests' events may fall after `last`: the gap is filled up to exactly 500.
    const after = async () =>
      Number(
        (
          await db().execute<{ n: string }>(
            sql`SELECT count(*) AS n FROM live_events WHERE id > ${last}
                AND user_id IN (${vera.id}, ${finn.id}, ${fay.id})`,
          )
        ).rows[0]!.n,
      );
    await many(500 - (await after()));
    const full = await open(startHub(), vera, String(last));
    expect(dataOf(named(full, 'ready'))).toEqual([{ missed: false }]);
    expect(named(full, 'play')).toHaveLength(500);
    await many(1);
    const over = await open(startHub(), vera, String(last));
    expect(dataOf(named(over, 'ready'))).toEqual([{ missed: true }]);
    expect(named(over, 'play')).toEqual([]);
    await db().execute(sql`DELETE FROM live_events WHERE user_id = ${fay.id} AND id > ${last}`);
  });
});

describe('fanning out', () => {
  it('sends a friend’s events to every friend watching, in id order, each once', async () => {
    const live = startHub();
    const veras = await open(live, vera);
    const ottos = await open(live, otto);
    const sams = await open(live, sam);
    const [track] = songs[0]!;
    const a = await logged('play', finn, { track });
    const b = await logged('like', finn, { track });
    const c = await logged('unlike', finn, { track });
    live.announce(`${c},${a}`);
    live.announce(`${b},${a}`);
    const ids = (sink: MemorySink) =>
      sink
        .events()
        .filter((e) => e.event !== 'ready')
        .map((e) => Number(e.id));
    await expect.poll(() => ids(veras).length).toBe(3);
    await expect.poll(() => ids(ottos).length).toBe(3);
    // Announced out of order, and twice: sent in order, once.
    expect(ids(veras)).toEqual([a, b, c]);
    expect(veras.events().map((e) => e.event)).toEqual(['ready', 'play', 'like', 'like']);
    expect(dataOf(named(veras, 'like'))).toMatchObject([{ unliked: false }, { unliked: true }]);
    expect(ids(sams)).toEqual([]);
    expect(live.errors).toEqual([]);
  });

  it('sends a viewer their own events, and none committed before their stream opened', async () => {
    const [track] = songs[0]!;
    const before = await logged('play', sam, { track });
    const request = await logged('friendship', sam, { other: otto, status: 'pending_outgoing' });
    const live = startHub();
    const sink = await open(live, sam);
    const after = await logged('play', sam, { track });
    live.announce(`${before},${request},${after}`);
    await expect.poll(() => named(sink, 'play').length).toBe(1);
    expect(sink.events().map((e) => [e.event, Number(e.id)])).toEqual([
      ['ready', request],
      ['play', after],
    ]);
  });

  it('carries the viewer’s like and report of the song, and a global ignore', async () => {
    const [track, uid] = songs[2]!;
    await db().insert(savedTracks).values({ userId: fay.id, trackId: track, addedAt: new Date() });
    await db().insert(ignoredTracks).values({ userId: fay.id, uid, reported: true });
    await db().insert(globalIgnoredTracks).values({ uid });
    try {
      const live = startHub();
      const fays = await open(live, fay);
      const veras = await open(live, vera);
      const id = await logged('play', vera, { track });
      live.announce(String(id));
      await expect.poll(() => named(fays, 'play').length).toBe(1);
      await expect.poll(() => named(veras, 'play').length).toBe(1);
      expect(named(fays, 'play')[0]?.data).toMatchObject({
        liked: true,
        reported: true,
        is_global: true,
      });
      expect(named(veras, 'play')[0]?.data).toMatchObject({
        liked: false,
        reported: false,
        is_global: true,
      });
    } finally {
      await db().execute(sql`DELETE FROM saved_tracks WHERE user_id = ${fay.id}`);
      await db().execute(sql`DELETE FROM ignored_tracks WHERE user_id = ${fay.id}`);
      await db().execute(sql`DELETE FROM global_ignored_tracks WHERE uid = ${uid}`);
    }
  });

  it('leaves out an event whose track, user or other person is unknown', async () => {
    const live = startHub();
    const sink = await open(live, vera);
    const [track] = songs[0]!;
    const unknownTrack = await logged('play', finn, { track: UNKNOWN_TRACK });
    const gone = '00000000-0000-4000-8000-000000000000';
    const unknownOther = await logged('friendship', vera, { other: gone, status: 'friends' });
    const noStatus = await logged('friendship', vera, { other: sam });
    const known = await logged('play', finn, { track });
    live.announce(`${unknownTrack},${unknownOther},${noStatus},${known}`);
    await expect.poll(() => named(sink, 'play').length).toBe(1);
    expect(sink.events().map((e) => [e.event, Number(e.id)])).toEqual([
      ['ready', expect.any(Number)],
      ['play', known],
    ]);
    expect(live.errors).toEqual([]);
  });

  it('counts what it sends by event', async () => {
    const live = startHub();
    await open(live, vera);
    const [track] = songs[0]!;
    const counts = async () =>
      Promise.all(['play', 'like', 'friendship', 'now-playing'].map(sentCount));
    const before = await counts();
    const ids = [
      await logged('play', finn, { track }),
      await logged('like', finn, { track }),
      await logged('friendship', vera, { other: sam, status: 'pending_outgoing' }),
    ];
    live.announce(ids.join(','));
    await expect.poll(async () => (await counts())[2]).toBe(before[2]! + 1);
    expect(await counts()).toEqual([before[0]! + 1, before[1]! + 1, before[2]! + 1, before[3]]);
  });
});

describe('who watches whom', () => {
  it('watches a friend while any of their friends has a stream here, not after', async () => {
    const live = startHub();
    const veras = await open(live, vera);
    const ottos = await open(live, otto);
    expect(live.hub.watchedUsers().sort()).toEqual([finn.id, fay.id].sort());
    veras.emit('close');
    expect(live.hub.watchedUsers()).toEqual([finn.id]);
    expect(live.hub.openStreams).toBe(1);
    ottos.emit('close');
    ottos.emit('close');
    expect(live.hub.watchedUsers()).toEqual([]);
    expect(live.hub.openStreams).toBe(0);
  });

  it('follows friendship events: a new friend’s events come, an old friend’s stop', async () => {
    const live = startHub();
    const sink = await open(live, sam);
    const [track] = songs[0]!;
    // A change between two people with no stream here is nobody's business on this process.
    const elsewhere = await logged('friendship', otto, { other: fay, status: 'friends' });
    const befriended = await logged('friendship', sam, { other: finn, status: 'friends' });
    const play = await logged('play', finn, { track });
    live.announce(`${elsewhere},${befriended},${play}`);
    await expect.poll(() => named(sink, 'play').length).toBe(1);
    expect(live.hub.watchedUsers()).toEqual([finn.id]);
    // A decline of someone who was no friend changes nothing.
    const declined = await logged('friendship', sam, { other: otto, status: 'none' });
    const ended = await logged('friendship', sam, { other: finn, status: 'none' });
    const later = await logged('play', finn, { track });
    live.announce(`${declined},${ended},${later}`);
    await expect.poll(() => named(sink, 'friendship').length).toBe(3);
    expect(named(sink, 'play')).toHaveLength(1);
    expect(live.hub.watchedUsers()).toEqual([]);
    const finnAsSeen = (await harness.request(finn, 'GET', '/api/user/me')).json<{
      username: string;
      name: string;
    }>();
    expect(finnAsSeen.name).not.toBe('');
    expect(dataOf(named(sink, 'friendship'))).toEqual([
      {
        user: { id: finn.id, username: finnAsSeen.username, name: finnAsSeen.name },
        status: 'friends',
      },
      { user: expect.objectContaining({ id: otto.id }), status: 'none' },
      { user: expect.objectContaining({ id: finn.id }), status: 'none' },
    ]);
    expect(live.errors).toEqual([]);
  });
});

describe('now playing', () => {
  it('sends a friend’s change to the friends watching, a pause too, with the last event id', async () => {
    const live = startHub();
    const veras = await open(live, vera);
    const [track] = songs[1]!;
    const play = await logged('play', finn, { track });
    live.announce(String(play));
    await expect.poll(() => named(veras, 'play').length).toBe(1);
    await db().execute(sql`
      INSERT INTO now_playing (user_id, checked_at, track_id, is_playing, progress_ms, observed_at)
      VALUES (${finn.id}, now(), ${track}, false, 5000, now()),
             (${fay.id}, now(), ${UNKNOWN_TRACK}, true, 5000, now()),
             (${sam.id}, now(), ${track}, true, 5000, now())
      ON CONFLICT (user_id) DO UPDATE SET checked_at = now(), track_id = excluded.track_id,
        is_playing = excluded.is_playing, progress_ms = 5000, observed_at = now()`);
    try {
      live.announce(`n:${finn.id}`);
      live.announce(`n:${fay.id}`);
      live.announce(`n:${sam.id}`);
      await expect.poll(() => named(veras, 'now-playing').length).toBe(2);
      const of = (who: Viewer) =>
        named(veras, 'now-playing').find(
          (e) => (e.data as { user: { id: string } }).user.id === who.id,
        );
      const [paused, unknown] = [of(finn), of(fay)];
      expect(Number(paused?.id)).toBe(play);
      expect(paused?.data).toMatchObject({
        user: { id: finn.id },
        track: { id: track },
        is_playing: false,
        progress_ms: 5000,
        observed_at: expect.any(String),
      });
      // A track the catalogue lacks shows as nothing playing.
      expect(unknown?.data).toMatchObject({
        user: { id: fay.id },
        track: null,
        is_playing: false,
        progress_ms: null,
        observed_at: null,
      });
    } finally {
      await db().execute(sql`DELETE FROM now_playing`);
    }
  });
});

describe('slow clients, heartbeats and stopping', () => {
  it('keeps a client with exactly the unread limit, drops one past it', async () => {
    const live = startHub({ maxBufferedBytes: 1024 });
    const sink = await open(live, vera);
    sink.unread = 1024;
    const [track] = songs[0]!;
    const first = await logged('play', finn, { track });
    live.announce(String(first));
    await expect.poll(() => named(sink, 'play').length).toBe(1);
    sink.unread = 1025;
    live.announce(String(await logged('play', finn, { track })));
    await expect.poll(() => sink.ended).toBe(true);
    expect(named(sink, 'play')).toHaveLength(1);
  });

  it('writes a heartbeat to each stream at its interval', async () => {
    const live = startHub({ heartbeatMs: 50 });
    const sink = await open(live, vera);
    await expect.poll(() => (sink.written.match(/^:\n\n/gm) ?? []).length).toBeGreaterThan(1);
  });

  it('ends every stream when it stops, telling clients to come back in a second', async () => {
    const live = startHub();
    const one = await open(live, vera);
    const two = await open(live, sam);
    await live.hub.stop();
    for (const sink of [one, two]) {
      expect(sink.ended).toBe(true);
      expect(sink.written.endsWith('retry: 1000\n\n')).toBe(true);
    }
    expect(live.hub.openStreams).toBe(0);
  });
});
