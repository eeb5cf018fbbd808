import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { savedTracks } from '../src/db/schema/library';
import { plays } from '../src/db/schema/listening';
import { storeTracks } from '../src/services/catalog';
import type { SpotifyTrack } from '../src/spotify/schemas';
import { startHarness, type Harness, type Viewer } from './support/harness';

let harness: Harness;
let mara: Viewer;
let tomas: Viewer;
let aiko: Viewer;

const artist = { id: 'artistM0000000000000001', name: 'Moss Relay' };
const track = (id: string, name: string): SpotifyTrack => ({
  id,
  name,
  album: {
    id: `al-${id}`,
    name: `${name} EP`,
    release_date: '2019',
    artists: [artist],
    images: [],
  },
  artists: [artist],
  duration_ms: 180_000,
});

type Method = 'GET' | 'POST' | 'DELETE';
const call = (viewer: Viewer | undefined, method: Method, url: string, payload?: unknown) =>
  harness.app.inject({
    method,
    url,
    headers: viewer ? { cookie: viewer.cookie } : {},
    ...(payload !== undefined && { payload: payload as Record<string, unknown> }),
  });

async function friendLikes(viewer: Viewer, username: string): Promise<number> {
  const list = (await call(viewer, 'GET', '/api/friendship/list')).json<{
    friends: { username: string; likes: number }[];
  }>();
  const friend = list.friends.find((entry) => entry.username === username);
  if (!friend) throw new Error(`${username} is not in the list`);
  return friend.likes;
}

async function profileLikes(viewer: Viewer, username: string): Promise<number> {
  const profile = (await call(viewer, 'GET', `/api/user/${username}/public`)).json<{
    stats: { total_likes: number };
  }>();
  return profile.stats.total_likes;
}

beforeAll(async () => {
  harness = await startHarness({ env: { ADMIN_EMAILS: 'Aiko.Tanaka@example.com' } });
  mara = await harness.signIn('maralindqvist');
  tomas = await harness.signIn('31kzt4wq7yv2jhd6ncx3bfrm5lpa');
  aiko = await harness.signIn('11183207465');
  await call(mara, 'POST', '/api/friendship/request/tomas-ferreira');
  await call(tomas, 'POST', '/api/friendship/accept/mara-lindqvist');
  const db = harness.database.db;
  await storeTracks(db, [track('mod01', 'Lichen'), track('mod02', 'Fern'), track('mod03', 'Moss')]);
  await db
    .insert(savedTracks)
    .values(
      ['mod01', 'mod02'].map((trackId) => ({ userId: tomas.id, trackId, addedAt: new Date() })),
    );
  await db
    .insert(plays)
    .values({ userId: tomas.id, trackId: 'mod02', playedAt: new Date(), source: 'api' });
});
afterAll(() => harness.close());

describe('counts that leave out ignored items', () => {
  it('agree between the Friends table and the profile after an ignore', async () => {
    const before = await friendLikes(mara, 'tomas-ferreira');
    expect(await profileLikes(mara, 'tomas-ferreira')).toBe(before);

    await call(tomas, 'POST', '/api/ignore/track/mod01');
    expect(await friendLikes(mara, 'tomas-ferreira')).toBe(before - 1);
    expect(await profileLikes(mara, 'tomas-ferreira')).toBe(before - 1);

    await call(tomas, 'DELETE', '/api/ignore/track/mod01');
    expect(await friendLikes(mara, 'tomas-ferreira')).toBe(before);
    expect(await profileLikes(mara, 'tomas-ferreira')).toBe(before);
  });
});

interface Notifications {
  reports: {
    tracks: { uid: string; title: string; artists: { name: string }[]; report_count: number }[];
    artists: { artist_id: string; name: string; report_count: number }[];
  };
  beta_requests: { pending: string[] };
}
const notifications = async () =>
  (await call(aiko, 'GET', '/api/admin/notifications')).json<Notifications>();

