/**
 * The runtime of a generated GraphQL client: sends queries and mutations over HTTP with `fetch`
 * (GraphQL over HTTP: POST with JSON, or GET for queries), optionally as persisted operations
 * (by id, or Automatic Persisted Queries), retries queries that failed in transit, and returns
 * `{ data, errors }` as the server sent them.
 *
 * GraphQL errors are results, not exceptions: a field that failed is null and its error has a
 * `path`, while the rest of the data is there. Only transport failures throw (`GraphQLRequestError`).
 *
 * No dependencies and no Node-only modules: it runs wherever `fetch`, `Request`, `Headers` and
 * `AbortController` exist (browsers, Node 20+, Deno, Bun, workers).
 */
import {
  backoffDelay,
  ClientError,
  discardBody,
  readLimitedBody,
  resolveCredential,
  resolveHeaders,
  type ClientErrorKind,
  type CommonClientOptions,
  type Credential,
  type HeaderValues,
  type RetryOptions,
} from "./client-common.js";

// ---------------------------------------------------------------------------------------------
// Results and errors

/**
 * One entry of a response's `errors`.
 * @public
 */
export interface GraphQLResultError {
  message: string;
  locations?: ReadonlyArray<{ line: number; column: number }>;
  /** Where in `data` the failed field is: field names and list indexes. */
  path?: ReadonlyArray<string | number>;
  extensions?: Record<string, unknown>;
}

/**
 * What the server answered: check both `data` and `errors` (partial success is normal).
 * @public
 */
export interface GraphQLResult<Data> {
  /** The selected fields; a field that failed is null. `null` when nothing could be executed. */
  data: Data | null;
  /** Empty when every field succeeded. */
  errors: GraphQLResultError[];
  extensions?: Record<string, unknown>;
}

/**
 * Why a request got no GraphQL response (the words of every generated client's `ClientError`):
 * - `network`: `fetch` failed;
 * - `timeout`: the `timeout` option passed;
 * - `response`: a non-2xx status without a GraphQL response body;
 * - `invalid-response`: a body that is not JSON, or not a GraphQL response;
 * - `redirect`: a redirect the client does not follow (to another origin, more than 20, or any
 *   in a browser, which hides its target): headers go only to the configured origin;
 * - `too-large`: a response body larger than `maxResponseBytes`;
 * - `closed`: the WebSocket of subscriptions closed, or failed.
 * @public
 */
export type GraphQLRequestErrorKind = Extract<
  ClientErrorKind,
  "network" | "timeout" | "response" | "invalid-response" | "redirect" | "too-large" | "closed"
>;

/**
 * A request that got no GraphQL response (GraphQL errors are in `GraphQLResult.errors` instead).
 * @public
 */
export class GraphQLRequestError extends ClientError {
  override readonly name = "GraphQLRequestError";
  readonly kind: GraphQLRequestErrorKind;
  /** The HTTP status, when a response arrived. */
  readonly status: number | undefined;
  /** The start of the response body, when there was one. */
  readonly body: string | undefined;

  constructor(
    kind: GraphQLRequestErrorKind,
    operation: string,
    message: string,
    details: { status?: number; body?: string; cause?: unknown } = {},
  ) {
    super(operation, `${operation}: ${message}`, details);
    this.kind = kind;
    this.status = details.status;
    this.body = details.body;
  }
}

/**
 * Whether `error` is a `GraphQLRequestError`, optionally of one kind.
 * @public
 */
export function isGraphQLRequestError(error: unknown, kind?: GraphQLRequestErrorKind): error is GraphQLRequestError {
  return error instanceof GraphQLRequestError && (kind === undefined || error.kind === kind);
}

// ---------------------------------------------------------------------------------------------
// Options

