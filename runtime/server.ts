/**
 * The core of a generated REST server, on `node:http` with no dependencies. `server.ts` describes
 * the API (routes, operations, validators); this file answers requests with it:
 *
 *   route (404/405/OPTIONS) → cors → rateLimit → authenticate → read body (415/413/408)
 *     → idempotency → conditional → parameters and body (400/422) → handler → result
 *
 * Every error is an `application/problem+json` body with the request's `traceId`, which is also the
 * `Trace-Id` header of every response. The listener works with `http.createServer`, and as
 * Express or Connect middleware (`app.use(listener)`): a path outside the API's base paths goes to
 * `next()` when there is one. The core reads requests and writes answers through a `Host`
 * (`server-host.ts`): the listener is the node:http one (which `mount-fastify.ts` and
 * `mount-koa.ts` hand node's objects to); `mount-fetch.ts` runs the same core on Fetch hosts
 * (Hono, Bun, Deno, Workers).
 *
 * Paths: each segment is percent-decoded after splitting, so `%2F` never separates segments, and
 * segments that decode to `.`/`..` or hold a slash are refused (400). A trailing slash is ignored
 * (`/projects/` is `/projects`); empty segments are not (`/projects//x` is not found).
 */
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse as NodeResponse } from "node:http";
import { HOSTED, nodeHost, type Host, type Hosted, type RequestHeaders } from "./server-host.js";
import { authenticate, type AuthenticateOptions } from "./auth.js";
import { assertIfMatch, conditional, type ConditionalOptions } from "./conditional.js";
import { cors, type CorsOptions } from "./cors.js";
import { idempotency, type IdempotencyOptions } from "./idempotency.js";
import { rateLimit, type RateLimitOptions } from "./rate-limit.js";
import {
  acceptsMediaType,
  ClientGoneError,
  decodeBody,
  describeErrors,
  isJsonType,
  matchRoute,
  mediaTypeOf,
  parseQuery,
  parseTarget,
  readParameters,
} from "./server-input.js";
import type { FieldError, ParameterValues, RouteMatch, Target } from "./server-input.js";
import { errorResponse, problemResponse, publicBase, requestPath, resultResponse, statusTitle } from "./server-output.js";
import { HttpProblem } from "./server-types.js";
import type { SplitStage, SplitStageFunction } from "./server-stage.js";
import type { OperationMeta, ServerRequest, ServerResponse, Stage, Store } from "./server-types.js";
import type {
  MaybePromise,
  HandlerResult,
  SortField,
  RequestContext,
  OperationSpec,
  RouteNode,
  ApiSpec,
  NativeRequest,
} from "./server-spec.js";
import { MemoryStore } from "./store.js";
import type { ValidationResult } from "./validation.js";

export { HttpProblem } from "./server-types.js";
export type { FieldError } from "./server-input.js";
export type {
  NativeRequest,
  MaybePromise,
  HeaderValue,
  ResponseHeaders,
  HandlerResult,
  SortField,
  RequestContext,
  Validator,
  ParameterType,
  ParameterSpec,
  FieldSpec,
  BodySpec,
  ResponseSpec,
  PaginationSpec,
  OperationSpec,
  RouteNode,
  ApiSpec,
} from "./server-spec.js";

// ---- options ----------------------------------------------------------------------------------

/** @public */
export interface Limits {
  /** Largest request body in bytes (413 above). Default 1 MiB. */
  maxBodySize: number;
  /** Longest request target (path and query) in characters (414 above). Default 8192. */
  maxUrlLength: number;
  /** Milliseconds a body may take to arrive once the headers are in (408 after). Default 30 000. */
  bodyTimeout: number;
  /** Deepest nesting of a JSON body (400 deeper). Default 64. */
  maxJsonDepth: number;
}

/** @public */
export const DEFAULT_LIMITS: Readonly<Limits> = { maxBodySize: 1024 * 1024, maxUrlLength: 8192, bodyTimeout: 30_000, maxJsonDepth: 64 };

/**
 * Settings of one operation that the document does not say.
 * @public
 */
export interface OperationOptions {
  /** `Cache-Control` of its successful GET/HEAD responses, e.g. `public, max-age=60` or `no-store`. */
  cacheControl?: string;
  /** `If-Match` on PUT/PATCH/DELETE: compared when sent, or required (428 without). */
  ifMatch?: "optional" | "required";
}

/**
 * What `onError` is told besides the error.
 * @public
 */
export interface ErrorContext {
  traceId: string;
  /** The operation id, when routing got that far. */
  operation?: string;
  request: NativeRequest;
}

