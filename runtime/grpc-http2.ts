/**
 * gRPC over HTTP/2 for the common request: `application/grpc` (or `+proto`), uncompressed. Connect's
 * node adapter spends about five times the CPU of @grpc/grpc-js per call in its async-iterable
 * pipeline, so this path reads and writes the length-prefixed messages on Node's HTTP/2 streams
 * itself and answers with the statuses, messages and trailers Connect would. It takes the calls
 * before Node's compatibility API would wrap them in request and response objects (`interceptStreams`),
 * as grpc-js does. Everything else (gRPC-Web, Connect, gRPC with JSON or compression, an unknown
 * method, REST) goes on to the request listener and Connect.
 */
import type { Http2Server, IncomingHttpHeaders, OutgoingHttpHeaders, ServerHttp2Stream } from "node:http2";
import { create, type DescMessage, type DescMethod, type MessageInitShape } from "@bufbuild/protobuf";
import { Code, ConnectError, createContextValues, type ContextValues } from "@connectrpc/connect";
// Connect's own gRPC trailer encoding (grpc-message escaping, grpc-status-details-bin), so both
// paths answer a `ConnectError` with the same bytes.
import { setTrailerStatus } from "@connectrpc/connect/protocol-grpc";
import { metadataOf } from "./grpc-admission.js";
import { ADMITTED, type Admitted, type CallHandler, type CallState } from "./grpc-call.js";
import { grpcTimeoutMs, resetUnreadRequest, watchNewStream } from "./grpc-limits.js";
import { codecOf } from "./proto-codec.js";

export interface Http2Route {
  method: DescMethod;
  handler: CallHandler;
}

export interface Http2GrpcOptions {
  /** Largest request message in bytes (RESOURCE_EXHAUSTED above). */
  readMaxBytes: number;
  /** Longest deadline a client may ask for (INVALID_ARGUMENT above); undefined: any. */
  maxTimeoutMs: number | undefined;
  /** A request with part of it in and nothing more for this long is cancelled (streaming requests: part of a message). */
  streamIdleTimeoutMs: number;
  /** Aborts every running call with its reason (the server is shutting down). */
  shutdownSignal: AbortSignal;
  /** Whether CORS is on: then a call with an `Origin` goes through the request listener, which answers CORS. */
  cors: boolean;
}

const CONTENT_TYPE = /^application\/grpc(?:\+proto)?$/i;
/** Messages buffered from a streaming request before the socket is paused. */
const READ_AHEAD = 16;
/** Why a call's signal aborts when it ended normally: one value, since an error per call is costly. */
const CALL_ENDED = new ConnectError("the call has ended", Code.Canceled);
// Built once: `respond` and `sendTrailers` copy what they are given.
const RESPONSE_HEADERS: OutgoingHttpHeaders = { ":status": 200, "content-type": "application/grpc+proto" };
const OK_TRAILERS: OutgoingHttpHeaders = { "grpc-status": "0" };

/**
 * Hands each new HTTP/2 stream to `serve` first; the streams it declines (false) go to the listeners
 * that were there, Node's compatibility API (request and response objects, the `request` event).
 */
export function interceptStreams(server: Http2Server, serve: (stream: ServerHttp2Stream, headers: IncomingHttpHeaders) => boolean): void {
  const compatibility = server.listeners("stream") as Array<(...args: unknown[]) => void>;
  server.removeAllListeners("stream");
  server.on("stream", (stream: ServerHttp2Stream, headers: IncomingHttpHeaders, flags: number, rawHeaders: string[]) => {
    if (serve(stream, headers)) return;
    for (const listener of compatibility) listener.call(server, stream, headers, flags, rawHeaders);
  });
}

/** Serves the gRPC requests it recognises; see the file's comment. */
export class Http2Grpc {
  /** By request path: `/acme.tasks.v1.TaskService/GetTask`. */
  private readonly routes: ReadonlyMap<string, Http2Route>;
  readonly options: Http2GrpcOptions;
  readonly calls = new Set<Http2Call>();

