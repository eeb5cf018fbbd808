import { randomUUID } from 'node:crypto';
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';

/**
 * One JSON document on disk, replaced atomically: each write goes to a temporary file in the same
 * folder, is flushed to disk, then renamed over the old one. Writes run one at a time in call order,
 * so the file always ends up holding the latest snapshot.
 */
export class JsonStateFile {
  private queue: Promise<void> = Promise.resolve();

  constructor(readonly filePath: string) {}

  /** The parsed document, or undefined when the file does not exist yet. */
  async read(): Promise<unknown> {
    let text: string;
    try {
      text = await readFile(this.filePath, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    try {
      return JSON.parse(text) as unknown;
    } catch (error) {
      throw new Error(`spotify-sandbox: ${this.filePath} is not valid JSON`, { cause: error });
    }
  }

  /** Queues a write of the snapshot `takeSnapshot` returns when the write's turn comes. */
  write(takeSnapshot: () => unknown): Promise<void> {
    const run = this.queue.then(() => this.replace(JSON.stringify(takeSnapshot())));
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Resolves once every queued write has finished. */
  settled(): Promise<void> {
    return this.queue;
  }

  private async replace(text: string): Promise<void> {
    await mkdir(path.dirname(this.filePath), { recursive: true });
    const temporary = `${this.filePath}.${randomUUID()}.tmp`;
    try {
      const handle = await open(temporary, 'w', 0o600);
      try {
        await handle.writeFile(text, 'utf8');
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(temporary, this.filePath);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
  }
}
