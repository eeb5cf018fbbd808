import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ZipFile } from 'yazl';
import type { ArrayLayout } from './json';

/**
 * Streams a ZIP archive to a writable. Files are handed over whole (a JSON file of the export is
 * at most some megabytes) and compressed while the next one is being built; `add` waits until the
 * file before it has gone out, so only about three files (going out, waiting, being built) are in
 * memory however big the archive.
 */
export class ZipWriter {
  private readonly zip = new ZipFile();
  private readonly written: Promise<void>;
  /** Rejects when writing fails (e.g. the client went away); never settles otherwise. */
  private readonly failed: Promise<never>;
  private inFlight: Promise<void> = Promise.resolve();

  constructor(
    destination: Writable,
    private readonly options: { mtime: Date; compressionLevel: number },
  ) {
    this.written = pipeline(this.zip.outputStream, destination);
    this.failed = this.written.then(() => new Promise<never>(() => undefined));
    // Failures surface through `add` and `end`; these only keep an early one from going unheard.
    this.written.catch(() => undefined);
    this.failed.catch(() => undefined);
  }

  directory(name: string): void {
    this.zip.addEmptyDirectory(name, { mtime: this.options.mtime });
  }

  async add(name: string, chunks: readonly Buffer[]): Promise<void> {
    const previous = this.inFlight;
    // yazl keeps every entry's stream until the archive ends: hand chunks over and forget them.
    const queue = chunks.slice();
    const content = new Readable({
      read() {
        this.push(queue.shift() ?? null);
      },
    });
    this.inFlight = new Promise((resolve, reject) => {
      content.once('end', resolve);
      content.once('error', reject);
    });
    this.zip.addReadStream(content, name, {
      mtime: this.options.mtime,
      // yazl stores level 0 uncompressed and refuses the level with `compress: false`.
      ...(this.options.compressionLevel > 0
        ? { compress: true, compressionLevel: this.options.compressionLevel }
        : { compress: false }),
      size: chunks.reduce((total, chunk) => total + chunk.length, 0),
    });
    await Promise.race([previous, this.failed]);
  }

  async end(): Promise<void> {
    this.zip.end();
    await this.written;
  }
}

/** The archive of an export made at `asOfMs`: entries dated then, zlib level 6 unless asked. */
export function exportArchive(
  destination: Writable,
  asOfMs: number,
  compressionLevel = 6,
): ZipWriter {
  return new ZipWriter(destination, { mtime: new Date(asOfMs), compressionLevel });
}

/** An export's rows per JSON file, checked: a positive whole number. */
export function checkRowsPerFile(rowsPerFile: number): number {
  if (!Number.isInteger(rowsPerFile) || rowsPerFile < 1) {
    throw new RangeError('spotify-sandbox: rowsPerFile must be a positive whole number');
  }
  return rowsPerFile;
}

/** How to name the files of one split series, e.g. `Streaming_History_Audio_2019-2021_0.json`. */
export type FileNamer = (file: {
  index: number;
  /** False when the series has a single file (`_<N>` is then left out where Spotify does). */
  several: boolean;
  firstTs: number;
  lastTs: number;
}) => string;

const CHUNK_CHARS = 1 << 16;

/**
 * One series of JSON files (e.g. the audio history) split every `rowsPerFile` rows. Rows arrive as
 * printed objects; a file is written once the row after its last arrives (so its name can say
 * whether more follow) or when the series is finished.
 */
export class SplitJsonSeries {
  private chunks: Buffer[] = [];
  private text = '';
  private rows = 0;
  private index = 0;
  private firstTs = 0;
  private lastTs = 0;
  private readonly written: { name: string; rows: number }[] = [];

  constructor(
    private readonly zip: ZipWriter,
    private readonly layout: ArrayLayout,
    private readonly rowsPerFile: number,
    private readonly name: FileNamer,
  ) {}

  /**
   * Adds a row. When that completes a file, returns the promise of the file being taken: await
   * it before the next row (rows are many, so no promise is made for the others).
   */
  push(row: string, ts: number): Promise<void> | undefined {
    const written = this.rows === this.rowsPerFile ? this.flush(true) : undefined;
    if (this.rows === 0) {
      this.firstTs = ts;
      this.text = this.layout.open;
    } else {
      this.text += this.layout.separator;
    }
    this.text += row;
    this.lastTs = ts;
    this.rows++;
    if (this.text.length >= CHUNK_CHARS) this.spill();
    return written;
  }

  /** Writes what is left; `keepEmpty` writes an empty file when the series had no rows at all. */
  async finish(keepEmpty: { ts: number } | null = null): Promise<{ name: string; rows: number }[]> {
    if (this.rows > 0) {
      await this.flush(this.index > 0);
    } else if (this.index === 0 && keepEmpty) {
      const name = this.name({
        index: 0,
        several: false,
        firstTs: keepEmpty.ts,
        lastTs: keepEmpty.ts,
      });
      await this.zip.add(name, [Buffer.from(this.layout.empty)]);
      this.written.push({ name, rows: 0 });
    }
    return this.written;
  }

  private spill(): void {
    this.chunks.push(Buffer.from(this.text, 'utf8'));
    this.text = '';
  }

  private flush(several: boolean): Promise<void> {
    this.text += this.layout.close;
    this.spill();
    const name = this.name({
      index: this.index,
      several,
      firstTs: this.firstTs,
      lastTs: this.lastTs,
    });
    const chunks = this.chunks;
    this.written.push({ name, rows: this.rows });
    this.chunks = [];
    this.rows = 0;
    this.index++;
    return this.zip.add(name, chunks);
  }
}

/** `2019-2021` or `2021`: the years a file's rows span. */
export function yearSpan(firstTs: number, lastTs: number): string {
  const first = new Date(firstTs).getUTCFullYear();
  const last = new Date(lastTs).getUTCFullYear();
  return first === last ? `${first}` : `${first}-${last}`;
}
