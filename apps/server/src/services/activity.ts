import type { ActivityItem, ActivityPage } from '@earshot/contract/activity';
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client';
import type { UserRow } from '../db/schema/users';
import { HttpError } from '../http/errors';
import { parseDateQuery } from './date-query';
import { areFriends } from './social';
import { foldText } from './text';
import { trackSummaries } from './tracks';
import { requireUserByHandle } from './users';

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
 * their friends, or the friends only. Anyone else's activity is refused, never shown.
 */
async function scopeUsers(db: Db, viewer: UserRow, params: ActivityParams): Promise<ScopeUser[]> {
  if (params.user) {
    const target = await requireUserByHandle(db, params.user);
    if (target.id !== viewer.id && !(await areFriends(db, viewer.id, target.id))) {
      throw new HttpError(404, `Only ${target.username}'s friends can see their activity.`);
    }
    return [{ id: target.id, username: target.username, name: target.name }];
  }
  const result = await db.execute<{ id: string; username: string; name: string }>(sql`
    SELECT u.id, u.username, u.name FROM users u
    WHERE u.id IN (SELECT friend_id FROM friendships WHERE user_id = ${viewer.id})
       OR (${params.includeMe} AND u.id = ${viewer.id})`);
  return result.rows;
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

function decodeCursor(value: string | undefined): Cursor | undefined {
  if (!value) return undefined;
  const [ms, userId, trackId] = Buffer.from(value, 'base64url').toString('utf8').split('.');
  const at = new Date(Number(ms));
  if (!userId || trackId === undefined || Number.isNaN(at.getTime())) {
    throw new HttpError(400, 'Invalid before cursor: use next_before of the previous page.');
  }
  return { at, userId, trackId };
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

/** Newest first, merged across users: one short index scan per user in scope. */
function perUserNewest(source: ActivitySource, userIds: string[], filters: SQL[], take: number) {
  const where = sql.join([sql`a.user_id = u.id`, ...filters], sql` AND `);
  return sql`
    SELECT a.user_id, a.track_id, ${source.time} AS at, ${source.context} AS context_uri
    FROM unnest(${sql.param(userIds)}::uuid[]) AS u(id)
    CROSS JOIN LATERAL (
      SELECT * FROM ${source.table} a WHERE ${where}
      ORDER BY ${source.time} DESC, a.user_id DESC, a.track_id DESC LIMIT ${take}
    ) a
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

async function findRows(
  db: Db,
  source: ActivitySource,
  scope: ScopeUser[],
  params: ActivityParams,
): Promise<ActivityRow[]> {
  const take = params.limit + 1;
  const cursor = decodeCursor(params.before);
  const filters: SQL[] = cursor ? [source.afterCursor(cursor)] : [];
  const userIds = scope.map((user) => user.id);
  const q = params.q?.trim();
  if (!q)
    return (await db.execute<ActivityRow>(perUserNewest(source, userIds, filters, take))).rows;

  const dates = parseDateQuery(q);
  if (dates) {
    filters.push(sql`${source.time} >= ${dates.from} AND ${source.time} < ${dates.to}`);
    return (await db.execute<ActivityRow>(perUserNewest(source, userIds, filters, take))).rows;
  }

  const folded = foldText(q);
  const pattern = likePattern(folded);
  const namedUsers = scope
    .filter((user) => foldText(`${user.name} ${user.username}`).includes(folded))
    .map((user) => user.id);
  const others = userIds.filter((id) => !namedUsers.includes(id));
  const queries: SQL[] = [];
  if (namedUsers.length > 0) queries.push(perUserNewest(source, namedUsers, filters, take));
  if (others.length > 0) {
    const matching = await db.execute<{ id: string }>(
      sql`SELECT id FROM tracks WHERE search_text LIKE ${pattern} LIMIT ${RARE_MATCH_LIMIT + 1}`,
    );
    if (matching.rows.length > RARE_MATCH_LIMIT) {
      const trackFilter = sql`EXISTS (SELECT 1 FROM tracks t WHERE t.id = a.track_id AND t.search_text LIKE ${pattern})`;
      queries.push(perUserNewest(source, others, [...filters, trackFilter], take));
    } else if (matching.rows.length > 0) {
      const ids = matching.rows.map((row) => row.id);
      queries.push(fromMatchingTracks(source, others, ids, filters, take));
    }
  }
  const results = await Promise.all(queries.map((query) => db.execute<ActivityRow>(query)));
  return results
    .flatMap((result) => result.rows)
    .sort(
      (a, b) =>
        new Date(b.at).getTime() - new Date(a.at).getTime() ||
        (a.user_id < b.user_id ? 1 : a.user_id > b.user_id ? -1 : 0) ||
        (a.track_id < b.track_id ? 1 : a.track_id > b.track_id ? -1 : 0),
    )
    .slice(0, take);
}

interface Decorations extends Record<string, unknown> {
  play_counts: Record<string, number> | null;
  liked_uids: string[] | null;
  global_uids: string[] | null;
  reported_uids: string[] | null;
}

/** Items with the viewer's view of each: liked, reported, and the owner's play count. */
async function toItems(
  db: Db,
  viewer: UserRow,
  scope: ScopeUser[],
  rows: ActivityRow[],
): Promise<ActivityItem[]> {
  if (rows.length === 0) return [];
  const tracks = await trackSummaries(
    db,
    rows.map((row) => row.track_id),
  );
  const uids = [...new Set([...tracks.values()].map((track) => track.uid))];
  const result = await db.execute<Decorations>(sql`
    SELECT
      (SELECT json_object_agg(s.user_id || '/' || s.track_id, s.plays) FROM user_track_stats s
       JOIN unnest(${sql.param(rows.map((r) => r.user_id))}::uuid[],
                   ${sql.param(rows.map((r) => r.track_id))}::text[]) AS k(user_id, track_id)
         ON s.user_id = k.user_id AND s.track_id = k.track_id) AS play_counts,
      (SELECT array_agg(DISTINCT t.uid) FROM saved_tracks st JOIN tracks t ON t.id = st.track_id
       WHERE st.user_id = ${viewer.id} AND t.uid = ANY(${sql.param(uids)}::text[])) AS liked_uids,
      (SELECT array_agg(uid) FROM global_ignored_tracks
       WHERE uid = ANY(${sql.param(uids)}::text[])) AS global_uids,
      (SELECT array_agg(uid) FROM ignored_tracks
       WHERE user_id = ${viewer.id} AND reported AND uid = ANY(${sql.param(uids)}::text[]))
        AS reported_uids`);
  const d = result.rows[0]!;
  const users = new Map(scope.map((user) => [user.id, user]));
  const liked = new Set(d.liked_uids ?? []);
  const global = new Set(d.global_uids ?? []);
  const reported = new Set(d.reported_uids ?? []);
  return rows.flatMap((row) => {
    const track = tracks.get(row.track_id);
    const user = users.get(row.user_id);
    if (!track || !user) return [];
    return [
      {
        user: { id: user.id, username: user.username, name: user.name },
        track,
        liked: liked.has(track.uid),
        date: new Date(row.at).toISOString(),
        play_count: d.play_counts?.[`${row.user_id}/${row.track_id}`] ?? 0,
        reason: null,
        context_uri: row.context_uri,
        is_global: global.has(track.uid),
        reported: reported.has(track.uid),
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
  const scope = await scopeUsers(db, viewer, params);
  if (scope.length === 0) return { items: [], next_before: null };
  const rows = await findRows(db, source, scope, params);
  const page = rows.slice(0, params.limit);
  const last = page.at(-1);
  const more = rows.length > params.limit && last !== undefined;
  return {
    items: await toItems(db, viewer, scope, page),
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
