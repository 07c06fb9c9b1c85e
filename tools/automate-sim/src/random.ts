/**
 * Seeded pseudo-random numbers (mulberry32): the same seed gives the same sync, so the generators
 * are deterministic in tests and a run can be replayed with `--seed`.
 */
export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max], both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** True with probability `p` (0 never, 1 always). */
  chance(p: number): boolean {
    if (p <= 0) return false;
    if (p >= 1) return true;
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[this.int(0, items.length - 1)] as T;
  }

  /** `n` lowercase hexadecimal digits. */
  hex(n: number): string {
    let out = '';
    for (let i = 0; i < n; i++) out += this.int(0, 15).toString(16);
    return out;
  }

  /** `n` decimal digits (the first one not 0). */
  digits(n: number): string {
    let out = String(this.int(1, 9));
    for (let i = 1; i < n; i++) out += String(this.int(0, 9));
    return out;
  }

  /** A random (version 4 shaped) uuid. */
  uuid(): string {
    const h = this.hex(32);
    const variant = ((this.int(0, 3) | 8) >>> 0).toString(16);
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
  }
}

/** A seed for runs without `--seed`. */
export function randomSeed(): number {
  return Math.floor(Math.random() * 4294967296);
}
