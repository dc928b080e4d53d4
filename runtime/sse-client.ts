/**
 * A typed Server-Sent Events client for browsers and Node 20+: `fetch` reads the stream,
 * `eventsource-parser` parses it exactly as the WHATWG spec says, and this file does what
 * EventSource would (reconnect after `retry`, resume with `Last-Event-ID`, `readyState`) plus what
 * it cannot (POST streams, an `Authorization` header, payload validation, backoff).
 *
 * ```ts
 * const stream = new SseClient<FeedEvents>("https://api.example.com/feed", { token: () => session.token });
 * for await (const { event, data, id } of stream) { ... }
 * ```
 *
 * The request is made when iteration starts; leaving the loop (`break`, `return`, a throw)
 * closes the stream.
 */
import { createParser } from "eventsource-parser";
import type { EventSourceMessage } from "eventsource-parser";
import {
  ClientError,
  resolveCredential,
  resolveHeaders,
  type ClientErrorKind,
  type Credential,
  type Fetch,
  type HeadersOption,
  type RetryOptions,
} from "./client-common.js";

/**
 * `readyState` values, as EventSource has them (WHATWG HTML standard, server-sent events).
 * @public
 */
export const CONNECTING = 0;
/** @public */
export const OPEN = 1;
/** @public */
export const CLOSED = 2;
export type ReadyState = typeof CONNECTING | typeof OPEN | typeof CLOSED;

/** A generated validator: the value, typed, or the failing paths. */
export type Validator<T> = (value: unknown) => { ok: true; value: T } | { ok: false; errors: readonly { path: string; message: string }[] };

/** Names of the events of `Events` (an event map: event name → payload type). */
export type EventName<Events extends object> = keyof Events & string;

/**
 * One received event; `data`'s type follows from `event`.
 * @public
 */
export type SseEvent<Events extends object> = {
  [K in EventName<Events>]: {
    event: K;
    data: Events[K];
    /** The last event id received so far, this event's if it had one (EventSource's `lastEventId`). */
    id: string;
  };
}[EventName<Events>];

export interface SseClientOptions<Events extends object> {
  /** Default GET. POST sends `body` as JSON (a fetch-read stream: EventSource can only GET). */
  method?: "GET" | "POST";
  /** The JSON body of a POST stream. */
  body?: unknown;
  /** Extra request headers; a function is called before every connection attempt. They win over `clientHeaders`. */
  headers?: HeadersOption | undefined;
  /** The headers of the client that made the stream, sent first. */
  clientHeaders?: HeadersOption | undefined;
  /** Sent as `Authorization: Bearer <token>` unless the headers set one; a function is asked before every attempt. */
  token?: Credential | undefined;
  /** Browsers: whether cookies go along (`"include"` for another origin). Default `"same-origin"`. */
  credentials?: "omit" | "same-origin" | "include";
  /**
   * Payload checks per event name. With validators, an event whose name has none is undeclared.
   * An undeclared event, or one whose data is not JSON or fails its validator, is skipped and
   * reported to `onInvalid`; the stream goes on (one bad event does not end a feed).
   */
  validators?: { [K in keyof Events]?: Validator<Events[K]> } | undefined;
  /** Events whose data is plain text (a string), not JSON. */
  textEvents?: readonly EventName<Events>[];
  /** Told about every skipped event. */
  onInvalid?: (error: SseInvalidEventError) => void;
  /**
   * Reconnect when the connection drops, named as every client's `RetryOptions`:
   * - `baseDelay`: the reconnection delay until the server sends `retry:`. Default 3000, about
   *   what browsers' EventSource waits (the HTML standard leaves the value to them);
   * - `maxDelay`: the longest delay. Each attempt that fails to open doubles the delay, up to
   *   this, and up to a fifth is added at random so clients do not return in step. Default 30 000;
   * - `maxRetries`: attempts in a row that may fail to open before the stream gives up. Default unlimited.
   *
   * `true` is the defaults, `false` never reconnects. Default true for GET and false for POST,
   * which is not idempotent (RFC 9110 section 9.2.2) and so is not sent again on its own; a POST
   * stream that drops then throws `SseConnectionError`.
   */
  reconnect?: RetryOptions | boolean;
  /** Milliseconds an attempt may take to get the server's answer; 0 = no limit (the default). */
  timeout?: number | undefined;
  /** Resume after this id on the first connection too. */
  lastEventId?: string;
  /**
   * Ends the stream with a `data: [DONE]` event without a name (a convention of AI streaming APIs,
   * not part of SSE). Default true.
   */
  done?: boolean;
  /** Largest event (or line) in characters; a larger one ends the stream. Default 1 MiB. */
  maxEventSize?: number;
  /** Closes the stream when aborted. */
  signal?: AbortSignal | undefined;
  /** The signal of the client that made the stream: closes it too. */
  clientSignal?: AbortSignal | undefined;
  /** The channel, for errors' `operation`. Default the URL. */
  operation?: string | undefined;
  /** Called on every `readyState` change. */
  onStateChange?: (state: ReadyState) => void;
  /** Called before each reconnection, with the delay about to be waited. */
  onReconnect?: (info: { attempt: number; delayMs: number; lastEventId: string; error: unknown }) => void;
  /** Sends each request (one `Request`). Default the global `fetch`. */
  fetch?: Fetch | undefined;
}

