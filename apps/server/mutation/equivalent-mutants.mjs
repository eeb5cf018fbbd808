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
};
