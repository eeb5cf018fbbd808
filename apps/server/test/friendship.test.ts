import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type {
  FriendList,
  FriendshipStatusResponse,
  PendingRequests,
} from '@earshot/contract/friendship';
import { savedTracks } from '../src/db/schema/library';
import { plays } from '../src/db/schema/listening';
import { friendRequests, friendships } from '../src/db/schema/social';
import { users } from '../src/db/schema/users';
import { areFriends, friendIds } from '../src/services/social';
import { tokenSourceFor } from '../src/services/spotify-tokens';
import { syncLibrary } from '../src/services/sync-library';
import { syncRecentPlays } from '../src/services/sync-recent';
import { startHarness, type Harness, type Viewer } from './support/harness';

// Every test starts with nobody friends with anybody, so each holds alone and in any order.
let harness: Harness;
let mara: Viewer;
let tomas: Viewer;
let aiko: Viewer;
let chidi: Viewer;

beforeAll(async () => {
  harness = await startHarness();
  mara = await harness.signIn('maralindqvist');
  tomas = await harness.signIn('31kzt4wq7yv2jhd6ncx3bfrm5lpa');
  aiko = await harness.signIn('11183207465');
  chidi = await harness.signIn('chidiokafor');
});
afterAll(() => harness.close());
beforeEach(async () => {
  const { db } = harness.database;
  await db.delete(friendRequests);
  await db.delete(friendships);
});

function call(viewer: Viewer | undefined, method: 'GET' | 'POST' | 'DELETE', url: string) {
  return harness.app.inject({ method, url, headers: viewer ? { cookie: viewer.cookie } : {} });
}
const status = async (viewer: Viewer, user: string) =>
  (await call(viewer, 'GET', `/api/friendship/status/${user}`)).json<FriendshipStatusResponse>()
    .status;

/** Who `viewer` has asked, who asked `viewer`, and `viewer`'s friends, by username. */
async function relations(viewer: Viewer) {
  const { db } = harness.database;
  const name = async (id: string) =>
    (await db.select({ username: users.username }).from(users).where(eq(users.id, id)))[0]!
      .username;
  const asked = await db
    .select({ id: friendRequests.addresseeId })
    .from(friendRequests)
    .where(eq(friendRequests.requesterId, viewer.id));
  const askedBy = await db
    .select({ id: friendRequests.requesterId })
    .from(friendRequests)
    .where(eq(friendRequests.addresseeId, viewer.id));
  const friends = await db
    .select({ id: friendships.friendId })
    .from(friendships)
    .where(eq(friendships.userId, viewer.id));
  const names = async (rows: { id: string }[]) =>
    (await Promise.all(rows.map((row) => name(row.id)))).sort();
  return {
    asked: await names(asked),
    askedBy: await names(askedBy),
    friends: await names(friends),
  };
}

async function befriend(a: Viewer, b: Viewer, bName: string, aName: string) {
  await call(a, 'POST', `/api/friendship/request/${bName}`);
  expect((await call(b, 'POST', `/api/friendship/accept/${aName}`)).json()).toEqual({
    status: 'friends',
  });
}

