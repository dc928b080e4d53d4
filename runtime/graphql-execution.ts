/**
 * What HTTP and WebSocket share: from request parameters to ready `ExecutionArgs` (allow-list,
 * cached parse + validation + limits, viewer, context), execution and subscription start under a
 * time limit, and the error formatter. Both transports hand these to their library (graphql-http,
 * graphql-ws), which then skips its own parsing and validation.
 */
import type { IncomingMessage } from "node:http";
import {
  GraphQLError,
  createSourceEventStream,
  execute,
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  type GraphQLSchema,
} from "graphql";
import type { CompiledQuery } from "graphql-jit";
import type { CorsOptions } from "./cors-policy.js";
import { DocumentCache, type PreparedOperation } from "./graphql-documents.js";
import { ErrorCode, codedError, errorFormatter, withCode } from "./graphql-errors.js";
import type { Serialize } from "./graphql-json.js";
import { DEFAULT_LIMITS, DEFAULT_PAGINATION_ARGUMENTS, type Limits } from "./graphql-limits.js";
import { PersistedQueries } from "./graphql-persisted.js";
import { RateLimiter, type RateLimitOptions } from "./graphql-rate-limit.js";
import type { GraphQLRequest } from "./graphql-request.js";
import { ExecutionState, buildExecutableSchema, eventState, timeoutError, type AuthRules, type Viewer } from "./graphql-schema.js";

export type MaybePromise<T> = T | Promise<T>;
export type { GraphQLRequest } from "./graphql-request.js";

export interface WebSocketOptions {
  /** Milliseconds a client has to send `connection_init`. Default 3000. */
  connectionInitTimeout?: number;
  /** Milliseconds between pings; a peer that does not answer in as long is dropped. Default 12000. */
  keepAlive?: number;
  /** Largest message in bytes (larger ones close the socket with 1009). Default: `maxBodyBytes`. */
  maxPayload?: number;
  /** Most WebSockets open at once; the upgrade of one more is refused with HTTP 503. Default 10000. */
  maxConnections?: number;
  /** Most WebSockets open at once per client (`clientKey`); one more is refused with HTTP 429. Default 100. */
  maxConnectionsPerClient?: number;
  /**
   * Most operations in progress on one connection (subscriptions, and queries or mutations still
   * running); one more is answered with an `error` message, OPERATION_LIMIT_EXCEEDED, and the
   * connection stays open. Default 100.
   */
  maxOperations?: number;
  /**
   * Most messages one connection may send per window (fixed, from its first message); one more
   * closes it with 1008 (policy violation). Default 200 per 10 s; `false` turns it off.
   */
  messageRate?: { limit: number; windowMs: number } | false;
}

export interface GraphQLServerOptions<Context, V extends Viewer = Viewer> {
  /** The context every resolver of one operation receives. */
  context: (request: GraphQLRequest & { readonly viewer: V | null }) => MaybePromise<Context>;
  /**
   * Who sends the request, for `@auth`: `null` for an anonymous one. Throwing refuses it: over
   * HTTP the answer is that error (a `GraphQLError` keeps its message and code; anything else is
   * UNAUTHENTICATED), over WebSocket the connection closes with 4403.
   */
  authenticate?: (request: GraphQLRequest) => MaybePromise<V | null | undefined>;
  /** The path served. Default `/graphql`. */
  path?: string;
  /** Hides internals in errors and turns introspection off. Default: `NODE_ENV === "production"`. */
  production?: boolean;
  /** Default: on in development, off in production. */
  introspection?: boolean;
  /** Allow-list mode: only the registered (persisted) operations run. */
  persistedOnly?: boolean;
  /** Automatic persisted queries (APQ). Default on (never registers in allow-list mode). */
  automaticPersistedQueries?: boolean;
  limits?: Partial<Limits>;
  /** Argument names that set a page size. Default `first`, `last`, `limit`, `pageSize`, `take`, `top`. */
  paginationArguments?: readonly string[];
  /** Milliseconds an operation may run, and a subscription's `subscribe` may take to start. Default 10000. */
  timeout?: number;
  /**
   * Who a client is, for per-client limits (the rate limit's default key, WebSockets per client).
   * Default: the socket's remote address. Behind a reverse proxy that is the proxy's address: read
   * the one it forwards (`X-Forwarded-For`, from a proxy you trust) here instead.
   */
  clientKey?: (request: IncomingMessage) => string;
  /**
   * Rate limiting of HTTP requests per client (see graphql-rate-limit.ts). Off unless given, as on
   * the REST server: the right budget depends on the clients, and counted per IP behind a proxy
   * (without `clientKey`) it would put every client in one budget.
   */
  rateLimit?: RateLimitOptions<V>;
  /** Largest request body (413 above it). Default 102400. */
  maxBodyBytes?: number;
  /**
   * Milliseconds a request body may take to arrive once the headers are in (408 after, and the
   * connection closes), so a client sending 1 byte a second holds nothing for long. Default 30000.
   */
  bodyTimeout?: number;
  /**
   * CORS for browser pages of other origins (the options every generated server takes). Its
   * `origins` also decide which pages may open a WebSocket; without it, HTTP answers carry no CORS
   * headers and only the server's own origin may open one. Requests without `Origin` (not from a
   * browser) are not affected.
   */
  cors?: CorsOptions;
  websocket?: WebSocketOptions;
  /** Told of every unexpected error (masked in answers). Default: `console.error`. */
  onError?: (error: unknown) => void;
}

