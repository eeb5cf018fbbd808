/**
 * The web app as a new user's browser meets it: Lighthouse (mobile and desktop) in Debian's
 * Chromium against Earshot as `npm start` runs it (embedded database, sandbox, built web app),
 * on the landing page, `/recent` signed in, and a public profile. Median of `--runs` (3) per
 * page and form factor; also the JavaScript a first visit to the landing page transfers.
 *
 *   npm run build --workspace @earshot/web && npm run bench:web --workspace @earshot/bench
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { desktopConfig } from 'lighthouse';
import puppeteer from 'puppeteer-core';
import { activityFeedPath } from '@earshot/contract/activity';
import { loadAverage } from '../lib/cpu';
import { readOptions } from '../lib/options';
import { machineDescription, markdownTable, writeJson, writeResult } from '../lib/report';
import { freePort } from '../lib/server';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROME_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
];

/** The issue's goals, to print beside each figure. */
const GOALS = {
  landingJsKb: 120,
  performance: { landing: 95, recent: 90, profile: 90 },
  otherCategories: 100,
  cls: 0.02,
};

// `--port 0`: any free port.
// `--pages recent --form-factors mobile`: a quick look at some of them, printed and not written.
const options = readOptions({
  runs: 3,
  account: 'maralindqvist',
  port: 0,
  explain: false,
  pages: 'landing,recent,profile',
  formFactors: 'mobile,desktop',
});
const chosenPages = options.pages.split(',');
const chosenFormFactors = options.formFactors.split(',');
const everything = chosenPages.length === 3 && chosenFormFactors.length === 2;
const { runs } = options;