/** @public */
export interface ServerOptions<Principal = unknown> {
  /**
   * Path prefixes the routes live under. Default: the paths of the document's `servers`
   * (`https://api.example.com/v1` → `/v1`). Pass "" when a framework already strips the prefix
   * (`app.use("/v1", listener)`).
   */
  basePath?: string | readonly string[];
  /**
   * The URL clients reach the server at (`https://api.example.com`, with a path when a proxy adds
   * one): `Location` and `Link` are this plus the request path. Without it they are path-absolute
   * references (`/v1/tasks/42`); they never take a host from the request.
   */
  publicUrl?: string;
  /** No internal error text in responses. Default: `NODE_ENV === "production"`. */
  production?: boolean;
  limits?: Partial<Limits>;
  /** Validates every response body against its schema (development only; a mismatch is a 500). */
  validateResponses?: boolean;
  /** Bound of page sizes whose schema declares no `maximum`. Default 100. */
  maxPageSize?: number;
  /**
   * With a `next` (Express, Connect): whether paths outside the API's routes go to `next()`
   * instead of a 404 problem. Default true.
   */
  fallthrough?: boolean;
  /**
   * The request's trace id. Default: the trace id of a W3C `traceparent` header, else a
   * well-formed `Trace-Id` or `X-Request-Id` header, else a random UUID.
   */
  traceId?: (request: NativeRequest) => string | undefined;
  /** Whose budget a request spends in rate limiting. Default: the client's IP address. */
  clientKey?: (request: NativeRequest) => string;
  /** Told of every unexpected error (the 500s). Default: `console.error`. */
  onError?: (error: unknown, context: ErrorContext) => void;
  /** Per-operation settings, by operation id. */
  operations?: Readonly<Record<string, OperationOptions>>;
  /** CORS allow-list; without it, no CORS headers are sent (same-origin only). */
  cors?: CorsOptions;
  /** Requests per window and client; off unless given. */
  rateLimit?: Omit<RateLimitOptions, "store">;
  /**
   * How credentials become a principal (`verify`) and who may do what (`authorize`). Required when
   * the document declares `security`; `false` turns the checks off (e.g. behind a gateway).
   */
  auth?: Omit<AuthenticateOptions<Principal>, "schemes"> | false;
  /** Replays of POSTs with an `Idempotency-Key`; on by default, `false` turns it off. */
  idempotency?: Omit<IdempotencyOptions, "store"> | false;
  /** ETags, 304s, `Cache-Control` and `If-Match`; on by default, `false` turns it off. */
  conditional?: ConditionalOptions | false;
  /** Shared state of rate limits and idempotency records. Default: a `MemoryStore`. */
  store?: Store;
}

/**
 * The request listener: for `http.createServer`, or as middleware (`app.use(listener)`).
 * @public
 */
export type Listener = (request: IncomingMessage, response: NodeResponse, next?: (error?: unknown) => void) => void;

// ---- the listener -----------------------------------------------------------------------------

const NO_BODY = new Set([204, 304]);
const METHOD_ORDER = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE"];
const TRACE_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const TRACEPARENT = /^[\da-f]{2}-([\da-f]{32})-[\da-f]{16}-[\da-f]{2}$/;

/** Operations as the stages see them: with per-operation options and the path's `allow` list. */
interface Resolved extends OperationSpec {
  allow: readonly string[];
}

interface NodeInfo {
  allow: string[];
  /** `allow` as the `Allow` header writes it. */
  allowText: string;
  operations: Map<string, Resolved>;
  options: Resolved;
  notAllowed: Resolved;
}

/**
 * One step of an operation's chain: a stage run by its parts (`split`: no promise of its own), a
 * stage that wraps the rest (`wrap`, e.g. idempotency), or `RECEIVE`, the body read.
 */
interface Step {
  readonly split: SplitStage | undefined;
  readonly wrap: Stage | undefined;
}

/** The step where each request's body is read. */
const RECEIVE: Step = { split: undefined, wrap: undefined };

function stepOf(stage: Stage): Step {
  const split = (stage as Partial<SplitStageFunction>).split;
  return split ? { split, wrap: undefined } : { split: undefined, wrap: stage };
}

/** What runs for one operation: its stages (only those that apply to it), around the handler. */
type Chain = readonly Step[];

/** Where the chain (or the part of it a wrapping stage's `next` runs) hands its answer. */
interface Sink {
  done(exchange: Exchange, response: ServerResponse): void;
  failed(exchange: Exchange, error: unknown): void;
}

/**
 * One request on its way through the pipeline: what the stages see (`ServerRequest`), plus what
 * routing found, so the steps of the chain are functions made once per listener rather than
 * closures made per request. `url` is parsed only when a stage asks for it (an `apiKey` in the
 * query, the idempotency fingerprint), and `clientKey` is looked up only when a stage reads it
 * (rate limits, the idempotency scope of anonymous clients): most requests need neither.
 */
class Exchange implements ServerRequest {
  body?: Uint8Array;
  principal?: unknown;
  readonly headers: RequestHeaders;
  #url: URL | undefined;
  #clientKey: string | undefined;

  constructor(
    readonly host: Host<unknown, unknown>,
    public method: string,
    readonly raw: unknown,
    readonly res: unknown,
    readonly target: string,
    public operation: OperationMeta,
    public traceId: string,
    readonly resolved: Resolved,
    readonly node: NodeInfo,
    readonly match: RouteMatch,
    readonly query: string,
    readonly chain: Chain,
    readonly clientKeyOf: ((request: NativeRequest) => string) | undefined,
  ) {
    this.headers = host.headers(raw);
  }

