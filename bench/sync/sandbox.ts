/**
 * The Spotify sandbox for the sync benchmark, as its own process: a world of `--accounts`
 * listeners, its clock frozen at `--at` (the benchmark moves it with the control API), access
 * tokens that outlive the run (token refreshes are counted apart, see README), the demo client
 * allowed to redirect to `--redirect-uri`. Prints `SANDBOX <url>` once it listens.
 */
import { parseArgs } from 'node:util';
import { SandboxClock } from '@earshot/spotify-sandbox/clock';
import { DEMO_CLIENT_ID } from '@earshot/spotify-sandbox/demo-client';
import { startSandboxServer } from '@earshot/spotify-sandbox/main';

const { values } = parseArgs({
  options: {
    accounts: { type: 'string', default: '1000' },
    at: { type: 'string', default: '2026-11-20T19:00:00Z' },
    'redirect-uri': { type: 'string', default: 'http://127.0.0.1:8080/api/spotify/callback' },
    port: { type: 'string', default: '0' },
  },
  strict: true,
});

const started = performance.now();
const sandbox = await startSandboxServer({
  port: Number(values.port),
  worldSizes: { accounts: Number(values.accounts) },
  clock: new SandboxClock({ at: new Date(values.at), frozen: true }),
  accessTokenTtlSec: 30 * 24 * 3600,
  clients: [{ id: DEMO_CLIENT_ID, redirectUris: [values['redirect-uri']], mode: 'extended' }],
  control: { enabled: true },
});
console.log(`SANDBOX ${sandbox.url} (${Math.round(performance.now() - started)} ms)`);

const stop = () => {
  sandbox.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