  constructor(routes: ReadonlyMap<string, Http2Route>, options: Http2GrpcOptions) {
    this.routes = routes;
    this.options = options;
    options.shutdownSignal.addEventListener("abort", () => {
      for (const call of this.calls) call.abort(ConnectError.from(options.shutdownSignal.reason, Code.Unavailable));
    });
  }

  /** The route of a request this path serves (see the file's comment); undefined leaves it to the request listener. */
  route(headers: IncomingHttpHeaders): Http2Route | undefined {
    if (headers[":method"] !== "POST") return undefined;
    const route = this.routes.get(headers[":path"] ?? "");
    if (route === undefined) return undefined;
    const type = headers["content-type"];
    if (type === undefined || !CONTENT_TYPE.test(type)) return undefined;
    const encoding = headers["grpc-encoding"];
    if (encoding !== undefined && encoding !== "identity") return undefined;
    if (headers.expect !== undefined || (this.options.cors && headers.origin !== undefined)) return undefined;
    return route;
  }

  /**
   * Watches a routed request until its admission: an error listener (a reset stream must not throw),
   * and for a request that is not streamed, the idle timer until the request has ended.
   */
  accept(stream: ServerHttp2Stream, route: Http2Route): void {
    stream.on("error", ignore);
    watchNewStream(stream, streamsRequest(route.method) ? 0 : this.options.streamIdleTimeoutMs);
  }

  /** Serves an accepted and admitted call. */
  serve(stream: ServerHttp2Stream, headers: IncomingHttpHeaders, route: Http2Route, admitted: Admitted | undefined): void {
    void new Http2Call(this, stream, headers, route.method, admitted).run(route.handler);
  }
}

/** Errors of a stream end the call through its `close` event. */
function ignore(): void {}

function streamsRequest(method: DescMethod): boolean {
  return method.methodKind === "client_streaming" || method.methodKind === "bidi_streaming";
}

/** One call: its metadata (built on first read), deadline, request messages and response. */
class Http2Call implements CallState {
  readonly protocolName = "grpc";
  readonly method: DescMethod;
  private readonly server: Http2Grpc;
  private readonly stream: ServerHttp2Stream;
  private readonly headers: IncomingHttpHeaders;
  private readonly envelopes: EnvelopeReader;
  private readonly admitted: Admitted | undefined;
  private contextValues: ContextValues | undefined;
  /** Whether the stream idle timer runs for a streaming request (a message half in). */
  private idleWatch = false;
  private deadline: number | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private requestHeaders: Headers | undefined;
  private responseHeaders: Headers | undefined;
  private responseTrailers: Headers | undefined;
  /** What `wantTrailers` sends, once the response has ended. */
  private trailers: OutgoingHttpHeaders = OK_TRAILERS;
  private controller: AbortController | undefined;
  private aborted: ConnectError | undefined;
  /** Complete request messages not yet read, and how reading ended (`true`, or the error). */
  private readonly queue: Uint8Array[] = [];
  private ended: true | ConnectError | undefined;
  private wakeReader: (() => void) | undefined;
  private wakeWriter: (() => void) | undefined;
  private headersSent = false;
  private done = false;

  constructor(
    server: Http2Grpc,
    stream: ServerHttp2Stream,
    headers: IncomingHttpHeaders,
    method: DescMethod,
    admitted: Admitted | undefined,
  ) {
    this.server = server;
    this.admitted = admitted;
    this.stream = stream;
    this.headers = headers;
    this.method = method;
    this.envelopes = new EnvelopeReader(server.options.readMaxBytes);
  }

  get requestHeader(): Headers {
    return (this.requestHeaders ??= metadataOf(this.headers));
  }

  get values(): ContextValues {
    return (this.contextValues ??= createContextValues().set(ADMITTED, this.admitted));
  }

