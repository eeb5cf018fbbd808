import pg from 'pg';

/**
 * What syncs write while Discover is read: every second, a batch of new plays of the viewer and
 * of some of their friends, of songs they already play (so that the rolled windows' rows and the
 * songs' aggregates change under the readers, as they do in use). PostgreSQL only: PGlite serves
 * one process at a time.
 */
export interface PlaysWriter {
  /** Stops writing and answers how many plays were written, and the slowest batch's ms. */
  stop(): Promise<{ plays: number; batches: number; slowestBatchMs: number }>;
}

export async function startPlaysWriter(
  databaseUrl: string,
  viewerId: string,
  { viewerPlays, friendPlays }: { viewerPlays: number; friendPlays: number },
): Promise<PlaysWriter> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  const listeners = await pool.query<{ user_id: string; track_id: string }>(
    `SELECT u.user_id, u.track_id FROM (
       SELECT $1::uuid AS user_id UNION ALL
       SELECT friend_id FROM friendships WHERE user_id = $1
     ) who
     CROSS JOIN LATERAL (SELECT who.user_id, s.track_id FROM user_track_stats s
                         WHERE s.user_id = who.user_id LIMIT 200) u`,
    [viewerId],
  );
  const tracksOf = new Map<string, string[]>();
  for (const row of listeners.rows) {
    tracksOf.set(row.user_id, [...(tracksOf.get(row.user_id) ?? []), row.track_id]);
  }
  const friends = [...tracksOf.keys()].filter((id) => id !== viewerId);
  const pick = <T>(list: readonly T[]) => list[Math.floor(Math.random() * list.length)]!;
  let plays = 0;
  let batches = 0;
  let slowestBatchMs = 0;
  let serial = 0;
  let writing: Promise<void> = Promise.resolve();

  const writeBatch = async () => {
    const rows: [string, string][] = [];
    for (let i = 0; i < viewerPlays; i += 1) rows.push([viewerId, pick(tracksOf.get(viewerId)!)]);
    for (let i = 0; i < friendPlays; i += 1) {
      const friend = pick(friends);
      rows.push([friend, pick(tracksOf.get(friend)!)]);
    }
    const started = performance.now();
    // One statement, as a sync inserts a page of plays; each play at its own instant.
    await pool.query(
      `INSERT INTO plays (user_id, track_id, played_at, source)
       SELECT w.user_id::uuid, w.track_id, now() + w.n * interval '1 millisecond', 'api'
       FROM unnest($1::text[], $2::text[], $3::int[]) AS w(user_id, track_id, n)
       ON CONFLICT DO NOTHING`,
      [rows.map((r) => r[0]), rows.map((r) => r[1]), rows.map(() => (serial += 1))],
    );
    slowestBatchMs = Math.max(slowestBatchMs, performance.now() - started);
    plays += rows.length;
    batches += 1;
  };
  const timer = setInterval(() => {
    writing = writing.then(writeBatch);
  }, 1000);

  return {
    async stop() {
      clearInterval(timer);
      await writing;
      await pool.end();
      return { plays, batches, slowestBatchMs: Math.round(slowestBatchMs * 10) / 10 };
    },
  };
}
