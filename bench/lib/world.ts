import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type pg from 'pg';
import type { GeneratedWorld, GenerationSettings } from './database';
import { indexDefinitions, insertColumns, type IndexDefinition, type Queryable } from './postgres';
import { Random } from './random';
import { Steps } from './steps';
import { generateCatalogue, TRACK_RANKS, type CatalogueSummary } from './catalogue';
import { FIRST_NAMES, LAST_NAMES } from './words';

/** The helper table of generated users: who they are and how they listen. */
export const USER_PLANS = 'bench_user_plans';

const MIGRATIONS = fileURLToPath(new URL('../../apps/server/src/db/migrations/', import.meta.url));

/** How one generated user listens; plays and likes are drawn from it in SQL. */
export interface UserPlan {
  id: string;
  username: string;
  name: string;
  plays: number;
  likes: number;
  /** Oldest and newest play. */
  firstAt: Date;
  lastAt: Date;
  /** When Earshot started polling: older plays came from an imported history. */
  trackingSince: Date;
  /** Their own corner of the catalogue: ranks [offset, offset + size), skewed by `skew`. */
  poolOffset: number;
  poolSize: number;
  poolSkew: number;
  /** Share of plays drawn from the whole catalogue's hits instead. */
  globalShare: number;
}

/** A uuid from the seeded generator. */
export function randomUuid(random: Random): string {
  const h = Array.from({ length: 32 }, () => '0123456789abcdef'[random.int(0, 15)]);
  h[12] = '4';
  h[16] = '89ab'[random.int(0, 3)]!;
  const s = h.join('');
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
}

/** A display name and a unique, URL-safe username like Earshot derives them (`ana-silva-42`). */
export function personName(random: Random, n: number): { name: string; username: string } {
  const name = `${random.pick(FIRST_NAMES)} ${random.pick(LAST_NAMES)}`;
  const slug = name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-');
  return { name, username: `${slug}-${n}` };
}

/** A standard normal draw (Box–Muller), for log-normal activity levels. */
export function gaussian(random: Random): number {
  return Math.sqrt(-2 * Math.log(1 - random.next())) * Math.cos(2 * Math.PI * random.next());
}

/** Splits `total` in proportion to `weights`, exactly (largest remainders). */
export function apportion(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  const raw = weights.map((w) => (total * w) / sum);
  const counts = raw.map(Math.floor);
  let left = total - counts.reduce((a, b) => a + b, 0);
  const order = raw.map((r, i) => [r - Math.floor(r), i] as const).sort((a, b) => b[0] - a[0]);
  for (const [, i] of order) {
    if (left-- <= 0) break;
    counts[i]!++;
  }
  return counts;
}

/**
 * Stores the users (`users`, `spotify_accounts` with placeholder tokens: jobs stay off) and the
 * helper table `bench_user_plans`, numbered from 0 in the order given.
 */
export async function storeUsers(db: Queryable, plans: readonly UserPlan[]): Promise<void> {
  await db.query(`DROP TABLE IF EXISTS ${USER_PLANS}`);
  await db.query(`CREATE UNLOGGED TABLE ${USER_PLANS} (
    n int PRIMARY KEY, id uuid NOT NULL, plays int NOT NULL, likes int NOT NULL,
    first_at timestamptz NOT NULL, last_at timestamptz NOT NULL, tracking_since timestamptz NOT NULL,
    pool_offset int NOT NULL, pool_size int NOT NULL, pool_skew float8 NOT NULL,
    global_share float8 NOT NULL)`);
  const column = <T>(pick: (plan: UserPlan) => T) => plans.map(pick);
  await insertColumns(
    db,
    USER_PLANS,
    {
      n: 'int',
      id: 'uuid',
      plays: 'int',
      likes: 'int',
      first_at: 'timestamptz',
      last_at: 'timestamptz',
      tracking_since: 'timestamptz',
      pool_offset: 'int',
      pool_size: 'int',
      pool_skew: 'float8',
      global_share: 'float8',
    },
    {
      n: plans.map((_, n) => n),
      id: column((p) => p.id),
      plays: column((p) => p.plays),
      likes: column((p) => p.likes),
      first_at: column((p) => p.firstAt),
      last_at: column((p) => p.lastAt),
      tracking_since: column((p) => p.trackingSince),
      pool_offset: column((p) => p.poolOffset),
      pool_size: column((p) => p.poolSize),
      pool_skew: column((p) => p.poolSkew),
      global_share: column((p) => p.globalShare),
    },
  );
  await db.query(
    `INSERT INTO users (id, spotify_id, username, name, email, picture, subscribed, created_at)
     SELECT p.id, 'bench-' || p.n, x.username, x.name, x.username || '@example.com',
            'https://i.scdn.co/image/ab6775700000ee85' || left(md5(p.id::text), 24),
            p.n % 3 <> 0, p.tracking_since
     FROM ${USER_PLANS} p JOIN unnest($1::uuid[], $2::text[], $3::text[]) AS x(id, username, name)
       ON x.id = p.id`,
    [column((p) => p.id), column((p) => p.username), column((p) => p.name)],
  );
  await db.query(
    `INSERT INTO spotify_accounts (user_id, access_token_encrypted, refresh_token_encrypted,
       access_token_expires_at, scopes, connected_at, tracking_since)
     SELECT id, 'bench', 'bench', now(), 'user-read-recently-played user-library-read',
            tracking_since, tracking_since
     FROM ${USER_PLANS}`,
  );
}

