import http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import autocannon from 'autocannon';
import { cpuDuring, loadAverage, type ProcessGroup } from './cpu';

/** One request to send: the path (with query), its headers (e.g. a session cookie), a body. */
export interface Target {
  path: string;
  headers?: Record<string, string>;
  /** GET when absent. */
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Sent as is (set its content-type in `headers`). */
  body?: string;
}

export interface LoadOptions {
  connections: number;
  /** Seconds measured. */
  duration: number;
  /** Seconds of the same load before, not measured (caches, JIT, pools). */
  warmup: number;
  /** Processes whose CPU time per request is reported (the server, the database, …). */
  processes?: readonly ProcessGroup[];
}

export interface Measurement {
  name: string;
  connections: number;
  duration_s: number;
  requests: number;
  requests_per_sec: number;
  latency_p50_ms: number;
  latency_p90_ms: number;
  latency_p99_ms: number;
  latency_max_ms: number;
  latency_mean_ms: number;
  non_2xx: number;
  /** Connection errors, timeouts included. */
  errors: number;
  timeouts: number;
  /** CPU milliseconds per request of each process group (steadier than req/s on a shared machine). */
  cpu_ms_per_request: Record<string, number>;
  /** The machine's 1-minute load average before and after. */
  load_average: [number, number];
}

/**
 * Sends `targets` in turn over `connections` for `duration` seconds; `overallRate` caps the
 * requests per second of all connections together (as fast as answered when absent).
 */
export function fire(
  baseUrl: string,
  targets: readonly Target[],
  connections: number,
  duration: number,
  overallRate?: number,
) {
  let next = 0;
  return autocannon({
    url: baseUrl,
    connections,
    duration,
    ...(overallRate !== undefined && { overallRate }),
    // Each request takes the next target, so every viewer (and their caches) gets its turn.
    requests: [
      {
        setupRequest: (request) => {
          const target = targets[next++ % targets.length]!;
          return {
            ...request,
            method: target.method ?? 'GET',
            path: target.path,
            headers: { ...target.headers },
            ...(target.body !== undefined && { body: target.body }),
          };
        },
      },
    ],
  });
}

/** Each process's CPU milliseconds per request, to the microsecond. */
function cpuMsPerRequest(cpuSeconds: Record<string, number>, requests: number) {
  return Object.fromEntries(
    Object.entries(cpuSeconds).map(([label, seconds]) => [
      label,
      Math.round((seconds * 1000 * 1000) / Math.max(1, requests)) / 1000,
    ]),
  );
}

/**
 * The figures of one autocannon run: throughput, latency, failures, CPU time per request of
 * each process group, the load average before and after.
 */
export function summarize(
  name: string,
  connections: number,
  result: autocannon.Result,
  cpuSeconds: Record<string, number>,
  loadAverages: [number, number],
): Measurement {
  return {
    name,
    connections,
    duration_s: result.duration,
    requests: result.requests.total,
    requests_per_sec: Math.round(result.requests.total / result.duration),
    latency_p50_ms: result.latency.p50,
    latency_p90_ms: result.latency.p90,
    latency_p99_ms: result.latency.p99,
    latency_max_ms: result.latency.max,
    latency_mean_ms: Math.round(result.latency.average * 100) / 100,
    non_2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    cpu_ms_per_request: cpuMsPerRequest(cpuSeconds, result.requests.total),
    load_average: loadAverages,
  };
}

/** One line of figures for the console. */
export function printMeasurement(m: Measurement): void {
  const failures = m.non_2xx + m.errors;
  console.log(
    `  ${m.name.padEnd(28)} ${String(m.requests_per_sec).padStart(7)} req/s` +
      `  p50 ${m.latency_p50_ms} ms  p99 ${m.latency_p99_ms} ms` +
      Object.entries(m.cpu_ms_per_request)
        .map(([label, ms]) => `  ${label} ${ms} ms CPU`)
        .join('') +
      `  (load ${m.load_average.join(' → ')})` +
      (failures > 0 ? `  FAILURES ${failures}` : ''),
  );
}

/**
 * Loads `targets` (taken in turn) with autocannon: `warmup` seconds unmeasured, then `duration`
 * seconds measured.
 */
export async function measure(
  baseUrl: string,
  name: string,
  targets: readonly Target[],
  options: LoadOptions,
): Promise<Measurement> {
  if (options.warmup > 0) await fire(baseUrl, targets, options.connections, options.warmup);
  const loadBefore = loadAverage();
  const { result, cpuSeconds } = await cpuDuring(options.processes ?? [], () =>
    fire(baseUrl, targets, options.connections, options.duration),
  );
  const measurement = summarize(name, options.connections, result, cpuSeconds, [
    loadBefore,
    loadAverage(),
  ]);
  printMeasurement(measurement);
  return measurement;
}

