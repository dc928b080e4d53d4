/**
 * What a call of a generated REST client answers: the response (`ApiResponse`), the promise that
 * also offers it (`ApiPromise`), and the errors a call throws (`ApiError` for an error status, one
 * class per other kind of failure, all `ClientError`s). The client core (`http.ts`) creates them;
 * apps import them through the generated `client.ts`.
 */
import { ClientError } from "./client-common.js";

/**
 * One response: its status, headers and parsed body.
 * @public
 */
export interface ApiResponse<Status extends number = number, Data = unknown> {
  status: Status;
  headers: Headers;
  data: Data;
}

/**
 * The promise an operation returns. Awaited, it gives the response body; `withResponse()` gives
 * `{ status, headers, data }`, typed per status. The request starts when the method is called.
 * @public
 */
export class ApiPromise<T, R = ApiResponse> extends Promise<T> {
  // `R` (the operation's responses) is not constrained to `ApiResponse`: tsc would check every
  // generated method's `ApiPromise<Result, Response>` against it (1.3k of GitHub's client.ts's checks).

  // Derived promises (then/catch/finally) are plain Promises.
  static override get [Symbol.species](): PromiseConstructor {
    return Promise;
  }

  readonly #response: Promise<R>;

  constructor(response: Promise<R>) {
    // The base promise never settles: every way of reading this one goes through `then` below.
    super(() => undefined);
    this.#response = response;
  }

  /** Resolves to the whole response instead of only its body. */
  withResponse(): Promise<R> {
    return this.#response;
  }

  override then<A = T, B = never>(
    onfulfilled?: ((value: T) => A | PromiseLike<A>) | null,
    onrejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    return this.#response.then((response) => (response as ApiResponse).data as T).then(onfulfilled, onrejected);
  }
}

/** Shape of an operation's error responses. */
export interface ErrorResponse {
  status: number;
  headers: Headers;
  data: unknown;
}

/**
 * What the errors of a sent request share: the operation, the method and the URL.
 * @public
 */
export abstract class ApiRequestError extends ClientError {
  readonly method: string;
  readonly url: string;

  constructor(operation: string, method: string, url: string, message: string, cause?: unknown) {
    super(operation, `${operation}: ${method} ${url} ${message}`, { cause });
    this.method = method;
    this.url = url;
  }
}

/**
 * What the errors of an answered request share: its status, headers and parsed body.
 * @public
 */
export abstract class ApiResponseError extends ApiRequestError {
  readonly status: number;
  readonly headers: Headers;
  readonly data: unknown;

  constructor(operation: string, method: string, url: string, response: ErrorResponse, message: string, cause?: unknown) {
    super(operation, method, url, message, cause);
    this.status = response.status;
    this.headers = response.headers;
    this.data = response.data;
  }
}

/**
 * The server answered with a status that is not 2xx (after any retries). `data` is the parsed body,
 * typically Problem Details; narrow `status` to get the body type of that response.
 * @public
 */
export class ApiError<R extends ErrorResponse = ErrorResponse> extends ApiResponseError {
  override readonly name = "ApiError";
  readonly kind = "response";
  declare readonly status: R["status"];
  declare readonly data: R["data"];

  constructor(operation: string, method: string, url: string, response: R, statusText = "") {
    const { title, detail } = (response.data ?? {}) as { title?: unknown; detail?: unknown };
    const text = [title, detail].filter((part) => typeof part === "string" && part !== "").join(": ");
    super(operation, method, url, response, `failed: ${response.status}${statusText && ` ${statusText}`}${text && ` (${text})`}`);
  }
}

/**
 * `ApiError<A> | ApiError<B>` for responses `A | B`, so that checking `status` narrows `data`.
 * Unconstrained (the condition keeps the error responses): a constraint would make `tsc` relate
 * every operation's error responses to `ErrorResponse` where `isApiError` names `<Api>Errors[K]`.
 */
export type ApiErrorFor<R> = R extends ErrorResponse ? ApiError<R> : never;

/**
 * Every error a call of an operation with error responses `R` rejects with: its `ApiError`s (narrow
 * `status` to type `data`), or a failure without a usable answer; `kind` tells them apart. The
 * error type of the generated TanStack Query options (`query.ts`).
 * @public
 */
