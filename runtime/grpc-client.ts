/**
 * What the Node and the browser gRPC clients share: the options every generated client takes
 * (`CommonClientOptions` plus `baseUrl`, `token`, `retry`), the interceptors that apply them to
 * every call, and `GrpcError`, the `ClientError` every call rejects with. Per call, Connect's
 * `CallOptions` add `timeoutMs`, `signal`, `headers`, and `onHeader` / `onTrailer`.
 */
import type { DescMessage, DescMethod, DescService, MessageShape } from "@bufbuild/protobuf";
import { Code, ConnectError, createClient, type Client, type Interceptor, type Transport } from "@connectrpc/connect";
import {
  backoffDelay,
  ClientError,
  resolveCredential,
  resolveHeaders,
  type ClientErrorKind,
  type CommonClientOptions,
  type Credential,
  type RetryOptions,
} from "./client-common.js";

/** @public */
export type { CallOptions, Interceptor } from "@connectrpc/connect";
/** @public */
export { Code, ConnectError } from "@connectrpc/connect";

/** @public */
export interface GrpcClientOptions extends CommonClientOptions {
  /** The server, e.g. `http://127.0.0.1:8080` or `https://api.example.com`. */
  baseUrl: string;
  /**
   * Sent as `authorization: Bearer <token>` metadata on every call; a function is asked before
   * each call (refresh there), and `undefined` sends no credentials.
   */
  token?: Credential;
  /**
   * Retrying of unary calls that fail with `Unavailable` (the status gRPC defines as transient,
   * and the one gRPC's retry policy examples retry on), within the call's deadline. Streams are
   * never retried: their messages cannot be sent again. Default `{ maxRetries: 2 }`; `false` turns it off.
   */
  retry?: RetryOptions | false;
  /** Run around every call, outermost first (logging, tracing). */
  interceptors?: Interceptor[];
}

/**
 * A failed call. `code`, `rawMessage`, `metadata` and `details` are Connect's (`cause` is the
 * original `ConnectError`, so `ConnectError.from(error.cause)` and `findDetails` work as in
 * Connect); `kind` says why in the words of every generated client: `timeout` (the deadline
 * passed), `network` (no answer: connection refused or lost, the call canceled), `too-large` (a
 * response message over `readMaxBytes`), `response` (a status the server sent).
 * @public
 */
export class GrpcError extends ClientError {
  override name = "GrpcError";
  readonly kind: ClientErrorKind;
  readonly code: Code;
  readonly rawMessage: string;
  readonly metadata: Headers;
  readonly details: ConnectError["details"];

  constructor(operation: string, error: ConnectError) {
    super(operation, error.message, { cause: error });
    this.code = error.code;
    this.rawMessage = error.rawMessage;
    this.metadata = error.metadata;
    this.details = error.details;
    this.kind = kindOf(error);
  }

  /** The error details of type `desc` the server attached (Connect's `findDetails`). */
  findDetails<Desc extends DescMessage>(desc: Desc): MessageShape<Desc>[] {
    return (this.cause as ConnectError).findDetails(desc);
  }
}

/** Without any response metadata the server never answered: the status is the client's own. */
function kindOf(error: ConnectError): ClientErrorKind {
  if (error.code === Code.DeadlineExceeded) return "timeout";
  const answered = [...error.metadata.keys()].length > 0;
  if (answered) return "response";
  return error.code === Code.ResourceExhausted ? "too-large" : "network";
}

/** `error` as a `GrpcError` of `operation` (a `GrpcError` stays as it is). */
export function toGrpcError(error: unknown, operation: string): GrpcError {
  return error instanceof GrpcError ? error : new GrpcError(operation, ConnectError.from(error));
}

/**
 * Connect's client of `service` whose calls reject with `GrpcError`. The methods are wrapped
 * rather than the errors converted by an interceptor: Connect turns anything an interceptor
 * throws back into a `ConnectError`, and some errors (a missing response message) arise after
 * the interceptors.
 */
