/**
 * A `Store` in Redis, so that several instances of a server share idempotency records and rate
 * limit counters (the in-memory `MemoryStore` serves one process). Written when the API's config
 * says `options.redis: true`.
 *
 * It does not import a Redis package: it is typed against the few node-redis (v5) client methods
 * it calls (`RedisStoreClient`), which a `createClient()` client has as it is, and so does a
 * Redis Cluster's `createCluster()` client: every call touches one key, so any slot will do.
 *
 * @example
 * import { createClient } from "redis";
 * import { createServer, RedisStore } from "./server.js";
 *
 * // Without an "error" listener Node ends the process when Redis goes away (node-redis emits
 * // one per failed reconnect). `disableOfflineQueue` fails commands at once while disconnected.
 * const client = createClient({ url: process.env.REDIS_URL, disableOfflineQueue: true });
 * client.on("error", (error) => console.error("redis:", error));
 * await client.connect();
 * const store = new RedisStore(client);
 * const listener = createServer(handlers, { store, rateLimit: { limit: 100, windowMs: 60_000 } });
 *
 * While Redis cannot be reached, every call rejects within `timeoutMs` with a
 * `RedisStoreUnavailableError`: an `HttpProblem` 503 with `Retry-After: 1`, which the server sends
 * as it is (the original error is its `cause`, and `onError` is told).
 */
import { HttpProblem } from "./server-types.js";
import type { Store } from "./server-types.js";

/**
 * The node-redis v5 client methods `RedisStore` calls. Replies are checked at run time, so they
 * are `unknown` here.
 * @public
 */
export interface RedisStoreClient {
  get(key: string): Promise<unknown>;
  set(key: string, value: string, options?: { condition?: "NX"; expiration?: { type: "PX"; value: number } }): Promise<unknown>;
  del(key: string): Promise<unknown>;
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
  /** node-redis: false while disconnected, so calls fail at once instead of waiting. */
  readonly isReady?: boolean;
}

/** @public */
export interface RedisStoreOptions {
  /** Prefix of every key, to share a database with other applications. Default `""`. */
  prefix?: string;
  /** Milliseconds a call waits for Redis before it fails with a 503. Default 2000. */
  timeoutMs?: number;
  /**
   * Told of every failure to reach Redis (the 503s, which the server does not log). Default:
   * `console.error`, at most once per 10 seconds.
   */
  onError?: (error: unknown) => void;
}

/**
 * Redis could not be reached: answered as 503 Service Unavailable with `Retry-After: 1`. Its
 * message stays the problem's title (clients see it); what failed is in `operation` and `cause`.
 * @public
 */
export class RedisStoreUnavailableError extends HttpProblem {
  readonly operation: string;

  constructor(operation: string, cause: unknown) {
    super(503, "Service Unavailable", {
      detail: "Shared state is unavailable right now; retry shortly.",
      headers: { "retry-after": "1" },
    });
    this.name = "RedisStoreUnavailableError";
    this.operation = operation;
    this.cause = cause;
  }

  /** For logs: `RedisStore: SET NX failed: <the cause>`. */
  describe(): string {
    const cause = this.cause instanceof Error ? this.cause.message : String(this.cause);
    return `RedisStore: ${this.operation} failed: ${cause}`;
  }
}

/**
 * INCR and, on a counter without an expiry (a new one), PEXPIRE, in one atomic step; returns the
 * count and the milliseconds left (-1: none). A fixed window, like `MemoryStore.increment`.
 */
const INCREMENT = `local count = redis.call("INCR", KEYS[1])
local ttl = redis.call("PTTL", KEYS[1])
if ttl == -1 and ARGV[1] ~= "" then
  redis.call("PEXPIRE", KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return { count, ttl }`;

/**
 * A `Store` over a connected node-redis client: `setIfAbsent` is `SET NX PX` (atomic in Redis),
 * `increment` a Lua script (`INCR` + `PEXPIRE` on creation, atomic), TTLs are milliseconds (a
 * fraction rounds up; `Infinity` sets none). The client stays yours: `close()` does not close it.
 * @public
 */
