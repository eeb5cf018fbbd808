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
import { MALFORMED_ID, playlists, UNKNOWN_ID, world } from './support/world-fixtures';

const itemsAt = (id: string) => world.playlistItems(id, TEST_START);

describe('GET /v1/me/playlists', () => {
  it('lists the playlists in the library, most recent first', async () => {
    const user = await (await testSandbox()).user();
    const library = world.playlistsOf(PREMIUM_ACCOUNT, TEST_START);

    const page = await user.ok('/me/playlists?limit=50');

    expect(page.items.map((item: Json) => item.id)).toEqual(library.map(({ id }) => id));
    expect(page).toMatchObject({
      href: `${API_BASE}/me/playlists?offset=0&limit=50`,
      total: library.length,
      next: null,
    });
    const own = page.items.find((item: Json) => item.id === playlists.ownPublic().id);
    expect(own).toMatchObject({
      collaborative: false,
      public: true,
      owner: { id: PREMIUM_ACCOUNT, display_name: world.account(PREMIUM_ACCOUNT)?.displayName },
      items: {
        href: `${API_BASE}/playlists/${own.id}/items`,
        total: itemsAt(own.id).length,
      },
      tracks: { href: `${API_BASE}/playlists/${own.id}/tracks`, total: itemsAt(own.id).length },
      type: 'playlist',
      uri: `spotify:playlist:${own.id}`,
    });
  });

  it('has no tracks reference in Development Mode', async () => {
    const user = await (await testSandbox()).user({ mode: 'development' });

    const page = await user.ok('/me/playlists');

    expect(page.items[0]).toHaveProperty('items');
    expect(page.items[0]).not.toHaveProperty('tracks');
  });

  it('leaves out private playlists without playlist-read-private, collaborative ones without playlist-read-collaborative', async () => {
    const sandbox = await testSandbox();
    const ids = async (scope: string) =>
      (await (await sandbox.user({ scope })).ok('/me/playlists?limit=50')).items.map(
        (item: Json) => item.id,
      );

    const noPrivate = await ids(allScopesBut('playlist-read-private'));
    expect(noPrivate).not.toContain(playlists.ownPrivate().id);
    expect(noPrivate).toContain(playlists.collaborating().id);
    const noCollaborative = await ids(allScopesBut('playlist-read-collaborative'));
    expect(noCollaborative).toContain(playlists.ownPrivate().id);
    expect(noCollaborative).not.toContain(playlists.collaborating().id);
    expect(await ids('')).toContain(playlists.ownPublic().id);
  });
});

describe('GET /v1/playlists/{id}', () => {
  it('embeds the first 100 items as items, and as tracks too in Extended Quota Mode', async () => {
    const sandbox = await testSandbox();
    const own = playlists.ownPublic();
    const extended = await (await sandbox.user()).ok(`/playlists/${own.id}`);
    const development = await (
      await sandbox.user({ mode: 'development' })
    ).ok(`/playlists/${own.id}`);

    expect(extended.items).toMatchObject({
      href: `${API_BASE}/playlists/${own.id}/items?offset=0&limit=100`,
      limit: 100,
      total: itemsAt(own.id).length,
    });
    expect(extended.tracks.href).toBe(`${API_BASE}/playlists/${own.id}/tracks?offset=0&limit=100`);
    expect(extended.items.items.map((item: Json) => item.item.id)).toEqual(
      itemsAt(own.id).map(({ trackId }) => trackId),
    );
    expect(extended.followers).toEqual({ href: null, total: own.followers });
    expect(development).not.toHaveProperty('tracks');
    expect(development.items.items[0]).not.toHaveProperty('track');
    expect(development.items.items[0].item).not.toHaveProperty('popularity');
    expect(development.snapshot_id).toBe(extended.snapshot_id);
  });

  it("leaves out the items of others' playlists in Development Mode", async () => {
    const sandbox = await testSandbox();
    const others = playlists.othersPublic();

    const development = await (
      await sandbox.user({ mode: 'development' })
    ).ok(`/playlists/${others.id}`);
    const collaborating = await (
      await sandbox.user({ mode: 'development' })
    ).ok(`/playlists/${playlists.collaborating().id}`);

    expect(development).not.toHaveProperty('items');
    expect(development).toMatchObject({ id: others.id, owner: { id: others.ownerId } });
    expect(collaborating.items.total).toBe(itemsAt(playlists.collaborating().id).length);
    expect((await (await sandbox.user()).ok(`/playlists/${others.id}`)).items.total).toBe(
      itemsAt(others.id).length,
    );
  });

  it('answers 404 "Not found." for unknown playlists and private ones of others', async () => {
    const user = await (await testSandbox()).user();

    expect((await user.get(`/playlists/${UNKNOWN_ID}`)).body).toEqual(apiError(404, 'Not found.'));
    expect((await user.get(`/playlists/${playlists.othersPrivate().id}`)).status).toBe(404);
    expect((await user.get(`/playlists/${MALFORMED_ID}`)).body).toEqual(
      apiError(400, 'Invalid base62 id'),
    );
  });

  it('needs playlist-read-private for a private playlist', async () => {
    const user = await (await testSandbox()).user({ scope: '' });

    expect((await user.get(`/playlists/${playlists.ownPrivate().id}`)).body).toEqual(
      apiError(403, 'Insufficient client scope'),
    );
    expect((await user.get(`/playlists/${playlists.ownPublic().id}`)).status).toBe(200);
  });
});

