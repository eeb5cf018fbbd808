/**
 * Records the landing page's demo video (apps/web/public/demo/) from Earshot as `npm start` runs
 * it: the built web app, the embedded database and the Spotify sandbox, on its own port and a
 * fresh data folder, driven in Debian's Chromium as a demo person of the sandbox. Writes the
 * video as WebM (VP9) and MP4 (H.264), a poster (a frame of it) and English captions (WebVTT)
 * whose cues are timed from the recording itself. Run again when the UI changes:
 *
 *   npm run demo:record        # builds the web app first; needs ffmpeg (apt-get install -y ffmpeg)
 *
 * Playwright's own video recording needs an ffmpeg build it downloads, so the frames are taken
 * from Chromium's screencast (DevTools protocol) and encoded with the system's ffmpeg.
 * `DEMO_PORT` (8293) is the server's port.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  chromium,
  expect,
  type APIRequestContext,
  type Browser,
  type Locator,
  type Page,
} from '@playwright/test';
import { CHROMIUM_LAUNCH_OPTIONS } from './chromium';

const REPO_ROOT = path.resolve(import.meta.dirname, '..');
const OUT_DIR = path.join(REPO_ROOT, 'apps/web/public/demo');
const PORT = Number(process.env.DEMO_PORT ?? 8293);
const BASE_URL = `http://127.0.0.1:${PORT}`;
const VIEWPORT = { width: 1280, height: 720 };
/** The landing page promises at most this much per file (issue 18). */
const MAX_VIDEO_BYTES = 2 * 1024 * 1024;
const FRAME_RATE = 20;

const PERSON = { name: 'Mara Lindqvist', username: 'mara-lindqvist' };
/** A friend of Mara's in the demo world, found by search and whose profile is shown. */
const FRIEND = { name: 'Tomás Ferreira', username: 'tomas-ferreira', query: 'tomas' };

function requireFfmpeg(): void {
  const probe = spawnSync('ffmpeg', ['-hide_banner', '-version'], { stdio: 'ignore' });
  if (probe.error || probe.status !== 0) {
    throw new Error(
      'ffmpeg is needed to encode the demo video and was not found on PATH. On Debian: apt-get install -y ffmpeg',
    );
  }
}

function ffmpeg(args: string[]): void {
  const run = spawnSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...args], {
    stdio: 'inherit',
  });
  if (run.status !== 0) throw new Error(`ffmpeg ${args.join(' ')} failed (${run.status})`);
}

/** Earshot as `npm start` serves it (after the web build), with a data folder of its own. */
async function startEarshot(dataDir: string): Promise<ChildProcess> {
  const server = spawn('npm', ['run', 'serve', '--workspace', '@earshot/server'], {
    cwd: REPO_ROOT,
    env: { ...process.env, PORT: String(PORT), DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'inherit', 'inherit'],
    // Its own process group, so stopping it stops npm's child (tsx) too.
    detached: true,
  });
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error('Earshot exited before it answered');
    const up = await fetch(`${BASE_URL}/api/status`).then(
      (answer) => answer.ok,
      () => false,
    );
    if (up) return server;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`Earshot did not answer on ${BASE_URL} within 180 s`);
}

async function stopEarshot(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null || server.pid === undefined) return;
  process.kill(-server.pid, 'SIGTERM');
  await once(server, 'exit');
}

/** Connects through the sandbox as `name` from the page the login button is on. */
async function connectAs(page: Page, name: string, move = (target: Locator) => target.click()) {
  await move(page.getByRole('button', { name: 'Connect with Spotify' }).first());
  await expect(page).toHaveURL(/\/sandbox\/accounts\/authorize\?/);
  await move(page.getByRole('button', { name: new RegExp(name) }));
  const allow = page.getByRole('button', { name: 'Allow', exact: true });
  const accountMenu = page.getByRole('button', { name: `Account menu for ${name}` });
  await expect(allow.or(accountMenu)).toBeVisible({ timeout: 30_000 });
  if (await allow.isVisible()) await move(allow);
  await expect(accountMenu).toBeVisible();
}

/**
 * Waits, signed in as the demo person, until the demo world's first syncs have filled what the
 * video shows: the feed with friends' plays and Discover's sections.
 */
