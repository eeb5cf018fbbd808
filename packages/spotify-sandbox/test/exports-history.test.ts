import { createHash } from 'node:crypto';
import { Writable } from 'node:stream';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  CURRENT_FIELDS,
  LEGACY_FIELDS,
  ROWS_PER_FILE,
  writeExtendedHistoryZip,
  type ExtendedHistoryOptions,
} from '../src/exports/extended-history';
import { streamingRows } from '../src/exports/rows';
import { SpokenCatalogue } from '../src/exports/spoken';
import type { Play, World } from '../src/world/model';
import { createWorld } from '../src/world/world';
import { Collect, readZip, type ZipEntry } from './exports-zip';

/** Has every kind of row: music, episodes, video episodes, chapters and music videos. */
const ACCOUNT = 'jonasbrandt';
const AS_OF = Date.UTC(2026, 2, 1, 12);
const FOLDER = 'Spotify Extended Streaming History/';

type Row = Record<string, unknown>;

async function exportZip(world: World, options: ExtendedHistoryOptions, accountId = ACCOUNT) {
  const sink = new Collect();
  const summary = await writeExtendedHistoryZip(world, accountId, options, sink);
  const archive = sink.buffer();
  return { summary, archive, entries: readZip(archive) };
}

function jsonFiles(entries: ZipEntry[]): { name: string; text: string; rows: Row[] }[] {
  return entries
    .filter((entry) => entry.name.endsWith('.json'))
    .map((entry) => {
      const text = entry.data.toString('utf8');
      return { name: entry.name, text, rows: JSON.parse(text) as Row[] };
    });
}

function year(ts: unknown): number {
  return new Date(String(ts)).getUTCFullYear();
}