/** What the generated server.ts passes: the schema and the rules decided at generation time. */
export interface ServerDefinition {
  sdl: string;
  resolvers: object;
  auth: AuthRules;
  /** Registered operations: SHA-256 of the text → text. */
  persistedOperations: Readonly<Record<string, string>>;
}

/** The parameters of one operation, as both transports read them. */
export interface OperationParams {
  query: string;
  // `| undefined`: graphql-http and graphql-ws hand over their request params as they are.
  operationName?: string | null | undefined;
  variables?: Readonly<Record<string, unknown>> | null | undefined;
}

/** The arguments of a checked operation, with its compiled function when it has one (graphql-http and graphql-ws pass them back as they are). */
class PreparedArgs implements ExecutionArgs {
  readonly document: DocumentNode;
  readonly operationName: string | null | undefined;
  readonly variableValues: Readonly<Record<string, unknown>> | null | undefined;
  readonly compiled: CompiledQuery | undefined;
  readonly serialize: Serialize | undefined;

  constructor(
    readonly schema: GraphQLSchema,
    prepared: PreparedOperation,
    params: OperationParams,
    readonly contextValue: unknown,
    readonly rootValue: ExecutionState,
  ) {
    this.document = prepared.document;
    this.operationName = params.operationName;
    this.variableValues = params.variables;
    this.compiled = prepared.compiled;
    this.serialize = prepared.serialize;
  }
}

/** How to write the answer to `args` without errors: its operation's serializer, else `JSON.stringify`. */
export function serializerOf(args: ExecutionArgs): Serialize {
  return (args instanceof PreparedArgs && args.serialize) || JSON.stringify;
}

export class Executor<Context, V extends Viewer> {
  readonly schema: GraphQLSchema;
  readonly production: boolean;
  readonly persisted: PersistedQueries;
  readonly formatError: (error: Readonly<GraphQLError | Error>) => GraphQLError | Error;
  readonly onError: (error: unknown) => void;
  /** Set when `options.rateLimit` is. */
  readonly rateLimiter: RateLimiter | undefined;
  private readonly documents: DocumentCache;
  private readonly roles: readonly string[];
  private readonly timeout: number;

  constructor(
    definition: ServerDefinition,
    readonly options: GraphQLServerOptions<Context, V>,
  ) {
    this.production = options.production ?? process.env["NODE_ENV"] === "production";
    this.onError = options.onError ?? ((error) => console.error("GraphQL server:", error));
    this.schema = buildExecutableSchema(definition.sdl, definition.resolvers, definition.auth);
    this.roles = definition.auth.roles;
    const limits = { ...DEFAULT_LIMITS, ...options.limits };
    this.documents = new DocumentCache(this.schema, {
      limits,
      paginationArguments: options.paginationArguments ?? DEFAULT_PAGINATION_ARGUMENTS,
      introspection: options.introspection ?? !this.production,
      hideSuggestions: this.production,
      cacheEntries: 1000,
      cacheCharacters: 4_000_000,
    });
    this.persisted = new PersistedQueries(definition.persistedOperations, {
      only: options.persistedOnly ?? false,
      automatic: options.automaticPersistedQueries ?? true,
      automaticEntries: 1000,
    });
    this.timeout = options.timeout ?? 10_000;
    this.formatError = errorFormatter({ production: this.production, onError: this.onError });
    const rate = options.rateLimit;
    if (rate?.cost === "complexity" && !(rate.limit >= limits.complexity)) {
      throw new RangeError(
        `rateLimit: with cost "complexity", limit (${rate.limit}) must be at least limits.complexity (${limits.complexity})`,
      );
    }
    this.rateLimiter =
      rate && new RateLimiter(rate.limit, rate.windowMs, { weighted: rate.cost === "complexity", store: rate.store, prefix: rate.prefix });
  }