/**
 * Sends each target once and checks the answer is 200, so a benchmark never measures error
 * pages. Returns the parsed bodies.
 */
export async function preflight(baseUrl: string, targets: readonly Target[]): Promise<unknown[]> {
  const bodies: unknown[] = [];
  for (const target of targets) {
    const method = target.method ?? 'GET';
    const response = await fetch(`${baseUrl}${target.path}`, {
      method,
      headers: target.headers,
      body: target.body,
    });
    const text = await response.text();
    if (!response.ok) {
      throw new Error(
        `${method} ${target.path} answered ${response.status}: ${text.slice(0, 300)}`,
      );
    }
    bodies.push(JSON.parse(text));
  }
  return bodies;
}

/** What one open-loop run saw: each answer's latency from when its request was due. */
interface OpenLoopResult {
  latencies: number[];
  non2xx: number;
  errors: number;
  timeouts: number;
  seconds: number;
  /** The most requests waiting for an answer at once (the sockets it took). */
  peakInFlight: number;
}

/**
 * Sends `targets` in turn at `rate` requests per second, evenly spaced, whatever the answers'
 * times: an open loop, as users arrive. (autocannon's rate is a per-connection budget spent back
 * to back at the start of each second: bursts of every connection at once, not a steady rate.)
 * A request waits for no earlier answer; its latency counts from when it was due.
 */
async function openLoop(
  baseUrl: string,
  targets: readonly Target[],
  rate: number,
  duration: number,
): Promise<OpenLoopResult> {
  const url = new URL(baseUrl);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1024 });
  const result: OpenLoopResult = {
    latencies: [],
    non2xx: 0,
    errors: 0,
    timeouts: 0,
    seconds: duration,
    peakInFlight: 0,
  };
  let inFlight = 0;
  const send = (target: Target, due: number) =>
    new Promise<void>((resolve) => {
      inFlight += 1;
      result.peakInFlight = Math.max(result.peakInFlight, inFlight);
      const done = () => {
        inFlight -= 1;
        resolve();
      };
      const request = http.request(
        {
          host: url.hostname,
          port: url.port,
          path: target.path,
          method: target.method ?? 'GET',
          headers: target.headers,
          agent,
          timeout: 10_000,
        },
        (response) => {
          response.resume();
          response.on('end', () => {
            result.latencies.push(performance.now() - due);
            if ((response.statusCode ?? 0) >= 300) result.non2xx += 1;
            done();
          });
        },
      );
      request.on('timeout', () => {
        result.timeouts += 1;
        request.destroy(new Error('timeout'));
      });
      request.on('error', () => {
        result.errors += 1;
        done();
      });
      request.end(target.body);
    });
  const start = performance.now();
  const pending: Promise<void>[] = [];
  for (let i = 0; i < Math.round(rate * duration); i++) {
    const due = start + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    pending.push(send(targets[i % targets.length]!, due));
  }
  await Promise.all(pending);
  agent.destroy();
  return result;
}

/** The `q` quantile of sorted values (nearest rank), to a tenth of a millisecond. */
const quantile = (sorted: readonly number[], q: number) =>
  sorted.length === 0
    ? 0
    : Math.round(sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)]! * 10) / 10;

/**
 * Loads `targets` (taken in turn) at a steady `rate` per second in an open loop: `warmup`
 * seconds unmeasured, then `duration` seconds measured. `connections` in the figures is the
 * most requests that waited at once.
 */
export async function measureAtRate(
  baseUrl: string,
  name: string,
  targets: readonly Target[],
  rate: number,
  options: LoadOptions,
): Promise<Measurement> {
  if (options.warmup > 0) await openLoop(baseUrl, targets, rate, options.warmup);
  const loadBefore = loadAverage();
  const { result, cpuSeconds } = await cpuDuring(options.processes ?? [], () =>
    openLoop(baseUrl, targets, rate, options.duration),
  );
  const sorted = [...result.latencies].sort((a, b) => a - b);
  const requests = sorted.length;
  const measurement: Measurement = {
    name,
    connections: result.peakInFlight,
    duration_s: result.seconds,
    requests,
    requests_per_sec: Math.round(requests / result.seconds),
    latency_p50_ms: quantile(sorted, 0.5),
    latency_p90_ms: quantile(sorted, 0.9),
    latency_p99_ms: quantile(sorted, 0.99),
    latency_max_ms: quantile(sorted, 1),
    latency_mean_ms:
      Math.round((sorted.reduce((sum, value) => sum + value, 0) / Math.max(1, requests)) * 100) /
      100,
    non_2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    cpu_ms_per_request: cpuMsPerRequest(cpuSeconds, requests),
    load_average: [loadBefore, loadAverage()],
  };
  printMeasurement(measurement);
  return measurement;
}
