import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const MAIN = fileURLToPath(new URL('../../src/main.ts', import.meta.url));

/** Every process started here, so that a failing test still leaves none behind. */
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

export interface EarshotProcess {
  url: string;
  pid: number;
  /** True until the process exited, by itself or killed. */
  alive(): boolean;
  /** What it printed last (stdout and stderr), for failure messages. */
  output(): string;
  /** `kill -9`: no shutdown code runs, as when a machine or a container dies. */
  kill(): Promise<void>;
  /** SIGTERM (its graceful shutdown), SIGKILL if that takes longer than `graceMs`. */
  stop(graceMs?: number): Promise<void>;
}

/**
 * A port in `from`–`to` nobody listens on now. The range lies below the kernel's ephemeral
 * ports, so no outgoing connection takes it between this check and the server binding it.
 */
export async function freePort(from: number, to: number): Promise<number> {
  const start = from + Math.floor(Math.random() * (to - from + 1));
  for (let i = 0; i <= to - from; i++) {
    const port = from + ((start - from + i) % (to - from + 1));
    const server = createServer();
    const bound = await new Promise<boolean>((resolve) => {
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => resolve(true));
    });
    if (bound) {
      await new Promise((resolve) => server.close(resolve));
      return port;
    }
  }
  throw new Error(`No free port in ${from}-${to}`);
}

/**
 * Earshot's ports for these tests; PostgreSQL clusters of their own use 5480–5489. Each range
 * belongs to one test file: test files run at once, and a port one finds free another could bind
 * before the first's server does.
 */
export const EARSHOT_PORTS = [4800, 4899] as const;

/** Ports where nothing may listen, for the database-unavailable test's refused connections. */
export const UNUSED_PORTS = [4950, 4999] as const;

/**
 * Starts `main.ts serve` as its own Node process, as deployed (tsx's loader in the same process,
 * so the pid is the server itself), with a minimal environment plus `env`. Resolves once
 * `/api/status` answers.
 */
export async function startEarshotProcess(
  port: number,
  env: Record<string, string>,
  { timeoutMs = 180_000 } = {},
): Promise<EarshotProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN, 'serve'], {
    cwd: REPO_ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      // The tests poll faster than a person clicks; the limit is not what they check.
      RATE_LIMIT_PER_MINUTE: '1000000',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  const exited = once(child, 'exit');
  void exited.then(() => running.delete(child));
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-30_000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const alive = () => child.exitCode === null && child.signalCode === null;
  const kill = async () => {
    if (!alive()) return;
    child.kill('SIGKILL');
    await exited;
  };

  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (!alive()) throw new Error(`Earshot exited while starting:\n${output}`);
    const up = await fetch(`${url}/api/status`).then(
      (response) => response.ok,
      () => false,
    );
    if (up) break;
    if (Date.now() > deadline) {
      await kill();
      throw new Error(`Earshot did not start in ${timeoutMs / 1000} s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    url,
    pid: child.pid!,
    alive,
    output: () => output,
    kill,
    async stop(graceMs = 60_000) {
      if (!alive()) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** SIGKILLs every process this module started that still runs. */
export async function killAllEarshotProcesses(): Promise<void> {
  await Promise.all(
    [...running].map(async (child) => {
      const exited = once(child, 'exit');
      child.kill('SIGKILL');
      await exited;
    }),
  );
}

function cookieOf(response: Response, name: string): string {
  const found = response.headers
    .getSetCookie()
    .map((header) => header.split(';')[0]!)
    .find((pair) => pair.startsWith(`${name}=`));
  if (!found) throw new Error(`No ${name} cookie (status ${response.status})`);
  return found;
}

/**
 * Signs in to the Earshot at `url` as a sandbox account over HTTP, as a browser does: Earshot's
 * authorize URL, the sandbox's consent form, Earshot's callback. Answers the session cookie.
 */
export async function signInOverHttp(url: string, accountId: string): Promise<string> {
  const authorize = await fetch(`${url}/api/spotify/authorize?next=%2F`);
  if (!authorize.ok) throw new Error(`authorize answered ${authorize.status}`);
  const loginCookie = cookieOf(authorize, 'earshot_login');
  const authorization = new URL(
    ((await authorize.json()) as { authorization_url: string }).authorization_url,
  );
  const form = new URLSearchParams(authorization.searchParams);
  form.set('account', accountId);
  form.set('consent', 'allow');
  const consent = await fetch(`${authorization.origin}${authorization.pathname}`, {
    method: 'POST',
    body: form,
    redirect: 'manual',
  });
  if (consent.status !== 303) throw new Error(`the sandbox's consent answered ${consent.status}`);
  const callback = await fetch(consent.headers.get('location')!, {
    headers: { cookie: loginCookie },
    redirect: 'manual',
  });
  if (callback.status !== 303) throw new Error(`the callback answered ${callback.status}`);
  return cookieOf(callback, 'earshot_session');
}
