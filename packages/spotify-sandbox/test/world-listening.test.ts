import { describe, expect, it } from 'vitest';
import { SandboxClock } from '../src/clock';
import { RESUME_AFTER_MS } from '../src/world/activity';
import type { Play, World } from '../src/world/model';
import { createWorld, RECENTLY_PLAYED_MIN_MS } from '../src/world/world';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** A Saturday evening in Europe. */
const START = Date.UTC(2026, 10, 21, 18);
const world = createWorld();

function localHour(ms: number, timeZone: string): number {
  const hour = new Intl.DateTimeFormat('en-GB', { timeZone, hour: 'numeric', hourCycle: 'h23' })
    .formatToParts(ms)
    .find((part) => part.type === 'hour')?.value;
  return Number(hour);
}

function startOf(play: Play): number {
  return play.playedAt - play.msPlayed;
}

function expectSequential(plays: readonly Play[]): void {
  plays.forEach((play, index) => {
    const previous = plays[index - 1];
    expect(play.msPlayed).toBeGreaterThan(0);
    if (previous) expect(startOf(play)).toBeGreaterThanOrEqual(previous.playedAt);
  });
}

describe('simulated listening', () => {
  it('follows a daily rhythm: much more in the evening than at night', () => {
    for (const account of world.accounts) {
      const plays = world.playsBetween(account.id, START - 30 * DAY_MS, START);
      const hours = plays.map((play) => localHour(startOf(play), account.timeZone));
      const evening = hours.filter((hour) => hour >= 18 && hour < 23).length;
      const night = hours.filter((hour) => hour >= 2 && hour < 7).length;
      expect(evening).toBeGreaterThan(3 * night);
      expect(plays.length / 30).toBeGreaterThan(account.taste.dailyPlays * 0.5);
      expect(plays.length / 30).toBeLessThan(account.taste.dailyPlays * 1.6);
    }
  });

  it('plays one track at a time, tracks that were out, mostly whole, often in a context', () => {
    const account = world.accounts[0]?.id ?? '';
    const plays = world.playsBetween(account, START - 60 * DAY_MS, START);
    expectSequential(plays);
    let whole = 0;
    let inContext = 0;
    for (const play of plays) {
      const track = world.track(play.trackId);
      const album = world.album(track?.albumId ?? '');
      expect(album?.releasedAt).toBeLessThanOrEqual(play.playedAt);
      expect(play.msPlayed).toBeLessThanOrEqual(track?.durationMs ?? 0);
      if (play.msPlayed === track?.durationMs) whole++;
      if (play.context) {
        inContext++;
        const [, type, id] = play.context.uri.split(':');
        expect(type).toBe(play.context.type);
        const found = {
          album: world.album(id ?? ''),
          playlist: world.playlist(id ?? ''),
          artist: world.artist(id ?? ''),
        }[play.context.type];
        expect(found).toBeDefined();
      }
      expect(['computer', 'smartphone', 'speaker']).toContain(play.device);
    }
    expect(whole / plays.length).toBeGreaterThan(0.7);
    expect(whole / plays.length).toBeLessThan(0.97);
    expect(inContext / plays.length).toBeGreaterThan(0.5);
  });

  it('keeps explicit tracks away from people with the explicit filter on', () => {
    const filtered = world.accounts.filter((account) => account.explicitContent.filterEnabled);
    expect(filtered.length).toBeGreaterThan(0);
    for (const account of filtered) {
      const plays = world.playsBetween(account.id, START - 30 * DAY_MS, START);
      expect(plays.filter((play) => world.track(play.trackId)?.explicit)).toEqual([]);
    }
  });

  it('has 50 recently played tracks of 30 s or more for every account at start-up', () => {
    for (const account of world.accounts) {
      const recent = world.recentPlays(account.id, START, 50);
      expect(recent).toHaveLength(50);
      recent.forEach((play, index) => {
        expect(play.msPlayed).toBeGreaterThanOrEqual(RECENTLY_PLAYED_MIN_MS);
        expect(play.playedAt).toBeLessThan(START);
        if (index > 0) expect(play.playedAt).toBeLessThan(recent[index - 1]?.playedAt ?? 0);
      });
      const all = world.playsBetween(account.id, (recent[49]?.playedAt ?? 0) - 1, START - 1);
      expect(all.filter((play) => play.msPlayed >= RECENTLY_PLAYED_MIN_MS).reverse()).toEqual(
        recent,
      );
    }
  });

  it('goes back years, to the day the account was created', () => {
    const account = world.accounts[4];
    const early = world.playsBetween(account?.id ?? '', 0, (account?.createdAt ?? 0) + 30 * DAY_MS);
    expect(early.length).toBeGreaterThan(100);
    expect(startOf(early[0] as Play)).toBeGreaterThanOrEqual(account?.createdAt ?? 0);
    expect(START - (account?.createdAt ?? 0)).toBeGreaterThan(3 * 365 * DAY_MS);
    expect(world.recentPlays(account?.id ?? '', account?.createdAt ?? 0, 50)).toEqual([]);
  });

  it('goes on as the clock advances, without changing the past', () => {
    const clock = new SandboxClock({ at: START, frozen: true });
    const living = createWorld();
    const account = living.accounts[13]?.id ?? '';
    const past = living.playsBetween(account, clock.now() - DAY_MS, clock.now());

    let added = 0;
    for (let step = 0; step < 12; step++) {
      const before = clock.now();
      clock.advance(HOUR_MS);
      added += living.playsBetween(account, before, clock.now()).length;
    }

    expect(added).toBeGreaterThan(10);
    expect(living.playsBetween(account, START - DAY_MS, START)).toEqual(past);
    const whole = living.playsBetween(account, START - DAY_MS, clock.now());
    expect(whole).toHaveLength(past.length + added);
    expectSequential(whole);
    expect(living.recentPlays(account, clock.now(), 50)[0]?.playedAt).toBeGreaterThan(START);
  });

  it('answers what is playing now, consistently with the plays', () => {
    for (const account of world.accounts.slice(0, 6)) {
      const plays = world.playsBetween(account.id, START - DAY_MS, START + DAY_MS);
      let playing = 0;
      for (let at = START - DAY_MS; at < START + DAY_MS; at += 7 * 60_000 + 13_000) {
        const now = world.nowPlaying(account.id, at);
        const spanning = plays.find((play) => startOf(play) <= at && at < play.playedAt);
        if (!spanning) {
          expect(now).toBeNull();
          continue;
        }
        playing++;
        expect(now?.play).toEqual(spanning);
        expect(now?.track.id).toBe(spanning.trackId);
        expect(now?.startedAt).toBe(startOf(spanning));
        expect(now?.progressMs).toBe(at - startOf(spanning));
      }
      expect(playing).toBeGreaterThan(0);
    }
  });

  it('lets likes and follows grow out of the listening', () => {
    const account = world.accounts[0]?.id ?? '';
    const earlier = world.savedTracks(account, START - 60 * DAY_MS);
    const later = world.savedTracks(account, START);
    expect(later.length).toBeGreaterThan(earlier.length + 5);
    const recentLikes = later.filter((item) => item.addedAt > START - 60 * DAY_MS);
    const plays = world.playsBetween(account, START - 61 * DAY_MS, START);
    for (const like of recentLikes) {
      const source = plays.find(
        (play) =>
          play.trackId === like.trackId &&
          startOf(play) <= like.addedAt &&
          like.addedAt <= play.playedAt,
      );
      expect(source?.msPlayed).toBe(world.track(like.trackId)?.durationMs);
    }
    expect(world.followedArtists(account, START).length).toBeGreaterThanOrEqual(
      world.followedArtists(account, START - 365 * DAY_MS).length,
    );
  });
});

