/**
 * The runtime of a generated gRPC server. Connect's node adapter speaks the three protocols; this
 * file adds what the conventions ask around it:
 * - one port for HTTP/2 without TLS (gRPC) and HTTP/1.1 (gRPC-Web, Connect's JSON protocol, plain
 *   `fetch`): the first bytes of a connection decide, since the HTTP/2 preface starts `PRI *`;
 * - plain gRPC calls over HTTP/2 served on their streams by `grpc-http2.ts` instead of Connect, for
 *   throughput (the same handlers, hooks and statuses; anything else still goes to Connect);
 * - authentication and authorization hooks answering UNAUTHENTICATED and PERMISSION_DENIED, run on
 *   the headers before any body is read (`grpc-admission.ts`);
 * - limits with defaults (`grpc-limits.ts`): concurrent streams per HTTP/2 session, idle streams and
 *   sessions, the first bytes of a connection, deadlines a timer can hold;
 * - INTERNAL with a generic message for anything a handler throws that is not a `ConnectError`
 *   (logged, never sent), and DEADLINE_EXCEEDED for a handler that outlives its deadline;
 * - CORS with an allow-list, exposing the gRPC-Web and Connect headers browsers need;
 * - `grpc.health.v1.Health`, and a shutdown that drains calls before it cancels them;
 * - server reflection (`grpc-reflection.ts`) outside production, for grpcurl, grpcui and Postman.
 */
import { setMaxListeners } from "node:events";
import type { IncomingMessage, ServerResponse } from "node:http";
import { createServer as createHttp2Server, type Http2ServerRequest, type Http2ServerResponse, type Http2Session } from "node:http2";
import { createServer as createNetServer, type AddressInfo, type Server, type Socket } from "node:net";
import { createHttpServer, type HttpServerOptions } from "./http-listener.js";
import type { DescMethod, DescService } from "@bufbuild/protobuf";
import {
  Code,
  ConnectError,
  cors as connectCors,
  createContextValues,
  type ConnectRouter,
  type MethodImpl,
  type ServiceImpl,
} from "@connectrpc/connect";
import { connectNodeAdapter } from "@connectrpc/connect-node";
import { applyCors, CorsPolicy, type CorsOptions, type CorsSurface } from "./cors-policy.js";
import { admission, streamAdmission } from "./grpc-admission.js";
import { ADMITTED, implement, type Admitted, type CallHandler, type CallState, type Hooks, type MaybePromise } from "./grpc-call.js";
import { closeIdleSessions, dropUnholdableDeadline, resolveLimits, watchRequest } from "./grpc-limits.js";
import { Health, HealthStatus, healthService } from "./grpc-health.js";
import { ReflectionIndex, reflectionService, ServerReflectionV1, ServerReflectionV1Alpha } from "./grpc-reflection.js";
import { Http2Grpc, interceptStreams, type Http2Route } from "./grpc-http2.js";
import { Transcoder, type HttpRules } from "./grpc-transcoding.js";

/** @public */
export { Code, ConnectError } from "@connectrpc/connect";
/** @public */
export { GrpcCallContext, type MaybePromise } from "./grpc-call.js";
/** @public */
export { HealthStatus, ServingStatus } from "./grpc-health.js";

/**
 * CORS for browser clients (gRPC-Web, Connect): the options every generated server takes.
 * @public
 */
export type GrpcCorsOptions = CorsOptions;

