import { describe, expect, it } from 'vitest';
import {
  allScopesBut,
  API_BASE,
  apiError,
  PREMIUM_ACCOUNT,
  TEST_START,
  testSandbox,
  type Json,
} from './support/web-api';
import { MALFORMED_ID, someArtist, someTrack, UNKNOWN_ID, world } from './support/world-fixtures';

const isoSeconds = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** A track and an artist the test account has not saved or followed at the start. */
function unsavedTrack() {
  const saved = new Set(world.savedTracks(PREMIUM_ACCOUNT, TEST_START).map((s) => s.trackId));
  const track = world.tracks.find(({ id }) => !saved.has(id));
  if (!track) throw new Error('every track is saved');
  return track;
}
function unfollowedArtist() {
  const followed = new Set(
    world.followedArtists(PREMIUM_ACCOUNT, TEST_START).map((f) => f.artistId),
  );
  const artist = world.artists.find(({ id }) => !followed.has(id));
  if (!artist) throw new Error('every artist is followed');
  return artist;
}

describe('GET /v1/me/tracks', () => {
  it('pages the saved tracks, most recently added first, with added_at', async () => {
    const user = await (await testSandbox()).user();
    const saved = world.savedTracks(PREMIUM_ACCOUNT, TEST_START);

    const page = await user.ok('/me/tracks?offset=20&limit=10');

    expect(page).toMatchObject({
      href: `${API_BASE}/me/tracks?offset=20&limit=10`,
      limit: 10,
      offset: 20,
      next: `${API_BASE}/me/tracks?offset=30&limit=10`,
      previous: `${API_BASE}/me/tracks?offset=10&limit=10`,
      total: saved.length,
    });
    expect(page.items.map((item: Json) => [item.added_at, item.track.id])).toEqual(
      saved.slice(20, 30).map(({ trackId, addedAt }) => [isoSeconds(addedAt), trackId]),
    );
    const first = await user.ok('/me/tracks');
    expect(first.limit).toBe(20);
    expect(first.previous).toBeNull();
  });

  it('needs user-library-read', async () => {
    const user = await (await testSandbox()).user({ scope: allScopesBut('user-library-read') });

    const response = await user.get('/me/tracks');

    expect(response.status).toBe(403);
    expect(response.body).toEqual(apiError(403, 'Insufficient client scope'));
  });
});

describe('PUT/DELETE /v1/me/tracks and /contains (Extended Quota Mode)', () => {
  it('saves at the clock’s time, shows it first in /me/tracks, and removes it', async () => {
    const sandbox = await testSandbox();
    const user = await sandbox.user();
    const track = unsavedTrack();
    sandbox.clock.advance(60_000);

    const saved = await user.request('PUT', `/me/tracks?ids=${track.id}`);
    expect(saved.status).toBe(200);
    expect(saved.raw.body).toBe('');

    const page = await user.ok('/me/tracks?limit=1');
    expect(page.items[0]).toMatchObject({
      added_at: isoSeconds(TEST_START + 60_000),
      track: { id: track.id },
    });
    expect(await user.ok(`/me/tracks/contains?ids=${track.id},${someTrack(1).id}`)).toEqual([
      true,
      world.savedTracks(PREMIUM_ACCOUNT, TEST_START).some((s) => s.trackId === someTrack(1).id),
    ]);

    expect((await user.request('DELETE', `/me/tracks?ids=${track.id}`)).status).toBe(200);
    expect(await user.ok(`/me/tracks/contains?ids=${track.id}`)).toEqual([false]);
    expect((await user.ok('/me/tracks?limit=1')).total).toBe(page.total - 1);
  });

  it('takes the ids from a JSON body too, and ignores ids of no track', async () => {
    const user = await (await testSandbox()).user();
    const track = unsavedTrack();

    const response = await user.request('PUT', '/me/tracks', { ids: [track.id, UNKNOWN_ID] });

    expect(response.status).toBe(200);
    expect(await user.ok(`/me/tracks/contains?ids=${track.id},${UNKNOWN_ID}`)).toEqual([
      true,
      false,
    ]);
  });

  it('checks ids and scopes', async () => {
    const sandbox = await testSandbox();
    const user = await sandbox.user();
    const readOnly = await sandbox.user({ scope: 'user-library-read' });

    expect((await user.request('PUT', `/me/tracks?ids=${MALFORMED_ID}`)).body).toEqual(
      apiError(400, 'Invalid base62 id'),
    );
    expect((await user.request('PUT', '/me/tracks', {})).status).toBe(400);
    const tooMany = Array.from({ length: 51 }, () => someTrack().id).join(',');
    expect((await user.request('PUT', `/me/tracks?ids=${tooMany}`)).status).toBe(400);
    expect((await readOnly.request('PUT', `/me/tracks?ids=${someTrack().id}`)).body).toEqual(
      apiError(403, 'Insufficient client scope'),
    );
  });

  it('answers 403 in Development Mode', async () => {
    const user = await (await testSandbox()).user({ mode: 'development' });
    const id = someTrack().id;

    for (const [method, url] of [
      ['PUT', `/me/tracks?ids=${id}`],
      ['DELETE', `/me/tracks?ids=${id}`],
      ['GET', `/me/tracks/contains?ids=${id}`],
    ] as const) {
      expect((await user.request(method, url)).body).toEqual(apiError(403, 'Forbidden'));
    }
  });
});

