import type { ActivityItem, ActivityPage } from '@earshot/contract/activity';
import { sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import type { UserRow } from '../db/schema/users';
import { HttpError } from '../errors';
import { parseDateQuery } from './date-query';
import { areFriends, friendIdsQuery } from './social';
import { foldText } from './text';
import { trackSummaries } from './tracks';
import { isUserId, requireUserByHandle } from './users';

export interface ActivityParams {
  limit: number;
  before?: string | undefined;
  includeMe: boolean;
  user?: string | undefined;
  q?: string | undefined;
}

interface ScopeUser {
  id: string;
  username: string;
  name: string;
}

/** Above this many matching tracks, scanning each user's newest rows finds matches faster. */
const RARE_MATCH_LIMIT = 2000;

/**
 * Whose activity the viewer asked for: one user (themselves or a friend), or the viewer and
 * their friends, or the friends only. Anyone else's activity is refused, never shown. `ids` is
 * SQL yielding the users' ids as rows `(id)`; `users` (with names) is read only when needed
 * (one user, or a text search, which also matches user names).
 */
interface Scope {
  ids: SQL;
  users?: ScopeUser[];
}

async function scopeOf(
  db: Db,
  viewer: UserRow,
  params: ActivityParams,
  withNames: boolean,
): Promise<Scope> {
  if (params.user) {
    const target = await requireUserByHandle(db, params.user);
    if (target.id !== viewer.id && !(await areFriends(db, viewer.id, target.id))) {
      throw new HttpError(404, `Only ${target.username}'s friends can see their activity.`);
    }
    return {
      ids: sql`SELECT ${target.id}::uuid AS id`,
      users: [{ id: target.id, username: target.username, name: target.name }],
    };
  }
  const ids = sql`${friendIdsQuery(viewer.id)}
    UNION ALL SELECT ${viewer.id}::uuid WHERE ${params.includeMe}`;
  if (!withNames) return { ids };
  // One primary-key probe per user: an `IN (…) OR id = viewer` condition would scan all users.
  const result = await db.execute<{ id: string; username: string; name: string }>(sql`
    SELECT u.id, u.username, u.name FROM users u WHERE u.id = ANY(ARRAY(${ids}))`);
  return {
    ids: sql`SELECT unnest(${sql.param(result.rows.map((user) => user.id))}::uuid[]) AS id`,
    users: result.rows,
  };
}

/** The cursor is the sort key of the last item shown: time, user and (likes) track. */
interface Cursor {
  at: Date;
  userId: string;
  trackId: string;
}

function encodeCursor(cursor: Cursor): string {
  return Buffer.from(`${cursor.at.getTime()}.${cursor.userId}.${cursor.trackId}`, 'utf8').toString(
    'base64url',
  );
}

/** Refuses any cursor this service could not have written: a forged one never reaches SQL. */
function decodeCursor(value: string | undefined): Cursor | undefined {
  if (!value) return undefined;
  // Track ids are the catalogue's text: everything after the user id, dots included.
  const [ms, userId, ...trackParts] = Buffer.from(value, 'base64url').toString('utf8').split('.');
  const trackId = trackParts.join('.');
  const at = new Date(Number(ms));
  const wellFormed =
    /^\d{1,15}$/.test(ms ?? '') &&
    !Number.isNaN(at.getTime()) &&
    isUserId(userId ?? '') &&
    trackId.length > 0 &&
    trackId.length <= 200 &&
    !/[\p{Cc}\uFFFD]/u.test(trackId);
  if (!wellFormed) {
    throw new HttpError(400, 'Invalid before cursor: use next_before of the previous page.');
  }
  return { at, userId: userId!, trackId };
}

/** How one kind of activity is stored: plays, or likes (saved tracks). */
interface ActivitySource {
  table: SQL;
  time: SQL;
  context: SQL;
  /** Keyset condition: strictly after the cursor in (time, user, track) descending order. */
  afterCursor(cursor: Cursor): SQL;
}

const PLAYS: ActivitySource = {
  table: sql`plays`,
  time: sql`a.played_at`,
  context: sql`a.context_uri`,
  // (user, played_at) is unique: the track is not needed to break ties.
  afterCursor: (c) =>
    sql`a.played_at <= ${c.at} AND (a.played_at < ${c.at} OR a.user_id < ${c.userId})`,
};

const LIKES: ActivitySource = {
  table: sql`saved_tracks`,
  time: sql`a.added_at`,
  context: sql`NULL::text`,
  afterCursor: (c) => sql`a.added_at <= ${c.at} AND (a.added_at < ${c.at}
    OR (a.user_id, a.track_id) < (${c.userId}::uuid, ${c.trackId}))`,
};

interface ActivityRow extends Record<string, unknown> {
  user_id: string;
  track_id: string;
  at: Date;
  context_uri: string | null;
}

/**
 * Newest first, merged across users, in two short passes over the (user, time) index:
 * first each user's newest matching row only (`heads`); the `take`-th newest of those is a lower
 * bound of the page (at least `take` rows are that new), so then only users whose newest row
 * reaches it are read, and only down to it. Taking `take` rows from every user would read
 * users × take rows to keep `take`.
 */
function perUserNewest(source: ActivitySource, scope: SQL, filters: SQL[], take: number) {
  const where = sql.join([sql`a.user_id = u.id`, ...filters], sql` AND `);
  return sql`
    WITH heads AS MATERIALIZED (
      SELECT u.id, (SELECT ${source.time} FROM ${source.table} a WHERE ${where}
                    ORDER BY ${source.time} DESC LIMIT 1) AS at
      FROM (${scope}) AS u
    ),
    bound AS (
      SELECT coalesce((SELECT at FROM heads WHERE at IS NOT NULL
                       ORDER BY at DESC OFFSET ${take - 1} LIMIT 1), '-infinity') AS at
    )
    SELECT a.user_id, a.track_id, ${source.time} AS at, ${source.context} AS context_uri
    FROM heads u CROSS JOIN bound b
    CROSS JOIN LATERAL (
      SELECT * FROM ${source.table} a WHERE ${where} AND ${source.time} >= b.at
      ORDER BY ${source.time} DESC, a.user_id DESC, a.track_id DESC LIMIT ${take}
    ) a
    WHERE u.at >= b.at
    ORDER BY at DESC, a.user_id DESC, a.track_id DESC LIMIT ${take}`;
}

/** Newest first among few matching tracks: from each track's rows, then the scope. */
function fromMatchingTracks(
  source: ActivitySource,
  userIds: string[],
  trackIds: string[],
  filters: SQL[],
  take: number,
) {
  const where = sql.join(
    [sql`a.user_id = ANY(${sql.param(userIds)}::uuid[])`, ...filters],
    sql` AND `,
  );
  return sql`
    SELECT a.user_id, a.track_id, ${source.time} AS at, ${source.context} AS context_uri
    FROM unnest(${sql.param(trackIds)}::text[]) AS m(id)
    JOIN ${source.table} a ON a.track_id = m.id
    WHERE ${where}
    ORDER BY at DESC, a.user_id DESC, a.track_id DESC LIMIT ${take}`;
}

const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

interface ItemRow extends ActivityRow {
  username: string;
  name: string;
  play_count: number;
  liked: boolean;
  is_global: boolean;
  reported: boolean;
}

/**
 * A page's rows with what the items show besides the track: the user's names and play count
 * of the track, and the viewer's view of the song (liked, reported, ignored for everyone), in
 * the same statement.
 */
function withItemFields(viewer: UserRow, rows: SQL) {
  return sql`
    WITH page AS MATERIALIZED (${rows})
    SELECT p.user_id, p.track_id, p.at, p.context_uri, u.username, u.name,
           coalesce(s.plays, 0) AS play_count,
           EXISTS (SELECT 1 FROM tracks v JOIN saved_tracks st ON st.track_id = v.id
                   WHERE v.uid = t.uid AND st.user_id = ${viewer.id}) AS liked,
           EXISTS (SELECT 1 FROM global_ignored_tracks g WHERE g.uid = t.uid) AS is_global,
           EXISTS (SELECT 1 FROM ignored_tracks i
                   WHERE i.user_id = ${viewer.id} AND i.uid = t.uid AND i.reported) AS reported
    FROM page p
    JOIN users u ON u.id = p.user_id
    JOIN tracks t ON t.id = p.track_id
    LEFT JOIN user_track_stats s ON s.user_id = p.user_id AND s.track_id = p.track_id
    ORDER BY p.at DESC, p.user_id DESC, p.track_id DESC`;
}

async function findRows(
  db: Db,
  viewer: UserRow,
  source: ActivitySource,
  scope: Scope,
  params: ActivityParams,
  text: string | undefined,
): Promise<ItemRow[]> {
  const take = params.limit + 1;
  const cursor = decodeCursor(params.before);
  const filters: SQL[] = cursor ? [source.afterCursor(cursor)] : [];
  const q = params.q?.trim();
  const dates = q ? parseDateQuery(q) : undefined;
  if (dates) filters.push(sql`${source.time} >= ${dates.from} AND ${source.time} < ${dates.to}`);
  if (!text) {
    const query = withItemFields(viewer, perUserNewest(source, scope.ids, filters, take));
    return (await db.execute<ItemRow>(query)).rows;
  }
  // The planner's estimates for text filters are pessimistic enough to trigger JIT compilation,
  // which takes longer (10–30 ms) than these index-driven searches run.
  return db.transaction(async (tx) => {
    await tx.execute(sql`SET LOCAL jit = off`);
    return searchRows(tx, viewer, source, scope.users ?? [], filters, take, text);
  });
}

/** Rows matching a text: by user name, or by title, album or artist. */
async function searchRows(
  db: Db | Tx,
  viewer: UserRow,
  source: ActivitySource,
  users: ScopeUser[],
  filters: SQL[],
  take: number,
  text: string,
): Promise<ItemRow[]> {
  const folded = foldText(text);
  const pattern = likePattern(folded);
  const namedUsers = users
    .filter((user) => foldText(`${user.name} ${user.username}`).includes(folded))
    .map((user) => user.id);
  const others = users.map((user) => user.id).filter((id) => !namedUsers.includes(id));
  const queries: SQL[] = [];
  const idsSql = (ids: string[]) => sql`SELECT unnest(${sql.param(ids)}::uuid[]) AS id`;
  if (namedUsers.length > 0) queries.push(perUserNewest(source, idsSql(namedUsers), filters, take));
  if (others.length > 0) {
    const matching = await db.execute<{ id: string }>(
      sql`SELECT id FROM tracks WHERE search_text LIKE ${pattern} LIMIT ${RARE_MATCH_LIMIT + 1}`,
    );
    if (matching.rows.length > RARE_MATCH_LIMIT) {
      const trackFilter = sql`EXISTS (SELECT 1 FROM tracks t WHERE t.id = a.track_id AND t.search_text LIKE ${pattern})`;
      queries.push(perUserNewest(source, idsSql(others), [...filters, trackFilter], take));
    } else if (matching.rows.length > 0) {
      const ids = matching.rows.map((row) => row.id);
      queries.push(fromMatchingTracks(source, others, ids, filters, take));
    }
  }
  const results: ItemRow[] = [];
  for (const query of queries) {
    results.push(...(await db.execute<ItemRow>(withItemFields(viewer, query))).rows);
  }
  return results
    .sort(
      (a, b) =>
        new Date(b.at).getTime() - new Date(a.at).getTime() ||
        (a.user_id < b.user_id ? 1 : a.user_id > b.user_id ? -1 : 0) ||
        (a.track_id < b.track_id ? 1 : a.track_id > b.track_id ? -1 : 0),
    )
    .slice(0, take);
}

/** Items from their rows and the tracks' shown form. */
async function toItems(db: Db, rows: ItemRow[]): Promise<ActivityItem[]> {
  if (rows.length === 0) return [];
  const tracks = await trackSummaries(
    db,
    rows.map((row) => row.track_id),
  );
  return rows.flatMap((row) => {
    const track = tracks.get(row.track_id);
    if (!track) return [];
    return [
      {
        user: { id: row.user_id, username: row.username, name: row.name },
        track,
        liked: row.liked,
        date: new Date(row.at).toISOString(),
        play_count: row.play_count,
        reason: null,
        context_uri: row.context_uri,
        is_global: row.is_global,
        reported: row.reported,
      },
    ];
  });
}

async function activityPage(
  db: Db,
  viewer: UserRow,
  params: ActivityParams,
  source: ActivitySource,
): Promise<ActivityPage> {
  const q = params.q?.trim();
  // A search that is not a date also matches user names: those are needed first.
  const text = q && !parseDateQuery(q) ? q : undefined;
  const scope = await scopeOf(db, viewer, params, text !== undefined);
  if (scope.users?.length === 0) return { items: [], next_before: null };
  const rows = await findRows(db, viewer, source, scope, params, text);
  const page = rows.slice(0, params.limit);
  const last = page.at(-1);
  const more = rows.length > params.limit && last !== undefined;
  return {
    items: await toItems(db, page),
    next_before: more
      ? encodeCursor({ at: new Date(last.at), userId: last.user_id, trackId: last.track_id })
      : null,
  };
}

/** Recent plays of the viewer's scope, newest first (`GET /api/recent`). */
export function recentActivity(db: Db, viewer: UserRow, params: ActivityParams) {
  return activityPage(db, viewer, params, PLAYS);
}

/** Likes of the viewer's scope, newest first (`GET /api/likes`). */
export function likedActivity(db: Db, viewer: UserRow, params: ActivityParams) {
  return activityPage(db, viewer, params, LIKES);
}
