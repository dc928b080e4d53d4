/**
 * Time and count limits of the gRPC server's connections, each with a default and an option:
 * deadlines a timer can hold, streams that stop sending in the middle of a request, HTTP/2 sessions
 * with nothing to do, and (in `grpc-server.ts`) the first bytes of a connection and the number of
 * concurrent streams per session.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import {
  constants,
  type Http2ServerRequest,
  type Http2ServerResponse,
  type Http2Session,
  type Http2Stream,
  type Http2Server,
} from "node:http2";
import { Code, ConnectError } from "@connectrpc/connect";

/** The longest delay `setTimeout` holds (about 24.8 days); longer ones fire at once. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** Defaults of `GrpcServerOptions`: HTTP/2 SETTINGS_MAX_CONCURRENT_STREAMS as grpc-go advises, timeouts as REST's. */
export const LIMIT_DEFAULTS = {
  maxConcurrentStreams: 100,
  sniffTimeoutMs: 10_000,
  streamIdleTimeoutMs: 30_000,
  sessionIdleTimeoutMs: 60_000,
} as const;

export interface Limits {
  maxTimeoutMs: number | undefined;
  maxConcurrentStreams: number;
  sniffTimeoutMs: number;
  streamIdleTimeoutMs: number;
  sessionIdleTimeoutMs: number;
}

/** The limits of `options` with their defaults; a value out of range throws a RangeError naming it. */
export function resolveLimits(options: Partial<Limits>): Limits {
  const pick = (name: keyof typeof LIMIT_DEFAULTS, max: number) => checked(name, options[name] ?? LIMIT_DEFAULTS[name], max);
  return {
    maxTimeoutMs: options.maxTimeoutMs === undefined ? undefined : checked("maxTimeoutMs", options.maxTimeoutMs, MAX_TIMER_MS),
    maxConcurrentStreams: pick("maxConcurrentStreams", 2 ** 32 - 1),
    sniffTimeoutMs: pick("sniffTimeoutMs", MAX_TIMER_MS),
    streamIdleTimeoutMs: pick("streamIdleTimeoutMs", MAX_TIMER_MS),
    sessionIdleTimeoutMs: pick("sessionIdleTimeoutMs", MAX_TIMER_MS),
  };
}

function checked(name: string, value: number, max: number): number {
  if (!Number.isInteger(value) || value < 1 || value > max)
    throw new RangeError(`createGrpcServer: options.${name} must be an integer from 1 to ${max}, got ${String(value)}`);
  return value;
}

// gRPC over HTTP/2: at most 8 digits and a unit; Connect: `connect-timeout-ms`, at most 10 digits.
const GRPC_TIMEOUT = /^(\d{1,8})([HMSmun])$/;
const GRPC_TIMEOUT_UNIT_MS: Record<string, number> = { H: 3_600_000, M: 60_000, S: 1000, m: 1, u: 0.001, n: 0.000001 };
const CONNECT_TIMEOUT = /^\d{1,10}$/;

/** A `grpc-timeout` value (`5S`) in ms; undefined when it is malformed. */
function timeoutValueMs(value: string): number | undefined {
  const [, amount, unit] = GRPC_TIMEOUT.exec(value) ?? [];
  const unitMs = unit === undefined ? undefined : GRPC_TIMEOUT_UNIT_MS[unit];
  return amount === undefined || unitMs === undefined ? undefined : unitMs * Number(amount);
}

/**
 * The deadline a `grpc-timeout` header asks for, in ms; undefined when it is longer than a timer
 * holds (such a deadline is no deadline, as in grpc-go). Throws INVALID_ARGUMENT for a malformed
 * value or one above `maxTimeoutMs` (Connect's rule and messages).
 */
export function grpcTimeoutMs(value: string, maxTimeoutMs: number | undefined): number | undefined {
  const timeoutMs = timeoutValueMs(value);
  if (timeoutMs === undefined) throw new ConnectError(`protocol error: invalid grpc timeout value: ${value}`, Code.InvalidArgument);
  if (maxTimeoutMs !== undefined && timeoutMs > maxTimeoutMs)
    throw new ConnectError(`timeout ${timeoutMs}ms must be <= ${maxTimeoutMs}`, Code.InvalidArgument);
  return timeoutMs > MAX_TIMER_MS ? undefined : timeoutMs;
}

