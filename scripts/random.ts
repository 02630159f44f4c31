/** Seeded randomness for the scripts (fuzzing, import interruption): runs repeat exactly with the same seed. */

/** mulberry32: a tiny, fast, seedable PRNG. */
export class Rng {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  /** Uniform float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  /** Integer in [lo, hi] inclusive. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  pick<T>(arr: readonly T[]): T {
    return arr[Math.floor(this.next() * arr.length)]!;
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  /** k distinct elements (order random). */
  sample<T>(arr: readonly T[], k: number): T[] {
    const a = arr.slice();
    const out: T[] = [];
    for (let i = 0; i < k && a.length > 0; i++) out.push(a.splice(Math.floor(this.next() * a.length), 1)[0]!);
    return out;
  }
}
