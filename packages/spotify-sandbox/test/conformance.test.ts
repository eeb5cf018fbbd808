import { beforeAll, describe, expect, it } from 'vitest';
import { SPOTIFY_DIR, SpotifyDescriptions, type Mode } from './support/openapi';
import { PREMIUM_ACCOUNT, TEST_START, V1, testSandbox, type ApiUser } from './support/web-api';
import {
  albumWithTracks,
  busyArtist,
  MALFORMED_ID,
  playlists,
  someArtist,
  someTrack,
  UNKNOWN_ID,
  world,
} from './support/world-fixtures';

let descriptions: SpotifyDescriptions;
beforeAll(async () => {
  descriptions = await SpotifyDescriptions.load();
});

const HOUR = 3_600_000;

type Method = 'GET' | 'PUT' | 'DELETE';
type Who = 'user' | 'unscoped' | 'anonymous';

/** One request and the status each mode answers it with. */
interface Case {
  method?: Method;
  url: string;
  status: Record<Mode, number> | number;
  who?: Who;
}

/** The operations of the descriptions the sandbox's Web API serves, player commands aside. */
const OPERATIONS = [
  'check-current-user-follows',
  'check-library-contains',
  'check-users-saved-tracks',
  'follow-artists-users',
  'get-a-list-of-current-users-playlists',
  'get-an-album',
  'get-an-albums-tracks',
  'get-an-artist',
  'get-an-artists-albums',
  'get-an-artists-top-tracks',
  'get-current-users-profile',
  'get-followed',
  'get-multiple-albums',
  'get-multiple-artists',
  'get-new-releases',
  'get-playlist',
  'get-playlists-items',
  'get-playlists-tracks',
  'get-recently-played',
  'get-several-tracks',
  'get-track',
  'get-users-profile',
  'get-users-saved-tracks',
  'get-users-top-artists',
  'get-users-top-tracks',
  'remove-library-items',
  'remove-tracks-user',
  'save-library-items',
  'save-tracks-user',
  'search',
  'unfollow-artists-users',
];

