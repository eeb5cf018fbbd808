import { readFile } from 'node:fs/promises';
import os from 'node:os';

/** Clock ticks per second of /proc's CPU times (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** CPU seconds (user + system) a process has used so far; 0 once it is gone. */
async function cpuSeconds(pid: number): Promise<number> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may contain spaces): state is field 3, utime 14.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/** A set of processes whose CPU time is counted together (e.g. the server, the database). */
export interface ProcessGroup {
  label: string;
  pids(): Promise<number[]>;
}

/** CPU seconds per process group since the meter started, read as often as wanted. */
export interface CpuMeter {
  read(): Promise<Record<string, number>>;
}

/**
 * Starts counting the CPU time of process groups. Processes that start later count from zero;
 * ones that end are no longer counted.
 */
export async function cpuMeter(groups: readonly ProcessGroup[]): Promise<CpuMeter> {
  const before = new Map<number, number>();
  for (const group of groups) {
    for (const pid of await group.pids()) before.set(pid, await cpuSeconds(pid));
  }
  return {
    async read() {
      const cpu: Record<string, number> = {};
      for (const group of groups) {
        let sum = 0;
        for (const pid of await group.pids()) {
          sum += (await cpuSeconds(pid)) - (before.get(pid) ?? 0);
        }
        cpu[group.label] = Math.round(sum * 100) / 100;
      }
      return cpu;
    },
  };
}

/**
 * Counts the CPU time that process groups use during `action`. On a shared machine, CPU time
 * per request is a steadier figure than throughput, which other processes' load moves.
 */
export async function cpuDuring<T>(
  groups: readonly ProcessGroup[],
  action: () => Promise<T>,
): Promise<{ result: T; cpuSeconds: Record<string, number> }> {
  const meter = await cpuMeter(groups);
  const result = await action();
  return { result, cpuSeconds: await meter.read() };
}

/** The 1-minute load average, as a note on how busy the machine was. */
export const loadAverage = () => Math.round(os.loadavg()[0]! * 100) / 100;
