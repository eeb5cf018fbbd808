/**
 * `npm run bench:discover:quality`: issue 14's quality benchmark. The sandbox's demo world (its
 * 14 people with their tastes and friendships, listening that goes on as its clock advances) is
 * synced into Earshot for `--history-days`; at that moment each account's Discover page is read
 * from Earshot (`--draws` times: two sections are weighted draws); then the sandbox clock
 * advances `--after-days` (14) while syncing goes on, and each suggested song counts as a hit if
 * the account then played or liked any version of it. Hit rate at 5 (the page shows 5 a section)
 * per section, beside baselines drawn the same way: the globally most played songs and random
 * songs of Earshot's catalogue. Also how often one song is in two sections of one page.
 * Writes bench/results/discover-quality.{json,md}.
 *
 * Syncing runs in this process through the product's own services (`syncRecentPlays`,
 * `syncLibrary`, `mirrorFollowedReleases`) against the sandbox process, every `--step-hours` of
 * sandbox time for every account (Spotify shows only the last 50 plays). Earshot's database
 * dates the sections' windows with its own clock, so the moment of the suggestions is the real
 * present: the sandbox starts `--history-days` in the past and catches up; the 14 days after lie
 * in the database's future, which only the hit count reads.
 */
import { SUGGESTION_SECTIONS, type SuggestionList } from '@earshot/contract/suggestions';
import { DEMO_ACCOUNTS, DEMO_FRIENDSHIPS } from '@earshot/spotify-sandbox/plugin';
import { applyMigrations, connectPostgres } from '../../apps/server/src/db/client';
import { createMetrics, createSpotifyHttp } from '../../apps/server/src/observability/metrics';
import { mirrorFollowedReleases } from '../../apps/server/src/services/followed-releases';
import { FRIENDS_WINDOW_DAYS } from '../../apps/server/src/services/suggestions';
import { acceptFriendship, requestFriendship } from '../../apps/server/src/services/social';
import { tokenSourceFor } from '../../apps/server/src/services/spotify-tokens';
import { syncLibrary } from '../../apps/server/src/services/sync-library';
import { syncRecentPlays } from '../../apps/server/src/services/sync-recent';
import { createTokenCipher } from '../../apps/server/src/services/token-cipher';
import { SpotifyClient } from '../../apps/server/src/spotify/client';
import { startTs, waitForOutput, type Child } from '../import/support/processes';
import { loadAverage } from '../lib/cpu';
import { readOptions } from '../lib/options';
import { dropDatabase, recreateDatabase } from '../lib/postgres';
import { machineDescription, markdownTable, writeJson, writeResult } from '../lib/report';
import { startEarshot } from '../lib/server';
import { createSessions } from '../lib/sessions';
import { secondsSince } from '../lib/steps';
import { connectAccounts, REDIRECT_URI, spotifyConfig } from '../sync/connect';

const options = readOptions({
  serverUrl: process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  database: 'discover_bench_quality',
  keep: false,
  /** Sandbox time synced before the suggestions are taken. */
  historyDays: 30,
  /** Sandbox time after them in which a suggestion may be played or liked. */
  afterDays: 14,
  /** Sandbox time between two polls of every account. */
  stepHours: 3,
  /** Pages read per account (the draws differ). */
  draws: 5,
  /** Items per section, as the Discover page shows them. */
  limit: 5,
  /** Like Your On-Repeat's window on the page. */
  onRepeatDays: 30,
  sandboxPort: 9110,
  earshotPort: 9111,
});

const ENCRYPTION_KEY = '0'.repeat(64);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const log = (message: string) => console.log(message);