  get responseHeader(): Headers {
    return (this.responseHeaders ??= new Headers());
  }

  get responseTrailer(): Headers {
    return (this.responseTrailers ??= new Headers());
  }

  get signal(): AbortSignal {
    if (this.controller === undefined) {
      this.controller = new AbortController();
      if (this.aborted) this.controller.abort(this.aborted);
    }
    return this.controller.signal;
  }

  timeoutMs(): number | undefined {
    return this.deadline === undefined ? undefined : this.deadline - Date.now();
  }

  /** Reads the request, runs the handler and answers; never throws. */
  async run(handler: CallHandler): Promise<void> {
    const stream = this.stream;
    this.server.calls.add(this);
    const cancelled = () => {
      if (!this.done) this.abort(new ConnectError("the client cancelled the call", Code.Canceled));
    };
    // Closed while the auth hooks ran: no `close` is coming.
    if (stream.destroyed) cancelled();
    else stream.once("close", cancelled);
    stream.on("data", (chunk: Buffer) => this.received(chunk));
    stream.once("end", () => this.received(undefined));
    try {
      const timeout = this.headers["grpc-timeout"];
      if (timeout !== undefined) this.startDeadline(String(timeout), this.server.options.maxTimeoutMs);
      const kind = this.method.methodKind;
      const input = kind === "unary" || kind === "server_streaming" ? await this.readOne() : this.messages();
      if (this.done) return;
      const output = handler(input, this);
      if (kind === "unary" || kind === "client_streaming") {
        const message = await (output as Promise<unknown>);
        if (!this.done) this.write(message);
      } else {
        for await (const message of output as AsyncIterable<unknown>) {
          if (this.done) break;
          if (!this.write(message)) await this.drained();
        }
      }
      this.finish(undefined);
    } catch (error) {
      // The wrapped handlers throw ConnectErrors only; anything else is this file's, and internal.
      this.finish(error instanceof ConnectError ? error : new ConnectError("internal error", Code.Internal));
    }
  }

  /** Ends the call now with `reason` (deadline, cancellation, shutdown); the handler sees its signal abort. */
  abort(reason: ConnectError): void {
    if (this.done || this.aborted) return;
    this.aborted = reason;
    this.controller?.abort(reason);
    this.finish(reason);
  }

  private startDeadline(value: string, maxTimeoutMs: number | undefined): void {
    const timeoutMs = grpcTimeoutMs(value, maxTimeoutMs);
    if (timeoutMs === undefined) return; // longer than a timer holds: no deadline
    this.deadline = Date.now() + timeoutMs;
    this.timer = setTimeout(() => this.abort(new ConnectError("the operation timed out", Code.DeadlineExceeded)), timeoutMs);
  }

  /** A chunk of the request body, or its end (undefined). */
  private received(chunk: Buffer | undefined): void {
    if (this.ended !== undefined) return;
    try {
      if (chunk === undefined) {
        this.envelopes.end();
        this.ended = true;
        if (!streamsRequest(this.method)) this.stream.setTimeout(0); // read whole: the idle watch ends
      } else {
        for (const message of this.envelopes.push(chunk)) this.queue.push(message);
        if (this.queue.length > 1 && !streamsRequest(this.method)) throw this.protocolError("received extra input message");
        if (this.queue.length >= READ_AHEAD) this.stream.pause();
        if (this.envelopes.partial !== this.idleWatch && streamsRequest(this.method)) this.watchIdle(!this.idleWatch);
      }
    } catch (error) {
      this.ended = error as ConnectError;
    }
    this.wake();
  }

  /**
   * Streaming requests may rest between messages for as long as they like, but not inside one: a
   * message half in holds memory. (Other requests are watched whole until they end: `accept`.)
   */
  private watchIdle(on: boolean): void {
    this.idleWatch = on;
    this.stream.setTimeout(on ? this.server.options.streamIdleTimeoutMs : 0);
  }

