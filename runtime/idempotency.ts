/**
 * `Idempotency-Key` on POST (draft-ietf-httpapi-idempotency-key-header): a client
 * that retries a create after a timeout must not create twice. The first request with a key runs
 * and its response is stored; a repeat gets that response again instead of running. Records live
 * in a `Store`, so retries that reach another server instance are caught when the store is shared.
 */
import { Buffer } from "node:buffer";
import { createHash } from "node:crypto";
import { HttpProblem } from "./server-types.js";
import type { ServerRequest, ServerResponse, Stage, Store } from "./server-types.js";

export interface IdempotencyOptions {
  /** Where the records live (`MemoryStore` for one process). */
  store: Store;
  /** How long a completed response is replayed, in ms. Default 24 hours. */
  ttlMs?: number;
  /**
   * How long a request in flight holds its key, in ms: if the process dies mid-request the key
   * frees itself after this instead of answering 409 until `ttlMs`. Keep it above the slowest
   * handler. Default 2 minutes (or `ttlMs` when shorter).
   */
  lockTtlMs?: number;
  /** Longest key accepted (longer → 400). Default 255. */
  maxKeyLength?: number;
  /**
   * Whose keys these are: the same key from two different users must not replay one's response
   * to the other. Default: the principal's identity when authentication set one (the principal
   * itself when it is a string or number, else its `id` or `sub` field), else `request.clientKey`.
   */
  scope?: (request: ServerRequest) => string;
  /** Prefix of the store keys. Default `"idempotency:"`. */
  prefix?: string;
}

/** What the store holds per key: the request's fingerprint, then its response. */
type IdempotencyRecord =
  | { state: "pending"; fingerprint: string }
  | { state: "complete"; fingerprint: string; status: number; headers: Record<string, string | string[]>; body?: string };

/**
 * The idempotency stage, for operations with `idempotencyKey: true` (they declare the header)
 * that receive an `Idempotency-Key` (others pass straight through). A key is taken atomically (`setIfAbsent`), so of two concurrent
 * duplicates exactly one runs. Then, per key (and scope and operation):
 * - a repeat of the same request (same method, path, query and body bytes) replays the stored
 *   status, headers and body, with `Idempotent-Replayed: true`;
 * - the same key with a different request → 422;
 * - a repeat while the first is still running → 409 with `Retry-After: 1`;
 * - a first attempt that fails (answers 5xx or throws, problems included) releases the key, so the
 *   client's retry runs again; other answers (2xx, 4xx returned as responses) are stored;
 * - a key that is empty, too long or not visible ASCII → 400.
 */
export function idempotency(options: IdempotencyOptions): Stage {
  const { store } = options;
  const ttlMs = options.ttlMs ?? 24 * 60 * 60 * 1000;
  const lockTtlMs = options.lockTtlMs ?? Math.min(ttlMs, 2 * 60 * 1000);
  const maxKeyLength = options.maxKeyLength ?? 255;
  const scope = options.scope ?? defaultScope;
  const prefix = options.prefix ?? "idempotency:";
  if (!(ttlMs > 0) || !(lockTtlMs > 0)) throw new RangeError("idempotency: ttlMs and lockTtlMs must be positive milliseconds");

  // Not async itself: requests without a key pass through without an extra promise.
  return (request, next) => {
    if (request.operation.idempotencyKey !== true) return next();
    const header = request.headers["idempotency-key"];
    if (header === undefined) return next();
    return keyed(request, next, header);
  };

  /** A request that carries a key: run once, replay after. */
  async function keyed(request: ServerRequest, next: () => Promise<ServerResponse>, header: string | string[]): Promise<ServerResponse> {
    const key = parseKey(header, maxKeyLength);
    const storeKey = prefix + sha256(JSON.stringify([request.operation.id, scope(request), key]));
    const fingerprint = fingerprintOf(request);

    // Normally one round: the loop only repeats when the record vanished between the two calls.
    for (let attempt = 0; attempt < 3; attempt++) {
      if (await store.setIfAbsent(storeKey, JSON.stringify({ state: "pending", fingerprint }), lockTtlMs)) {
        return run(storeKey, fingerprint, next);
      }
      const stored = await store.get(storeKey);
      if (stored === undefined) continue;
      const record = parseRecord(stored);
      if (record.fingerprint !== fingerprint) {
        // Shaped like every other 422 of the server: `errors` names what failed.
        const message = "was already used for a different request; send a new key for a new request";
        throw new HttpProblem(422, "Unprocessable Content", {
          detail: `This Idempotency-Key ${message}.`,
          extensions: { errors: [{ pointer: "/headers/idempotency-key", keyword: "idempotency", message }] },
        });
      }
      if (record.state === "pending") break;
      return {
        status: record.status,
        headers: { ...record.headers, "idempotent-replayed": "true" },
        ...(record.body === undefined ? {} : { body: new Uint8Array(Buffer.from(record.body, "base64")) }),
      };
    }
    throw new HttpProblem(409, "Conflict", {
      detail: "A request with this Idempotency-Key is still being processed; retry shortly.",
      headers: { "retry-after": "1" },
    });
  }

  /** Runs the request that took the key, then stores its response or releases the key. */
  async function run(storeKey: string, fingerprint: string, next: () => Promise<ServerResponse>): Promise<ServerResponse> {
    let response: ServerResponse;
    try {
      response = await next();
    } catch (error) {
      try {
        await store.delete(storeKey);
      } catch {
        // The request's own error matters more; the key frees itself after lockTtlMs.
      }
      throw error;
    }
    if (response.status >= 500) {
      await store.delete(storeKey);
      return response;
    }
    const record: IdempotencyRecord = {
      state: "complete",
      fingerprint,
      status: response.status,
      headers: response.headers,
      ...(response.body === undefined ? {} : { body: bytesOf(response.body).toString("base64") }),
    };
    await store.set(storeKey, JSON.stringify(record), ttlMs);
    return response;
  }
}

