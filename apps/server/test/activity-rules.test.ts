// Feed rules that test/activity.test.ts's small world cannot show: plays and likes at the same
// instant found by different parts of a search, titles with LIKE's special characters, a word
// matching thousands of tracks, and cursors that only the service itself could be handed.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActivityPage } from '@earshot/contract/activity';
import { tracks } from '../src/db/schema/catalog';
import { savedTracks } from '../src/db/schema/library';
import { plays } from '../src/db/schema/listening';
import { users, type UserRow } from '../src/db/schema/users';
import { HttpError } from '../src/errors';
import { likedActivity, recentActivity } from '../src/services/activity';
import { storeTracks } from '../src/services/catalog';
import { startHarness, type Harness, type Viewer } from './support/harness';
import { soloTrack } from './support/tracks';

let harness: Harness;
let mara: Viewer;
let tomas: Viewer;
let aiko: Viewer;

const artist = { id: 'artistE0000000000000001', name: 'The Embers' };
const track = (id: string, name: string) => soloTrack(artist, id, { name, durationMs: 180_000 });

/** The instant at which Tomas and Aiko both play and like something. */
const together = new Date('2024-05-17T10:00:00Z');
/** More tracks with "kindling" in the title than a search collects one by one. */
const KINDLING_TRACKS = 2100;

beforeAll(async () => {
  harness = await startHarness();
  mara = await harness.signIn('maralindqvist');
  tomas = await harness.signIn('31kzt4wq7yv2jhd6ncx3bfrm5lpa');
  aiko = await harness.signIn('11183207465');
  await harness.befriend(mara, tomas);
  await harness.befriend(mara, aiko);
  const db = harness.database.db;
  // Stored before the played one, so a search that kept only the first matches would miss it.
  await db.insert(tracks).values(
    Array.from({ length: KINDLING_TRACKS }, (_, i) => ({
      id: `kindling-${i}`,
      uid: `kindling-${i}`,
      name: `Kindling ${i}`,
      titleKey: `kindling ${i}|x`,
      searchText: `kindling ${i}`,
    })),
  );
  await storeTracks(db, [
    track('tr-ode', 'Ode to Aiko'),
    track('tr-letter', 'Letter to Tomas'),
    track('tr-quiet', 'Quiet Hours'),
    track('tr-percent', '100% Pure'),
    track('tr-snake', 'Snake_Case Blues'),
    track('tr-slash', 'Back\\Slash'),
    track('tr-kindling', 'Last Kindling'),
  ]);
  await db.insert(plays).values([
    { userId: tomas.id, trackId: 'tr-ode', playedAt: together, source: 'api' },
    { userId: aiko.id, trackId: 'tr-letter', playedAt: together, source: 'api' },
    {
      userId: tomas.id,
      trackId: 'tr-quiet',
      playedAt: new Date('2024-05-16T09:00:00Z'),
      source: 'api',
    },
    {
      userId: aiko.id,
      trackId: 'tr-percent',
      playedAt: new Date('2024-04-01T00:00:00Z'),
      source: 'api',
    },
    {
      userId: aiko.id,
      trackId: 'tr-snake',
      playedAt: new Date('2024-04-02T00:00:00Z'),
      source: 'api',
    },
    {
      userId: aiko.id,
      trackId: 'tr-slash',
      playedAt: new Date('2024-04-03T00:00:00Z'),
      source: 'api',
    },
    {
      userId: tomas.id,
      trackId: 'tr-kindling',
      playedAt: new Date('2024-03-01T00:00:00Z'),
      source: 'api',
    },
  ]);
  // Tomas likes two songs at once (as an album save does); Aiko likes one at the same instant.
  await db.insert(savedTracks).values([
    { userId: tomas.id, trackId: 'tr-ode', addedAt: together },
    { userId: tomas.id, trackId: 'tr-quiet', addedAt: together },
    { userId: aiko.id, trackId: 'tr-letter', addedAt: together },
  ]);
});
afterAll(() => harness.close());

async function feed(viewer: Viewer, path: string, query: Record<string, string> = {}) {
  return harness.app.inject({
    url: `${path}?${new URLSearchParams(query)}`,
    headers: { cookie: viewer.cookie },
  });
}
const rows = async (viewer: Viewer, path: string, query: Record<string, string> = {}) =>
  (await feed(viewer, path, query))
    .json<ActivityPage>()
    .items.map((item) => `${item.user.username}:${item.track.id}@${item.date.slice(0, 16)}`);

