import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpError } from '../src/errors';
import { UploadGate, zipSignatureCheck } from '../src/services/import/upload-gate';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'earshot-uploads-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function refusal(promise: Promise<unknown>) {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(HttpError);
  return error as HttpError;
}

describe('the upload gate', () => {
  it('lets one upload per user arrive at a time', async () => {
    const gate = new UploadGate(dir, 10_000);
    const release = await gate.admit('mara', 1_000);
    const second = await refusal(gate.admit('mara', 1_000));
    expect(second.statusCode).toBe(429);
    expect(second.message).toMatch(/previous upload is still arriving/);
    await gate.admit('tomas', 1_000).then((other) => other());
    release();
    (await gate.admit('mara', 1_000))();
  });

  it('bounds the disk of all uploads, arriving and waiting for their import', async () => {
    const gate = new UploadGate(dir, 10_000);
    await writeFile(path.join(dir, 'waiting.zip'), Buffer.alloc(6_000));
    const first = await gate.admit('mara', 3_000);
    const full = await refusal(gate.admit('tomas', 3_000));
    expect(full.statusCode).toBe(429);
    expect(full.message).toMatch(/Too many uploads are waiting/);
    first();
    (await gate.admit('tomas', 3_000))();
    await rm(path.join(dir, 'waiting.zip'));
  });

  it('counts uploads that start together against each other', async () => {
    const gate = new UploadGate(dir, 10_000);
    const results = await Promise.allSettled(
      ['a', 'b', 'c'].map((user) => gate.admit(user, 4_000)),
    );
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(2);
  });
});

describe('the ZIP check while streaming', () => {
  const through = (chunks: Buffer[]) =>
    pipeline(Readable.from(chunks), zipSignatureCheck(), async function* (source) {
      for await (const _chunk of source) yield;
    });

  it('refuses at the first bytes a file that is not a ZIP', async () => {
    let read = 0;
    const endless = new Readable({
      read() {
        read += 1;
        this.push(Buffer.alloc(64 * 1024, 0x41));
      },
    });
    const error = await refusal(
      pipeline(endless, zipSignatureCheck(), async function* (source) {
        for await (const _chunk of source) yield;
      }),
    );
    expect(error).toMatchObject({ statusCode: 400 });
    expect(read).toBeLessThan(5);
  });

  it('passes a ZIP through, even when its signature arrives in pieces', async () => {
    await expect(
      through([Buffer.from('P'), Buffer.from('K\x03'), Buffer.from('\x04rest')]),
    ).resolves.toBeUndefined();
  });

  it('refuses a file too short to be a ZIP', async () => {
    expect((await refusal(through([Buffer.from('PK')]))).statusCode).toBe(400);
  });
});
