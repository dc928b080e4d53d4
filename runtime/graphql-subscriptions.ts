/**
 * Subscriptions of a generated GraphQL client, over `graphql-ws` (protocol `graphql-transport-ws`).
 * One WebSocket is opened on the first subscription, shared by all of them, and closed when the
 * last one ends; each subscription is an async iterator of `{ data, errors }` results.
 *
 * Browsers have a global `WebSocket`; on Node 20 pass `webSocketImpl: WebSocket` from `ws`.
 *
 * A client gets subscriptions only from `createClient({ subscriptions: webSocketSubscriptions(...) })`:
 * this module (and graphql-ws) is then in the app's bundle, and never in a query-only app's.
 */
import { createClient, type Client } from "graphql-ws";
import { resolveCredential, type Credential } from "./client-common.js";
import { GraphQLRequestError, toResult, type GraphQLResult, type Operation } from "./graphql-client.js";

/** @public */
export interface SubscriptionOptions {
  /** The WebSocket endpoint; default: the client's `url` with `ws:`/`wss:` instead of `http:`/`https:`. */
  url?: string;
  /** The `WebSocket` class to use where there is no global one (Node 20: `import { WebSocket } from "ws"`). */
  webSocketImpl?: unknown;
  /**
   * The payload of `connection_init`, where a WebSocket carries its credentials (the handshake
   * cannot carry an `Authorization` header from a browser), or a function returning it, called
   * on every (re)connect. Default: the client's `token` as `{ authorization: "Bearer <token>" }`.
   */
  connectionParams?: Record<string, unknown> | (() => Record<string, unknown> | Promise<Record<string, unknown>>);
  /** Reconnect attempts after the connection drops (with exponential backoff). Default 5. */
  retryAttempts?: number;
}

/**
 * What `createClient`'s `subscriptions` option takes: opens the subscriptions of a client whose
 * HTTP endpoint is `httpUrl` (and whose `token` is `token`), on its first subscription.
 * @public
 */
export type SubscriptionTransport = (httpUrl: string, token?: Credential) => GraphQLSubscriptions;

/**
 * Subscriptions over `graphql-ws`, for `createClient({ subscriptions: webSocketSubscriptions(options) })`.
 * @public
 */
export function webSocketSubscriptions(options: SubscriptionOptions = {}): SubscriptionTransport {
  return (httpUrl, token) => {
    if (options.connectionParams !== undefined || token === undefined) return new GraphQLSubscriptions(options, httpUrl);
    // The client's token, asked on every (re)connect, as the HTTP requests send it.
    const connectionParams = async (): Promise<Record<string, unknown>> => {
      const value = await resolveCredential(token);
      return value ? { authorization: `Bearer ${value}` } : {};
    };
    return new GraphQLSubscriptions({ ...options, connectionParams }, httpUrl);
  };
}

/**
 * Options of one subscription.
 * @public
 */
export interface SubscribeOptions {
  /** Ends the subscription, like leaving the `for await` loop. */
  signal?: AbortSignal;
}

/** Subscriptions of one client, over one lazily opened WebSocket. */
export class GraphQLSubscriptions {
  readonly #options: SubscriptionOptions;
  readonly #httpUrl: string;
  #client: Client | undefined;

  constructor(options: SubscriptionOptions, httpUrl: string) {
    this.#options = options;
    this.#httpUrl = httpUrl;
  }

  /** Subscribes to `operation`; leaving the iteration (`break`, `return()`) unsubscribes. */
  subscribe<Result, Variables extends object>(
    operation: Operation<Result, Variables>,
    variables: Variables,
    options: SubscribeOptions = {},
  ): AsyncIterableIterator<GraphQLResult<Result>> {
    const queue = new ResultQueue<Result>(operation.name);
    if (options.signal?.aborted) {
      queue.end();
      return queue;
    }
    const unsubscribe = this.#connection().subscribe<Result>(
      { query: operation.document, operationName: operation.name, variables: variables as Record<string, unknown> },
      {
        next: (value) => queue.push(toResult<Result>(value)),
        error: (error) => queue.fail(error),
        complete: () => queue.end(),
      },
    );
    const onAbort = (): void => void queue.return();
    options.signal?.addEventListener("abort", onAbort, { once: true });
    queue.onReturn = () => {
      options.signal?.removeEventListener("abort", onAbort);
      unsubscribe();
    };
    return queue;
  }

  /** Closes the WebSocket (ending every subscription); the next subscription opens a new one. */
  async close(): Promise<void> {
    const client = this.#client;
    this.#client = undefined;
    await client?.dispose();
  }

  #connection(): Client {
    this.#client ??= createClient({
      url: this.#options.url ?? webSocketUrl(this.#httpUrl),
      webSocketImpl: this.#options.webSocketImpl,
      connectionParams: this.#options.connectionParams,
      retryAttempts: this.#options.retryAttempts ?? 5,
      lazy: true,
    });
    return this.#client;
  }
}

