/**
 * The runtime of a generated REST client: builds requests from an operation's description, sends
 * them through `fetch` with auth, middleware, timeouts and retries, and turns responses into typed
 * results or typed errors (declared in `http-results.ts`, re-exported here).
 *
 * Only what every call needs is here. What some operations or apps need comes from its own module,
 * named by the operation descriptions that need it or passed as an option, so that a bundle holds
 * only the features it uses: non-default parameter styles and object parameters (`http-styles.ts`),
 * form and multipart bodies (`http-forms.ts`), pagination (`http-paginate.ts`), the ETag cache
 * (`http-cache.ts`), response validation (`response-validators.ts`).
 *
 * No dependencies and no Node-only modules: it runs wherever `fetch`, `Request`, `Headers` and
 * `AbortController` exist (browsers, Node 20+, Deno, Bun, workers).
 */
import {
  backoffDelay,
  discardBody,
  readLimitedBody,
  resolveCredential,
  resolveHeaders,
  type CommonClientOptions,
  type Credential,
  type Fetch,
  type HeaderValues,
  type RetryOptions,
} from "./client-common.js";
import {
  ApiPromise,
  ApiError,
  ApiNetworkError,
  ApiTimeoutError,
  ApiParameterError,
  ApiRedirectError,
  ApiResponseTooLargeError,
  ApiInvalidResponseError,
  type ApiResponse,
  type ResponseValidators,
} from "./http-results.js";

export {
  ApiPromise,
  ApiRequestError,
  ApiResponseError,
  ApiError,
  ApiNetworkError,
  ApiTimeoutError,
  ApiParameterError,
  ApiRedirectError,
  ApiResponseTooLargeError,
  ApiInvalidResponseError,
  type ApiResponse,
  type ErrorResponse,
  type ApiErrorFor,
  type ApiCallError,
  type ResponseValidators,
} from "./http-results.js";

// ---------------------------------------------------------------------------------------------
// Options

/**
 * Credentials of an HTTP Basic security scheme.
 * @public
 */
export interface BasicCredentials {
  username: string;
  password: string;
}

/**
 * Wraps every attempt of every call: inspect or replace the request, call `next` to send it,
 * inspect or replace the response.
 *
 * @example
 * const logRequests: Middleware = async (request, next) => {
 *   const response = await next(request);
 *   console.log(request.method, request.url, response.status);
 *   return response;
 * };
 * @public
 */
export type Middleware = (request: Request, next: Fetch) => Promise<Response>;

/**
 * Every client's `RetryOptions`, and which response statuses are retried.
 * @public
 */
export interface HttpRetryOptions extends RetryOptions {
  /** Response statuses that are retried. Default 408, 429, 502, 503, 504. */
  statuses?: readonly number[];
}

/**
 * Conditional GETs: what the `cache` option takes (`etagCache()` from `runtime/http-cache.js`).
 * It sends a GET through `next`, and may add `If-None-Match` and answer a `304` from what it kept.
 * @public
 */
export interface HttpCache {
  fetch(request: Request, next: Fetch): Promise<Response>;
}

/** @public */
export interface ClientOptions<Auth extends object = Record<string, Credential>> extends CommonClientOptions {
  /** Prefix of every request URL, e.g. `https://api.example.com/v1`. */
  baseUrl?: string;
  /** Credentials by security scheme name; applied to the operations that declare the scheme. */
  auth?: Auth;
  /** Run in order around every attempt; the last one calls `fetch`. */
  middleware?: readonly Middleware[];
  /** Milliseconds one attempt may take, reading the body included; 0 = no limit. Default 60 000. */
  timeout?: number;
  /**
   * Retrying of network errors, timeouts and the `statuses` of `HttpRetryOptions`; `false` disables.
   * GET, HEAD, PUT, DELETE and OPTIONS are retried; POST and PATCH only when they carry an
   * `Idempotency-Key` (see `idempotencyKeys`).
   */
  retry?: HttpRetryOptions | false;
  /**
   * When a POST or PATCH gets an automatic `Idempotency-Key` (a random UUID, the same for every
   * attempt of one call) if the caller did not set one: `declared` (default) for operations that
   * declare the header, `always` for all, `never` for none.
   */
  idempotencyKeys?: "declared" | "always" | "never";
  /**
   * Conditional GET: `etagCache()` from `runtime/http-cache.js` remembers `ETag` + body per URL,
   * sends `If-None-Match`, and answers a `304` with the remembered body. Default off.
   */
  cache?: HttpCache;
  /**
   * Checks 2xx bodies against their schemas; a mismatch throws `ResponseValidationError`. Pass
   * `responseValidators` from the generated `response-validators.ts`: only then is validation code
   * in your bundle. Default off.
   */
  validateResponses?: ResponseValidators;
  /**
   * Largest response body in bytes, checked against `Content-Length` and counted while reading;
   * a larger one throws `ApiResponseTooLargeError`. 0 = no limit. Default 16 MiB.
   */
  maxResponseBytes?: number;
}

