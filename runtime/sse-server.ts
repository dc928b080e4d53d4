/**
 * A typed Server-Sent Events endpoint on `node:http` (WHATWG HTML standard, server-sent events),
 * with no dependencies.
 *
 * - `GET` opens a stream on a channel. Every event on it carries the id the event log gave it, so
 *   a client that reconnects with `Last-Event-ID` (or `?lastEventId=`, for EventSource polyfills)
 *   gets what it missed, then the live events, without a gap or a duplicate.
 * - `POST` (when `post` is given) opens a finite stream for fetch readers: a JSON body in, the
 *   events `post` sends out, then an optional `data: [DONE]`. It is not logged and not resumable.
 * - Auth: a bearer token from `Authorization` or, because EventSource cannot set headers, from
 *   `?access_token=`; no principal → 401, not authorized → 403, both as Problem Details, not streams.
 * - A client that stops reading costs at most `maxBufferedBytes` before it is dropped.
 * - Limits, all on by default: `maxStreams` open streams (503) and `maxStreamsPerClient` per client
 *   (429), counted after authentication and before a POST body is read; POST bodies of at most
 *   `maxBodyBytes` (413) arriving within `bodyTimeoutMs` (408).
 *
 * `handle` is a plain request listener: mount it on the path(s) of the stream in any node:http
 * server, Express or Connect app. Call `close()` before closing the HTTP server: open streams
 * would otherwise keep `server.close()` waiting.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { DONE_MARKER, formatComment, formatEvent, formatRetry } from "./sse-format.js";
import { CorsPolicy, isPreflight, type CorsOptions, type CorsSurface } from "./cors-policy.js";
import { OpenCounts, clientOf } from "./client-limits.js";
import { bearerToken, readBody, SseHttpError, writeProblem } from "./sse-http.js";
import { MemoryEventLog, idIsAfter } from "./sse-store.js";
import type { EventLog, LoggedEvent, Unsubscribe } from "./sse-store.js";

/** @public */
export { SseHttpError } from "./sse-http.js";

/** A generated validator: the value, typed, or the failing paths. */
export type Validator<T> = (value: unknown) => { ok: true; value: T } | { ok: false; errors: readonly { path: string; message: string }[] };

/** A validator per event name; events without one are sent unchecked. */
export type EventValidators<Events extends object> = { [K in keyof Events]?: Validator<Events[K]> };

/** Names of the events of `Events` (an event map: event name → payload type). */
export type EventName<Events extends object> = keyof Events & string;

/** What hooks see of a request that is opening a stream. */
export interface SseRequest<Principal> {
  request: IncomingMessage;
  url: URL;
  /** What `authenticate` returned; `undefined` without `authenticate`. */
  principal: Principal | undefined;
}

/** Writes events to one stream. */
export interface SseStreamWriter<Events extends object> {
  /**
   * Sends one event to this stream only. `id` defaults to the stream's own counter (1, 2, ...) on
   * POST streams. Returns false once the stream has closed (the event is then dropped).
   *
   * @throws TypeError when the endpoint has a validator for `event` and `data` fails it.
   */
  send<K extends EventName<Events>>(event: K, data: Events[K], options?: { id?: string }): boolean;
  /** True once the client went away, the stream was dropped, or the endpoint closed. */
  readonly closed: boolean;
}

/** What `post` gets for one POST stream. */
export interface PostStreamContext<Events extends object, Principal, Body> extends SseRequest<Principal> {
  /** The JSON body, checked by `validateBody` when one is given. */
  body: Body;
  stream: SseStreamWriter<Events>;
  /** Aborted when the client goes away or the endpoint closes: stop producing then. */
  signal: AbortSignal;
}