/**
 * The server answered with a status other than 200 (kind `response`), or a body that is not an
 * event stream (kind `invalid-response`).
 * @public
 */
export class SseResponseError extends ClientError {
  override name = "SseResponseError";
  readonly kind: ClientErrorKind;
  readonly status: number;
  readonly contentType: string | null;
  /** The start of the response body (a Problem Details document, usually). */
  readonly body: string;

  constructor(operation: string, status: number, contentType: string | null, body: string) {
    super(
      operation,
      status === 200 ? `SSE: expected text/event-stream, got ${contentType ?? "no content type"}` : `SSE: the server answered ${status}`,
    );
    this.kind = status === 200 ? "invalid-response" : "response";
    this.status = status;
    this.contentType = contentType;
    this.body = body;
  }
}

/**
 * The connection failed and will not be retried: kind `network` (a POST stream dropped,
 * `maxRetries` reached), `timeout` (no answer within `timeout`), `too-large` (an oversized event)
 * or `redirect` (one the client does not follow: to another origin, more than 20, or any in a browser).
 * @public
 */
export class SseConnectionError extends ClientError {
  override name = "SseConnectionError";
  readonly kind: ClientErrorKind;

  constructor(operation: string, kind: ClientErrorKind, message: string, options?: { cause?: unknown }) {
    super(operation, message, options);
    this.kind = kind;
  }
}

/**
 * An event that was skipped: undeclared, not JSON, or rejected by its validator.
 * @public
 */
export class SseInvalidEventError extends ClientError {
  override name = "SseInvalidEventError";
  readonly kind = "invalid-response";
  readonly event: string;
  readonly data: string;
  readonly id: string;
  readonly errors: readonly { path: string; message: string }[];

  constructor(
    operation: string,
    message: string,
    event: string,
    data: string,
    id: string,
    errors: readonly { path: string; message: string }[] = [],
  ) {
    super(operation, message);
    this.event = event;
    this.data = data;
    this.id = id;
    this.errors = errors;
  }
}

/** Most of an error response's body kept in `SseResponseError.body`. */
const MAX_ERROR_BODY = 65_536;
/** As many as `fetch` follows itself. */
const MAX_REDIRECTS = 20;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** A stream of typed events from one URL; iterate it once. */
export class SseClient<Events extends object> implements AsyncIterable<SseEvent<Events>> {
  readonly url: string;
  /** The last event id received; sent as `Last-Event-ID` when reconnecting. */
  lastEventId: string;
  /** The current reconnection delay: `reconnect.baseDelay`, or what the server sent last (`retry:`). */
  retryMs: number;
  private state: ReadyState = CONNECTING;
  private readonly options: SseClientOptions<Events>;
  private readonly controller = new AbortController();
  private readonly validators: Map<string, Validator<unknown>> | undefined;
  private readonly textEvents: ReadonlySet<string>;
  private readonly reconnect: RetryOptions | undefined;
  private readonly operation: string;
  /** Forgets the current attempt's link to `close()`, once its response is done with. */
  private endAttempt: () => void = () => {};
  private started = false;

