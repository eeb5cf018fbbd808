import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActivityPage } from '@earshot/contract/activity';
import type { AdminNotifications, ModerationHistory } from '@earshot/contract/admin';
import type { ErrorBody } from '@earshot/contract/errors';
import type { FriendList } from '@earshot/contract/friendship';
import type { IgnoredList } from '@earshot/contract/ignore';
import type { PublicProfile } from '@earshot/contract/profile';
import { moderationDecisions } from '../src/db/schema/ignores';
import { savedTracks } from '../src/db/schema/library';
import { plays } from '../src/db/schema/listening';
import { storeTracks } from '../src/services/catalog';
import { startHarness, type Harness, type Viewer } from './support/harness';
import { soloTrack } from './support/tracks';

let harness: Harness;
let mara: Viewer;
let tomas: Viewer;
let aiko: Viewer;

const artist = { id: 'artistM0000000000000001', name: 'Moss Relay' };
const track = (id: string, name: string) =>
  soloTrack(artist, id, { name, album: `${name} EP`, releaseDate: '2019', durationMs: 180_000 });

const call = (...request: Parameters<Harness['request']>) => harness.request(...request);
type Method = Parameters<typeof call>[1];

async function friendLikes(viewer: Viewer, username: string): Promise<number> {
  const list = (await call(viewer, 'GET', '/api/friendship/list')).json<FriendList>();
  const friend = list.friends.find((entry) => entry.username === username);
  if (!friend) throw new Error(`${username} is not in the list`);
  return friend.likes;
}

async function profileLikes(viewer: Viewer, username: string): Promise<number> {
  const profile = (await call(viewer, 'GET', `/api/user/${username}/public`)).json<PublicProfile>();
  return profile.stats.total_likes;
}