  get url(): URL {
    return (this.#url ??= requestUrl(this.headers, this.target));
  }

  set url(value: URL) {
    this.#url = value;
  }

  get clientKey(): string {
    return (this.#clientKey ??=
      (this.clientKeyOf === undefined ? undefined : this.clientKeyOf(this.host.native(this.raw))) ??
      this.host.remoteAddress(this.raw) ??
      "unknown");
  }

  set clientKey(value: string) {
    this.#clientKey = value;
  }
}

/** The context handlers get when no `context` option reshapes it; `signal` is made when first read. */
class HandlerContext<Principal> implements RequestContext<Principal> {
  #signal: AbortSignal | undefined;
  readonly #exchange: Exchange;

  constructor(
    readonly traceId: string,
    readonly principal: Principal | undefined,
    readonly operation: OperationMeta,
    readonly basePath: string,
    readonly request: NativeRequest,
    exchange: Exchange,
    readonly assertIfMatch: (currentEtag: string | undefined) => void,
  ) {
    this.#exchange = exchange;
  }

  get signal(): AbortSignal {
    const exchange = this.#exchange;
    return (this.#signal ??= exchange.host.signal(exchange.raw, exchange.res));
  }
}

type Handler = (this: unknown, request: Record<string, unknown>, context: unknown) => MaybePromise<HandlerResult>;

/**
 * Builds the listener of an API. `server.ts` calls this from its typed `createServer`; `context`
 * turns the base context into the one handlers get.
 */
export function createListener<Principal>(
  api: ApiSpec,
  handlers: object,
  options: ServerOptions<Principal> = {},
  context?: (base: RequestContext<Principal>) => unknown,
): Listener {
  const limits: Limits = { ...DEFAULT_LIMITS, ...options.limits };
  const production = options.production ?? process.env["NODE_ENV"] === "production";
  const publicPrefix = publicBase(options.publicUrl);
  const basePaths = (
    options.basePath === undefined ? api.basePaths : typeof options.basePath === "string" ? [options.basePath] : options.basePath
  )
    .map((path) => path.split("/").filter(Boolean))
    // Longest first, so `/api/v2` wins over `/api`.
    .sort((a, b) => b.length - a.length);
  const maxPageSize = options.maxPageSize ?? 100;
  const onError =
    options.onError ??
    ((error: unknown, where: ErrorContext) => console.error(`[${where.traceId}]${where.operation ? ` ${where.operation}:` : ""}`, error));
  const fallthrough = options.fallthrough ?? true;
  const validateResponses = options.validateResponses ?? false;
  const customTraceId = options.traceId;
  const clientKeyOf = options.clientKey;
  const stages = conventionStages(api, options);
  // Built once per operation: only the stages that can do something for it, with `RECEIVE` where
  // each request's own body-reading step runs.
  const nodes = resolveRoutes(api.routes, options.operations ?? {}, (operation) => [
    ...stages.before.filter(([, applies]) => applies(operation)).map(([stage]) => stepOf(stage)),
    RECEIVE,
    ...stages.after.filter(([, applies]) => applies(operation)).map(([stage]) => stepOf(stage)),
  ]);
  const chains = nodes.chains;
  const table = handlers as Record<string, unknown>;

  /**
   * The innermost step: parameters, body, handler, result. Returns the response when nothing
   * awaits; otherwise `undefined`, and the handler's promise takes the response on to `finish`
   * (no promise of its own in between).
   */
  function invoke(exchange: Exchange, from: number, sink: Sink): ServerResponse | undefined {
    const { resolved: operation, node } = exchange;
    if (operation === node.options) return { status: 204, headers: { allow: node.allowText } };
    if (operation === node.notAllowed) {
      throw new HttpProblem(405, "Method Not Allowed", {
        detail: `${exchange.method} is not one of ${node.allow.join(", ")}.`,
        headers: { allow: node.allowText },
      });
    }
    const handler = table[operation.id];
    if (typeof handler !== "function") throw new HttpProblem(501, "Not Implemented", { detail: `No handler for ${operation.id}.` });
    let read: Record<string, unknown> | Promise<Record<string, unknown>>;
    try {
      read = readInput(operation, exchange.match, exchange.query, exchange.headers, exchange.body, limits, maxPageSize);
    } catch (error) {
      throw internal(exchange, error);
    }
    if (!(read instanceof Promise)) return call(exchange, from, sink, handler as Handler, read);
    read.then(
      (input) => {
        try {
          const response = call(exchange, from, sink, handler as Handler, input);
          if (response !== undefined) finish(exchange, from, exchange.chain.length, sink, response);
        } catch (error) {
          fail(exchange, from, exchange.chain.length, sink, error);
        }
      },
      (error: unknown) => fail(exchange, from, exchange.chain.length, sink, internal(exchange, error)),
    );
    return undefined;
  }

  /**
   * Runs the handler with its context: the response when it answers at once, else `undefined`
   * and its promise goes on to `finish`. Every error it causes leaves as an `HttpProblem`.
   */
  function call(
    exchange: Exchange,
    from: number,
    sink: Sink,
    handler: Handler,
    input: Record<string, unknown>,
  ): ServerResponse | undefined {
    const { traceId } = exchange;
    const req = exchange.host.native(exchange.raw);
    const principal = exchange.principal as Principal | undefined;
    const check = (currentEtag: string | undefined): void => assertIfMatch(exchange, currentEtag);
    let result: MaybePromise<HandlerResult>;
    if (context) {
      // What `context` is given may be spread (`{ ...base, db }`): `signal` stays an own property.
      let signal: AbortSignal | undefined;
      const base: RequestContext<Principal> = {
        traceId,
        principal,
        operation: exchange.resolved,
        basePath: exchange.match.basePath,
        request: req,
        // Made when first asked for: most handlers never look, and a signal costs a listener.
        get signal() {
          return (signal ??= exchange.host.signal(exchange.raw, exchange.res));
        },
        assertIfMatch: check,
      };
      result = (async () => handler.call(handlers, input, await context(base)))();
    } else {
      // Same members; the lazy `signal` lives on the prototype (an object literal with a getter is slow to make).
      const base = new HandlerContext<Principal>(traceId, principal, exchange.resolved, exchange.match.basePath, req, exchange, check);
      try {
        result = handler.call(handlers, input, base);
      } catch (error) {
        throw internal(exchange, error);
      }
    }
    if (!isThenable(result)) return respond(exchange, input, result);
    const to = exchange.chain.length;
    Promise.resolve(result).then(
      (value) => {
        let response: ServerResponse;
        try {
          response = respond(exchange, input, value);
        } catch (error) {
          fail(exchange, from, to, sink, error);
          return;
        }
        finish(exchange, from, to, sink, response);
      },
      (error: unknown) => fail(exchange, from, to, sink, internal(exchange, error)),
    );
    return undefined;
  }

  /** The handler's result as a response (a 500 problem when it cannot be written). */
  function respond(exchange: Exchange, input: Record<string, unknown>, result: HandlerResult): ServerResponse {
    const operation = exchange.resolved;
    try {
      const fields = operation.fields ? fieldList(input[operation.fields.key]) : undefined;
      // Written out rather than `{ ...where, path }`: V8 makes a spread copy that gains properties slowly.
      const resultContext = {
        traceId: exchange.traceId,
        production,
        base: publicPrefix,
        target: exchange.host.originalTarget(exchange.raw) ?? exchange.target,
        query: exchange.query,
        request: input,
        fields,
        validateResponses,
      };
      return resultResponse(operation, result, resultContext);
    } catch (error) {
      throw internal(exchange, error);
    }
  }

  /** An error of the handler's step as the problem that answers it: reported here once, outer stages may decorate it (CORS headers). */
  function internal(exchange: Exchange, error: unknown): HttpProblem {
    if (error instanceof HttpProblem) return error;
    onError(error, { traceId: exchange.traceId, operation: exchange.resolved.id, request: exchange.host.native(exchange.raw) });
    return new HttpProblem(500, statusTitle(500), { detail: production ? undefined : errorText(error) });
  }

  /**
   * Runs the chain from `index` on (its stages, the body read, at the end the handler), with no
   * promise unless a step returns one and no promise per stage when one does: the steps after it
   * go on from its callback. The response (or what was thrown) is completed by the `after`
   * (`failed`) parts of the split stages from `from` on that it passed, innermost first, and
   * handed to `sink`.
   */
  function advance(exchange: Exchange, index: number, from: number, sink: Sink): void {
    const chain = exchange.chain;
    let result: MaybePromise<ServerResponse>;
    try {
      for (;;) {
        const step = chain[index];
        if (step === undefined) {
          const response = invoke(exchange, from, sink);
          if (response === undefined) return;
          result = response;
          break;
        }
        if (step === RECEIVE) {
          // No body (most GETs, DELETEs): nothing to check or wait for.
          if (!exchange.host.hasBody(exchange.raw)) {
            index++;
            continue;
          }
          // Between authentication and idempotency: anonymous clients never get a body buffered.
          checkMediaType(exchange);
          const at = index;
          exchange.host.readBody(exchange.raw, limits, (error, bytes) => {
            if (error !== undefined) return fail(exchange, from, at, sink, error);
            if (bytes !== undefined) exchange.body = bytes;
            advance(exchange, at + 1, from, sink);
          });
          return;
        }
        if (step.wrap) {
          result = step.wrap(exchange, () => rest(exchange, index + 1));
          break;
        }
        const early = step.split?.before?.(exchange);
        if (early === undefined) {
          index++;
          continue;
        }
        if (early instanceof Promise) {
          const at = index;
          early.then(
            // Going on: this stage's own `after` applies too; answering here: only the outer ones'.
            (answer) => (answer === undefined ? advance(exchange, at + 1, from, sink) : finish(exchange, from, at, sink, answer)),
            (error: unknown) => fail(exchange, from, at, sink, error),
          );
          return;
        }
        result = early;
        break;
      }
    } catch (error) {
      fail(exchange, from, index, sink, error);
      return;
    }
    if (result instanceof Promise) {
      const at = index;
      result.then(
        (response) => finish(exchange, from, at, sink, response),
        (error: unknown) => fail(exchange, from, at, sink, error),
      );
    } else {
      finish(exchange, from, index, sink, result);
    }
  }

  /** The rest of the chain as the promise a wrapping stage's `next` returns. */
  function rest(exchange: Exchange, index: number): Promise<ServerResponse> {
    return new Promise((resolve, reject) =>
      advance(exchange, index, index, { done: (_, response) => resolve(response), failed: (_, error) => reject(error) }),
    );
  }

  /** Applies the `after` parts of the split stages in `[from, to)`, innermost first, and hands the response on. */
  function finish(exchange: Exchange, from: number, to: number, sink: Sink, response: ServerResponse): void {
    const chain = exchange.chain;
    try {
      for (let index = to - 1; index >= from; index--) {
        const complete = chain[index]!.split?.after;
        if (complete) response = complete(exchange, response);
      }
    } catch (error) {
      sink.failed(exchange, error);
      return;
    }
    sink.done(exchange, response);
  }

  /** Applies the `failed` parts of the split stages in `[from, to)` to a problem, innermost first, and hands it on. */
  function fail(exchange: Exchange, from: number, to: number, sink: Sink, error: unknown): void {
    if (error instanceof HttpProblem) {
      const chain = exchange.chain;
      try {
        for (let index = to - 1; index >= from; index--) chain[index]!.split?.failed?.(exchange, error);
      } catch (failure) {
        sink.failed(exchange, failure);
        return;
      }
    }
    sink.failed(exchange, error);
  }

  /** 415 for a body of a media type the operation does not take. */
  function checkMediaType(exchange: Exchange): void {
    const contentType = single(exchange.headers["content-type"]);
    const body = exchange.resolved.body;
    if (!body || acceptsMediaType(body, contentType)) return;
    const method = exchange.method;
    const given = mediaTypeOf(contentType);
    const accept = { [method === "PATCH" ? "accept-patch" : "accept-post"]: body.mediaTypes.join(", ") };
    throw new HttpProblem(415, "Unsupported Media Type", {
      detail: `${given ? `${given} is not` : "A body without Content-Type is not"} accepted here; send ${body.mediaTypes.join(" or ")}.`,
      headers: method === "PATCH" || method === "POST" ? accept : {},
    });
  }

  /** Where a whole chain's answer goes: written to the client. */
  const respondTo: Sink = { done: deliver, failed: answerError };

  /** Routes the request, then runs its operation's chain; synchronously to the end when nothing awaits. */
  function serve<Req, Res>(host: Host<Req, Res>, req: Req, res: Res, next: ((error?: unknown) => void) | undefined): void {
    const headers = host.headers(req);
    const traceId = traceIdOf(headers, customTraceId === undefined ? undefined : customTraceId(host.native(req)));
    const url = host.target(req);
    const given = host.method(req);
    const method = given === undefined ? "GET" : given.toUpperCase();

    let match: RouteMatch | undefined;
    let target: Target;
    try {
      if (url.length > limits.maxUrlLength)
        throw new HttpProblem(414, "URI Too Long", { detail: `The request target is longer than ${limits.maxUrlLength} characters.` });
      target = parseTarget(url);
      match = matchRoute(api.routes, basePaths, target.segments);
    } catch (error) {
      return send(host, req, res, errorResponse(error, { traceId, instance: instanceOf(url), production }), traceId);
    }
    if (!match) {
      if (next && fallthrough) return next();
      return send(
        host,
        req,
        res,
        problemResponse(
          404,
          "Not Found",
          { detail: "No resource lives at this path." },
          { traceId, instance: instanceOf(url), production },
        ),
        traceId,
      );
    }
    const node = nodes.get(match.node)!;
    const operation =
      node.operations.get(method) ??
      (method === "HEAD" ? node.operations.get("GET") : undefined) ??
      (method === "OPTIONS" ? node.options : node.notAllowed);
    const exchange = new Exchange(
      host as Host<unknown, unknown>,
      method,
      req,
      res,
      url,
      operation,
      traceId,
      operation,
      node,
      match,
      target.query,
      chains.get(operation)!,
      clientKeyOf,
    );

    advance(exchange, 0, 0, respondTo);
  }

  /** Writes the response a chain settled with (a failure to write is answered by `writeFailed`). */
  function deliver(exchange: Exchange, response: ServerResponse): void {
    try {
      send(exchange.host, exchange.raw, exchange.res, response, exchange.traceId, onError);
    } catch (error) {
      writeFailed(exchange.host, exchange.raw, exchange.res, error);
    }
  }

  /** Answers what the chain threw: a problem as itself, anything else as a reported 500; nothing for a client that left. */
  function answerError(exchange: Exchange, error: unknown): void {
    if (error instanceof ClientGoneError) return;
    const { traceId } = exchange;
    if (!(error instanceof HttpProblem))
      onError(error, { traceId, operation: exchange.resolved.id, request: exchange.host.native(exchange.raw) });
    deliver(exchange, errorResponse(error, { traceId, instance: instanceOf(exchange.target), production }));
  }

  /** Only a failure to write gets here; answer if nothing was written yet. */
  function writeFailed<Req, Res>(host: Host<Req, Res>, req: Req, res: Res, error: unknown): void {
    onError(error, { traceId: "", request: host.native(req) });
    host.abort(res);
  }

  /** The core on any host: what the node listener runs, and what `mount-*.ts` run on theirs. */
  const hosted: Hosted = (host, req, res, next) => {
    try {
      serve(host, req, res, next);
    } catch (error) {
      writeFailed(host, req, res, error);
    }
  };
  const listener: Listener = (req, res, next) => hosted(nodeHost, req, res, next);
  return Object.defineProperty(listener, HOSTED, { value: hosted });
}

/** A promise or another thenable (what a handler may return). */
function isThenable<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | null | undefined)?.then === "function";
}

