import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FriendList } from '@earshot/contract/friendship';
import { users } from '../src/db/schema/users';
import { seedDemoWorld } from '../src/services/demo-world';
import { startHarness, type Harness } from './support/harness';

let harness: Harness;
beforeAll(async () => {
  harness = await startHarness();
});
afterAll(() => harness.close());

const seed = () =>
  seedDemoWorld({
    db: harness.database.db,
    spotify: harness.spotify,
    cipher: harness.cipher,
    controlUrl: `${harness.sandboxUrl}/control`,
    controlToken: undefined,
    log: harness.app.log,
  });

describe('the demo world', () => {
  it('connects every sandbox account and follows the social graph at first start only', async () => {
    expect(await seed()).toBe(14);
    expect(await harness.database.db.select().from(users)).toHaveLength(14);

    // Mara, logging in now, finds her friends and requests waiting.
    const { cookie } = await harness.login('maralindqvist');
    const list = await harness.app.inject({ url: '/api/friendship/list', headers: { cookie } });
    const friends = list.json<FriendList>().friends;
    expect(friends.map(({ username, status }) => `${status}:${username}`).sort()).toEqual([
      'accepted:camille-dubois',
      'accepted:jonas-brandt',
      'accepted:olivia-bennett',
      'accepted:tomas-ferreira',
      'pending:chidi-okafor',
      'pending:seo-yeon-park',
      'requested:sofia-martinez',
    ]);

    // A later start (the same database) leaves the demo as it is.
    expect(await seed()).toBe(0);
    expect(await harness.database.db.select().from(users)).toHaveLength(14);
  });
});
