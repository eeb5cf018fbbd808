import { mkdtemp, readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createTokenCipher, loadOrCreateKeyFile } from '../src/services/token-cipher';

describe('token cipher', () => {
  const cipher = createTokenCipher(randomBytes(32));

  it('round-trips and never stores the plain token', () => {
    const stored = cipher.encrypt('refresh-token-123');
    expect(stored).not.toContain('refresh-token-123');
    expect(stored.startsWith('v1.')).toBe(true);
    expect(cipher.decrypt(stored)).toBe('refresh-token-123');
    expect(cipher.encrypt('same')).not.toBe(cipher.encrypt('same'));
  });

  it('refuses tampered data and other keys', () => {
    const stored = cipher.encrypt('secret');
    const [v, iv, tag, data] = stored.split('.');
    const flipped = Buffer.from(data!, 'base64url');
    flipped[0]! ^= 1;
    expect(() => cipher.decrypt([v, iv, tag, flipped.toString('base64url')].join('.'))).toThrow();
    expect(() => createTokenCipher(randomBytes(32)).decrypt(stored)).toThrow();
    expect(() => cipher.decrypt('plain')).toThrow(/Unrecognised/);
  });

  it('generates the embedded key once, private to the owner', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'earshot-key-'));
    const first = await loadOrCreateKeyFile(dir);
    const second = await loadOrCreateKeyFile(dir);
    expect(first.length).toBe(32);
    expect(second.equals(first)).toBe(true);
    expect((await stat(path.join(dir, 'encryption.key'))).mode & 0o777).toBe(0o600);
    expect((await readFile(path.join(dir, 'encryption.key'), 'utf8')).length).toBe(64);
  });
});
