import type { DeviceType } from '../world/model';
import { hash32, hashString, Random } from '../world/random';

/**
 * What the exports know about a person's devices and connections that the world does not: which
 * phone and computer they use, how those name themselves in the `platform` field over the years,
 * their IP addresses. Everything is derived from the seed and the account id.
 *
 * Spotify's clients changed how they report themselves, and the export rows keep what the client
 * of the time sent (a 2021 row in a 2026 export still has the long platform string):
 *
 * - before 2020: long platform strings ("Android OS 9 API 28 (samsung, SM-G960F)") and
 *   `offline_timestamp` in milliseconds;
 * - from 2020 until the client was updated: long platform strings and `offline_timestamp` null;
 * - afterwards: short platform strings ("android", "windows") and `offline_timestamp` in seconds.
 *   Desktop clients switched in mid-2021, phones and speakers in late 2022 (a 2021-08 "windows"
 *   row and 2022 "Android-tablet OS 11 …" rows appear in the same real export).
 *
 * IP addresses come from the documentation ranges (RFC 5737, RFC 3849), like the redacted samples.
 */

export type ClientGeneration = 'early' | 'middle' | 'modern';

const MIDDLE_FROM = Date.UTC(2020, 0, 1);
const MODERN_FROM: Record<DeviceType, number> = {
  computer: Date.UTC(2021, 5, 1),
  smartphone: Date.UTC(2022, 9, 1),
  speaker: Date.UTC(2022, 9, 1),
};
/** Home connections get IPv6 for some households from then on. */
const IPV6_FROM = Date.UTC(2022, 0, 1);

const DAY_MS = 86_400_000;
/** How long a household keeps its IPv4 address. */
const HOME_ADDRESS_DAYS = 45;

export function clientGeneration(device: DeviceType, atMs: number): ClientGeneration {
  if (atMs < MIDDLE_FROM) return 'early';
  return atMs < MODERN_FROM[device] ? 'middle' : 'modern';
}

interface Phone {
  os: 'android' | 'ios';
  /** "samsung, SM-G991B" for Android, "iPhone12,1" for iOS. */
  model: string;
  tablet: boolean;
}

type Computer = 'windows' | 'osx' | 'web_player';

const ANDROID_MODELS = [
  'samsung, SM-G991B',
  'samsung, SM-A525F',
  'Google, Pixel 6',
  'OnePlus, LE2113',
  'Xiaomi, M2101K6G',
  'motorola, moto g(8) power',
  'realme, RMX3430',
] as const;
const IPHONE_MODELS = ['iPhone9,3', 'iPhone10,4', 'iPhone11,8', 'iPhone12,1'] as const;

/** Android release and API level in use in a year. */
function androidVersion(year: number): string {
  if (year <= 2016) return '7.0 API 24';
  if (year === 2017) return '8.0.0 API 26';
  if (year === 2018) return '9 API 28';
  if (year <= 2020) return '10 API 29';
  if (year === 2021) return '11 API 30';
  return '12 API 31';
}

function iosVersion(year: number): string {
  if (year <= 2016) return '10.3.2';
  if (year === 2017) return '11.2.6';
  if (year === 2018) return '12.1.4';
  if (year === 2019) return '13.3';
  if (year === 2020) return '14.2';
  if (year === 2021) return '14.7.1';
  return '15.6.1';
}

function windowsBuild(year: number): string {
  if (year <= 2016) return '14393';
  if (year === 2017) return '16299';
  if (year === 2018) return '17134';
  if (year === 2019) return '18362';
  return '19041';
}

function macVersion(year: number): string {
  if (year <= 2016) return '10.12.1 [x86 8]';
  if (year === 2017) return '10.13.2 [x86 8]';
  if (year === 2018) return '10.14.1 [x86 8]';
  if (year === 2019) return '10.15.1 [x86 8]';
  return '11.1.0 [arm 2]';
}

function chromeVersion(year: number): string {
  if (year <= 2016) return '55.0.2883.87';
  if (year === 2017) return '63.0.3239.84';
  if (year === 2018) return '71.0.3578.98';
  if (year === 2019) return '79.0.3945.88';
  if (year === 2020) return '87.0.4280.88';
  return '96.0.4664.110';
}