describe('/v1/me/library', () => {
  it.each(['development', 'extended'] as const)(
    'saves tracks and follows artists by URI in %s mode',
    async (mode) => {
      const user = await (await testSandbox()).user({ mode });
      const track = unsavedTrack();
      const artist = unfollowedArtist();
      const uris = `spotify:track:${track.id},spotify:artist:${artist.id}`;

      expect(await user.ok(`/me/library/contains?uris=${uris}`)).toEqual([false, false]);
      const saved = await user.request('PUT', `/me/library?uris=${uris}`);
      expect(saved.status).toBe(200);
      expect(saved.raw.body).toBe('');

      expect(await user.ok(`/me/library/contains?uris=${uris}`)).toEqual([true, true]);
      expect((await user.ok('/me/tracks?limit=1')).items[0].track.id).toBe(track.id);
      expect((await user.ok('/me/following?type=artist&limit=1')).artists.items[0].id).toBe(
        artist.id,
      );

      expect((await user.request('DELETE', `/me/library?uris=${uris}`)).status).toBe(200);
      expect(await user.ok(`/me/library/contains?uris=${uris}`)).toEqual([false, false]);
    },
  );

  it('needs the library scope for tracks and the follow scope for artists', async () => {
    const sandbox = await testSandbox();
    const libraryOnly = await sandbox.user({ scope: 'user-library-modify user-library-read' });
    const track = `spotify:track:${someTrack().id}`;
    const artist = `spotify:artist:${someArtist().id}`;

    expect((await libraryOnly.request('PUT', `/me/library?uris=${track}`)).status).toBe(200);
    expect((await libraryOnly.request('PUT', `/me/library?uris=${track},${artist}`)).body).toEqual(
      apiError(403, 'Insufficient client scope'),
    );
    expect((await libraryOnly.get(`/me/library/contains?uris=${artist}`)).status).toBe(403);
    expect(await libraryOnly.ok(`/me/library/contains?uris=${track}`)).toEqual([true]);
  });

  it('refuses missing, malformed, unsupported and too many URIs', async () => {
    const user = await (await testSandbox()).user();
    const track = `spotify:track:${someTrack().id}`;

    expect((await user.request('PUT', '/me/library')).body).toEqual(
      apiError(400, 'Missing required parameter: uris'),
    );
    expect((await user.request('PUT', '/me/library?uris=spotify:track')).body).toEqual(
      apiError(400, 'Invalid URI: spotify:track'),
    );
    expect((await user.request('PUT', '/me/library?uris=spotify:song:abc')).body).toEqual(
      apiError(400, 'Unsupported URI type: song'),
    );
    expect(
      (await user.request('PUT', `/me/library?uris=spotify:track:${MALFORMED_ID}`)).body,
    ).toEqual(apiError(400, 'Invalid base62 id'));
    const album = `spotify:album:${world.albums[0]?.id}`;
    expect((await user.request('PUT', `/me/library?uris=${album}`)).status).toBe(400);
    const many = Array.from({ length: 41 }, () => track).join(',');
    expect((await user.request('PUT', `/me/library?uris=${many}`)).status).toBe(400);
    expect(
      (await user.request('PUT', `/me/library?uris=${Array(40).fill(track).join(',')}`)).status,
    ).toBe(200);
  });
});

