import type { Readable } from 'node:stream';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { JsonArrayReader } from './json-array';
import { historyFileKind, type HistoryFileKind } from './rows';

/** An upload Earshot will not import; the message is shown to the user. */
export class ImportRejected extends Error {}

export interface ArchiveLimits {
  /** Total unpacked size of the history files. */
  maxUnpackedBytes: number;
  /** One file's unpacked size: Spotify splits its files at about 12 MB. */
  maxEntryBytes: number;
  /** Unpacked / packed size of one file; JSON packs about 10:1, bombs thousands to one. */
  maxRatio: number;
}

export const DEFAULT_ARCHIVE_LIMITS: ArchiveLimits = {
  maxUnpackedBytes: 8 * 1024 ** 3,
  maxEntryBytes: 64 * 1024 ** 2,
  maxRatio: 200,
};

export interface HistoryFile {
  name: string;
  kind: HistoryFileKind;
}

function open(path: string): Promise<ZipFile> {
  return new Promise((resolve, reject) => {
    // validateEntrySizes: yauzl fails an entry that unpacks to more than it declared.
    yauzl.open(
      path,
      { lazyEntries: true, autoClose: false, validateEntrySizes: true },
      (error, zip) => (error ? reject(error) : resolve(zip)),
    );
  });
}

/** Why an archive is refused, in the words shown to the user (on upload and at import). */
export const archiveRefusal = {
  notZip: 'This file is not a ZIP archive. Upload the .zip file Spotify sent.',
  damaged: 'The ZIP archive is damaged or incomplete. Download it again from Spotify.',
  entryTooLarge: (name: string) => `${name} is too large to be a Spotify history file.`,
  implausibleRatio: (name: string) => `${name} unpacks to an implausible size; not imported.`,
  historyTooLarge: 'The history in this ZIP is too large to import.',
};

function describeZipError(error: unknown): ImportRejected {
  const message = error instanceof Error ? error.message : String(error);
  if (/end of central directory record signature not found/i.test(message)) {
    return new ImportRejected(archiveRefusal.notZip);
  }
  return new ImportRejected(archiveRefusal.damaged);
}

/** Every entry of the archive, read from its central directory. */
async function entries(path: string): Promise<{ zip: ZipFile; list: Entry[] }> {
  let zip: ZipFile;
  try {
    zip = await open(path);
  } catch (error) {
    throw describeZipError(error);
  }
  // Opened without autoClose: the caller reads entries afterwards and closes the file.
  const list: Entry[] = [];
  await new Promise<void>((resolve, reject) => {
    zip.on('entry', (entry: Entry) => {
      list.push(entry);
      zip.readEntry();
    });
    zip.on('end', resolve);
    zip.on('error', (error) => reject(describeZipError(error)));
    zip.readEntry();
  });
  return { zip, list };
}

/**
 * Checks an uploaded archive before anything is imported: a readable ZIP, holding history files,
 * within the size and ratio bounds that keep a ZIP bomb out. Returns the history files in import
 * order (by name: Spotify numbers and dates them).
 */
export async function inspectArchive(
  path: string,
  limits: ArchiveLimits = DEFAULT_ARCHIVE_LIMITS,
): Promise<HistoryFile[]> {
  const { zip, list } = await entries(path);
  zip.close();
  const files: HistoryFile[] = [];
  let unpacked = 0;
  for (const entry of list) {
    const kind = historyFileKind(entry.fileName);
    if (!kind || entry.fileName.endsWith('/')) continue;
    const size = entry.uncompressedSize;
    if (size > limits.maxEntryBytes) {
      throw new ImportRejected(archiveRefusal.entryTooLarge(entry.fileName));
    }
    if (entry.compressedSize > 0 && size / entry.compressedSize > limits.maxRatio) {
      throw new ImportRejected(archiveRefusal.implausibleRatio(entry.fileName));
    }
    unpacked += size;
    files.push({ name: entry.fileName, kind });
  }
  if (files.length === 0) {
    throw new ImportRejected(
      'This ZIP holds no Spotify listening history (Streaming_History_Audio_*.json, endsong_*.json or StreamingHistory*.json).',
    );
  }
  if (unpacked > limits.maxUnpackedBytes) {
    throw new ImportRejected(archiveRefusal.historyTooLarge);
  }
  return files.sort((a, b) => a.name.localeCompare(b.name, 'en', { numeric: true }));
}

/** Streams one entry's unpacked bytes to `onChunk`, refusing to read past `maxBytes`. */
async function readEntry(
  path: string,
  name: string,
  maxBytes: number,
  onChunk: (chunk: Buffer) => void,
): Promise<void> {
  const { zip, list } = await entries(path);
  try {
    const entry = list.find((candidate) => candidate.fileName === name);
    if (!entry) throw new ImportRejected(`${name} is missing from the archive.`);
    const stream = await new Promise<Readable>((resolve, reject) =>
      zip.openReadStream(entry, (error, readable) =>
        error ? reject(describeZipError(error)) : resolve(readable),
      ),
    );
    let total = 0;
    try {
      for await (const chunk of stream) {
        total += (chunk as Buffer).length;
        if (total > maxBytes) {
          throw new ImportRejected(`${name} unpacks to more than it may; not imported.`);
        }
        onChunk(chunk as Buffer);
      }
    } finally {
      stream.destroy();
    }
  } catch (error) {
    if (error instanceof ImportRejected || error instanceof SyntaxError) throw error;
    throw describeZipError(error);
  } finally {
    zip.close();
  }
}

/** The text of one entry, refusing to read past `maxBytes` whatever the entry declares. */
export async function readEntryText(path: string, name: string, maxBytes: number): Promise<string> {
  const chunks: Buffer[] = [];
  await readEntry(path, name, maxBytes, (chunk) => chunks.push(chunk));
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Reads one entry holding a JSON array as it unpacks, handing its elements over in batches:
 * neither the text nor the parsed array is ever whole in memory. Throws a SyntaxError when the
 * entry is not one valid JSON array (after handing over the batches before the fault).
 */
export async function readEntryArray(
  path: string,
  name: string,
  maxBytes: number,
  onBatch: (elements: unknown[]) => void,
): Promise<void> {
  const reader = new JsonArrayReader(onBatch);
  await readEntry(path, name, maxBytes, (chunk) => reader.push(chunk));
  reader.end();
}