function sha256(data: Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

/** The plays' `ts` as the export prints it: UTC to the second. */
function tsOf(play: Play): string {
  return `${new Date(play.playedAt).toISOString().slice(0, 19)}Z`;
}

function musicRows(rows: Row[]): Row[] {
  return rows.filter((row) => row.spotify_track_uri !== null);
}

let world: World;
let plays: Play[];

beforeAll(() => {
  world = createWorld();
  plays = [...world.history(ACCOUNT, AS_OF)];
});

describe('extended streaming history, current layout', () => {
  let archive: Buffer;
  let entries: ZipEntry[];
  let files: { name: string; text: string; rows: Row[] }[];
  let rows: Row[];

  beforeAll(async () => {
    ({ archive, entries } = await exportZip(world, { asOfMs: AS_OF }));
    files = jsonFiles(entries);
    rows = files.flatMap((file) => file.rows);
  }, 60_000);

  it('lays the files out as Spotify does', () => {
    const names = entries.map((entry) => entry.name);
    expect(names[0]).toBe(FOLDER);
    expect(names).toContain(`${FOLDER}ReadMeFirst_ExtendedStreamingHistory.pdf`);
    for (const name of names.slice(1)) expect(name.startsWith(FOLDER)).toBe(true);
    const audio = files.filter((file) => file.name.includes('_Audio_'));
    const video = files.filter((file) => file.name.includes('_Video_'));
    expect(audio.length).toBeGreaterThan(1);
    expect(video.length).toBe(1);
    expect(audio.length + video.length).toBe(files.length);

    audio.forEach((file, index) => {
      const match = /Streaming_History_Audio_(\d{4})(?:-(\d{4}))?_(\d+)\.json$/.exec(file.name);
      expect(match, file.name).not.toBeNull();
      const [, first, last, number] = match as RegExpExecArray;
      expect(Number(number)).toBe(index);
      expect(Number(first)).toBe(year(file.rows[0]?.ts));
      expect(Number(last ?? first)).toBe(year(file.rows.at(-1)?.ts));
      if (first === (last ?? first)) expect(last).toBeUndefined();
      // Split by row count: every file but the last is full.
      if (index < audio.length - 1) expect(file.rows).toHaveLength(ROWS_PER_FILE);
      else expect(file.rows.length).toBeLessThanOrEqual(ROWS_PER_FILE);
    });
    const videoFile = video[0] as (typeof video)[number];
    // A series with one file has no number.
    expect(videoFile.name).toMatch(/Streaming_History_Video_\d{4}(-\d{4})?\.json$/);
  });

  it('splits the audio files at about 12 MB, as real exports', () => {
    const full = entries.filter((entry) => /_Audio_.*_0\.json$/.test(entry.name));
    expect(full).toHaveLength(1);
    const size = (full[0] as ZipEntry).data.length;
    expect(size).toBeGreaterThan(11_500_000);
    expect(size).toBeLessThan(14_000_000);
  });

  it("prints Jackson's layout", () => {
    for (const file of files) {
      expect(file.text.startsWith('[ {\n  "ts" : "')).toBe(true);
      expect(file.text.endsWith('\n} ]')).toBe(true);
      expect(file.text).toContain('\n}, {\n  "ts" : ');
      expect(file.text).toContain(',\n  "spotify_track_uri" : ');
    }
  });

  it('has the current field set, in order, on every row', () => {
    const fields = CURRENT_FIELDS.join();
    expect(rows.filter((row) => Object.keys(row).join() !== fields)).toEqual([]);
  });

  it('holds every play of the world once, with the catalogue names', () => {
    const music = musicRows(rows);
    expect(music).toHaveLength(plays.length);
    /** What a play's row must say, as one string: time, track, length, names, shuffle. */
    const expected = plays.map((play) => {
      const track = world.track(play.trackId);
      return [
        tsOf(play),
        `spotify:track:${play.trackId}`,
        play.msPlayed,
        track?.name,
        world.artist(track?.artistIds[0] ?? '')?.name,
        world.album(track?.albumId ?? '')?.name,
        play.shuffle,
      ].join('|');
    });
    const actual = music.map((row) =>
      [
        row.ts,
        row.spotify_track_uri,
        row.ms_played,
        row.master_metadata_track_name,
        row.master_metadata_album_artist_name,
        row.master_metadata_album_album_name,
        row.shuffle,
      ].join('|'),
    );
    expect(actual.sort()).toEqual(expected.sort());
    const long = music.filter((row) => Number(row.ms_played) >= 30_000).length;
    expect(long).toBe(plays.filter((play) => play.msPlayed >= 30_000).length);
  });

  it('keeps the rows of each series in time order, up to the export date', () => {
    for (const file of files) {
      const times = file.rows.map((row) => Date.parse(String(row.ts)));
      expect(times).toEqual([...times].sort((a, b) => a - b));
      expect(Math.max(...times)).toBeLessThanOrEqual(AS_OF);
    }
  });

  it('mixes in episodes, chapters and videos', () => {
    const audio = files.filter((file) => file.name.includes('_Audio_')).flatMap((f) => f.rows);
    const video = files.filter((file) => file.name.includes('_Video_')).flatMap((f) => f.rows);
    const episodes = audio.filter((row) => row.spotify_episode_uri !== null);
    expect(episodes.length).toBeGreaterThan(10);
    for (const row of episodes) {
      expect(row.spotify_episode_uri).toMatch(/^spotify:episode:[0-9A-Za-z]{22}$/);
      expect(row.episode_name).toEqual(expect.any(String));
      expect(row.episode_show_name).toEqual(expect.any(String));
      expect(row.spotify_track_uri).toBeNull();
      expect(row.master_metadata_track_name).toBeNull();
    }
    const chapters = audio.filter((row) => row.audiobook_chapter_uri !== null);
    expect(chapters.length).toBeGreaterThan(5);
    for (const row of chapters) {
      expect(row.audiobook_uri).toMatch(/^spotify:show:[0-9A-Za-z]{22}$/);
      expect(row.audiobook_chapter_uri).toMatch(/^spotify:episode:[0-9A-Za-z]{22}$/);
      expect(row.audiobook_title).toEqual(expect.any(String));
      expect(row.audiobook_chapter_title).toMatch(/^(Chapter|Track) \d+$/);
      expect(row.spotify_track_uri).toBeNull();
      expect(row.spotify_episode_uri).toBeNull();
      expect(Date.parse(String(row.ts))).toBeGreaterThanOrEqual(Date.UTC(2023, 9, 1));
    }
    const musicVideos = video.filter((row) => row.spotify_track_uri !== null);
    const videoEpisodes = video.filter((row) => row.spotify_episode_uri !== null);
    expect(musicVideos.length).toBeGreaterThan(0);
    expect(videoEpisodes.length).toBeGreaterThan(0);
    expect(musicVideos.length + videoEpisodes.length).toBe(video.length);
    for (const row of musicVideos) {
      expect(row.offline).toBeNull();
      expect(row.offline_timestamp).toBeNull();
      expect(row.reason_start).toBe('unknown');
    }
  });

  it('has short plays, skips, private sessions and offline plays', () => {
    const music = musicRows(rows);
    expect(music.some((row) => Number(row.ms_played) < 30_000)).toBe(true);
    expect(music.some((row) => row.skipped === true && row.reason_end === 'fwdbtn')).toBe(true);
    expect(music.some((row) => row.incognito_mode === true)).toBe(true);
    expect(music.some((row) => row.offline === true)).toBe(true);
    expect(music.filter((row) => row.reason_end === 'trackdone' && row.skipped)).toEqual([]);
    const reasons = new Set(music.map((row) => row.reason_end));
    for (const reason of ['trackdone', 'fwdbtn', 'backbtn', 'endplay', 'logout']) {
      expect(reasons).toContain(reason);
    }
  });

  it('writes values in the styles of their time', () => {
    const country = world.account(ACCOUNT)?.country;
    const address = /^(192\.0\.2|198\.51\.100|203\.0\.113)\.\d{1,3}$|^2001:db8(:[0-9a-f]{1,4}){6}$/;
    const longPlatform = /^(Android(-tablet)?|iOS|Windows|OS X|web_player|Partner) /;
    const problems = rows.flatMap((row) => {
      const found: string[] = [];
      if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/.test(String(row.ts))) found.push('ts');
      if (row.conn_country !== country) found.push('conn_country');
      if (!address.test(String(row.ip_addr))) found.push('ip_addr');
      if (!Number.isInteger(row.ms_played)) found.push('ms_played');
      if (typeof row.shuffle !== 'boolean') found.push('shuffle');
      if (typeof row.incognito_mode !== 'boolean') found.push('incognito_mode');
      const offlineTs = row.offline_timestamp;
      if (/^[a-z_]+$/.test(String(row.platform))) {
        // Current clients: short platform names, offline_timestamp in seconds.
        const inSeconds = /^\d{10}$/.test(String(offlineTs));
        if (
          offlineTs !== null &&
          (!inSeconds || Number(offlineTs) * 1000 > Date.parse(String(row.ts)))
        ) {
          found.push('offline_timestamp');
        }
      } else {
        // Older clients (before late 2022 on phones): long device strings, no offline_timestamp.
        if (!longPlatform.test(String(row.platform))) found.push('platform');
        if (offlineTs !== null) found.push('offline_timestamp');
      }
      return found.length > 0 ? [{ row, found }] : [];
    });
    expect(problems).toEqual([]);
    expect(rows.some((row) => row.platform === 'android' || row.platform === 'ios')).toBe(true);
    expect(rows.some((row) => /^(Android|iOS) .*\(.+\)$/.test(String(row.platform)))).toBe(true);
  });

  it('includes a valid PDF', () => {
    const pdf = entries.find((entry) => entry.name.endsWith('.pdf'))?.data ?? Buffer.alloc(0);
    const text = pdf.toString('latin1');
    expect(text.startsWith('%PDF-1.4\n')).toBe(true);
    expect(text.trimEnd().endsWith('%%EOF')).toBe(true);
    const startxref = Number(/startxref\n(\d+)\n/.exec(text)?.[1]);
    expect(text.slice(startxref, startxref + 4)).toBe('xref');
    const offsets = [...text.matchAll(/^(\d{10}) 00000 n $/gm)].map((match) => Number(match[1]));
    expect(offsets).toHaveLength(5);
    offsets.forEach((offset, index) => {
      expect(text.slice(offset).startsWith(`${index + 1} 0 obj`)).toBe(true);
    });
  });

  it('is deterministic, also from a world built again from the seed', async () => {
    const again = await exportZip(createWorld({ seed: world.seed }), { asOfMs: AS_OF });
    expect(sha256(again.archive)).toBe(sha256(archive));
  }, 60_000);
});