/** The way the real exports percent-encode user agents: "/" and blanks, not ";", ",", ":". */
function encodeUserAgent(userAgent: string): string {
  return encodeURIComponent(userAgent)
    .replaceAll('%3B', ';')
    .replaceAll('%2C', ',')
    .replaceAll('%3A', ':');
}

function ipv6Group(value: number): string {
  // Never 0, so no run of zero groups needs RFC 5952's "::".
  return ((value % 0xfffe) + 1).toString(16);
}

export class Listener {
  private readonly key: number;
  private readonly phone: Phone;
  private readonly computer: Computer;
  private readonly ipv6Household: boolean;

  constructor(seed: number, accountId: string) {
    this.key = hash32(seed, hashString(accountId), 0x11573);
    const random = new Random(this.key);
    const android = random.chance(0.6);
    this.phone = android
      ? { os: 'android', model: random.pick(ANDROID_MODELS), tablet: random.chance(0.1) }
      : { os: 'ios', model: random.pick(IPHONE_MODELS), tablet: false };
    this.computer = random.weighted<Computer>(['windows', 'osx', 'web_player'], [0.55, 0.3, 0.15]);
    this.ipv6Household = random.chance(0.45);
  }

  /** A generator for what is random about this listener at a moment (`parts` tell apart uses). */
  randomAt(...parts: readonly number[]): Random {
    return Random.derive(this.key, ...parts);
  }

  /** One 32-bit draw for this listener: cheaper than `randomAt` where a single number will do. */
  hashAt(...parts: readonly number[]): number {
    return hash32(this.key, ...parts);
  }

  platform(device: DeviceType, atMs: number): string {
    const generation = clientGeneration(device, atMs);
    if (generation === 'modern') {
      if (device === 'speaker') return 'sonos';
      return device === 'smartphone' ? this.phone.os : this.computer;
    }
    const year = new Date(atMs).getUTCFullYear();
    if (device === 'speaker') return 'Partner sonos_one Sonos;One;;';
    if (device === 'smartphone') {
      if (this.phone.os === 'ios') return `iOS ${iosVersion(year)} (${this.phone.model})`;
      const kind = this.phone.tablet ? 'Android-tablet' : 'Android';
      return `${kind} OS ${androidVersion(year)} (${this.phone.model})`;
    }
    if (this.computer === 'windows') return `Windows 10 (10.0.${windowsBuild(year)}; x64)`;
    if (this.computer === 'osx') return `OS X ${macVersion(year)}`;
    return `web_player windows 10;chrome ${chromeVersion(year)};desktop`;
  }

  /** `user_agent_decrypted` of the legacy rows: only the web player sends one. */
  userAgent(device: DeviceType, atMs: number): string {
    if (device !== 'computer' || this.computer !== 'web_player') return 'unknown';
    const chrome = chromeVersion(new Date(atMs).getUTCFullYear());
    return encodeUserAgent(
      `Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${chrome} Safari/537.36`,
    );
  }

  /**
   * The address a play came from: the household's (IPv4 for weeks at a time, or IPv6 from 2022
   * for some households), or for a phone on about half of the days a mobile network's.
   */
  ipAddress(device: DeviceType, atMs: number): string {
    const day = Math.floor(atMs / DAY_MS);
    if (device === 'smartphone') {
      const mobile = hash32(this.key, day, 0x6d6f62);
      if (mobile % 2 === 0) return `192.0.2.${1 + ((mobile >>> 1) % 254)}`;
    }
    if (this.ipv6Household && atMs >= IPV6_FROM) {
      const prefix = hash32(this.key, 0x1976);
      const host = hash32(this.key, day, 0x686f7374);
      const more = hash32(host, 1);
      return [
        '2001:db8',
        ipv6Group(prefix),
        ipv6Group(prefix >>> 16),
        ipv6Group(host),
        ipv6Group(host >>> 16),
        ipv6Group(more),
        ipv6Group(more >>> 16),
      ].join(':');
    }
    const period = Math.floor(day / HOME_ADDRESS_DAYS);
    const home = hash32(this.key, period, 0x686f6d65);
    const range = home % 2 === 0 ? '198.51.100' : '203.0.113';
    return `${range}.${1 + ((home >>> 1) % 254)}`;
  }
}
