import type { Clock } from '../clock';
import type { SandboxAccount } from '../world/account';
import type { NowPlaying, PlayContext, World } from '../world/model';
import { hash32, hashString } from '../world/random';
import { RECENTLY_PLAYED_MIN_MS } from '../world/world';
import {
  builtInDevices,
  newWebDeviceId,
  playDeviceType,
  type Device,
  type WebDevice,
} from './devices';
import { deviceNotFound, noActiveDevice, PlayerError, restrictionViolated } from './errors';
import { Playback, type FinishedListen, type PlaybackStart, type RepeatState } from './playback';
import { contextTracks, type PlayRequest } from './requests';

export interface PlayerDeps {
  world: World;
  clock: Clock;
  /**
   * Wall time in ms, for web players only: their pages poll in real time, whatever the sandbox
   * clock shows. Default `Date.now`.
   */
  wallTime?: () => number;
}

/** A web player whose page has not been heard from for this long has gone (tab closed, offline). */
export const WEB_DEVICE_TIMEOUT_MS = 20_000;
/** How many tracks `GET /me/player/queue` lists. */
const QUEUE_LENGTH = 20;

/** What an account's player shows at an instant: the same for the Web API and the SDK. */
export interface PlayerSnapshot {
  device: Device;
  trackId: string;
  progressMs: number;
  isPlaying: boolean;
  shuffle: boolean;
  repeat: RepeatState;
  context: PlayContext | null;
  /** When the playback state last changed (play, pause, skip, seek, new track). */
  changedAt: number;
  /** The real playback behind the snapshot; null while the simulated person is listening. */
  playback: Playback | null;
}

export type WebPlayerAction = 'pause' | 'resume' | 'toggle' | 'next' | 'previous' | 'seek';

/** The real player of an account, from the first command until the simulated person takes over. */
interface RealPlayer {
  deviceId: string | null;
  playback: Playback | null;
  /** The world's real session is open (its simulated listening paused) while playback plays. */
  sessionOpen: boolean;
  /** Since when nothing real has played. */
  idleSince: number;
}

/** The players of every account, created on first use. */
export class PlayerHub {
  private readonly players = new Map<string, AccountPlayer>();
  private readonly deps: Required<PlayerDeps>;

  constructor(deps: PlayerDeps) {
    this.deps = { wallTime: () => Date.now(), ...deps };
  }

  of(account: SandboxAccount): AccountPlayer {
    let player = this.players.get(account.id);
    if (!player) {
      player = new AccountPlayer(account, this.deps);
      this.players.set(account.id, player);
    }
    return player;
  }

  /**
   * Brings an account's real player up to the clock, so plays that ended since it was last asked
   * are in the world's history before anything reads it.
   */
  settle(accountId: string): void {
    this.players.get(accountId)?.settle(this.deps.clock.now());
  }
}

/**
 * One account's devices and playback. Until a real command arrives it shows what the simulated
 * person is hearing (`World.nowPlaying`); a command takes that over as real playback and opens a
 * real session in the world, which pauses the simulation while the real player plays. Once the
 * real player stops, the world resumes simulating after a while, and the first simulated play
 * after that replaces the paused real state.
 */
export class AccountPlayer {
  private readonly builtIn: Device[];
  private readonly web = new Map<string, WebDevice>();
  private real: RealPlayer | null = null;
  /** The device the real playback is heard on, recorded with its plays. */
  private listenDevice: Device;
  private changes = 0;

  constructor(
    readonly account: SandboxAccount,
    private readonly deps: Required<PlayerDeps>,
  ) {
    this.builtIn = builtInDevices(account);
    this.listenDevice = this.builtIn[0] as Device;
  }

  get isPremium(): boolean {
    return this.account.product === 'premium';
  }

  /** Changes whenever what the account's players show changes (call after `snapshot`). */
  get revision(): string {
    return `${this.changes}.${this.real?.playback?.revision ?? 0}`;
  }

  /** Every available device, with whether it is the active one. */
  devices(now: number): { device: Device; isActive: boolean }[] {
    const active = this.snapshot(now)?.device.id ?? this.real?.deviceId;
    return [...this.builtIn, ...this.web.values()].map((device) => ({
      device,
      isActive: device.id === active,
    }));
  }