export interface SseEndpointOptions<Events extends object, Principal = unknown, Body = unknown> {
  /** Where published events are kept for resume and fanned out from. Default a `MemoryEventLog`. */
  eventLog?: EventLog;
  /**
   * The channel a GET stream subscribes to, e.g. `rooms/${id}` from the path. Throw an
   * `SseHttpError` (404, 403) to refuse the stream. Default: the request's path.
   */
  channel?: (request: SseRequest<Principal>) => string;
  /** Payload checks, applied to everything published or sent; a failure throws at the sender. */
  validators?: EventValidators<Events>;
  /** Events whose payload is a string sent as plain text (line breaks kept); the others are JSON. */
  textEvents?: readonly EventName<Events>[];
  /**
   * Finds who is calling: `token` is the bearer token of `Authorization` or, failing that, the
   * `access_token` query parameter (which ends up in access logs: prefer short-lived tokens there).
   * Return `undefined` to refuse (→ 401). Without this hook every request is anonymous and allowed.
   */
  authenticate?: (request: IncomingMessage, token: string | undefined) => Principal | undefined | Promise<Principal | undefined>;
  /** Whether the principal `authenticate` returned may open this stream; false → 403. Default: yes. */
  authorize?: (principal: Principal, request: SseRequest<Principal>) => boolean | Promise<boolean>;
  /**
   * CORS for browser pages of other origins (the options every generated server takes). A request
   * with an `Origin` that `cors.origins` does not allow is answered 403 before any hook runs.
   * Without it no CORS headers are sent, so only same-origin pages can read the streams.
   */
  cors?: CorsOptions | undefined;
  /** The reconnection delay sent as `retry:` when a stream opens; false sends none. Default 3000. */
  retryMs?: number | false;
  /** Milliseconds between `: keep-alive` comments on every open stream; false for none. Default 15 000. */
  keepAliveMs?: number | false;
  /** Most streams open at once; more are answered 503 with `Retry-After`. Default 10 000. */
  maxStreams?: number;
  /**
   * Most streams one client may have open at once; one more is answered 429 with `Retry-After`,
   * so that no client can take all of `maxStreams`. A client is the principal `authenticate`
   * returned, by its identity (a string or number, or its `id` or `sub`), else its `clientKey`.
   * Default 100.
   */
  maxStreamsPerClient?: number;
  /**
   * Who a client without an identified principal is. Default: the remote address; behind a reverse
   * proxy, read the address it forwards (from a proxy you trust) instead.
   */
  clientKey?: (request: IncomingMessage) => string;
  /**
   * Bytes a stream may have waiting in memory for a client that reads too slowly; past it the
   * client is dropped (and logged), and it resumes when it reconnects. Default 1 MiB.
   */
  maxBufferedBytes?: number;
  /** Produces the events of a POST stream; the stream ends when it settles. Without it, POST → 405. */
  post?: (context: PostStreamContext<Events, Principal, Body>) => void | Promise<void>;
  /** Checks a POST body; a failure → 422 with the failing paths. */
  validateBody?: Validator<Body>;
  /** Largest POST body accepted, in bytes; more → 413. Default 1 MiB. */
  maxBodyBytes?: number;
  /** Milliseconds a POST body may take to arrive; 408 after. Default 30 000. */
  bodyTimeoutMs?: number;
  /**
   * Ends every POST stream whose `post` resolved with `data: [DONE]` (a convention of AI streaming
   * APIs, not part of SSE). Default false.
   */
  done?: boolean;
  /** Where dropped clients and failing hooks are reported. Default `console.warn`. */
  logger?: (message: string, fields: Record<string, unknown>) => void;
}

export interface SseEndpoint<Events extends object> {
  /** The request listener: GET/HEAD streams, POST streams, CORS preflights, errors. */
  handle(request: IncomingMessage, response: ServerResponse): void;
  /**
   * Appends an event to `channel`'s log and sends it to every stream subscribed to it, in every
   * process sharing the log. Resolves with the event's id.
   *
   * @throws TypeError when a validator rejects `data`, or a text event's data is not a string.
   */
  publish<K extends EventName<Events>>(channel: string, event: K, data: Events[K]): Promise<string>;
  /** Streams open now (GET and POST). */
  readonly streamCount: number;
  /** Ends every stream, stops the keep-alive timer and answers later requests 503. */
  close(): Promise<void>;
}

/** What the generated client sends beyond the safelisted headers, and what a refusal carries. */
const SSE_CORS: CorsSurface = {
  methods: ["GET", "HEAD"],
  allowHeaders: ["Authorization", "Content-Type", "Last-Event-ID", "Accept"],
  exposeHeaders: ["Retry-After", "WWW-Authenticate"],
};
/** Longest `Last-Event-ID` looked up; longer ones cannot be ids of any log and are ignored. */
const MAX_EVENT_ID_LENGTH = 256;

