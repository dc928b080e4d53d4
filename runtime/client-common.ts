/**
 * What every generated client shares, whatever its protocol (REST, GraphQL, gRPC, SSE,
 * WebSocket): one way to inject `fetch`, to add headers, to pass credentials and to bound a call
 * in time, and one base class, `ClientError`, for everything a client throws, so that one `catch`
 * and one `instanceof` handle the errors of all of an app's clients.
 *
 * No dependencies: it runs wherever `fetch`, `Request` and `Headers` exist.
 */

/**
 * Sends one request. The global `fetch` fits, and so does any wrapper that logs, signs, mocks or
 * proxies requests: it gets one `Request` that carries the method, URL, headers and body.
 * @public
 */
export type Fetch = (request: Request) => Promise<Response>;

/**
 * Header values; entries whose value is `undefined` are left out.
 * @public
 */
export type HeaderValues = Headers | Record<string, string | undefined> | ReadonlyArray<readonly [string, string]>;

/**
 * Headers sent with every call, or a function returning them, called once per call (it may be async).
 * @public
 */
export type HeadersOption = HeaderValues | (() => HeaderValues | Promise<HeaderValues>);

/**
 * A credential, or a function returning one per call (sync or async; `undefined` = none), e.g. to refresh a token.
 * @public
 */
export type Credential<T = string> = T | (() => T | undefined | Promise<T | undefined>);

/**
 * Retrying of calls that may safely be sent again (network errors, timeouts, and answers that say
 * "try later"); which calls qualify depends on the protocol and is documented by each client.
 * @public
 */
export interface RetryOptions {
  /** Retries after the first attempt; 0 disables retrying. Default 2. */
  maxRetries?: number;
  /** Backoff before retry `n` is a random delay in [0, min(maxDelay, baseDelay * 2^n)] ms. Default 500. */
  baseDelay?: number;
  /** Upper bound of any delay in ms, including one the server asks for (`Retry-After`). Default 30 000. */
  maxDelay?: number;
}

/**
 * The delay before retry `attempt` (0-based): exponential backoff with full jitter, a random delay in
 * [0, min(maxDelay, baseDelay × 2^attempt)) ms, so clients that failed together do not retry together.
 */
export function backoffDelay(attempt: number, baseDelay: number, maxDelay: number, random: () => number = Math.random): number {
  return random() * Math.min(maxDelay, baseDelay * 2 ** attempt);
}

/**
 * The options every generated client takes, named and typed alike in every style.
 * @public
 */
export interface CommonClientOptions {
  /** The `fetch` to send requests with (default: the global `fetch`, looked up on each call). */
  fetch?: Fetch;
  /** Headers (or metadata) sent with every call; per-call headers win. */
  headers?: HeadersOption;
  /** Milliseconds one call may take; 0 = no limit. */
  timeout?: number;
  /** Aborts every call of this client (e.g. on shutdown). */
  signal?: AbortSignal;
}

/**
 * Why a call failed, the same words in every style:
 * - `response`: the server answered with an error (a non-2xx status, a gRPC status, an error reply);
 * - `network`: no answer arrived (DNS, connection refused or reset, CORS, a dropped stream);
 * - `timeout`: the call took longer than its `timeout`;
 * - `redirect`: a redirect the client does not follow (credentials go only to the configured origin);
 * - `too-large`: the answer is larger than the client's limit;
 * - `invalid-response`: the answer is not what the protocol or the schema says;
 * - `invalid-request`: the client refused to send what it was given;
 * - `closed`: the server closed a connection the call needed.
 * @public
 */
export type ClientErrorKind =
  | "response"
  | "network"
  | "timeout"
  | "redirect"
  | "too-large"
  | "invalid-response"
  | "invalid-request"
  | "closed";

/** Marks every `ClientError`, whichever copy of this file made it (see `Symbol.hasInstance`). */
const CLIENT_ERROR = Symbol.for("codegen-ts.ClientError");

/**
 * The base class of every error a generated client throws. Each output folder has its own copy
 * of this file (one per API unless `runtime: shared`), so `error instanceof ClientError` asks for
 * the mark all copies set rather than for one copy's prototype: one `catch` serves every client.
 * @public
 */
export abstract class ClientError extends Error {
  /** Why the call failed. */
  abstract readonly kind: ClientErrorKind;
  /** The operation, method or channel that failed. */
  readonly operation: string;

  constructor(operation: string, message: string, options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.operation = operation;
    Object.defineProperty(this, CLIENT_ERROR, { value: true });
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    // Subclasses (`ApiError`...) keep the ordinary prototype check.
    if (this !== ClientError) return Function.prototype[Symbol.hasInstance].call(this, value);
    return typeof value === "object" && value !== null && CLIENT_ERROR in value;
  }
}

/**
 * Whether `error` came from a generated client, optionally of one kind.
 * @public
 */
export function isClientError(error: unknown, kind?: ClientErrorKind): error is ClientError {
  return error instanceof ClientError && (kind === undefined || error.kind === kind);
}

/** The headers `option` stands for (a function is called now), without the `undefined` entries. */
export async function resolveHeaders(option: HeadersOption | undefined): Promise<Headers> {
  const values = typeof option === "function" ? await option() : option;
  const headers = new Headers();
  if (values === undefined) return headers;
  const entries = values instanceof Headers || Array.isArray(values) ? values : Object.entries(values);
  for (const [name, value] of entries as Iterable<readonly [string, string | undefined]>) {
    if (value !== undefined) headers.set(name, value);
  }
  return headers;
}

/** The value of `credential` for this call (a function is asked now). */
export async function resolveCredential<T>(credential: Credential<T> | undefined): Promise<T | undefined> {
  return typeof credential === "function" ? await (credential as () => T | undefined | Promise<T | undefined>)() : credential;
}

/**
 * A response body's chunks, at most `limit` bytes of them (0 = no limit): a larger `Content-Length`
 * is refused before reading, and the count is checked while reading (the length may be absent or
 * wrong). On a refusal the rest is cancelled unread and `tooLarge()` is thrown.
 */
export async function readLimitedBody(response: Response, limit: number, tooLarge: () => Error): Promise<Uint8Array[]> {
  const chunks: Uint8Array[] = [];
  const body = response.body;
  if (body === null) return chunks;
  if (limit > 0 && Number(response.headers.get("Content-Length")) > limit) {
    await discardBody(response);
    throw tooLarge();
  }
  const reader = body.getReader();
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return chunks;
    size += value.byteLength;
    if (limit > 0 && size > limit) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    chunks.push(value);
  }
}

/** Cancels what is left of a response body (a pooled connection is then free again). */
export function discardBody(response: Response): Promise<unknown> {
  return (response.body?.cancel() ?? Promise.resolve()).catch(() => undefined);
}
