import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CurrentUser } from '@earshot/contract/user';
import { tracks } from '../src/db/schema/catalog';
import { friendRequests, friendships } from '../src/db/schema/social';
import { plays } from '../src/db/schema/listening';
import { acceptFriendship, requestFriendship } from '../src/services/social';
import { storeTracks } from '../src/services/catalog';
import { startHarness, type Harness, type Viewer } from './support/harness';

/*
 * Who may call what: every route of the API (as the OpenAPI description lists them) against
 * every kind of caller, seen from one subject, Mara. A route without a row fails the test: add
 * one line, `'METHOD /path': [anonymous, stranger, requester, friend, owner, admin]`.
 *
 * - stranger: signed in, no relation to Mara; requester: has asked Mara to be friends (pending);
 *   friend: Mara's friend; owner: Mara herself (a `{user}`/`{id}` of the path is her); admin:
 *   in ADMIN_EMAILS, no relation to Mara.
 * - Writes are undone after each row (the social graph is rebuilt), so rows do not interact.
 */
type Actor = 'anonymous' | 'stranger' | 'requester' | 'friend' | 'owner' | 'admin';
const ACTORS: Actor[] = ['anonymous', 'stranger', 'requester', 'friend', 'owner', 'admin'];
/** The status each caller gets, or the statuses it may get where Spotify's state decides. */
type Expected = number | readonly number[];
type Row = [Expected, Expected, Expected, Expected, Expected, Expected];
/** A player command's answer depends on what the sandbox's person is doing now: none is a 401/5xx. */
const P = [204, 402, 409] as const;

// prettier-ignore
const MATRIX: Record<string, Row> = {
  'GET /api/status':                          [200, 200, 200, 200, 200, 200],
  'GET /api/user/me':                         [401, 200, 200, 200, 200, 200],
  'POST /api/user/username':                  [401, 200, 200, 200, 200, 200],
  'GET /api/user/{id}/public':                [200, 200, 200, 200, 200, 200],
  'POST /api/logout':                         [204, 204, 204, 204, 204, 204],
  'GET /api/spotify/authorize':               [200, 200, 200, 200, 200, 200],
  'GET /api/spotify/callback':                [303, 303, 303, 303, 303, 303],
  'GET /api/spotify/stats':                   [401, 200, 200, 200, 200, 200],
  'GET /api/spotify/import':                  [401, 200, 200, 200, 200, 200],
  'POST /api/spotify/import':                 [401, 400, 400, 400, 400, 400],
  'POST /api/friendship/request/{user}':      [401, 200, 200, 200, 400, 200],
  'POST /api/friendship/accept/{user}':       [401, 404, 404, 200, 404, 404],
  'POST /api/friendship/decline/{user}':      [401, 404, 200, 404, 404, 404],
  'DELETE /api/friendship/unfriend/{id}':     [401, 404, 404, 200, 404, 404],
  'GET /api/friendship/status/{user}':        [401, 200, 200, 200, 200, 200],
  'GET /api/friendship/pending':              [401, 200, 200, 200, 200, 200],
  'GET /api/friendship/list':                 [401, 200, 200, 200, 200, 200],
  'GET /api/recent':                          [401, 200, 200, 200, 200, 200],
  // Open to visitors (no 401): called without its `q`, everyone gets the same 400.
  'GET /api/search':                          [400, 400, 400, 400, 400, 400],
  'GET /api/likes':                           [401, 200, 200, 200, 200, 200],
  'POST /api/like':                           [401, 404, 404, 404, 404, 404],
  'GET /api/ignore':                          [401, 200, 200, 200, 200, 200],
  'POST /api/ignore/track/{uid}':             [401, 200, 200, 200, 200, 200],
  'DELETE /api/ignore/track/{uid}':           [401, 200, 200, 200, 200, 200],
  'POST /api/ignore/track/{uid}/report':      [401, 200, 200, 200, 200, 200],
  'POST /api/ignore/artist/{id}':             [401, 200, 200, 200, 200, 200],
  'DELETE /api/ignore/artist/{id}':           [401, 200, 200, 200, 200, 200],
  'POST /api/ignore/artist/{id}/report':      [401, 200, 200, 200, 200, 200],
  'GET /api/user/export':                     [401, 200, 200, 200, 200, 200],
  // Each caller starts their own export (the matrix runs no jobs, so none becomes ready).
  'POST /api/user/export':                    [401, 202, 202, 202, 202, 202],
  'GET /api/user/export/download':            [401, 404, 404, 404, 404, 404],
  'POST /api/user/beta/request':              [400, 400, 400, 400, 400, 400],
  // Without its typed confirmation: 400 after the login check, and nobody is deleted.
  'DELETE /api/user/me':                      [401, 400, 400, 400, 400, 400],
  'GET /api/spotify/playlists':               [401, 200, 200, 200, 200, 200],
  'PUT /api/spotify/follow/artist/{id}':      [401, 400, 400, 400, 400, 400],
  'DELETE /api/spotify/follow/artist/{id}':   [401, 400, 400, 400, 400, 400],
  'POST /api/spotify/play':                   [401, 400, 400, 400, 400, 400],
  'GET /api/spotify/playback':                [401, 200, 200, 200, 200, 200],
  'POST /api/spotify/pause':                  [401, P, P, P, P, P],
  'POST /api/spotify/resume':                 [401, P, P, P, P, P],
  'POST /api/spotify/next':                   [401, P, P, P, P, P],
  'GET /api/spotify/next':                    [401, 200, 200, 200, 200, 200],
  // The stranger's account is a free one: no player token without Premium.
  'GET /api/spotify/token':                   [401, 402, 200, 200, 200, 200],
  'GET /api/spotify/devices':                 [401, 200, 200, 200, 200, 200],
  'POST /api/spotify/transfer':               [401, 400, 400, 400, 400, 400],
  // A stream never ends: only the refusal is called here; what it carries is in live.test.ts.
  'GET /api/live':                            [401, 200, 200, 200, 200, 200],
  'GET /api/admin/notifications':             [401, 403, 403, 403, 403, 200],
  'GET /api/admin/history':                   [401, 403, 403, 403, 403, 200],
  'POST /api/admin/notifications/beta/accept': [401, 403, 403, 403, 403, 400],
  'POST /api/admin/ignore/track/{uid}/approve': [401, 403, 403, 403, 403, 404],
  'POST /api/admin/ignore/track/{uid}/reject': [401, 403, 403, 403, 403, 404],
  'DELETE /api/admin/ignore/track/{uid}':     [401, 403, 403, 403, 403, 404],
  'POST /api/admin/ignore/artist/{id}/approve': [401, 403, 403, 403, 403, 404],
  'POST /api/admin/ignore/artist/{id}/reject': [401, 403, 403, 403, 403, 404],
  'DELETE /api/admin/ignore/artist/{id}':     [401, 403, 403, 403, 403, 404],
  // Public pages: no 401 for visitors (the matrix's ids are no catalogue ids: 400 for everyone).
  'GET /api/artist/{id}':                     [400, 400, 400, 400, 400, 400],
  'GET /api/artist/{id}/tracks':              [400, 400, 400, 400, 400, 400],
  'GET /api/artist/{id}/albums':              [400, 400, 400, 400, 400, 400],
  'GET /api/album/{id}':                      [400, 400, 400, 400, 400, 400],
  'GET /api/track/{id}':                      [400, 400, 400, 400, 400, 400],
  'GET /api/playlist/{id}':                   [400, 400, 400, 400, 400, 400],
  'GET /api/suggestions/unheard-from-followed': [401, 200, 200, 200, 200, 200],
  'GET /api/suggestions/friends-favorites':   [401, 200, 200, 200, 200, 200],
  'GET /api/suggestions/rediscover-likes':    [401, 200, 200, 200, 200, 200],
  'GET /api/suggestions/like-on-repeat':      [401, 200, 200, 200, 200, 200],
};

