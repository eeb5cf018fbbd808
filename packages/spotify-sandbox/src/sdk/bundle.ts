import { createHash } from 'node:crypto';
import path from 'node:path';

const ENTRY = path.join(import.meta.dirname, 'browser', 'spotify-player.ts');

/** The SDK stand-in as served: one classic script and its ETag. */
export interface PlayerScript {
  source: string;
  etag: string;
}

/** Bundled once per sandbox root and process: sandboxes (tests make many) share it. */
const bundled = new Map<string, Promise<PlayerScript>>();

/**
 * The Web Playback SDK stand-in (`./browser/spotify-player.ts`) as one classic ES2020 script (what
 * a `<script src>` runs) that talks to the sandbox at `sandboxRoot`. Its types are checked by its
 * own tsconfig (DOM, no Node); esbuild only strips them here.
 */
export function playerScript(sandboxRoot: string): Promise<PlayerScript> {
  let script = bundled.get(sandboxRoot);
  if (!script) {
    script = bundle(sandboxRoot);
    bundled.set(sandboxRoot, script);
  }
  return script;
}

async function bundle(sandboxRoot: string): Promise<PlayerScript> {
  // Loaded only when a sandbox starts: esbuild refuses to load in a jsdom window, where tests
  // import the sandbox's helpers.
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: [ENTRY],
    bundle: true,
    format: 'iife',
    target: 'es2020',
    platform: 'browser',
    write: false,
    logLevel: 'silent',
    define: { SANDBOX_ROOT: JSON.stringify(sandboxRoot) },
  });
  const source = result.outputFiles[0]!.text;
  const etag = `"${createHash('sha256').update(source).digest('base64url').slice(0, 27)}"`;
  return { source, etag };
}
