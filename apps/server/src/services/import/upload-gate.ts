import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { Transform, type TransformCallback } from 'node:stream';
import { HttpError } from '../../errors';

/** What every ZIP that holds a file starts with: a local file header. */
const ZIP_SIGNATURE = Buffer.from([0x50, 0x4b, 0x03, 0x04]);

const NOT_A_ZIP = 'This file is not a ZIP archive. Upload the .zip file Spotify sent.';

/** Bytes of the uploads waiting in `dir` for their import. */
async function bytesWaitingIn(dir: string): Promise<number> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const sizes = await Promise.all(
    names.map((name) =>
      stat(path.join(dir, name)).then(
        (entry) => entry.size,
        () => 0,
      ),
    ),
  );
  return sizes.reduce((sum, size) => sum + size, 0);
}

/**
 * Admits uploads: one at a time per user, and no more than `maxTotalBytes` on disk for all users
 * together (uploads waiting for their import plus those arriving). Counted in this process: with
 * several API processes, each keeps its own share of the bound.
 */
export class UploadGate {
  private readonly uploading = new Set<string>();
  private arrivingBytes = 0;

  constructor(
    private readonly dir: string,
    private readonly maxTotalBytes: number,
  ) {}

  /** Reserves room for an upload of up to `bytes`; answers the function that frees it. */
  async admit(userId: string, bytes: number): Promise<() => void> {
    if (this.uploading.has(userId)) {
      throw new HttpError(429, 'Your previous upload is still arriving. Wait for it to finish.');
    }
    // Reserved before the disk is read, so that uploads starting together count each other.
    this.uploading.add(userId);
    this.arrivingBytes += bytes;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      this.uploading.delete(userId);
      this.arrivingBytes -= bytes;
    };
    if ((await bytesWaitingIn(this.dir)) + this.arrivingBytes > this.maxTotalBytes) {
      release();
      throw new HttpError(
        429,
        'Too many uploads are waiting to be imported right now. Please try again in a few minutes.',
      );
    }
    return release;
  }
}

/**
 * Passes an upload through while checking, from its first bytes, that it is a ZIP: a large file
 * of another kind is refused at once instead of after it was written in full.
 */
export function zipSignatureCheck(): Transform {
  let head = Buffer.alloc(0);
  let checked = false;
  return new Transform({
    transform(chunk: Buffer, _encoding, done: TransformCallback) {
      if (checked) return done(null, chunk);
      head = Buffer.concat([head, chunk]);
      if (head.length < ZIP_SIGNATURE.length) return done();
      if (!head.subarray(0, ZIP_SIGNATURE.length).equals(ZIP_SIGNATURE)) {
        return done(new HttpError(400, NOT_A_ZIP));
      }
      checked = true;
      const all = head;
      head = Buffer.alloc(0);
      done(null, all);
    },
    flush(done: TransformCallback) {
      if (!checked) return done(new HttpError(400, NOT_A_ZIP));
      done();
    },
  });
}