/** `http(s)://host/graphql` → `ws(s)://host/graphql`; a relative URL is resolved against the page. */
function webSocketUrl(httpUrl: string): string {
  const base = (globalThis as { location?: { href: string } }).location?.href;
  const url = new URL(httpUrl, base);
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  return url.href;
}

/** Results pushed by the WebSocket, pulled by `for await`. */
class ResultQueue<Result> implements AsyncIterableIterator<GraphQLResult<Result>> {
  readonly #operation: string;
  readonly #results: Array<GraphQLResult<Result>> = [];
  readonly #waiting: Array<{ resolve: (step: IteratorResult<GraphQLResult<Result>>) => void; reject: (error: unknown) => void }> = [];
  #done = false;
  #failure: unknown;
  /** Set by the subscriber: stops the subscription on the server. */
  onReturn: (() => void) | undefined;

  constructor(operation: string) {
    this.#operation = operation;
  }

  push(result: GraphQLResult<Result>): void {
    if (this.#done) return;
    const waiter = this.#waiting.shift();
    if (waiter) waiter.resolve({ value: result, done: false });
    else this.#results.push(result);
  }

  /**
   * GraphQL errors (an operation the server rejected) end the iteration with one result holding
   * them, like a query's; a closed or failed WebSocket rejects with a `GraphQLRequestError`.
   */
  fail(error: unknown): void {
    if (this.#done) return;
    if (Array.isArray(error)) {
      this.push(toResult<Result>({ data: null, errors: error }));
      this.end();
      return;
    }
    this.#failure = socketError(this.#operation, error);
    this.#finish();
    for (const waiter of this.#waiting.splice(0)) waiter.reject(this.#failure);
  }

  end(): void {
    if (this.#done) return;
    this.#finish();
    for (const waiter of this.#waiting.splice(0)) waiter.resolve({ value: undefined, done: true });
  }

  next(): Promise<IteratorResult<GraphQLResult<Result>>> {
    const result = this.#results.shift();
    if (result) return Promise.resolve({ value: result, done: false });
    if (this.#failure !== undefined) {
      const failure = this.#failure;
      this.#failure = undefined;
      return Promise.reject(failure);
    }
    if (this.#done) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve, reject) => this.#waiting.push({ resolve, reject }));
  }

  return(): Promise<IteratorResult<GraphQLResult<Result>>> {
    this.#results.length = 0;
    this.#failure = undefined;
    this.end();
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<GraphQLResult<Result>> {
    return this;
  }

  #finish(): void {
    this.#done = true;
    const onReturn = this.onReturn;
    this.onReturn = undefined;
    onReturn?.();
  }
}

/**
 * A WebSocket error or close event as a `GraphQLRequestError`: kind `closed` when the server
 * closed the WebSocket, `network` when it could not be opened or failed.
 */
function socketError(operation: string, error: unknown): GraphQLRequestError {
  if (error instanceof Error) return new GraphQLRequestError("network", operation, error.message, { cause: error });
  const event = error as { code?: unknown; reason?: unknown } | null;
  if (typeof event?.code === "number") {
    const reason = typeof event.reason === "string" && event.reason ? ` ${event.reason}` : "";
    return new GraphQLRequestError("closed", operation, `the WebSocket closed: ${event.code}${reason}`, { cause: error });
  }
  return new GraphQLRequestError("network", operation, "the WebSocket failed", { cause: error });
}