/** What a caller may see of Mara where it depends on who asks (the status alone does not say). */
const VISIBLE: Record<string, (actor: Actor, body: unknown) => void> = {
  'GET /api/user/{id}/public': (actor, body) => {
    const { stats, friendship } = body as {
      stats: { top_songs_all_time: unknown; weekly_plays: unknown };
      friendship: string | null;
    };
    const insider = actor === 'friend' || actor === 'owner';
    expect(stats.top_songs_all_time === null, `${actor} sees highlights`).toBe(!insider);
    expect(stats.weekly_plays === null, `${actor} sees weekly plays`).toBe(!insider);
    expect(friendship === null).toBe(actor === 'anonymous');
  },
  'GET /api/friendship/list': (actor, body) => {
    const mara = (body as { friends: { id: string; last_play: string | null }[] }).friends.find(
      (friend) => friend.id === viewers.owner.id,
    );
    if (actor === 'friend') expect(mara?.last_play).toBe('2024-05-17T10:00:00.000Z');
    else expect(mara?.last_play ?? null, `${actor} sees Mara's last play`).toBeNull();
  },
  'GET /api/recent': (actor, body) => {
    const users = (body as { items: { user: { id: string } }[] }).items.map((item) => item.user.id);
    const seesMara = actor === 'friend' || actor === 'owner';
    expect(users.includes(viewers.owner.id), `${actor} sees Mara's plays`).toBe(seesMara);
  },
};

const TRACK = 'tr-matrix';
const ARTIST = 'artistM0000000000000001';

/** Path parameters by the route's path prefix (a track's uid is set once stored); else Mara. */
const PATH_VALUES: Record<string, string> = {
  '/api/ignore/artist/{id}': ARTIST,
};

/** Routes that end the caller's session run last. */
const ENDS_SESSION = new Set(['POST /api/logout']);
/** Streams answer once they end, which a signed-in stream never does. */
const STREAMS = new Set(['GET /api/live']);

const ACCOUNTS: Record<Exclude<Actor, 'anonymous'>, string> = {
  owner: 'maralindqvist',
  friend: '31kzt4wq7yv2jhd6ncx3bfrm5lpa',
  stranger: '11183207465',
  requester: 'chidiokafor',
  admin: 'jonasbrandt',
};