  /** What plays now, where; null when nothing is loaded on an active device. */
  snapshot(now: number): PlayerSnapshot | null {
    this.settle(now);
    if (this.real) {
      const { playback, deviceId } = this.real;
      const device = deviceId === null ? undefined : this.device(deviceId);
      if (!playback || !device) return null;
      return {
        device,
        trackId: playback.trackId,
        progressMs: playback.positionAt(now),
        isPlaying: playback.isPlaying,
        shuffle: playback.shuffle,
        repeat: playback.repeat,
        context: playback.context,
        changedAt: playback.changedAt,
        playback,
      };
    }
    const simulated = this.deps.world.nowPlaying(this.account.id, now);
    if (!simulated) return null;
    return {
      device: this.deviceOfSimulatedPlay(simulated),
      trackId: simulated.track.id,
      progressMs: simulated.progressMs,
      isPlaying: true,
      shuffle: simulated.play.shuffle,
      repeat: 'off',
      context: simulated.play.context,
      changedAt: simulated.startedAt,
      playback: null,
    };
  }

  /** The playing track and what comes after it (nothing known ahead of a simulated listen). */
  queue(now: number): { current: string | null; next: string[] } {
    const snapshot = this.snapshot(now);
    return {
      current: snapshot?.trackId ?? null,
      next: snapshot?.playback?.upNext(QUEUE_LENGTH) ?? [],
    };
  }

  /** `PUT /me/player`: moves playback to a device, playing if asked to. */
  transfer(now: number, deviceId: string, play: boolean | undefined): void {
    const real = this.control(now, deviceId);
    if (play === true) real.playback?.resume(now);
    this.syncSession(real, now);
  }

  play(now: number, deviceId: string | undefined, request: PlayRequest): void {
    const real = this.control(now, deviceId);
    if (request.kind === 'start') {
      real.playback?.end(now);
      real.playback = this.newPlayback(now, {
        ...request,
        shuffle: real.playback?.shuffle ?? false,
        repeat: real.playback?.repeat ?? 'off',
        at: now,
      });
      this.changes += 1;
    } else {
      if (real.playback) real.playback.resume(now);
      else real.playback = this.resumeLastPlayed(now);
      if (request.positionMs !== undefined) real.playback.seek(now, request.positionMs);
    }
    this.syncSession(real, now);
  }

  pause(now: number, deviceId: string | undefined): void {
    const real = this.control(now, deviceId);
    if (!this.loaded(real).pause(now)) throw restrictionViolated();
    this.syncSession(real, now);
  }

  next(now: number, deviceId: string | undefined): void {
    const real = this.control(now, deviceId);
    this.loaded(real).next(now);
    this.syncSession(real, now);
  }

  previous(now: number, deviceId: string | undefined): void {
    const real = this.control(now, deviceId);
    this.loaded(real).previous(now);
    this.syncSession(real, now);
  }

  seek(now: number, deviceId: string | undefined, positionMs: number): void {
    const real = this.control(now, deviceId);
    this.loaded(real).seek(now, positionMs);
    this.syncSession(real, now);
  }

  setShuffle(now: number, deviceId: string | undefined, on: boolean): void {
    const real = this.control(now, deviceId);
    this.loaded(real).setShuffle(now, on);
    this.syncSession(real, now);
  }

  setRepeat(now: number, deviceId: string | undefined, state: RepeatState): void {
    const real = this.control(now, deviceId);
    this.loaded(real).setRepeat(now, state);
    this.syncSession(real, now);
  }

  setVolume(now: number, deviceId: string | undefined, percent: number): void {
    const real = this.control(now, deviceId);
    const device = this.device(real.deviceId ?? '');
    if (!device?.supportsVolume) {
      throw new PlayerError(
        403,
        'Player command failed: Cannot control device volume',
        'VOLUME_CONTROL_DISALLOW',
      );
    }
    device.volumePercent = percent;
    this.changes += 1;
    this.syncSession(real, now);
  }

  enqueue(now: number, deviceId: string | undefined, trackId: string): void {
    const real = this.control(now, deviceId);
    this.loaded(real).enqueue(now, trackId);
    this.syncSession(real, now);
  }