/** @public */
export interface HttpOptions extends CommonClientOptions {
  /** The GraphQL endpoint, e.g. `https://api.example.com/graphql` or `/graphql`. */
  url: string;
  /**
   * Sent as `Authorization: Bearer <token>`: a value, or a function asked before each request (it
   * may be async, e.g. to refresh the token; `undefined` sends none).
   */
  token?: Credential;
  /** Milliseconds one attempt may take, reading the body included; 0 = no limit. Default 60 000. */
  timeout?: number;
  /**
   * Retrying of queries (never mutations, which may have taken effect) after a network error, a
   * timeout, or a 408, 429, 502, 503 or 504 without a GraphQL body; `false` disables. Default:
   * 2 retries with backoff.
   */
  retry?: RetryOptions | false;
  /**
   * Sends operations by id instead of by text, from `runtime/graphql-client-persisted.js`:
   * - `persistedQueryIds()`: `{ queryId, variables, operationName }` and no text, for servers
   *   with an allow-list;
   * - `automaticPersistedQueries()`: the SHA-256 hash in `extensions.persistedQuery` first, and
   *   the text too only when the server answers `PersistedQueryNotFound`.
   * Default: the text is sent every time.
   */
  persisted?: PersistedQueries;
  /** HTTP method of queries (mutations are always POST). `GET` lets caches and CDNs keep answers. Default `POST`. */
  method?: "POST" | "GET";
  /**
   * Largest response body in bytes, checked against `Content-Length` and counted while reading;
   * a larger one fails with kind `too-large`. 0 = no limit. Default 16 MiB.
   */
  maxResponseBytes?: number;
}

/**
 * Options of one call; they add to the client's.
 * @public
 */
export interface RequestOptions {
  /** Aborts the call (retries included); it then rejects with `signal.reason`. */
  signal?: AbortSignal;
  /** Extra headers, applied last (they override the client's). */
  headers?: HeaderValues;
  /** Milliseconds each attempt of this call may take; 0 = no limit. */
  timeout?: number;
}

/**
 * What the runtime needs of an operation (`TypedOperation` in `operations.ts` fits); `__types`
 * only carries its result and variables types.
 */
export interface Operation<Result, Variables> {
  readonly kind: "query" | "mutation" | "subscription";
  readonly name: string;
  readonly id: string;
  readonly document: string;
  readonly __types?: (variables: Variables) => Result;
}

// ---------------------------------------------------------------------------------------------
// HTTP transport

const DEFAULT_TIMEOUT = 60_000;
const DEFAULT_MAX_RESPONSE_BYTES = 16 * 1024 * 1024;
/** As many as `fetch` follows itself. */
const MAX_REDIRECTS = 20;
const REDIRECT_STATUSES = [301, 302, 303, 307, 308];
const ACCEPT = "application/graphql-response+json, application/json";
/** Statuses that say "try again later" (without a GraphQL body): retried for queries. */
const RETRY_STATUSES = [408, 429, 502, 503, 504];
/** How much of an unusable response body an error keeps. */
const BODY_EXCERPT = 500;

/** The parameters of a GraphQL-over-HTTP request (the JSON body of a POST, the query of a GET). */
export interface Payload {
  query?: string;
  queryId?: string;
  operationName: string;
  variables: object;
  extensions?: object;
}

/** Sends one payload (`get`: as a GET, which only queries may be) and resolves with the answer. */
export type SendPayload<Result> = (payload: Payload, get: boolean) => Promise<GraphQLResult<Result>>;

/**
 * How an operation is sent by id: what the `persisted` option takes.
 * @public
 */
export interface PersistedQueries {
  send<Result>(
    operation: Operation<Result, never>,
    payload: Payload,
    get: boolean,
    send: SendPayload<Result>,
  ): Promise<GraphQLResult<Result>>;
}

/**
 * Runs queries and mutations over HTTP.
 * @public
 */
export class GraphQLHttp {
  readonly #options: HttpOptions;

  constructor(options: HttpOptions) {
    this.#options = options;
  }