async function main() {
  const started = performance.now();
  const url = await recreateDatabase(options.serverUrl, options.database);
  const database = connectPostgres(url, 6);
  const { db, pool } = database;
  await applyMigrations(database);
  const cipher = createTokenCipher(Buffer.from(ENCRYPTION_KEY, 'hex'));
  const start = Date.now() - options.historyDays * DAY;
  const children: Child[] = [];
  try {
    const sandbox = startTs(
      new URL('../sync/sandbox.ts', import.meta.url).pathname,
      [
        '--accounts',
        String(DEMO_ACCOUNTS.length),
        '--at',
        new Date(start).toISOString(),
        '--redirect-uri',
        REDIRECT_URI,
        '--port',
        String(options.sandboxPort),
      ],
      {},
    );
    children.push(sandbox);
    await waitForOutput(sandbox, /^SANDBOX /m);
    const sandboxUrl = /^SANDBOX (\S+)/m.exec(sandbox.output())![1]!;
    const spotify = new SpotifyClient(
      spotifyConfig(sandboxUrl),
      createSpotifyHttp(createMetrics()),
    );
    const clock = async (body: Record<string, unknown>) => {
      const response = await fetch(`${sandboxUrl}/control/clock`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (!response.ok) throw new Error(`clock: ${response.status} ${await response.text()}`);
      return Date.parse(((await response.json()) as { now: string }).now);
    };

    // The demo world as Earshot's demo seeds it: every account connected, the friendships.
    const users = await connectAccounts({
      databaseUrl: url,
      encryptionKey: ENCRYPTION_KEY,
      sandboxUrl,
      accounts: DEMO_ACCOUNTS.map((account) => account.id),
      parallel: 4,
    });
    for (const friendship of DEMO_FRIENDSHIPS) {
      const from = users.get(friendship.from);
      const to = users.get(friendship.to);
      if (!from || !to) continue;
      await requestFriendship(db, from, to);
      if (friendship.state === 'accepted') await acceptFriendship(db, to, from);
    }
    const accounts = [...users].map(([account, userId]) => ({
      account,
      userId,
      auth: tokenSourceFor(db, cipher, spotify, userId),
    }));
    log(`${accounts.length} accounts connected, ${DEMO_FRIENDSHIPS.length} friendships requested`);

    const sync = { polls: 0, plays: 0, possibleGaps: 0, seconds: 0 };
    const pollAll = async () => {
      const t = performance.now();
      const queue = [...accounts];
      await Promise.all(
        Array.from({ length: 3 }, async () => {
          for (let a = queue.shift(); a; a = queue.shift()) {
            const result = await syncRecentPlays(db, spotify, a.auth, a.userId);
            sync.polls += 1;
            sync.plays += result.stored;
            if (result.possibleGap) sync.possibleGaps += 1;
          }
        }),
      );
      sync.seconds += (performance.now() - t) / 1000;
    };
    const libraries = async () => {
      for (const a of accounts) await syncLibrary(db, spotify, a.auth, a.userId);
    };
    /** Polls every `stepHours` of sandbox time from `from` until the sandbox shows `until`. */
    const advance = async (from: number, until: number) => {
      let now = from;
      while (now < until) {
        const next = Math.min(now + options.stepHours * HOUR, until);
        now = await clock({ action: 'set', at: new Date(next).toISOString() });
        await pollAll();
      }
      return now;
    };
    log(`Syncing ${options.historyDays} days of the world's listening…`);
    await libraries();
    // Up to the present, then the minutes the catching up took.
    const caughtUp = await advance(start, Date.now());
    const moment = await advance(caughtUp, Date.now());
    await libraries();
    const mirrored = { artists: 0, newReleases: 0, tracks: 0 };
    for (;;) {
      const result = await mirrorFollowedReleases(db, spotify, accounts[0]!.auth, new Date(moment));
      mirrored.artists += result.artists;
      mirrored.newReleases += result.newReleases;
      mirrored.tracks += result.tracks;
      if (result.artists === 0) break;
    }
    const before = { ...sync };
    await pool.query('ANALYZE');
    log(
      `  ${sync.polls} polls, ${sync.plays} plays, ${sync.possibleGaps} possible gaps; releases of ${mirrored.artists} followed artists read (${mirrored.newReleases} new, ${mirrored.tracks} tracks)`,
    );

    // The Discover pages at the moment, as the web app asks for them.
    const cookies = await createSessions(
      pool,
      accounts.map((a) => a.userId),
    );
    const earshot = await startEarshot(
      { DATABASE_URL: url, ENCRYPTION_KEY },
      { port: options.earshotPort },
    );
    type Page = Record<string, string[]>;
    const pages = new Map<string, Page[]>();
    try {
      for (const [i, a] of accounts.entries()) {
        const list: Page[] = [];
        for (let d = 0; d < options.draws; d++) {
          const page: Page = {};
          for (const section of SUGGESTION_SECTIONS) {
            const days = section === 'like-on-repeat' ? `&days=${options.onRepeatDays}` : '';
            const response = await fetch(
              `${earshot.url}/api/suggestions/${section}?limit=${options.limit}${days}`,
              { headers: { cookie: cookies[i]! } },
            );
            if (!response.ok) throw new Error(`${section}: ${response.status}`);
            page[section] = ((await response.json()) as SuggestionList).items.map(
              (item) => item.track.id,
            );
          }
          list.push(page);
        }
        pages.set(a.userId, list);
      }
    } finally {
      await earshot.stop();
    }

    // Baselines, drawn as the sections are: per account and draw, `limit` songs.
    const popular = await pool.query<{ id: string; uid: string }>(
      `SELECT min(t.id) AS id, t.uid FROM plays p JOIN tracks t ON t.id = p.track_id
       WHERE p.played_at <= to_timestamp($1 / 1000.0)
       GROUP BY t.uid ORDER BY count(*) DESC, t.uid LIMIT 2000`,
      [moment],
    );
    const knownBy = async (userId: string) =>
      new Set(
        (
          await pool.query<{ uid: string }>(
            `SELECT t.uid FROM plays p JOIN tracks t ON t.id = p.track_id WHERE p.user_id = $1
             UNION SELECT t.uid FROM saved_tracks s JOIN tracks t ON t.id = s.track_id WHERE s.user_id = $1`,
            [userId],
          )
        ).rows.map((row) => row.uid),
      );
    const baselinePages = new Map<string, Page[]>();
    /** Per account: the songs it had played or liked, and the songs its friends had lately. */
    const knownSongs = new Map<string, Set<string>>();
    const friendSongs = new Map<string, Set<string>>();
    for (const a of accounts) {
      const known = await knownBy(a.userId);
      knownSongs.set(a.userId, known);
      const lately = await pool.query<{ uid: string }>(
        `SELECT t.uid FROM friendships f JOIN plays p ON p.user_id = f.friend_id
         JOIN tracks t ON t.id = p.track_id
         WHERE f.user_id = $1 AND p.played_at <= to_timestamp($2 / 1000.0)
           AND p.played_at > to_timestamp($2 / 1000.0) - make_interval(days => $3)
         UNION
         SELECT t.uid FROM friendships f JOIN saved_tracks s ON s.user_id = f.friend_id
         JOIN tracks t ON t.id = s.track_id
         WHERE f.user_id = $1 AND s.added_at <= to_timestamp($2 / 1000.0)
           AND s.added_at > to_timestamp($2 / 1000.0) - make_interval(days => $3)`,
        [a.userId, moment, FRIENDS_WINDOW_DAYS],
      );
      friendSongs.set(a.userId, new Set(lately.rows.map((row) => row.uid)));
      const list: Page[] = [];
      for (let d = 0; d < options.draws; d++) {
        const random = await pool.query<{ id: string }>(
          `SELECT id FROM tracks WHERE id = uid ORDER BY random() LIMIT $1`,
          [options.limit],
        );
        list.push({
          popular: popular.rows.slice(0, options.limit).map((row) => row.id),
          'popular, new to them': popular.rows
            .filter((row) => !known.has(row.uid))
            .slice(0, options.limit)
            .map((row) => row.id),
          random: random.rows.map((row) => row.id),
        });
      }
      baselinePages.set(a.userId, list);
    }

    log(`Advancing the sandbox ${options.afterDays} days…`);
    await advance(moment, moment + options.afterDays * DAY);
    await libraries();
    log(
      `  ${sync.polls - before.polls} polls, ${sync.plays - before.plays} plays, ${sync.possibleGaps - before.possibleGaps} possible gaps`,
    );

    // What each account played or liked after the moment, by song.
    const after = new Map<string, Set<string>>();
    for (const a of accounts) {
      const result = await pool.query<{ uid: string }>(
        `SELECT t.uid FROM plays p JOIN tracks t ON t.id = p.track_id
         WHERE p.user_id = $1 AND p.played_at > to_timestamp($2 / 1000.0)
         UNION
         SELECT t.uid FROM saved_tracks s JOIN tracks t ON t.id = s.track_id
         WHERE s.user_id = $1 AND s.added_at > to_timestamp($2 / 1000.0)`,
        [a.userId, moment],
      );
      after.set(a.userId, new Set(result.rows.map((row) => row.uid)));
    }
    // How much of what each account newly played friends had played lately: the most Popular
    // with Friends could find.
    const discovered = { songs: 0, friends_had: 0, friends_pool: 0, friends_pool_hit_rate: 0 };
    for (const a of accounts) {
      const known = knownSongs.get(a.userId)!;
      const played = after.get(a.userId)!;
      for (const uid of played) {
        if (known.has(uid)) continue;
        discovered.songs += 1;
        if (friendSongs.get(a.userId)!.has(uid)) discovered.friends_had += 1;
      }
      // Every song friends had lately that is new to the account: what the section draws from.
      for (const uid of friendSongs.get(a.userId)!) {
        if (!known.has(uid)) discovered.friends_pool += 1;
      }
    }
    discovered.friends_pool_hit_rate =
      Math.round((discovered.friends_had / Math.max(1, discovered.friends_pool)) * 1000) / 1000;
    const uidOf = new Map(
      (await pool.query<{ id: string; uid: string }>('SELECT id, uid FROM tracks')).rows.map(
        (row) => [row.id, row.uid],
      ),
    );

    const score = (source: Map<string, Page[]>, keys: readonly string[]) =>
      keys.map((key) => {
        let items = 0;
        let hits = 0;
        let accountsWithItems = 0;
        for (const [userId, list] of source) {
          const played = after.get(userId)!;
          let any = false;
          for (const page of list) {
            for (const id of page[key] ?? []) {
              items += 1;
              any = true;
              if (played.has(uidOf.get(id) ?? id)) hits += 1;
            }
          }
          if (any) accountsWithItems += 1;
        }
        return {
          key,
          accounts_with_items: accountsWithItems,
          items,
          hits,
          hit_rate: items === 0 ? null : Math.round((hits / items) * 1000) / 1000,
        };
      });
    const sections = score(pages, SUGGESTION_SECTIONS);
    const baselines = score(baselinePages, ['popular', 'popular, new to them', 'random']);

    // One song in two sections of one page.
    let pagesWithDuplicate = 0;
    let duplicatedSongs = 0;
    let pageCount = 0;
    for (const list of pages.values()) {
      for (const page of list) {
        pageCount += 1;
        const sectionsOf = new Map<string, number>();
        for (const section of SUGGESTION_SECTIONS) {
          for (const uid of new Set((page[section] ?? []).map((id) => uidOf.get(id) ?? id))) {
            sectionsOf.set(uid, (sectionsOf.get(uid) ?? 0) + 1);
          }
        }
        const twice = [...sectionsOf.values()].filter((n) => n > 1).length;
        duplicatedSongs += twice;
        if (twice > 0) pagesWithDuplicate += 1;
      }
    }

    const rate = (key: string) =>
      [...sections, ...baselines].find((row) => row.key === key)?.hit_rate ?? null;
    const friends = rate('friends-favorites');
    const ratio = (base: number | null) =>
      friends === null || !base ? null : Math.round((friends / base) * 100) / 100;
    const report = {
      benchmark: 'discover-quality',
      machine: await machineDescription(),
      load_average_end: loadAverage(),
      options,
      moment: new Date(moment).toISOString(),
      accounts: accounts.length,
      friendships: DEMO_FRIENDSHIPS.filter((f) => f.state === 'accepted').length,
      sync: { ...sync, before_moment: before, mirrored },
      sections,
      baselines,
      friends_vs_popular: ratio(rate('popular')),
      friends_vs_popular_new: ratio(rate('popular, new to them')),
      new_songs_after: discovered,
      duplicates: {
        pages: pageCount,
        pages_with_a_song_in_two_sections: pagesWithDuplicate,
        songs_in_two_sections: duplicatedSongs,
      },
      total_seconds: secondsSince(started),
    };
    const cell = (value: number | null) => (value === null ? '—' : value);
    const markdown = [
      '# Discover quality — the sandbox world',
      '',
      `${report.machine}; load average at the end ${report.load_average_end}. ${accounts.length} demo accounts, ${report.friendships} friendships (and ${DEMO_FRIENDSHIPS.length - report.friendships} requests left pending, as the demo seeds them).`,
      `Synced ${options.historyDays} days of the world's listening (every ${options.stepHours} h of sandbox time, ${before.polls} polls, ${before.plays} plays, ${before.possibleGaps} polls that may have missed plays), libraries and the releases of ${mirrored.artists} followed artists. At ${report.moment} each account's page was read ${options.draws} times (\`limit=${options.limit}\`, On-Repeat \`days=${options.onRepeatDays}\`); then ${options.afterDays} days more (${sync.plays - before.plays} plays, ${sync.possibleGaps - before.possibleGaps} possible gaps) and the libraries again.`,
      'A suggested song is a hit when the account played or liked any version of it in those days. Baselines are drawn per account and page the same way: the 5 songs most played by everyone up to the moment; the 5 most played the account had never played nor liked; 5 random songs of the catalogue Earshot knows.',
      '',
      markdownTable(
        ['list', 'accounts with items', 'items', 'hits', 'hit rate at 5'],
        [...sections, ...baselines].map((row) => [
          row.key,
          row.accounts_with_items,
          row.items,
          row.hits,
          cell(row.hit_rate),
        ]),
      ),
      '',
      `Popular with Friends ÷ popular: ${cell(report.friends_vs_popular)} (÷ popular, new to them: ${cell(report.friends_vs_popular_new)}); goal ≥ 2.`,
      `Songs the accounts played or liked in those ${options.afterDays} days that Earshot had not seen them play or like: ${discovered.songs}; of them friends had played or liked in the ${FRIENDS_WINDOW_DAYS} days before the moment: ${discovered.friends_had}. Friends' songs of those ${FRIENDS_WINDOW_DAYS} days new to the account (what Popular with Friends draws from), summed over accounts: ${discovered.friends_pool}, of which ${discovered.friends_had} were hits (${discovered.friends_pool_hit_rate}: the hit rate of drawing from them uniformly).`,
      `A song in two sections of one page: ${pagesWithDuplicate} of ${pageCount} pages (${duplicatedSongs} songs); goal: never.`,
      `Run time ${report.total_seconds} s.`,
    ].join('\n');
    await writeJson('discover-quality.json', report);
    await writeResult('discover-quality.md', markdown);
    console.log(`\n${markdown}\n`);
  } finally {
    for (const child of children) await child.stop();
    await database.close();
    if (!options.keep) await dropDatabase(options.serverUrl, options.database);
  }
}

await main();