  /** The client `raw` comes from, for per-client limits. */
  clientKey(raw: IncomingMessage): string {
    return this.options.clientKey?.(raw) ?? raw.socket.remoteAddress ?? "unknown";
  }

  /** Who `request` comes from; throws a `GraphQLError` when `authenticate` refuses it. */
  async authenticate(request: GraphQLRequest): Promise<V | null> {
    if (!this.options.authenticate) return null;
    try {
      return (await this.options.authenticate(request)) ?? null;
    } catch (error) {
      if (error instanceof GraphQLError) throw withCode(error, ErrorCode.Unauthenticated);
      this.onError(error);
      throw codedError("Authentication failed.", ErrorCode.Unauthenticated);
    }
  }

  /**
   * The allow-list, then the cached parse, validation and limits: the operation to run (with its
   * cost), or the errors that stop it. Nothing of the user's runs before a document passed them.
   */
  check(params: OperationParams): PreparedOperation | readonly GraphQLError[] {
    if (!this.persisted.allows(params.query)) {
      return [codedError("Only registered operations may run on this server.", ErrorCode.PersistedQueryNotInList)];
    }
    return this.documents.prepare(params.query, params.operationName, params.variables);
  }

  /** The `rootValue` of one operation: its viewer and the signal its resolvers get. */
  newState(): ExecutionState {
    return new ExecutionState(null, this.roles);
  }

  /**
   * The arguments to run a checked operation with for `viewer`, or the error of `context`: at
   * once when `context` answers at once (the HTTP fast path then has nothing to wait for).
   */
  start(
    prepared: PreparedOperation,
    params: OperationParams,
    request: GraphQLRequest,
    state: ExecutionState,
    viewer: V | null,
  ): MaybePromise<ExecutionArgs | readonly GraphQLError[]> {
    state.viewer = viewer;
    const ready = (contextValue: unknown) => new PreparedArgs(this.schema, prepared, params, contextValue, state);
    try {
      const contextValue = this.options.context(withViewer(request, viewer));
      return contextValue instanceof Promise ? contextValue.then(ready, this.contextFailed) : ready(contextValue);
    } catch (error) {
      return this.contextFailed(error);
    }
  }

  private readonly contextFailed = (error: unknown): readonly GraphQLError[] => {
    if (error instanceof GraphQLError) return [error];
    this.onError(error);
    return [codedError(this.production ? "Internal server error" : `context: ${String(error)}`, ErrorCode.Internal)];
  };

  /** `check` and `start` in one, for a WebSocket operation: its viewer is known from `connection_init`. */
  async prepare(
    params: OperationParams,
    request: Omit<GraphQLRequest, "signal">,
    viewer: V | null,
  ): Promise<ExecutionArgs | readonly GraphQLError[]> {
    const prepared = this.check(params);
    if (!("document" in prepared)) return prepared;
    const state = this.newState();
    return this.start(
      prepared,
      params,
      {
        ...request,
        get signal() {
          return state.signal;
        },
      },
      state,
      viewer,
    );
  }