  constructor(url: string | URL, options: SseClientOptions<Events> = {}) {
    this.url = String(url);
    this.options = options;
    this.lastEventId = options.lastEventId ?? "";
    const reconnect = options.reconnect ?? (options.method ?? "GET") === "GET";
    this.reconnect = reconnect === false ? undefined : reconnect === true ? {} : reconnect;
    this.retryMs = this.reconnect?.baseDelay ?? 3000;
    this.operation = options.operation ?? this.url;
    this.validators = options.validators ? new Map(Object.entries(options.validators as Record<string, Validator<unknown>>)) : undefined;
    this.textEvents = new Set(options.textEvents ?? []);
    for (const signal of [options.signal, options.clientSignal]) {
      if (signal?.aborted) this.close();
      else signal?.addEventListener("abort", () => this.close(), { once: true });
    }
  }

  /** CONNECTING (0) until the server answers 200 with an event stream, OPEN (1), or CLOSED (2). */
  get readyState(): ReadyState {
    return this.state;
  }

  /** Closes the stream for good: the iteration ends, no reconnect happens. */
  close(): void {
    if (this.state === CLOSED) return;
    this.setState(CLOSED);
    this.controller.abort();
  }

  [Symbol.asyncIterator](): AsyncIterator<SseEvent<Events>> {
    if (this.started) throw new Error("SSE: a stream can be iterated only once; create another SseClient");
    this.started = true;
    return this.run();
  }

  /** A method, not `this.state === CLOSED` inline: TypeScript would wrongly narrow that across awaits. */
  private isClosed(): boolean {
    return this.state === CLOSED;
  }

  private setState(state: ReadyState): void {
    if (this.state === state) return;
    this.state = state;
    this.options.onStateChange?.(state);
  }

  private async *run(): AsyncGenerator<SseEvent<Events>, void, undefined> {
    /** Reconnections since the stream was last open. */
    let attempt = 0;
    try {
      while (!this.isClosed()) {
        let failure: unknown;
        try {
          const response = await this.connect();
          attempt = 0;
          this.setState(OPEN);
          yield* this.events(response);
        } catch (error) {
          if (this.isClosed()) {
            if (error instanceof SseResponseError || error instanceof SseConnectionError) throw error;
            return;
          }
          failure = error;
        }
        if (this.isClosed()) return;
        // The connection failed or ended: where EventSource would reconnect (WHATWG HTML standard).
        const kind = isTimeout(failure) ? "timeout" : "network";
        if (!this.reconnect) {
          this.setState(CLOSED);
          if (failure === undefined) return;
          throw new SseConnectionError(this.operation, kind, "SSE: the connection failed", { cause: failure });
        }
        attempt++;
        const { maxRetries, maxDelay = 30_000 } = this.reconnect;
        if (maxRetries !== undefined && attempt > maxRetries) {
          this.setState(CLOSED);
          throw new SseConnectionError(this.operation, kind, `SSE: gave up after ${maxRetries} attempts to reconnect`, { cause: failure });
        }
        this.setState(CONNECTING);
        const base = Math.min(maxDelay, this.retryMs * 2 ** (attempt - 1));
        const delayMs = Math.round(base * (1 + 0.2 * Math.random()));
        this.options.onReconnect?.({ attempt, delayMs, lastEventId: this.lastEventId, error: failure });
        await this.sleep(delayMs);
      }
    } finally {
      this.close();
    }
  }

