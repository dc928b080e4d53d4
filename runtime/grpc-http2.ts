/**
 * gRPC over HTTP/2 for the common request: `application/grpc` (or `+proto`), uncompressed. Connect's
 * node adapter spends about five times the CPU of @grpc/grpc-js per call in its async-iterable
 * pipeline, so this path reads and writes the length-prefixed messages on Node's HTTP/2 streams
 * itself and answers with the statuses, messages and trailers Connect would. Everything else
 * (gRPC-Web, Connect, gRPC with JSON or compression, an unknown method) stays with Connect.
 */
import type { Http2ServerRequest, Http2ServerResponse, OutgoingHttpHeaders } from "node:http2";
import { create, fromBinary, toBinary, type DescMessage, type DescMethod, type MessageInitShape } from "@bufbuild/protobuf";
import { Code, ConnectError, createContextValues, type ContextValues } from "@connectrpc/connect";
// Connect's own gRPC trailer encoding (grpc-message escaping, grpc-status-details-bin), so both
// paths answer a `ConnectError` with the same bytes.
import { setTrailerStatus } from "@connectrpc/connect/protocol-grpc";
import { metadataOf } from "./grpc-admission.js";
import { ADMITTED, type Admitted, type CallHandler, type CallState } from "./grpc-call.js";
import { grpcTimeoutMs, idleStream, resetUnreadRequest } from "./grpc-limits.js";

export interface Http2Route {
  method: DescMethod;
  handler: CallHandler;
}

export interface Http2GrpcOptions {
  /** Largest request message in bytes (RESOURCE_EXHAUSTED above). */
  readMaxBytes: number;
  /** Longest deadline a client may ask for (INVALID_ARGUMENT above); undefined: any. */
  maxTimeoutMs: number | undefined;
  /** A streaming request with part of a message in and nothing more for this long is cancelled. */
  streamIdleTimeoutMs: number;
  /** Aborts every running call with its reason (the server is shutting down). */
  shutdownSignal: AbortSignal;
}

const CONTENT_TYPE = /^application\/grpc(?:\+proto)?$/i;
/** Messages buffered from a streaming request before the socket is paused. */
const READ_AHEAD = 16;
/** Why a call's signal aborts when it ended normally: one value, since an error per call is costly. */
const CALL_ENDED = new ConnectError("the call has ended", Code.Canceled);

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

  /** Serves the request if it is a gRPC call this path handles; false leaves it to Connect. */
  serve(request: Http2ServerRequest, response: Http2ServerResponse, admitted: Admitted | undefined): boolean {
    if (request.method !== "POST") return false;
    const route = this.routes.get(request.url);
    if (route === undefined) return false;
    const headers = request.headers;
    const type = headers["content-type"];
    if (type === undefined || !CONTENT_TYPE.test(type)) return false;
    const encoding = headers["grpc-encoding"];
    if (encoding !== undefined && encoding !== "identity") return false;
    const call = new Http2Call(this, request, response, route.method, admitted);
    void call.run(route.handler);
    return true;
  }
}