beforeAll(async () => {
  harness = await startHarness({ env: { ADMIN_EMAILS: 'Aiko.Tanaka@example.com' } });
  mara = await harness.signIn('maralindqvist');
  tomas = await harness.signIn('31kzt4wq7yv2jhd6ncx3bfrm5lpa');
  aiko = await harness.signIn('11183207465');
  await harness.befriend(mara, tomas);
  const db = harness.database.db;
  await storeTracks(db, [track('mod01', 'Lichen')]);
  await db.insert(savedTracks).values({ userId: tomas.id, trackId: 'mod01', addedAt: new Date() });
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

const notifications = async () =>
  (await call(aiko, 'GET', '/api/admin/notifications')).json<AdminNotifications>();

const history = async () =>
  (await call(aiko, 'GET', '/api/admin/history')).json<ModerationHistory>();

let songs = 0;
/**
 * A song of the test's own (its name too: songs of one artist with one title are one song),
 * which Tomas, Mara's friend, has liked and played.
 */
async function tomasSong(name: string, by = artist): Promise<string> {
  const id = `mod${String(++songs).padStart(2, '0')}x`;
  const db = harness.database.db;
  await storeTracks(db, [
    soloTrack(by, id, { name, album: `${name} EP`, releaseDate: '2019', durationMs: 180_000 }),
  ]);
  await db.insert(savedTracks).values({ userId: tomas.id, trackId: id, addedAt: new Date() });
  // Each play its own second: a user's plays are keyed by their time.
  const playedAt = new Date(Date.now() - songs * 1000);
  await db.insert(plays).values({ userId: tomas.id, trackId: id, playedAt, source: 'api' });
  return id;
}

let bands = 0;
/** An artist of the test's own, known to Earshot through one song. */
async function band(name: string) {
  const own = { id: `artistB${String(++bands).padStart(16, '0')}`, name };
  await tomasSong(`${name} single`, own);
  return own;
}

/** Mara reports the song and an admin approves: it is ignored for everyone. */
async function globallyIgnored(name: string): Promise<string> {
  const song = await tomasSong(name);
  await call(mara, 'POST', `/api/ignore/track/${song}/report`);
  expect((await call(aiko, 'POST', `/api/admin/ignore/track/${song}/approve`)).statusCode).toBe(
    204,
  );
  return song;
}

describe('admin routes: authorization before validation', () => {
  const routes: [Method, string, object?][] = [
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
    expect(bad.json<ErrorBody>().detail).toContain('Please enter a valid e-mail address.');
    expect(
      (await call(aiko, 'DELETE', `/api/admin/ignore/track/${'x'.repeat(80)}`)).statusCode,
    ).toBe(400);
    expect((await call(aiko, 'GET', '/api/user/me')).json()).toMatchObject({ is_admin: true });
    expect((await call(mara, 'GET', '/api/user/me')).json()).toMatchObject({ is_admin: false });
  });
});

describe('reports and their review', () => {
  it('counts each user once per song and per artist', async () => {
    const song = await tomasSong('Fern');
    const reported = await band('Static Choir');
    await call(mara, 'POST', `/api/ignore/track/${song}/report`);
    await call(mara, 'POST', `/api/ignore/track/${song}/report`);
    await call(tomas, 'POST', `/api/ignore/track/${song}`);
    await call(tomas, 'POST', `/api/ignore/track/${song}/report`);
    await call(mara, 'POST', `/api/ignore/artist/${reported.id}/report`);
    const waiting = await notifications();
    expect(waiting.reports.tracks.filter((item) => item.uid === song)).toEqual([
      {
        uid: song,
        title: 'Fern',
        artists: [{ id: artist.id, name: artist.name }],
        report_count: 2,
      },
    ]);
    expect(waiting.reports.artists.filter((item) => item.artist_id === reported.id)).toEqual([
      { artist_id: reported.id, name: reported.name, report_count: 1 },
    ]);
  });

  it('approves: the song is ignored for everyone, in stats and feeds, and recorded', async () => {
    const song = await tomasSong('Frond');
    await call(mara, 'POST', `/api/ignore/track/${song}/report`);
    await call(tomas, 'POST', `/api/ignore/track/${song}`);
    await call(tomas, 'POST', `/api/ignore/track/${song}/report`);
    // Tomas un-ignores his own copy: only the global ignore can leave it out of his figures.
    await call(tomas, 'DELETE', `/api/ignore/track/${song}`);
    const statsBefore = (
      await call(mara, 'GET', '/api/user/tomas-ferreira/public')
    ).json<PublicProfile>().stats;
    const approve = await call(aiko, 'POST', `/api/admin/ignore/track/${song}/approve`);
    expect(approve.statusCode).toBe(204);

    const waiting = await notifications();
    expect(waiting.reports.tracks.filter((item) => item.uid === song)).toEqual([]);
    const statsAfter = (
      await call(mara, 'GET', '/api/user/tomas-ferreira/public')
    ).json<PublicProfile>().stats;
    expect(statsAfter.total_likes).toBe(statsBefore.total_likes - 1);
    expect(statsAfter.total_plays).toBe(statsBefore.total_plays - 1);
    expect(await friendLikes(mara, 'tomas-ferreira')).toBe(statsAfter.total_likes);

    const feed = (await call(mara, 'GET', '/api/recent?limit=30')).json<ActivityPage>();
    expect(feed.items.find((item) => item.track.uid === song)).toMatchObject({
      is_global: true,
      reported: true,
    });
    const list = (await call(mara, 'GET', '/api/ignore')).json<IgnoredList>();
    expect(list.tracks.find((item) => item.track.uid === song)).toMatchObject({
      is_global: true,
      reported: true,
    });
    // Reporting what everyone already ignores is refused.
    expect((await call(mara, 'POST', `/api/ignore/track/${song}/report`)).statusCode).toBe(409);

    const [latest] = (await history()).decisions;
    expect(latest).toMatchObject({
      action: 'approve',
      target_kind: 'track',
      target_key: song,
      target_label: `Frond — ${artist.name}`,
      // Tomas's report left with his ignore.
      report_count: 1,
      admin: { username: 'aiko-tanaka' },
    });
    expect(Date.now() - new Date(latest!.decided_at).getTime()).toBeLessThan(60_000);
    // Nothing left to decide.
    expect((await call(aiko, 'POST', `/api/admin/ignore/track/${song}/approve`)).statusCode).toBe(
      404,
    );
  });

  it('shows admins every global item on their Ignored page', async () => {
    const song = await globallyIgnored('Moss');
    const list = (await call(aiko, 'GET', '/api/ignore')).json<IgnoredList>();
    expect(list.tracks.find((item) => item.track.uid === song)).toMatchObject({ is_global: true });
    // Aiko ignores nothing herself: everything listed is there for being global.
    expect(list.tracks.filter((item) => !item.is_global)).toEqual([]);
  });

  it('globally unignores: counted again, recorded, and only once', async () => {
    const song = await globallyIgnored('Bracken');
    const before = await friendLikes(mara, 'tomas-ferreira');
    expect((await call(aiko, 'DELETE', `/api/admin/ignore/track/${song}`)).statusCode).toBe(204);
    expect(await friendLikes(mara, 'tomas-ferreira')).toBe(before + 1);
    expect(await profileLikes(mara, 'tomas-ferreira')).toBe(before + 1);
    const feed = (await call(mara, 'GET', '/api/recent?limit=30')).json<ActivityPage>();
    expect(feed.items.find((item) => item.track.uid === song)?.is_global).toBe(false);
    // Mara still ignores it herself, still marked reported.
    const list = (await call(mara, 'GET', '/api/ignore')).json<IgnoredList>();
    expect(list.tracks.find((item) => item.track.uid === song)).toMatchObject({
      is_global: false,
      reported: true,
    });
    expect((await history()).decisions[0]).toMatchObject({
      action: 'global_unignore',
      target_key: song,
      admin: { username: 'aiko-tanaka' },
    });
    expect((await call(aiko, 'DELETE', `/api/admin/ignore/track/${song}`)).statusCode).toBe(404);
  });

  it('rejects: the report closes, the user keeps it ignored and marked reported', async () => {
    const reported = await band('Noise Bros');
    await call(mara, 'POST', `/api/ignore/artist/${reported.id}/report`);
    expect(
      (await call(aiko, 'POST', `/api/admin/ignore/artist/${reported.id}/reject`)).statusCode,
    ).toBe(204);
    const waiting = await notifications();
    expect(waiting.reports.artists.filter((item) => item.artist_id === reported.id)).toEqual([]);
    const list = (await call(mara, 'GET', '/api/ignore')).json<IgnoredList>();
    expect(list.artists.find((item) => item.artist_id === reported.id)).toEqual({
      artist_id: reported.id,
      name: reported.name,
      is_global: false,
      reported: true,
    });
    expect((await history()).decisions[0]).toMatchObject({
      action: 'reject',
      target_kind: 'artist',
      target_label: reported.name,
      report_count: 1,
    });
  });
});

describe("the history of an admin's decisions", () => {
  it('keeps a decision whose admin deleted their account, with no admin named', async () => {
    // As account deletion leaves it: the admin's id set to null, the decision kept.
    await harness.database.db.insert(moderationDecisions).values({
      adminId: null,
      action: 'beta_accept',
      targetKind: 'beta',
      targetKey: 'former.admin.choice@example.com',
      targetLabel: 'former.admin.choice@example.com',
      decidedAt: new Date(Date.now() - 86_400_000),
    });
    await call(aiko, 'POST', '/api/admin/notifications/beta/accept', {
      email: 'current.admin.choice@example.com',
    });
    const byKey = new Map((await history()).decisions.map((entry) => [entry.target_key, entry]));
    expect(byKey.get('former.admin.choice@example.com')?.admin).toBeNull();
    expect(byKey.get('current.admin.choice@example.com')?.admin).toEqual({
      id: aiko.id,
      name: 'Aiko Tanaka',
      username: 'aiko-tanaka',
    });
  });
});
