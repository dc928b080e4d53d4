/**
 * A typed WebSocket client for browsers (the built-in `WebSocket`) and Node (`ws`, passed in as
 * `WebSocket`: Node 20 has no global one). It sends `Send` messages and dispatches `Receive`
 * messages by their discriminator (`type`): `on(type, …)` and `messages(type)` get one kind,
 * `onMessage(…)` and `messages()` every kind (the only way on a channel without a discriminator).
 *
 * - **Sending only when OPEN**: while CONNECTING (first connect, authenticating, or waiting to
 *   reconnect) messages are queued, at most `maxQueued` (100); one more throws
 *   `WebSocketClientError`, as does sending when CLOSING or CLOSED. A queue keeps the ordinary
 *   "send right after creating the client" working; its bound keeps an offline client from
 *   collecting messages without end.
 * - **Reconnect** after an unexpected close (not after 1000, 1002, 1003, 1007, 1008, 1009 or 1010:
 *   the server refused something and would refuse it again): exponential backoff with full
 *   jitter, `delay = random() × min(maxDelay, baseDelay × 2^attempt)`, reset once a connection opens.
 *   On every connect it asks `token()` anew and sends it as the first message (`{ type: "auth",
 *   token }`), then replays `subscribe`d messages, then the queue; only then is it OPEN. When it
 *   ends CLOSED (by `close()`, a final code, or `maxRetries`), queued messages are dropped.
 * - **Refusals are errors**: when the server closes with a final code other than 1000 (e.g. 1008
 *   when the first-message auth is missing or wrong), the `WebSocketClosedError` (with `code` and
 *   `reason`) goes to `onError`, rejects pending requests and ends `messages()` iterators by
 *   throwing, so a caller is told why the client stopped instead of seeing it go quiet.
 * - **Request/reply**: `request()` takes the message without its correlation id (`id`), adds one
 *   of its own and resolves with the message that carries it back (a reply is not passed to
 *   listeners); it rejects after `timeout`, or at once when the connection is lost (the
 *   server forgot the request with it). `request({ type: "ping" })` resolves with the `pong` the
 *   server answers it with.
 * - **Dead servers**: every `pingIntervalMs` (30 s) it sends `{ type: "ping" }`; when nothing at
 *   all came back within an interval the connection is given up and a reconnect follows.
 *   Application-level, because browsers expose no protocol ping. A `pong` that answers no
 *   request (the answer to such a ping) is dropped before validation and listeners.
 */
import { backoffDelay, ClientError, resolveCredential, type ClientErrorKind, type Credential, type RetryOptions } from "./client-common.js";
import type { ValidationResult } from "./validation.js";
import { MESSAGE_DEFAULTS, ReadyState, type MessageOf, type ReplyOf } from "./ws-protocol.js";

/** The part of the WebSocket API used here: the browser's `WebSocket` and `ws`'s both have it. */
export interface WebSocketLike {
  readonly readyState: number;
  readonly protocol: string;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: "open", listener: () => void): void;
  addEventListener(type: "message", listener: (event: { data: unknown }) => void): void;
  addEventListener(type: "close", listener: (event: { code: number; reason: string }) => void): void;
  addEventListener(type: "error", listener: () => void): void;
}

export type WebSocketConstructor = new (url: string, protocols?: string | string[]) => WebSocketLike;

