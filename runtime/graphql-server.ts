/**
 * The GraphQL server over HTTP: graphql-http's handler (the GraphQL-over-HTTP reference
 * implementation: methods, media types, status codes) with this server's hooks:
 *
 *   path → CORS (preflights answered) → Accept (406) → body, at most `maxBodyBytes` (413)
 *     within `bodyTimeout` (408) → persisted query lookup
 *     → graphql-http's parsing (405, 415, 400) → allow-list → cached parse + validation + limits
 *     → authenticate → rate limit (429) → context → execute (time limit, client disconnect)
 *     → errors formatted
 *
 * `application/json` answers are 200 for every well-formed GraphQL request, `application/
 * graphql-response+json` ones follow GraphQL over HTTP's status rules (both per graphql-http).
 * The exception is the rate limit, 429 whatever the media type (see `tooManyRequests`). The
 * common JSON POST takes the same steps without graphql-http's handler (see `serveJson`).
 *
 * `authenticate` runs after the document is checked: it finds the viewer for the per-field
 * `@auth` rules (an anonymous request is a valid one), and everything before it is bounded: a
 * body of at most `maxBodyBytes` read in linear time within `bodyTimeout`, and a document cut
 * off at `limits.tokens`, parsed once per text (cached).
 *
 * Resolvers' `signal` aborts when the time limit passes or the client disconnects before its
 * answer is written; resolvers not yet started are then skipped.
 * The listener works with `http.createServer` and as Express or Connect middleware
 * (`app.use(listener)`): another path goes to `next()` when there is one, else 404.
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { GraphQLError, type ExecutionArgs, type ExecutionResult, type GraphQLSchema } from "graphql";
import { createHandler, parseRequestParams, type OperationArgs, type Request, type RequestParams, type Response } from "graphql-http";
import { applyCors, CorsPolicy, type CorsSurface } from "./cors-policy.js";
import type { PreparedOperation } from "./graphql-documents.js";
import { ErrorCode, codedError } from "./graphql-errors.js";
import { type BodyRefusals, readBody as readLimitedBody } from "./http-body.js";
import { Executor, serializerOf, type GraphQLRequest, type GraphQLServerOptions, type ServerDefinition } from "./graphql-execution.js";
import type { RateLimitVerdict } from "./graphql-rate-limit.js";
import type { ExecutionState, Viewer } from "./graphql-schema.js";
import { createWebSocketEndpoint, pathOf } from "./graphql-websocket.js";

/** @public */
export { ErrorCode } from "./graphql-errors.js";
/** @public */
export { DEFAULT_LIMITS, type Limits } from "./graphql-limits.js";
/** @public */
export type { GraphQLRequest, GraphQLServerOptions, MaybePromise, WebSocketOptions } from "./graphql-execution.js";
/** @public */
export type { RateLimitOptions } from "./graphql-rate-limit.js";
export type { CorsOptions } from "./cors-policy.js";
export type { Store } from "./server-types.js";
/** @public */
export { MemoryStore, type MemoryStoreOptions } from "./store.js";
/** @public */
export type { Viewer } from "./graphql-schema.js";

/** @public */
export type Listener = (request: IncomingMessage, response: ServerResponse, next?: (error?: unknown) => void) => void;

/** @public */
export interface GraphQLServer {
  /** The executable schema, resolvers attached. */
  readonly schema: GraphQLSchema;
  /** The HTTP request listener (also Express/Connect middleware). */
  readonly listener: Listener;
  /** Takes over a WebSocket upgrade on the GraphQL path; `false` when the path is another one. */
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): boolean;
  /** Serves WebSockets on `server`'s upgrades (other paths are answered 404). */
  attach(server: Server): void;
  /** Closes every WebSocket (1001) and stops accepting new ones. */
  close(): Promise<void>;
}

interface RequestContext {
  readonly res: ServerResponse;
}

type HttpRequest = Request<IncomingMessage, RequestContext>;

/**
 * What GraphQL-over-HTTP clients send beyond the safelisted headers (JSON bodies, credentials,
 * Apollo's CSRF-prevention headers) and read (the rate limit's headers).
 */
const GRAPHQL_CORS: CorsSurface = {
  methods: ["GET", "POST"],
  allowHeaders: ["Authorization", "Content-Type", "Apollo-Require-Preflight", "X-Apollo-Operation-Name"],
  exposeHeaders: ["Retry-After", "RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset", "RateLimit-Policy"],
};