/** The path of a request target, as a problem's `instance` (a relative reference: never a host). */
function instanceOf(url: string): string {
  return requestPath(url);
}

/** A stage, and which operations it can do anything for (the others skip it). */
type Placed = [stage: Stage, applies: (operation: Resolved) => boolean];

const ALWAYS = (): boolean => true;

/**
 * The convention stages around the body read, in the contract's order. Each stage also checks for
 * itself whether a request concerns it; the predicates only keep it out of the chains of
 * operations it would pass straight through (no `security`, no `idempotencyKey`, neither GET nor
 * `ifMatch`), which saves an async step per stage and request.
 */
function conventionStages<Principal>(api: ApiSpec, options: ServerOptions<Principal>): { before: Placed[]; after: Placed[] } {
  const store = options.store ?? new MemoryStore();
  const before: Placed[] = [];
  const after: Placed[] = [];
  if (options.cors) before.push([cors(options.cors), ALWAYS]);
  if (options.rateLimit) before.push([rateLimit({ ...options.rateLimit, store }), ALWAYS]);
  if (options.auth) {
    before.push([authenticate({ ...options.auth, schemes: api.securitySchemes }), (operation) => operation.security.length > 0]);
  } else if (options.auth === undefined && Object.keys(api.securitySchemes).length > 0 && usesSecurity(api.routes)) {
    throw new TypeError(
      "createServer: the API's operations require authentication: pass auth: { verify }, or auth: false to turn the checks off.",
    );
  }
  if (options.idempotency !== false)
    after.push([idempotency({ ...options.idempotency, store }), (operation) => operation.idempotencyKey === true]);
  if (options.conditional !== false) {
    // GET (and HEAD, which runs the GET operation) get ETags and 304s; writes with `ifMatch` get 428/412.
    after.push([
      conditional(options.conditional || {}),
      (operation) => operation.method === "GET" || operation.method === "HEAD" || operation.ifMatch !== undefined,
    ]);
  }
  return { before, after };
}