export interface WebSocketClientOptions<Receive, C extends string = "id"> {
  /** `ws://` or `wss://` URL; a function is called before every connect (a fresh URL token). */
  url: string | (() => string | Promise<string>);
  /** The WebSocket implementation: `ws`'s `WebSocket` in Node. Default: the global one. */
  WebSocket?: WebSocketConstructor | undefined;
  /** Subprotocols to offer. */
  protocols?: string[];
  /**
   * First-message authentication: the token sent before anything else; a function is asked on
   * every connect. `undefined` (or a function returning it) sends no auth message.
   */
  token?: Credential | undefined;
  /** Checks messages from the server; invalid ones go to `onError` and are dropped. */
  validate?: ((value: unknown) => ValidationResult<Receive>) | undefined;
  /** A reply of this kind rejects `request()` with `WebSocketReplyError` instead of resolving it. */
  errorType?: string;
  /** Messages held while CONNECTING. Default 100. */
  maxQueued?: number;
  /** Milliseconds `request()` waits for its reply. Default 10 000. */
  timeout?: number | undefined;
  /** Closes the client when aborted. */
  signal?: AbortSignal | undefined;
  /** The signal of the client that made the socket: closes it too. */
  clientSignal?: AbortSignal | undefined;
  /** The channel, for errors' `operation`. Default the URL (or "websocket" when it is a function). */
  operation?: string | undefined;
  /** Milliseconds between application-level pings; 0 turns them off. Default 30 000. */
  pingIntervalMs?: number;
  /**
   * Reconnecting, named as every client's `RetryOptions`: `baseDelay` (the first delay's upper
   * bound in milliseconds, default 500), `maxDelay` (the cap of every delay, default 30 000),
   * `maxRetries` (attempts in a row before the client gives up, CLOSED; default no limit).
   * `false`: never reconnect.
   */
  reconnect?: RetryOptions | false;
  /** Whether a close (other than by `close()`) is followed by a reconnect. Default: see above. */
  shouldReconnect?: (code: number, reason: string) => boolean;
  /** Random number in [0, 1) for the jitter. Default `Math.random`. */
  random?: () => number;
  /** The property naming a message's kind. Default `"type"`; the server's must match. */
  discriminator?: string;
  /** The property carrying a request's correlation id. Default `"id"`. */
  correlationKey?: C;
  /** The correlation id is a number in the schema (e.g. `type: integer`): requests count 1, 2, 3… instead of unique strings. */
  numericIds?: boolean;
  /** The first message's kind and token property. Default `"auth"` and `"token"`. */
  authType?: string;
  tokenKey?: string;
  /**
   * The application-level ping and its answer. Default `"ping"` and `"pong"`. `false`: no pings
   * (nor dead-server detection), and a message of kind `pong` is a message like any other.
   */
  appPing?: { ping: string; pong: string } | false;
  onStateChange?: (state: ReadyState) => void;
  /** A reconnect is scheduled: the attempt's number (from 1) and its delay. */
  onReconnect?: (attempt: number, delayMs: number) => void;
  /** A connection ended (1006 when the client gave up on a silent server). */
  onClose?: (code: number, reason: string) => void;
  /**
   * A message that could not be used, a listener that threw, a failing `token()` or `url()`, and
   * the server's refusal (`WebSocketClosedError`, e.g. code 1008) that ended the client.
   */
  onError?: (error: unknown) => void;
}

/**
 * What the client reports or rejects with. `kind`: `network` (the connection was lost), `timeout`
 * (no reply within `timeout`), `invalid-response` (a message that is not JSON, not an object or
 * not valid), `invalid-request` (the queue is full, no WebSocket implementation), `closed` (the
 * client is closed, or the server closed it for good: `WebSocketClosedError`).
 * @public
 */
export class WebSocketClientError extends ClientError {
  override name = "WebSocketClientError";
  readonly kind: ClientErrorKind;

  constructor(operation: string, kind: ClientErrorKind, message: string, options?: { cause?: unknown }) {
    super(operation, message, options);
    this.kind = kind;
  }
}

/**
 * The server closed the connection with a final code other than 1000 (RFC 6455 section 7.4.1:
 * 1008 policy violation, e.g. missing or refused first-message auth; 1003, 1007, 1009, ...): it
 * would refuse a reconnect the same way, so the client is CLOSED.
 * @public
 */
export class WebSocketClosedError extends WebSocketClientError {
  override name = "WebSocketClosedError";
  readonly code: number;
  readonly reason: string;

  constructor(operation: string, code: number, reason: string) {
    super(operation, "closed", `The server closed the connection (${code}${reason ? `: ${reason}` : ""}); the client does not reconnect`);
    this.code = code;
    this.reason = reason;
  }
}

/**
 * The server answered a request with its error message (`errorType`).
 * @public
 */
export class WebSocketReplyError<M> extends ClientError {
  override name = "WebSocketReplyError";
  readonly kind = "response";
  readonly reply: M;

  constructor(operation: string, reply: M) {
    super(operation, "The server answered the request with an error");
    this.reply = reply;
  }
}