  /** A web player connects (the SDK stand-in's `connect()`). */
  registerWebDevice(now: number, name: string, volumePercent: number): WebDevice {
    this.settle(now);
    const device: WebDevice = {
      id: newWebDeviceId(),
      kind: 'web',
      name,
      type: 'Computer',
      volumePercent,
      supportsVolume: true,
      lastSeenAt: this.deps.wallTime(),
    };
    this.web.set(device.id, device);
    this.changes += 1;
    return device;
  }

  /** A web player's page was heard from: it stays available. Undefined once it has gone. */
  touchWebDevice(now: number, id: string): WebDevice | undefined {
    this.settle(now);
    const device = this.web.get(id);
    if (device) device.lastSeenAt = this.deps.wallTime();
    return device;
  }

  /** The SDK's `setName` and `setVolume`. */
  updateWebDevice(device: WebDevice, change: { name?: string; volumePercent?: number }): void {
    if (change.name !== undefined) device.name = change.name;
    if (change.volumePercent !== undefined) device.volumePercent = change.volumePercent;
    this.changes += 1;
  }

  /** The SDK's `disconnect()`, or its page closing. */
  removeWebDevice(now: number, id: string): boolean {
    this.settle(now);
    const removed = this.detachWebDevice(now, id);
    if (this.real) this.syncSession(this.real, now);
    return removed;
  }

  /**
   * The SDK's own controls (`pause()`, `nextTrack()`, …). Like the real SDK's, they act on the
   * local playback only: a web player that is not the active device ignores them.
   */
  webCommand(now: number, id: string, action: WebPlayerAction, positionMs = 0): void {
    this.settle(now);
    const real = this.real;
    const playback = real?.deviceId === id ? real.playback : null;
    if (!real || !playback) return;
    if (action === 'pause' || (action === 'toggle' && playback.isPlaying)) playback.pause(now);
    else if (action === 'resume' || action === 'toggle') playback.resume(now);
    else if (action === 'next') playback.next(now);
    else if (action === 'previous') playback.previous(now);
    else playback.seek(now, positionMs);
    this.syncSession(real, now);
  }

  /** Works out what happened since last asked: ended tracks, gone web players, the simulation. */
  settle(now: number): void {
    const real = this.real;
    real?.playback?.settle(now);
    const wall = this.deps.wallTime();
    for (const device of this.web.values()) {
      if (wall - device.lastSeenAt > WEB_DEVICE_TIMEOUT_MS) this.detachWebDevice(now, device.id);
    }
    if (!real) return;
    this.syncSession(real, now);
    if (!real.sessionOpen && this.simulationResumed(real.idleSince, now)) {
      real.playback?.end(now);
      this.real = null;
      this.changes += 1;
    }
  }

  private device(id: string): Device | undefined {
    return this.builtIn.find((device) => device.id === id) ?? this.web.get(id);
  }

  private deviceOfSimulatedPlay(simulated: NowPlaying): Device {
    const device = this.builtIn.find((each) => playDeviceType(each) === simulated.play.device);
    return device ?? (this.builtIn[0] as Device);
  }

  /**
   * The real player a command acts on, on the device it names (which becomes the active one) or
   * the active one. A command while the simulated person listens takes their listening over.
   */
  private control(now: number, deviceId: string | undefined): RealPlayer {
    this.settle(now);
    const device = deviceId === undefined ? undefined : this.device(deviceId);
    if (deviceId !== undefined && !device) throw deviceNotFound();
    let real = this.real;
    if (!real) {
      const simulated = this.deps.world.nowPlaying(this.account.id, now);
      if (simulated) real = this.takeOver(now, simulated);
      else if (device)
        real = { deviceId: null, playback: null, sessionOpen: false, idleSince: now };
      else throw noActiveDevice();
      this.real = real;
      this.changes += 1;
    }
    if (device && real.deviceId !== device.id) {
      real.deviceId = device.id;
      this.listenDevice = device;
      this.changes += 1;
    }
    if (real.deviceId === null) throw noActiveDevice();
    return real;
  }