/** The rank of a track a user picks: their own corner mostly, the catalogue's hits sometimes. */
const pickRank = (trackCount: number, skew: string) => `CASE
    WHEN random() < u.global_share THEN floor(${trackCount} * random() ^ 3)::int
    ELSE (u.pool_offset + floor(u.pool_size * random() ^ ${skew})::int) % ${trackCount} END`;

/**
 * Plays of the users numbered [from, to): spread over each one's active period (one per slot,
 * so `(user, played_at)` stays unique), whole milliseconds as Spotify reports them, with
 * album or playlist contexts; before `tracking_since` they come from an imported history
 * (`extended_history`, with `ms_played`).
 */
export function insertPlays(db: Queryable, trackCount: number, from: number, to: number) {
  return db.query(
    `INSERT INTO plays (user_id, played_at, track_id, context_uri, source, ms_played)
     SELECT g.id, g.played_at, t.id,
            CASE WHEN g.context < 0.45 THEN 'spotify:album:' || t.album_id
                 WHEN g.context < 0.75 THEN 'spotify:playlist:' || left(md5(g.id::text || floor(g.context * 40)), 22)
            END,
            CASE WHEN g.played_at < g.tracking_since THEN 'extended_history' ELSE 'api' END,
            CASE WHEN g.played_at < g.tracking_since THEN (t.duration_ms * (0.3 + 0.7 * g.context))::int END
     FROM (
       SELECT u.id, u.tracking_since, random() AS context,
              date_trunc('milliseconds',
                u.last_at - (i + 0.9 * random()) * ((u.last_at - u.first_at) / greatest(u.plays, 1))) AS played_at,
              ${pickRank(trackCount, 'u.pool_skew')} AS rank
       FROM ${USER_PLANS} u, generate_series(0, u.plays - 1) AS i
       WHERE u.n >= $1 AND u.n < $2
     ) g
     JOIN ${TRACK_RANKS} t ON t.rank = g.rank`,
    [from, to],
  );
}

/**
 * Both rows of a friendship, 400 days old, for each pair of generated users that `pairs` (SQL over
 * `a.n` and `b.n`, the users' numbers) accepts.
 */
export function insertFriendships(db: Queryable, pairs: string) {
  return db.query(
    `INSERT INTO friendships (user_id, friend_id, since)
     SELECT a.id, b.id, now() - interval '400 days' FROM ${USER_PLANS} a, ${USER_PLANS} b
     WHERE ${pairs}`,
  );
}

/**
 * Likes (saved tracks) of the users numbered [from, to): mostly from the tracks they play,
 * added over their active period and the year before it.
 */