export class RedisStore implements Store {
  private readonly prefix: string;
  private readonly timeoutMs: number;
  private readonly onError: (error: unknown) => void;

  constructor(
    private readonly client: RedisStoreClient,
    options: RedisStoreOptions = {},
  ) {
    this.prefix = options.prefix ?? "";
    this.timeoutMs = options.timeoutMs ?? 2000;
    if (!(this.timeoutMs > 0))
      throw new RangeError(`RedisStore: timeoutMs must be a positive number of milliseconds, not ${this.timeoutMs}`);
    this.onError = options.onError ?? throttledLog(10_000);
  }

  async get(key: string): Promise<string | undefined> {
    const reply = await this.call("GET", () => this.client.get(this.prefix + key));
    return reply === null || reply === undefined ? undefined : String(reply);
  }

  async set(key: string, value: string, ttlMs: number): Promise<void> {
    const expiration = expirationOf(ttlMs);
    await this.call("SET", () => this.client.set(this.prefix + key, value, expiration ? { expiration } : {}));
  }

  async setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean> {
    const expiration = expirationOf(ttlMs);
    const reply = await this.call("SET NX", () =>
      this.client.set(this.prefix + key, value, expiration ? { condition: "NX", expiration } : { condition: "NX" }),
    );
    // "OK" when set; null when the key exists.
    return reply !== null && reply !== undefined;
  }

  async delete(key: string): Promise<void> {
    await this.call("DEL", () => this.client.del(this.prefix + key));
  }

  async increment(key: string, ttlMs: number): Promise<{ count: number; ttlMs: number }> {
    const expiration = expirationOf(ttlMs);
    const reply = await this.call("INCR", () =>
      this.client.eval(INCREMENT, { keys: [this.prefix + key], arguments: [expiration ? String(expiration.value) : ""] }),
    );
    if (!Array.isArray(reply) || reply.length !== 2) throw new TypeError(`RedisStore: unexpected reply to INCR: ${JSON.stringify(reply)}`);
    const count = Number(reply[0]);
    const left = Number(reply[1]);
    return { count, ttlMs: left < 0 ? Infinity : left };
  }

  /** Nothing to release: the client is the caller's (`await client.close()` when done). */
  close(): void {}

  /** Runs one Redis call: fails at once while disconnected, and after `timeoutMs` without a reply. */
  private async call<T>(operation: string, run: () => Promise<T>): Promise<T> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      if (this.client.isReady === false) throw new Error("the client is not connected to Redis");
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no reply from Redis within ${this.timeoutMs} ms`)), this.timeoutMs);
      });
      const reply = run();
      // A reply (or failure) after the timeout must not become an unhandled rejection.
      reply.catch(() => {});
      return await Promise.race([reply, timeout]);
    } catch (error) {
      // The key holds something else than a counter: a mistake, not an outage (MemoryStore: TypeError).
      if (error instanceof Error && /not an integer|WRONGTYPE/.test(error.message)) {
        throw new TypeError(`RedisStore: the value of a key is not what ${operation} expects (${error.message})`, { cause: error });
      }
      const unavailable = new RedisStoreUnavailableError(operation, error);
      try {
        this.onError(unavailable);
      } catch {
        // A failing logger must not turn a 503 into something else.
      }
      throw unavailable;
    } finally {
      clearTimeout(timer);
    }
  }
}

function expirationOf(ttlMs: number): { type: "PX"; value: number } | undefined {
  if (!(ttlMs > 0)) throw new RangeError(`RedisStore: ttlMs must be a positive number of milliseconds, not ${ttlMs}`);
  return ttlMs === Infinity ? undefined : { type: "PX", value: Math.ceil(ttlMs) };
}

function throttledLog(intervalMs: number): (error: unknown) => void {
  let last = -Infinity;
  return (error) => {
    const now = Date.now();
    if (now - last < intervalMs) return;
    last = now;
    console.error(error instanceof RedisStoreUnavailableError ? `${error.describe()}; answering 503` : error);
  };
}