async function waitForDemoWorld(request: APIRequestContext): Promise<void> {
  await expect
    .poll(
      async () => {
        const counts: number[] = [];
        for (const username of [PERSON.username, FRIEND.username]) {
          const answer = await request.get(`/api/recent?user=${username}&limit=1`);
          counts.push(
            answer.ok() ? ((await answer.json()) as { items: unknown[] }).items.length : 0,
          );
        }
        for (const section of ['friends-favorites', 'rediscover-likes']) {
          const answer = await request.get(`/api/suggestions/${section}?limit=5`);
          counts.push(
            answer.ok() ? ((await answer.json()) as { items: unknown[] }).items.length : 0,
          );
        }
        return counts.every((count) => count > 0);
      },
      { message: 'the demo world synced', timeout: 120_000, intervals: [1_000, 2_000] },
    )
    .toBe(true);
}

/**
 * A dot that follows the mouse, so the video shows where each click lands. Source text, not a
 * function: tsx compiles functions with helpers (`__name`) that the page does not have.
 */
const POINTER_SCRIPT = `
addEventListener('DOMContentLoaded', () => {
  const dot = document.createElement('div');
  dot.setAttribute('aria-hidden', 'true');
  dot.style.cssText = 'position:fixed;left:0;top:0;width:22px;height:22px;margin:-11px 0 0 -11px;' +
    'border-radius:50%;background:rgb(255 255 255 / 60%);border:2px solid rgb(0 0 0 / 55%);' +
    'pointer-events:none;z-index:2147483647;transition:transform 80ms linear;' +
    'transform:translate(' + (sessionStorage.getItem('demo-pointer') || '-50px,-50px') + ')';
  document.body.append(dot);
  addEventListener('mousemove', (event) => {
    const at = event.clientX + 'px,' + event.clientY + 'px';
    dot.style.transform = 'translate(' + at + ')';
    sessionStorage.setItem('demo-pointer', at);
  }, true);
});
`;

interface Frame {
  file: string;
  /** Seconds, wall clock. */
  at: number;
}

interface Cue {
  text: string;
  start: number;
  end: number;
}

/** Chromium's screencast of `page`: a JPEG each time the page's pixels change. */
async function startScreencast(page: Page, frameDir: string) {
  const session = await page.context().newCDPSession(page);
  const frames: Frame[] = [];
  session.on('Page.screencastFrame', (event) => {
    const file = path.join(frameDir, `frame-${String(frames.length).padStart(5, '0')}.jpg`);
    writeFileSync(file, Buffer.from(event.data, 'base64'));
    // Received now: the same clock as the captions' cues.
    frames.push({ file, at: Date.now() / 1000 });
    void session.send('Page.screencastFrameAck', { sessionId: event.sessionId }).catch(() => {});
  });
  await session.send('Page.startScreencast', {
    format: 'jpeg',
    quality: 92,
    maxWidth: VIEWPORT.width,
    maxHeight: VIEWPORT.height,
  });
  return {
    frames,
    async stop() {
      await session.send('Page.stopScreencast');
      await session.detach();
    },
  };
}

function vttTime(seconds: number): string {
  const ms = Math.max(0, Math.round(seconds * 1000));
  const pad = (value: number, size = 2) => String(value).padStart(size, '0');
  return `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor(ms / 60_000) % 60)}:${pad(
    Math.floor(ms / 1000) % 60,
  )}.${pad(ms % 1000, 3)}`;
}

function captionsVtt(cues: Cue[], origin: number): string {
  const blocks = cues.map(
    (cue, index) =>
      `${index + 1}\n${vttTime(cue.start - origin)} --> ${vttTime(cue.end - origin)}\n${cue.text}`,
  );
  return `WEBVTT\n\n${blocks.join('\n\n')}\n`;
}

/**
 * The frames as ffmpeg's concat list on a constant frame rate: at each tick the latest frame
 * received, runs of the same frame merged. (The concat demuxer stretches entries shorter than an
 * image's own 1/25 s, so the screencast's irregular timings cannot be listed as they came.)
 */