describe('the real player', () => {
  function busyMoment(target: World, account: string): number {
    for (let at = START; at < START + 2 * DAY_MS; at += 60_000) {
      const now = target.nowPlaying(account, at);
      if (now && now.progressMs > 20_000) return at;
    }
    throw new Error('nobody listens');
  }

  it('merges recorded plays into the history and pauses simulated listening meanwhile', () => {
    const shared = createWorld();
    const account = shared.accounts[0]?.id ?? '';
    const at = busyMoment(shared, account);
    const interrupted = shared.nowPlaying(account, at);
    const track = shared.tracks[123];
    const real: Play = {
      accountId: account,
      trackId: track?.id ?? '',
      playedAt: at + (track?.durationMs ?? 0),
      msPlayed: track?.durationMs ?? 0,
      context: null,
      shuffle: false,
      device: 'computer',
    };

    shared.beginRealSession(account, at);
    shared.recordPlay(real);
    expect(shared.nowPlaying(account, at + 1000)).toBeNull();
    shared.endRealSession(account, real.playedAt);

    const plays = shared.playsBetween(account, at - HOUR_MS, real.playedAt + 3 * HOUR_MS);
    expectSequential(plays);
    expect(plays).toContainEqual(real);
    const cut = plays.find(
      (play) => play.trackId === interrupted?.track.id && play.playedAt === at,
    );
    expect(cut?.msPlayed).toBe(interrupted?.progressMs);
    const paused = plays.filter(
      (play) =>
        play.playedAt !== real.playedAt &&
        startOf(play) >= at &&
        startOf(play) < real.playedAt + RESUME_AFTER_MS,
    );
    expect(paused).toEqual([]);
    expect(shared.nowPlaying(account, real.playedAt + RESUME_AFTER_MS - 1)).toBeNull();
    expect(shared.recentPlays(account, real.playedAt + 1, 1)).toEqual([real]);
    // Nothing before the real player started changes.
    expect(shared.playsBetween(account, at - DAY_MS, at - 1)).toEqual(
      createWorld().playsBetween(account, at - DAY_MS, at - 1),
    );
  });

  it('keeps simulated listening off while a real session stays open', () => {
    const shared = createWorld();
    const account = shared.accounts[1]?.id ?? '';
    shared.beginRealSession(account, START);
    expect(shared.playsBetween(account, START, START + 2 * DAY_MS)).toEqual([]);
    expect(shared.nowPlaying(account, START + DAY_MS)).toBeNull();
  });

  it('drops likes of plays the real player cancelled', () => {
    const shared = createWorld();
    const account = shared.accounts[0]?.id ?? '';
    const likes = shared
      .savedTracks(account, START)
      .filter((item) => item.addedAt > START - 30 * DAY_MS);
    shared.beginRealSession(account, START - 30 * DAY_MS);
    const after = shared.savedTracks(account, START);
    expect(likes.length).toBeGreaterThan(0);
    for (const like of likes) expect(after).not.toContainEqual(like);
  });

  it('refuses plays of unknown accounts or tracks', () => {
    const shared = createWorld();
    const play: Play = {
      accountId: 'nobody',
      trackId: shared.tracks[0]?.id ?? '',
      playedAt: START,
      msPlayed: 1000,
      context: null,
      shuffle: false,
      device: 'smartphone',
    };
    expect(() => shared.recordPlay(play)).toThrow(RangeError);
    expect(() => shared.recordPlay({ ...play, accountId: 'maralindqvist', trackId: 'x' })).toThrow(
      RangeError,
    );
  });
});

describe('the whole history', () => {
  it('iterates every play in order, matching playsBetween', () => {
    const account = world.accounts[2];
    const history = [...world.history(account?.id ?? '', START)];
    expect(history.length).toBeGreaterThan(20_000);
    expect(history).toEqual(world.playsBetween(account?.id ?? '', 0, START));
    expectSequential(history.slice(-2000));
  });

  it('scales to millions of plays for benchmarks', { timeout: 60_000 }, () => {
    const big = createWorld({ sizes: { historyYears: 4, dailyPlaysScale: 12 } });
    const started = performance.now();
    let count = 0;
    let accounts = 0;
    for (const account of big.accounts) {
      if (count >= 1_000_000) break;
      accounts++;
      for (const play of big.history(account.id, START)) if (play.msPlayed > 0) count++;
    }
    const seconds = (performance.now() - started) / 1000;
    console.log(`history: ${count} plays of ${accounts} accounts in ${seconds.toFixed(1)} s`);
    expect(count).toBeGreaterThan(1_000_000);
    expect(accounts).toBeLessThanOrEqual(4);
  });
});
