/**
 * The one seeded source of every mock value (`codegen mock` for each style, `msw.ts`): a key
 * naming a place (an operation, a field path) hashed with the seed, and a generator seeded with
 * that hash. Both are plain integer arithmetic, so the same seed gives the same values on every
 * platform and in every run, and a value depends only on its own key, never on what was built first.
 */

/** A 32-bit FNV-1a hash of `seed` and `key`: the seed of one named place. */
export function hashKey(seed: number, key: string): number {
  let hash = 0x811c9dc5 ^ seed;
  for (let index = 0; index < key.length; index++) hash = Math.imul(hash ^ key.charCodeAt(index), 0x01000193);
  return hash >>> 0;
}

/** A seeded generator (mulberry32) for a place that needs a sequence of choices. */
export class Random {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  /** A number in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  pick<T>(list: readonly T[]): T {
    return list[this.int(0, list.length - 1)] as T;
  }
}
