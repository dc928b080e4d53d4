/**
 * The in-memory default of the `Store` interface (idempotency records, rate-limit counters). It
 * lives in one process: servers that run as several instances, or must keep this state across a
 * restart, pass a shared implementation (Redis) instead. Every method is async only to share the
 * interface; each one runs synchronously inside, which is what makes `setIfAbsent` and
 * `increment` atomic here.
 */
import type { Store } from "./server-types.js";

export interface MemoryStoreOptions {
  /**
   * Most entries held at once, so a flood of distinct keys (one per client or per
   * `Idempotency-Key`) cannot exhaust memory. Writing a new key into a full store evicts the entry
   * written longest ago, expired or not. Default 100 000.
   */
  maxEntries?: number;
  /**
   * Milliseconds between background sweeps of expired entries; 0 turns the sweep off (expired
   * entries are then dropped only when read or evicted). The timer is unref'd, so it never keeps
   * the process alive, and starts with the first write. Default 60 000.
   */
  sweepIntervalMs?: number;
  /** The clock in milliseconds; tests pass a fake one. Default `Date.now`. */
  now?: () => number;
}

interface Entry {
  value: string;
  /** Clock time at which the entry stops existing; `Infinity` for none. */
  expiresAt: number;
}

/**
 * A `Store` in a `Map`. TTLs are in milliseconds and must be positive (`Infinity` keeps an entry
 * until it is deleted or evicted). Counters made by `increment` read back through `get` as decimal
 * strings, as they do in Redis.
 * @public
 */
export class MemoryStore implements Store {
  private readonly entries = new Map<string, Entry>();
  private readonly maxEntries: number;
  private readonly sweepIntervalMs: number;
  private readonly now: () => number;
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(options: MemoryStoreOptions = {}) {
    this.maxEntries = options.maxEntries ?? 100_000;
    this.sweepIntervalMs = options.sweepIntervalMs ?? 60_000;
    this.now = options.now ?? Date.now;
    if (!Number.isSafeInteger(this.maxEntries) || this.maxEntries < 1) {
      throw new RangeError(`MemoryStore: maxEntries must be a positive integer, not ${this.maxEntries}`);
    }
    if (!(this.sweepIntervalMs >= 0) || !Number.isFinite(this.sweepIntervalMs)) {
      throw new RangeError(`MemoryStore: sweepIntervalMs must be 0 or more milliseconds, not ${this.sweepIntervalMs}`);
    }
  }

  /** Entries held, including expired ones not yet swept. */
  get size(): number {
    return this.entries.size;
  }

  async get(key: string): Promise<string | undefined> {
    return this.live(key, this.now())?.value;
  }

  async set(key: string, value: string, ttlMs: number): Promise<void> {
    this.write(key, value, ttlMs, this.now());
  }

  async setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean> {
    const now = this.now();
    if (this.live(key, now)) return false;
    this.write(key, value, ttlMs, now);
    return true;
  }

  async delete(key: string): Promise<void> {
    this.entries.delete(key);
  }

  /**
   * Adds 1 to a counter. A new counter expires `ttlMs` after its creation and later increments do
   * not extend it: that is a fixed window (Redis: `INCR`, then `PEXPIRE` when the count is 1).
   */
  async increment(key: string, ttlMs: number): Promise<{ count: number; ttlMs: number }> {
    const now = this.now();
    const entry = this.live(key, now);
    if (!entry) {
      this.write(key, "1", ttlMs, now);
      return { count: 1, ttlMs };
    }
    const count = Number(entry.value) + 1;
    if (!/^-?\d+$/.test(entry.value) || !Number.isSafeInteger(count)) {
      throw new TypeError(`MemoryStore: the value of ${JSON.stringify(key)} is not an integer counter`);
    }
    entry.value = String(count);
    return { count, ttlMs: entry.expiresAt - now };
  }

  /** Removes every expired entry now; returns how many went. */
  sweep(): number {
    const now = this.now();
    let removed = 0;
    for (const [key, entry] of this.entries) {
      if (entry.expiresAt <= now) {
        this.entries.delete(key);
        removed++;
      }
    }
    return removed;
  }

  /** Stops the background sweep (entries stay readable); a later write starts it again. */
  close(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** The entry under `key` unless it has expired (an expired one is dropped on the way). */
  private live(key: string, now: number): Entry | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.expiresAt > now) return entry;
    this.entries.delete(key);
    return undefined;
  }

  private write(key: string, value: string, ttlMs: number, now: number): void {
    if (!(ttlMs > 0)) throw new RangeError(`MemoryStore: ttlMs must be a positive number of milliseconds, not ${ttlMs}`);
    // Re-inserting keeps the Map in write order, so its first entry is always the oldest write.
    if (!this.entries.delete(key) && this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(key, { value, expiresAt: now + ttlMs });
    if (this.timer === undefined && this.sweepIntervalMs > 0) {
      this.timer = setInterval(() => this.sweep(), this.sweepIntervalMs);
      this.timer.unref();
    }
  }
}
