import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './support/harness';

let harness: Harness;
let mara: string;
let tomas: string;
let aiko: string;
let chidi: string;

beforeAll(async () => {
  harness = await startHarness();
  mara = (await harness.login('maralindqvist')).cookie;
  tomas = (await harness.login('31kzt4wq7yv2jhd6ncx3bfrm5lpa')).cookie;
  aiko = (await harness.login('11183207465')).cookie;
  chidi = (await harness.login('chidiokafor')).cookie;
});
afterAll(() => harness.close());

function call(cookie: string | undefined, method: 'GET' | 'POST' | 'DELETE', url: string) {
  return harness.app.inject({ method, url, headers: cookie ? { cookie } : {} });
}
const status = async (cookie: string, user: string) =>
  (await call(cookie, 'GET', `/api/friendship/status/${user}`)).json<{ status: string }>().status;

describe('friendship transitions', () => {
  it('none → pending_outgoing → friends, seen from both sides', async () => {
    expect(await status(mara, 'tomas-ferreira')).toBe('none');
    const request = await call(mara, 'POST', '/api/friendship/request/tomas-ferreira');
    expect(request.json()).toEqual({ status: 'pending_outgoing' });
    expect(await status(mara, 'tomas-ferreira')).toBe('pending_outgoing');
    expect(await status(tomas, 'mara-lindqvist')).toBe('pending_incoming');

    const pending = await call(tomas, 'GET', '/api/friendship/pending');
    expect(pending.json()).toEqual({
      requests: [
        {
          user: {
            id: expect.any(String),
            name: 'Mara Lindqvist',
            username: 'mara-lindqvist',
            picture: expect.any(String),
          },
        },
      ],
    });

    const accept = await call(tomas, 'POST', '/api/friendship/accept/MARA-LINDQVIST');
    expect(accept.json()).toEqual({ status: 'friends' });
    expect(await status(mara, 'tomas-ferreira')).toBe('friends');
    expect((await call(tomas, 'GET', '/api/friendship/pending')).json()).toEqual({ requests: [] });
  });

  it('is idempotent: asking again changes nothing', async () => {
    expect((await call(mara, 'POST', '/api/friendship/request/tomas-ferreira')).json()).toEqual({
      status: 'friends',
    });
  });

  it('turns a request to someone who already asked you into a friendship', async () => {
    await call(aiko, 'POST', '/api/friendship/request/chidi-okafor');
    const crossing = await call(chidi, 'POST', '/api/friendship/request/aiko-tanaka');
    expect(crossing.json()).toEqual({ status: 'friends' });
    expect(await status(aiko, 'chidi-okafor')).toBe('friends');
  });

  it('lets the requester cancel with decline, and the addressee decline', async () => {
    await call(mara, 'POST', '/api/friendship/request/aiko-tanaka');
    expect((await call(mara, 'POST', '/api/friendship/decline/aiko-tanaka')).json()).toEqual({
      status: 'none',
    });
    expect(await status(aiko, 'mara-lindqvist')).toBe('none');

    await call(mara, 'POST', '/api/friendship/request/aiko-tanaka');
    await call(aiko, 'POST', '/api/friendship/decline/mara-lindqvist');
    expect(await status(mara, 'aiko-tanaka')).toBe('none');
  });

  it('unfriends from either side', async () => {
    const chidiId = (await call(chidi, 'GET', '/api/user/me')).json<{ id: string }>().id;
    const response = await call(aiko, 'DELETE', `/api/friendship/unfriend/${chidiId}`);
    expect(response.json()).toEqual({ status: 'none' });
    expect(await status(chidi, 'aiko-tanaka')).toBe('none');
  });

  it('refuses transitions that do not exist, with a 4xx detail', async () => {
    const self = await call(mara, 'POST', '/api/friendship/request/mara-lindqvist');
    expect(self.statusCode).toBe(400);
    expect(self.json()).toEqual({ detail: 'You cannot send a friend request to yourself.' });
    expect(await status(mara, 'mara-lindqvist')).toBe('self');

    const acceptNothing = await call(aiko, 'POST', '/api/friendship/accept/mara-lindqvist');
    expect(acceptNothing.statusCode).toBe(404);
    const declineNothing = await call(aiko, 'POST', '/api/friendship/decline/mara-lindqvist');
    expect(declineNothing.statusCode).toBe(404);
    const unfriendStranger = await call(aiko, 'DELETE', '/api/friendship/unfriend/mara-lindqvist');
    expect(unfriendStranger.statusCode).toBe(404);
    const nobody = await call(aiko, 'POST', '/api/friendship/request/no-such-user');
    expect(nobody.statusCode).toBe(404);
    expect(nobody.json()).toEqual({ detail: 'User not found' });
  });

  it('keeps no dangling request when two requests cross at the same instant', async () => {
    const [a, b] = await Promise.all([
      call(aiko, 'POST', '/api/friendship/request/tomas-ferreira'),
      call(tomas, 'POST', '/api/friendship/request/aiko-tanaka'),
    ]);
    expect([a.json(), b.json()].map((r) => (r as { status: string }).status).sort()).toEqual([
      'friends',
      'pending_outgoing',
    ]);
    expect(await status(aiko, 'tomas-ferreira')).toBe('friends');
    expect((await call(tomas, 'GET', '/api/friendship/pending')).json()).toEqual({ requests: [] });
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
  it('lists friends and requests both ways with their badges', async () => {
    await call(chidi, 'POST', '/api/friendship/request/mara-lindqvist');
    await call(mara, 'POST', '/api/friendship/request/aiko-tanaka');
    const list = (await call(mara, 'GET', '/api/friendship/list')).json<{
      friends: { username: string; status: string; likes: number; last_play: string | null }[];
    }>().friends;
    expect(list.map(({ username, status }) => [username, status])).toEqual([
      ['chidi-okafor', 'pending'],
      ['aiko-tanaka', 'requested'],
      ['tomas-ferreira', 'accepted'],
    ]);
    expect(list[2]).toMatchObject({ likes: 0, last_play: null });
  });
});

describe('POST /api/user/username', () => {
  const rename = (cookie: string | undefined, username: unknown) =>
    harness.app.inject({
      method: 'POST',
      url: '/api/user/username',
      headers: cookie ? { cookie } : {},
      payload: { username },
    });

  it('trims and saves a new username, which then resolves', async () => {
    const response = await rename(aiko, '  aiko_t ');
    expect(response.json()).toEqual({ username: 'aiko_t' });
    expect(await status(mara, 'Aiko_T')).toBe('pending_outgoing');
  });

  it('refuses empty, unsafe, too long and taken names', async () => {
    expect((await rename(aiko, '   ')).json()).toEqual({ detail: 'Username cannot be empty.' });
    expect((await rename(aiko, 'a/b')).statusCode).toBe(400);
    expect((await rename(aiko, 'x'.repeat(41))).statusCode).toBe(400);
    const taken = await rename(aiko, 'MARA-lindqvist');
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toEqual({ detail: 'That username is taken.' });
    expect((await rename(aiko, 42)).statusCode).toBe(400);
  });

  it('lets a user change only the case of their own name', async () => {
    expect((await rename(aiko, 'Aiko_T')).json()).toEqual({ username: 'Aiko_T' });
  });

  it('needs a login', async () => {
    expect((await rename(undefined, 'x')).statusCode).toBe(401);
  });
});