export function createServer<Context, V extends Viewer>(
  definition: ServerDefinition,
  options: GraphQLServerOptions<Context, V>,
): GraphQLServer {
  const executor = new Executor(definition, options);
  const path = options.path ?? "/graphql";
  const maxBodyBytes = options.maxBodyBytes ?? 102_400;
  const bodyTimeout = options.bodyTimeout ?? 30_000;

  const handle = createHandler<IncomingMessage, RequestContext>({
    execute: executor.execute,
    formatError: executor.formatError,
    parseRequestParams: (request) => readParams(request, maxBodyBytes, bodyTimeout, executor),
    // Ready arguments (or errors): graphql-http then skips its own parse and validate.
    onSubscribe: (request, params) => prepare(executor, request, params),
    onOperation: (request, args, result) =>
      result.errors ? undefined : success(responseType(request.raw.headers.accept) ?? JSON_RESPONSE, args, result),
  });
  const sockets = createWebSocketEndpoint(executor, path);
  const cors = options.cors ? new CorsPolicy(options.cors, GRAPHQL_CORS) : undefined;

  /** graphql-http's handler, given the body when it was read already (see `serveJson`). */
  const serveAny = (request: IncomingMessage, response: ServerResponse, body: string | null): void => {
    const { url = "", method = "" } = request;
    const http: HttpRequest = { url, method, headers: request.headers, body, raw: request, context: { res: response } };
    handle(http)
      .then((answer) => write(response, answer))
      .catch((error: unknown) => internalError(response, error));
  };
  // A rate-limited server takes graphql-http's way for every request.
  const fast = executor.rateLimiter === undefined;

  const listener: Listener = (request, response, next) => {
    if (pathOf(request.url) === path) {
      if (cors && applyCors(cors, request, response)) return;
      const type = fast && request.method === "POST" && bodyType(request) === "json" ? responseType(request.headers.accept) : undefined;
      if (type === undefined) serveAny(request, response, null);
      else
        readBody(request, maxBodyBytes, bodyTimeout, (body) => {
          if (typeof body !== "string") write(response, body);
          else if (!serveJson(executor, request, response, body, type)) serveAny(request, response, body);
        });
    } else if (next) {
      next();
    } else {
      response.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("Not Found");
    }
  };

  return {
    schema: executor.schema,
    listener,
    handleUpgrade: (request, socket, head) => sockets.handleUpgrade(request, socket, head),
    attach(server) {
      server.on("upgrade", (request: IncomingMessage, socket: Duplex, head: Buffer) => {
        if (!sockets.handleUpgrade(request, socket, head))
          socket.end("HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n");
      });
    },
    close: () => sockets.close(),
  };
}

/**
 * From parameters to arguments over HTTP: checked document, then the viewer, then the rate limit
 * (it needs the viewer for its key, and the document for a weighted cost), then the context. Every
 * request that gets here is counted, a refused document too (for 1, against the anonymous key: its
 * sender is not worth an `authenticate` call).
 */
async function prepare<Context, V extends Viewer>(
  executor: Executor<Context, V>,
  request: HttpRequest,
  params: RequestParams,
): Promise<OperationArgs | readonly GraphQLError[] | Response> {
  const checked = executor.check(params);
  const state = executor.newState();
  abortOnDisconnect(request.context.res, state);
  const http: GraphQLRequest = {
    transport: "http",
    raw: request.raw,
    headers: request.raw.headers,
    connectionParams: undefined,
    // Made only if read (see ExecutionState).
    get signal() {
      return state.signal;
    },
  };
  let viewer: V | null = null;
  let prepared: PreparedOperation | undefined;
  let refused: readonly GraphQLError[] | undefined;
  if ("document" in checked) prepared = checked;
  else refused = checked;
  if (prepared && executor.options.authenticate) {
    try {
      viewer = await executor.authenticate(http);
    } catch (error) {
      refused = [error as GraphQLError];
    }
  }
  const limiter = executor.rateLimiter;
  if (limiter) {
    let verdict: RateLimitVerdict | undefined;
    try {
      const key = executor.options.rateLimit?.key?.(http, viewer) ?? executor.clientKey(request.raw);
      verdict = await limiter.consume(key, limiter.weighted && prepared && !refused ? Math.max(1, prepared.cost) : 1);
    } catch (error) {
      // A store that fails (Redis down) lets requests through rather than take the API down with it;
      // the limits of the documents and the time limit still hold.
      executor.onError(error);
    }
    if (verdict && !verdict.allowed) return tooManyRequests(request, verdict);
    if (verdict) for (const [name, value] of Object.entries(verdict.headers)) request.context.res.setHeader(name, value);
  }
  if (refused || !prepared) return refused ?? [];
  return (await executor.start(prepared, params, http, state, viewer)) as OperationArgs | readonly GraphQLError[];
}

