import { Transform, type TransformCallback } from 'node:stream';
import { Unzip, UnzipInflate, type UnzipFile } from 'fflate';
import { HttpError } from '../../errors';
import { archiveRefusal, type ArchiveLimits } from './archive';
import { historyFileKind } from './rows';

/** What every ZIP that holds a file starts with: a local file header. */
const ZIP_SIGNATURE = Buffer.from([0x50, 0x4b, 0x03, 0x04]);

/** A ZIP ends with its end-of-central-directory record: 22 bytes and a comment of up to 65,535. */
const END_RECORD_SIGNATURE = Buffer.from([0x50, 0x4b, 0x05, 0x06]);
const END_RECORD_MAX_BYTES = 22 + 0xffff;

/** The last `size` bytes of a stream, kept as its chunks arrive. */
class Tail {
  private chunks: Buffer[] = [];
  private length = 0;

  constructor(private readonly size: number) {}

  push(chunk: Buffer) {
    this.chunks.push(chunk);
    this.length += chunk.length;
    while (this.length - this.chunks[0]!.length >= this.size) {
      this.length -= this.chunks.shift()!.length;
    }
  }

  bytes(): Buffer {
    return Buffer.concat(this.chunks).subarray(-this.size);
  }
}

/**
 * Below this many unpacked bytes an entry's ratio is not judged: small files of repeated text
 * pack far better than the history files, and cost nothing to unpack.
 */
const RATIO_FLOOR_BYTES = 1024 ** 2;

/**
 * Bytes handed to the unzipper at a time. An entry's packed size is bounded from above by the
 * bytes received since the start of the slice its header ended in, so smaller slices judge a
 * ratio sooner; a whole upload chunk can hold a small entry entirely.
 */
const SLICE_BYTES = 16 * 1024;

const refuse = (detail: string) => new HttpError(400, detail);

/**
 * Passes an upload through while reading it as a ZIP, entry by entry as its bytes arrive
 * (local headers, and each entry unpacked to find its end and measure it; at the end, the record
 * that closes every ZIP), so that a file that is not a ZIP, a damaged or cut-short archive, or one that unpacks past the import's limits (a
 * ZIP bomb) is refused while it streams, before it fills the disk. The import reads the stored
 * file again through its central directory; this only refuses early what it would refuse.
 */
export function zipStructureCheck(limits: ArchiveLimits): Transform {
  let head = Buffer.alloc(0);
  let signatureSeen = false;
  let received = 0;
  let sliceStart = 0;
  let historyBytes = 0;
  let unfinished = 0;
  let failure: HttpError | undefined;
  const tail = new Tail(END_RECORD_MAX_BYTES);
  const fail = (detail: string) => {
    failure ??= refuse(detail);
  };

  const unzip = new Unzip();
  unzip.register(UnzipInflate);
  unzip.onfile = (file: UnzipFile) => {
    const isHistory = historyFileKind(file.name) !== null && !file.name.endsWith('/');
    const startedAt = sliceStart;
    let unpacked = 0;
    unfinished += 1;
    file.ondata = (error, data, final) => {
      if (failure) return;
      if (error) return fail(archiveRefusal.damaged);
      unpacked += data.length;
      if (isHistory) historyBytes += data.length;
      // The entry's packed bytes all came after `startedAt`: an upper bound on its packed size.
      const packedAtMost = received - startedAt;
      if (unpacked >= RATIO_FLOOR_BYTES && unpacked / packedAtMost > limits.maxRatio) {
        return fail(archiveRefusal.implausibleRatio(file.name));
      }
      if (isHistory && unpacked > limits.maxEntryBytes) {
        return fail(archiveRefusal.entryTooLarge(file.name));
      }
      if (historyBytes > limits.maxUnpackedBytes) return fail(archiveRefusal.historyTooLarge);
      if (final) unfinished -= 1;
    };
    try {
      file.start();
    } catch {
      // An unknown compression method: not an archive Spotify makes.
      fail(archiveRefusal.damaged);
    }
  };

  const read = (bytes: Uint8Array, final: boolean) => {
    try {
      unzip.push(bytes, final);
    } catch {
      fail(archiveRefusal.damaged);
    }
    return failure;
  };

  return new Transform({
    transform(chunk: Buffer, _encoding, done: TransformCallback) {
      if (failure) return done(failure);
      if (!signatureSeen) {
        head = Buffer.concat([head, chunk]);
        if (head.length < ZIP_SIGNATURE.length) return done();
        if (!head.subarray(0, ZIP_SIGNATURE.length).equals(ZIP_SIGNATURE)) {
          return done(refuse(archiveRefusal.notZip));
        }
        signatureSeen = true;
        chunk = head;
        head = Buffer.alloc(0);
      }
      tail.push(chunk);
      for (let at = 0; at < chunk.length && !failure; at += SLICE_BYTES) {
        const slice = chunk.subarray(at, at + SLICE_BYTES);
        sliceStart = received;
        received += slice.length;
        read(slice, false);
      }
      done(failure, chunk);
    },
    flush(done: TransformCallback) {
      if (!signatureSeen) return done(refuse(archiveRefusal.notZip));
      if (read(new Uint8Array(0), true)) return done(failure);
      const ended = tail.bytes().includes(END_RECORD_SIGNATURE);
      done(unfinished > 0 || !ended ? refuse(archiveRefusal.damaged) : null);
    },
  });
}