/** @public */
export interface GrpcServerOptions<Principal = unknown> {
  /**
   * Limits of the HTTP/1.1 side (gRPC-Web and Connect): request head size and how long the head
   * and the whole request may take to arrive (defaults 16 KiB, 20 s, 60 s; see `http-listener.ts`).
   */
  http1?: HttpServerOptions;
  /**
   * Who is calling, from the request metadata; runs before every call of a generated service
   * (not health checks), before the request body is read. Nothing (undefined or null) answers
   * UNAUTHENTICATED; throw a `ConnectError` to answer something else.
   */
  authenticate?: (metadata: Headers, method: DescMethod) => MaybePromise<Principal | null | undefined>;
  /** Whether `principal` may call `method`; false answers PERMISSION_DENIED. */
  authorize?: (principal: Principal, method: DescMethod, metadata: Headers) => MaybePromise<boolean>;
  /** CORS for browsers; without it, cross-origin pages cannot call the server. */
  cors?: GrpcCorsOptions;
  /** Largest request message in bytes; larger ones answer RESOURCE_EXHAUSTED. Default 4 MiB. */
  readMaxBytes?: number;
  /**
   * Longest deadline a client may ask for; longer ones answer INVALID_ARGUMENT. At most 2^31-1
   * (~24.8 days). Default none: a deadline longer than 2^31-1 ms counts as no deadline (as in grpc-go).
   */
  maxTimeoutMs?: number;
  /** HTTP/2 SETTINGS_MAX_CONCURRENT_STREAMS: streams beyond it are refused (REFUSED_STREAM). Default 100. */
  maxConcurrentStreams?: number;
  /** A new connection must show HTTP/2 or HTTP/1.1 within this many ms, or it is closed. Default 10000. */
  sniffTimeoutMs?: number;
  /**
   * An HTTP/2 request that sends nothing for this long before it is complete (for streaming requests:
   * while a message is half in) is reset with CANCEL. Default 30000.
   */
  streamIdleTimeoutMs?: number;
  /** An HTTP/2 session with no open stream for this long is closed (GOAWAY). Default 60000. */
  sessionIdleTimeoutMs?: number;
  /** Serve `grpc.health.v1.Health`. Default true. */
  health?: boolean;
  /**
   * Serve server reflection (`grpc.reflection.v1` and `v1alpha`): the services' schema for
   * grpcurl, grpcui, Postman. `true`: like health checks, without `authenticate`/`authorize`;
   * `"authenticated"`: behind them, as a generated service (`method.parent` tells it apart).
   * Default: `true` unless `NODE_ENV` is `production`, where it is off.
   */
  reflection?: boolean | "authenticated";
  /** How long `close()` lets calls finish before cancelling them (UNAVAILABLE). Default 5000. */
  shutdownGraceMs?: number;
  /** Where errors a handler throws that are not `ConnectError`s go. Default `console.error`. */
  onError?: (error: unknown, method: DescMethod) => void;
}

/**
 * A request listener for `http.createServer` or `http2.createServer` (CORS included).
 * @public
 */
export type GrpcRequestHandler = (request: IncomingMessage | Http2ServerRequest, response: ServerResponse | Http2ServerResponse) => void;

/** @public */
export interface GrpcServer {
  /** Accepts HTTP/2 (gRPC) and HTTP/1.1 (gRPC-Web, Connect) on one port. */
  readonly server: Server;
  /**
   * The same services as a request listener, to mount on a server of your own. (There, plain gRPC
   * calls go through Connect too; `server` serves them on their HTTP/2 streams, at less CPU per call.)
   */
  readonly handler: GrpcRequestHandler;
  /** Serving status per service, as `grpc.health.v1.Health` reports it. */
  readonly health: HealthStatus;
  /** Starts listening; resolves with the port (useful with port 0). */
  listen(port: number, host?: string): Promise<number>;
  /** Reports NOT_SERVING, stops accepting, lets calls finish for `shutdownGraceMs`, then cancels them. */
  close(): Promise<void>;
}

/** One service to serve: its descriptor and the handlers, by method `localName`. */
export interface ServiceBinding {
  service: DescService;
  handlers: object;
  /** REST routes of the methods, from their `google.api.http` rules (`grpc-transcoding.ts`). */
  http?: HttpRules;
}

const HTTP2_PREFACE = Buffer.from("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", "latin1");