  /**
   * The real player carries on the simulated listen where it is. The world cuts the simulated
   * play short at this instant (like a person switching devices), so the real listen counts
   * from here.
   */
  private takeOver(now: number, simulated: NowPlaying): RealPlayer {
    const device = this.deviceOfSimulatedPlay(simulated);
    this.listenDevice = device;
    this.deps.world.beginRealSession(this.account.id, now);
    const { context } = simulated.play;
    const contextIds = context ? contextTracks(this.deps.world, context, now) : null;
    const inContext = contextIds?.indexOf(simulated.track.id) ?? -1;
    const playback = this.newPlayback(now, {
      context: inContext === -1 ? null : context,
      trackIds: inContext === -1 || !contextIds ? [simulated.track.id] : contextIds,
      startAt: Math.max(0, inContext),
      positionMs: simulated.progressMs,
      shuffle: simulated.play.shuffle,
      repeat: 'off',
      at: now,
    });
    return { deviceId: device.id, playback, sessionOpen: true, idleSince: now };
  }

  /** Resuming with nothing loaded picks up the last thing played, as Spotify's apps do. */
  private resumeLastPlayed(now: number): Playback {
    const [last] = this.deps.world.recentPlays(this.account.id, now, 1);
    // A local file lives on the device that played it: no other device can resume it.
    if (!last || last.localFile) throw restrictionViolated();
    const contextIds = last.context ? contextTracks(this.deps.world, last.context, now) : null;
    const inContext = contextIds?.indexOf(last.trackId) ?? -1;
    return this.newPlayback(now, {
      context: inContext === -1 ? null : last.context,
      trackIds: inContext === -1 || !contextIds ? [last.trackId] : contextIds,
      startAt: Math.max(0, inContext),
      positionMs: 0,
      shuffle: last.shuffle,
      repeat: 'off',
      at: now,
    });
  }

  private newPlayback(now: number, start: Omit<PlaybackStart, 'seed'>): Playback {
    const seed = hash32(hashString(this.account.id), now);
    const playback: Playback = new Playback(
      { ...start, seed },
      {
        durationOf: (trackId) => {
          const track = this.deps.world.track(trackId);
          if (!track) throw new Error(`spotify-sandbox: the player lost track ${trackId}`);
          return track.durationMs;
        },
        finished: (listen) => this.record(listen, playback),
      },
    );
    playback.settle(now);
    return playback;
  }

  /** Every listen of 30 s or more in a real session enters the account's history. */
  private record(listen: FinishedListen, playback: Playback): void {
    if (listen.heardMs < RECENTLY_PLAYED_MIN_MS) return;
    this.deps.world.recordPlay({
      accountId: this.account.id,
      trackId: listen.trackId,
      playedAt: listen.endedAt,
      msPlayed: listen.heardMs,
      context: playback.context,
      shuffle: playback.shuffle,
      device: playDeviceType(this.listenDevice),
    });
  }

  private loaded(real: RealPlayer): Playback {
    if (!real.playback) throw restrictionViolated();
    return real.playback;
  }

  /** Opens the world's real session while real playback plays, and closes it when it stops. */
  private syncSession(real: RealPlayer, now: number): void {
    const playing = real.deviceId !== null && real.playback?.isPlaying === true;
    if (playing && !real.sessionOpen) {
      this.deps.world.beginRealSession(this.account.id, now);
      real.sessionOpen = true;
    } else if (!playing && real.sessionOpen) {
      const stoppedAt = real.playback?.stoppedAt ?? now;
      this.deps.world.endRealSession(this.account.id, stoppedAt);
      real.sessionOpen = false;
      real.idleSince = stoppedAt;
    }
  }

  /** The simulated person listened again since the real player went idle. */
  private simulationResumed(since: number, now: number): boolean {
    const { world } = this.deps;
    if (world.nowPlaying(this.account.id, now)) return true;
    return world.playsBetween(this.account.id, since, now).length > 0;
  }

  /** A web player went away: playback on it pauses and no device is active. */
  private detachWebDevice(now: number, id: string): boolean {
    if (!this.web.delete(id)) return false;
    const real = this.real;
    if (real?.deviceId === id) {
      real.playback?.pause(now);
      real.deviceId = null;
    }
    this.changes += 1;
    return true;
  }
}
