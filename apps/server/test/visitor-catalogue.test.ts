import { SandboxClock } from '@earshot/spotify-sandbox/clock';
import type { SandboxClient } from '@earshot/spotify-sandbox/plugin';
import type { World } from '@earshot/spotify-sandbox/world/model';
import { createWorld } from '@earshot/spotify-sandbox/world/world';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  AlbumDetail,
  ArtistAlbums,
  ArtistDetail,
  PlaylistDetail,
  TrackDetail,
} from '@earshot/contract/catalogue';
import type { ErrorBody } from '@earshot/contract/errors';
import { AppTokenSource } from '../src/spotify/app-token';
import { startHarness, type Harness } from './support/harness';

const world: World = createWorld();
const clock = new SandboxClock({ frozen: true });
const MARA = 'maralindqvist';
const SECRET = { SPOTIFY_CLIENT_SECRET: 'earshot-test-secret' };

const artist = world.artists.find((candidate) => candidate.albumIds.length >= 3)!;
const album = world.album(artist.albumIds[0]!)!;
const playlists = world.playlistsOf(MARA, clock.now());
const publicPlaylist = playlists.find((p) => p.ownerId !== MARA && p.public)!;
const privatePlaylist = playlists.find((p) => p.ownerId === MARA && !p.public)!;

const visit = (harness: Harness, url: string) => harness.app.inject({ url });

async function visitorCalls(harness: Harness, outcome: string): Promise<number> {
  const values = (await harness.metrics.visitorFillCalls.get()).values;
  return values.find((value) => value.labels.outcome === outcome)?.value ?? 0;
}

describe.each<SandboxClient['mode']>(['extended', 'development'])(
  "visitors' pages filled with Earshot's own token, %s mode",
  (mode) => {
    let harness: Harness;

    beforeAll(async () => {
      harness = await startHarness({ mode, env: SECRET, sandbox: { world, clock } });
    });
    afterAll(() => harness.close());

    it('fills an artist, its releases, an album and a track no one opened before', async () => {
      const artistPage = await visit(harness, `/api/artist/${artist.id}`);
      expect(artistPage.statusCode).toBe(200);
      expect(artistPage.json<ArtistDetail>()).toMatchObject({
        name: artist.name,
        genres: mode === 'extended' ? [...artist.genres] : [],
        is_followed: null,
        user_liked_tracks: null,
        listening: null,
      });
      const releases = (
        await visit(harness, `/api/artist/${artist.id}/albums`)
      ).json<ArtistAlbums>();
      expect(releases.notice).toBeNull();
      for (const id of artist.albumIds) expect(releases.items.map((item) => item.id)).toContain(id);

      const albumPage = await visit(harness, `/api/album/${album.id}`);
      expect(albumPage.statusCode).toBe(200);
      expect(albumPage.json<AlbumDetail>().tracks).toHaveLength(album.trackIds.length);

      const trackId = world.albums.at(-1)!.trackIds[0]!;
      const trackPage = await visit(harness, `/api/track/${trackId}`);
      expect(trackPage.statusCode).toBe(200);
      expect(trackPage.json<TrackDetail>().track.id).toBe(trackId);
      expect(await visitorCalls(harness, 'made')).toBeGreaterThan(0);
    });

    it('reads a public playlist (its tracks where the mode allows) and finds no private one', async () => {
      const page = await visit(harness, `/api/playlist/${publicPlaylist.id}`);
      expect(page.statusCode).toBe(200);
      const body = page.json<PlaylistDetail>();
      expect(body.name).toBe(publicPlaylist.name);
      if (mode === 'extended') {
        expect(body.notice).toBeNull();
        expect(body.tracks.length).toBeGreaterThan(0);
      } else {
        expect(body).toMatchObject({
          tracks: [],
          notice: "Spotify shows this playlist's tracks only to its owner and collaborators.",
        });
      }
      const hidden = await visit(harness, `/api/playlist/${privatePlaylist.id}`);
      expect(hidden.statusCode).toBe(404);
      expect(hidden.json()).toEqual({ detail: 'Playlist not found' });
    });

    it('asks nothing while Spotify makes the app wait, and says when to come back', async () => {
      // An app of its own: the wait would refuse the other tests' calls, whichever runs first.
      const waiting = await startHarness({ mode, env: SECRET, sandbox: { world, clock } });
      try {
        const unknownToEarshot = world.albums.at(-2)!.trackIds[0]!;
        waiting.spotify.http.gate.noteRetryAfter('GET /tracks', 2);
        const answer = await visit(waiting, `/api/track/${unknownToEarshot}`);
        expect(answer.statusCode).toBe(503);
        expect(Number(answer.headers['retry-after'])).toBeGreaterThan(0);
        expect(answer.json<ErrorBody>().detail).toMatch(/^Spotify is busy\. Please try again in /);
        expect(await visitorCalls(waiting, 'rate_limited')).toBe(1);
      } finally {
        await waiting.close();
      }
    });
  },
);

describe("the visitors' budget", () => {
  let harness: Harness;

  beforeAll(async () => {
    harness = await startHarness({
      env: { ...SECRET, VISITOR_FILL_BUDGET_PER_30S: '2' },
      sandbox: { world, clock },
    });
  });
  afterAll(() => harness.close());

  it('spends at most its calls per 30 s, then serves what is stored; users spend their own', async () => {
    const [first, second, third] = world.albums.slice(0, 3).map((each) => each.trackIds[0]!);
    expect((await visit(harness, `/api/track/${first}`)).statusCode).toBe(200);
    expect((await visit(harness, `/api/track/${second}`)).statusCode).toBe(200);
    const over = await visit(harness, `/api/track/${third}`);
    expect(over.statusCode).toBe(503);
    expect(over.json<ErrorBody>().detail).toMatch(
      /^Spotify is busy\. Please try again in \d+ seconds\.$/,
    );
    expect(await visitorCalls(harness, 'over_budget')).toBe(1);

    // What is stored is served without a call.
    expect((await visit(harness, `/api/track/${first}`)).statusCode).toBe(200);
    const mara = await harness.signIn(MARA);
    const own = await harness.app.inject({
      url: `/api/track/${third}`,
      headers: { cookie: mara.cookie },
    });
    expect(own.statusCode).toBe(200);
    expect(await visitorCalls(harness, 'made')).toBe(2);

    const scraped = await harness.app.inject({ url: '/metrics' });
    expect(scraped.body).toContain('earshot_visitor_fill_calls_total{outcome="over_budget"} 1');
  });
});

describe("Earshot's own token", () => {
  it('is asked for once, shared by callers meanwhile, and again shortly before it expires', async () => {
    let now = 0;
    let issued = 0;
    const source = new AppTokenSource(
      () =>
        Promise.resolve({
          access_token: `token-${++issued}`,
          token_type: 'Bearer',
          expires_in: 3600,
          scope: '',
        }),
      () => now,
    );
    expect(await Promise.all([source.accessToken(), source.accessToken()])).toEqual([
      'token-1',
      'token-1',
    ]);
    now = 3_539_000;
    expect(await source.accessToken()).toBe('token-1');
    now = 3_541_000;
    expect(await source.accessToken()).toBe('token-2');
    expect(await source.renewedAccessToken()).toBe('token-3');
    expect(await source.accessToken()).toBe('token-3');
  });
});
