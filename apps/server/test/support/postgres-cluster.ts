import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from './earshot-process';

/** Ports of PostgreSQL clusters the tests start themselves. */
const CLUSTER_PORTS = [5480, 5489] as const;

/**
 * A PostgreSQL server of one test's own, in a temporary folder, that the test may stop and
 * start: never the machine's shared server, which others use.
 */
export interface ThrowawayCluster {
  port: number;
  url(database: string): string;
  /** A fast shutdown (`pg_ctl stop -m fast`): sessions are ended, then the server stops. */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops it if it runs and deletes its folder. */
  remove(): Promise<void>;
}

interface Binaries {
  dir: string;
  /** initdb and postgres refuse to run as root: as root, they run as this user. */
  runAs: { name: string; uid: number; gid: number } | undefined;
}

/** Debian's layout (/usr/lib/postgresql/<version>/bin), else whatever `pg_ctl` PATH finds. */
function binDir(): string | undefined {
  const debian = '/usr/lib/postgresql';
  if (existsSync(debian)) {
    const versions = readdirSync(debian)
      .filter((version) => existsSync(path.join(debian, version, 'bin', 'initdb')))
      .sort((a, b) => Number(b) - Number(a));
    if (versions[0]) return path.join(debian, versions[0], 'bin');
  }
  return (process.env.PATH ?? '')
    .split(path.delimiter)
    .find(
      (dir) => dir && existsSync(path.join(dir, 'initdb')) && existsSync(path.join(dir, 'pg_ctl')),
    );
}

function userIds(name: string): { uid: number; gid: number } | undefined {
  const uid = spawnSync('id', ['-u', name], { encoding: 'utf8' });
  const gid = spawnSync('id', ['-g', name], { encoding: 'utf8' });
  if (uid.status !== 0 || gid.status !== 0) return undefined;
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

/** PostgreSQL's server binaries, or why a cluster cannot be started here. */
export function findPostgresBinaries(): Binaries | { missing: string } {
  const dir = binDir();
  if (!dir) {
    return {
      missing: 'no PostgreSQL server binaries (initdb, pg_ctl) in /usr/lib/postgresql or PATH',
    };
  }
  if (process.getuid?.() !== 0) return { dir, runAs: undefined };
  const ids = userIds('postgres');
  if (!ids || !existsSync('/usr/sbin/runuser')) {
    return { missing: 'running as root without a postgres user (and runuser) to run initdb as' };
  }
  return { dir, runAs: { name: 'postgres', ...ids } };
}

function run(binaries: Binaries, program: string, args: string[]): Promise<void> {
  const executable = path.join(binaries.dir, program);
  const [command, argv] = binaries.runAs
    ? ['/usr/sbin/runuser', ['-u', binaries.runAs.name, '--', executable, ...args]]
    : [executable, args];
  return new Promise((resolve, reject) => {
    const child = spawn(command, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0
        ? resolve()
        : reject(new Error(`${program} ${args.join(' ')}: exit ${code}\n${output}`)),
    );
  });
}

/** initdb into a temporary folder and start the server on a free port in 5480–5489. */
export async function startThrowawayCluster(binaries: Binaries): Promise<ThrowawayCluster> {
  const folder = await mkdtemp(path.join(tmpdir(), 'earshot-pg-cluster-'));
  if (binaries.runAs) await chown(folder, binaries.runAs.uid, binaries.runAs.gid);
  const data = path.join(folder, 'data');
  const port = await freePort(...CLUSTER_PORTS);
  let running = false;
  const start = async () => {
    // Durability is not what these tests look at: no fsync keeps initdb and the checkpoints quick.
    const options = [
      `-p ${port}`,
      `-k ${folder}`,
      '-c listen_addresses=127.0.0.1',
      '-c fsync=off',
      '-c full_page_writes=off',
    ].join(' ');
    await run(binaries, 'pg_ctl', [
      '-D',
      data,
      '-l',
      path.join(folder, 'log'),
      '-w',
      '-t',
      '120',
      '-o',
      options,
      'start',
    ]);
    running = true;
  };
  const stop = async (mode: 'fast' | 'immediate') => {
    await run(binaries, 'pg_ctl', ['-D', data, '-m', mode, '-w', '-t', '120', 'stop']);
    running = false;
  };
  try {
    await run(binaries, 'initdb', [
      '-D',
      data,
      '-U',
      'postgres',
      '-A',
      'trust',
      '-E',
      'UTF8',
      '--locale=C',
      '--no-sync',
    ]);
    await start();
  } catch (error) {
    await rm(folder, { recursive: true, force: true });
    throw error;
  }
  return {
    port,
    url: (database) => `postgres://postgres@127.0.0.1:${port}/${database}`,
    stop: () => stop('fast'),
    start,
    async remove() {
      if (running) await stop('immediate').catch(() => {});
      await rm(folder, { recursive: true, force: true });
    },
  };
}