/**
 * Options of one call; they override the client's.
 * @public
 */
export interface RequestOptions {
  /** Aborts the call (retries and backoff included); the call then rejects with `signal.reason`. */
  signal?: AbortSignal;
  /** Milliseconds one attempt may take; 0 = no limit. */
  timeout?: number;
  /** Extra headers, applied last (they override everything else). */
  headers?: HeaderValues;
  retry?: HttpRetryOptions | false;
  /** `Idempotency-Key` for this call (also retries a POST or PATCH whose operation lacks the header). */
  idempotencyKey?: string;
  /** `false` bypasses the client's ETag cache for this call. */
  cache?: boolean;
  /** Largest response body of this call in bytes; 0 = no limit. */
  maxResponseBytes?: number;
}

// ---------------------------------------------------------------------------------------------
// Operation descriptions (written by the generator)

/**
 * Serialises one parameter value in a style the core does not know, or an object value: returns
 * the path segment, the query's `name=value` pairs joined by `&`, or the header or cookie value,
 * each name and value passed through `code` (percent-encoding in the path and the query). From
 * `runtime/http-styles.js`.
 */
export type ParameterStyle = (name: string, value: unknown, explode: boolean, code: (text: string) => string) => string;

export interface ParameterSpec {
  /** Property of the params object. */
  readonly key: string;
  /** Name on the wire. */
  readonly name: string;
  readonly in: "path" | "query" | "header" | "cookie";
  /**
   * Absent for the default style (`form` in the query and cookies, `simple` elsewhere) of
   * scalars and arrays, which the core serialises itself.
   */
  readonly style?: ParameterStyle;
  /** Default true for `form`, false otherwise. */
  readonly explode?: boolean;
}

/** Encodes a request body (forms and multipart, from `runtime/http-forms.js`); may set headers. */
export type BodyEncoder = (value: unknown, headers: Headers) => NonNullable<RequestInit["body"]>;

/**
 * Applies one security scheme's credential to a request: sets a header or a cookie, or adds
 * `name=value` to the query. The generated client names one per scheme of the API, from
 * `runtime/http-auth.js`, so a bundle holds only the kinds of credentials its API uses.
 */
export type SecuritySchemeSpec = (value: unknown, headers: Headers, query: string[]) => void;

export type PaginationSpec =
  | { readonly kind: "cursor"; readonly cursor: string; readonly items: string; readonly nextCursor: string }
  | { readonly kind: "page"; readonly page: string; readonly pageSize: string; readonly items: string };

export interface OperationSpec {
  /** Client method name, used in errors. */
  readonly id: string;
  /** Upper case, e.g. `GET`. */
  readonly method: string;
  /** Path template, e.g. `/tasks/{taskId}`. */
  readonly path: string;
  readonly params?: readonly ParameterSpec[];
  /** Media type of the request body; the body is the `body` property of the params object. */
  readonly body?: string;
  /** Encodes the body when it is not JSON, text or bytes. */
  readonly encodeBody?: BodyEncoder;
  /** The `Accept` header. */
  readonly accept?: string;
  /** Alternatives (any one) of sets (all) of security scheme names; `[]` = no credentials. */
  readonly security?: ReadonlyArray<readonly string[]>;
  /** Whether the operation declares an `Idempotency-Key` header. */
  readonly idempotencyKey?: boolean;
  readonly pagination?: PaginationSpec;
  /** The client's method iterating every item of a paginated operation (`<id>All`). */
  readonly iterator?: string;
}

/**
 * An operation's description carrying its params, result and response types: what
 * `HttpClient.call` takes. The generated `<method>Operation` constants are these, one per
 * operation, so an app that calls operations this way bundles only the descriptions it uses.
 * @public
 */
export interface TypedOperationSpec<Params, Result, Response extends ApiResponse> extends OperationSpec {
  /** Never set: carries the types to `call`. */
  readonly __types?: (params: Params) => [Result, Response];
}