describe('friendship transitions', () => {
  it('none → pending_outgoing → friends, seen from both sides', async () => {
    expect(await status(mara, 'tomas-ferreira')).toBe('none');
    const request = await call(mara, 'POST', '/api/friendship/request/tomas-ferreira');
    expect(request.statusCode).toBe(200);
    expect(request.json()).toEqual({ status: 'pending_outgoing' });
    expect(await status(mara, 'tomas-ferreira')).toBe('pending_outgoing');
    expect(await status(tomas, 'mara-lindqvist')).toBe('pending_incoming');

    const pending = await call(tomas, 'GET', '/api/friendship/pending');
    expect(pending.json()).toEqual({
      requests: [
        {
          user: {
            id: mara.id,
            name: 'Mara Lindqvist',
            username: 'mara-lindqvist',
            picture: expect.any(String),
          },
        },
      ],
    });
    expect((await call(mara, 'GET', '/api/friendship/pending')).json()).toEqual({ requests: [] });

    const accept = await call(tomas, 'POST', '/api/friendship/accept/MARA-LINDQVIST');
    expect(accept.json()).toEqual({ status: 'friends' });
    expect(await status(mara, 'tomas-ferreira')).toBe('friends');
    expect(await status(tomas, 'mara-lindqvist')).toBe('friends');
    expect((await call(tomas, 'GET', '/api/friendship/pending')).json()).toEqual({ requests: [] });
    expect(await relations(mara)).toEqual({ asked: [], askedBy: [], friends: ['tomas-ferreira'] });
    expect(await relations(tomas)).toEqual({ asked: [], askedBy: [], friends: ['mara-lindqvist'] });
  });

  it('is idempotent while pending: asking again keeps the one request', async () => {
    await call(mara, 'POST', '/api/friendship/request/tomas-ferreira');
    const again = await call(mara, 'POST', '/api/friendship/request/tomas-ferreira');
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ status: 'pending_outgoing' });
    expect(await relations(mara)).toEqual({ asked: ['tomas-ferreira'], askedBy: [], friends: [] });
  });

  it('is idempotent between friends: asking or accepting again changes nothing', async () => {
    await befriend(mara, tomas, 'tomas-ferreira', 'mara-lindqvist');
    for (const [viewer, other] of [
      [mara, 'tomas-ferreira'],
      [tomas, 'mara-lindqvist'],
    ] as const) {
      const request = await call(viewer, 'POST', `/api/friendship/request/${other}`);
      expect(request.statusCode).toBe(200);
      expect(request.json()).toEqual({ status: 'friends' });
      const accept = await call(viewer, 'POST', `/api/friendship/accept/${other}`);
      expect(accept.statusCode).toBe(200);
      expect(accept.json()).toEqual({ status: 'friends' });
    }
    expect(await relations(mara)).toEqual({ asked: [], askedBy: [], friends: ['tomas-ferreira'] });
    expect(await relations(tomas)).toEqual({ asked: [], askedBy: [], friends: ['mara-lindqvist'] });
  });

  it('turns a request to someone who already asked you into a friendship', async () => {
    await call(aiko, 'POST', '/api/friendship/request/chidi-okafor');
    const crossing = await call(chidi, 'POST', '/api/friendship/request/aiko-tanaka');
    expect(crossing.json()).toEqual({ status: 'friends' });
    expect(await status(aiko, 'chidi-okafor')).toBe('friends');
    expect(await relations(aiko)).toEqual({ asked: [], askedBy: [], friends: ['chidi-okafor'] });
    expect(await relations(chidi)).toEqual({ asked: [], askedBy: [], friends: ['aiko-tanaka'] });
  });

  it('lets the requester cancel with decline, and the addressee decline', async () => {
    await call(mara, 'POST', '/api/friendship/request/aiko-tanaka');
    expect((await call(mara, 'POST', '/api/friendship/decline/aiko-tanaka')).json()).toEqual({
      status: 'none',
    });
    expect(await status(aiko, 'mara-lindqvist')).toBe('none');

    await call(mara, 'POST', '/api/friendship/request/aiko-tanaka');
    expect((await call(aiko, 'POST', '/api/friendship/decline/mara-lindqvist')).json()).toEqual({
      status: 'none',
    });
    expect(await status(mara, 'aiko-tanaka')).toBe('none');
    expect(await relations(mara)).toEqual({ asked: [], askedBy: [], friends: [] });
    // Declining leaves no friendship: accepting afterwards has nothing to accept.
    expect((await call(aiko, 'POST', '/api/friendship/accept/mara-lindqvist')).statusCode).toBe(
      404,
    );
  });

  it('unfriends from either side, and only that pair', async () => {
    await befriend(aiko, chidi, 'chidi-okafor', 'aiko-tanaka');
    await befriend(aiko, mara, 'mara-lindqvist', 'aiko-tanaka');
    const response = await call(aiko, 'DELETE', `/api/friendship/unfriend/${chidi.id}`);
    expect(response.json()).toEqual({ status: 'none' });
    expect(await status(chidi, 'aiko-tanaka')).toBe('none');
    expect(await relations(chidi)).toEqual({ asked: [], askedBy: [], friends: [] });
    expect(await relations(aiko)).toEqual({ asked: [], askedBy: [], friends: ['mara-lindqvist'] });

    const back = await call(mara, 'DELETE', `/api/friendship/unfriend/${aiko.id}`);
    expect(back.json()).toEqual({ status: 'none' });
    expect(await relations(aiko)).toEqual({ asked: [], askedBy: [], friends: [] });
  });

  it('refuses transitions that do not exist, with a 4xx detail', async () => {
    const self = await call(mara, 'POST', '/api/friendship/request/mara-lindqvist');
    expect(self.statusCode).toBe(400);
    expect(self.json()).toEqual({ detail: 'You cannot send a friend request to yourself.' });
    expect(await status(mara, 'mara-lindqvist')).toBe('self');

    const acceptNothing = await call(aiko, 'POST', '/api/friendship/accept/mara-lindqvist');
    expect(acceptNothing.statusCode).toBe(404);
    expect(acceptNothing.json()).toEqual({
      detail: 'There is no friend request from this user to accept.',
    });
    // One's own outgoing request is not for oneself to accept.
    await call(aiko, 'POST', '/api/friendship/request/mara-lindqvist');
    expect((await call(aiko, 'POST', '/api/friendship/accept/mara-lindqvist')).statusCode).toBe(
      404,
    );
    expect(await status(aiko, 'mara-lindqvist')).toBe('pending_outgoing');

    const declineNothing = await call(chidi, 'POST', '/api/friendship/decline/mara-lindqvist');
    expect(declineNothing.statusCode).toBe(404);
    expect(declineNothing.json()).toEqual({ detail: 'There is no friend request to decline.' });
    const unfriendStranger = await call(chidi, 'DELETE', `/api/friendship/unfriend/${mara.id}`);
    expect(unfriendStranger.statusCode).toBe(404);
    expect(unfriendStranger.json()).toEqual({ detail: 'You are not friends with this user.' });
    // A pending request is no friendship to end.
    const unfriendPending = await call(aiko, 'DELETE', `/api/friendship/unfriend/${mara.id}`);
    expect(unfriendPending.statusCode).toBe(404);
    const nobody = await call(aiko, 'POST', '/api/friendship/request/no-such-user');
    expect(nobody.statusCode).toBe(404);
    expect(nobody.json()).toEqual({ detail: 'User not found' });
  });

  it('keeps no dangling request when two requests cross at the same instant', async () => {
    // On PostgreSQL (the PostgreSQL pass) the two requests run on two connections at once, and
    // only the lock on the pair keeps them from both seeing "none" and both asking.
    for (let round = 0; round < 10; round++) {
      const { db } = harness.database;
      await db.delete(friendRequests);
      await db.delete(friendships);
      const [a, b] = await Promise.all([
        call(aiko, 'POST', '/api/friendship/request/tomas-ferreira'),
        call(tomas, 'POST', '/api/friendship/request/aiko-tanaka'),
      ]);
      expect([a.json(), b.json()].map((r) => (r as { status: string }).status).sort()).toEqual([
        'friends',
        'pending_outgoing',
      ]);
      expect(await relations(aiko)).toEqual({
        asked: [],
        askedBy: [],
        friends: ['tomas-ferreira'],
      });
      expect(await relations(tomas)).toEqual({ asked: [], askedBy: [], friends: ['aiko-tanaka'] });
    }
  });

  it('answers who is friends with whom, both ways, requests not counting', async () => {
    const { db } = harness.database;
    await befriend(mara, tomas, 'tomas-ferreira', 'mara-lindqvist');
    await call(mara, 'POST', '/api/friendship/request/aiko-tanaka');
    expect(await friendIds(db, mara.id)).toEqual([tomas.id]);
    expect(await friendIds(db, tomas.id)).toEqual([mara.id]);
    expect(await friendIds(db, aiko.id)).toEqual([]);
    expect(await areFriends(db, mara.id, tomas.id)).toBe(true);
    expect(await areFriends(db, tomas.id, mara.id)).toBe(true);
    expect(await areFriends(db, mara.id, aiko.id)).toBe(false);
    expect(await areFriends(db, aiko.id, mara.id)).toBe(false);
  });

  it('lists requests to the viewer newest first', async () => {
    await call(chidi, 'POST', '/api/friendship/request/mara-lindqvist');
    await call(aiko, 'POST', '/api/friendship/request/mara-lindqvist');
    const pending = (await call(mara, 'GET', '/api/friendship/pending')).json<PendingRequests>()
      .requests;
    expect(pending.map((request) => request.user.id)).toEqual([aiko.id, chidi.id]);
  });

  it('needs a login for every route', async () => {
    for (const [method, url] of [
      ['POST', '/api/friendship/request/mara-lindqvist'],
      ['POST', '/api/friendship/accept/mara-lindqvist'],
      ['POST', '/api/friendship/decline/mara-lindqvist'],
      ['DELETE', '/api/friendship/unfriend/mara-lindqvist'],
      ['GET', '/api/friendship/status/mara-lindqvist'],
      ['GET', '/api/friendship/pending'],
      ['GET', '/api/friendship/list'],
    ] as const) {
      expect((await call(undefined, method, url)).statusCode).toBe(401);
    }
  });
});

