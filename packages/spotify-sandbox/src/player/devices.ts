import { createHash, randomBytes } from 'node:crypto';
import type { SandboxAccount } from '../world/account';
import type { DeviceType } from '../world/model';
import { hashString } from '../world/random';

/**
 * A Spotify Connect device of an account. Each account has a phone, a computer and a speaker at
 * home (one per class of device the simulated listening uses), always there; web players (the SDK
 * stand-in) come and go.
 */
export interface Device {
  /** 40 hex digits, as Spotify's device ids. */
  id: string;
  kind: 'phone' | 'computer' | 'speaker' | 'web';
  name: string;
  /** As the Web API reports `device.type`. */
  type: 'Smartphone' | 'Computer' | 'Speaker';
  volumePercent: number;
  /** Phones report false: their volume cannot be set remotely. */
  supportsVolume: boolean;
}

/** A web player registered by the SDK stand-in, alive while its page polls. */
export interface WebDevice extends Device {
  kind: 'web';
  /** Wall time of the last request from its page. */
  lastSeenAt: number;
}

function stableDeviceId(accountId: string, kind: string): string {
  return createHash('sha1').update(`spotify-sandbox device ${kind} ${accountId}`).digest('hex');
}

export function newWebDeviceId(): string {
  return randomBytes(20).toString('hex');
}

/** The devices an account listens on, named as people's devices are named. */
export function builtInDevices(account: SandboxAccount): Device[] {
  const firstName = account.displayName.split(/\s+/)[0] || account.displayName;
  const hash = hashString(account.id);
  const phoneName = hash % 3 === 0 ? 'Pixel 8' : `${firstName}'s iPhone`;
  const computerName =
    hash % 2 === 0
      ? `${firstName}'s MacBook Pro`
      : `DESKTOP-${((hash >>> 4) % 0x10000000).toString(36).toUpperCase().padStart(7, '0')}`;
  return [
    {
      id: stableDeviceId(account.id, 'phone'),
      kind: 'phone',
      name: phoneName,
      type: 'Smartphone',
      volumePercent: 100,
      supportsVolume: false,
    },
    {
      id: stableDeviceId(account.id, 'computer'),
      kind: 'computer',
      name: computerName,
      type: 'Computer',
      volumePercent: 40 + ((hash >>> 8) % 11) * 5,
      supportsVolume: true,
    },
    {
      id: stableDeviceId(account.id, 'speaker'),
      kind: 'speaker',
      name: hash % 5 < 2 ? 'Kitchen' : 'Living Room',
      type: 'Speaker',
      volumePercent: 30 + ((hash >>> 12) % 8) * 5,
      supportsVolume: true,
    },
  ];
}

/** The device class a play on this device is recorded with (web players run on computers). */
export function playDeviceType(device: Device): DeviceType {
  if (device.kind === 'phone') return 'smartphone';
  return device.kind === 'speaker' ? 'speaker' : 'computer';
}

/** Spotify's DeviceObject, keys in Spotify's order. */
export function deviceObject(device: Device, isActive: boolean) {
  return {
    id: device.id,
    is_active: isActive,
    is_private_session: false,
    is_restricted: false,
    name: device.name,
    supports_volume: device.supportsVolume,
    type: device.type,
    volume_percent: device.volumePercent,
  };
}