function cases(): Case[] {
  const track = someTrack();
  const otherTrack = someTrack(1);
  const artist = busyArtist();
  const album = albumWithTracks(8);
  const own = playlists.ownPublic();
  const others = playlists.othersPublic();
  const account = world.accounts[1]?.id ?? '';
  const followed = world.followedArtists(PREMIUM_ACCOUNT, TEST_START).map((f) => f.artistId);
  const lastFollowed = followed.at(-3);
  const unfollowed = world.artists.find(({ id }) => !followed.includes(id)) ?? someArtist();
  const open = (status: number) => ({ extended: status, development: status });
  const extendedOnly = (status: number) => ({ extended: status, development: 403 });
  const trackUri = `spotify:track:${track.id}`;
  const artistUri = `spotify:artist:${unfollowed.id}`;
  return [
    { url: '/me', status: 200 },
    { url: '/me', status: 401, who: 'anonymous' },

    // Recently played, with cursors both ways and the one-cursor rule.
    { url: '/me/player/recently-played?limit=50', status: 200 },
    { url: `/me/player/recently-played?limit=5&before=${TEST_START - HOUR}`, status: 200 },
    { url: `/me/player/recently-played?after=${TEST_START - 12 * HOUR}`, status: 200 },
    // Nothing after the clock: an empty page, whose cursors are null.
    { url: `/me/player/recently-played?after=${TEST_START}`, status: 200 },
    { url: '/me/player/recently-played?after=1&before=2', status: 400 },
    { url: '/me/player/recently-played', status: 403, who: 'unscoped' },

    // Saved tracks, by id (Extended Quota Mode) and through the generic library.
    { url: '/me/tracks?limit=50&offset=10', status: 200 },
    { url: '/me/tracks?limit=51', status: 400 },
    { url: '/me/tracks', status: 403, who: 'unscoped' },
    { method: 'PUT', url: `/me/tracks?ids=${track.id}`, status: extendedOnly(200) },
    { method: 'DELETE', url: `/me/tracks?ids=${track.id}`, status: extendedOnly(200) },
    { url: `/me/tracks/contains?ids=${track.id},${otherTrack.id}`, status: extendedOnly(200) },
    { method: 'PUT', url: `/me/library?uris=${trackUri},${artistUri}`, status: 200 },
    { url: `/me/library/contains?uris=${trackUri},${artistUri}`, status: 200 },
    { method: 'DELETE', url: `/me/library?uris=${trackUri},${artistUri}`, status: 200 },
    { method: 'PUT', url: '/me/library?uris=spotify:track:nope', status: 400 },
    { method: 'PUT', url: `/me/library?uris=${trackUri}`, status: 403, who: 'unscoped' },

    // Followed artists: cursor pages, the last page, and following by id.
    { url: '/me/following?type=artist&limit=5', status: 200 },
    // The last page, whose `after` cursor is null.
    { url: `/me/following?type=artist&after=${lastFollowed}`, status: 200 },
    { url: `/me/following?type=artist&after=${UNKNOWN_ID}`, status: 200 },
    { url: '/me/following?type=album', status: 400 },
    { url: '/me/following?type=artist', status: 403, who: 'unscoped' },
    { method: 'PUT', url: `/me/following?type=artist&ids=${artist.id}`, status: extendedOnly(204) },
    {
      method: 'DELETE',
      url: `/me/following?type=artist&ids=${artist.id}`,
      status: extendedOnly(204),
    },
    { url: `/me/following/contains?type=artist&ids=${artist.id}`, status: extendedOnly(200) },

    // Playlists.
    { url: '/me/playlists?limit=50', status: 200 },
    { url: `/playlists/${own.id}`, status: 200 },
    { url: `/playlists/${others.id}`, status: 200 },
    { url: `/playlists/${playlists.collaborating().id}`, status: 200 },
    { url: `/playlists/${own.id}/items?limit=50`, status: 200 },
    { url: `/playlists/${others.id}/items`, status: extendedOnly(200) },
    { url: `/playlists/${own.id}/tracks?limit=100`, status: extendedOnly(200) },
    { url: `/playlists/${playlists.ownPrivate().id}`, status: 403, who: 'unscoped' },
    { url: `/playlists/${playlists.othersPrivate().id}`, status: 404 },
    { url: `/playlists/${UNKNOWN_ID}`, status: 404 },
    { url: `/playlists/${MALFORMED_ID}`, status: 400 },

    // The catalogue.
    { url: `/artists/${artist.id}`, status: 200 },
    { url: `/artists/${UNKNOWN_ID}`, status: 404 },
    {
      url: `/artists/${artist.id}/albums?include_groups=album,single,appears_on&limit=10`,
      status: 200,
    },
    { url: `/artists/${artist.id}/albums?limit=11`, status: { extended: 200, development: 400 } },
    { url: `/artists/${artist.id}/top-tracks`, status: extendedOnly(200) },
    { url: `/albums/${album.id}`, status: 200 },
    { url: `/albums/${album.id}/tracks?limit=3&offset=2`, status: 200 },
    { url: `/albums/${MALFORMED_ID}/tracks`, status: 400 },
    { url: `/tracks/${track.id}`, status: 200 },
    { url: `/tracks/${track.id}?market=ZZ`, status: 400 },
    { url: `/tracks/${UNKNOWN_ID}`, status: 404 },
    { url: `/tracks/${MALFORMED_ID}`, status: 400 },
    { url: `/tracks/${track.id}`, status: 401, who: 'anonymous' },
    { url: `/tracks?ids=${track.id},${UNKNOWN_ID}`, status: extendedOnly(200) },
    { url: `/albums?ids=${album.id},${UNKNOWN_ID}`, status: extendedOnly(200) },
    { url: `/artists?ids=${artist.id},${UNKNOWN_ID}`, status: extendedOnly(200) },
    { url: '/browse/new-releases?limit=5', status: extendedOnly(200) },
    { url: `/users/${account}`, status: extendedOnly(200) },
    { url: '/users/nobody-here', status: extendedOnly(404) },

    // Search and the user's tops.
    {
      url: `/search?q=${encodeURIComponent(track.name)}&type=track,album,artist,playlist`,
      status: 200,
    },
    { url: '/search?q=a&type=track,show,episode,audiobook', status: 200 },
    { url: '/search?q=a&type=track&limit=50', status: { extended: 200, development: 400 } },
    { url: '/search?q=a&type=song', status: 400 },
    { url: '/me/top/artists?time_range=short_term&limit=5', status: 200 },
    { url: '/me/top/tracks?time_range=long_term&limit=50&offset=5', status: 200 },
    { url: '/me/top/tracks?time_range=forever', status: 400 },
    { url: '/me/top/tracks', status: 403, who: 'unscoped' },
  ].map((entry) => ({
    ...entry,
    status: typeof entry.status === 'number' ? open(entry.status) : entry.status,
  })) as Case[];
}