describe('extended streaming history, legacy layout', () => {
  let entries: ZipEntry[];
  let files: { name: string; text: string; rows: Row[] }[];
  let rows: Row[];

  beforeAll(async () => {
    ({ entries } = await exportZip(world, { asOfMs: AS_OF, variant: 'legacy' }));
    files = jsonFiles(entries);
    rows = files.flatMap((file) => file.rows);
  }, 60_000);

  it('uses MyData/endsong_<N>.json', () => {
    const names = entries.map((entry) => entry.name);
    expect(names[0]).toBe('MyData/');
    expect(names).toContain('MyData/ReadMeFirst_ExtendedStreamingHistory.pdf');
    expect(files.map((file) => file.name)).toEqual(
      files.map((_file, index) => `MyData/endsong_${index}.json`),
    );
    files.slice(0, -1).forEach((file) => expect(file.rows).toHaveLength(ROWS_PER_FILE));
  });

  it('prints one line of compact JSON per file', () => {
    for (const file of files) {
      expect(file.text.startsWith('[{"ts":"')).toBe(true);
      expect(file.text.endsWith('}]')).toBe(true);
      expect(file.text).not.toContain('\n');
    }
  });

  it('has the legacy field set, in order, and no audiobooks', () => {
    const fields = LEGACY_FIELDS.join();
    const wrong = rows.filter(
      (row) =>
        Object.keys(row).join() !== fields ||
        row.username !== ACCOUNT ||
        typeof row.ip_addr_decrypted !== 'string' ||
        typeof row.user_agent_decrypted !== 'string' ||
        (row.spotify_track_uri === null && row.spotify_episode_uri === null),
    );
    expect(wrong).toEqual([]);
  });

  it('holds every play, videos included, and the same episodes', async () => {
    expect(musicRows(rows)).toHaveLength(plays.length);
    const current = jsonFiles((await exportZip(world, { asOfMs: AS_OF })).entries).flatMap(
      (file) => file.rows,
    );
    const episodes = (list: Row[]) =>
      list
        .filter((row) => row.spotify_episode_uri !== null)
        .map((row) => `${String(row.ts)} ${String(row.spotify_episode_uri)}`)
        .sort();
    expect(episodes(rows)).toEqual(episodes(current));
  }, 60_000);

  it('is what an export made before October 2023 gets by default', async () => {
    const asOf = Date.UTC(2023, 5, 1);
    const { summary, entries: early } = await exportZip(world, { asOfMs: asOf });
    expect(summary.variant).toBe('legacy');
    expect(early.some((entry) => entry.name === 'MyData/endsong_0.json')).toBe(true);
    const music = musicRows(jsonFiles(early).flatMap((file) => file.rows));
    expect(music).toHaveLength([...world.history(ACCOUNT, asOf)].length);
  }, 60_000);
});