describe('GET /api/friendship/list', () => {
  it('lists requests to the viewer, the viewer’s requests, then friends, each by name', async () => {
    await call(chidi, 'POST', '/api/friendship/request/mara-lindqvist');
    await call(aiko, 'POST', '/api/friendship/request/mara-lindqvist');
    await call(mara, 'POST', '/api/friendship/request/tomas-ferreira');
    const list = (await call(mara, 'GET', '/api/friendship/list')).json<FriendList>().friends;
    expect(list.map(({ id, username, status }) => [id, username, status])).toEqual([
      [aiko.id, 'aiko-tanaka', 'pending'],
      [chidi.id, 'chidi-okafor', 'pending'],
      [tomas.id, 'tomas-ferreira', 'requested'],
    ]);

    await befriend(tomas, aiko, 'aiko-tanaka', 'tomas-ferreira');
    await befriend(tomas, chidi, 'chidi-okafor', 'tomas-ferreira');
    const friendsOfTomas = (await call(tomas, 'GET', '/api/friendship/list')).json<FriendList>()
      .friends;
    expect(friendsOfTomas.map(({ username, status }) => [username, status])).toEqual([
      ['mara-lindqvist', 'pending'],
      ['aiko-tanaka', 'accepted'],
      ['chidi-okafor', 'accepted'],
    ]);
  });

  it('sorts each part by username, not by who asked first or joined first', async () => {
    // Asked in the order Tomas, Chidi, Aiko; signed up Tomas, Aiko, Chidi.
    for (const asker of [tomas, chidi, aiko]) {
      await call(asker, 'POST', '/api/friendship/request/mara-lindqvist');
    }
    const pending = (await call(mara, 'GET', '/api/friendship/list')).json<FriendList>().friends;
    expect(pending.map((friend) => friend.username)).toEqual([
      'aiko-tanaka',
      'chidi-okafor',
      'tomas-ferreira',
    ]);
    for (const other of ['tomas-ferreira', 'chidi-okafor', 'aiko-tanaka']) {
      await call(mara, 'POST', `/api/friendship/accept/${other}`);
    }
    const accepted = (await call(mara, 'GET', '/api/friendship/list')).json<FriendList>().friends;
    expect(accepted.map((friend) => `${friend.status}:${friend.username}`)).toEqual([
      'accepted:aiko-tanaka',
      'accepted:chidi-okafor',
      'accepted:tomas-ferreira',
    ]);
    for (const other of ['tomas-ferreira', 'chidi-okafor', 'aiko-tanaka']) {
      await call(mara, 'DELETE', `/api/friendship/unfriend/${other}`);
    }
    for (const other of ['tomas-ferreira', 'chidi-okafor', 'aiko-tanaka']) {
      await call(mara, 'POST', `/api/friendship/request/${other}`);
    }
    const requested = (await call(mara, 'GET', '/api/friendship/list')).json<FriendList>().friends;
    expect(requested.map((friend) => `${friend.status}:${friend.username}`)).toEqual([
      'requested:aiko-tanaka',
      'requested:chidi-okafor',
      'requested:tomas-ferreira',
    ]);
  });

  it('gives each person their own like count and latest play', async () => {
    const { db } = harness.database;
    await befriend(mara, aiko, 'aiko-tanaka', 'mara-lindqvist');
    await befriend(mara, chidi, 'chidi-okafor', 'mara-lindqvist');
    // Aiko's plays and Chidi's likes, as the syncs store them.
    const source = (viewer: Viewer) =>
      tokenSourceFor(db, harness.cipher, harness.spotify, viewer.id);
    await syncRecentPlays(db, harness.spotify, source(aiko), aiko.id);
    await syncLibrary(db, harness.spotify, source(chidi), chidi.id);
    const [latest] = await db
      .select({ at: plays.playedAt })
      .from(plays)
      .where(eq(plays.userId, aiko.id))
      .orderBy(desc(plays.playedAt))
      .limit(1);
    const likes = await db.$count(savedTracks, eq(savedTracks.userId, chidi.id));
    expect(latest).toBeDefined();
    expect(likes).toBeGreaterThan(0);

    const list = (await call(mara, 'GET', '/api/friendship/list')).json<FriendList>().friends;
    expect(list).toEqual([
      expect.objectContaining({
        username: 'aiko-tanaka',
        likes: 0,
        last_play: latest!.at.toISOString(),
      }),
      expect.objectContaining({ username: 'chidi-okafor', likes, last_play: null }),
    ]);
  });

  it('needs a login', async () => {
    expect((await call(undefined, 'GET', '/api/friendship/list')).statusCode).toBe(401);
  });
});