async function startStack() {
  const port = options.port || (await freePort());
  const dataDir = mkdtempSync(path.join(tmpdir(), 'earshot-bench-web-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts', 'serve'], {
    cwd: REPO_ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      NODE_ENV: 'production',
      PORT: String(port),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_MINUTE: '100000',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error('Earshot exited before it answered');
    const up = await fetch(`${url}/api/status`).then(
      (response) => response.ok,
      () => false,
    );
    if (up) break;
    if (Date.now() > deadline) throw new Error('Earshot did not start within 180 s');
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return {
    url,
    async stop() {
      child.kill('SIGTERM');
      await once(child, 'exit');
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

interface Cookie {
  name: string;
  value: string;
}

/** Cookies as a browser keeps them across the login's redirects (name → value). */
class CookieJar {
  private readonly cookies = new Map<string, string>();
  keep(response: Response) {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair?.indexOf('=') ?? -1;
      if (pair && at > 0) this.cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
  }
  header() {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
  list(): Cookie[] {
    return [...this.cookies].map(([name, value]) => ({ name, value }));
  }
}

/** Signs in as a sandbox demo account through the real OAuth round trip; answers the cookies. */
async function signIn(url: string, account: string): Promise<Cookie[]> {
  const jar = new CookieJar();
  const authorize = await fetch(`${url}/api/spotify/authorize?next=/`);
  jar.keep(authorize);
  const { authorization_url } = (await authorize.json()) as { authorization_url: string };
  const consentUrl = new URL(authorization_url);
  const form = new URLSearchParams(consentUrl.searchParams);
  form.set('account', account);
  form.set('consent', 'allow');
  const consent = await fetch(`${consentUrl.origin}${consentUrl.pathname}`, {
    method: 'POST',
    body: form,
    headers: { origin: consentUrl.origin },
    redirect: 'manual',
  });
  const callback = await fetch(consent.headers.get('location') ?? '', {
    headers: { cookie: jar.header() },
    redirect: 'manual',
  });
  jar.keep(callback);
  if (callback.status >= 400) throw new Error(`Login failed: ${callback.status}`);
  return jar.list();
}

interface Figures {
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  cls: number;
  fcpMs: number;
  lcpMs: number;
  speedIndexMs: number;
  tbtMs: number;
  jsTransferKb: number;
  /** Lighthouse's measure of this machine's CPU: the simulated phone is this machine slowed 4×. */
  benchmarkIndex: number;
}

async function audit(url: string, formFactor: 'mobile' | 'desktop', cookies: Cookie[] = []) {
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: CHROME_FLAGS });
  try {
    // In the browser's own store, as after a real login: the app reads the signed-in cookie from
    // there (a request header set by Lighthouse would hide it, and be replaced by it).
    if (cookies.length > 0) {
      const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}` });
      const { hostname } = new URL(url);
      await browser.setCookie(
        ...cookies.map((cookie) => ({ ...cookie, domain: hostname, path: '/' })),
      );
      await browser.disconnect();
    }
    const result = await lighthouse(
      url,
      {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
      },
      formFactor === 'desktop' ? desktopConfig : undefined,
    );
    if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
    // A run whose trace Chrome failed to record (NO_NAVSTART, seen a few times in ten here) has
    // no metrics and a Performance of 0: counted, it would pull the median down to the worse of
    // the other two runs. It is reported and run again instead.
    if (result.lhr.runtimeError) return { failed: result.lhr.runtimeError.code };
    const { categories, audits } = result.lhr;
    const score = (name: string) => Math.round((categories[name]?.score ?? 0) * 100);
    // The audits that cost points outside Performance in this run: kept with the figures, since
    // a median of 100 can hide a run that missed one (seen once, not reproduced since).
    const missedAudits = ['accessibility', 'best-practices', 'seo'].flatMap((name) =>
      (categories[name]?.auditRefs ?? [])
        .filter((ref) => {
          const found = audits[ref.id];
          return ref.weight > 0 && found && found.score !== null && found.score < 1;
        })
        .map((ref) => `${name}: ${ref.id}`),
    );
    if (options.explain) {
      for (const missed of missedAudits) console.log(`${formFactor} ${url} ${missed}`);
      // And where Performance goes: blocking time, each script's main-thread time, unused bytes.
      for (const id of [
        'first-contentful-paint',
        'largest-contentful-paint',
        'speed-index',
        'total-blocking-time',
      ]) {
        const metric = audits[id];
        console.log(
          `${formFactor} ${url} ${id}: ${ms(metric?.numericValue)} (score ${metric?.score ?? '?'})`,
        );
      }
      // The LCP element, and when each request of the page started and ended (the chain that
      // the simulated LCP waits on).
      const lcpElement = JSON.stringify(audits['largest-contentful-paint-element']?.details ?? {});
      console.log(`${formFactor} LCP element: ${lcpElement.slice(0, 600)}`);
      const requests =
        (
          audits['network-requests']?.details as {
            items?: {
              url: string;
              resourceType?: string;
              networkRequestTime?: number;
              networkEndTime?: number;
            }[];
          }
        )?.items ?? [];
      for (const request of requests) {
        console.log(
          `${formFactor} request: ${ms(request.networkRequestTime)} → ${ms(request.networkEndTime)} ${request.resourceType} ${request.url.replace(/^https?:\/\/[^/]+/, '')}`,
        );
      }
      const describe: Record<string, (item: Record<string, unknown>) => string> = {
        'mainthread-work-breakdown': (item) => `${String(item.groupLabel)} ${ms(item.duration)}`,
        'long-tasks': (item) => `${String(item.url)} ${ms(item.duration)} at ${ms(item.startTime)}`,
        'bootup-time': (item) =>
          `${String(item.url)} ${ms(item.total)} (${ms(item.scripting)} scripting)`,
        'unused-javascript': (item) => `${String(item.url)} ${String(item.wastedBytes)} B unused`,
        // What moved, by how much: the elements behind CLS.
        'layout-shifts': (item) =>
          `${String((item.node as { snippet?: string } | undefined)?.snippet)} ${String(item.score)}`,
      };
      for (const [id, line] of Object.entries(describe)) {
        const items = (audits[id]?.details as { items?: Record<string, unknown>[] })?.items ?? [];
        for (const item of items) console.log(`${formFactor} ${id}: ${line(item)}`);
      }
    }
    const scripts = (
      audits['network-requests']?.details as {
        items?: { resourceType?: string; transferSize?: number }[];
      }
    )?.items?.filter((item) => item.resourceType === 'Script');
    const figures: Figures = {
      performance: score('performance'),
      accessibility: score('accessibility'),
      bestPractices: score('best-practices'),
      seo: score('seo'),
      cls: audits['cumulative-layout-shift']?.numericValue ?? NaN,
      fcpMs: audits['first-contentful-paint']?.numericValue ?? NaN,
      lcpMs: audits['largest-contentful-paint']?.numericValue ?? NaN,
      speedIndexMs: audits['speed-index']?.numericValue ?? NaN,
      tbtMs: audits['total-blocking-time']?.numericValue ?? NaN,
      jsTransferKb: (scripts ?? []).reduce((sum, item) => sum + (item.transferSize ?? 0), 0) / 1024,
      benchmarkIndex: result.lhr.environment.benchmarkIndex,
    };
    return { figures, missedAudits };
  } finally {
    chrome.kill();
  }
}

function ms(value: unknown): string {
  return `${Math.round(Number(value))} ms`;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * Waits until the feed the account signed in to has settled: the sign-in starts the first sync of
 * its plays in the background, and a page audited before it ends measures "No recent activity."
 * followed by the whole list arriving live (a returning user's /recent never looks like that).
 * Settled: the feed's first page is not empty and the same on two reads a second apart.
 */
async function waitForFirstSync(url: string, cookie: string) {
  const deadline = Date.now() + 120_000;
  let previous = '';
  for (;;) {
    const response = await fetch(
      `${url}${activityFeedPath('recent', { includeMe: true, user: null, q: '' })}`,
      {
        headers: { cookie },
      },
    );
    if (!response.ok) throw new Error(`The feed answered ${response.status}`);
    const { items } = (await response.json()) as { items: unknown[] };
    const current = JSON.stringify(items);
    if (items.length > 0 && current === previous) return;
    if (Date.now() > deadline) throw new Error('The first sync did not settle within 120 s');
    previous = current;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

const stack = await startStack();
try {
  const cookies = await signIn(stack.url, options.account);
  const cookie = cookies.map(({ name, value }) => `${name}=${value}`).join('; ');
  await waitForFirstSync(stack.url, cookie);
  const me = (await (await fetch(`${stack.url}/api/user/me`, { headers: { cookie } })).json()) as {
    username: string;
  };
  const pages = [
    { name: 'landing', path: '/', cookie: undefined },
    { name: 'recent', path: '/recent', cookie: cookies },
    { name: 'profile', path: `/user/${me.username}`, cookie: undefined },
  ].filter((page) => chosenPages.includes(page.name));
  const rows: (string | number)[][] = [];
  const loadBefore = loadAverage();
  const json: Record<string, Record<string, Figures>> = {};
  const benchmarkIndexes: number[] = [];
  const missedByRun: string[] = [];
  for (const page of pages) {
    for (const formFactor of (['mobile', 'desktop'] as const).filter((name) =>
      chosenFormFactors.includes(name),
    )) {
      const samples: Figures[] = [];
      for (let attempt = 1; samples.length < runs; attempt += 1) {
        const sample = await audit(`${stack.url}${page.path}`, formFactor, page.cookie);
        if (!('failed' in sample)) {
          samples.push(sample.figures);
          if (sample.missedAudits.length > 0) {
            missedByRun.push(
              `${page.name} ${formFactor}, run ${samples.length}: ${sample.missedAudits.join(', ')}`,
            );
          }
        } else if (attempt < runs * 3) {
          console.log(`${page.name} ${formFactor}: a run failed (${sample.failed}); running again`);
        } else {
          throw new Error(`${page.name} ${formFactor}: too many failed runs (${sample.failed})`);
        }
      }
      const figures = Object.fromEntries(
        Object.keys(samples[0]!).map((key) => [
          key,
          median(samples.map((sample) => sample[key as keyof Figures])),
        ]),
      ) as unknown as Figures;
      (json[page.name] ??= {})[formFactor] = figures;
      rows.push([
        page.name,
        formFactor,
        figures.performance,
        figures.accessibility,
        figures.bestPractices,
        figures.seo,
        Number(figures.cls.toFixed(3)),
        Math.round(figures.fcpMs),
        Math.round(figures.lcpMs),
        Math.round(figures.speedIndexMs),
        Math.round(figures.tbtMs),
        Math.round(figures.jsTransferKb),
      ]);
      benchmarkIndexes.push(...samples.map((sample) => sample.benchmarkIndex));
      console.log(`${page.name} ${formFactor}:`, figures);
    }
  }
  const landingJs = json.landing?.mobile?.jsTransferKb;
  const landingJsText =
    landingJs === undefined
      ? 'landing mobile not measured'
      : `measured ${Math.round(landingJs)} KB`;
  const machine = await machineDescription();
  const load = `${loadBefore} before, ${loadAverage()} after`;
  const cpu = `Lighthouse's CPU benchmark index ${Math.round(median(benchmarkIndexes))} (median of ${benchmarkIndexes.length} runs; ${Math.round(Math.min(...benchmarkIndexes))}–${Math.round(Math.max(...benchmarkIndexes))})`;
  const markdown = [
    `# Web app (Lighthouse ${runs}× median, Debian Chromium)`,
    '',
    `Machine: ${machine}; load average (1 min) ${load}.`,
    '',
    `${cpu}: mobile figures simulate this machine's CPU slowed 4×, so a slower machine scores ` +
      'lower on the same build (Total Blocking Time most of all).',
    '',
    markdownTable(
      [
        'page',
        'form factor',
        'Performance',
        'Accessibility',
        'Best Practices',
        'SEO',
        'CLS',
        'FCP ms',
        'LCP ms',
        'SI ms',
        'TBT ms',
        'JS KB',
      ],
      rows,
    ),
    '',
    `Goals: landing JS ≤ ${GOALS.landingJsKb} KB (${landingJsText}); Performance ≥ ` +
      `${GOALS.performance.landing} landing, ≥ ${GOALS.performance.recent} /recent and profile (mobile); ` +
      `Accessibility, Best Practices, SEO ${GOALS.otherCategories}; CLS ≤ ${GOALS.cls}.`,
    '',
    missedByRun.length === 0
      ? 'No run missed an Accessibility, Best Practices or SEO audit.'
      : `Audits missed in a run (a median can hide them):\n\n${missedByRun.map((line) => `- ${line}`).join('\n')}`,
  ].join('\n');
  if (everything) {
    await writeJson('web.json', {
      machine,
      load_average: load,
      benchmark_index: median(benchmarkIndexes),
      pages: json,
      missed_audits: missedByRun,
    });
    await writeResult('web.md', markdown);
  }
  console.log(`\n${markdown}\n`);
} finally {
  await stack.stop();
}
