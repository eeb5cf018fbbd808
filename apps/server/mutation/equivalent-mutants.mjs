// Survivors of `npm run test:mutation` judged equivalent: the mutated code behaves the same for
// every input it can get, so no test can tell it apart. mutation/run.mjs leaves them out of the
// score; a survivor not listed here is a gap in the tests, and an entry that matches no survivor
// any more is reported so the list does not rot.
//
// An entry matches a mutant of its module by Stryker's mutator name, the replacement text, and a
// piece of the source line the mutant sits on (the line as it reads today).
//
// Static mutants (code that runs as the module loads: top-level constants, a function's
// definition) are left out of the score by Stryker's vitest runner, which cannot re-evaluate a
// module between mutants. `node mutation/check-static.mjs reports/mutation/<module>.json <tests>`
// applies them by hand; the last check is noted per module below.

/** @type {Record<string, { mutator: string; replacement: string; line: string; why: string }[]>} */
export const equivalentMutants = {
  // Static, checked by hand (all killed by test/import-rows.test.ts): TRACK_URI without `^`,
  // without `$`, with `([0-9A-Za-z])` or `[^0-9A-Za-z]{22}`; `isRecord` and `text` as `() => undefined`.
  'import-rows': [
    {
      mutator: 'StringLiteral',
      replacement: '"Stryker was here!"',
      line: "entryName.split('/').pop() ?? ''",
      why: '`split` always returns at least one element, so `pop()` never answers undefined and the fallback never runs.',
    },
    {
      mutator: 'ConditionalExpression',
      replacement: 'true',
      line: "typeof value === 'object' && value !== null",
      why: 'A primitive that passes `isRecord` has no `ts`, `ms_played`, `endTime` or `msPlayed`, so the row is malformed either way.',
    },
  ],
  'sync-recent': [
    {
      mutator: 'MethodExpression',
      replacement: 'items.map(item => item.track)',
      line: 'const catalogueTracks = items',
      why: 'Spotify gives a local file no id, and storeTracks keeps only tracks with one: the filter only narrows the type.',
    },
    {
      mutator: 'ConditionalExpression',
      replacement: 'true',
      line: '.filter((track): track is SpotifyTrack => track.is_local !== true);',
      why: 'The same filter kept for every track: storeTracks drops the id-less local files itself.',
    },
  ],
  // Run on PostgreSQL (TEST_DATABASE_URL), where the pair lock matters.
  social: [
    {
      mutator: 'EqualityOperator',
      replacement: 'a <= b',
      line: 'const [low, high] = a < b ? [a, b] : [b, a];',
      why: '`a` and `b` are never equal (asking oneself is refused first, any other transition on oneself finds nothing), so the pair is named the same way from either side.',
    },
    {
      mutator: 'EqualityOperator',
      replacement: 'a >= b',
      line: 'const [low, high] = a < b ? [a, b] : [b, a];',
      why: 'The reversed order still names the pair the same way from either side: both directions take the same lock.',
    },
    {
      mutator: 'StringLiteral',
      replacement: '``',
      line: 'pg_advisory_xact_lock(hashtext(',
      why: 'Every pair then shares one lock: transitions are serialised more than needed, and no answer changes.',
    },
    {
      mutator: 'OptionalChaining',
      replacement: 'result.rows[0].status',
      line: "return result.rows[0]?.status ?? 'none';",
      why: 'The `SELECT CASE …` always answers exactly one row.',
    },
    {
      mutator: 'StringLiteral',
      replacement: '""',
      line: "return result.rows[0]?.status ?? 'none';",
      why: 'The `SELECT CASE …` always answers exactly one row, so the fallback never runs.',
    },
    {
      mutator: 'ObjectLiteral',
      replacement: '{}',
      line: '.select({ userId: friendships.userId })',
      why: '`areFriends` reads only whether a row comes back.',
    },
  ],
  // Checked against the survivors of the run of 27 Nov 2026 (mutation/results/activity.json).
  activity: [
    {
      mutator: 'StringLiteral',
      replacement: '"Stryker was here!"',
      line: "{1,15}$/.test(ms ?? '')",
      why: '`split` always answers at least one piece, so `ms` is never undefined and the fallback never runs.',
    },
    {
      mutator: 'StringLiteral',
      replacement: '``',
      line: 'ids: sql`SELECT unnest(${sql.param(result.rows',
      why: 'The names are read only for a text search, and a text search reads `scope.users`, never `scope.ids`.',
    },
    {
      mutator: 'ArrowFunction',
      replacement: '() => undefined',
      line: 'ids: sql`SELECT unnest(${sql.param(result.rows',
      why: 'The names are read only for a text search, and a text search reads `scope.users`, never `scope.ids`.',
    },
    {
      mutator: 'StringLiteral',
      replacement: '""',
      line: 'return Buffer.from(`${cursor.at.getTime()}',
      why: 'This is the encoding argument: `Buffer.from` takes an empty encoding name as UTF-8.',
    },
    {
      mutator: 'ArithmeticOperator',
      replacement: 'take + 1',
      line: "ORDER BY at DESC OFFSET ${take - 1} LIMIT 1), '-infinity') AS at",
      why: 'A later head only lowers the bound: more rows are read, and the final ORDER BY … LIMIT keeps the same `take` newest.',
    },
    {
      mutator: 'StringLiteral',
      replacement: '``',
      line: 'await tx.execute(sql`SET LOCAL jit = off`);',
      why: "Only the planner's JIT setting: the same rows, found more slowly.",
    },
    {
      mutator: 'ArrayDeclaration',
      replacement: '["Stryker was here"]',
      line: 'return searchRows(tx, viewer, source, scope.users ?? [], filters, take, text);',
      why: 'A text search always reads the scope with names, so `scope.users` is set.',
    },
    {
      mutator: 'MethodExpression',
      replacement: 'params.q',
      line: 'const q = params.q?.trim();',
      why: "The route's schema (activityQuery) trims `q` already, and playback reads the feeds without one.",
    },
    {
      mutator: 'ConditionalExpression',
      replacement: 'true',
      line: 'if (namedUsers.length > 0) queries.push(',
      why: 'A query over no users finds no rows: the test only saves a statement.',
    },
    {
      mutator: 'EqualityOperator',
      replacement: 'namedUsers.length >= 0',
      line: 'if (namedUsers.length > 0) queries.push(',
      why: 'A query over no users finds no rows: the test only saves a statement.',
    },
    {
      mutator: 'ConditionalExpression',
      replacement: 'true',
      line: 'if (others.length > 0) {',
      why: 'Either query over no users finds no rows: the test only saves statements.',
    },
    {
      mutator: 'EqualityOperator',
      replacement: 'others.length >= 0',
      line: 'if (others.length > 0) {',
      why: 'Either query over no users finds no rows: the test only saves statements.',
    },
    {
      mutator: 'ConditionalExpression',
      replacement: 'true',
      line: 'if (matching.rows.length > RARE_MATCH_LIMIT) {',
      why: "Scanning the users' rows finds the same matches as the list of matching tracks; the limit only picks the faster way.",
    },
    {
      mutator: 'EqualityOperator',
      replacement: 'matching.rows.length >= RARE_MATCH_LIMIT',
      line: 'if (matching.rows.length > RARE_MATCH_LIMIT) {',
      why: "At exactly the limit the list is complete, and scanning the users' rows finds the same matches.",
    },
    {
      mutator: 'ConditionalExpression',
      replacement: 'true',
      line: '} else if (matching.rows.length > 0) {',
      why: 'A query from no matching tracks finds no rows: the test only saves a statement.',
    },
    {
      mutator: 'EqualityOperator',
      replacement: 'matching.rows.length >= 0',
      line: '} else if (matching.rows.length > 0) {',
      why: 'A query from no matching tracks finds no rows: the test only saves a statement.',
    },
    {
      mutator: 'ConditionalExpression',
      replacement: 'false',
      line: 'if (rows.length === 0) return [];',
      why: '`trackSummaries` of no ids is an empty map: no items either way, the test only saves a call.',
    },
    {
      mutator: 'ConditionalExpression',
      replacement: 'false',
      line: 'if (!track) return [];',
      why: "Every row joins `tracks` in withItemFields, so `trackSummaries` knows each row's track.",
    },
    {
      mutator: 'ArrayDeclaration',
      replacement: '["Stryker was here"]',
      line: 'if (!track) return [];',
      why: "Every row joins `tracks` in withItemFields, so `trackSummaries` knows each row's track and this never runs.",
    },
    {
      mutator: 'ConditionalExpression',
      replacement: 'true',
      line: 'const scope = await scopeOf(db, viewer, params, text !== undefined);',
      why: 'Reading the names needlessly gives a scope of the same users (`ids` from the rows read).',
    },
    {
      mutator: 'ConditionalExpression',
      replacement: 'false',
      line: 'if (scope.users?.length === 0) return { items: [], next_before: null };',
      why: 'With nobody in scope the search has no user to query and finds nothing: the test only saves statements.',
    },
    {
      mutator: 'ConditionalExpression',
      replacement: 'true',
      line: 'const more = rows.length > params.limit && last !== undefined;',
      why: 'More rows than `limit` (at least 1) means the page is full, so `last` is set.',
    },
    {
      mutator: 'MethodExpression',
      replacement:
        'results.sort((a, b) => new Date(b.at).getTime() - new Date(a.at).getTime() || (a.user_id < b.user_id ? 1 : a.user_id > b.user_id ? -1 : 0) || (a.track_id < b.track_id ? 1 : a.track_id > b.track_id ? -1 : 0))',
      line: '  return results',
      why: 'Without the cut at `take`, activityPage still shows the first `limit` rows and asks only whether there are more than `limit`.',
    },
  ],
  // The admin of a history entry: each of the three subconditions as `true` (one entry matches
  // the three) and two of its operators; the whole condition as `true` is killed
  // (test/moderation.test.ts, a deleted admin's decision).
  moderation: [
    {
      mutator: 'ConditionalExpression',
      replacement: 'true',
      line: 'decision.adminId && adminName !== null && adminUsername !== null',
      why: "The admin's name and username come from a left join on `admin_id` and are never null in `users`: they are null exactly when `admin_id` is (the admin deleted their account), so any one of the three tests decides alone (the test that narrows the types for TypeScript).",
    },
    {
      mutator: 'LogicalOperator',
      replacement: 'decision.adminId && adminName !== null || adminUsername !== null',
      line: 'decision.adminId && adminName !== null && adminUsername !== null',
      why: "The admin's name and username come from a left join on `admin_id` and are never null in `users`: they are null exactly when `admin_id` is (the admin deleted their account), so any one of the three tests decides alone (the test that narrows the types for TypeScript).",
    },
    {
      mutator: 'LogicalOperator',
      replacement: 'decision.adminId || adminName !== null',
      line: 'decision.adminId && adminName !== null && adminUsername !== null',
      why: "The admin's name and username come from a left join on `admin_id` and are never null in `users`: they are null exactly when `admin_id` is (the admin deleted their account), so any one of the three tests decides alone (the test that narrows the types for TypeScript).",
    },
  ],
  'catalogue-pages': [
    {
      mutator: 'BooleanLiteral',
      replacement: 'true',
      line: 'if (!album) return false;',
      why: "fetchAlbum's answer is never read: knownAlbum reads the album back and answers 404 itself.",
    },
    {
      mutator: 'BooleanLiteral',
      replacement: 'false',
      line: 'return true;',
      why: "fetchAlbum's answer is never read: knownAlbum reads the album back and answers 404 itself.",
    },
    {
      mutator: 'ConditionalExpression',
      replacement: 'false',
      line: 'if (albumId === null) return [];',
      why: 'Querying the credits of a NULL album finds no rows: the test only saves a statement.',
    },
    {
      mutator: 'ArrayDeclaration',
      replacement: '["Stryker was here"]',
      line: 'return summary ? [summary] : [];',
      why: 'The other versions and similar tracks are ids read from `tracks`, so `trackSummaries` knows each one and this never runs.',
    },
  ],
  suggestions: [
    {
      mutator: 'StringLiteral',
      replacement: '``',
      line: "await tx.execute(sql`SET LOCAL work_mem = '32MB'`);",
      why: "Only the sorts' memory: the same rows, found more slowly (PostgreSQL accepts the empty statement).",
    },
    {
      mutator: 'StringLiteral',
      replacement: '``',
      line: 'await tx.execute(sql`SET LOCAL jit = off`);',
      why: "Only the planner's JIT setting: the same rows, found more slowly.",
    },
    {
      mutator: 'ArrayDeclaration',
      replacement: '["Stryker was here"]',
      line: 'return track ? [{ track, liked, reason: reason(candidate) }] : [];',
      why: "Every section's candidates join `tracks`, so `trackSummaries` knows each one and this never runs.",
    },
    {
      mutator: 'ConditionalExpression',
      replacement: 'false',
      line: "const window = days === undefined ? '' : days === 7",
      why: 'The window is read only in the reason of a windowed list: the all-time reason does not use it.',
    },
    {
      mutator: 'StringLiteral',
      replacement: '"Stryker was here!"',
      line: "const window = days === undefined ? '' : days === 7",
      why: 'The window is read only in the reason of a windowed list: the all-time reason does not use it.',
    },
    {
      mutator: 'StringLiteral',
      replacement: '""',
      line: "const first = names.get(c.first_friend) ?? 'a friend';",
      why: 'The first friend is a row of `users` (read from the friendships), so firstNames always names them and this never runs.',
    },
    {
      mutator: 'ConditionalExpression',
      replacement: 'false',
      line: 'if (ids.length === 0) return new Map();',
      why: 'Looking up no ids finds no rows, an empty map either way: the test only saves a statement.',
    },
    {
      mutator: 'Regex',
      replacement: '/\\s/',
      line: 'row.name.trim().split(/\\s+/)[0] || row.username',
      why: 'After trim() the first piece is the first run of non-spaces whether one space or a run of them splits.',
    },
    {
      mutator: 'ConditionalExpression',
      replacement: 'true',
      line: 'days !== undefined && ROLLED_WINDOW_DAYS.includes(days)',
      why: 'Rolling a 7- or 30-day window too gives the floor the query computes (today less the window), and the all-time list reads no window; only the cost differs.',
    },
    {
      mutator: 'LogicalOperator',
      replacement: 'days !== undefined || ROLLED_WINDOW_DAYS.includes(days)',
      line: 'days !== undefined && ROLLED_WINDOW_DAYS.includes(days)',
      why: 'As `true`: a rolled 7- or 30-day window has the floor the query computes; without `days`, `includes` is false.',
    },
  ],
  // Static, checked by hand: ROLLED_WINDOW_DAYS as `[]` leaves every window grouped per call,
  // which test/suggestions.test.ts shows gives the same lists (only the cost differs).
  'song-windows': [
    {
      mutator: 'ConditionalExpression',
      replacement: 'false',
      line: 'if (floor === newFloor) return newFloor;',
      why: 'A window another read rolled while this one waited for the lock: rolling it again subtracts the days after its floor up to the same floor (none) and writes the same floor.',
    },
    {
      mutator: 'ConditionalExpression',
      replacement: 'true',
      line: 'if (recount) {',
      why: 'Counting the window again gives the same counts as rolling it (both read the same per-track days); only the cost differs (bench/discover reports both).',
    },
  ],
  playback: [
    {
      mutator: 'ConditionalExpression',
      replacement: 'false',
      line: 'if (!summary) return null;',
      why: 'storeTracks has just kept the track (its id is known), so its summary is found: the guard only narrows the type.',
    },
    {
      mutator: 'ConditionalExpression',
      replacement: 'true',
      line: 'if (attempt < CONFIRM_ATTEMPTS) await sleep(CONFIRM_INTERVAL_MS);',
      why: 'A wait after the last look only delays the answer "not confirmed" by 250 ms; no look follows it.',
    },
    {
      mutator: 'EqualityOperator',
      replacement: 'attempt <= CONFIRM_ATTEMPTS',
      line: 'if (attempt < CONFIRM_ATTEMPTS) await sleep(CONFIRM_INTERVAL_MS);',
      why: 'The same wait after the last look: attempt never exceeds CONFIRM_ATTEMPTS in the loop.',
    },
  ],
  live: [
    {
      mutator: 'ConditionalExpression',
      replacement: 'false',
      line: 'replay.events.rows.flatMap((row) => (row.uid === null ? [] : [[viewerId, row.uid] as const])),',
      why: 'A row without a song (a friendship change) is sent without flags: asking flags for a null song only adds a row nobody reads.',
    },
    {
      mutator: 'ConditionalExpression',
      replacement: 'false',
      line: 'row.uid === null ? [] : targets[index]!.map((viewer) => [viewer, row.uid!] as const),',
      why: 'As in the replay: flags asked for a null song are never read.',
    },
    {
      mutator: 'OptionalChaining',
      replacement: 'watchers.delete',
      line: 'watchers?.delete(viewerId);',
      why: 'A viewer is unwatched only from someone they watch (a friend when the stream opened or befriended since): the set exists.',
    },
    {
      mutator: 'OptionalChaining',
      replacement: 'watchers.size',
      line: 'if (watchers?.size === 0) this.#watchers.delete(friendId);',
      why: 'As above: the set exists.',
    },
    {
      mutator: 'ArrayDeclaration',
      replacement: '["Stryker was here"]',
      line: '      segment = [];',
      why: 'A non-row left in the segment has no user and no song: it has no audience and is sent to nobody.',
    },
    {
      mutator: 'ArrayDeclaration',
      replacement: '["Stryker was here"]',
      line: 'readonly #timers: NodeJS.Timeout[] = [];',
      why: '`stop` clears each timer it holds; clearing a value that is no timer does nothing.',
    },
    {
      mutator: 'OptionalChaining',
      replacement: 'newest.rows[0].id',
      line: 'const cursor = Number(newest.rows[0]?.id ?? 0);',
      why: '`SELECT max(id)` always answers one row (null on an empty log).',
    },
    {
      mutator: 'ConditionalExpression',
      replacement: 'false',
      line: 'if (this.#seen.size >= REMEMBERED_IDS) this.#seen.clear();',
      why: 'Only bounds memory: copies of an id arrive within milliseconds, long before 10,000 other ids.',
    },
    {
      mutator: 'EqualityOperator',
      replacement: 'this.#seen.size > REMEMBERED_IDS',
      line: 'if (this.#seen.size >= REMEMBERED_IDS) this.#seen.clear();',
      why: 'Clearing at 10,001 remembered ids instead of 10,000 changes only memory.',
    },
    {
      mutator: 'ConditionalExpression',
      replacement: 'false',
      line: 'if (this.#drainQueued) return;',
      why: 'An extra drain queued behind the first finds nothing pending: the first took every id in order.',
    },
    {
      mutator: 'BooleanLiteral',
      replacement: 'false',
      line: 'this.#drainQueued = true;',
      why: 'As above: the drains run one after the other, and only the first has ids to send.',
    },
    {
      mutator: 'ConditionalExpression',
      replacement: 'true',
      line: 'if (ids.length > 0 && this.#streams.size > 0) await this.#fanOut(ids);',
      why: 'A shortcut: with no ids nothing is read, and with no stream here nobody is sent anything (a friendship row only changes the friends of a viewer with a stream).',
    },
    {
      mutator: 'LogicalOperator',
      replacement: 'ids.length > 0 || this.#streams.size > 0',
      line: 'if (ids.length > 0 && this.#streams.size > 0) await this.#fanOut(ids);',
      why: 'A shortcut: with no ids nothing is read, and with no stream here nobody is sent anything (a friendship row only changes the friends of a viewer with a stream).',
    },
    {
      mutator: 'EqualityOperator',
      replacement: 'ids.length >= 0',
      line: 'if (ids.length > 0 && this.#streams.size > 0) await this.#fanOut(ids);',
      why: 'A shortcut: with no ids nothing is read, and with no stream here nobody is sent anything (a friendship row only changes the friends of a viewer with a stream).',
    },
    {
      mutator: 'EqualityOperator',
      replacement: 'this.#streams.size >= 0',
      line: 'if (ids.length > 0 && this.#streams.size > 0) await this.#fanOut(ids);',
      why: 'A shortcut: with no ids nothing is read, and with no stream here nobody is sent anything (a friendship row only changes the friends of a viewer with a stream).',
    },
    {
      mutator: 'ConditionalExpression',
      replacement: 'true',
      line: 'if (nowPlaying.length > 0 && this.#streams.size > 0) await this.#fanOutNowPlaying(nowPlaying);',
      why: 'A shortcut: nobody unwatched is read, and with no stream here nobody watches.',
    },
    {
      mutator: 'LogicalOperator',
      replacement: 'nowPlaying.length > 0 || this.#streams.size > 0',
      line: 'if (nowPlaying.length > 0 && this.#streams.size > 0) await this.#fanOutNowPlaying(nowPlaying);',
      why: 'A shortcut: nobody unwatched is read, and with no stream here nobody watches.',
    },
    {
      mutator: 'EqualityOperator',
      replacement: 'nowPlaying.length >= 0',
      line: 'if (nowPlaying.length > 0 && this.#streams.size > 0) await this.#fanOutNowPlaying(nowPlaying);',
      why: 'A shortcut: nobody unwatched is read, and with no stream here nobody watches.',
    },
    {
      mutator: 'EqualityOperator',
      replacement: 'this.#streams.size >= 0',
      line: 'if (nowPlaying.length > 0 && this.#streams.size > 0) await this.#fanOutNowPlaying(nowPlaying);',
      why: 'A shortcut: nobody unwatched is read, and with no stream here nobody watches.',
    },
    {
      mutator: 'ArrayDeclaration',
      replacement: '["Stryker was here"]',
      line: 'let segment: EventRow[] = [];',
      why: 'A non-row in the first segment has no user and no uid: it has no audience and is sent to nobody.',
    },
    {
      mutator: 'ConditionalExpression',
      replacement: 'false',
      line: 'if (segment.length === 0) return;',
      why: 'Flushing an empty segment asks for no flags and sends nothing.',
    },
    {
      mutator: 'ArrayDeclaration',
      replacement: '["Stryker was here"]',
      line: 'for (const stream of this.#streams.get(viewer) ?? []) {',
      why: 'A viewer in an audience has a stream here (watchers are removed with their last stream): the fallback never runs.',
    },
    {
      mutator: 'ConditionalExpression',
      replacement: 'true',
      line: 'if (this.#streams.has(row.user_id)) viewers.push(row.user_id);',
      why: 'A user added to the audience without a stream here is sent nothing: their streams are looked up and there are none.',
    },
    {
      mutator: 'ConditionalExpression',
      replacement: 'true',
      line: '} else if (friends.delete(row.other_id)) {',
      why: 'Unwatching someone the viewer did not watch changes nothing.',
    },
    {
      mutator: 'OptionalChaining',
      replacement: 'flags.liked',
      line: 'liked: flags?.liked ?? false,',
      why: 'Every item sent has its (viewer, song) flags: they are read for each row with a song, and a row without one is no item.',
    },
    {
      mutator: 'BooleanLiteral',
      replacement: 'true',
      line: 'liked: flags?.liked ?? false,',
      why: 'As above: the fallback never runs.',
    },
    {
      mutator: 'BooleanLiteral',
      replacement: 'true',
      line: 'is_global: row.is_global ?? false,',
      why: '`EXISTS` is never null.',
    },
    {
      mutator: 'OptionalChaining',
      replacement: 'flags.reported',
      line: 'reported: flags?.reported ?? false,',
      why: 'Every item sent has its (viewer, song) flags.',
    },
    {
      mutator: 'BooleanLiteral',
      replacement: 'true',
      line: 'reported: flags?.reported ?? false,',
      why: 'As above: the fallback never runs.',
    },
    {
      mutator: 'ConditionalExpression',
      replacement: 'false',
      line: 'if (pairs.length === 0) return new Map();',
      why: 'A shortcut: the query over no pairs answers no rows.',
    },
    {
      mutator: 'MethodExpression',
      replacement: 'userIds',
      line: 'const watched = userIds.filter((id) => this.#watchers.has(id));',
      why: 'A shortcut: the now playing of someone nobody watches is read and sent to nobody.',
    },
    {
      mutator: 'ConditionalExpression',
      replacement: 'false',
      line: 'if (watched.length === 0) return;',
      why: 'A shortcut: reading the now playing of nobody answers nothing.',
    },
    {
      mutator: 'ConditionalExpression',
      replacement: 'false',
      line: 'if (friends.length === 0) return;',
      why: 'A shortcut: reading the now playing of no friends answers nothing.',
    },
    {
      mutator: 'ArrayDeclaration',
      replacement: '["Stryker was here"]',
      line: 'result.rows.flatMap((row) => (row.track_id ? [row.track_id] : [])),',
      why: 'Looking up a track id that is no id finds nothing, as looking up none does.',
    },
  ],
  likes: [
    {
      mutator: 'ConditionalExpression',
      replacement: 'false',
      line: 'if (rows.length === 0) return;',
      why: 'An empty page then opens a transaction that finds no removals and keeps nothing: the return only saves that work.',
    },
    {
      mutator: 'OptionalChaining',
      replacement: 'newest.addedAt',
      line: 'return newest?.addedAt ?',
      why: '`max()` without GROUP BY always answers one row (null when the user has no likes), so `newest` is never undefined.',
    },
  ],
};