  /**
   * The operation's compiled function (graphql's `execute` when it has none), stopped after the
   * time limit (or when the operation's state is aborted otherwise, say the HTTP client went
   * away): the answer is then that reason, a TIMEOUT error.
   */
  readonly execute = (args: ExecutionArgs): ExecutionResult | Promise<ExecutionResult> => {
    const compiled = args instanceof PreparedArgs ? args.compiled : undefined;
    const result = compiled ? compiledResult(compiled, args) : execute(args);
    if (!(result instanceof Promise)) return withInputCodes(result);
    const state = args.rootValue instanceof ExecutionState ? args.rootValue : this.newState();
    return new Promise<ExecutionResult>((resolve, reject) => {
      const stopped = () => {
        clearTimeout(timer);
        resolve({ data: null, errors: [state.reason ?? timeoutError()] });
      };
      const timer = setTimeout(() => state.abort(timeoutError()), this.timeout);
      state.signal.addEventListener("abort", stopped, { once: true });
      const done = () => {
        clearTimeout(timer);
        state.signal.removeEventListener("abort", stopped);
      };
      result.then(
        (value) => {
          done();
          resolve(value);
        },
        (error: unknown) => {
          done();
          reject(error);
        },
      );
    });
  };

  /**
   * graphql's `subscribe`, with each event executed inside `eventState` (see graphql-schema.ts) so
   * that `@auth` guards know the subscriber. The subscribe resolver sees the state as `rootValue`
   * and has the time limit to return its stream: after it the answer is a TIMEOUT error, and a
   * stream that still comes is closed at once.
   */
  readonly subscribe = async (args: ExecutionArgs): Promise<AsyncIterableIterator<ExecutionResult> | ExecutionResult> => {
    const state = args.rootValue instanceof ExecutionState ? args.rootValue : undefined;
    const stream = await this.startStream(args, state);
    if (!(Symbol.asyncIterator in stream)) return stream;
    const source = stream[Symbol.asyncIterator]();
    const run = (payload: unknown) => {
      const eventArgs = { ...args, rootValue: payload };
      return state ? eventState.run(state, () => execute(eventArgs)) : execute(eventArgs);
    };
    // An iterator object, not an async generator: a generator waiting for the next event would
    // not stop (nor free the source) until that event came.
    const events: AsyncIterableIterator<ExecutionResult> = {
      async next() {
        const next = await source.next();
        return next.done ? { done: true, value: undefined } : { done: false, value: await run(next.value) };
      },
      async return() {
        await source.return?.();
        return { done: true, value: undefined };
      },
      [Symbol.asyncIterator]: () => events,
    };
    return events;
  };

  private startStream(args: ExecutionArgs, state: ExecutionState | undefined): Promise<AsyncIterable<unknown> | ExecutionResult> {
    const started = Promise.resolve(createSourceEventStream(args));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        state?.abort(timeoutError());
        resolve({ errors: [timeoutError()] });
        void started.then(
          (late) => {
            if (Symbol.asyncIterator in late) void late[Symbol.asyncIterator]().return?.();
          },
          () => {},
        );
      }, this.timeout);
      started.then(
        (value) => {
          clearTimeout(timer);
          resolve(value);
        },
        (error: unknown) => {
          clearTimeout(timer);
          reject(error);
        },
      );
    });
  }
}

/** `request` and its viewer, for `context`: the signal is still made only if read. */
function withViewer<V>(request: GraphQLRequest, viewer: V | null): GraphQLRequest & { readonly viewer: V | null } {
  return {
    transport: request.transport,
    raw: request.raw,
    headers: request.headers,
    connectionParams: request.connectionParams,
    viewer,
    get signal() {
      return request.signal;
    },
  };
}

/**
 * What graphql-jit answers, with `errors` first as graphql-js writes them. Variables it refuses
 * (an answer without `data`: nothing ran) are refused again by graphql-js, whose messages are
 * the reference ones (graphql-jit words some differently).
 */
function compiledResult(compiled: CompiledQuery, args: ExecutionArgs): ExecutionResult | Promise<ExecutionResult> {
  const result = compiled.query(args.rootValue, args.contextValue, args.variableValues);
  if (result instanceof Promise) return result.then(errorsFirst);
  return "data" in result ? errorsFirst(result) : execute(args);
}

function errorsFirst(result: ExecutionResult): ExecutionResult {
  return result.errors ? { errors: result.errors, ...result } : result;
}

/** Errors before execution started (variable values that do not coerce) are the client's input. */
function withInputCodes(result: ExecutionResult): ExecutionResult {
  if ("data" in result || !result.errors) return result;
  return { errors: result.errors.map((error) => withCode(error, ErrorCode.BadUserInput)) };
}
