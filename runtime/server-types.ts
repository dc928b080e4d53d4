/**
 * The contract between a generated REST server's core (routing, parsing, validation, handlers)
 * and its convention stages (CORS, rate limits, auth, idempotency, conditional requests): each
 * stage wraps the rest of the pipeline, like middleware, and sees bodies as bytes.
 */

/** A request after routing, before the handler. */
export interface ServerRequest {
  /** Upper-case method as received. */
  method: string;
  url: URL;
  /** Lower-case header names, as node:http gives them. */
  headers: Record<string, string | string[] | undefined>;
  /** The body, read within the size limit; undefined when the request has none. */
  body?: Uint8Array;
  /** The operation routing matched. */
  operation: OperationMeta;
  /** Sent back as the `Trace-Id` header and in every problem body. */
  traceId: string;
  /** Who the request counts against for rate limits (by default the client IP). */
  clientKey: string;
  /** Set by the auth stage: whatever the application's authenticate hook returned. */
  principal?: unknown;
}

/** A response on its way out; the body is already serialised. */
export interface ServerResponse {
  status: number;
  /** Lower-case header names. */
  headers: Record<string, string | string[]>;
  /**
   * The bytes to send, or text to send UTF-8 encoded: JSON and text bodies stay strings, which
   * node:http writes in one piece with the head (a Buffer costs a copy and a second chunk).
   */
  body?: Uint8Array | string;
}

export type Next = () => Promise<ServerResponse>;

/**
 * One convention: may answer by itself, or call `next` and adjust its response. Every response
 * belongs to the one request it answers, so a stage adjusts the one `next` gave it in place (no
 * copies on the hot path); a stage never hands out a response object it keeps or shares.
 */
export type Stage = (request: ServerRequest, next: Next) => Promise<ServerResponse>;

/**
 * What the stages need to know of an operation; generated once per operation.
 * @public
 */
export interface OperationMeta {
  id: string;
  method: string;
  /** The path template, e.g. `/tasks/{taskId}`. */
  path: string;
  /** Every method the path answers (for `Allow` and CORS preflights). */
  allow: readonly string[];
  /** Alternatives (OR) of scheme sets (AND); empty = public. */
  security: string[][];
  /**
   * The operation declares an `Idempotency-Key` request header (e.g. a POST that creates): a
   * request that sends one runs once and is replayed after. Absent on every other operation.
   */
  idempotencyKey?: true;
  /** `Cache-Control` for successful GET/HEAD responses, e.g. `private, max-age=60`. */
  cacheControl?: string;
  /** `If-Match` on PUT/PATCH/DELETE: checked when sent, or required (428 without it). */
  ifMatch?: "optional" | "required";
}

/**
 * Shared state behind a small async interface (idempotency records, rate-limit counters), so a
 * Redis implementation can replace the in-memory default: `setIfAbsent` maps to `SET NX PX`,
 * `increment` to `INCR` + `PEXPIRE`.
 * @public
 */
export interface Store {
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string, ttlMs: number): Promise<void>;
  /** Sets only when the key is absent, atomically; true when this call set it. */
  setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean>;
  delete(key: string): Promise<void>;
  /** Adds 1, creating the counter with `ttlMs` when absent; returns the count and time left. */
  increment(key: string, ttlMs: number): Promise<{ count: number; ttlMs: number }>;
}

/**
 * An RFC 9457 Problem Details body; `traceId` is added to every one.
 * @public
 */
export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail?: string;
  instance?: string;
  traceId?: string;
  [extension: string]: unknown;
}

/**
 * Thrown (by stages or handlers) to answer with a problem instead of a result.
 * @public
 */
export class HttpProblem extends Error {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly extensions: Record<string, unknown>;

  constructor(
    status: number,
    title: string,
    init: {
      detail?: string | undefined;
      type?: string | undefined;
      headers?: Record<string, string>;
      extensions?: Record<string, unknown>;
    } = {},
  ) {
    super(title);
    this.name = "HttpProblem";
    this.status = status;
    this.headers = init.headers ?? {};
    this.extensions = { ...(init.type ? { type: init.type } : {}), ...(init.detail ? { detail: init.detail } : {}), ...init.extensions };
  }
}