  /** Sends `operation` and resolves with the server's answer; rejects only when there is none. */
  async execute<Result, Variables extends object>(
    operation: Operation<Result, Variables>,
    variables: Variables,
    options: RequestOptions = {},
  ): Promise<GraphQLResult<Result>> {
    const retry = this.#options.retry;
    const { maxRetries = 2, baseDelay = 500, maxDelay = 30_000 } = retry || {};
    const signals = [this.#options.signal, options.signal];
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.#attempt(operation, variables, options, signals);
      } catch (error) {
        const transient =
          error instanceof GraphQLRequestError &&
          (error.kind === "network" || error.kind === "timeout" || RETRY_STATUSES.includes(error.status ?? 0));
        // Queries only: a mutation that failed in transit may have taken effect.
        if (!transient || retry === false || operation.kind !== "query" || attempt >= maxRetries) throw error;
        // Exponential backoff with full jitter; at least 1 ms, as a timer of 0 never fires.
        const pause = timer(Math.max(1, backoffDelay(attempt, baseDelay, maxDelay)), signals);
        await new Promise<void>((resolve, reject) => {
          const settle = (): void => (pause.expired() ? resolve() : reject(pause.signal.reason));
          if (pause.signal.aborted) settle();
          else pause.signal.addEventListener("abort", settle, { once: true });
        }).finally(pause.clear);
      }
    }
  }

  async #attempt<Result>(
    operation: Operation<Result, never>,
    variables: object,
    options: RequestOptions,
    signals: ReadonlyArray<AbortSignal | undefined>,
  ): Promise<GraphQLResult<Result>> {
    const deadline = timer(options.timeout ?? this.#options.timeout ?? DEFAULT_TIMEOUT, signals);
    try {
      const base: Payload = { operationName: operation.name, variables };
      const get = operation.kind === "query" && this.#options.method === "GET";
      const send: SendPayload<Result> = (payload, asGet) => this.#send(operation, payload, asGet, options, deadline);
      const persisted = this.#options.persisted;
      return await (persisted ? persisted.send(operation, base, get, send) : send({ ...base, query: operation.document }, get));
    } finally {
      deadline.clear();
    }
  }

  async #send<Result>(
    operation: Operation<Result, never>,
    payload: Payload,
    get: boolean,
    options: RequestOptions,
    deadline: Timer,
  ): Promise<GraphQLResult<Result>> {
    const headers = await resolveHeaders(this.#options.headers);
    const token = await resolveCredential(this.#options.token);
    if (token) headers.set("authorization", `Bearer ${token}`);
    (await resolveHeaders(options.headers)).forEach((value, name) => headers.set(name, value));
    headers.set("accept", ACCEPT);
    let url = this.#options.url;
    const init: RequestInit = { method: get ? "GET" : "POST", headers, signal: deadline.signal };
    if (get) {
      url += (url.includes("?") ? "&" : "?") + searchParams(payload);
    } else {
      headers.set("content-type", "application/json");
      init.body = JSON.stringify(payload);
    }

    let response: Response;
    let text: string;
    try {
      response = await this.#follow(operation.name, url, init);
      text = await readText(response, this.#options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES, operation.name);
    } catch (cause) {
      if (cause instanceof GraphQLRequestError) throw cause;
      const aborted = deadline.parents.find((signal) => signal.aborted);
      if (aborted) throw aborted.reason;
      if (deadline.expired()) throw new GraphQLRequestError("timeout", operation.name, `timed out after ${deadline.timeout} ms`);
      throw new GraphQLRequestError("network", operation.name, cause instanceof Error ? cause.message : "the request failed", { cause });
    }

    const status = response.status;
    const graphqlMediaType = /application\/graphql-response\+json/i.test(response.headers.get("content-type") ?? "");
    let body: unknown;
    let cause: unknown;
    try {
      body = JSON.parse(text);
    } catch (error) {
      cause = error;
    }
    const details = { status, body: excerpt(text), cause };
    // Per GraphQL over HTTP, a non-2xx answer is a GraphQL response only with the GraphQL media type.
    if (!response.ok && (cause || !graphqlMediaType)) throw new GraphQLRequestError("response", operation.name, `HTTP ${status}`, details);
    if (cause || !isGraphQLResponse(body)) {
      throw new GraphQLRequestError(
        "invalid-response",
        operation.name,
        `the response is not ${cause ? "JSON" : "a GraphQL response"} (HTTP ${status})`,
        details,
      );
    }
    return toResult<Result>(body);
  }

  /**
   * Sends the request, following redirects within the endpoint's origin only: headers (tokens
   * among them) must never reach a host the client was not configured for, and `fetch` itself
   * keeps every header but `Authorization` when it follows a redirect to another origin.
   */
  async #follow(operation: string, url: string, init: RequestInit): Promise<Response> {
    // Relative to the page in browsers; an endpoint that is no URL fails here, as a network error.
    let target = new URL(url, (globalThis as { location?: { href?: string } }).location?.href);
    const origin = target.origin;
    let current: RequestInit = { ...init, redirect: "manual" };
    for (let hops = 0; ; hops++) {
      const response = await (this.#options.fetch ?? fetch)(new Request(target, current));
      const refuse = async (location: string | undefined, reason: string): Promise<never> => {
        await discardBody(response);
        throw new GraphQLRequestError(
          "redirect",
          operation,
          `redirected${location === undefined ? "" : ` to ${location}`}, which the client does not follow: ${reason}`,
          { status: response.status },
        );
      };
      if (response.type === "opaqueredirect") return refuse(undefined, "browsers hide where a redirect leads; set url to the final URL");
      const location = REDIRECT_STATUSES.includes(response.status) ? response.headers.get("location") : null;
      if (location === null) return response;
      let next: URL;
      try {
        next = new URL(location, target);
      } catch {
        return refuse(location, "its Location is not a URL");
      }
      if (next.origin !== origin)
        return refuse(next.href, `it leads to another origin than ${origin}; set url to the new origin if it is trusted`);
      if (hops === MAX_REDIRECTS) return refuse(next.href, `more than ${MAX_REDIRECTS} redirects`);
      await discardBody(response);
      // As fetch does: a 303, or a 301/302 after a POST, becomes a GET without body.
      if (current.method === "POST" && (response.status === 301 || response.status === 302 || response.status === 303)) {
        const headers = new Headers(current.headers);
        headers.delete("content-type");
        current = { ...current, method: "GET", headers, body: null };
      }
      target = next;
    }
  }
}

/** Stops reading a body nobody will read (errors of an already closed stream are moot). */
/** The body as text, at most `limit` bytes of it (0 = no limit). */
async function readText(response: Response, limit: number, operation: string): Promise<string> {
  const chunks = await readLimitedBody(
    response,
    limit,
    () =>
      new GraphQLRequestError("too-large", operation, `the response is larger than maxResponseBytes (${limit} bytes)`, {
        status: response.status,
      }),
  );
  const decoder = new TextDecoder();
  let text = "";
  for (const chunk of chunks) text += decoder.decode(chunk, { stream: true });
  return text + decoder.decode();
}

/** `data`, `errors` and `extensions` of a GraphQL response, with `errors` always an array. */
export function toResult<Data>(body: { data?: unknown; errors?: unknown; extensions?: unknown }): GraphQLResult<Data> {
  const result: GraphQLResult<Data> = {
    data: (body.data ?? null) as Data | null,
    errors: Array.isArray(body.errors) ? (body.errors as GraphQLResultError[]) : [],
  };
  if (isObject(body.extensions)) result.extensions = body.extensions;
  return result;
}

function isGraphQLResponse(body: unknown): body is { data?: unknown; errors?: unknown; extensions?: unknown } {
  if (!isObject(body)) return false;
  const errors = body["errors"];
  // `errors`, when present, must be a list of errors; without it, `data` must be there.
  if ("errors" in body) return Array.isArray(errors) && errors.every((entry) => isObject(entry) && typeof entry["message"] === "string");
  return "data" in body && (body["data"] === null || isObject(body["data"]));
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** GraphQL over HTTP's GET form: objects (`variables`, `extensions`) as JSON, empty ones left out. */
function searchParams(payload: Payload): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(payload)) {
    if (typeof value === "string") params.set(name, value);
    else if (value && Object.keys(value).length) params.set(name, JSON.stringify(value));
  }
  return params.toString();
}

function excerpt(text: string): string {
  return text.length > BODY_EXCERPT ? `${text.slice(0, BODY_EXCERPT)}…` : text;
}

/** A signal aborted by any of the callers' signals, or when `timeout` ms pass (0 = never). */
interface Timer {
  signal: AbortSignal;
  /** The callers' signals it follows. */
  parents: AbortSignal[];
  /** Its limit in milliseconds. */
  timeout: number;
  /** Whether the time passed (rather than a caller aborting). */
  expired(): boolean;
  /** Stops the clock and forgets the callers' signals. */
  clear(): void;
}

// A closure rather than a class: minifiers shorten its variables, not a class's #private names.
function timer(timeout: number, callers: ReadonlyArray<AbortSignal | undefined>): Timer {
  const controller = new AbortController();
  const parents = callers.filter((signal): signal is AbortSignal => signal !== undefined);
  const onAbort = (event: Event): void => controller.abort((event.target as AbortSignal).reason);
  let expired = false;
  for (const parent of parents) {
    if (parent.aborted) controller.abort(parent.reason);
    else parent.addEventListener("abort", onAbort, { once: true });
  }
  const id =
    timeout > 0 && Number.isFinite(timeout) && !controller.signal.aborted
      ? setTimeout(() => {
          expired = true;
          controller.abort();
        }, timeout)
      : undefined;
  return {
    signal: controller.signal,
    parents,
    timeout,
    expired: () => expired,
    clear: () => {
      clearTimeout(id);
      for (const parent of parents) parent.removeEventListener("abort", onAbort);
    },
  };
}