/**
 * The common request served without graphql-http's handler: a JSON POST whose `Accept` allows an
 * answer, of well-formed parameters naming an operation that passes the checks (and is not a
 * subscription). Nothing is awaited that answers at once (context, execution), and the
 * disconnect listener is added only before something is. `false` (before anything of the
 * user's ran) hands the request to graphql-http, whose answers (errors, statuses) are the
 * reference; after, the answer is the one graphql-http would write for it.
 */
function serveJson<Context, V extends Viewer>(
  executor: Executor<Context, V>,
  raw: IncomingMessage,
  response: ServerResponse,
  body: string,
  type: string,
): boolean {
  let params: RequestParams | undefined;
  let checked: PreparedOperation | readonly GraphQLError[];
  try {
    const data: unknown = JSON.parse(body);
    if (typeof data !== "object" || data === null || Array.isArray(data)) return false;
    const fields = data as Record<string, unknown>;
    fields["query"] = executor.persisted.resolve(fields);
    params = wellFormedParams(fields);
    if (!params) return false;
    checked = executor.check(params);
  } catch {
    return false;
  }
  if (!("document" in checked) || checked.operation.operation === "subscription") return false;
  const prepared = checked;
  const operationParams = params;
  const state = executor.newState();
  let watched = false;
  /** Before waiting: the signal aborts if the client goes away meanwhile. */
  const watch = (): void => {
    if (!watched) abortOnDisconnect(response, state);
    watched = true;
  };
  if (response.destroyed) watch();
  const http: GraphQLRequest = {
    transport: "http",
    raw,
    headers: raw.headers,
    connectionParams: undefined,
    get signal() {
      return state.signal;
    },
  };
  const run = (viewer: V | null): void => {
    const started = executor.start(prepared, operationParams, http, state, viewer);
    if (started instanceof Promise) {
      watch();
      started.then(execute, (error: unknown) => internalError(response, error));
    } else execute(started);
  };
  const execute = (args: ExecutionArgs | readonly GraphQLError[]): void => {
    if (!("document" in args)) return write(response, errorsResponse(executor, args, type));
    let result: ExecutionResult | Promise<ExecutionResult>;
    try {
      result = executor.execute(args);
    } catch (error) {
      return internalError(response, error);
    }
    if (result instanceof Promise) {
      watch();
      result.then(
        (value) => write(response, answer(executor, args, value, type)),
        (error: unknown) => internalError(response, error),
      );
    } else write(response, answer(executor, args, result, type));
  };
  if (executor.options.authenticate) {
    watch();
    executor.authenticate(http).then(run, (error: unknown) => write(response, errorsResponse(executor, [error as GraphQLError], type)));
  } else run(null);
  return true;
}

/** What graphql-http answers to an executed operation (`makeResponse`), or `success`'s faster same answer. */
function answer<Context, V extends Viewer>(
  executor: Executor<Context, V>,
  args: ExecutionArgs,
  result: ExecutionResult,
  type: string,
): Response {
  if (!result.errors) return success(type, args, result);
  const formatted = { ...result, errors: result.errors.map(executor.formatError) };
  return [JSON.stringify(formatted, errorReplacer), { status: 200, statusText: "OK", headers: { "content-type": type } }];
}

/** graphql-http's answer to errors before execution: 200 for `application/json`, else 400. */
function errorsResponse<Context, V extends Viewer>(
  executor: Executor<Context, V>,
  errors: readonly GraphQLError[],
  type: string,
): Response {
  const body = JSON.stringify({ errors: errors.map(executor.formatError) }, errorReplacer);
  const status = type === JSON_RESPONSE ? { status: 200, statusText: "OK" } : { status: 400, statusText: "Bad Request" };
  return [body, { ...status, headers: { "content-type": type } }];
}

/** graphql-http's replacer: an `Error` that is not a GraphQL error is written as its message only. */
function errorReplacer(_key: string, value: unknown): unknown {
  return value instanceof Error && !(value instanceof GraphQLError) ? { message: value.message } : value;
}

function write(response: ServerResponse, [body, init]: Response): void {
  response.writeHead(init.status, init.statusText, init.headers).end(body);
}