interface History {
  decisions: {
    action: string;
    target_kind: string;
    target_key: string;
    target_label: string;
    report_count: number;
    admin: { username: string } | null;
    decided_at: string;
  }[];
}
const history = async () => (await call(aiko, 'GET', '/api/admin/history')).json<History>();

describe('admin routes: authorization before validation', () => {
  const routes: [Method, string, unknown?][] = [
    ['GET', '/api/admin/notifications'],
    ['GET', '/api/admin/history'],
    ['POST', '/api/admin/notifications/beta/accept', { email: 'not an address' }],
    ['POST', '/api/admin/ignore/track/mod01/approve'],
    ['POST', '/api/admin/ignore/track/mod01/reject'],
    ['POST', `/api/admin/ignore/artist/${artist.id}/approve`],
    ['POST', `/api/admin/ignore/artist/${artist.id}/reject`],
    ['DELETE', '/api/admin/ignore/track/mod01'],
    ['DELETE', `/api/admin/ignore/artist/${artist.id}`],
    ['DELETE', `/api/admin/ignore/track/${'x'.repeat(80)}`],
  ];
  it.each(routes)(
    '%s %s: visitors 401, users 403, whatever the input',
    async (method, url, body) => {
      expect((await call(undefined, method, url, body)).statusCode).toBe(401);
      const asUser = await call(mara, method, url, body);
      expect(asUser.statusCode).toBe(403);
      expect(asUser.json()).toEqual({ detail: 'Only admins may do this' });
    },
  );

  it('lets admins in, where the input is then validated', async () => {
    expect((await call(aiko, 'GET', '/api/admin/notifications')).statusCode).toBe(200);
    const bad = await call(aiko, 'POST', '/api/admin/notifications/beta/accept', {
      email: 'not an address',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ detail: string }>().detail).toContain('Please enter a valid e-mail address.');
    expect(
      (await call(aiko, 'DELETE', `/api/admin/ignore/track/${'x'.repeat(80)}`)).statusCode,
    ).toBe(400);
    expect((await call(aiko, 'GET', '/api/user/me')).json()).toMatchObject({ is_admin: true });
    expect((await call(mara, 'GET', '/api/user/me')).json()).toMatchObject({ is_admin: false });
  });
});