  /** The next request message, or undefined after the last; throws what ended the call. */
  private async next(): Promise<Uint8Array | undefined> {
    for (;;) {
      if (this.aborted) throw this.aborted;
      const bytes = this.queue.shift();
      if (bytes !== undefined) {
        if (this.queue.length === READ_AHEAD - 1) this.stream.resume();
        return bytes;
      }
      if (this.ended === true) return undefined;
      if (this.ended !== undefined) throw this.ended;
      await new Promise<void>((resolve) => (this.wakeReader = resolve));
    }
  }

  /** Unary and server streaming: exactly one request message (a second one ends the call in `received`). */
  private async readOne(): Promise<unknown> {
    while (this.ended === undefined && !this.aborted) await new Promise<void>((resolve) => (this.wakeReader = resolve));
    if (this.aborted) throw this.aborted;
    if (this.ended !== true) throw this.ended;
    const bytes = this.queue.shift();
    if (bytes === undefined) throw this.protocolError("missing input message");
    return parse(this.method, bytes);
  }

  private protocolError(what: string): ConnectError {
    const kind = this.method.methodKind === "unary" ? "unary" : "server streaming";
    return new ConnectError(`protocol error: ${what} for ${kind} method`, Code.Unimplemented);
  }

  /** Client streaming and bidi: the request messages as they arrive. */
  private async *messages(): AsyncIterable<unknown> {
    for (let bytes = await this.next(); bytes !== undefined; bytes = await this.next()) yield parse(this.method, bytes);
  }

  /** Sends one response message (headers first); false when the stream wants a pause. */
  private write(message: unknown): boolean {
    let bytes: Uint8Array;
    try {
      bytes = codecOf(this.method.output).encode(create(this.method.output, message as MessageInitShape<DescMessage>));
    } catch (error) {
      throw new ConnectError(`serialize binary: ${error instanceof Error ? error.message : String(error)}`, Code.Internal);
    }
    const frame = Buffer.allocUnsafe(5 + bytes.byteLength);
    frame[0] = 0;
    frame.writeUInt32BE(bytes.byteLength, 1);
    frame.set(bytes, 5);
    if (!this.headersSent) {
      this.headersSent = true;
      const stream = this.stream;
      stream.respond(withHeaders(RESPONSE_HEADERS, this.responseHeaders), { waitForTrailers: true });
      stream.once("wantTrailers", () => stream.sendTrailers(this.trailers));
    }
    return this.stream.write(frame);
  }

  /** Resolves when the stream takes more data, or the call has ended. */
  private drained(): Promise<void> {
    return new Promise((resolve) => {
      this.wakeWriter = resolve;
      this.stream.once("drain", () => this.wake());
    });
  }

  /** Ends the response with the status of `error` (OK without), once. */
  private finish(error: ConnectError | undefined): void {
    if (this.done) return;
    this.done = true;
    clearTimeout(this.timer);
    this.server.calls.delete(this);
    this.wake();
    // The handler's own work ends with the call, as Connect's context does.
    if (!this.aborted) this.controller?.abort(error ?? CALL_ENDED);
    const stream = this.stream;
    if (stream.destroyed || stream.closed) return; // the client is gone: nobody to answer
    const trailers =
      error === undefined
        ? withHeaders(OK_TRAILERS, this.responseTrailers)
        : withHeaders({}, setTrailerStatus(new Headers(this.responseTrailers), error));
    if (this.headersSent) {
      this.trailers = trailers;
      stream.end();
    } else {
      // Trailers-Only: one HEADERS frame with the status and END_STREAM, as gRPC clients expect.
      stream.respond(withHeaders({ ...RESPONSE_HEADERS, ...trailers }, this.responseHeaders), { endStream: true });
    }
    // Answered before the request ended (an error, a deadline): the client may stop sending.
    if (this.ended !== true) resetUnreadRequest(stream);
  }