/** One call: its metadata (built on first read), deadline, request messages and response. */
class Http2Call implements CallState {
  readonly protocolName = "grpc";
  readonly method: DescMethod;
  private readonly server: Http2Grpc;
  private readonly request: Http2ServerRequest;
  private readonly response: Http2ServerResponse;
  private readonly envelopes: EnvelopeReader;
  private readonly admitted: Admitted | undefined;
  private contextValues: ContextValues | undefined;
  /** Whether the stream idle timer runs (a streaming request with a message half in). */
  private idleWatch = false;
  private deadline: number | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private requestHeaders: Headers | undefined;
  private responseHeaders: Headers | undefined;
  private responseTrailers: Headers | undefined;
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
    request: Http2ServerRequest,
    response: Http2ServerResponse,
    method: DescMethod,
    admitted: Admitted | undefined,
  ) {
    this.server = server;
    this.admitted = admitted;
    this.request = request;
    this.response = response;
    this.method = method;
    this.envelopes = new EnvelopeReader(server.options.readMaxBytes);
  }

  get requestHeader(): Headers {
    return (this.requestHeaders ??= metadataOf(this.request));
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
    const { calls, options } = this.server;
    calls.add(this);
    this.response.once("close", () => {
      if (!this.done) this.abort(new ConnectError("the client cancelled the call", Code.Canceled));
    });
    this.request.on("data", (chunk: Buffer) => this.received(chunk));
    this.request.once("end", () => this.received(undefined));
    try {
      const timeout = this.request.headers["grpc-timeout"];
      if (timeout !== undefined) this.startDeadline(String(timeout), options.maxTimeoutMs);
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
      } else {
        for (const message of this.envelopes.push(chunk)) this.queue.push(message);
        if (this.queue.length >= READ_AHEAD) this.request.pause();
        if (this.envelopes.partial !== this.idleWatch && this.streamsRequest()) this.watchIdle(!this.idleWatch);
      }
    } catch (error) {
      this.ended = error as ConnectError;
    }
    this.wake();
  }

  private streamsRequest(): boolean {
    const kind = this.method.methodKind;
    return kind === "client_streaming" || kind === "bidi_streaming";
  }

  /**
   * Streaming requests may rest between messages for as long as they like, but not inside one: a
   * message half in holds memory. (Unary and server-streaming requests are watched whole by the
   * server's listener until they end.)
   */
  private watchIdle(on: boolean): void {
    this.idleWatch = on;
    idleStream(this.response.stream, on ? this.server.options.streamIdleTimeoutMs : 0);
  }

  /** The next request message, or undefined after the last; throws what ended the call. */
  private async next(): Promise<Uint8Array | undefined> {
    for (;;) {
      if (this.aborted) throw this.aborted;
      const bytes = this.queue.shift();
      if (bytes !== undefined) {
        if (this.queue.length === READ_AHEAD - 1) this.request.resume();
        return bytes;
      }
      if (this.ended === true) return undefined;
      if (this.ended !== undefined) throw this.ended;
      await new Promise<void>((resolve) => (this.wakeReader = resolve));
    }
  }

  /** Unary and server streaming: exactly one request message. */
  private async readOne(): Promise<unknown> {
    const bytes = await this.next();
    const kind = this.method.methodKind === "unary" ? "unary" : "server streaming";
    if (bytes === undefined) throw new ConnectError(`protocol error: missing input message for ${kind} method`, Code.Unimplemented);
    if ((await this.next()) !== undefined)
      throw new ConnectError(`protocol error: received extra input message for ${kind} method`, Code.Unimplemented);
    return parse(this.method, bytes);
  }

  /** Client streaming and bidi: the request messages as they arrive. */
  private async *messages(): AsyncIterable<unknown> {
    for (let bytes = await this.next(); bytes !== undefined; bytes = await this.next()) yield parse(this.method, bytes);
  }

  /** Sends one response message (headers first); false when the stream wants a pause. */
  private write(message: unknown): boolean {
    let bytes: Uint8Array;
    try {
      bytes = toBinary(this.method.output, create(this.method.output, message as MessageInitShape<DescMessage>));
    } catch (error) {
      throw new ConnectError(`serialize binary: ${error instanceof Error ? error.message : String(error)}`, Code.Internal);
    }
    const frame = Buffer.allocUnsafe(5 + bytes.byteLength);
    frame[0] = 0;
    frame.writeUInt32BE(bytes.byteLength, 1);
    frame.set(bytes, 5);
    if (!this.headersSent) {
      this.headersSent = true;
      this.response.writeHead(200, nodeHeaders({ "content-type": "application/grpc+proto" }, this.responseHeaders));
    }
    return this.response.write(frame);
  }

  /** Resolves when the stream takes more data, or the call has ended. */
  private drained(): Promise<void> {
    return new Promise((resolve) => {
      this.wakeWriter = resolve;
      this.response.once("drain", () => this.wake());
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
    const stream = this.response.stream;
    if (stream.destroyed || stream.closed) return; // the client is gone: nobody to answer
    let trailers: OutgoingHttpHeaders;
    if (error === undefined) {
      trailers = nodeHeaders({ "grpc-status": "0" }, this.responseTrailers);
    } else {
      trailers = nodeHeaders({}, setTrailerStatus(new Headers(this.responseTrailers), error));
    }
    if (this.headersSent) {
      this.response.addTrailers(trailers);
      this.response.end();
    } else {
      // Trailers-Only: one HEADERS frame with the status and END_STREAM, as gRPC clients expect.
      stream.respond(nodeHeaders({ ":status": 200, "content-type": "application/grpc+proto", ...trailers }, this.responseHeaders), {
        endStream: true,
      });
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
    return fromBinary(method.input, bytes);
  } catch (error) {
    throw new ConnectError(`parse binary: ${error instanceof Error ? error.message : String(error)}`, Code.Internal);
  }
}

/** `base` plus the entries of `extra` (later names win), for `respond`, `writeHead` and trailers. */
function nodeHeaders(base: OutgoingHttpHeaders, extra: Headers | undefined): OutgoingHttpHeaders {
  if (extra !== undefined) for (const [name, value] of extra) base[name] = value;
  return base;
}