function usesSecurity(node: RouteNode): boolean {
  if (node.methods && Object.values(node.methods).some((operation) => operation.security.length > 0)) return true;
  const children = [
    ...Object.values(node.children ?? {}),
    ...(node.patterns ?? []).map((pattern) => pattern.node),
    ...(node.param ? [node.param] : []),
  ];
  return children.some(usesSecurity);
}

/** Every route node, with its operations as the stages see them and its `Allow` list; and each operation's chain. */
function resolveRoutes(
  root: RouteNode,
  overrides: Readonly<Record<string, OperationOptions>>,
  chainOf: (operation: Resolved) => Chain,
): Map<RouteNode, NodeInfo> & { chains: Map<Resolved, Chain> } {
  const nodes = new Map<RouteNode, NodeInfo>() as Map<RouteNode, NodeInfo> & { chains: Map<Resolved, Chain> };
  const chains = new Map<Resolved, Chain>();
  nodes.chains = chains;
  const visit = (node: RouteNode): void => {
    if (node.methods) {
      const declared = Object.keys(node.methods);
      const allow = [...new Set([...declared, ...(declared.includes("GET") ? ["HEAD"] : []), "OPTIONS"])].sort((a, b) => rank(a) - rank(b));
      const operations = new Map<string, Resolved>();
      for (const [method, operation] of Object.entries(node.methods)) {
        const extra = Object.hasOwn(overrides, operation.id) ? overrides[operation.id] : undefined;
        const resolved: Resolved = { ...operation, ...extra, allow };
        operations.set(method, resolved);
        chains.set(resolved, chainOf(resolved));
      }
      const pseudo = (id: string, method: string): Resolved => ({ id, method, path: node.path ?? "", security: [], responses: {}, allow });
      const info: NodeInfo = {
        allow,
        allowText: allow.join(", "),
        operations,
        options: pseudo("options", "OPTIONS"),
        notAllowed: pseudo("methodNotAllowed", ""),
      };
      chains.set(info.options, chainOf(info.options));
      chains.set(info.notAllowed, chainOf(info.notAllowed));
      nodes.set(node, info);
    }
    for (const child of Object.values(node.children ?? {})) visit(child);
    for (const pattern of node.patterns ?? []) visit(pattern.node);
    if (node.param) visit(node.param);
  };
  visit(root);
  return nodes;
}