export interface ClientDefaults {
  baseUrl?: string;
  securitySchemes?: Readonly<Record<string, SecuritySchemeSpec>>;
}

/**
 * Sends the operations of a generated client.
 * @public
 */
export interface HttpClient {
  /** Sends one typed operation (a generated `<method>Operation` constant), as the client's methods do. */
  call<P, T, R extends ApiResponse>(
    operation: TypedOperationSpec<P, T, R>,
    ...[params, options]: undefined extends P ? [params?: P, options?: RequestOptions] : [params: P, options?: RequestOptions]
  ): ApiPromise<T, R>;
  /** Sends one operation; resolves to its 2xx response, rejects with `ApiError` & co. */
  send(spec: OperationSpec, params: object | undefined, options?: RequestOptions): Promise<ApiResponse>;
}

// ---------------------------------------------------------------------------------------------
// The client

const IDEMPOTENT_METHODS = /^(GET|HEAD|PUT|DELETE|OPTIONS|TRACE)$/;
const DEFAULT_TIMEOUT = 60_000;
const DEFAULT_MAX_RESPONSE_BYTES = 16 * 1024 * 1024;
/** As many as `fetch` follows itself. */
const MAX_REDIRECTS = 20;
const DEFAULT_RETRY: Required<HttpRetryOptions> = {
  maxRetries: 2,
  baseDelay: 500,
  maxDelay: 30_000,
  statuses: [408, 429, 502, 503, 504],
};