describe('rows of older clients', () => {
  it('have long platform strings, millisecond offline timestamps and null skips', () => {
    const older = createWorld({ sizes: { historyYears: 9 } });
    const account = older.accounts.find((candidate) => candidate.createdAt < Date.UTC(2019, 0, 1));
    expect(account).toBeDefined();
    if (!account) return;
    const early = [];
    for (const row of streamingRows(older, account, new SpokenCatalogue(older.seed), {
      untilMs: Date.UTC(2019, 11, 31),
      audiobooks: true,
    })) {
      early.push(row);
    }
    expect(early.length).toBeGreaterThan(100);
    for (const row of early) {
      expect(row.platform).toMatch(/^(Android(-tablet)?|iOS|Windows|OS X|web_player|Partner) /);
      expect(row.skipped).toBeNull();
      if (row.offlineTimestamp !== null) {
        expect(String(row.offlineTimestamp)).toMatch(/^\d{13}$/);
        expect(row.offlineTimestamp).toBeLessThanOrEqual(row.ts);
      }
    }
    expect(early.some((row) => row.offlineTimestamp !== null)).toBe(true);
  }, 60_000);
});

describe('streaming', () => {
  it('stops, and says so, when the destination fails midway', async () => {
    // Stored (level 0) and in small files, the whole archive would be over 30 MB.
    const options = { asOfMs: AS_OF, compressionLevel: 0, rowsPerFile: 1000 };
    let received = 0;
    const failing = new Writable({
      write(chunk: Buffer, _encoding, done) {
        received += chunk.length;
        done(received > 2_000_000 ? new Error('disk full') : null);
      },
    });
    await expect(writeExtendedHistoryZip(world, ACCOUNT, options, failing)).rejects.toThrow(
      'disk full',
    );
    // Only the files in flight when it failed went out.
    expect(received).toBeLessThan(5_000_000);
  }, 60_000);

  it('splits at the row count asked for', async () => {
    const { entries } = await exportZip(world, { asOfMs: AS_OF, rowsPerFile: 5000 });
    const audio = jsonFiles(entries).filter((file) => file.name.includes('_Audio_'));
    expect(audio.length).toBe(Math.ceil(audio.flatMap((file) => file.rows).length / 5000));
    audio.slice(0, -1).forEach((file) => expect(file.rows).toHaveLength(5000));
  }, 60_000);
});
