import { randomBytes } from 'node:crypto';
import { PassThrough, Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import yazl from 'yazl';
import { describe, expect, it } from 'vitest';
import { HttpError } from '../src/errors';
import { DEFAULT_ARCHIVE_LIMITS, type ArchiveLimits } from '../src/services/import/archive';
import { zipStructureCheck } from '../src/services/import/zip-stream-check';
import { zipOf } from './support/zip';

const AUDIO = 'Spotify Extended Streaming History/Streaming_History_Audio_2024.json';
const AUDIO_2 = 'Spotify Extended Streaming History/Streaming_History_Audio_2025.json';

/** JSON that packs like a real history file (about 5:1), `bytes` long. */
function historyText(bytes: number): Buffer {
  const row = () =>
    JSON.stringify({
      ts: '2024-01-01T00:00:00Z',
      ms_played: 1,
      uri: randomBytes(12).toString('hex'),
    });
  const rows: string[] = [];
  let length = 2;
  while (length < bytes) {
    const next = row();
    rows.push(next);
    length += next.length + 1;
  }
  return Buffer.from(`[${rows.join(',')}]`);
}

/** JSON that packs as Spotify's history files do (about 20:1: the same keys, similar values). */
function realisticHistory(rows: number): Buffer {
  const plays = Array.from({ length: rows }, (_, i) => ({
    ts: `2023-0${(i % 9) + 1}-1${i % 10}T1${i % 10}:2${i % 7}:0${i % 10}Z`,
    platform: 'android',
    ms_played: 180_000 + (i % 997),
    conn_country: 'SE',
    master_metadata_track_name: `Song ${i % 300}`,
    master_metadata_album_artist_name: `Artist ${i % 40}`,
    spotify_track_uri: `spotify:track:${(i % 300).toString(36).padStart(22, '0')}`,
    reason_start: 'trackdone',
    reason_end: 'trackdone',
    shuffle: false,
    skipped: false,
    offline: false,
  }));
  return Buffer.from(JSON.stringify(plays, null, 2));
}

/** A ZIP whose entries are streamed in, as exporters write them: sizes in data descriptors. */
async function streamedZipOf(entries: Record<string, Buffer>): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [name, content] of Object.entries(entries)) {
    const source = new PassThrough();
    source.end(content);
    zip.addReadStream(source, name);
  }
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Streams `bytes` through the check in chunks of `chunkSize`; answers what came out. */
async function check(
  bytes: Buffer,
  limits: ArchiveLimits = DEFAULT_ARCHIVE_LIMITS,
  chunkSize = 4096,
) {
  const chunks: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += chunkSize) {
    chunks.push(bytes.subarray(at, at + chunkSize));
  }
  const out: Buffer[] = [];
  await pipeline(Readable.from(chunks), zipStructureCheck(limits), async function* (source) {
    for await (const chunk of source) out.push(chunk as Buffer);
    yield;
  });
  return Buffer.concat(out);
}

/** The refusal of `promise`, which must be a 400 with `detail`; answers how it was refused. */
async function refusal(promise: Promise<unknown>, detail: RegExp | string) {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(HttpError);
  expect(error).toMatchObject({ statusCode: 400 });
  expect((error as HttpError).message).toMatch(detail);
}

