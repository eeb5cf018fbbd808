/** A seeded pseudo-random generator (mulberry32): the same seed gives the same data set. */
export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.next() * list.length)]!;
  }

  /** Picks with a long tail: index i is chosen with weight 1 / (i + flatness). */
  pickSkewed<T>(list: readonly T[], flatness = 10): T {
    // Inverse of the continuous approximation of the harmonic weights.
    const max = Math.log((list.length + flatness) / flatness);
    const index = Math.floor(flatness * Math.exp(this.next() * max) - flatness);
    return list[Math.min(list.length - 1, Math.max(0, index))]!;
  }

  /** A Spotify-like id: 22 base62 characters. */
  spotifyId(): string {
    let id = '';
    for (let i = 0; i < 22; i++) id += BASE62[Math.floor(this.next() * 62)];
    return id;
  }

  shuffle<T>(list: T[]): T[] {
    for (let i = list.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [list[i], list[j]] = [list[j]!, list[i]!];
    }
    return list;
  }
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