describe('GET /v1/me/following?type=artist', () => {
  it('walks every followed artist by cursor, most recently followed first', async () => {
    const user = await (await testSandbox()).user();
    const followed = world.followedArtists(PREMIUM_ACCOUNT, TEST_START).map((f) => f.artistId);

    const seen: string[] = [];
    let url: string | null = '/me/following?type=artist&limit=30';
    let last: Json;
    while (url) {
      last = (await user.ok(url)).artists;
      expect(last.total).toBe(followed.length);
      expect(last.limit).toBe(30);
      seen.push(...last.items.map((item: Json) => item.id));
      url = last.next ? String(last.next).slice(API_BASE.length) : null;
      if (url) expect(last.cursors.after).toBe(seen.at(-1));
    }

    expect(seen).toEqual(followed);
    expect(last.cursors).toEqual({ after: null });
    expect(last.next).toBeNull();
  });

  it('links the next page with the after cursor', async () => {
    const user = await (await testSandbox()).user();

    const { artists } = await user.ok('/me/following?type=artist&limit=2');

    const after = artists.items[1].id;
    expect(artists.href).toBe(`${API_BASE}/me/following?type=artist&limit=2`);
    expect(artists.next).toBe(`${API_BASE}/me/following?type=artist&after=${after}&limit=2`);
    expect(artists.cursors).toEqual({ after });
    expect(artists.items[0]).toHaveProperty('genres');
  });

  it('checks type, limit, cursor and scope', async () => {
    const sandbox = await testSandbox();
    const user = await sandbox.user();

    expect((await user.get('/me/following')).body).toEqual(apiError(400, 'Missing parameter type'));
    expect((await user.get('/me/following?type=user')).status).toBe(400);
    expect((await user.get('/me/following?type=artist&limit=51')).status).toBe(400);
    expect((await user.get(`/me/following?type=artist&after=${MALFORMED_ID}`)).status).toBe(400);
    const unscoped = await sandbox.user({ scope: allScopesBut('user-follow-read') });
    expect((await unscoped.get('/me/following?type=artist')).body).toEqual(
      apiError(403, 'Insufficient client scope'),
    );
  });
});

describe('PUT/DELETE /v1/me/following (Extended Quota Mode)', () => {
  it('follows and unfollows artists by id, answering 204', async () => {
    const user = await (await testSandbox()).user();
    const artist = unfollowedArtist();

    const followed = await user.request('PUT', `/me/following?type=artist&ids=${artist.id}`);
    expect(followed.status).toBe(204);
    expect(await user.ok(`/me/following/contains?type=artist&ids=${artist.id}`)).toEqual([true]);

    expect(
      (await user.request('DELETE', '/me/following?type=artist', { ids: [artist.id] })).status,
    ).toBe(204);
    expect(await user.ok(`/me/following/contains?type=artist&ids=${artist.id}`)).toEqual([false]);
    expect(await user.ok(`/me/following/contains?type=user&ids=${PREMIUM_ACCOUNT}`)).toEqual([
      false,
    ]);
  });

  it('answers 403 in Development Mode, where /me/library replaces it', async () => {
    const user = await (await testSandbox()).user({ mode: 'development' });
    const id = someArtist().id;

    expect((await user.request('PUT', `/me/following?type=artist&ids=${id}`)).body).toEqual(
      apiError(403, 'Forbidden'),
    );
    expect((await user.request('DELETE', `/me/following?type=artist&ids=${id}`)).status).toBe(403);
    expect((await user.get(`/me/following/contains?type=artist&ids=${id}`)).status).toBe(403);
  });

  it('needs user-follow-modify', async () => {
    const user = await (await testSandbox()).user({ scope: 'user-follow-read' });

    const response = await user.request('PUT', `/me/following?type=artist&ids=${someArtist().id}`);

    expect(response.body).toEqual(apiError(403, 'Insufficient client scope'));
  });
});