describe('the ZIP check while an upload streams', () => {
  it('passes a sound archive through unchanged, whole entries and streamed ones', async () => {
    const history = historyText(300_000);
    for (const zip of [
      await zipOf({ [AUDIO]: history, 'ReadMeFirst.pdf': randomBytes(50_000) }),
      await streamedZipOf({ [AUDIO]: history, [AUDIO_2]: Buffer.from('[]') }),
    ]) {
      for (const chunkSize of [97, 4_096, 65_536]) {
        expect((await check(zip, DEFAULT_ARCHIVE_LIMITS, chunkSize)).equals(zip)).toBe(true);
      }
    }
  });

  it('passes a real history file that packs 20:1, whatever the size of the chunks', async () => {
    const history = realisticHistory(12_000);
    for (const zip of [
      await zipOf({ [AUDIO]: history }),
      await streamedZipOf({ [AUDIO]: history, [AUDIO_2]: history }),
    ]) {
      expect(history.length / zip.length).toBeGreaterThan(10);
      for (const chunkSize of [65_536, 1024 ** 2, zip.length]) {
        expect((await check(zip, DEFAULT_ARCHIVE_LIMITS, chunkSize)).equals(zip)).toBe(true);
      }
    }
  });

  it('refuses at its first bytes a file that is not a ZIP, reading no further', async () => {
    let read = 0;
    const endless = new Readable({
      read() {
        read += 1;
        this.push(Buffer.alloc(64 * 1024, 0x41));
      },
    });
    await refusal(
      pipeline(endless, zipStructureCheck(DEFAULT_ARCHIVE_LIMITS), async function* (source) {
        for await (const _chunk of source) yield;
      }),
      /not a ZIP archive/,
    );
    expect(read).toBeLessThan(5);
  });

  it('refuses a file too short to be a ZIP', async () => {
    await refusal(check(Buffer.from('PK')), /not a ZIP archive/);
    await refusal(check(Buffer.alloc(0)), /not a ZIP archive/);
  });

  it('refuses an archive cut short, in an entry or after its last one', async () => {
    const zip = await streamedZipOf({ [AUDIO]: historyText(100_000) });
    await refusal(check(zip.subarray(0, zip.length / 2)), /damaged or incomplete/);
    await refusal(check(zip.subarray(0, zip.length - 30)), /damaged or incomplete/);
  });

  it('refuses an entry whose packed bytes are damaged', async () => {
    const zip = Buffer.from(await zipOf({ [AUDIO]: historyText(100_000) }));
    for (let at = 200; at < 600; at += 1) zip[at]! ^= 0x5a;
    await refusal(check(zip), /damaged or incomplete/);
  });

  it('refuses bytes after the signature that are no ZIP entry', async () => {
    await refusal(check(Buffer.concat([Buffer.from('PK\x03\x04'), randomBytes(5_000)])), /damaged/);
  });

  it('refuses a ZIP bomb as it unpacks, long before its last byte', async () => {
    const bomb = await streamedZipOf({ [AUDIO]: Buffer.alloc(60 * 1024 ** 2, 32) });
    const chunks: Buffer[] = [];
    for (let at = 0; at < bomb.length; at += 1024) chunks.push(bomb.subarray(at, at + 1024));
    let passed = 0;
    await refusal(
      pipeline(
        Readable.from(chunks),
        zipStructureCheck(DEFAULT_ARCHIVE_LIMITS),
        async function* (source) {
          for await (const chunk of source) passed += (chunk as Buffer).length;
          yield;
        },
      ),
      `${AUDIO} unpacks to an implausible size; not imported.`,
    );
    expect(passed).toBeLessThan(bomb.length / 4);
  });

  it('lets a small file of repeated text pack as well as it likes', async () => {
    const zip = await zipOf({ 'notes.txt': Buffer.alloc(500_000, 32) });
    expect((await check(zip)).equals(zip)).toBe(true);
  });

  it('bounds one history file, and all of them together, as the import does', async () => {
    const limits = { maxEntryBytes: 200_000, maxUnpackedBytes: 300_000, maxRatio: 200 };
    await refusal(
      check(await streamedZipOf({ [AUDIO]: historyText(250_000) }), limits),
      `${AUDIO} is too large to be a Spotify history file.`,
    );
    // Files that are not history are not counted: only history is imported.
    const other = await zipOf({ 'ReadMeFirst.pdf': randomBytes(250_000) });
    expect((await check(other, limits)).equals(other)).toBe(true);
    await refusal(
      check(
        await zipOf({ [AUDIO]: historyText(150_000), [AUDIO_2]: historyText(160_000) }),
        limits,
      ),
      'The history in this ZIP is too large to import.',
    );
  });
});