/** What graphql-http's `http` adapter does when its handler throws (it should not). */
function internalError(response: ServerResponse, error: unknown): void {
  console.error("Internal error occurred during request handling. Please check your implementation.", error);
  response.writeHead(500).end();
}

/**
 * The answer to an operation without errors, as graphql-http would write it but serialized by the
 * operation's own serializer (graphql-json.ts) or a plain `JSON.stringify`: graphql-http's replacer
 * (it hides the details of `Error` objects, and a result without errors holds none) makes
 * stringifying about 1.5× slower for every value. Its `content-length` spares the chunked
 * encoding (graphql-http writes the head before the body).
 */
function success(type: string, args: ExecutionArgs, result: ExecutionResult): Response {
  const body = result.extensions === undefined ? serializerOf(args)(result) : JSON.stringify(result);
  return [body, { status: 200, statusText: "OK", headers: { "content-type": type, "content-length": String(Buffer.byteLength(body)) } }];
}

const GRAPHQL_RESPONSE = "application/graphql-response+json; charset=utf-8";
const JSON_RESPONSE = "application/json; charset=utf-8";
/** The media type answered for each `Accept` header text seen (clients send a few of them); `null`: 406. */
const responseTypes = new Map<string, string | null>();

/** The `content-type` graphql-http answers with for `accept`, `undefined` when neither fits (it answers 406). */
function responseType(accept = "*/*"): string | undefined {
  let type = responseTypes.get(accept);
  if (type === undefined) {
    type = null;
    for (const range of accept.replace(/\s/g, "").toLowerCase().split(",")) {
      const [media, ...params] = range.split(";");
      const charset = params.find((param) => param.includes("charset=")) ?? "charset=utf-8";
      if (media === "application/graphql-response+json" && charset === "charset=utf-8") {
        type = GRAPHQL_RESPONSE;
        break;
      }
      if (
        (media === "application/json" || media === "application/*" || media === "*/*") &&
        (charset === "charset=utf-8" || charset === "charset=utf8")
      ) {
        type = JSON_RESPONSE;
        break;
      }
    }
    if (responseTypes.size >= 100) responseTypes.clear();
    responseTypes.set(accept, type);
  }
  return type ?? undefined;
}

/** Resolvers' signal aborts when the response closes before it was completely written. */
function abortOnDisconnect(response: ServerResponse, state: ExecutionState): void {
  const gone = () => {
    if (!response.writableFinished) state.abort(codedError("The client closed the request.", ErrorCode.ClientClosedRequest));
  };
  if (response.destroyed) gone();
  else response.on("close", gone);
}

/**
 * 429 Too Many Requests, with `Retry-After` and the `RateLimit-*` headers, whatever the `Accept`.
 * GraphQL over HTTP asks for 200 on `application/json` for every well-formed request, whatever its
 * GraphQL errors; a rate limit is not about the request but about its sender, refused before any
 * GraphQL work, like a proxy in front would (the spec leaves such refusals to HTTP). With 200 the
 * limit would be invisible to HTTP clients, proxies and retry logic that honour 429 and
 * `Retry-After`. The body is still a GraphQL response (`errors`, code RATE_LIMITED) for GraphQL clients.
 */
function tooManyRequests(request: HttpRequest, verdict: RateLimitVerdict): Response {
  const accept = request.raw.headers.accept ?? "";
  const type = accept.includes("application/graphql-response+json") ? "application/graphql-response+json" : "application/json";
  const seconds = verdict.headers["retry-after"];
  const body = { errors: [{ message: `Too many requests; retry after ${seconds} s.`, extensions: { code: ErrorCode.RateLimited } }] };
  return [
    JSON.stringify(body),
    { status: 429, statusText: "Too Many Requests", headers: { ...verdict.headers, "content-type": `${type}; charset=utf-8` } },
  ];
}

/**
 * graphql-http's request parsing, with what it lacks: a body size limit, and the persisted forms
 * (`queryId`, `documentId`, APQ) turned into a `query` before it checks there is one.
 */
