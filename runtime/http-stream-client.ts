/**
 * The client of an HTTP streaming channel: one GET whose response body is newline-delimited JSON.
 * Each line is one message — any JSON value — checked with the channel's validator; blank lines
 * (the `\r\n` keep-alives such servers send) are skipped. The stream is an async iterator of the
 * messages; `close()` (or the signal) ends it. A failed request, a line that is not JSON or not a
 * valid message end the iteration with an `HttpStreamError`.
 */
import {
  ClientError,
  resolveCredential,
  resolveHeaders,
  type ClientErrorKind,
  type Credential,
  type Fetch,
  type HeadersOption,
} from "./client-common.js";

/** A validator's answer (validators.ts returns these). */
type ValidationResult<T> = { ok: true; value: T } | { ok: false; errors: readonly { path: string; message: string }[] };

/** @public */
export interface HttpStreamClientOptions {
  /** Extra request headers; a function is called when the stream opens. They win over `clientHeaders`. */
  headers?: HeadersOption;
  /** Sent as `Authorization: Bearer <token>` unless the headers set one. */
  token?: Credential | undefined;
  /** Ends the stream. */
  signal?: AbortSignal;
  /** Milliseconds to wait for the response's headers. Default: no limit. */
  timeout?: number | undefined;
  /** Longest line accepted, in characters; a longer one ends the stream. Default 1 MiB. */
  maxLineLength?: number;
}

/** What the generated client fixes for a channel. */
export interface HttpStreamSettings<Message> extends HttpStreamClientOptions {
  url: string;
  operation: string;
  fetch?: Fetch | undefined;
  clientHeaders?: HeadersOption | undefined;
  clientSignal?: AbortSignal | undefined;
  validate?: ((value: unknown) => ValidationResult<Message>) | undefined;
}

/** @public */
export class HttpStreamError extends ClientError {
  readonly kind: ClientErrorKind;
  /** The HTTP status, for `response`. */
  readonly status: number | undefined;

  constructor(operation: string, kind: ClientErrorKind, message: string, options?: { cause?: unknown; status?: number }) {
    super(operation, message, options);
    this.name = "HttpStreamError";
    this.kind = kind;
    this.status = options?.status;
  }
}

export class HttpStreamClient<Message> implements AsyncIterable<Message> {
  private readonly controller = new AbortController();
  private started = false;

  constructor(private readonly settings: HttpStreamSettings<Message>) {
    for (const signal of [settings.signal, settings.clientSignal]) {
      if (signal?.aborted) this.controller.abort();
      else signal?.addEventListener("abort", () => this.close(), { once: true });
    }
  }

  /** Ends the stream: the iteration finishes without an error. */
  close(): void {
    this.controller.abort();
  }

  [Symbol.asyncIterator](): AsyncIterator<Message> {
    if (this.started) throw new TypeError("An HTTP stream is iterated once; create another for a second reader");
    this.started = true;
    return this.read();
  }

  private async *read(): AsyncGenerator<Message, void, undefined> {
    const response = await this.open();
    if (!response) return;
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    const maxLineLength = this.settings.maxLineLength ?? 1024 * 1024;
    let buffer = "";
    try {
      while (true) {
        const chunk = await reader.read().catch((cause: unknown) => {
          if (this.controller.signal.aborted) return { done: true as const, value: undefined };
          throw this.error("network", "The stream broke off", cause);
        });
        if (chunk.done) break;
        buffer += chunk.value;
        let newline: number;
        while ((newline = buffer.indexOf("\n")) !== -1) {
          const line = buffer.slice(0, newline);
          buffer = buffer.slice(newline + 1);
          const message = this.parse(line);
          if (message !== undefined) yield message.value;
        }
        if (buffer.length > maxLineLength) throw this.error("too-large", `A line is longer than ${maxLineLength} characters`);
      }
      // The last line needs no newline.
      const last = this.parse(buffer);
      if (last !== undefined) yield last.value;
    } finally {
      this.controller.abort();
      reader.releaseLock();
    }
  }

  /** One line: `undefined` for a blank (keep-alive) line, else the message in a box (it may itself be falsy). */
  private parse(line: string): { value: Message } | undefined {
    if (line.trim() === "") return undefined;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (cause) {
      throw this.error("invalid-response", "The server sent a line that is not JSON", cause);
    }
    if (!this.settings.validate) return { value: value as Message };
    const result = this.settings.validate(value);
    if (!result.ok) {
      const first = result.errors[0];
      throw this.error(
        "invalid-response",
        `The server sent an invalid message: ${first ? `${first.path || "/"} ${first.message}` : "invalid"}`,
      );
    }
    return { value: result.value };
  }

  private async open(): Promise<Response | undefined> {
    const headers = await resolveHeaders(this.settings.clientHeaders);
    for (const [name, value] of await resolveHeaders(this.settings.headers)) headers.set(name, value);
    const token = await resolveCredential(this.settings.token);
    if (token !== undefined && !headers.has("authorization")) headers.set("authorization", `Bearer ${token}`);
    headers.set("accept", "application/x-ndjson, application/json");
    const timeout = this.settings.timeout;
    const timer =
      timeout === undefined
        ? undefined
        : setTimeout(() => this.controller.abort(this.error("timeout", `No response within ${timeout} ms`)), timeout);
    let response: Response;
    try {
      response = await (this.settings.fetch ?? fetch)(new Request(this.settings.url, { headers, signal: this.controller.signal }));
    } catch (cause) {
      if (this.controller.signal.reason instanceof HttpStreamError) throw this.controller.signal.reason;
      if (this.controller.signal.aborted) return undefined;
      throw this.error("network", `Could not open ${this.settings.url}`, cause);
    } finally {
      clearTimeout(timer);
    }
    if (!response.ok || !response.body) {
      await response.body?.cancel();
      throw new HttpStreamError(this.settings.operation, "response", `The server answered ${response.status}`, { status: response.status });
    }
    return response;
  }

  private error(kind: ClientErrorKind, message: string, cause?: unknown): HttpStreamError {
    return new HttpStreamError(this.settings.operation, kind, message, cause === undefined ? undefined : { cause });
  }
}