/** The runtime client; a generated `createHttpClient(options)` calls it with the API's defaults. */
export function httpClient(options: ClientOptions<object>, defaults: ClientDefaults = {}): HttpClient {
  // The booleans these options took before would silently do nothing.
  if ((options.validateResponses as unknown) === true || (options.cache as unknown) === true) {
    throw new TypeError("validateResponses takes responseValidators, cache takes etagCache()");
  }
  const baseUrl = (options.baseUrl ?? defaults.baseUrl ?? "").replace(/\/+$/, "");
  const schemes = defaults.securitySchemes ?? {};

  /** Sends through the middleware to `fetch`. */
  const dispatch = (request: Request, index = 0): Promise<Response> => {
    const layer = options.middleware?.[index];
    return layer ? layer(request, (changed) => dispatch(changed, index + 1)) : (options.fetch ?? fetch)(request);
  };

  /**
   * Sends `request`, following redirects within its origin only: credentials (the `auth` ones and
   * any in `headers`) must never reach a host the client was not configured for, and `fetch`
   * itself keeps every header but `Authorization` when it follows a redirect to another origin.
   */
  const follow = async (operation: string, request: Request, body: RequestInit["body"]): Promise<Response> => {
    const origin = new URL(request.url).origin;
    for (let hops = 0; ; hops++) {
      const response = await dispatch(request);
      const refuse = async (location: string | undefined, reason: string): Promise<never> => {
        await discardBody(response);
        throw new ApiRedirectError(operation, request.method, request.url, response.status, location, reason);
      };
      if (response.type === "opaqueredirect")
        return refuse(undefined, "browsers hide where a redirect leads; set baseUrl to the final URL");
      const location = [301, 302, 303, 307, 308].includes(response.status) ? response.headers.get("Location") : null;
      if (location === null) return response;
      let target: URL;
      try {
        target = new URL(location, request.url);
      } catch {
        return refuse(location, "its Location is not a URL");
      }
      if (target.origin !== origin)
        return refuse(target.href, `it leads to another origin than ${origin}; set baseUrl to the new origin if it is trusted`);
      if (hops === MAX_REDIRECTS) return refuse(target.href, `more than ${MAX_REDIRECTS} redirects`);
      await discardBody(response);
      request = redirected(request, target, response.status, body);
    }
  };

  /** Adds the credentials of the first security alternative the client has all credentials for. */
  const applyAuth = async (spec: OperationSpec, headers: Headers, query: string[]): Promise<void> => {
    const auth = (options.auth ?? {}) as Record<string, Credential<unknown> | undefined>;
    for (const alternative of spec.security ?? []) {
      const resolved: Array<[SecuritySchemeSpec, unknown]> = [];
      for (const name of alternative) {
        const scheme = Object.hasOwn(schemes, name) ? schemes[name] : undefined;
        const value = await resolveCredential(Object.hasOwn(auth, name) ? auth[name] : undefined);
        if (!scheme || value === undefined || value === null || value === "") break;
        resolved.push([scheme, value]);
      }
      if (resolved.length < alternative.length) continue;
      for (const [apply, value] of resolved) apply(value, headers, query);
      return;
    }
  };

  const send = async (spec: OperationSpec, params: object | undefined, call: RequestOptions = {}): Promise<ApiResponse> => {
    const values = (params ?? {}) as Record<string, unknown>;
    const signals = [options.signal, call.signal];
    for (const signal of signals) signal?.throwIfAborted();
    const method = spec.method;
    const retry: Required<HttpRetryOptions> =
      options.retry === false || call.retry === false
        ? { ...DEFAULT_RETRY, maxRetries: 0 }
        : { ...DEFAULT_RETRY, ...options.retry, ...call.retry };
    const timeout = call.timeout ?? options.timeout ?? DEFAULT_TIMEOUT;
    const limit = call.maxResponseBytes ?? options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    const cache = method === "GET" && call.cache !== false ? options.cache : undefined;

    // Everything but credentials is built once, so that every attempt sends the same request.
    const path = baseUrl + expandPath(spec, values);
    const query: string[] = [];
    const headers = await resolveHeaders(options.headers);
    if (spec.accept && !headers.has("Accept")) headers.set("Accept", spec.accept);
    for (const parameter of spec.params ?? []) {
      const value = values[parameter.key];
      if (parameter.in !== "path" && value !== undefined && value !== null) {
        const text = serialize(parameter, value, parameter.in === "query");
        if (parameter.in === "query") {
          if (text) query.push(text);
        } else if (parameter.in === "header") headers.set(parameter.name, text);
        else appendCookie(headers, parameter.name, text);
      }
    }
    (await resolveHeaders(call.headers)).forEach((value, name) => headers.set(name, value));
    if (call.idempotencyKey !== undefined) headers.set("Idempotency-Key", call.idempotencyKey);
    const body = spec.body === undefined ? undefined : encodeBody(spec, values["body"], headers);
    const keys = options.idempotencyKeys ?? "declared";
    if (!IDEMPOTENT_METHODS.test(method) && !headers.has("Idempotency-Key")) {
      if (keys === "always" || (keys === "declared" && spec.idempotencyKey)) headers.set("Idempotency-Key", randomKey());
    }
    const retryable = IDEMPOTENT_METHODS.test(method) || headers.has("Idempotency-Key");

    for (let attempt = 0; ; attempt++) {
      const attemptHeaders = new Headers(headers);
      const attemptQuery = [...query];
      await applyAuth(spec, attemptHeaders, attemptQuery);
      const url = path + (attemptQuery.length ? `?${attemptQuery.join("&")}` : "");
      const canRetry = retryable && attempt < retry.maxRetries;
      const deadline = timer(timeout, signals);
      let delay: number;
      try {
        // Outside the transport `try`: a malformed URL is a mistake to report, not a failure to retry.
        // `manual`: redirects are followed by `follow`, which keeps credentials on this origin.
        const request = new Request(url, {
          method,
          headers: attemptHeaders,
          body: body ?? null,
          signal: deadline.signal,
          redirect: "manual",
        });
        try {
          const response = await (cache ? cache.fetch(request, (input) => follow(spec.id, input, body)) : follow(spec.id, request, body));
          if (canRetry && retry.statuses.includes(response.status)) {
            await discardBody(response);
            delay = retryAfter(response.headers) ?? backoffDelay(attempt, retry.baseDelay, retry.maxDelay);
          } else {
            const head = { status: response.status, headers: response.headers };
            const result: ApiResponse = {
              ...head,
              data: await readResponse(response, method, limit, {
                tooLarge: () => new ApiResponseTooLargeError(spec.id, method, url, response.status, limit),
                invalid: (data, cause) => new ApiInvalidResponseError(spec.id, method, url, { ...head, data }, "is not valid JSON", cause),
              }),
            };
            if (!response.ok) throw new ApiError(spec.id, method, url, result, response.statusText);
            options.validateResponses?.(spec.id, method, url, result);
            return result;
          }
        } catch (error) {
          const aborted = signals.find((signal) => signal?.aborted);
          if (aborted) throw aborted.reason;
          const expired = deadline.expired();
          if (!expired && !(error instanceof TypeError)) throw error;
          const failure = expired ? new ApiTimeoutError(spec.id, method, url, timeout) : new ApiNetworkError(spec.id, method, url, error);
          if (!canRetry) throw failure;
          delay = backoffDelay(attempt, retry.baseDelay, retry.maxDelay);
        }
      } finally {
        deadline.clear();
      }
      await sleep(Math.min(delay, retry.maxDelay), signals);
    }
  };

  return {
    call(operation: OperationSpec, params?: unknown, callOptions?: RequestOptions) {
      return new ApiPromise(send(operation, params as object | undefined, callOptions));
    },
    send,
  } as HttpClient;
}

