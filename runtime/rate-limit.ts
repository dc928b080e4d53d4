/**
 * Rate limiting per client (by default its IP address; 429 Too Many Requests, RFC 6585, when
 * exceeded). The counters live in a `Store`, so several server instances share one budget when
 * the store is shared. Every response says where the client stands, in the IETF draft headers
 * (draft-ietf-httpapi-ratelimit-headers): `RateLimit-Limit`, `RateLimit-Remaining`,
 * `RateLimit-Reset` and `RateLimit-Policy`, so well-behaved clients can slow down before a 429.
 */
import { HttpProblem } from "./server-types.js";
import type { ServerRequest, ServerResponse, Stage, Store } from "./server-types.js";

export interface RateLimitOptions {
  /** Where the counters live (`MemoryStore` for one process). */
  store: Store;
  /** Requests allowed per window and key. */
  limit: number;
  /** The window in milliseconds; it starts with a key's first request (fixed window). */
  windowMs: number;
  /**
   * Whose budget a request spends. Default `request.clientKey` (the client IP unless the core is
   * told otherwise): one budget across all operations. For per-operation budgets return
   * `` `${request.clientKey} ${request.operation.id}` ``. This stage runs before authentication,
   * so `request.principal` is not known yet.
   */
  key?: (request: ServerRequest) => string;
  /** Prefix of the store keys, so several limiters can share one store. Default `"ratelimit:"`. */
  prefix?: string;
}

/**
 * The rate-limit stage: a fixed window of `limit` requests per key. Over the limit it throws a 429
 * problem with `Retry-After` (seconds until the window ends), without running later stages.
 */
export function rateLimit(options: RateLimitOptions): Stage {
  const { store, limit, windowMs } = options;
  if (!Number.isSafeInteger(limit) || limit < 1) throw new RangeError(`rateLimit: limit must be a positive integer, not ${limit}`);
  if (!(windowMs > 0) || !Number.isFinite(windowMs)) throw new RangeError(`rateLimit: windowMs must be a positive number, not ${windowMs}`);
  const key = options.key ?? ((request: ServerRequest) => request.clientKey);
  const prefix = options.prefix ?? "ratelimit:";
  const policy = `${limit};w=${Math.ceil(windowMs / 1000)}`;

  return async (request, next) => {
    const { count, ttlMs } = await store.increment(prefix + key(request), windowMs);
    const reset = Math.max(0, Math.ceil(ttlMs / 1000));
    const headers: Record<string, string> = {
      "ratelimit-limit": String(limit),
      "ratelimit-remaining": String(Math.max(0, limit - count)),
      "ratelimit-reset": String(reset),
      "ratelimit-policy": policy,
    };
    if (count > limit) {
      throw new HttpProblem(429, "Too Many Requests", {
        detail: `At most ${limit} requests per ${formatWindow(windowMs)}; retry after ${Math.max(1, reset)} s.`,
        headers: { ...headers, "retry-after": String(Math.max(1, reset)) },
      });
    }
    let response: ServerResponse;
    try {
      response = await next();
    } catch (error) {
      // Problems from later stages (401, 422, ...) carry the counters too, without overriding theirs.
      if (error instanceof HttpProblem) {
        for (const [name, value] of Object.entries(headers)) error.headers[name] ??= value;
      }
      throw error;
    }
    // In place (the response belongs to this request alone); a header the response already has wins.
    const target = response.headers;
    for (const [name, value] of Object.entries(headers)) target[name] ??= value;
    return response;
  };
}

function formatWindow(windowMs: number): string {
  return windowMs % 1000 === 0 ? `${windowMs / 1000} s` : `${windowMs} ms`;
}