async function readParams<Context, V extends Viewer>(
  request: HttpRequest,
  maxBytes: number,
  timeoutMs: number,
  executor: Executor<Context, V>,
): Promise<RequestParams | Response> {
  if (request.method === "POST") {
    const body =
      typeof request.body === "string"
        ? request.body
        : await new Promise<string | Response>((resolve) => readBody(request.raw, maxBytes, timeoutMs, resolve));
    if (typeof body !== "string") return body;
    const type = bodyType(request.raw);
    if (type === "other") return parseRequestParams({ ...request, body });
    let data: unknown;
    try {
      data = JSON.parse(body);
    } catch {
      // graphql-http answers unparsable JSON itself.
      return parseRequestParams({ ...request, body });
    }
    if (typeof data === "object" && data !== null && !Array.isArray(data)) {
      const fields = data as Record<string, unknown>;
      fields["query"] = executor.persisted.resolve(fields);
      return (type === "json" && wellFormedParams(fields)) || parseRequestParams({ ...request, body: fields });
    }
    return parseRequestParams({ ...request, body });
  }
  if (request.method === "GET") {
    const query = request.url.indexOf("?");
    const search = new URLSearchParams(query === -1 ? "" : request.url.slice(query + 1));
    if (search.has("extensions") || search.has("queryId") || search.has("documentId")) {
      let extensions: unknown;
      try {
        extensions = JSON.parse(search.get("extensions") ?? "null");
      } catch {
        // graphql-http answers unparsable extensions itself.
        return parseRequestParams(request);
      }
      const text = executor.persisted.resolve({
        query: search.get("query") ?? undefined,
        queryId: search.get("queryId"),
        documentId: search.get("documentId"),
        extensions,
      });
      if (typeof text === "string") search.set("query", text);
      return parseRequestParams({ ...request, url: `${pathOf(request.url)}?${search.toString()}` });
    }
  }
  return parseRequestParams(request);
}

/**
 * How a body of this `content-type` is read: `json` is graphql-http's JSON (UTF-8), `other-json`
 * JSON that graphql-http refuses (another charset: it answers 415), `other` not JSON.
 */
type BodyType = "json" | "other-json" | "other";

/** The `BodyType` of each `content-type` text seen (clients send a few of them). */
const bodyTypes = new Map<string, BodyType>();

function bodyType(request: IncomingMessage): BodyType {
  const header = request.headers["content-type"];
  if (header === undefined) return "other";
  let type = bodyTypes.get(header);
  if (type === undefined) {
    // graphql-http's test, word for word, for `json`.
    const [media, charset = "charset=utf-8"] = header.replace(/\s/g, "").toLowerCase().split(";");
    if (media === "application/json" && charset === "charset=utf-8") type = "json";
    else type = /^\s*application\/json\s*(;|$)/i.test(header) ? "other-json" : "other";
    if (bodyTypes.size >= 100) bodyTypes.clear();
    bodyTypes.set(header, type);
  }
  return type;
}

/**
 * The parameters graphql-http's `parseRequestParams` would read from this JSON body, when it
 * would accept them (`undefined` otherwise: it then answers with its own error), without
 * parsing the `content-type` header again.
 */
function wellFormedParams(fields: Record<string, unknown>): RequestParams | undefined {
  const { operationName, query, variables, extensions } = fields;
  if (typeof query !== "string") return undefined;
  if (operationName != null && typeof operationName !== "string") return undefined;
  if (!isParamsObject(variables) || !isParamsObject(extensions)) return undefined;
  return { operationName, query, variables, extensions };
}

function isParamsObject(value: unknown): value is Record<string, unknown> | null | undefined {
  return value == null || (typeof value === "object" && !Array.isArray(value));
}

function errorResponse(status: number, statusText: string, message: string, code: string): Response {
  return [
    JSON.stringify({ errors: [{ message, extensions: { code } }] }),
    { status, statusText, headers: { "content-type": "application/json; charset=utf-8", connection: "close" } },
  ];
}

/**
 * The body as text, or the answer when it is too large (413), too slow (408: not complete within
 * `timeoutMs` of the headers) or the client went away (runtime/http-body.ts).
 */
function readBody(request: IncomingMessage, maxBytes: number, timeoutMs: number, resolve: (body: string | Response) => void): void {
  readLimitedBody(request, maxBytes, timeoutMs, REFUSALS, (refusal, body) => resolve(refusal ?? body.toString("utf8")));
}

/** GraphQL's answers to a refused body: a GraphQL error response, and the connection closes. */
const REFUSALS: BodyRefusals<Response> = {
  tooLarge: (limit) =>
    errorResponse(413, "Content Too Large", `The request body is larger than ${limit} bytes.`, ErrorCode.PayloadTooLarge),
  late: (timeout) =>
    errorResponse(408, "Request Timeout", `The request body did not arrive within ${timeout} ms.`, ErrorCode.RequestTimeout),
  broken: () => errorResponse(400, "Bad Request", "The request body could not be read.", ErrorCode.BadUserInput),
};