function rank(method: string): number {
  const index = METHOD_ORDER.indexOf(method);
  return index === -1 ? METHOD_ORDER.length : index;
}

const LOCATIONS = ["path", "query", "header", "cookie"] as const;
const LOCATION_POINTERS = { path: "/path", query: "/query", header: "/header", cookie: "/cookie" } as const;
const NO_QUERY: ReadonlyMap<string, string[]> = new Map();

/**
 * Parameters and body, parsed (400), validated (422) and shaped as the handler's request. Returns
 * the request itself unless the body must be awaited (multipart), so most requests take no extra
 * async step here.
 */
function readInput(
  operation: OperationSpec,
  match: RouteMatch,
  query: string,
  headers: RequestHeaders,
  bytes: Uint8Array | undefined,
  limits: Limits,
  maxPageSize: number,
): Record<string, unknown> | Promise<Record<string, unknown>> {
  const values = readParameters(operation, { path: match, query: query === "" ? NO_QUERY : parseQuery(query), headers });
  const errors: FieldError[] = [];
  if (operation.validate) {
    for (const location of LOCATIONS) {
      const validate = operation.validate[location];
      if (validate) collect(validate(values[location]), LOCATION_POINTERS[location], errors);
    }
  }
  if (!operation.body) return shapeInput(operation, values, errors, undefined, maxPageSize);
  const contentType = single(headers["content-type"]);
  const decoded = decodeBody(operation.body, contentType, bytes, limits.maxJsonDepth);
  if (decoded instanceof Promise) return decoded.then((body) => withBody(operation, values, errors, body, contentType, maxPageSize));
  return withBody(operation, values, errors, decoded, contentType, maxPageSize);
}

