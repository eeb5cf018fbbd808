import { randomUUID } from 'node:crypto';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { eq, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { uploadReservations } from '../../db/schema/imports';
import { HttpError } from '../../errors';

/** Bytes of the uploads waiting in `dir` for their import. */
async function bytesWaitingIn(dir: string): Promise<number> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const sizes = await Promise.all(
    names.map((name) =>
      stat(path.join(dir, name)).then(
        (entry) => entry.size,
        () => 0,
      ),
    ),
  );
  return sizes.reduce((sum, size) => sum + size, 0);
}

/** How long a reservation outlives its last renewal: a dead process's upload is forgotten then. */
export const RESERVATION_TTL_MS = 60_000;
const RENEW_EVERY_MS = RESERVATION_TTL_MS / 4;

/**
 * Admits uploads: one at a time per user, and no more than `maxTotalBytes` on disk for all users
 * together (uploads waiting for their import plus those arriving). Arriving uploads are rows of
 * `upload_reservations`, so the bound holds across every API process sharing the database and
 * the import folder; a row is renewed while its upload streams and expires if its process dies.
 */
export class UploadGate {
  constructor(
    private readonly db: Db,
    private readonly dir: string,
    private readonly maxTotalBytes: number,
  ) {}

  /** Reserves room for an upload of up to `bytes`; answers the function that frees it. */
  async admit(userId: string, bytes: number): Promise<() => Promise<void>> {
    const waiting = await bytesWaitingIn(this.dir);
    const token = randomUUID();
    const refusal = await this.db.transaction(async (tx) => {
      // One admission at a time, so that uploads starting together count each other.
      await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext('upload-gate'))`);
      await tx.delete(uploadReservations).where(lt(uploadReservations.expiresAt, sql`now()`));
      const [arriving] = await tx
        .select({
          bytes: sql<number>`coalesce(sum(${uploadReservations.bytes}), 0)::float8`,
          mine: sql<boolean>`coalesce(bool_or(${uploadReservations.userId} = ${userId}), false)`,
        })
        .from(uploadReservations);
      if (arriving!.mine) {
        return 'Your previous upload is still arriving. Wait for it to finish.';
      }
      if (waiting + arriving!.bytes + bytes > this.maxTotalBytes) {
        return 'Too many uploads are waiting to be imported right now. Please try again in a few minutes.';
      }
      await tx.insert(uploadReservations).values({ userId, token, bytes, expiresAt: expiry() });
      return undefined;
    });
    if (refusal) throw new HttpError(429, refusal);

    const renewal = setInterval(() => {
      this.db
        .update(uploadReservations)
        .set({ expiresAt: expiry() })
        .where(eq(uploadReservations.token, token))
        .catch(() => {
          // A missed renewal only shortens the reservation; the next one or the release follows.
        });
    }, RENEW_EVERY_MS);
    renewal.unref();
    let released = false;
    return async () => {
      if (released) return;
      released = true;
      clearInterval(renewal);
      await this.db.delete(uploadReservations).where(eq(uploadReservations.token, token));
    };
  }
}

const expiry = () => new Date(Date.now() + RESERVATION_TTL_MS);