describe('reports and their review', () => {
  it('counts each user once per song and per artist', async () => {
    await call(mara, 'POST', '/api/ignore/track/mod02/report');
    await call(mara, 'POST', '/api/ignore/track/mod02/report');
    await call(tomas, 'POST', '/api/ignore/track/mod02');
    await call(tomas, 'POST', '/api/ignore/track/mod02/report');
    await call(mara, 'POST', `/api/ignore/artist/${artist.id}/report`);
    const waiting = await notifications();
    expect(waiting.reports.tracks).toEqual([
      {
        uid: 'mod02',
        title: 'Fern',
        artists: [{ id: artist.id, name: artist.name }],
        report_count: 2,
      },
    ]);
    expect(waiting.reports.artists).toEqual([
      { artist_id: artist.id, name: artist.name, report_count: 1 },
    ]);
  });

  it('approves: the song is ignored for everyone, in stats and feeds, and recorded', async () => {
    // Tomas un-ignores his own copy: only the global ignore can leave it out of his figures.
    await call(tomas, 'DELETE', '/api/ignore/track/mod02');
    const statsBefore = (await call(mara, 'GET', '/api/user/tomas-ferreira/public')).json<{
      stats: { total_likes: number; total_plays: number };
    }>().stats;
    const approve = await call(aiko, 'POST', '/api/admin/ignore/track/mod02/approve');
    expect(approve.statusCode).toBe(204);

    expect((await notifications()).reports.tracks).toEqual([]);
    const statsAfter = (await call(mara, 'GET', '/api/user/tomas-ferreira/public')).json<{
      stats: { total_likes: number; total_plays: number };
    }>().stats;
    expect(statsAfter.total_likes).toBe(statsBefore.total_likes - 1);
    expect(statsAfter.total_plays).toBe(statsBefore.total_plays - 1);
    expect(await friendLikes(mara, 'tomas-ferreira')).toBe(statsAfter.total_likes);

    const feed = (await call(mara, 'GET', '/api/recent?limit=30')).json<{
      items: { track: { uid: string }; is_global: boolean; reported: boolean }[];
    }>();
    expect(feed.items.find((item) => item.track.uid === 'mod02')).toMatchObject({
      is_global: true,
      reported: true,
    });
    const list = (await call(mara, 'GET', '/api/ignore')).json<{
      tracks: { track: { uid: string }; is_global: boolean; reported: boolean }[];
    }>();
    expect(list.tracks.find((item) => item.track.uid === 'mod02')).toMatchObject({
      is_global: true,
      reported: true,
    });
    // Reporting what everyone already ignores is refused.
    expect((await call(mara, 'POST', '/api/ignore/track/mod02/report')).statusCode).toBe(409);

    const [latest] = (await history()).decisions;
    expect(latest).toMatchObject({
      action: 'approve',
      target_kind: 'track',
      target_key: 'mod02',
      target_label: `Fern — ${artist.name}`,
      // Tomas's report left with his ignore.
      report_count: 1,
      admin: { username: 'aiko-tanaka' },
    });
    expect(Date.now() - new Date(latest!.decided_at).getTime()).toBeLessThan(60_000);
    // Nothing left to decide.
    expect((await call(aiko, 'POST', '/api/admin/ignore/track/mod02/approve')).statusCode).toBe(
      404,
    );
  });

  it('shows admins every global item on their Ignored page', async () => {
    const list = (await call(aiko, 'GET', '/api/ignore')).json<{
      tracks: { track: { uid: string }; is_global: boolean; reported: boolean }[];
    }>();
    expect(list.tracks).toEqual([
      expect.objectContaining({
        track: expect.objectContaining({ uid: 'mod02' }),
        is_global: true,
      }),
    ]);
  });

  it('globally unignores: counted again, recorded, and only once', async () => {
    const before = await friendLikes(mara, 'tomas-ferreira');
    expect((await call(aiko, 'DELETE', '/api/admin/ignore/track/mod02')).statusCode).toBe(204);
    expect(await friendLikes(mara, 'tomas-ferreira')).toBe(before + 1);
    expect(await profileLikes(mara, 'tomas-ferreira')).toBe(before + 1);
    const feed = (await call(mara, 'GET', '/api/recent?limit=30')).json<{
      items: { track: { uid: string }; is_global: boolean }[];
    }>();
    expect(feed.items.find((item) => item.track.uid === 'mod02')?.is_global).toBe(false);
    // Mara still ignores it herself, still marked reported.
    const list = (await call(mara, 'GET', '/api/ignore')).json<{
      tracks: { track: { uid: string }; is_global: boolean; reported: boolean }[];
    }>();
    expect(list.tracks.find((item) => item.track.uid === 'mod02')).toMatchObject({
      is_global: false,
      reported: true,
    });
    expect((await history()).decisions[0]).toMatchObject({
      action: 'global_unignore',
      target_key: 'mod02',
      admin: { username: 'aiko-tanaka' },
    });
    expect((await call(aiko, 'DELETE', '/api/admin/ignore/track/mod02')).statusCode).toBe(404);
  });

  it('rejects: the report closes, the user keeps it ignored and marked reported', async () => {
    expect(
      (await call(aiko, 'POST', `/api/admin/ignore/artist/${artist.id}/reject`)).statusCode,
    ).toBe(204);
    expect((await notifications()).reports.artists).toEqual([]);
    const list = (await call(mara, 'GET', '/api/ignore')).json<{ artists: unknown[] }>();
    expect(list.artists).toEqual([
      { artist_id: artist.id, name: artist.name, is_global: false, reported: true },
    ]);
    expect((await history()).decisions[0]).toMatchObject({
      action: 'reject',
      target_kind: 'artist',
      target_label: artist.name,
      report_count: 1,
    });
  });
});