function withBody(
  operation: OperationSpec,
  values: ParameterValues,
  errors: FieldError[],
  body: unknown,
  contentType: string | undefined,
  maxPageSize: number,
): Record<string, unknown> {
  const spec = operation.body!;
  if (body === undefined) {
    if (spec.required) errors.push({ pointer: "/body", keyword: "required", message: "is required" });
  } else if (isStructured(mediaTypeOf(contentType))) {
    if (spec.validate) collect(spec.validate(body), "/body", errors);
  } else if (typeof body === "string") {
    if (spec.validateText) collect(spec.validateText(body), "/body", errors);
  } else if (body instanceof Uint8Array && spec.bytes) {
    // A binary string's length counts bytes (as `maxLength` of a file is commonly meant).
    const { minLength = 0, maxLength = Infinity } = spec.bytes;
    if (body.length > maxLength) errors.push({ pointer: "/body", keyword: "maxLength", message: `must be at most ${maxLength} bytes` });
    if (body.length < minLength) errors.push({ pointer: "/body", keyword: "minLength", message: `must be at least ${minLength} bytes` });
  }
  return shapeInput(operation, values, errors, body, maxPageSize);
}

function shapeInput(
  operation: OperationSpec,
  values: ParameterValues,
  errors: FieldError[],
  body: unknown,
  maxPageSize: number,
): Record<string, unknown> {
  const request: Record<string, unknown> = {};
  for (const parameter of operation.parameters ?? []) {
    if (parameter.group !== undefined && request[parameter.group] === undefined) request[parameter.group] = {};
    let value = values[parameter.in][parameter.name];
    if (value === undefined && parameter.default !== undefined) {
      // Each request gets its own copy of an object default; primitives need none.
      value = typeof parameter.default === "object" && parameter.default !== null ? structuredClone(parameter.default) : parameter.default;
    }
    if (value === undefined) continue;
    const target = parameter.group === undefined ? request : (request[parameter.group] as Record<string, unknown>);
    if (parameter.key === "__proto__")
      Object.defineProperty(target, parameter.key, { value, enumerable: true, writable: true, configurable: true });
    else target[parameter.key] = value;
  }
  if (operation.sort) {
    const { key } = operation.sort;
    const pointer = `/query/${operation.parameters?.find((parameter) => parameter.key === key)?.name ?? key}`;
    const parsed = parseSort(request[key], operation.sort.fields);
    // The schema (an enum, a pattern) usually refuses unknown fields first: one error is enough.
    if (typeof parsed !== "string") request[key] = parsed;
    else if (!errors.some((error) => error.pointer === pointer)) errors.push({ pointer, keyword: "enum", message: parsed });
  }
  if (operation.pageSize) {
    const size = request[operation.pageSize.key];
    if (typeof size === "number" && size > maxPageSize) request[operation.pageSize.key] = maxPageSize;
  }
  if (errors.length) {
    throw new HttpProblem(422, "Unprocessable Content", { detail: describeErrors(errors), extensions: { errors } });
  }
  if (operation.body && body !== undefined) request["body"] = body;
  return request;
}

function collect(result: ValidationResult<unknown>, prefix: string, errors: FieldError[]): void {
  if (!result.ok)
    for (const error of result.errors) errors.push({ pointer: prefix + error.path, keyword: error.keyword, message: error.message });
}

/** `-createdAt,title` → sort fields; a message when a field is not sortable. */
function parseSort(value: unknown, fields: readonly string[] | undefined): SortField[] | string {
  const texts = value === undefined ? [] : Array.isArray(value) ? value.map(String) : [String(value)];
  const sort: SortField[] = [];
  for (const part of texts.flatMap((text) => text.split(","))) {
    const item = part.trim();
    if (item === "") continue;
    const descending = item.startsWith("-");
    const field = descending || item.startsWith("+") ? item.slice(1) : item;
    if (fields && !fields.includes(field)) return `cannot sort by ${JSON.stringify(field)}; sortable: ${fields.join(", ")}`;
    sort.push({ field, direction: descending ? "desc" : "asc" });
  }
  return sort;
}