// ---------------------------------------------------------------------------------------------
// Requests

/**
 * The next request of a same-origin redirect, as `fetch` would make it: 303 (and 301/302 after a
 * POST) become a GET without body; 307 and 308 repeat the method and body.
 */
function redirected(request: Request, target: URL, status: number, body: RequestInit["body"]): Request {
  const toGet = (status === 303 && request.method !== "GET" && request.method !== "HEAD") || (status < 303 && request.method === "POST");
  const headers = new Headers(request.headers);
  if (toGet) for (const name of ["Type", "Encoding", "Language", "Location"]) headers.delete(`Content-${name}`);
  // A form gets a new multipart boundary in the new request: fetch writes its Content-Type again.
  else if (body instanceof FormData) headers.delete("Content-Type");
  return new Request(target, {
    method: toGet ? "GET" : request.method,
    headers,
    body: toGet ? null : (body ?? null),
    signal: request.signal,
    redirect: "manual",
  });
}

export function encode(value: string): string {
  return encodeURIComponent(value);
}

/** A scalar as text; objects (in arrays, or without a style) as JSON. */
export function scalar(value: unknown): string {
  return value instanceof Date ? value.toISOString() : typeof value === "object" && value !== null ? JSON.stringify(value) : String(value);
}

/**
 * One parameter's value on the wire: its style's serialiser, or the default style of scalars and
 * arrays (query: `name=a&name=b` exploded, `name=a,b` not; elsewhere `a,b`); percent-encoded
 * unless it goes in a header or cookie (cookies are encoded by `appendCookie`).
 */
function serialize(parameter: ParameterSpec, value: unknown, inQuery: boolean): string {
  const code = inQuery || parameter.in === "path" ? encode : String;
  if (parameter.style) return parameter.style(parameter.name, value, parameter.explode ?? inQuery, code);
  const items = (Array.isArray(value) ? value : [value]).map((item) => code(scalar(item)));
  if (!inQuery) return items.join(",");
  const name = encode(parameter.name);
  return (parameter.explode ?? true) ? items.map((item) => `${name}=${item}`).join("&") : items.length ? `${name}=${items.join(",")}` : "";
}

/**
 * Fills in `{name}` segments of the path, percent-encoded. A segment that a parameter leaves
 * empty, `.` or `..` is refused: it would address another resource than the operation's
 * (`DELETE /tasks/..` is `DELETE /`).
 */
function expandPath(spec: OperationSpec, params: Record<string, unknown>): string {
  return spec.path
    .split("/")
    .map((template) => {
      let last = "";
      const segment = template.replace(/\{([^}]+)\}/g, (_match, name: string) => {
        const parameter = spec.params?.find((item) => item.in === "path" && item.name === name);
        const value = parameter ? params[parameter.key] : undefined;
        if (!parameter || value === undefined || value === null) throw new ApiParameterError(spec.id, name, "is missing");
        last = name;
        return serialize(parameter, value, false);
      });
      if (last && (segment === "" || segment === "." || segment === "..")) {
        throw new ApiParameterError(spec.id, last, 'must not be empty, "." or ".." (the segment would address another resource)');
      }
      return segment;
    })
    .join("/");
}

/** Adds `name=value` (percent-encoded) to the `Cookie` header. */
export function appendCookie(headers: Headers, name: string, value: string): void {
  const existing = headers.get("Cookie");
  headers.set("Cookie", `${existing ? `${existing}; ` : ""}${name}=${encode(value)}`);
}

function isJson(mediaType: string): boolean {
  return /^[^;]*[/+]json\s*(;|$)/i.test(mediaType.trim());
}

/** Serialises a request body: by the operation's encoder, else JSON, text or bytes as they are. */
function encodeBody(spec: OperationSpec, value: unknown, headers: Headers): RequestInit["body"] {
  if (value === undefined) return undefined;
  const mediaType = spec.body ?? "";
  if (!headers.has("Content-Type")) headers.set("Content-Type", mediaType);
  if (spec.encodeBody) return spec.encodeBody(value, headers);
  if (isJson(mediaType)) return JSON.stringify(value);
  return value instanceof Blob || value instanceof ArrayBuffer || ArrayBuffer.isView(value)
    ? (value as RequestInit["body"])
    : scalar(value);
}