/** Close codes after which the same client would be refused again. */
const FINAL_CODES = new Set([1000, 1002, 1003, 1007, 1008, 1009, 1010]);

interface Pending {
  resolve(reply: unknown): void;
  reject(error: Error): void;
  timer: ReturnType<typeof setTimeout>;
  /** The request left the queue: a lost connection loses its reply too. */
  sent: boolean;
}

/**
 * What `request()` takes: a message of a kind that has a reply, without its correlation property
 * `C`, which the client fills in. Distributive, so each member of the union keeps its own
 * properties. Nothing on a channel without a discriminator (`K` is `never`): no reply type is known.
 */
export type RequestMessage<Send extends Readonly<Record<K, string>>, Replies, K extends string, C extends string> = [K] extends [never]
  ? never
  : WithoutKey<MessageOf<Send, K, keyof Replies & Send[K]>, C> & Readonly<Record<K, keyof Replies & Send[K]>>;

/** Each member of the union `M` without the property `C` (which it may then not have). */
type WithoutKey<M, C extends string> = M extends unknown ? Omit<M, C> & { readonly [P in C]?: never } : never;

/** A message waiting for the connection; `id` when it is a request. */
interface Queued {
  text: string;
  id?: string;
}

/**
 * `Send`/`Receive`: the client → server and server → client message unions; `Replies`: the reply
 * of each request kind; `K`: the discriminator property (`never` when the channel has none: then
 * `onMessage` and `messages()` receive); `C`: the correlation property.
 */
export class WebSocketClient<
  Send extends Readonly<Record<K, string>>,
  Receive extends Readonly<Record<K, string>>,
  Replies = Record<never, never>,
  K extends string = "type",
  C extends string = "id",
