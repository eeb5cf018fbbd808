import type { BenchDatabase } from './database';
import {
  measure,
  measureAtRate,
  preflight,
  type LoadOptions,
  type Measurement,
  type Target,
} from './load';
import { withEarshot } from './server';

export interface SuiteVariant {
  key: string;
  name: string;
  /** Sent in turn (e.g. one per viewer). */
  targets: Target[];
}

export interface SuiteResult {
  /** `GET /api/status` before and after the variants, and the mean of the two. */
  baseline: { first: Measurement; last: Measurement; requests_per_sec: number };
  variants: (Measurement & {
    key: string;
    ratio_to_status: number;
    sample: unknown;
    /** The same requests at the fixed rate `rate`, when asked (`--rate`). */
    at_rate?: Measurement;
  })[];
}

/**
 * Checks every target answers 200, then loads `GET /api/status` (the baseline), each variant,
 * and the baseline again, all against the same server in one run. Ratios are to the mean of
 * the two baselines, which also shows how much the machine drifted meanwhile. With `rate`, each
 * variant is then loaded again at that many requests per second, evenly spaced (an open loop:
 * `measureAtRate`); the saturation figure stays.
 */
export async function runSuite(
  baseUrl: string,
  variants: readonly SuiteVariant[],
  load: LoadOptions,
  rate?: number,
): Promise<SuiteResult> {
  const samples = new Map<string, unknown>();
  for (const variant of variants) {
    samples.set(variant.key, (await preflight(baseUrl, variant.targets))[0]);
  }
  const status: Target[] = [{ path: '/api/status' }];
  const first = await measure(baseUrl, 'GET /api/status (baseline)', status, load);
  const measured: Measurement[] = [];
  const atRate: (Measurement | undefined)[] = [];
  for (const variant of variants) {
    measured.push(await measure(baseUrl, variant.name, variant.targets, load));
    atRate.push(
      rate
        ? await measureAtRate(baseUrl, `${variant.name} @ ${rate}/s`, variant.targets, rate, load)
        : undefined,
    );
  }
  const last = await measure(baseUrl, 'GET /api/status (again)', status, load);
  const requestsPerSec = Math.round((first.requests_per_sec + last.requests_per_sec) / 2);
  return {
    baseline: { first, last, requests_per_sec: requestsPerSec },
    variants: measured.map((m, i) => ({
      ...m,
      key: variants[i]!.key,
      ratio_to_status: Math.round((m.requests_per_sec / requestsPerSec) * 1000) / 1000,
      sample: samples.get(variants[i]!.key),
      ...(atRate[i] && { at_rate: atRate[i] }),
    })),
  };
}

/**
 * Starts Earshot on the benchmark's database (see `withEarshot`), runs the suite against it with
 * the benchmark's load options, and stops it.
 */
export function runSuiteOnEarshot(
  bench: BenchDatabase,
  settings: Parameters<typeof withEarshot>[1] & { rate?: number },
  variants: readonly SuiteVariant[],
): Promise<SuiteResult> {
  return withEarshot(bench, settings, {}, (url, load) => {
    console.log(
      `autocannon: ${load.connections} connection${load.connections === 1 ? '' : 's'}, ${load.duration} s each (+${load.warmup} s warm-up)`,
    );
    return runSuite(url, variants, load, settings.rate);
  });
}