/** Serves `bindings` (plus health checks) with Connect on one port; see the file's comment. */
export function serveGrpc<Principal>(bindings: readonly ServiceBinding[], options: GrpcServerOptions<Principal> = {}): GrpcServer {
  const hooks: Hooks = {
    authenticate: options.authenticate,
    // Called only with what `authenticate` returned, which is a Principal.
    authorize: options.authorize as Hooks["authorize"],
    onError: options.onError ?? ((error, method) => console.error(`grpc: ${method.parent.typeName}/${method.name} failed:`, error)),
  };
  const health = new HealthStatus(bindings.map((binding) => binding.service.typeName));
  const served = bindings.map(({ service, handlers }) => ({ service, methods: implement(service, handlers, hooks) }));
  // Health checks come without credentials: the same wrapping, without the auth hooks.
  if (options.health !== false)
    served.push({ service: Health, methods: implement(Health, healthService(health), { onError: hooks.onError }) });
  // Reflection only describes what is served, its own two versions included; no auth unless asked.
  const reflection = options.reflection ?? process.env["NODE_ENV"] !== "production";
  if (reflection !== false) {
    const index = new ReflectionIndex([...served.map(({ service }) => service), ServerReflectionV1, ServerReflectionV1Alpha]);
    const reflectionHooks = reflection === "authenticated" ? hooks : { onError: hooks.onError };
    for (const service of [ServerReflectionV1, ServerReflectionV1Alpha])
      served.push({ service, methods: implement(service, reflectionService(index), reflectionHooks) });
  }
  const shutdown = new AbortController();
  setMaxListeners(0, shutdown.signal); // every running call listens to it
  const readMaxBytes = options.readMaxBytes ?? 4 * 1024 * 1024;
  const limits = resolveLimits(options);
  const admittedCalls = new WeakMap<object, Admitted>();
  const adapter = connectNodeAdapter({
    grpc: true,
    grpcWeb: true,
    connect: true,
    readMaxBytes,
    ...(limits.maxTimeoutMs !== undefined ? { maxTimeoutMs: limits.maxTimeoutMs } : {}),
    shutdownSignal: shutdown.signal,
    // The caller admitted before Connect read the body (see `admission` below).
    contextValues: (request) => createContextValues().set(ADMITTED, admittedCalls.get(request)),
    routes(router: ConnectRouter) {
      for (const { service, methods } of served) router.service(service, connectMethods(service, methods));
    },
  });
  const routes = new Map<string, Http2Route>();
  for (const { service, methods } of served) {
    for (const method of service.methods) {
      const handler = methods.get(method.localName);
      if (handler) routes.set(`/${service.typeName}/${method.name}`, { method, handler });
    }
  }
  // REST routes from `google.api.http` rules, on the same port, through the same wrapped handlers.
  const transcoded = bindings.flatMap(({ service, http }, i) => (http ? [{ service, methods: served[i]!.methods, http }] : []));
  const transcoder =
    transcoded.length > 0
      ? new Transcoder(transcoded, new Set(routes.keys()), {
          hooks,
          readMaxBytes,
          shutdownSignal: shutdown.signal,
          maxTimeoutMs: limits.maxTimeoutMs,
        })
      : undefined;
  const grpc = new Http2Grpc(routes, {
    readMaxBytes,
    maxTimeoutMs: limits.maxTimeoutMs,
    streamIdleTimeoutMs: limits.streamIdleTimeoutMs,
    shutdownSignal: shutdown.signal,
    cors: options.cors !== undefined,
  });
  // Generated services authenticate before their body is read; health checks and reflection do not.
  const open = new Set<DescService>(reflection === "authenticated" ? [Health] : [Health, ServerReflectionV1, ServerReflectionV1Alpha]);
  const guarded = new Map<string, DescMethod>();
  for (const [path, { method }] of routes) if (!open.has(method.parent)) guarded.set(path, method);
  const admitted = admission(guarded, hooks, (request, response, call) => {
    if (call !== undefined) admittedCalls.set(request, call);
    (adapter as GrpcRequestHandler)(request, response);
  });
  const admittedStream = streamAdmission<Http2Route>(guarded, hooks, (stream, headers, route, call) =>
    grpc.serve(stream, headers, route, call),
  );
  const limited: GrpcRequestHandler = (request, response) => {
    dropUnholdableDeadline(request);
    // Streaming requests rest between messages at will; `grpc-http2.ts` watches them inside one.
    const kind = routes.get(request.url ?? "")?.method.methodKind;
    if (kind !== "client_streaming" && kind !== "bidi_streaming") watchRequest(request, response, limits.streamIdleTimeoutMs);
    if (transcoder?.serve(request, response)) return;
    admitted(request, response);
  };
  const handler: GrpcRequestHandler = options.cors
    ? withCors(
        limited,
        new CorsPolicy(
          options.cors,
          transcoder ? { ...GRPC_CORS, methods: [...new Set([...GRPC_CORS.methods, ...transcoder.methods])] } : GRPC_CORS,
        ),
      )
    : limited;

  // gRPC-Web and Connect over HTTP/1.1: the same hardened listener as every other style's server.
  const http1 = createHttpServer(handler as (request: IncomingMessage, response: ServerResponse) => void, options.http1);
  const http2 = createHttp2Server({ settings: { maxConcurrentStreams: limits.maxConcurrentStreams } }, handler);
  // Plain gRPC calls are served on their streams (`grpc-http2.ts`); the rest become requests for `handler`.
  interceptStreams(http2, (stream, headers) => {
    const route = grpc.route(headers);
    if (route === undefined) return false;
    grpc.accept(stream, route);
    admittedStream(stream, headers, route);
    return true;
  });
  closeIdleSessions(http2, limits.sessionIdleTimeoutMs);
  const sessions = new Set<Http2Session>();
  http2.on("session", (session: Http2Session) => {
    sessions.add(session);
    session.once("close", () => sessions.delete(session));
  });
  const sockets = new Set<Socket>();
  const server = createNetServer((socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
    dispatch(socket, http1, http2, limits.sniffTimeoutMs);
  });
  // The HTTP/1.1 server never listens itself, but its connection tracking (idle connections for
  // close(), the headers and request timeouts against slow clients) starts on "listening".
  server.once("listening", () => http1.emit("listening"));

  return {
    server,
    handler,
    health,
    listen(port, host) {
      return new Promise((resolve, reject) => {
        server.once("error", reject);
        server.listen(port, host, () => {
          server.off("error", reject);
          resolve((server.address() as AddressInfo).port);
        });
      });
    },
    close() {
      health.shutdown();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // GOAWAY: clients stop starting calls here; running calls go on until the grace period ends.
      for (const session of sessions) session.close();
      http1.close(); // closes idle keep-alive connections, stops the timeout checks
      const force = setTimeout(() => {
        shutdown.abort(new ConnectError("the server is shutting down", Code.Unavailable));
        // Let the cancellations reach the clients, then drop whatever is still connected.
        setImmediate(() => {
          for (const socket of sockets) socket.destroy();
        });
      }, options.shutdownGraceMs ?? 5000);
      return closed.then(() => clearTimeout(force));
    },
  };
}