  /**
   * One request. Resolves with a 200 event-stream response; anything else closes the stream (as
   * EventSource fails its connection: WHATWG HTML standard) and throws `SseResponseError`.
   */
  private async connect(): Promise<Response> {
    const options = this.options;
    const headers = await resolveHeaders(options.clientHeaders);
    for (const [name, value] of await resolveHeaders(options.headers)) headers.set(name, value);
    const token = await resolveCredential(options.token);
    if (token !== undefined && !headers.has("authorization")) headers.set("authorization", `Bearer ${token}`);
    headers.set("accept", "text/event-stream");
    if (this.lastEventId !== "") headers.set("last-event-id", this.lastEventId);
    let body: string | null = null;
    if (options.method === "POST") {
      body = JSON.stringify(options.body ?? null);
      if (!headers.has("content-type")) headers.set("content-type", "application/json");
    }
    // An attempt is bounded by `timeout` until the answer's head arrives; the stream itself is not.
    const attempt = new AbortController();
    const abort = (): void => attempt.abort(this.controller.signal.reason);
    this.controller.signal.addEventListener("abort", abort, { once: true });
    const timer = options.timeout
      ? setTimeout(() => attempt.abort(new DOMException(`no answer within ${options.timeout} ms`, "TimeoutError")), options.timeout)
      : undefined;
    let response: Response;
    try {
      response = await this.follow({
        method: options.method ?? "GET",
        headers,
        body,
        credentials: options.credentials ?? "same-origin",
        signal: attempt.signal,
        redirect: "manual",
      });
    } catch (error) {
      this.controller.signal.removeEventListener("abort", abort);
      throw attempt.signal.aborted && !this.controller.signal.aborted ? attempt.signal.reason : error;
    } finally {
      clearTimeout(timer);
    }
    this.endAttempt = () => this.controller.signal.removeEventListener("abort", abort);
    const contentType = response.headers.get("content-type");
    if (response.status === 200 && contentType !== null && /^text\/event-stream\s*(;|$)/i.test(contentType) && response.body !== null) {
      return response;
    }
    const text = await readStart(response, MAX_ERROR_BODY).catch(() => "");
    this.endAttempt();
    this.setState(CLOSED);
    throw new SseResponseError(this.operation, response.status, contentType, text);
  }

  /**
   * Sends the request, following redirects within the stream URL's origin only: headers (tokens
   * among them) must never reach a host the client was not configured for, and `fetch` itself
   * keeps every header but `Authorization` when it follows a redirect to another origin.
   */
  private async follow(init: RequestInit): Promise<Response> {
    const fetcher: Fetch = this.options.fetch ?? ((request) => fetch(request));
    const page = (globalThis as { location?: { href?: string } }).location?.href;
    let origin: string | undefined;
    try {
      origin = new URL(this.url, page).origin;
    } catch {
      origin = undefined;
    }
    let target = this.url;
    let current = init;
    for (let hops = 0; ; hops++) {
      const response = await fetcher(new Request(target, current));
      const refuse = async (location: string | undefined, reason: string): Promise<never> => {
        await response.body?.cancel().catch(() => {});
        this.setState(CLOSED);
        throw new SseConnectionError(
          this.operation,
          "redirect",
          `SSE: redirected${location === undefined ? "" : ` to ${location}`}, which the client does not follow: ${reason}`,
        );
      };
      if (response.type === "opaqueredirect") return refuse(undefined, "browsers hide where a redirect leads; use the final URL");
      const location = REDIRECT_STATUSES.has(response.status) ? response.headers.get("location") : null;
      if (location === null) return response;
      if (origin === undefined) return refuse(location, "the stream URL has no origin to compare with");
      let next: URL;
      try {
        next = new URL(location, new URL(target, page));
      } catch {
        return refuse(location, "its Location is not a URL");
      }
      if (next.origin !== origin) return refuse(next.href, `it leads to another origin than ${origin}; use the new URL if it is trusted`);
      if (hops === MAX_REDIRECTS) return refuse(next.href, `more than ${MAX_REDIRECTS} redirects`);
      await response.body?.cancel().catch(() => {});
      // As fetch does: a 303, or a 301/302 after a POST, becomes a GET without body.
      if (current.method === "POST" && (response.status === 301 || response.status === 302 || response.status === 303)) {
        const headers = new Headers(current.headers);
        headers.delete("content-type");
        current = { ...current, method: "GET", headers, body: null };
      }
      target = next.href;
    }
  }