let harness: Harness;
const viewers = {} as Record<Exclude<Actor, 'anonymous'>, Viewer & { username: string }>;

async function rebuildSocialGraph() {
  const db = harness.database.db;
  await db.delete(friendRequests);
  await db.delete(friendships);
  await requestFriendship(db, viewers.friend.id, viewers.owner.id);
  await acceptFriendship(db, viewers.owner.id, viewers.friend.id);
  await requestFriendship(db, viewers.requester.id, viewers.owner.id);
}

beforeAll(async () => {
  harness = await startHarness({ env: { ADMIN_EMAILS: 'jonas.brandt@example.com' } });
  for (const [actor, account] of Object.entries(ACCOUNTS)) {
    const viewer = await harness.signIn(account);
    const me = await harness.app.inject({
      url: '/api/user/me',
      headers: { cookie: viewer.cookie },
    });
    viewers[actor as keyof typeof ACCOUNTS] = {
      ...viewer,
      username: me.json<CurrentUser>().username,
    };
  }
  const artist = { id: ARTIST, name: 'The Lanterns' };
  await storeTracks(harness.database.db, [
    {
      id: TRACK,
      name: 'Moonlight Drive',
      album: { id: 'al-matrix', name: 'Night Roads', artists: [artist], images: [] },
      artists: [artist],
      duration_ms: 180_000,
    },
  ]);
  await harness.database.db.insert(plays).values({
    userId: viewers.owner.id,
    trackId: TRACK,
    playedAt: new Date('2024-05-17T10:00:00Z'),
    source: 'api',
  });
  const [track] = await harness.database.db.select().from(tracks).where(eq(tracks.id, TRACK));
  PATH_VALUES['/api/ignore/track/{uid}'] = track!.uid;
  await rebuildSocialGraph();
});
afterAll(() => harness.close());

interface Route {
  key: string;
  method: string;
  path: string;
}

async function documentedRoutes(): Promise<Route[]> {
  const document = await harness.app.inject({ url: '/api/docs/json' });
  const paths = document.json<{ paths: Record<string, Record<string, unknown>> }>().paths;
  return Object.entries(paths).flatMap(([path, operations]) =>
    Object.keys(operations)
      .filter((method) => method !== 'head')
      .map((method) => ({ key: `${method.toUpperCase()} ${path}`, method, path })),
  );
}

function urlFor(route: Route): string {
  const fixed = Object.entries(PATH_VALUES).find(([prefix]) => route.path.startsWith(prefix));
  const value = fixed?.[1] ?? viewers.owner.username;
  return route.path.replace(/\{[^}]+\}/g, () => encodeURIComponent(value));
}

function bodyFor(route: Route, actor: Actor): object | undefined {
  if (route.key === 'POST /api/like') return { uid: 'uid-matrix', liked: true };
  if (route.key === 'POST /api/user/username') {
    // Renaming to one's own name: allowed, and changes nothing the other rows rely on.
    return { username: actor === 'anonymous' ? 'someone' : viewers[actor].username };
  }
  return undefined;
}

async function callAs(route: Route, actor: Actor) {
  const body = bodyFor(route, actor);
  return harness.app.inject({
    method: route.method.toUpperCase() as 'GET',
    url: urlFor(route),
    headers: actor === 'anonymous' ? {} : { cookie: viewers[actor].cookie },
    ...(body && { payload: body }),
  });
}

describe('authorization matrix', () => {
  it('has a row for every route the API documents', async () => {
    const missing = (await documentedRoutes())
      .map((route) => route.key)
      .filter((key) => !(key in MATRIX));
    expect(missing, `add a row to MATRIX for: ${missing.join(', ')}`).toEqual([]);
  });

  it('has no row for a route that no longer exists', async () => {
    const documented = new Set((await documentedRoutes()).map((route) => route.key));
    const stale = Object.keys(MATRIX).filter((key) => !documented.has(key));
    expect(stale, `remove these rows from MATRIX: ${stale.join(', ')}`).toEqual([]);
  });

  it('answers each caller as the table says', async () => {
    const routes = (await documentedRoutes()).filter((route) => route.key in MATRIX);
    const ordered = [
      ...routes.filter((route) => !ENDS_SESSION.has(route.key)),
      ...routes.filter((route) => ENDS_SESSION.has(route.key)),
    ];
    const wrong: string[] = [];
    for (const route of ordered) {
      const expected = MATRIX[route.key]!;
      for (const [index, actor] of ACTORS.entries()) {
        if (STREAMS.has(route.key) && actor !== 'anonymous') continue;
        const response = await callAs(route, actor);
        const allowed = [expected[index]].flat();
        if (!allowed.includes(response.statusCode)) {
          wrong.push(
            `${route.key} as ${actor}: ${response.statusCode} (expected ${allowed.join(' or ')}) ${response.body.slice(0, 120)}`,
          );
        } else if (response.statusCode < 300) {
          VISIBLE[route.key]?.(actor, response.json());
        }
        if (route.method !== 'get') await rebuildSocialGraph();
      }
    }
    expect(wrong).toEqual([]);
  });
});