function concatList(frames: Frame[], start: number, end: number): string {
  const entries: { file: string; ticks: number }[] = [];
  let index = 0;
  for (let tick = 0; start + tick / FRAME_RATE < end; tick++) {
    const at = start + tick / FRAME_RATE;
    while (index + 1 < frames.length && frames[index + 1]!.at <= at) index++;
    const file = frames[index]!.file;
    const last = entries.at(-1);
    if (last?.file === file) last.ticks++;
    else entries.push({ file, ticks: 1 });
  }
  const lines = entries.map(
    ({ file, ticks }) => `file '${file}'\nduration ${(ticks / FRAME_RATE).toFixed(3)}`,
  );
  // The concat demuxer takes the last entry's duration only when the file is listed again.
  lines.push(`file '${entries.at(-1)?.file ?? ''}'`);
  return `${lines.join('\n')}\n`;
}

/** Drives the app as a person would, the pointer visibly travelling to what it clicks. */
async function performDemo(page: Page, caption: (text: string) => void, markPoster: () => void) {
  const pause = (ms: number) => page.waitForTimeout(ms);
  const pointAt = async (target: Locator) => {
    await target.scrollIntoViewIfNeeded();
    const box = await target.boundingBox();
    if (box) {
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2, { steps: 20 });
    }
    await pause(250);
  };
  const clickOn = async (target: Locator) => {
    await pointAt(target);
    await target.click();
  };
  const scrollBy = async (top: number) => {
    await page.evaluate(`scrollBy({ top: ${top}, behavior: 'smooth' })`);
    await pause(1_200);
  };

  caption('Earshot: hear what your friends are playing, from their Spotify accounts.');
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await pause(2_500);

  caption('Connect with Spotify. Here, the offline sandbox lists its demo accounts.');
  await connectAs(page, PERSON.name, clickOn);
  await expect(
    page.getByRole('list', { name: 'Recent Activity' }).getByRole('listitem').first(),
  ).toBeVisible();
  await page.waitForLoadState('networkidle').catch(() => undefined);

  caption('Recent: what you and your friends play, as it happens.');
  await pause(1_500);
  await scrollBy(360);
  await pause(1_000);
  await scrollBy(-360);

  caption('Play any track from the feed. The mini player follows you from page to page.');
  const row = page.getByRole('list', { name: 'Recent Activity' }).getByRole('listitem').first();
  const title = (await row.locator('a[href^="/track/"]').first().innerText()).trim();
  await pointAt(row);
  await clickOn(row.getByRole('button', { name: `Play ${title}` }));
  const miniPlayer = page.getByRole('region', { name: 'Mini player' });
  await expect(miniPlayer.getByRole('link', { name: title })).toBeVisible({ timeout: 30_000 });
  await expect(miniPlayer.getByRole('button', { name: 'Pause' })).toBeVisible({ timeout: 30_000 });
  // Playing, with its progress: the poster's moment.
  await expect(miniPlayer.getByRole('progressbar')).toBeVisible({ timeout: 30_000 });
  await pointAt(miniPlayer.getByRole('button', { name: 'Pause' }));
  await pause(1_000);
  markPoster();
  await pause(1_500);

  caption("Discover: new releases, your on-repeat songs and your friends' favourites.");
  await clickOn(page.getByRole('link', { name: 'Discover' }).first());
  await expect(page.getByRole('heading', { name: 'Popular with Friends' })).toBeVisible();
  await page.waitForLoadState('networkidle').catch(() => undefined);
  await pause(1_500);
  await scrollBy(420);
  await pause(1_500);

  caption('Search tracks, albums, artists and people.');
  await clickOn(page.getByRole('button', { name: 'Search', exact: true }));
  const search = page.getByRole('dialog', { name: 'Search' });
  await expect(search).toBeVisible();
  await page.keyboard.type(FRIEND.query, { delay: 140 });
  const friend = search
    .getByRole('group', { name: 'Users' })
    .getByRole('option', { name: new RegExp(FRIEND.name) });
  await expect(friend).toBeVisible();
  await pause(1_500);

  caption("A friend's profile: listening time, top songs and top artists.");
  await clickOn(friend);
  await expect(page.getByRole('heading', { level: 1, name: FRIEND.name })).toBeVisible();
  await page.waitForLoadState('networkidle').catch(() => undefined);
  await pause(2_000);
  await scrollBy(480);
  await pause(2_000);
  await scrollBy(480);
  await pause(2_500);
}