  private wake(): void {
    const reader = this.wakeReader;
    const writer = this.wakeWriter;
    this.wakeReader = this.wakeWriter = undefined;
    reader?.();
    writer?.();
  }
}

/**
 * Splits a request body into gRPC messages (1 flag byte, 4 length bytes, the message). Linear in the
 * body: chunks are kept in a list and copied once, when a message is complete; a length prefix is
 * checked against the limit as soon as its 5 bytes are in, before the message is buffered.
 */
class EnvelopeReader {
  private readonly chunks: Buffer[] = [];
  private bufferedBytes = 0;
  /** Length of the message being read, once its prefix has been read. */
  private length: number | undefined;
  private readonly readMaxBytes: number;

  constructor(readMaxBytes: number) {
    this.readMaxBytes = readMaxBytes;
  }

  /** Whether part of a message has arrived and the rest has not. */
  get partial(): boolean {
    return this.length !== undefined || this.bufferedBytes > 0;
  }

  /** Adds `chunk`; returns the messages it completes. Throws for a message too large or compressed. */
  push(chunk: Buffer): Uint8Array[] {
    this.chunks.push(chunk);
    this.bufferedBytes += chunk.length;
    let messages: Uint8Array[] | undefined;
    for (;;) {
      if (this.length === undefined) {
        if (this.bufferedBytes < 5) break;
        const prefix = this.take(5);
        const length = prefix.readUInt32BE(1);
        if (length > this.readMaxBytes)
          throw new ConnectError(
            `message size ${length} is larger than configured readMaxBytes ${this.readMaxBytes}`,
            Code.ResourceExhausted,
          );
        if ((prefix.readUInt8(0) & 1) === 1)
          throw new ConnectError("protocol error: received a compressed message without grpc-encoding", Code.Internal);
        this.length = length;
      }
      if (this.bufferedBytes < this.length) break;
      (messages ??= []).push(this.take(this.length));
      this.length = undefined;
    }
    return messages ?? NO_MESSAGES;
  }

  /** The body has ended: throws when it ended inside a message. */
  end(): void {
    if (this.partial) throw new ConnectError("protocol error: incomplete envelope", Code.InvalidArgument);
  }

  /** The next `count` buffered bytes (count <= bufferedBytes): a view when one chunk holds them, else one copy. */
  private take(count: number): Buffer {
    if (count === 0) return EMPTY;
    this.bufferedBytes -= count;
    const first = this.chunks[0];
    if (first !== undefined && first.length >= count) {
      if (first.length === count) this.chunks.shift();
      else this.chunks[0] = first.subarray(count);
      return first.subarray(0, count);
    }
    const result = Buffer.allocUnsafe(count);
    let filled = 0;
    let used = 0; // chunks copied whole, removed at once below
    while (filled < count) {
      const chunk = this.chunks[used];
      if (chunk === undefined) throw new RangeError(`take(${count}): fewer bytes buffered`);
      const copied = chunk.copy(result, filled, 0, Math.min(chunk.length, count - filled));
      filled += copied;
      if (copied === chunk.length) used++;
      else this.chunks[used] = chunk.subarray(copied);
    }
    this.chunks.splice(0, used);
    return result;
  }
}

const NO_MESSAGES: Uint8Array[] = [];
const EMPTY = Buffer.alloc(0);

function parse(method: DescMethod, bytes: Uint8Array): unknown {
  try {
    return codecOf(method.input).decode(bytes);
  } catch (error) {
    throw new ConnectError(`parse binary: ${error instanceof Error ? error.message : String(error)}`, Code.Internal);
  }
}

/** `base` plus the entries of `extra` (later names win), for `respond` and trailers; `base` itself when there are none. */
function withHeaders(base: OutgoingHttpHeaders, extra: Headers | undefined): OutgoingHttpHeaders {
  if (extra === undefined) return base;
  const headers = { ...base };
  for (const [name, value] of extra) headers[name] = value;
  return headers;
}