export function insertLikes(db: Queryable, trackCount: number, from: number, to: number) {
  return db.query(
    `INSERT INTO saved_tracks (user_id, track_id, added_at)
     SELECT user_id, track_id, added_at FROM (
       SELECT c.*, row_number() OVER (PARTITION BY c.user_id ORDER BY c.k) AS r FROM (
         SELECT DISTINCT ON (g.id, t.id) g.id AS user_id, t.id AS track_id, g.likes, g.k,
                date_trunc('milliseconds',
                  g.first_at - interval '365 days'
                  + random() * (g.last_at - g.first_at + interval '365 days')) AS added_at
         FROM (
           SELECT u.id, u.likes, u.first_at, u.last_at, k, ${pickRank(trackCount, '1')} AS rank
           FROM ${USER_PLANS} u, generate_series(1, u.likes * 2) AS k
           WHERE u.n >= $1 AND u.n < $2 AND u.likes > 0
         ) g
         JOIN ${TRACK_RANKS} t ON t.rank = g.rank
         ORDER BY g.id, t.id, g.k
       ) c
     ) x
     WHERE r <= likes`,
    [from, to],
  );
}

/**
 * The statements that fill the play aggregates, taken from the migrations' backfills (the last
 * one of each aggregate table), so the generated aggregates are what the product's triggers
 * would have kept (per-day ones in day order, the order they arrive in). Grouped by migration, in order: a later migration's aggregates may be built
 * from an earlier one's; the statements of one group are independent.
 */
export async function aggregateBackfills(): Promise<{ tables: string[]; groups: string[][] }> {
  const files = (await readdir(MIGRATIONS)).filter((f) => f.endsWith('.sql')).sort();
  const byTable = new Map<string, { file: number; sql: string }>();
  for (const [index, file] of files.entries()) {
    const text = await readFile(`${MIGRATIONS}${file}`, 'utf8');
    for (const statement of text.split('--> statement-breakpoint')) {
      const sql = statement
        .split('\n')
        .filter((line) => !line.trim().startsWith('--'))
        .join('\n')
        .trim();
      const insert = /^INSERT INTO (user_\w+)\s*\(([^)]*)\)/i.exec(sql);
      if (!insert) continue;
      // Rows arrive day by day: per-day aggregates are stored in that order, as in production.
      const dayColumn = insert[2]!.split(',').findIndex((column) => column.trim() === 'day');
      const ordered =
        dayColumn >= 0 ? `${sql.replace(/;\s*$/, '')} ORDER BY ${dayColumn + 1}` : sql;
      byTable.set(insert[1]!, { file: index, sql: ordered });
    }
  }
  if (byTable.size === 0) throw new Error(`No aggregate backfill found in ${MIGRATIONS}`);
  const groups = new Map<number, string[]>();
  for (const { file, sql } of byTable.values())
    groups.set(file, [...(groups.get(file) ?? []), sql]);
  return {
    tables: [...byTable.keys()],
    groups: [...groups.entries()].sort((a, b) => a[0] - b[0]).map(([, group]) => group),
  };
}

/**
 * Connections for a bulk load: foreign-key and user triggers off (`session_replication_role =
 * replica`: the generator writes consistent rows, and aggregates are filled in one pass after
 * the plays), no waiting for the WAL flush, and memory for big sorts and index builds.
 */
export async function loaderClients(
  pool: pg.Pool,
  count: number,
  { workMem = '1GB', maintenanceWorkMem = '2GB' } = {},
): Promise<pg.PoolClient[]> {
  const clients: pg.PoolClient[] = [];
  for (let i = 0; i < count; i++) {
    const client = await pool.connect();
    await client.query('SET session_replication_role = replica');
    await client.query('SET synchronous_commit = off');
    await client.query(`SET work_mem = '${workMem}'`);
    await client.query(`SET maintenance_work_mem = '${maintenanceWorkMem}'`);
    clients.push(client);
  }
  return clients;
}

/** Runs `tasks` on `clients`, each client taking the next task when it is free. */
export async function onClients(
  clients: readonly Queryable[],
  tasks: readonly ((db: Queryable) => Promise<unknown>)[],
): Promise<void> {
  let next = 0;
  await Promise.all(
    clients.map(async (client) => {
      while (next < tasks.length) await tasks[next++]!(client);
    }),
  );
}

export async function releaseLoaderClients(clients: readonly pg.PoolClient[]): Promise<void> {
  for (const client of clients) {
    await client.query('RESET ALL');
    client.release();
  }
}

/** What a world generator works with while it fills the database. */
export interface WorldLoader {
  random: Random;
  steps: Steps;
  /** The generation's clock: users' plays are placed relative to it. */
  now: number;
  clients: pg.PoolClient[];
  /** The first loader client, for the statements that run one at a time. */
  main: pg.PoolClient;
  /** Runs `tasks` on all loader clients, each taking the next task when it is free. */
  parallel(tasks: readonly ((db: Queryable) => Promise<unknown>)[]): Promise<void>;
}