  /** The typed events of one response, until it ends, `[DONE]` arrives or the stream closes. */
  private async *events(response: Response): AsyncGenerator<SseEvent<Events>, void, undefined> {
    const reader = response.body!.getReader();
    // One decoder per response: it joins multibyte characters split across chunks and drops a BOM.
    const decoder = new TextDecoder();
    const messages: EventSourceMessage[] = [];
    let tooLarge = false;
    const parser = createParser({
      onEvent: (message) => messages.push(message),
      onRetry: (milliseconds) => {
        this.retryMs = milliseconds;
      },
      onError: (error) => {
        // Unknown fields and invalid `retry` values are ignored, as the spec says.
        if (error.type === "max-buffer-size-exceeded") tooLarge = true;
      },
      maxBufferSize: this.options.maxEventSize ?? 1_048_576,
    });
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        parser.feed(decoder.decode(value, { stream: true }));
        if (tooLarge) {
          this.setState(CLOSED);
          throw new SseConnectionError(
            this.operation,
            "too-large",
            `SSE: an event is larger than maxEventSize (${this.options.maxEventSize ?? 1_048_576} characters)`,
          );
        }
        for (let index = 0; index < messages.length; index++) {
          const message = messages[index]!;
          if (message.id !== undefined) this.lastEventId = message.id;
          if (message.event === undefined && message.data === "[DONE]" && this.options.done !== false) {
            this.close();
            return;
          }
          const event = this.decode(message);
          if (event !== undefined) yield event;
          if (this.isClosed()) return;
        }
        messages.length = 0;
      }
    } finally {
      reader.cancel().catch(() => {});
      this.endAttempt();
    }
  }

  /** The typed event, or `undefined` (reported to `onInvalid`) when it cannot be one. */
  private decode(message: EventSourceMessage): SseEvent<Events> | undefined {
    const name = message.event ?? "message";
    const invalid = (reason: string, errors?: readonly { path: string; message: string }[]): undefined => {
      this.options.onInvalid?.(
        new SseInvalidEventError(
          this.operation,
          `SSE: skipped event ${JSON.stringify(name)}: ${reason}`,
          name,
          message.data,
          this.lastEventId,
          errors,
        ),
      );
      return undefined;
    };
    let data: unknown = message.data;
    if (!this.textEvents.has(name)) {
      try {
        data = JSON.parse(message.data);
      } catch {
        return invalid("its data is not JSON");
      }
    }
    if (this.validators !== undefined) {
      const validator = this.validators.get(name);
      if (validator === undefined) return invalid("the event is not declared");
      const result = validator(data);
      if (!result.ok) return invalid("its data is invalid", result.errors);
      data = result.value;
    }
    return { event: name, data, id: this.lastEventId } as SseEvent<Events>;
  }

  /** Waits `milliseconds`, or less when the stream is closed meanwhile. */
  private sleep(milliseconds: number): Promise<void> {
    const signal = this.controller.signal;
    return new Promise((resolve) => {
      if (signal.aborted) return resolve();
      const done = (): void => {
        clearTimeout(timer);
        signal.removeEventListener("abort", done);
        resolve();
      };
      const timer = setTimeout(done, milliseconds);
      signal.addEventListener("abort", done, { once: true });
    });
  }
}

/** Whether `error` is an attempt that ran out of its `timeout`. */
function isTimeout(error: unknown): boolean {
  return error instanceof Error && error.name === "TimeoutError";
}

/** The first `limit` bytes of a body as text; the rest is not read. */
async function readStart(response: Response, limit: number): Promise<string> {
  if (response.body === null) return "";
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  let size = 0;
  try {
    while (size < limit) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      text += decoder.decode(value, { stream: true });
    }
    return text + decoder.decode();
  } finally {
    reader.cancel().catch(() => {});
  }
}
