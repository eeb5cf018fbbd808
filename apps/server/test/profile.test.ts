import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PublicProfile } from '@earshot/contract/profile';
import { globalIgnoredArtists, ignoredTracks } from '../src/db/schema/ignores';
import { savedTracks } from '../src/db/schema/library';
import { plays } from '../src/db/schema/listening';
import { storeArtists, storeTracks } from '../src/services/catalog';
import type { SpotifyTrack } from '../src/spotify/schemas';
import { startHarness, type Harness } from './support/harness';

let harness: Harness;
let mara: { cookie: string; id: string };
let tomas: { cookie: string; id: string };
let aiko: { cookie: string; id: string };

const DAY = 86_400_000;
const ago = (days: number, minutes = 0) => new Date(Date.now() - days * DAY - minutes * 60_000);

const artistX = { id: 'artistX0000000000000001', name: 'Xylo Park' };
const artistY = { id: 'artistY0000000000000001', name: 'Yara Bloom' };
const artistZ = { id: 'artistZ0000000000000001', name: 'Zed Noise' };

function track(
  id: string,
  name: string,
  artist: { id: string; name: string },
  year: string,
  durationMs: number,
  isrc?: string,
): SpotifyTrack {
  return {
    id,
    name,
    album: {
      id: `al-${id}`,
      name: `${name} LP`,
      release_date: year,
      artists: [artist],
      images: [],
    },
    artists: [artist],
    duration_ms: durationMs,
    ...(isrc && { external_ids: { isrc } }),
  };
}

beforeAll(async () => {
  harness = await startHarness();
  mara = await harness.signIn('maralindqvist');
  tomas = await harness.signIn('31kzt4wq7yv2jhd6ncx3bfrm5lpa');
  aiko = await harness.signIn('11183207465');
  await harness.befriend(mara, tomas);

  const db = harness.database.db;
  await storeTracks(db, [
    track('t1', 'Alpha', artistX, '1994-03-01', 200_000, 'ISRC00000001'),
    track('t2', 'Beta', artistY, '1975', 300_000),
    track('t3', 'Gamma', artistX, '2001-07', 100_000),
    track('t4', 'Alpha - Remastered', artistX, '2011', 250_000, 'ISRC00000001'),
    track('t5', 'Delta', artistZ, '2020', 150_000),
    track('t6', 'Epsilon', artistY, '2020', 250_000),
  ]);
  await storeArtists(db, [
    { ...artistX, genres: ['indie rock'] },
    { ...artistY, genres: ['jazz', 'bebop'] },
    { ...artistZ, genres: ['noise'] },
  ]);
  const play = (trackId: string, at: Date, msPlayed: number | null = null) => ({
    userId: mara.id,
    trackId,
    playedAt: at,
    source: msPlayed === null ? ('api' as const) : ('extended_history' as const),
    msPlayed,
  });
  await db
    .insert(plays)
    .values([
      play('t1', ago(2)),
      play('t1', ago(3)),
      play('t1', ago(100)),
      play('t4', ago(5), 120_000),
      play('t4', ago(50), 120_000),
      play('t2', ago(200, 1)),
      play('t2', ago(200, 2)),
      play('t2', ago(200, 3)),
      play('t2', ago(200, 4)),
      play('t3', ago(1)),
      ...[1, 2, 3, 4, 5].map((n) => play('t5', ago(4, n))),
      play('t6', ago(6)),
      play('t6', ago(7)),
    ]);
  await db
    .insert(savedTracks)
    .values(
      ['t1', 't2', 't5', 't6'].map((trackId) => ({ userId: mara.id, trackId, addedAt: ago(10) })),
    );
  await db.insert(ignoredTracks).values({ userId: mara.id, uid: 't6' });
  await db.insert(globalIgnoredArtists).values({ artistId: artistZ.id });
});
afterAll(() => harness.close());

const profile = (viewer?: { cookie: string }, handle = 'mara-lindqvist') =>
  harness.app.inject({
    url: `/api/user/${handle}/public`,
    headers: viewer ? { cookie: viewer.cookie } : {},
  });

describe('profile stats', () => {
  it('match the hand-computed figures, without ignored tracks and artists', async () => {
    const { stats } = (await profile(tomas)).json<PublicProfile>();
    expect(stats).toMatchObject({
      total_likes: 2,
      total_plays: 10,
      // t1 3 × 200 s, t4 2 × 120 s (as played), t2 4 × 300 s, t3 1 × 100 s
      total_listening_time_sec: 2140,
      // within 30 days: t1 2 × 200 s, t4 1 × 120 s, t3 100 s
      listening_time_last_30_days_sec: 620,
      most_played_decade: '1970s',
      most_played_genre: 'indie rock',
      playlists: 0,
      artists: 2,
    });
    expect(new Date(String(stats.tracking_since)).getTime()).toBeCloseTo(ago(200, 4).getTime(), -4);
  });

  it('rank songs by uid (versions together) and artists by plays', async () => {
    const { stats } = (await profile(tomas)).json<PublicProfile>();
    expect(stats.top_songs_all_time!.map((s) => [s.track.id, s.play_count])).toEqual([
      ['t1', 5],
      ['t2', 4],
      ['t3', 1],
    ]);
    expect(stats.top_songs_30_days!.map((s) => [s.track.id, s.play_count])).toEqual([
      ['t1', 3],
      ['t3', 1],
    ]);
    expect(stats.top_artists!.map((a) => [a.id, a.play_count])).toEqual([
      [artistX.id, 6],
      [artistY.id, 4],
    ]);
    expect(stats.weekly_plays).toHaveLength(52);
    expect(stats.weekly_plays!.reduce((sum, week) => sum + week.plays, 0)).toBe(10);
  });
});

describe('profile visibility', () => {
  it('shows visitors the stats card but no highlights', async () => {
    const body = (await profile()).json<PublicProfile>();
    expect(body).toMatchObject({
      user: { name: 'Mara Lindqvist', username: 'mara-lindqvist', is_friend: false },
      friendship: null,
      taste_match: null,
    });
    expect(body.stats).toMatchObject({
      total_plays: 10,
      top_songs_all_time: null,
      top_artists: null,
    });
  });

  it('shows a logged-in stranger no highlights either', async () => {
    const body = (await profile(aiko)).json<PublicProfile>();
    expect(body.friendship).toBe('none');
    expect(body.stats.top_artists).toBeNull();
  });

  it('shows friends the highlights and their taste match', async () => {
    const body = (await profile(tomas)).json<PublicProfile>();
    expect(body.user.is_friend).toBe(true);
    expect(body.taste_match).toBe(0);
  });

  it('shows the owner their own highlights', async () => {
    const body = (await profile(mara)).json<PublicProfile>();
    expect(body.friendship).toBe('self');
    expect(body.stats.top_artists).toHaveLength(2);
  });

  it('finds profiles by id too, and says when there is none', async () => {
    expect((await profile(undefined, mara.id)).statusCode).toBe(200);
    const missing = await profile(undefined, 'nobody-here');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ detail: 'Profile not found' });
  });
});
