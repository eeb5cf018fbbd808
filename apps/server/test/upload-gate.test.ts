import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Database } from '../src/db/client';
import { uploadReservations } from '../src/db/schema/imports';
import { users } from '../src/db/schema/users';
import { HttpError } from '../src/errors';
import { RESERVATION_TTL_MS, UploadGate } from '../src/services/import/upload-gate';
import { freshDatabase } from './support/database';

let dir: string;
let database: Database;
const ids: Record<string, string> = {};
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'earshot-uploads-'));
  database = await freshDatabase();
  for (const handle of ['mara', 'tomas', 'aiko', 'chidi']) {
    const [user] = await database.db
      .insert(users)
      .values({ spotifyId: `gate-${handle}`, username: `gate-${handle}`, name: handle })
      .returning();
    ids[handle] = user!.id;
  }
});
afterEach(async () => {
  vi.useRealTimers();
  await database.db.delete(uploadReservations);
});
afterAll(async () => {
  await database.close();
  await rm(dir, { recursive: true, force: true });
});

/** A gate as one API process holds it; several share the database and the folder. */
const processGate = (maxTotalBytes = 10_000) => new UploadGate(database.db, dir, maxTotalBytes);

async function refusal(promise: Promise<unknown>) {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(HttpError);
  expect(error).toMatchObject({ statusCode: 429 });
  return (error as HttpError).message;
}

describe('the upload gate', () => {
  it('lets one upload per user arrive at a time, whichever process it reaches', async () => {
    const [one, two] = [processGate(), processGate()];
    const release = await one.admit(ids.mara!, 1_000);
    expect(await refusal(two.admit(ids.mara!, 1_000))).toMatch(/previous upload is still arriving/);
    expect(await refusal(one.admit(ids.mara!, 1_000))).toMatch(/previous upload is still arriving/);
    await (
      await two.admit(ids.tomas!, 1_000)
    )();
    await release();
    await (
      await two.admit(ids.mara!, 1_000)
    )();
  });

  it('bounds the disk of all uploads, arriving in any process and waiting for their import', async () => {
    await writeFile(path.join(dir, 'waiting.zip'), Buffer.alloc(6_000));
    try {
      const first = await processGate().admit(ids.mara!, 3_000);
      expect(await refusal(processGate().admit(ids.tomas!, 3_000))).toMatch(
        /Too many uploads are waiting/,
      );
      await (
        await processGate().admit(ids.tomas!, 1_000)
      )();
      await first();
      await (
        await processGate().admit(ids.tomas!, 3_000)
      )();
    } finally {
      await rm(path.join(dir, 'waiting.zip'));
    }
  });

  it('counts uploads that start together against each other', async () => {
    const results = await Promise.allSettled(
      ['mara', 'tomas', 'aiko'].map((handle) => processGate().admit(ids[handle]!, 4_000)),
    );
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(2);
    expect(await database.db.select().from(uploadReservations)).toHaveLength(2);
  });

  it('forgets the upload of a process that died once its reservation expires', async () => {
    await processGate().admit(ids.mara!, 9_000); // never released: its process is gone
    expect(await refusal(processGate().admit(ids.mara!, 1_000))).toMatch(/still arriving/);
    expect(await refusal(processGate().admit(ids.tomas!, 2_000))).toMatch(/Too many uploads/);
    await database.db.update(uploadReservations).set({ expiresAt: new Date(Date.now() - 1) });
    await (
      await processGate().admit(ids.mara!, 1_000)
    )();
    await (
      await processGate().admit(ids.tomas!, 2_000)
    )();
  });

  it('renews a reservation while its upload streams, and a late release frees only its own', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const release = await processGate().admit(ids.chidi!, 1_000);
    const expiresAt = async () =>
      (
        await database.db
          .select({ at: uploadReservations.expiresAt })
          .from(uploadReservations)
          .where(eq(uploadReservations.userId, ids.chidi!))
      )[0]?.at.getTime();
    await database.db.update(uploadReservations).set({ expiresAt: new Date(Date.now() + 1_000) });
    vi.advanceTimersByTime(RESERVATION_TTL_MS / 4);
    await vi.waitUntil(async () => ((await expiresAt()) ?? 0) > Date.now() + 30_000);

    // Had it expired and another upload of the same user been admitted since, releasing the
    // first must leave the second's reservation in place.
    await database.db.execute(
      sql`UPDATE upload_reservations SET expires_at = now() - interval '1 s'`,
    );
    const second = await processGate().admit(ids.chidi!, 1_000);
    await release();
    expect(await expiresAt()).toBeDefined();
    await second();
    expect(await expiresAt()).toBeUndefined();
  });
});