/**
 * Runs a world generator on bulk-loading connections (reset and released afterwards, whatever
 * happens) and records what it made with the steps' durations and the generation time. What
 * `load` returns besides the catalogue and row counts is kept in the world too.
 */
export async function generateWorld<Size, Made extends Pick<GeneratedWorld, 'catalogue' | 'rows'>>(
  pool: pg.Pool,
  size: Size,
  settings: GenerationSettings,
  load: (loader: WorldLoader) => Promise<Made>,
): Promise<GeneratedWorld & Omit<Made, 'catalogue' | 'rows'> & { size: Size }> {
  const steps = new Steps();
  const now = Date.now();
  const clients = await loaderClients(pool, settings.concurrency, settings);
  try {
    const { catalogue, rows, ...made } = await load({
      random: new Random(settings.seed),
      steps,
      now,
      clients,
      main: clients[0]!,
      parallel: (tasks) => onClients(clients, tasks),
    });
    return {
      size,
      catalogue,
      rows,
      steps: steps.durations,
      seconds: steps.total(),
      ...made,
      generatedAt: new Date(now).toISOString(),
    };
  } finally {
    await releaseLoaderClients(clients);
  }
}

/**
 * The first steps of a world with generated users: the seeded catalogue of `trackCount` tracks,
 * then the users `plan` draws from the same generator, stored (`storeUsers`).
 */
export async function storeCatalogueAndUsers(
  { random, steps, main }: WorldLoader,
  trackCount: number,
  plan: () => UserPlan[],
  usersStep = 'users',
): Promise<{ catalogue: CatalogueSummary; users: UserPlan[] }> {
  const catalogue = await steps.run(`catalogue (${trackCount} tracks)`, () =>
    generateCatalogue(main, random, trackCount),
  );
  const users = plan();
  await steps.run(usersStep, () => storeUsers(main, users));
  return { catalogue, users };
}

/**
 * Drops the indexes of `tables` and of the play aggregates' tables for the load, all but those
 * `keep` keeps; `finishLoad` builds them again. Returns them with the aggregates' backfills.
 */
export async function dropIndexesForLoad(
  db: Queryable,
  tables: readonly string[],
  keep: (index: IndexDefinition) => boolean = () => false,
): Promise<{
  deferred: IndexDefinition[];
  backfills: Awaited<ReturnType<typeof aggregateBackfills>>;
}> {
  const backfills = await aggregateBackfills();
  const deferred = (await indexDefinitions(db, [...tables, ...backfills.tables])).filter(
    (index) => !keep(index),
  );
  for (const index of deferred) await db.query(index.drop);
  return { deferred, backfills };
}

/** Exact row counts of `tables`, for the report. */
export async function countRows(
  db: Queryable,
  tables: readonly string[],
): Promise<Record<string, number>> {
  const rows: Record<string, number> = {};
  for (const table of tables) {
    const result = await db.query<{ n: string }>(`SELECT count(*) AS n FROM ${table}`);
    rows[table] = Number(result.rows[0]!.n);
  }
  return rows;
}

/**
 * Fills the play aggregates with the migrations' backfills (`aggregateBackfills`): one group
 * after the other, the statements of a group in parallel.
 */
export async function fillAggregates(
  { steps, parallel }: WorldLoader,
  groups: readonly string[][],
): Promise<void> {
  await steps.run('play aggregates (as the trigger keeps them)', async () => {
    for (const group of groups) await parallel(group.map((sql) => (db) => db.query(sql)));
  });
}

/**
 * Builds the indexes dropped for the load, in parallel, then drops the generator's helper tables
 * (the users' plans and the track ranks), which nothing reads once the data is in.
 */
export async function finishLoad(
  { steps, parallel, main }: WorldLoader,
  deferred: readonly IndexDefinition[],
): Promise<void> {
  await steps.run(`build ${deferred.length} indexes`, () =>
    parallel(
      deferred.map((index) => async (db) => {
        await db.query(index.create);
        for (const setting of index.settings) await db.query(setting);
      }),
    ),
  );
  await main.query(`DROP TABLE ${USER_PLANS}, ${TRACK_RANKS}`);
}
