/**
 * What both call paths of the gRPC server share (Connect's handlers, and the HTTP/2 gRPC path of
 * `grpc-http2.ts`): the context a handler gets, the auth hooks, and how a thrown value becomes a
 * status. Each handler is wrapped once, and the same wrapped function serves both paths.
 */
import type { DescMethod, DescService } from "@bufbuild/protobuf";
import { Code, ConnectError, createContextKey, type ContextValues } from "@connectrpc/connect";

export type MaybePromise<T> = T | Promise<T>;

/** One call as a context reads it. Connect's `HandlerContext` has this shape; so has an HTTP/2 call. */
export interface CallState {
  readonly requestHeader: Headers;
  readonly responseHeader: Headers;
  readonly responseTrailer: Headers;
  readonly signal: AbortSignal;
  readonly method: DescMethod;
  readonly protocolName: string;
  /** Holds `ADMITTED`: the caller, as the server admitted it from the headers before reading the body. */
  readonly values: ContextValues;
  timeoutMs(): number | undefined;
}

/** What the auth hooks decided for a call, before its body was read (`grpc-admission.ts`). */
export interface Admitted {
  principal: unknown;
}

/** Where a call keeps its `Admitted`; undefined when nobody admitted it. */
export const ADMITTED = createContextKey<Admitted | undefined>(undefined, { description: "the admitted caller" });

/** What a handler gets besides its request: metadata, deadline, cancellation and the caller. */
export class GrpcCallContext<Principal = unknown> {
  /** What `authenticate` returned for this call (undefined when the server has no `authenticate`). */
  readonly principal: Principal;
  private readonly call: CallState;

  constructor(call: CallState, principal: Principal) {
    this.call = call;
    this.principal = principal;
  }

  // Getters, so a call pays for headers and an AbortController only when its handler reads them.

  /** Request metadata (HTTP headers, lower-case names): `authorization`, `traceparent`, ... */
  get metadata(): Headers {
    return this.call.requestHeader;
  }

  /** Response metadata sent before the first message; set it before returning or yielding. */
  get responseHeaders(): Headers {
    return this.call.responseHeader;
  }

  /** Response metadata sent after the last message. */
  get responseTrailers(): Headers {
    return this.call.responseTrailer;
  }

  /** Aborts when the deadline passes, the client cancels, or the call ends; pass it on to I/O. */
  get signal(): AbortSignal {
    return this.call.signal;
  }

  /** The method being called: `method.name` (`GetTask`), `method.parent.typeName` (the service). */
  get method(): DescMethod {
    return this.call.method;
  }

  /** "grpc", "grpc-web", "connect", or "http" for a REST route of a `google.api.http` rule. */
  get protocol(): string {
    return this.call.protocolName;
  }

  /** Milliseconds left until the caller's deadline, or undefined when it set none. */
  timeoutMs(): number | undefined {
    return this.call.timeoutMs();
  }
}

/** A wrapped handler: a promise (unary, client streaming) or an async iterable (server streaming, bidi). */
export type CallHandler = (input: unknown, call: CallState) => Promise<unknown> | AsyncIterable<unknown>;

/** What every wrapped method shares: the hooks and the error reporter. */
export interface Hooks {
  authenticate?: ((metadata: Headers, method: DescMethod) => MaybePromise<unknown>) | undefined;
  authorize?: ((principal: unknown, method: DescMethod, metadata: Headers) => MaybePromise<boolean>) | undefined;
  onError: (error: unknown, method: DescMethod) => void;
}

type AnyHandler = (input: unknown, context: GrpcCallContext<unknown>) => unknown;

/**
 * The methods of `service` that `handlers` implements, by `localName`, each behind auth and error
 * handling. A method left out is not served (the client gets UNIMPLEMENTED). What happens to an
 * answer that comes after the deadline is each path's business (`connectMethods`, `Http2Call`).
 */
export function implement(service: DescService, handlers: object, hooks: Hooks): Map<string, CallHandler> {
  const implementation = new Map<string, CallHandler>();
  for (const method of service.methods) {
    const handler = (handlers as Record<string, AnyHandler | undefined>)[method.localName];
    if (typeof handler !== "function") continue;
    const call = handler.bind(handlers);
    implementation.set(
      method.localName,
      method.methodKind === "server_streaming" || method.methodKind === "bidi_streaming"
        ? streaming(method, call, hooks)
        : single(method, call, hooks),
    );
  }
  return implementation;
}

/** Unary and client streaming: one answer. */
function single(method: DescMethod, handler: AnyHandler, hooks: Hooks) {
  return async (input: unknown, call: CallState): Promise<unknown> => {
    try {
      const principal = hooks.authenticate ? admittedPrincipal(call) : undefined;
      return await handler(input, new GrpcCallContext(call, principal));
    } catch (error) {
      throw failure(error, method, call, hooks);
    }
  };
}

/** Server and bidirectional streaming: many answers. */
function streaming(method: DescMethod, handler: AnyHandler, hooks: Hooks) {
  return async function* (input: unknown, call: CallState): AsyncIterable<unknown> {
    try {
      const principal = hooks.authenticate ? admittedPrincipal(call) : undefined;
      yield* handler(input, new GrpcCallContext(call, principal)) as AsyncIterable<unknown>;
    } catch (error) {
      throw failure(error, method, call, hooks);
    }
  };
}

/**
 * Runs the auth hooks on the request metadata alone (the server calls this before it reads a body);
 * returns the admission or throws UNAUTHENTICATED / PERMISSION_DENIED (or what a hook threw).
 */
export async function admit(method: DescMethod, metadata: Headers, hooks: Hooks): Promise<Admitted> {
  const principal = await hooks.authenticate!(metadata, method);
  if (principal === undefined || principal === null) throw new ConnectError("missing or invalid credentials", Code.Unauthenticated);
  if (hooks.authorize && !(await hooks.authorize(principal, method, metadata))) {
    throw new ConnectError(`not allowed to call ${method.name}`, Code.PermissionDenied);
  }
  return { principal };
}

/** The principal admitted before the body was read; a call nobody admitted is refused (fail closed). */
function admittedPrincipal(call: CallState): unknown {
  const admitted = call.values.get(ADMITTED);
  if (admitted === undefined) throw new ConnectError("missing or invalid credentials", Code.Unauthenticated);
  return admitted.principal;
}

/**
 * What a thrown value becomes on the wire: a `ConnectError` as it is; the deadline or the client's
 * cancellation when the call was aborted (a handler's I/O often fails with its own AbortError
 * then); anything else INTERNAL with a generic message, logged here, so no stack trace or
 * database error reaches a client.
 */
function failure(error: unknown, method: DescMethod, call: CallState, hooks: Hooks): ConnectError {
  if (error instanceof ConnectError) return error;
  if (call.signal.aborted) return ConnectError.from(call.signal.reason, Code.Canceled);
  hooks.onError(error, method);
  return new ConnectError("internal error", Code.Internal);
}
