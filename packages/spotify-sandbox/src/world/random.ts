/**
 * The world's only source of chance: a small seeded generator (sfc32) and a hash to derive
 * independent streams from a seed and a few numbers (an account, a day), so any part of the world
 * can be regenerated on its own, in any order, and come out the same.
 */

/** Mixes numbers into one 32-bit value (murmur3-style finalisation after each). */
export function hash32(...parts: readonly number[]): number {
  let h = 0x9e3779b9;
  for (const part of parts) {
    // Fold in both halves so day numbers and millisecond values keep all their bits.
    const low = part | 0;
    const high = Math.floor(part / 0x100000000) | 0;
    h = mix(h ^ low);
    h = mix(h ^ high ^ 0x85ebca6b);
  }
  return h >>> 0;
}

/** A 32-bit hash of a string (FNV-1a, then finalised). */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    h = Math.imul(h ^ text.charCodeAt(index), 0x01000193);
  }
  return mix(h) >>> 0;
}

function mix(value: number): number {
  let h = value;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return h ^ (h >>> 16);
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export class Random {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number) {
    this.a = 0x243f6a88;
    this.b = seed >>> 0;
    this.c = hash32(seed, 1);
    this.d = 1;
    for (let round = 0; round < 12; round++) this.nextUint32();
  }

  /** A generator for a sub-part of the world, independent of how much this one was used. */
  static derive(...parts: readonly number[]): Random {
    return new Random(hash32(...parts));
  }

  nextUint32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.nextUint32() / 0x100000000;
  }

  /** A whole number in [min, max], both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** Uniform in [min, max). */
  between(min: number, max: number): number {
    return min + this.next() * (max - min);
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError('cannot pick from an empty list');
    return items[Math.floor(this.next() * items.length)] as T;
  }

  /** Picks by weight; weights need not sum to 1. */
  weighted<T>(items: readonly T[], weights: readonly number[]): T {
    let total = 0;
    for (const weight of weights) total += weight;
    let target = this.next() * total;
    for (let index = 0; index < items.length; index++) {
      target -= weights[index] ?? 0;
      if (target < 0) return items[index] as T;
    }
    return items[items.length - 1] as T;
  }

  /** Standard normal (Box–Muller). */
  normal(mean = 0, deviation = 1): number {
    const u = 1 - this.next();
    const v = this.next();
    return mean + deviation * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }

  /** `count` distinct items in random order (all of them if there are fewer). */
  sample<T>(items: readonly T[], count: number): T[] {
    const copy = items.slice();
    const wanted = Math.min(count, copy.length);
    for (let index = 0; index < wanted; index++) {
      const other = index + Math.floor(this.next() * (copy.length - index));
      [copy[index], copy[other]] = [copy[other] as T, copy[index] as T];
    }
    return copy.slice(0, wanted);
  }

  shuffle<T>(items: T[]): T[] {
    for (let index = items.length - 1; index > 0; index--) {
      const other = Math.floor(this.next() * (index + 1));
      [items[index], items[other]] = [items[other] as T, items[index] as T];
    }
    return items;
  }

  /** A Spotify-style id: 22 base62 characters. */
  base62Id(): string {
    let id = '';
    for (let index = 0; index < 22; index++) id += BASE62[this.nextUint32() % 62];
    return id;
  }

  /** `length` characters from `alphabet`. */
  chars(alphabet: string, length: number): string {
    let text = '';
    for (let index = 0; index < length; index++)
      text += alphabet[this.nextUint32() % alphabet.length];
    return text;
  }
}

/** Cumulative weights for repeated weighted picks by binary search. */
export function cumulative(weights: ArrayLike<number>): Float64Array {
  const sums = new Float64Array(weights.length);
  let total = 0;
  for (let index = 0; index < weights.length; index++) {
    total += weights[index] ?? 0;
    sums[index] = total;
  }
  return sums;
}

/**
 * Picks an index in [0, length) by the cumulative weights `sums` (only the first `length` entries
 * count, so a prefix of a list can be drawn from).
 */
export function pickCumulative(random: Random, sums: Float64Array, length = sums.length): number {
  if (length <= 0) return -1;
  const target = random.next() * (sums[length - 1] ?? 0);
  let low = 0;
  let high = length - 1;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((sums[middle] ?? 0) > target) high = middle;
    else low = middle + 1;
  }
  return low;
}
