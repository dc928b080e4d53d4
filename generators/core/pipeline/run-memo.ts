/**
 * What one run computed, kept for the next by a long-lived process (`codegen --watch`): each slot
 * holds the last value computed for it and the key it was computed from, and a run whose key is
 * the same text gets that value back instead of computing it again. A key is everything the value
 * is a function of, written out or as SHA-256s of its parts, so a hit is the value a fresh run
 * computes; slots a run does not touch are dropped at its end, so memory stays one run's worth.
 */
export class RunMemo {
  #slots = new Map<string, { key: string; value: unknown }>();
  #touched = new Set<string>();
  /** Hits and misses of the current run: how much was reused (tests check it). */
  readonly stats = { hits: 0, misses: 0 };

  /** The value of `slot` for `key`: the last run's when it had this key, else `compute()`'s. */
  get<T>(slot: string, key: string, compute: () => T): T {
    this.#touched.add(slot);
    const kept = this.#slots.get(slot);
    if (kept && kept.key === key) {
      this.stats.hits++;
      return kept.value as T;
    }
    this.stats.misses++;
    const value = compute();
    this.#slots.set(slot, { key, value });
    return value;
  }

  /** What a step keeps across runs and updates itself (the last parse of each input), created on first use; not counted. */
  state<T>(slot: string, create: () => T): T {
    this.#touched.add(slot);
    const kept = this.#slots.get(slot);
    if (kept) return kept.value as T;
    const value = create();
    this.#slots.set(slot, { key: '', value });
    return value;
  }

  /** Starts a run: counts from zero. */
  begin(): void {
    this.stats.hits = 0;
    this.stats.misses = 0;
    this.#touched.clear();
  }

  /** Ends a run that succeeded: forgets the slots it did not use. A failed run keeps everything. */
  end(): void {
    for (const slot of this.#slots.keys()) if (!this.#touched.has(slot)) this.#slots.delete(slot);
  }

  /** The same memo with every slot name prefixed, so two APIs never share a slot. */
  scope(prefix: string): ScopedMemo {
    return {
      get: (slot, key, compute) => this.get(`${prefix}\u0000${slot}`, key, compute),
      state: (slot, create) => this.state(`${prefix}\u0000state\u0000${slot}`, create),
    };
  }
}

/** One API's view of the run memo. */
export interface ScopedMemo {
  get<T>(slot: string, key: string, compute: () => T): T;
  state<T>(slot: string, create: () => T): T;
}

/** `compute()` through `memo` when there is one (the key is written only then), else `compute()`. */
export function memoized<T>(memo: ScopedMemo | undefined, slot: string, key: () => string, compute: () => T): T {
  return memo ? memo.get(slot, key(), compute) : compute();
}