describe.each(['extended', 'development'] as const)(
  'every Web API response in %s mode conforms to its OpenAPI description',
  (mode) => {
    // Every endpoint of the API in turn: more than the default 5 s on a busy machine.
    it(
      'answers each endpoint with the documented status and a schema-valid body',
      { timeout: 60_000 },
      async () => {
        const sandbox = await testSandbox();
        const users: Record<Who, ApiUser | null> = {
          user: await sandbox.user({ mode }),
          unscoped: await sandbox.user({ mode, scope: '' }),
          anonymous: null,
        };
        const failures: string[] = [];
        const reached = new Set<string>();
        for (const { method = 'GET', url, status, who = 'user' } of cases()) {
          const user = users[who];
          const response = user
            ? (await user.request(method, url)).raw
            : await sandbox.app.inject({ method, url: `${V1}${url}` });
          const expected = (status as Record<Mode, number>)[mode];
          const label = `${method} ${url} (${who})`;
          if (response.statusCode !== expected) {
            failures.push(`${label}: status ${response.statusCode}, expected ${expected}`);
          }
          const verdict = descriptions.validate(mode, {
            method,
            path: url.split('?')[0] ?? url,
            statusCode: response.statusCode,
            contentType: response.headers['content-type'] as string | undefined,
            body: response.body,
          });
          for (const error of verdict.errors.slice(0, 5)) {
            failures.push(`${label} [${verdict.description}]: ${error}`);
          }
          if (verdict.operationId) reached.add(verdict.operationId);
        }
        expect(failures).toEqual([]);
        // Every operation the sandbox serves was reached (closed ones answer 403 in Development Mode).
        expect([...reached].sort()).toEqual(OPERATIONS);
      },
    );
  },
);

describe('the conformance harness', () => {
  const sample = async (name: string): Promise<unknown> => {
    const { readFile } = await import('node:fs/promises');
    const url = new URL(`samples/api-responses/${name}.json`, SPOTIFY_DIR);
    return JSON.parse(await readFile(url, 'utf8')) as unknown;
  };
  const SAMPLES: [string, string][] = [
    ['validAlbumResult', 'get-an-album'],
    ['validArtist', 'get-an-artist'],
    ['validTrack', 'get-track'],
    ['validPlaylist', 'get-playlist'],
    ['validUser', 'get-users-profile'],
    ['validShow', 'get-a-show'],
    ['validEpisode', 'get-an-episode'],
  ];

  it.each(SAMPLES)(
    "accepts Spotify's captured %s under both descriptions",
    async (name, operationId) => {
      const value = await sample(name);
      expect(descriptions.validateValue('pre-2026-02', operationId, 200, value)).toEqual([]);
      expect(descriptions.validateValue('current', operationId, 200, value)).toEqual([]);
    },
  );

  it('refuses the captured objects in Development Mode, where their deprecated fields are gone', async () => {
    expect(
      descriptions.validateDevelopmentValue('get-an-artist', 200, await sample('validArtist')),
    ).toEqual(['/followers is deprecated: absent in Development Mode']);
    const track = (await sample('validTrack')) as { album: object };
    expect(descriptions.validateDevelopmentValue('get-track', 200, track)).toEqual([
      '/album/available_markets is deprecated: absent in Development Mode',
    ]);
  });

  it('fails deliberately broken objects', async () => {
    const track = (await sample('validTrack')) as Record<string, unknown>;
    const album = (await sample('validAlbumResult')) as Record<string, unknown>;
    const broken = [
      { ...track, duration_ms: '367000' },
      { ...track, album: { ...(track.album as object), release_date_precision: 'week' } },
      { ...album, tracks: { ...(album.tracks as object), next: 7 } },
      Object.fromEntries(Object.entries(album).filter(([key]) => key !== 'total_tracks')),
    ];
    expect(descriptions.validateValue('pre-2026-02', 'get-track', 200, broken[0])).toEqual([
      '/duration_ms must be integer',
    ]);
    expect(descriptions.validateValue('current', 'get-track', 200, broken[1])).not.toEqual([]);
    expect(descriptions.validateValue('current', 'get-an-album', 200, broken[2])).not.toEqual([]);
    expect(descriptions.validateValue('pre-2026-02', 'get-an-album', 200, broken[3])).toEqual([
      "/ must have required property 'total_tracks'",
    ]);
  });

  it('holds errors, empty bodies and undocumented statuses to the description', () => {
    const error = JSON.stringify({ error: { status: 404, message: 'Resource not found' } });
    const response = (statusCode: number, body: string, path = `/tracks/${UNKNOWN_ID}`) => ({
      method: 'GET',
      path,
      statusCode,
      contentType: 'application/json; charset=utf-8',
      body,
    });
    expect(descriptions.validate('extended', response(404, error)).errors).toEqual([]);
    expect(
      descriptions.validate('extended', response(404, JSON.stringify({ status: 404 }))).errors,
    ).toEqual(["/ must have required property 'error'"]);
    expect(descriptions.validate('extended', response(418, error)).errors).toEqual([
      'status 418 is not documented',
    ]);
    expect(
      descriptions.validate('extended', {
        ...response(200, 'ok'),
        method: 'PUT',
        path: '/me/tracks',
      }).errors,
    ).toEqual(['status 200 has no body, got ok']);
    expect(descriptions.validate('development', response(200, '{}', '/nowhere')).errors).toEqual([
      'no operation GET /nowhere',
    ]);
  });
});