describe('GET /v1/playlists/{id}/items and /tracks', () => {
  it('pages the items with who added them and when', async () => {
    const user = await (await testSandbox()).user();
    const playlist = playlists.collaborating();
    const items = itemsAt(playlist.id);

    const page = await user.ok(`/playlists/${playlist.id}/items?offset=3&limit=5`);

    expect(page).toMatchObject({
      href: `${API_BASE}/playlists/${playlist.id}/items?offset=3&limit=5`,
      limit: 5,
      offset: 3,
      previous: `${API_BASE}/playlists/${playlist.id}/items?offset=0&limit=5`,
      total: items.length,
    });
    expect(page.items.map((item: Json) => [item.added_at, item.added_by.id, item.item.id])).toEqual(
      items
        .slice(3, 8)
        .map(({ addedAt, addedBy, trackId }) => [
          new Date(addedAt).toISOString().replace(/\.\d{3}Z$/, 'Z'),
          addedBy,
          trackId,
        ]),
    );
    expect(page.items[0]).toMatchObject({ is_local: false, track: { id: page.items[0].item.id } });
    expect((await user.get(`/playlists/${playlist.id}/items?limit=51`)).status).toBe(400);
  });

  it('answers 403 in Development Mode for a playlist the user neither owns nor collaborates on', async () => {
    const sandbox = await testSandbox();
    const user = await sandbox.user({ mode: 'development' });

    expect((await user.get(`/playlists/${playlists.othersPublic().id}/items`)).body).toEqual(
      apiError(403, 'Forbidden'),
    );
    expect((await user.get(`/playlists/${playlists.ownPublic().id}/items`)).status).toBe(200);
    expect((await user.get(`/playlists/${playlists.collaborating().id}/items`)).status).toBe(200);
    expect(
      (await (await sandbox.user()).get(`/playlists/${playlists.othersPublic().id}/items`)).status,
    ).toBe(200);
  });

  it('serves /tracks (up to 100 a page) only in Extended Quota Mode', async () => {
    const sandbox = await testSandbox();
    const own = playlists.ownPublic();

    const page = await (await sandbox.user()).ok(`/playlists/${own.id}/tracks?limit=100`);
    expect(page.href).toBe(`${API_BASE}/playlists/${own.id}/tracks?offset=0&limit=100`);
    expect(page.items[0]).toHaveProperty('track');
    expect(
      (await (await sandbox.user({ mode: 'development' })).get(`/playlists/${own.id}/tracks`)).body,
    ).toEqual(apiError(403, 'Forbidden'));
  });

  it('shows only the items added by the clock’s time', async () => {
    const playlist = playlists.ownPublic();
    const items = world.playlistItems(playlist.id, Number.MAX_SAFE_INTEGER);
    const middle = items[Math.floor(items.length / 2)];
    if (!middle) throw new Error('empty playlist');
    const user = await (await testSandbox(middle.addedAt)).user();

    const page = await user.ok(`/playlists/${playlist.id}/items?limit=50`);

    expect(page.total).toBe(world.playlistItems(playlist.id, middle.addedAt).length);
    expect(page.items.at(-1).item.id).toBe(middle.trackId);
  });
});