/**
 * For requests Connect serves: a deadline header longer than a timer holds is removed (no deadline),
 * since Connect would arm a timer that fires at once. Malformed values stay for Connect to refuse;
 * `maxTimeoutMs`, when set, is at most MAX_TIMER_MS and Connect applies it.
 */
export function dropUnholdableDeadline(request: IncomingMessage | Http2ServerRequest): void {
  const headers = request.headers;
  const grpc = headers["grpc-timeout"];
  if (typeof grpc === "string") {
    const timeoutMs = timeoutValueMs(grpc);
    if (timeoutMs !== undefined && timeoutMs > MAX_TIMER_MS) delete headers["grpc-timeout"];
  }
  const connect = headers["connect-timeout-ms"];
  if (typeof connect === "string" && CONNECT_TIMEOUT.test(connect) && Number(connect) > MAX_TIMER_MS) delete headers["connect-timeout-ms"];
}

/**
 * After a complete answer to a request the server will not read on: RST_STREAM(NO_ERROR), so the
 * client stops sending (RFC 9113 §8.1; grpc-go does the same). Only once the answer has left and on
 * a later turn: Node 20 corrupts its heap when a stream is closed in the tick it was answered
 * (found by test/grpc-fuzz.test.ts).
 */
export function resetUnreadRequest(stream: Http2Stream): void {
  const reset = () => {
    if (!stream.destroyed && !stream.closed) stream.close(constants.NGHTTP2_NO_ERROR);
  };
  if (stream.writableFinished) setImmediate(reset);
  else stream.once("finish", () => setImmediate(reset));
}

/** Arms (ms > 0) or clears (0) the idle timer of an HTTP/2 stream: when it fires the stream is reset (CANCEL). */
export function idleStream(stream: Http2Stream, ms: number): void {
  // (The compatibility API has its own "timeout" listener on every stream.)
  if (ms > 0 && !stream.listeners("timeout").includes(cancelIdleStream)) stream.on("timeout", cancelIdleStream);
  stream.setTimeout(ms);
}

/**
 * `idleStream` for a new stream nobody watches yet: the listener without looking for it first;
 * afterwards `stream.setTimeout(ms)` arms (or, with 0, clears) the timer.
 */
export function watchNewStream(stream: Http2Stream, ms: number): void {
  stream.on("timeout", cancelIdleStream);
  if (ms > 0) stream.setTimeout(ms);
}

function cancelIdleStream(this: Http2Stream): void {
  this.close(constants.NGHTTP2_CANCEL);
}

/**
 * Watches an HTTP/2 request until it has been read to its end: nothing arriving or leaving for
 * `ms` resets the stream. HTTP/1.1 requests have the HTTP server's own headers and request timeouts.
 */
export function watchRequest(
  request: IncomingMessage | Http2ServerRequest,
  response: ServerResponse | Http2ServerResponse,
  ms: number,
): void {
  if (request.httpVersionMajor !== 2) return;
  const stream = (response as Http2ServerResponse).stream;
  idleStream(stream, ms);
  request.once("end", () => idleStream(stream, 0));
}

/** Closes (GOAWAY) every HTTP/2 session of `server` that has had no open stream for `ms`. */
export function closeIdleSessions(server: Http2Server, ms: number): void {
  server.on("session", (session: Http2Session) => {
    let open = 0;
    let timer: ReturnType<typeof setTimeout> | undefined = setTimeout(() => session.close(), ms);
    session.on("stream", (stream: Http2Stream) => {
      open++;
      clearTimeout(timer);
      timer = undefined;
      stream.once("close", () => {
        if (--open === 0 && !session.closed && !session.destroyed) timer = setTimeout(() => session.close(), ms);
      });
    });
    session.once("close", () => clearTimeout(timer));
  });
}
