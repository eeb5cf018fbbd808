/**
 * The floor of an import: unzip every JSON file of the archive with yauzl (as Earshot does) and
 * `JSON.parse` it, nothing else. Run as its own process (`node --import tsx floor.ts <zip>`) so
 * its memory is its own; prints one JSON line: seconds, files, rows, unpacked bytes, peak RSS.
 */
import type { Readable } from 'node:stream';
import yauzl, { type Entry, type ZipFile } from 'yauzl';

function open(path: string): Promise<ZipFile> {
  return new Promise((resolve, reject) =>
    yauzl.open(path, { lazyEntries: true, validateEntrySizes: true }, (error, zip) =>
      error ? reject(error) : resolve(zip),
    ),
  );
}

function readStream(zip: ZipFile, entry: Entry): Promise<Readable> {
  return new Promise((resolve, reject) =>
    zip.openReadStream(entry, (error, stream) => (error ? reject(error) : resolve(stream))),
  );
}

export interface FloorResult {
  seconds: number;
  files: number;
  rows: number;
  unpackedBytes: number;
  peakRssMb: number;
}

export async function floor(path: string): Promise<FloorResult> {
  const started = performance.now();
  const zip = await open(path);
  let files = 0;
  let rows = 0;
  let unpackedBytes = 0;
  await new Promise<void>((resolve, reject) => {
    zip.on('error', reject);
    zip.on('end', resolve);
    zip.on('entry', (entry: Entry) => {
      if (!entry.fileName.endsWith('.json')) {
        zip.readEntry();
        return;
      }
      void (async () => {
        const chunks: Buffer[] = [];
        for await (const chunk of await readStream(zip, entry)) chunks.push(chunk as Buffer);
        const text = Buffer.concat(chunks).toString('utf8');
        const content = JSON.parse(text) as unknown[];
        files++;
        rows += content.length;
        unpackedBytes += text.length;
        zip.readEntry();
      })().catch(reject);
    });
    zip.readEntry();
  });
  const seconds = (performance.now() - started) / 1000;
  return { seconds, files, rows, unpackedBytes, peakRssMb: peakRssMb() };
}

/** The process's peak resident set so far (VmHWM), in MB (10^6 bytes). */
function peakRssMb(): number {
  return (process.resourceUsage().maxRSS * 1024) / 1e6;
}

const path = process.argv[2];
if (process.argv[1] === import.meta.filename && path) {
  console.log(JSON.stringify(await floor(path)));
}
