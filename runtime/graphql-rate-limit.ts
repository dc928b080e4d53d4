/**
 * Rate limiting of the HTTP endpoint per client (by default its IP address; `key` can make it per
 * user): a fixed window of `limit` points per key, counted in a `Store`: the REST server's interface and
 * in-memory default, so a shared (Redis) store gives several instances one budget. The answers
 * carry the IETF draft headers the REST server sends (`RateLimit-Limit`, `RateLimit-Remaining`,
 * `RateLimit-Reset`, `RateLimit-Policy`), and a refusal `Retry-After`.
 *
 * Points: one per request, or with `cost: "complexity"` the operation's complexity as
 * graphql-limits.ts measures it before anything runs (1 per field, a page multiplies what is under
 * it): a budget of points per window, so one huge query spends what a hundred small ones would.
 * The store can only add 1 atomically, so the weighted count is read, checked and written back:
 * concurrent requests of one client may each pass on the same remaining budget (overshoot bounded
 * by that client's concurrency). An atomic add-N in the `Store` (Redis `INCRBY`) would make it exact.
 */
import type { GraphQLRequest } from "./graphql-request.js";
import type { Store } from "./server-types.js";
import { MemoryStore } from "./store.js";

export interface RateLimitOptions<V> {
  /** Points per window and key: requests, or complexity points with `cost: "complexity"`. */
  limit: number;
  /** The window in milliseconds; it starts with a key's first request. */
  windowMs: number;
  /**
   * Whose budget a request spends. Default: the client (`clientKey`, the IP address). `viewer` is
   * who `authenticate` found (null when anonymous, refused, or when the document was refused
   * before authentication), so a per-user budget with the IP for anonymous clients is
   * `(request, viewer) => (viewer ? "user:" + viewer.id : "ip:" + request.raw.socket.remoteAddress)`.
   */
  key?: (request: GraphQLRequest, viewer: V | null) => string;
  /**
   * `"request"` (default): every request costs 1. `"complexity"`: an operation costs its measured
   * complexity (at least 1; a refused document 1); `limit` must then be at least `limits.complexity`,
   * so that every operation the limits allow fits in a fresh window.
   */
  cost?: "request" | "complexity";
  /** Where the counters live. Default: a `MemoryStore` of this server (one process). */
  store?: Store;
  /** Prefix of the store keys, so several limiters can share one store. Default `"graphql-ratelimit:"`. */
  prefix?: string;
}

/** Where one client stands after a request. */
export interface RateLimitVerdict {
  allowed: boolean;
  /** `RateLimit-*` headers; with `Retry-After` (seconds) when refused. */
  headers: Record<string, string>;
}

export class RateLimiter {
  readonly weighted: boolean;
  private readonly store: Store;
  private readonly prefix: string;
  private readonly policy: string;

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    options: { weighted: boolean; store?: Store | undefined; prefix?: string | undefined },
  ) {
    if (!Number.isSafeInteger(limit) || limit < 1) throw new RangeError(`rateLimit: limit must be a positive integer, not ${limit}`);
    if (!(windowMs > 0) || !Number.isFinite(windowMs))
      throw new RangeError(`rateLimit: windowMs must be a positive number, not ${windowMs}`);
    this.weighted = options.weighted;
    this.store = options.store ?? new MemoryStore();
    this.prefix = options.prefix ?? "graphql-ratelimit:";
    this.policy = `${limit};w=${Math.ceil(windowMs / 1000)}`;
  }

  /** Spends `cost` points of `key`'s budget, unless they are not left (a refused request spends nothing when weighted). */
  async consume(key: string, cost: number): Promise<RateLimitVerdict> {
    const { used, resetMs, allowed } = this.weighted ? await this.spend(this.prefix + key, cost) : await this.count(this.prefix + key);
    const reset = Math.max(0, Math.ceil(resetMs / 1000));
    const headers: Record<string, string> = {
      "ratelimit-limit": String(this.limit),
      "ratelimit-remaining": String(Math.max(0, this.limit - used)),
      "ratelimit-reset": String(reset),
      "ratelimit-policy": this.policy,
    };
    if (!allowed) headers["retry-after"] = String(Math.max(1, reset));
    return { allowed, headers };
  }

  private async count(key: string): Promise<{ used: number; resetMs: number; allowed: boolean }> {
    const { count, ttlMs } = await this.store.increment(key, this.windowMs);
    return { used: count, resetMs: ttlMs, allowed: count <= this.limit };
  }

  /** Read, check, write back: the value is `<points spent> <window end, epoch ms>`. */
  private async spend(key: string, cost: number): Promise<{ used: number; resetMs: number; allowed: boolean }> {
    const now = Date.now();
    const [spentText, endText] = (await this.store.get(key))?.split(" ") ?? [];
    let spent = Number(spentText);
    let end = Number(endText);
    if (!(end > now) || !Number.isSafeInteger(spent)) {
      spent = 0;
      end = now + this.windowMs;
    }
    if (spent + cost > this.limit) return { used: spent, resetMs: end - now, allowed: false };
    spent += cost;
    await this.store.set(key, `${spent} ${end}`, end - now);
    return { used: spent, resetMs: end - now, allowed: true };
  }
}