describe('a search lists its matches in the feed’s own order', () => {
  // The unsearched feed orders rows at one instant by user, then track; a search finds some rows
  // by the user's name and others by the title, and must still merge them in that order.
  it.each(['/api/recent', '/api/likes'])(
    '%s: same-instant rows found by name and by title keep the feed’s order',
    async (path) => {
      const feedOrder = (await rows(mara, path)).filter((row) => row.endsWith('2024-05-17T10:00'));
      expect(feedOrder.length).toBeGreaterThanOrEqual(2);
      // "tomas" finds Tomas by name and Aiko's "Letter to Tomas" by title; "aiko" the reverse.
      for (const q of ['tomas', 'aiko']) {
        const found = (await rows(mara, path, { q })).filter((row) =>
          row.endsWith('2024-05-17T10:00'),
        );
        // Both friends' rows at that instant match; in the likes, "aiko" leaves out "Quiet Hours".
        expect(found.length, q).toBeGreaterThanOrEqual(2);
        expect(found, q).toEqual(feedOrder.filter((row) => found.includes(row)));
      }
    },
  );

  it('keeps the feed’s order of songs one user liked at the same instant', async () => {
    const feedOrder = (await rows(mara, '/api/likes', { user: 'tomas-ferreira' })).slice(0, 2);
    expect(feedOrder.map((row) => row.split('@')[0])).toEqual([
      'tomas-ferreira:tr-quiet',
      'tomas-ferreira:tr-ode',
    ]);
    const found = await rows(mara, '/api/likes', { q: 'tomas' });
    expect(found.filter((row) => row.startsWith('tomas-ferreira:')).slice(0, 2)).toEqual(feedOrder);
  });

  it('pages through a search across an instant shared by two users without losing a row', async () => {
    const all = await rows(mara, '/api/recent', { q: 'tomas' });
    const first = (
      await feed(mara, '/api/recent', { q: 'tomas', limit: '1' })
    ).json<ActivityPage>();
    const rest = await rows(mara, '/api/recent', {
      q: 'tomas',
      limit: '50',
      before: first.next_before!,
    });
    expect([
      ...first.items.map(
        (item) => `${item.user.username}:${item.track.id}@${item.date.slice(0, 16)}`,
      ),
      ...rest,
    ]).toEqual(all);
  });
});

describe('searching one user’s activity', () => {
  it('matches the user’s own name as well as their tracks', async () => {
    expect(await rows(mara, '/api/recent', { user: 'tomas-ferreira', q: 'tomas' })).toEqual(
      await rows(mara, '/api/recent', { user: 'tomas-ferreira' }),
    );
    expect(await rows(mara, '/api/recent', { user: 'tomas-ferreira', q: 'quiet' })).toEqual([
      'tomas-ferreira:tr-quiet@2024-05-16T09:00',
    ]);
    expect(await rows(mara, '/api/recent', { user: 'aiko-tanaka', q: 'quiet' })).toEqual([]);
  });
});

describe('search text is literal', () => {
  it.each([
    ['100%', 'tr-percent'],
    ['0% p', 'tr-percent'],
    ['snake_case', 'tr-snake'],
    ['e_c', 'tr-snake'],
    ['back\\slash', 'tr-slash'],
  ])('q=%s finds the title that holds it', async (q, id) => {
    const page = (await feed(mara, '/api/recent', { q })).json<ActivityPage>();
    expect(page.items.map((item) => item.track.id)).toEqual([id]);
  });
});

describe('a word that matches thousands of tracks', () => {
  it('still finds plays of any of them, the last stored included', async () => {
    expect(await rows(mara, '/api/recent', { q: 'kindling' })).toEqual([
      'tomas-ferreira:tr-kindling@2024-03-01T00:00',
    ]);
    expect(await rows(mara, '/api/likes', { q: 'kindling' })).toEqual([]);
  });
});

describe('before cursors', () => {
  const cursor = (text: string) => Buffer.from(text, 'utf8').toString('base64url');

  it.each([
    ['an exponent', '17e11'],
    ['a sign', '+1715940000000'],
    ['a negative sign', '-1'],
    ['hexadecimal', '0x18F7E1A2B00'],
    ['surrounding space', ' 1715940000000'],
    ['more than 15 digits', '0001715940000000'],
  ])('refuses a time written with %s: only plain digits are ever written', async (_what, ms) => {
    for (const path of ['/api/recent', '/api/likes']) {
      const response = await feed(mara, path, { before: cursor(`${ms}.${tomas.id}.tr-ode`) });
      expect(response.statusCode, path).toBe(400);
      expect(response.json()).toEqual({
        detail: 'Invalid before cursor: use next_before of the previous page.',
      });
    }
  });

  // The route caps `before` at 200 characters; the service does not rely on its callers for that.
  it('refuses, in the service itself, a track id longer than 200 characters', async () => {
    const [viewer] = await harness.database.db.select().from(users).where(eq(users.id, mara.id));
    const read = (trackId: string, service: typeof recentActivity) =>
      service(harness.database.db, viewer as UserRow, {
        limit: 5,
        includeMe: true,
        before: cursor(`${Date.parse('2030-01-01T00:00:00Z')}.${tomas.id}.${trackId}`),
      });
    for (const service of [recentActivity, likedActivity]) {
      const longest = await read('t'.repeat(200), service);
      expect(longest.items.length).toBeGreaterThan(0);
      const tooLong = read('t'.repeat(201), service);
      await expect(tooLong).rejects.toBeInstanceOf(HttpError);
      await expect(tooLong).rejects.toMatchObject({ statusCode: 400 });
    }
  });
});