/** One open stream: writes with a bound on what may wait in memory for a slow client. */
class Stream {
  /** Live events that arrived while the stream was replaying, with their ids. */
  pending: WireBlock[] | undefined;
  closed = false;

  constructor(
    readonly response: ServerResponse,
    private readonly maxBufferedBytes: number,
    private readonly onOverflow: (bufferedBytes: number) => void,
  ) {}

  write(block: string | Buffer): boolean {
    if (this.closed || this.response.destroyed) return false;
    // `write` returning false only means "above the high-water mark": the block is buffered. What
    // counts is how much is buffered, in the response and its socket together.
    if (!this.response.write(block) && this.response.writableLength > this.maxBufferedBytes) {
      this.onOverflow(this.response.writableLength);
      this.destroy();
      return false;
    }
    return true;
  }

  end(text?: string): void {
    if (this.closed) return;
    this.closed = true;
    if (text === undefined) this.response.end();
    else this.response.end(text);
  }

  destroy(): void {
    this.closed = true;
    this.response.destroy();
  }

  /**
   * Closes the connection after what was written but without the chunked encoding's last chunk,
   * so the client sees a cut stream (an error), not a normal end.
   */
  abort(): void {
    this.closed = true;
    const socket = this.response.socket;
    if (socket) socket.end();
    else this.response.destroy();
  }
}

/** An event formatted and encoded for the wire, with its id. */
interface WireBlock {
  id: string;
  bytes: Buffer;
}

interface ChannelState {
  streams: Set<Stream>;
  subscription: Promise<Unsubscribe>;
  /** Events of this tick not yet written: they go to every stream together at the tick's end. */
  queued: WireBlock[] | undefined;
}

/**
 * Creates an SSE endpoint for the events of `Events` (event name → payload type).
 *
 * @throws RangeError at setup for a limit that is not a positive integer.
 */