async function record(browser: Browser, frameDir: string) {
  // Sign in once off camera and wait for the demo world's first syncs: the feed, Discover and
  // profiles then have something to show when the camera rolls.
  const warmUp = await browser.newContext({ baseURL: BASE_URL });
  const warmUpPage = await warmUp.newPage();
  await warmUpPage.goto('/');
  await connectAs(warmUpPage, PERSON.name);
  await waitForDemoWorld(warmUpPage.request);
  await warmUp.close();

  const context = await browser.newContext({ baseURL: BASE_URL, viewport: VIEWPORT });
  await context.addInitScript(POINTER_SCRIPT);
  const page = await context.newPage();
  const screencast = await startScreencast(page, frameDir);
  const cues: Cue[] = [];
  let posterAt = 0;
  const now = () => Date.now() / 1000;
  const caption = (text: string) => {
    const last = cues.at(-1);
    if (last) last.end = now();
    cues.push({ text, start: now(), end: now() });
  };
  const origin = now();
  await performDemo(page, caption, () => (posterAt = now()));
  const end = now();
  const lastCue = cues.at(-1);
  if (lastCue) lastCue.end = end;
  await screencast.stop();
  await context.close();

  const frames = screencast.frames.filter((frame) => frame.at >= origin);
  if (frames.length === 0) throw new Error('the screencast sent no frames');
  const poster = [...frames].reverse().find((frame) => frame.at <= posterAt) ?? frames[0]!;
  // The video starts at its first frame; the captions are timed from there.
  const videoStart = frames[0]!.at;
  return { frames, end, cues, videoStart, posterFile: poster.file };
}

function encode(recording: Awaited<ReturnType<typeof record>>, frameDir: string): void {
  const list = path.join(frameDir, 'frames.txt');
  writeFileSync(list, concatList(recording.frames, recording.videoStart, recording.end));
  const input = ['-f', 'concat', '-safe', '0', '-i', list, '-an'];
  const filter = ['-vf', `fps=${FRAME_RATE},format=yuv420p`];
  mkdirSync(OUT_DIR, { recursive: true });
  const output = (file: string) => path.join(OUT_DIR, file);

  ffmpeg([
    ...input,
    ...filter,
    ...['-c:v', 'libvpx-vp9', '-crf', '42', '-b:v', '0'],
    ...['-row-mt', '1', '-deadline', 'good', '-cpu-used', '2'],
    output('earshot-demo.webm'),
  ]);
  ffmpeg([
    ...input,
    ...filter,
    ...['-c:v', 'libx264', '-preset', 'slow', '-crf', '30', '-tune', 'stillimage'],
    ...['-profile:v', 'high', '-movflags', '+faststart'],
    output('earshot-demo.mp4'),
  ]);
  const poster = output('earshot-demo-poster.webp');
  ffmpeg(['-i', recording.posterFile, '-c:v', 'libwebp', '-quality', '72', poster]);
  writeFileSync(output('earshot-demo.en.vtt'), captionsVtt(recording.cues, recording.videoStart));

  for (const file of ['earshot-demo.webm', 'earshot-demo.mp4']) {
    const bytes = statSync(output(file)).size;
    console.log(`${file}: ${(bytes / 1024).toFixed(0)} KB`);
    if (bytes > MAX_VIDEO_BYTES) {
      throw new Error(`${file} is ${bytes} bytes, over the ${MAX_VIDEO_BYTES} the landing allows`);
    }
  }
}

requireFfmpeg();
if (!existsSync(path.join(REPO_ROOT, 'apps/web/dist/index.html'))) {
  throw new Error('Build the web app first: npm run build --workspace @earshot/web');
}
const dataDir = mkdtempSync(path.join(tmpdir(), 'earshot-demo-data-'));
const frameDir = mkdtempSync(path.join(tmpdir(), 'earshot-demo-frames-'));
const server = await startEarshot(dataDir);
try {
  const browser = await chromium.launch(CHROMIUM_LAUNCH_OPTIONS);
  try {
    const recording = await record(browser, frameDir);
    console.log(
      `${recording.frames.length} frames, ${(recording.end - recording.videoStart).toFixed(1)} s`,
    );
    encode(recording, frameDir);
  } finally {
    await browser.close();
  }
} finally {
  await stopEarshot(server);
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(frameDir, { recursive: true, force: true });
}