> {
  private readonly WebSocket: WebSocketConstructor;
  private readonly discriminator: string;
  private readonly correlationKey: string;
  private readonly maxQueued: number;
  private readonly random: () => number;
  private readonly operation: string;
  private socket: WebSocketLike | undefined;
  private state: ReadyState = ReadyState.CONNECTING;
  private stopped = false;
  private attempt = 0;
  private heard = true;
  private reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  private pingTimer: ReturnType<typeof setInterval> | undefined;
  private readonly queue: Queued[] = [];
  private readonly pending = new Map<string, Pending>();
  private readonly listeners = new Map<string, Set<(message: Receive) => void>>();
  /** `onMessage` listeners: every message that is not a reply. */
  private readonly everyListeners = new Set<(message: Receive) => void>();
  private readonly subscriptions = new Set<{ text: string }>();
  private readonly enders = new Set<() => void>();
  /** Why the client ended, when the server refused it: `messages()` iterators throw it. */
  private failure: WebSocketClosedError | undefined;
  /** Correlation ids start with a random prefix, so they cannot match ids the server's own messages carry. */
  private readonly idPrefix = `c${Math.random().toString(36).slice(2, 10)}-`;
  private nextId = 0;

  constructor(private readonly options: WebSocketClientOptions<Receive, C>) {
    this.operation = options.operation ?? (typeof options.url === "string" ? options.url : "websocket");
    const implementation = options.WebSocket ?? (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket;
    if (!implementation)
      throw this.error("invalid-request", "No WebSocket implementation: pass `WebSocket` (e.g. the `ws` package's) in Node");
    this.WebSocket = implementation;
    this.discriminator = options.discriminator ?? MESSAGE_DEFAULTS.discriminator;
    this.correlationKey = options.correlationKey ?? MESSAGE_DEFAULTS.correlationKey;
    this.maxQueued = options.maxQueued ?? 100;
    this.random = options.random ?? Math.random;
    for (const signal of [options.signal, options.clientSignal]) {
      if (signal?.aborted) this.stopped = true;
      else signal?.addEventListener("abort", () => this.close(), { once: true });
    }
    if (this.stopped) this.finish();
    else void this.connect();
  }

  get readyState(): ReadyState {
    return this.state;
  }

  /** The subprotocol the server agreed to, `""` for none or while not connected. */
  get protocol(): string {
    return this.socket?.protocol ?? "";
  }

  /** Sends when OPEN, queues while CONNECTING (throws when the queue is full), throws otherwise. */
  send(message: Send): void {
    this.write({ text: JSON.stringify(message) });
  }

  /**
   * Sends a request (without a correlation id: the client adds its own) and resolves with its
   * reply; `timeout` (default the client's) bounds the wait, `signal` abandons it.
   */
  request<M extends RequestMessage<Send, Replies, K, C>>(
    message: M,
    options: { timeout?: number; signal?: AbortSignal } = {},
  ): Promise<ReplyOf<Replies, M[K]>> {
    const sequence = ++this.nextId;
    const id = this.options.numericIds ? String(sequence) : `${this.idPrefix}${sequence}`;
    const queued: Queued = { text: JSON.stringify({ ...message, [this.correlationKey]: this.options.numericIds ? sequence : id }), id };
    const { signal } = options;
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<ReplyOf<Replies, M[K]>>((resolve, reject) => {
      const sent = this.write(queued);
      const timeout = options.timeout ?? this.options.timeout ?? 10_000;
      const forget = (error: unknown): void => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", abort);
        this.pending.delete(id);
        // A request that timed out or was abandoned in the queue is not sent later.
        const index = this.queue.indexOf(queued);
        if (index !== -1) this.queue.splice(index, 1);
        reject(error);
      };
      const abort = (): void => forget(signal?.reason);
      const timer = setTimeout(() => forget(this.error("timeout", `No reply within ${timeout} ms`)), timeout);
      signal?.addEventListener("abort", abort, { once: true });
      this.pending.set(id, {
        resolve: (reply) => {
          signal?.removeEventListener("abort", abort);
          resolve(reply as ReplyOf<Replies, M[K]>);
        },
        reject: (error) => {
          signal?.removeEventListener("abort", abort);
          reject(error);
        },
        timer,
        sent,
      });
    });
  }

  /** Calls `handler` with every message of kind `type`; returns the function that stops it. */
  on<T extends Receive[K]>(type: T, handler: (message: MessageOf<Receive, K, T>) => void): () => void {
    let handlers = this.listeners.get(type);
    if (!handlers) this.listeners.set(type, (handlers = new Set()));
    const listener = handler as (message: Receive) => void;
    handlers.add(listener);
    return () => handlers.delete(listener);
  }

  /**
   * Calls `handler` with every message the server sends (after the `on` listeners of its kind),
   * replies to `request()` excepted; returns the function that stops it. On a channel without a
   * discriminator this is how messages are received.
   */
  onMessage(handler: (message: Receive) => void): () => void {
    this.everyListeners.add(handler);
    return () => this.everyListeners.delete(handler);
  }

  /** The messages of kind `type`, or without `type` all of them (as `onMessage` gets them), as an async iterator; it ends when the client is CLOSED. */
  messages<T extends Receive[K]>(type: T): AsyncGenerator<MessageOf<Receive, K, T>, void, undefined>;
  messages(): AsyncGenerator<Receive, void, undefined>;
  async *messages(type?: Receive[K]): AsyncGenerator<Receive, void, undefined> {
    const buffered: Receive[] = [];
    let wake: (() => void) | undefined;
    let ended = this.state === ReadyState.CLOSED;
    const listener = (message: Receive): void => {
      buffered.push(message);
      wake?.();
    };
    const off = type === undefined ? this.onMessage(listener) : this.on(type, listener);
    const end = (): void => {
      ended = true;
      wake?.();
    };
    this.enders.add(end);
    try {
      for (;;) {
        const next = buffered.shift();
        if (next !== undefined) yield next;
        else if (ended) {
          if (this.failure) throw this.failure;
          return;
        } else
          await new Promise<void>((resolve) => {
            wake = resolve;
          });
      }
    } finally {
      off();
      this.enders.delete(end);
    }
  }

  /**
   * Sends `message` now (when OPEN) and again after every reconnect, so the server's
   * subscriptions come back with the connection. The returned function stops that, sending
   * `leave` when given and the client is OPEN.
   */
  subscribe(message: Send): (leave?: Send) => void {
    const entry = { text: JSON.stringify(message) };
    this.subscriptions.add(entry);
    if (this.state === ReadyState.OPEN) this.socket?.send(entry.text);
    return (leave) => {
      if (this.subscriptions.delete(entry) && leave && this.state === ReadyState.OPEN) this.send(leave);
    };
  }

  /** Closes for good: no reconnect; pending requests reject, queued messages are dropped. */
  close(code = 1000, reason = ""): void {
    if (this.stopped) return;
    this.stopped = true;
    clearTimeout(this.reconnectTimer);
    const socket = this.socket;
    if (socket && socket.readyState <= ReadyState.OPEN) {
      this.setState(ReadyState.CLOSING);
      socket.close(code, reason);
    } else {
      this.finish();
    }
  }

  /** Sends or queues `message`; `true` when it was sent now. */
  private write(message: Queued): boolean {
    if (this.state === ReadyState.OPEN && this.socket) {
      this.socket.send(message.text);
      return true;
    } else if (this.state === ReadyState.CONNECTING) {
      if (this.queue.length >= this.maxQueued)
        throw this.error("invalid-request", `Not connected, and ${this.maxQueued} messages are already queued`);
      this.queue.push(message);
      return false;
    } else {
      throw this.error("closed", "The WebSocket is closing or closed");
    }
  }

  private async connect(): Promise<void> {
    this.setState(ReadyState.CONNECTING);
    let url: string;
    try {
      url = typeof this.options.url === "function" ? await this.options.url() : this.options.url;
    } catch (error) {
      this.report(error);
      this.closed(1006, "No URL");
      return;
    }
    if (this.stopped) return;
    let socket: WebSocketLike;
    try {
      socket = new this.WebSocket(url, this.options.protocols);
    } catch (error) {
      // A malformed URL or subprotocol: no later attempt can do better.
      this.report(error);
      this.stopped = true;
      this.finish();
      return;
    }
    this.socket = socket;
    socket.addEventListener("open", () => {
      if (socket === this.socket) void this.opened(socket);
    });
    socket.addEventListener("message", (event) => {
      if (socket === this.socket) this.received(event.data);
    });
    socket.addEventListener("close", (event) => {
      if (socket === this.socket) this.closed(event.code, event.reason);
    });
    // Every error is followed by a close event; the listener keeps `ws` from throwing it.
    socket.addEventListener("error", () => {});
  }

  private async opened(socket: WebSocketLike): Promise<void> {
    this.attempt = 0;
    let token: string | undefined;
    if (this.options.token !== undefined) {
      try {
        token = await resolveCredential(this.options.token);
      } catch (error) {
        this.report(error);
        socket.close(4000, "No token");
        return;
      }
      if (socket !== this.socket || socket.readyState !== ReadyState.OPEN) return;
    }
    if (token !== undefined) {
      const { authType = MESSAGE_DEFAULTS.auth, tokenKey = MESSAGE_DEFAULTS.tokenKey } = this.options;
      socket.send(JSON.stringify({ [this.discriminator]: authType, [tokenKey]: token }));
    }
    for (const subscription of this.subscriptions) socket.send(subscription.text);
    for (const queued of this.queue.splice(0)) {
      socket.send(queued.text);
      const pending = queued.id === undefined ? undefined : this.pending.get(queued.id);
      if (pending) pending.sent = true;
    }
    this.setState(ReadyState.OPEN);
    this.startPing(socket);
  }

  private received(data: unknown): void {
    this.heard = true;
    if (typeof data !== "string") {
      this.report(this.error("invalid-response", "The server sent a binary message"));
      return;
    }
    let value: unknown;
    try {
      value = JSON.parse(data);
    } catch {
      this.report(this.error("invalid-response", "The server sent a message that is not JSON"));
      return;
    }
    // Any JSON value is a message (a string, a number, an array): the validator says which are
    // valid. Only an object carries a correlation id or a discriminator.
    const record = typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
    const id = record?.[this.correlationKey];
    const pending =
      typeof id === "string" || (typeof id === "number" && this.options.numericIds) ? this.pending.get(String(id)) : undefined;
    // A pong that answers no request answers the client's own ping: it only showed the server alive.
    const appPing = this.options.appPing ?? MESSAGE_DEFAULTS;
    if (!pending && appPing && record?.[this.discriminator] === appPing.pong) return;
    let message = value as Receive;
    if (this.options.validate) {
      const result = this.options.validate(value);
      if (!result.ok) {
        const first = result.errors[0];
        this.report(
          this.error(
            "invalid-response",
            `The server sent an invalid message: ${first ? `${first.path || "/"} ${first.message}` : "invalid"}`,
          ),
        );
        return;
      }
      message = result.value;
    }
    if (pending) {
      this.pending.delete(String(id));
      clearTimeout(pending.timer);
      if (this.options.errorType !== undefined && record?.[this.discriminator] === this.options.errorType)
        pending.reject(new WebSocketReplyError(this.operation, message));
      else pending.resolve(message);
      return;
    }
    const handlers = record === undefined ? undefined : this.listeners.get(message[this.discriminator as K]);
    if (handlers) for (const handler of handlers) this.call(handler, message);
    for (const handler of this.everyListeners) this.call(handler, message);
  }

  /** Runs a listener; what it throws goes to `onError`, and the other listeners still run. */
  private call(handler: (message: Receive) => void, message: Receive): void {
    try {
      handler(message);
    } catch (error) {
      this.report(error);
    }
  }

  private closed(code: number, reason: string): void {
    this.socket = undefined;
    clearInterval(this.pingTimer);
    const reconnect = this.options.reconnect === false ? undefined : (this.options.reconnect ?? {});
    const wanted = this.options.shouldReconnect ? this.options.shouldReconnect(code, reason) : !FINAL_CODES.has(code);
    const ends = this.stopped || !reconnect || !wanted || this.attempt >= (reconnect.maxRetries ?? Infinity);
    // A final code the client did not ask for is the server's refusal: the caller hears of it.
    if (ends && !this.stopped && code !== 1000 && FINAL_CODES.has(code))
      this.failure = new WebSocketClosedError(this.operation, code, reason);
    const lost = this.stopped
      ? this.error("closed", "The client is closed")
      : this.error("network", `The connection closed (${code}) before the reply came`);
    this.failPending(this.failure ?? lost, true);
    try {
      this.options.onClose?.(code, reason);
    } catch (error) {
      this.report(error);
    }
    if (ends || !reconnect) {
      if (this.failure) this.report(this.failure);
      this.stopped = true;
      this.finish(this.failure);
      return;
    }
    const delay = backoffDelay(this.attempt, reconnect.baseDelay ?? 500, reconnect.maxDelay ?? 30_000, this.random);
    this.attempt++;
    this.setState(ReadyState.CONNECTING);
    this.options.onReconnect?.(this.attempt, delay);
    this.reconnectTimer = setTimeout(() => void this.connect(), delay);
  }

  /** Pings on an interval; a whole interval without any message means the server is gone. */
  private startPing(socket: WebSocketLike): void {
    const interval = this.options.pingIntervalMs ?? 30_000;
    const appPing = this.options.appPing ?? MESSAGE_DEFAULTS;
    if (interval <= 0 || !appPing) return;
    const ping = JSON.stringify({ [this.discriminator]: appPing.ping });
    this.heard = true;
    this.pingTimer = setInterval(() => {
      if (socket !== this.socket) return;
      if (!this.heard) {
        // The close handshake cannot finish with a silent server: forget the socket now.
        this.socket = undefined;
        socket.close(4000, "Server not responding");
        this.closed(1006, "Server not responding");
        return;
      }
      this.heard = false;
      socket.send(ping);
    }, interval);
  }

  private finish(failure?: Error): void {
    this.queue.length = 0;
    this.failPending(failure ?? this.error("closed", "The client is closed"));
    this.setState(ReadyState.CLOSED);
    for (const end of this.enders) end();
  }

  /** Rejects pending requests: all of them, or (`sentOnly`) those a lost connection took along. */
  private failPending(error: Error, sentOnly = false): void {
    for (const [id, pending] of this.pending) {
      if (sentOnly && !pending.sent) continue;
      clearTimeout(pending.timer);
      this.pending.delete(id);
      pending.reject(error);
    }
  }

  private setState(state: ReadyState): void {
    if (this.state === state) return;
    this.state = state;
    this.options.onStateChange?.(state);
  }

  private report(error: unknown): void {
    this.options.onError?.(error);
  }

  private error(kind: ClientErrorKind, message: string): WebSocketClientError {
    return new WebSocketClientError(this.operation, kind, message);
  }
}