/**
 * The key from the header. Accepts a bare token (as most clients send it) and the quoted
 * structured-field string of the IETF draft (`Idempotency-Key: "8e03978e-..."`).
 */
function parseKey(header: string | string[], maxLength: number): string {
  if (Array.isArray(header)) throw badKey("Send exactly one Idempotency-Key header.");
  let key = header.trim();
  const quoted = /^"((?:[^"\\]|\\["\\])*)"$/.exec(key);
  if (quoted?.[1] !== undefined) key = quoted[1].replace(/\\(["\\])/g, "$1");
  if (key.length === 0) throw badKey("Idempotency-Key must not be empty.");
  if (key.length > maxLength) throw badKey(`Idempotency-Key must be at most ${maxLength} characters.`);
  if (!/^[\x20-\x7e]+$/.test(key)) throw badKey("Idempotency-Key must be printable ASCII, e.g. a UUID.");
  return key;
}

function badKey(detail: string): HttpProblem {
  return new HttpProblem(400, "Bad Request", { detail });
}

/** What makes two requests "the same": method, path with query, and the exact body bytes. */
function fingerprintOf(request: ServerRequest): string {
  const hash = createHash("sha256");
  hash.update(`${request.method}\n${request.url.pathname}${request.url.search}\n`);
  if (request.body !== undefined) hash.update(request.body);
  return hash.digest("base64url");
}

function sha256(text: string): string {
  return createHash("sha256").update(text).digest("base64url");
}

function defaultScope(request: ServerRequest): string {
  const principal = request.principal;
  if (typeof principal === "string" || typeof principal === "number") return `principal:${principal}`;
  if (typeof principal === "object" && principal !== null) {
    const fields = principal as Record<string, unknown>;
    for (const field of ["id", "sub"]) {
      const value = fields[field];
      if (typeof value === "string" || typeof value === "number") return `principal:${value}`;
    }
  }
  return `client:${request.clientKey}`;
}

function parseRecord(text: string): IdempotencyRecord {
  const value: unknown = JSON.parse(text);
  if (typeof value === "object" && value !== null && "state" in value && "fingerprint" in value && typeof value.fingerprint === "string") {
    if (value.state === "pending") return { state: "pending", fingerprint: value.fingerprint };
    if (value.state === "complete" && "status" in value && typeof value.status === "number" && "headers" in value) {
      return value as IdempotencyRecord;
    }
  }
  throw new Error("idempotency: the store holds a record this stage did not write");
}

function bytesOf(body: Uint8Array | string): Buffer {
  return typeof body === "string" ? Buffer.from(body) : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
}