describe('POST /api/user/username', () => {
  let jonas: Viewer;
  beforeAll(async () => {
    jonas = await harness.signIn('jonasbrandt');
  });
  beforeEach(async () => {
    await harness.database.db
      .update(users)
      .set({ username: 'jonas-brandt' })
      .where(eq(users.id, jonas.id));
  });

  const rename = (viewer: Viewer | undefined, username: unknown) =>
    harness.app.inject({
      method: 'POST',
      url: '/api/user/username',
      headers: viewer ? { cookie: viewer.cookie } : {},
      payload: { username },
    });

  it('trims and saves a new username, which then resolves', async () => {
    const response = await rename(jonas, '  jonas_b ');
    expect(response.json()).toEqual({ username: 'jonas_b' });
    await call(mara, 'POST', '/api/friendship/request/Jonas_B');
    expect(await status(mara, 'jonas_b')).toBe('pending_outgoing');
    expect((await call(mara, 'GET', '/api/friendship/status/jonas-brandt')).statusCode).toBe(404);
  });

  it('refuses empty, unsafe, too long and taken names', async () => {
    expect((await rename(jonas, '   ')).json()).toEqual({ detail: 'Username cannot be empty.' });
    expect((await rename(jonas, 'a/b')).statusCode).toBe(400);
    expect((await rename(jonas, 'x'.repeat(41))).statusCode).toBe(400);
    const taken = await rename(jonas, 'MARA-lindqvist');
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toEqual({ detail: 'That username is taken.' });
    expect((await rename(jonas, 42)).statusCode).toBe(400);
    expect(await status(mara, 'jonas-brandt')).toBe('none');
  });

  it('lets a user change only the case of their own name', async () => {
    expect((await rename(jonas, 'Jonas-Brandt')).json()).toEqual({ username: 'Jonas-Brandt' });
  });

  it('needs a login', async () => {
    expect((await rename(undefined, 'x')).statusCode).toBe(401);
  });
});