/** Hands a new connection to the HTTP/2 or the HTTP/1.1 server, by its first bytes. */
function dispatch(
  socket: Socket,
  http1: ReturnType<typeof createHttpServer>,
  http2: ReturnType<typeof createHttp2Server>,
  sniffTimeoutMs: number,
): void {
  let head: Buffer | undefined;
  const fail = () => socket.destroy();
  // Silent, or a preface that never completes: closed, as the HTTP server's headers timeout would.
  const sniffing = setTimeout(fail, sniffTimeoutMs);
  socket.once("close", () => clearTimeout(sniffing));
  const onData = (chunk: Buffer) => {
    head = head ? Buffer.concat([head, chunk]) : chunk;
    const length = Math.min(head.length, HTTP2_PREFACE.length);
    const http2Preface = head.subarray(0, length).equals(HTTP2_PREFACE.subarray(0, length));
    if (http2Preface && length < HTTP2_PREFACE.length) return; // a prefix of the preface: wait
    clearTimeout(sniffing);
    socket.off("data", onData);
    socket.off("error", fail);
    socket.off("end", fail);
    socket.pause();
    socket.unshift(head);
    if (http2Preface) {
      // The HTTP/2 session reads the socket itself, buffered bytes first.
      http2.emit("connection", socket);
    } else {
      http1.emit("connection", socket);
      socket.resume();
    }
  };
  socket.on("data", onData);
  socket.on("error", fail);
  socket.on("end", fail);
}

/**
 * The wrapped handlers as Connect's implementation (its `HandlerContext` is their call state). Connect
 * would send an answer that comes after the deadline, or a stream cut short by it or by a shutdown,
 * as if all were well; the client has given up by then, so the call ends with the abort's reason.
 */
function connectMethods(service: DescService, methods: ReadonlyMap<string, CallHandler>): Partial<ServiceImpl<DescService>> {
  const implementation: Partial<ServiceImpl<DescService>> = {};
  const late = (call: CallState) => ConnectError.from(call.signal.reason, Code.Canceled);
  for (const method of service.methods) {
    const handler = methods.get(method.localName);
    if (handler === undefined) continue; // Connect answers UNIMPLEMENTED
    const streams = method.methodKind === "server_streaming" || method.methodKind === "bidi_streaming";
    // Messages are opaque here: the generated handler interfaces type them.
    implementation[method.localName] = (
      streams
        ? async function* (input: unknown, call: CallState) {
            yield* handler(input, call) as AsyncIterable<unknown>;
            if (call.signal.aborted) throw late(call);
          }
        : async (input: unknown, call: CallState) => {
            const output = await handler(input, call);
            if (call.signal.aborted) throw late(call);
            return output;
          }
    ) as MethodImpl<DescMethod>;
  }
  return implementation;
}

/**
 * What gRPC-Web and Connect clients send (`x-grpc-web`, `grpc-timeout`, `connect-protocol-version`,
 * ...) and read (`grpc-status`, `grpc-message`, `grpc-status-details-bin`, ...), as Connect lists
 * them, plus `Authorization`.
 */
const GRPC_CORS: CorsSurface = {
  methods: connectCors.allowedMethods,
  allowHeaders: [...connectCors.allowedHeaders, "Authorization"],
  exposeHeaders: connectCors.exposedHeaders,
};

/** Wraps `next` with CORS: preflights answered here, allowed origins get their headers. */
function withCors(next: GrpcRequestHandler, policy: CorsPolicy): GrpcRequestHandler {
  return (request, response) => {
    if (!applyCors(policy, request, response)) next(request, response);
  };
}