export type ApiCallError<R> =
  | ApiErrorFor<R>
  | ApiNetworkError
  | ApiTimeoutError
  | ApiParameterError
  | ApiRedirectError
  | ApiResponseTooLargeError
  | ApiInvalidResponseError;

/**
 * The request never got a response: DNS, connection refused or reset, CORS, ...
 * @public
 */
export class ApiNetworkError extends ApiRequestError {
  override readonly name = "ApiNetworkError";
  readonly kind = "network";

  constructor(operation: string, method: string, url: string, cause: unknown) {
    super(operation, method, url, `failed: ${(cause as Error).message}`, cause);
  }
}

/**
 * An attempt took longer than the `timeout` option (after any retries).
 * @public
 */
export class ApiTimeoutError extends ApiRequestError {
  override readonly name = "ApiTimeoutError";
  readonly kind = "timeout";
  /** The limit, in milliseconds. */
  readonly timeout: number;

  constructor(operation: string, method: string, url: string, timeout: number) {
    super(operation, method, url, `timed out after ${timeout} ms`);
    this.timeout = timeout;
  }
}

/**
 * A parameter the client refuses to send, before any request is made: a missing path parameter,
 * or one that would fill a path segment with nothing, `.` or `..` (which URL parsers, the WHATWG
 * one in `fetch` included, resolve as dot segments even when percent-encoded: `{ taskId: ".." }`
 * would reach the parent collection).
 * @public
 */
export class ApiParameterError extends ClientError {
  override readonly name = "ApiParameterError";
  readonly kind = "invalid-request";
  /** The parameter's name on the wire. */
  readonly parameter: string;

  constructor(operation: string, parameter: string, problem: string) {
    super(operation, `${operation}: path parameter ${JSON.stringify(parameter)} ${problem}`);
    this.parameter = parameter;
  }
}

/**
 * The server answered with a redirect the client does not follow: to another origin (credentials
 * and headers go only to the configured origin), more than 20 in a row, or any redirect in a
 * browser, where `fetch` hides the target of a redirect it does not follow itself.
 * @public
 */
export class ApiRedirectError extends ApiRequestError {
  override readonly name = "ApiRedirectError";
  readonly kind = "redirect";
  /** The redirect's status (0 in browsers, which hide it). */
  readonly status: number;
  /** The resolved `Location`, when it could be read. */
  readonly location: string | undefined;

  constructor(operation: string, method: string, url: string, status: number, location: string | undefined, reason: string) {
    super(
      operation,
      method,
      url,
      `was redirected${location === undefined ? "" : ` to ${location}`}, which the client does not follow: ${reason}`,
    );
    this.status = status;
    this.location = location;
  }
}

/**
 * The response body is larger than `maxResponseBytes`; reading stopped there.
 * @public
 */
export class ApiResponseTooLargeError extends ApiRequestError {
  override readonly name = "ApiResponseTooLargeError";
  readonly kind = "too-large";
  readonly status: number;
  /** The limit, in bytes. */
  readonly limit: number;

  constructor(operation: string, method: string, url: string, status: number, limit: number) {
    super(operation, method, url, `answered ${status} with a body larger than maxResponseBytes (${limit} bytes)`);
    this.status = status;
    this.limit = limit;
  }
}

/**
 * Checks a 2xx response before the call resolves with it, and throws to refuse it: what the
 * `validateResponses` option takes (`responseValidators` of the generated `response-validators.ts`).
 * @public
 */
export type ResponseValidators = (operation: string, method: string, url: string, response: ApiResponse) => void;

/**
 * A 2xx body is not what its media type says (JSON that does not parse), or, with
 * `validateResponses`, not what its schema says (then it is a `ResponseValidationError`).
 * @public
 */
export class ApiInvalidResponseError extends ApiResponseError {
  override readonly name: string = "ApiInvalidResponseError";
  readonly kind = "invalid-response";

  constructor(operation: string, method: string, url: string, response: ApiResponse, problem: string, cause?: unknown) {
    super(operation, method, url, response, `answered ${response.status} with a body that ${problem}`, cause);
  }
}