export function createSseEndpoint<Events extends object, Principal = unknown, Body = unknown>(
  options: SseEndpointOptions<Events, Principal, Body> = {},
): SseEndpoint<Events> {
  const eventLog = options.eventLog ?? new MemoryEventLog();
  const retryBlock = options.retryMs === false ? undefined : formatRetry(options.retryMs ?? 3000);
  const keepAliveMs = options.keepAliveMs ?? 15_000;
  const maxStreams = positive("maxStreams", options.maxStreams ?? 10_000);
  const maxBufferedBytes = positive("maxBufferedBytes", options.maxBufferedBytes ?? 1_048_576);
  const maxBodyBytes = positive("maxBodyBytes", options.maxBodyBytes ?? 1_048_576);
  const bodyTimeoutMs = positive("bodyTimeoutMs", options.bodyTimeoutMs ?? 30_000);
  // Streams per client and in all, counted from before a POST body is read until the response closes.
  const counts = new OpenCounts(maxStreams, positive("maxStreamsPerClient", options.maxStreamsPerClient ?? 100));
  if (keepAliveMs !== false) positive("keepAliveMs", keepAliveMs);
  const textEvents = new Set<string>(options.textEvents ?? []);
  // A Map, so that an event named like an Object.prototype member ("constructor") finds no validator.
  const validators = new Map(Object.entries(options.validators ?? {}) as [string, Validator<unknown>][]);
  const corsPolicy = options.cors ? new CorsPolicy(options.cors, SSE_CORS) : undefined;
  const corsMethods = options.post ? ["GET", "HEAD", "POST"] : SSE_CORS.methods;
  const logger = options.logger ?? ((message: string, fields: Record<string, unknown>) => console.warn(`sse: ${message}`, fields));
  const methods = options.post ? "GET, HEAD, POST, OPTIONS" : "GET, HEAD, OPTIONS";

  const streams = new Set<Stream>();
  const channels = new Map<string, ChannelState>();
  let keepAlive: ReturnType<typeof setInterval> | undefined;
  let closed = false;

  /** The payload as wire text, checked by its validator. */
  function encode(event: string, data: unknown): string {
    const validator = validators.get(event);
    if (validator) {
      const result = validator(data);
      if (!result.ok) {
        const errors = result.errors.map((error) => `${error.path || "/"}: ${error.message}`).join("; ");
        throw new TypeError(`SSE: the data of event ${JSON.stringify(event)} is invalid: ${errors}`);
      }
    }
    if (textEvents.has(event)) {
      if (typeof data !== "string") throw new TypeError(`SSE: event ${JSON.stringify(event)} is a text event; its data must be a string`);
      return data;
    }
    const json = JSON.stringify(data);
    if (json === undefined) throw new TypeError(`SSE: the data of event ${JSON.stringify(event)} has no JSON form`);
    return json;
  }

  function corsHeaders(request: IncomingMessage): Readonly<Record<string, string>> {
    return corsPolicy ? corsPolicy.responseHeaders(request.headers.origin) : {};
  }

  /**
   * Opens the stream: status, headers, and the `retry` block, which also flushes the headers.
   *
   * `reserve` has counted it already.
   */
  function open(request: IncomingMessage, response: ServerResponse, cors: Readonly<Record<string, string>>): Stream {
    const headers: Record<string, string> = Object.assign(
      { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache", "x-accel-buffering": "no" },
      cors,
    );
    // HTTP/1.1 only: the header is forbidden in HTTP/2 and meaningless in 1.0.
    if (request.httpVersion === "1.1") headers["connection"] = "keep-alive";
    response.writeHead(200, headers);
    response.socket?.setNoDelay(true);
    const stream = new Stream(response, maxBufferedBytes, (bufferedBytes) => {
      logger("dropped a client that reads too slowly", { url: request.url, bufferedBytes, maxBufferedBytes });
    });
    streams.add(stream);
    response.once("close", () => {
      stream.closed = true;
      streams.delete(stream);
    });
    if (retryBlock !== undefined) stream.write(retryBlock);
    else response.flushHeaders();
    if (keepAlive === undefined && keepAliveMs !== false) {
      const comment = formatComment("keep-alive");
      keepAlive = setInterval(() => {
        for (const open of streams) open.write(comment);
      }, keepAliveMs);
      keepAlive.unref();
    }
    return stream;
  }

  /**
   * Counts a stream for its client until `response` closes, before a POST body is read or a stream
   * opens.
   *
   * @throws SseHttpError 503 when `maxStreams` streams are open, 429 when the client has
   *   `maxStreamsPerClient`.
   */
  function reserve(request: IncomingMessage, response: ServerResponse, principal: Principal | undefined): void {
    const client = clientOf(request, principal, options.clientKey);
    const refused = counts.admit(client);
    if (refused === "total")
      throw new SseHttpError(503, "Service Unavailable", { detail: "Too many open streams.", headers: { "retry-after": "5" } });
    if (refused === "client") {
      throw new SseHttpError(429, "Too Many Requests", {
        detail: `At most ${counts.maxPerClient} streams may be open per client.`,
        headers: { "retry-after": "5" },
      });
    }
    response.once("close", () => counts.release(client));
  }

  /** This process's subscription to `channel`: one per channel, shared by its streams. */
  function subscribeChannel(channel: string): ChannelState {
    const state: ChannelState = {
      streams: new Set(),
      subscription: eventLog.subscribe(channel, (event) => deliver(state, event)),
      queued: undefined,
    };
    channels.set(channel, state);
    return state;
  }

  /** Subscribes `stream` to `channel`, first replaying what came after `lastEventId`. */
  async function join(channel: string, stream: Stream, lastEventId: string | undefined): Promise<void> {
    const joined = channels.get(channel) ?? subscribeChannel(channel);
    // Live events that arrive during the replay wait in `pending`, so none is lost or reordered.
    if (lastEventId !== undefined) stream.pending = [];
    joined.streams.add(stream);
    stream.response.once("close", () => leave(channel, joined, stream));
    try {
      await joined.subscription;
    } catch (error) {
      // The log is unreachable: end the stream; the client reconnects, and resumes, later.
      if (channels.get(channel) === joined) channels.delete(channel);
      logger("could not subscribe to the event log", { channel, error: String(error) });
      stream.end();
      return;
    }
    if (lastEventId === undefined || stream.closed) return;
    let replay: LoggedEvent[];
    try {
      replay = await eventLog.since(channel, lastEventId);
    } catch (error) {
      logger("could not read the event log", { channel, error: String(error) });
      stream.end();
      return;
    }
    for (const event of replay) stream.write(formatEvent(event));
    // Events delivered during the replay may still wait for the end of the tick: into `pending`.
    flush(joined);
    const pending = stream.pending ?? [];
    stream.pending = undefined;
    // Events appended between subscribing and reading the log are in both, and a log shared by
    // several instances may deliver live events late (this instance lagging behind the one the
    // client last read from): write only what comes after the newest event the client has.
    const newest = replay.length > 0 ? replay[replay.length - 1]!.id : lastEventId;
    const overlap = pending.findIndex((event) => event.id === newest);
    for (const [index, event] of pending.entries()) {
      const after = idIsAfter(event.id, newest);
      if (after === true || (after === undefined && index > overlap)) stream.write(event.bytes);
    }
  }

  function leave(channel: string, state: ChannelState, stream: Stream): void {
    state.streams.delete(stream);
    if (state.streams.size > 0 || channels.get(channel) !== state) return;
    channels.delete(channel);
    state.subscription.then((unsubscribe) => unsubscribe()).catch(() => {});
  }

  function deliver(state: ChannelState, event: LoggedEvent): void {
    // Formatted and encoded once for every stream of the channel, and held to the end of the tick:
    // events published together (a burst, or a log delivering a backlog) then cost each stream
    // one write of one Buffer, instead of one write (and one chunk of the chunked encoding) each.
    const block = { id: event.id, bytes: Buffer.from(formatEvent(event)) };
    if (state.queued) {
      state.queued.push(block);
      return;
    }
    state.queued = [block];
    process.nextTick(flush, state);
  }

  async function serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const cors = corsHeaders(request);
    const origin = request.headers.origin;
    if (corsPolicy && origin !== undefined) {
      if (isPreflight(request)) {
        const answer = corsPolicy.preflight(origin, request.headers["access-control-request-headers"], corsMethods);
        response.writeHead(answer.status, answer.headers).end(answer.body);
        return;
      }
      if (!corsPolicy.allows(origin)) throw new SseHttpError(403, "Forbidden", { detail: "This origin may not open streams." });
    }
    if (request.method === "OPTIONS") {
      response.writeHead(204, Object.assign({ allow: methods }, cors)).end();
      return;
    }
    const method = request.method ?? "GET";
    if (method !== "GET" && method !== "HEAD" && !(method === "POST" && options.post)) {
      throw new SseHttpError(405, "Method Not Allowed", { headers: { allow: methods } });
    }
    if (closed)
      throw new SseHttpError(503, "Service Unavailable", { detail: "The server is shutting down.", headers: { "retry-after": "1" } });
    let url: URL;
    try {
      url = new URL(request.url ?? "/", "http://localhost");
    } catch {
      throw new SseHttpError(400, "Bad Request", { detail: "The request target is not a valid URL." });
    }

    let principal: Principal | undefined;
    if (options.authenticate) {
      const token = bearerToken(request) ?? url.searchParams.get("access_token") ?? undefined;
      principal = await options.authenticate(request, token);
      if (principal === undefined) {
        const challenge = token === undefined ? 'Bearer realm="sse"' : 'Bearer realm="sse", error="invalid_token"';
        throw new SseHttpError(401, "Unauthorized", {
          detail: "Valid credentials are required.",
          headers: { "www-authenticate": challenge },
        });
      }
    }
    const context: SseRequest<Principal> = { request, url, principal };
    if (options.authorize && principal !== undefined && !(await options.authorize(principal, context))) {
      throw new SseHttpError(403, "Forbidden", { detail: "You may not open this stream." });
    }

    if (method !== "HEAD") reserve(request, response, principal);
    if (method === "POST") return servePost(context, response, cors);
    const channel = options.channel ? options.channel(context) : url.pathname;
    if (method === "HEAD") {
      response
        .writeHead(200, Object.assign({ "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache" }, cors))
        .end();
      return;
    }
    const stream = open(request, response, cors);
    await join(channel, stream, lastEventId(request, url));
  }

  async function servePost(
    context: SseRequest<Principal>,
    response: ServerResponse,
    cors: Readonly<Record<string, string>>,
  ): Promise<void> {
    const post = options.post!;
    const { request } = context;
    const type = (request.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
    if (type !== "application/json" && !type.endsWith("+json")) {
      throw new SseHttpError(415, "Unsupported Media Type", { detail: "The body must be application/json." });
    }
    const text = await readBody(request, maxBodyBytes, bodyTimeoutMs);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new SseHttpError(400, "Bad Request", { detail: "The body is not valid JSON." });
    }
    let body = parsed as Body;
    if (options.validateBody) {
      const result = options.validateBody(parsed);
      if (!result.ok) {
        const detail = result.errors.map((error) => `${error.path || "/"}: ${error.message}`).join("; ");
        throw new SseHttpError(422, "Unprocessable Content", { detail });
      }
      body = result.value;
    }

    const stream = open(request, response, cors);
    const controller = new AbortController();
    response.once("close", () => controller.abort());
    let counter = 0;
    const writer: SseStreamWriter<Events> = {
      send(event, data, sendOptions) {
        const text = formatEvent({ id: sendOptions?.id ?? String(++counter), event, data: encode(event, data) });
        return stream.write(text);
      },
      get closed() {
        return stream.closed;
      },
    };
    try {
      await post(Object.assign({ body, stream: writer, signal: controller.signal }, context));
    } catch (error) {
      // Headers are sent: cut the stream so the client sees a failure, not a normal end.
      logger("a POST stream failed", { url: request.url, error: String(error) });
      stream.abort();
      return;
    }
    stream.end(options.done ? formatEvent({ data: DONE_MARKER }) : undefined);
  }

  return {
    handle(request, response) {
      serve(request, response).catch((error: unknown) => {
        if (response.headersSent) {
          response.destroy();
          return;
        }
        if (!(error instanceof SseHttpError)) logger("a request failed", { url: request.url, error: String(error) });
        const problem = error instanceof SseHttpError ? error : new SseHttpError(500, "Internal Server Error");
        // Refused before its body was read (401, 403, 429 ...): close rather than wait for the body.
        const unread: Record<string, string> = request.complete ? {} : { connection: "close" };
        writeProblem(response, problem, { ...corsHeaders(request), ...unread });
      });
    },

    publish(channel, event, data) {
      try {
        return eventLog.append(channel, { event, data: encode(event, data) });
      } catch (error) {
        return Promise.reject(error);
      }
    },

    get streamCount() {
      return streams.size;
    },

    async close() {
      closed = true;
      if (keepAlive !== undefined) clearInterval(keepAlive);
      keepAlive = undefined;
      // Events published just before still reach the streams, ahead of their end.
      for (const state of channels.values()) flush(state);
      for (const stream of streams) stream.end();
      const subscriptions = [...channels.values()].map((state) => state.subscription);
      channels.clear();
      await Promise.all(subscriptions.map((subscription) => subscription.then((unsubscribe) => unsubscribe()).catch(() => {})));
    },
  };
}

/** The id to resume after: the `Last-Event-ID` header, or `lastEventId` in the query. */
function lastEventId(request: IncomingMessage, url: URL): string | undefined {
  const header = request.headers["last-event-id"];
  const id = (Array.isArray(header) ? header[0] : header) ?? url.searchParams.get("lastEventId") ?? undefined;
  return id !== undefined && id !== "" && id.length <= MAX_EVENT_ID_LENGTH ? id : undefined;
}

function positive(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`SSE: ${name} must be a positive integer, not ${value}`);
  return value;
}

/** Writes a channel's queued events to its streams: one Buffer for all of them. */
function flush(state: ChannelState): void {
  const queued = state.queued;
  state.queued = undefined;
  if (!queued) return;
  const bytes = queued.length === 1 ? queued[0]!.bytes : Buffer.concat(queued.map((block) => block.bytes));
  for (const stream of state.streams) {
    if (stream.pending) stream.pending.push(...queued);
    else stream.write(bytes);
  }
}
