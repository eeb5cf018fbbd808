import { Writable } from 'node:stream';
import { crc32, inflateRawSync } from 'node:zlib';

/**
 * A minimal ZIP reader for the export tests: finds the end of central directory record, walks the
 * central directory, and inflates each entry from its local header, checking sizes and CRC-32.
 * Enough for the archives the sandbox writes (stored or deflated entries, no ZIP64, no
 * encryption); anything else fails loudly.
 */

export interface ZipEntry {
  name: string;
  directory: boolean;
  data: Buffer;
}

const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const CENTRAL_FILE_HEADER = 0x02014b50;
const LOCAL_FILE_HEADER = 0x04034b50;

function findEndOfCentralDirectory(archive: Buffer): number {
  const earliest = Math.max(0, archive.length - 22 - 0xffff);
  for (let offset = archive.length - 22; offset >= earliest; offset--) {
    if (archive.readUInt32LE(offset) === END_OF_CENTRAL_DIRECTORY) return offset;
  }
  throw new Error('not a ZIP archive: no end of central directory record');
}

export function readZip(archive: Buffer): ZipEntry[] {
  const end = findEndOfCentralDirectory(archive);
  const count = archive.readUInt16LE(end + 10);
  const directorySize = archive.readUInt32LE(end + 12);
  let offset = archive.readUInt32LE(end + 16);
  if (count === 0xffff || offset === 0xffffffff)
    throw new Error('ZIP64 archives are not supported');
  if (offset + directorySize !== end)
    throw new Error('central directory does not end where expected');

  const entries: ZipEntry[] = [];
  for (let index = 0; index < count; index++) {
    if (archive.readUInt32LE(offset) !== CENTRAL_FILE_HEADER) {
      throw new Error(`bad central directory header at ${offset}`);
    }
    const flags = archive.readUInt16LE(offset + 8);
    const method = archive.readUInt16LE(offset + 10);
    const crc = archive.readUInt32LE(offset + 16);
    const compressedSize = archive.readUInt32LE(offset + 20);
    const size = archive.readUInt32LE(offset + 24);
    const nameLength = archive.readUInt16LE(offset + 28);
    const extraLength = archive.readUInt16LE(offset + 30);
    const commentLength = archive.readUInt16LE(offset + 32);
    const localOffset = archive.readUInt32LE(offset + 42);
    const name = archive.toString('utf8', offset + 46, offset + 46 + nameLength);
    if (flags & 0x1) throw new Error(`${name} is encrypted`);
    offset += 46 + nameLength + extraLength + commentLength;

    if (archive.readUInt32LE(localOffset) !== LOCAL_FILE_HEADER) {
      throw new Error(`bad local header for ${name}`);
    }
    const localName = archive.toString(
      'utf8',
      localOffset + 30,
      localOffset + 30 + archive.readUInt16LE(localOffset + 26),
    );
    if (localName !== name) throw new Error(`local header names ${localName}, not ${name}`);
    const dataStart =
      localOffset +
      30 +
      archive.readUInt16LE(localOffset + 26) +
      archive.readUInt16LE(localOffset + 28);
    const raw = archive.subarray(dataStart, dataStart + compressedSize);
    let data: Buffer;
    if (method === 0) data = Buffer.from(raw);
    else if (method === 8) data = inflateRawSync(raw);
    else throw new Error(`${name}: compression method ${method} is not supported`);
    if (data.length !== size) throw new Error(`${name}: ${data.length} bytes, expected ${size}`);
    if (crc32(data) !== crc) throw new Error(`${name}: CRC-32 mismatch`);
    entries.push({ name, directory: name.endsWith('/'), data });
  }
  return entries;
}

/** A writable that keeps everything written to it, for exports written without HTTP. */
export class Collect extends Writable {
  private readonly chunks: Buffer[] = [];

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: () => void): void {
    this.chunks.push(chunk);
    done();
  }

  buffer(): Buffer {
    return Buffer.concat(this.chunks);
  }
}