// ---------------------------------------------------------------------------------------------
// Responses

/**
 * Reads and parses the body: JSON and text by `Content-Type`, anything else as a `Blob`. A 2xx
 * body that is not the JSON it claims to be fails with `fail.invalid`.
 */
async function readResponse(
  response: Response,
  method: string,
  limit: number,
  fail: { tooLarge(): Error; invalid(data: string, cause: unknown): Error },
): Promise<unknown> {
  if (method === "HEAD" || [204, 205, 304].includes(response.status)) {
    await discardBody(response);
    return undefined;
  }
  const type = response.headers.get("Content-Type");
  // The parts `Blob` takes (DOM and Node name the type differently).
  const blob = new Blob((await readLimitedBody(response, limit, fail.tooLarge)) as NonNullable<ConstructorParameters<typeof Blob>[0]>);
  if (type && !isJson(type) && !/^text\/|xml|x-www-form-urlencoded/i.test(type)) {
    return blob.size === 0 ? undefined : new Blob([blob], { type });
  }
  const text = await blob.text();
  if (text === "" || (type && !isJson(type))) return text || undefined;
  try {
    return JSON.parse(text);
  } catch (error) {
    // An error's status says enough: its body is kept as text.
    if (type === null || !response.ok) return text;
    throw fail.invalid(text, error);
  }
}

// ---------------------------------------------------------------------------------------------
// Retries and time

/** Milliseconds to wait from a `Retry-After` header (delay in seconds, or an HTTP date). */
function retryAfter(headers: Headers): number | undefined {
  const value = headers.get("Retry-After")?.trim() ?? "";
  // Neither (NaN): the backoff decides.
  const ms = /^\d+$/.test(value) ? Number(value) * 1000 : Date.parse(value) - Date.now();
  return Number.isNaN(ms) ? undefined : Math.max(0, ms);
}

/** Resolves after `ms`, or rejects with a signal's reason as soon as it aborts. */
function sleep(ms: number, signals: ReadonlyArray<AbortSignal | undefined>): Promise<void> {
  // At least 1 ms: a timer of 0 ms never expires.
  const deadline = timer(Math.max(ms, 1), signals);
  return new Promise<void>((resolve, reject) => {
    const settle = (): void => (deadline.expired() ? resolve() : reject(deadline.signal.reason));
    if (deadline.signal.aborted) settle();
    else deadline.signal.addEventListener("abort", settle, { once: true });
  }).finally(deadline.clear);
}

/** A signal aborted by any of the callers' signals, or when `timeout` ms pass (0 = never). */
interface Timer {
  signal: AbortSignal;
  /** Whether the time passed (rather than a caller aborting). */
  expired(): boolean;
  /** Stops the clock and forgets the callers' signals. */
  clear(): void;
}

// A closure rather than a class: minifiers shorten its variables, not a class's #private names.
function timer(timeout: number, parents: ReadonlyArray<AbortSignal | undefined>): Timer {
  const controller = new AbortController();
  const signals = parents.filter((signal): signal is AbortSignal => signal !== undefined);
  const onAbort = (event: Event): void => controller.abort((event.target as AbortSignal).reason);
  let expired = false;
  for (const parent of signals) {
    if (parent.aborted) controller.abort(parent.reason);
    else parent.addEventListener("abort", onAbort, { once: true });
  }
  const id =
    timeout > 0 && Number.isFinite(timeout)
      ? setTimeout(() => {
          expired = true;
          controller.abort();
        }, timeout)
      : undefined;
  return {
    signal: controller.signal,
    expired: () => expired,
    clear: () => {
      clearTimeout(id);
      for (const parent of signals) parent.removeEventListener("abort", onAbort);
    },
  };
}

/** A random version 4 UUID. */
function randomKey(): string {
  // randomUUID exists only in secure contexts in browsers: elsewhere each `x` of the template gets
  // 4 random bits, and `y` the variant bits `10` and 2 random bits.
  return (
    crypto.randomUUID?.() ??
    "xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx".replace(/[xy]/g, (c) => {
      const bits = (crypto.getRandomValues(new Uint8Array(1))[0] ?? 0) & 15;
      return (c === "x" ? bits : (bits & 3) | 8).toString(16);
    })
  );
}
