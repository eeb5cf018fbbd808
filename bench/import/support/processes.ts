/**
 * Child processes for the import and sync benchmarks: Earshot's CLI and the sandbox run as
 * their own Node processes (TypeScript through tsx's loader, so the pid is the server itself),
 * with their memory sampled from /proc.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import path from 'node:path';

export const REPO_ROOT = path.resolve(new URL('../../../', import.meta.url).pathname);
export const SERVER_MAIN = path.join(REPO_ROOT, 'apps/server/src/main.ts');

export interface Child {
  process: ChildProcess;
  pid: number;
  /** The last lines it printed (stdout and stderr), for errors. */
  output(): string;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves once it exited. */
  stop(graceMs?: number): Promise<void>;
}

/** Runs a TypeScript entry point in a new Node process. */
export function startTs(
  script: string,
  args: string[],
  env: Record<string, string>,
  options: { echo?: boolean; nodeArgs?: string[]; onLine?: (line: string) => void } = {},
): Child {
  const child = spawn(
    process.execPath,
    [...(options.nodeArgs ?? []), '--import', 'tsx', script, ...args],
    {
      cwd: REPO_ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const lines: string[] = [];
  const keeper = () => {
    let partial = '';
    return (chunk: Buffer) => {
      const text = partial + chunk.toString('utf8');
      const complete = text.split('\n');
      partial = complete.pop() ?? '';
      for (const line of complete) {
        if (line === '') continue;
        lines.push(line);
        if (lines.length > 400) lines.shift();
        if (options.echo) console.log(`    | ${line}`);
        options.onLine?.(line);
      }
    };
  };
  child.stdout?.on('data', keeper());
  child.stderr?.on('data', keeper());
  if (child.pid === undefined) throw new Error(`could not start ${script}`);
  const exited = once(child, 'exit');
  return {
    process: child,
    pid: child.pid,
    output: () => lines.join('\n'),
    async stop(graceMs = 10_000) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Runs a TypeScript entry point to its end; rejects with its output if it fails. */
export async function runTs(script: string, args: string[], env: Record<string, string>) {
  const child = startTs(script, args, env);
  const [code] = (await once(child.process, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`${script} ${args.join(' ')} failed:\n${child.output()}`);
  return child.output();
}

/** Waits until `url` answers at all (any status), or the child dies. */
export async function waitForHttp(url: string, child: Child, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.process.exitCode !== null) {
      throw new Error(`process exited (${child.process.exitCode}):\n${child.output()}`);
    }
    try {
      await fetch(url, { signal: AbortSignal.timeout(2000) });
      return;
    } catch {
      await sleep(100);
    }
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms:\n${child.output()}`);
}

/** Waits until the child has printed a line matching `pattern`, or dies. */
export async function waitForOutput(child: Child, pattern: RegExp, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  while (!pattern.test(child.output())) {
    if (child.process.exitCode !== null) {
      throw new Error(`process exited (${child.process.exitCode}):\n${child.output()}`);
    }
    if (Date.now() > deadline) throw new Error(`no ${pattern} within ${timeoutMs} ms`);
    await sleep(50);
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** VmRSS and VmHWM (the kernel's own peak) of a process, in MB (10^6 bytes). */
export function memoryOf(pid: number): { rssMb: number; hwmMb: number } | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) =>
      Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]);
    return { rssMb: (kb('VmRSS') * 1024) / 1e6, hwmMb: (kb('VmHWM') * 1024) / 1e6 };
  } catch {
    return undefined;
  }
}

/** CPU time (user + system) a process has used so far, in seconds; 0 once it is gone. */
export function cpuSecondsOf(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    // utime and stime (fields 14 and 15 of stat), in clock ticks of 10 ms.
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/** Samples a process's resident memory every `everyMs` until stopped. */
/** The largest RSS sample of each second (MB), second 0 first. */
export function perSecond(series: { atMs: number; rssMb: number }[]): number[] {
  const seconds: number[] = [];
  for (const { atMs, rssMb } of series) {
    const second = Math.floor(atMs / 1000);
    seconds[second] = Math.round(Math.max(seconds[second] ?? 0, rssMb));
  }
  return Array.from(seconds, (value) => value ?? 0);
}

export class RssSampler {
  private readonly samples: { atMs: number; rssMb: number }[] = [];
  private hwmMb = 0;
  private readonly timer: NodeJS.Timeout;
  private readonly startedAt = performance.now();

  constructor(
    private readonly pid: number,
    everyMs = 50,
  ) {
    this.timer = setInterval(() => this.sample(), everyMs);
    this.sample();
  }

  private sample() {
    const memory = memoryOf(this.pid);
    if (!memory) return;
    this.samples.push({ atMs: performance.now() - this.startedAt, rssMb: memory.rssMb });
    this.hwmMb = Math.max(this.hwmMb, memory.hwmMb);
  }

  /** Stops sampling; the peak is the larger of the samples and the kernel's high-water mark. */
  stop(): { peakMb: number; samples: number; series: { atMs: number; rssMb: number }[] } {
    this.sample();
    clearInterval(this.timer);
    const sampled = Math.max(0, ...this.samples.map((sample) => sample.rssMb));
    return {
      peakMb: Math.max(sampled, this.hwmMb),
      samples: this.samples.length,
      series: this.samples,
    };
  }
}