export function serviceClient<S extends DescService>(service: S, transport: Transport): Client<S> {
  const connect = createClient(service, transport) as Record<string, (...args: unknown[]) => unknown>;
  const client: Record<string, unknown> = {};
  for (const method of service.methods) {
    const call = connect[method.localName];
    if (call === undefined) continue;
    const operation = `${service.typeName}/${method.name}`;
    client[method.localName] = streamsResponse(method)
      ? (...args: unknown[]) => rethrowing(call(...args) as AsyncIterable<unknown>, operation)
      : (...args: unknown[]) =>
          (call(...args) as Promise<unknown>).catch((error: unknown) => Promise.reject(toGrpcError(error, operation)));
  }
  return client as Client<S>;
}

function streamsResponse(method: DescMethod): boolean {
  return method.methodKind === "server_streaming" || method.methodKind === "bidi_streaming";
}

async function* rethrowing<T>(messages: AsyncIterable<T>, operation: string): AsyncGenerator<T, void, undefined> {
  try {
    yield* messages;
  } catch (error) {
    throw toGrpcError(error, operation);
  }
}

/** The interceptors `options` ask for: the caller's, the client's signal, retries, then metadata and credentials. */
export function clientInterceptors(options: GrpcClientOptions): Interceptor[] {
  const interceptors = [...(options.interceptors ?? [])];
  const { headers, token, signal, retry } = options;
  if (signal !== undefined) interceptors.push(linkSignal(signal));
  if (retry !== false) interceptors.push(retryUnavailable(retry ?? {}));
  if (headers !== undefined || token !== undefined) {
    // Per-call headers win over the client's; an `authorization` header wins over the token.
    interceptors.push((next) => async (request) => {
      for (const [name, value] of await resolveHeaders(headers)) if (!request.header.has(name)) request.header.set(name, value);
      const value = await resolveCredential(token);
      if (value !== undefined && !request.header.has("authorization")) request.header.set("authorization", `Bearer ${value}`);
      return next(request);
    });
  }
  return interceptors;
}

/** The deadline option as Connect's transports take it (they treat 0 as "already passed"). */
export function timeoutSettings(options: GrpcClientOptions): { defaultTimeoutMs?: number } {
  return options.timeout !== undefined && options.timeout > 0 ? { defaultTimeoutMs: options.timeout } : {};
}

/** Aborts each call when the client's `signal` aborts; forgets the call once it ended (Connect aborts its signal then). */
function linkSignal(signal: AbortSignal): Interceptor {
  return (next) => (request) => {
    const controller = new AbortController();
    const abort = (): void => controller.abort(signal.reason);
    const end = (): void => {
      signal.removeEventListener("abort", abort);
      controller.abort(request.signal.reason);
    };
    if (signal.aborted) abort();
    else signal.addEventListener("abort", abort, { once: true });
    if (request.signal.aborted) end();
    else request.signal.addEventListener("abort", end, { once: true });
    return next({ ...request, signal: controller.signal } as typeof request);
  };
}

/** Unary calls again after `Unavailable`, with full-jitter exponential backoff, while the call's signal allows. */
function retryUnavailable(retry: RetryOptions): Interceptor {
  const maxRetries = retry.maxRetries ?? 2;
  const baseDelay = retry.baseDelay ?? 500;
  const maxDelay = retry.maxDelay ?? 30_000;
  return (next) => async (request) => {
    if (request.stream) return next(request);
    for (let attempt = 0; ; attempt++) {
      try {
        return await next(request);
      } catch (error) {
        if (attempt >= maxRetries || request.signal.aborted || ConnectError.from(error).code !== Code.Unavailable) throw error;
        await sleep(backoffDelay(attempt, baseDelay, maxDelay), request.signal);
      }
    }
  };
}

/** Resolves after `ms`, or at once when `signal` aborts (the next attempt then fails as canceled). */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}