/** The fields of a sparse fieldset; none listed (`fields=`) means all of them. */
function fieldList(value: unknown): string[] | undefined {
  const fields = Array.isArray(value)
    ? value.map(String)
    : typeof value === "string"
      ? value
          .split(",")
          .map((field) => field.trim())
          .filter(Boolean)
      : [];
  return fields.length ? fields : undefined;
}

function isStructured(type: string | undefined): boolean {
  return type !== undefined && (isJsonType(type) || type === "application/x-www-form-urlencoded" || type === "multipart/form-data");
}

function errorText(error: unknown): string | undefined {
  if (error instanceof Error) return error.message || error.name;
  return typeof error === "string" ? error : undefined;
}

/** The trace id `chosen` by the `traceId` option if well-formed, else the one the headers carry, else a new one. */
function traceIdOf(headers: RequestHeaders, chosen: string | undefined): string {
  if (chosen !== undefined && TRACE_ID.test(chosen)) return chosen;
  const traceparent = single(headers["traceparent"]);
  if (traceparent !== undefined) {
    const parent = TRACEPARENT.exec(traceparent)?.[1];
    if (parent !== undefined && !/^0+$/.test(parent)) return parent;
  }
  const traceHeader = single(headers["trace-id"]);
  if (traceHeader !== undefined && TRACE_ID.test(traceHeader)) return traceHeader;
  const requestId = single(headers["x-request-id"]);
  if (requestId !== undefined && TRACE_ID.test(requestId)) return requestId;
  return randomUUID();
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

const HOST = /^[A-Za-z0-9.-]+(?::\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](?::\d{1,5})?$/;

function requestUrl(headers: RequestHeaders, url: string): URL {
  const host = single(headers["host"]);
  const origin = `http://${host !== undefined && HOST.test(host) ? host : "localhost"}`;
  try {
    return new URL(url.startsWith("/") ? url : "/", origin);
  } catch {
    return new URL(`http://localhost${url.startsWith("/") ? url : "/"}`);
  }
}

/** Writes a response: `Trace-Id` always; HEAD, 204 and 304 without a body. */
function send<Req, Res>(
  host: Host<Req, Res>,
  req: Req,
  res: Res,
  response: ServerResponse,
  traceId: string,
  onError?: (error: unknown, context: ErrorContext) => void,
): void {
  if (!host.open(res)) return;
  // The response was made for this request alone (stage contract): its headers are completed in
  // place rather than copied once more.
  const headers = response.headers;
  headers["trace-id"] = traceId;
  const bodyless = response.status < 200 || NO_BODY.has(response.status);
  const body = response.body;
  if (body !== undefined && !bodyless)
    headers["content-length"] = String(typeof body === "string" ? Buffer.byteLength(body) : body.byteLength);
  try {
    host.write(res, response.status, headers, bodyless || host.method(req) === "HEAD" ? undefined : body);
  } catch (error) {
    // A stage or handler set a header the host refuses (CR/LF, bad name): never send half of it.
    onError?.(error, { traceId, request: host.native(req) });
    host.reset(res);
    const problem = problemResponse(500, statusTitle(500), {}, { traceId, instance: instanceOf(host.target(req)), production: true });
    host.write(res, 500, { ...problem.headers, "trace-id": traceId }, problem.body);
  }
}

// ---- composing and hosting ------------------------------------------------------------------

/**
 * One listener from several, tried in order: each passes the requests outside its base paths to
 * the next, and the last answers them 404. This is how `/v1` and `/v2`, generated from two
 * documents (or from one with `basePath` set per handler set), share one server.
 *
 * @example
 * http.createServer(combine(createServerV1(handlersV1), createServerV2(handlersV2))).listen(8080);
 * @public
 */
export function combine(...listeners: Listener[]): Listener {
  const cores = listeners.map((listener) => (listener as { [HOSTED]?: Hosted })[HOSTED]);
  const hosted: Hosted = (host, req, res, next) => {
    const at = (index: number): void => {
      const core = cores[index];
      if (index === listeners.length) {
        if (next) return next();
        const traceId = traceIdOf(host.headers(req), undefined);
        return send(
          host,
          req,
          res,
          problemResponse(
            404,
            "Not Found",
            { detail: "No resource lives at this path." },
            { traceId, instance: requestPath(host.target(req)), production: true },
          ),
          traceId,
        );
      }
      const onward = (error?: unknown): void => {
        if (error !== undefined) {
          if (next) return next(error);
          host.abort(res);
          return;
        }
        at(index + 1);
      };
      // A plain node listener (say a health check) in the list runs only on node's host.
      if (core) core(host, req, res, onward);
      else (listeners[index] as Listener)(req as IncomingMessage, res as NodeResponse, onward);
    };
    at(0);
  };
  const listener: Listener = (req, res, next) => hosted(nodeHost, req, res, next);
  return cores.every((core) => core !== undefined) ? Object.defineProperty(listener, HOSTED, { value: hosted }) : listener;
}

/** The hardened `http.Server` (timeouts, head size, early refusals as problems), shared by every style. */
export { createHttpServer, type HttpServerOptions } from "./http-listener.js";
