/**
 * REST routes from `google.api.http` rules, on the gRPC server's own port: gRPC transcoding as
 * grpc-gateway and Envoy's gRPC-JSON transcoder do it (googleapis google/api/http.proto). A
 * route's path variables, query parameters and JSON body become the request message through the
 * proto3 JSON mapping (https://protobuf.dev/programming-guides/json/); the very handler that
 * answers gRPC answers it, behind the same `authenticate` / `authorize` hooks (credentials from
 * the `Authorization` header), and its answer goes back as JSON:
 * - a unary method answers 200 with the message (or its `response_body` field);
 * - a server-streaming method answers 200 with one JSON object per line, `{"result": message}`,
 *   and `{"error": problem}` as the last line if the stream fails after it began (grpc-gateway's form);
 * - an error is an RFC 9457 `application/problem+json` body whose status follows the gRPC code as
 *   google/rpc/code.proto maps it (NOT_FOUND 404, INVALID_ARGUMENT 400, UNAUTHENTICATED 401...),
 *   with the code's name in `code` and a `traceId`;
 * - what no handler should see is refused before one runs: no route 404, another method 405 (with
 *   `Allow`), a body that is not JSON or does not fit the message, an unknown or malformed query
 *   parameter, or one naming a field the path or body already sets 400, a body over the size
 *   limit 413, a body that is not `application/json` 415.
 * A `Grpc-Timeout` header sets the call's deadline, as grpc-gateway reads it (504 when it passes).
 * Methods that stream requests (client and bidirectional streaming) get no REST routes.
 */
import { randomUUID } from "node:crypto";
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from "node:http";
import type { Http2ServerRequest, Http2ServerResponse } from "node:http2";
import {
  create,
  toJson,
  type DescField,
  type DescMessage,
  type DescMethod,
  type DescService,
  type JsonObject,
  type JsonValue,
  type MessageInitShape,
  type Registry,
} from "@bufbuild/protobuf";
import { Code, ConnectError, createContextValues } from "@connectrpc/connect";
import { metadataOf } from "./grpc-admission.js";
import { ADMITTED, admit, type Admitted, type CallHandler, type CallState, type Hooks } from "./grpc-call.js";
import { grpcTimeoutMs } from "./grpc-limits.js";
import {
  isUrlMap,
  isUrlValue,
  jsonRegistry,
  resolveFieldPath,
  setJsonField,
  setJsonMapEntry,
  urlValueJson,
} from "./grpc-transcoding-fields.js";
import { matchPathTemplate, parsePathTemplate, type HttpRule, type HttpRules, type PathTemplate } from "./grpc-transcoding-path.js";
import { jsonCodecOf } from "./proto-json.js";

export type { HttpRule, HttpRules } from "./grpc-transcoding-path.js";

type Request = IncomingMessage | Http2ServerRequest;
type Response = ServerResponse | Http2ServerResponse;

/** A served service with HTTP rules, and its wrapped handlers (`grpc-call.ts`'s `implement`). */
export interface TranscodedService {
  service: DescService;
  methods: ReadonlyMap<string, CallHandler>;
  http: HttpRules;
}

export interface TranscoderOptions {
  hooks: Hooks;
  /** Largest JSON body in bytes; larger ones answer 413. */
  readMaxBytes: number;
  /** Aborts every running call when the server shuts down. */
  shutdownSignal: AbortSignal;
  /** Longest `Grpc-Timeout` a request may ask for; longer ones answer 400. */
  maxTimeoutMs?: number | undefined;
}

interface Route {
  httpMethod: string;
  template: PathTemplate;
  method: DescMethod;
  handler: CallHandler | undefined;
  body: "*" | DescField[] | undefined;
  responseBody: DescField | undefined;
  /** The fields of the path variables, by the variable's field path. */
  pathFields: Map<string, DescField[]>;
  /** Field-number paths the path and the body set (`"1.2"`), which query parameters may not set. */
  bound: string[];
}

/** HTTP status of each gRPC code, as google/rpc/code.proto (and grpc-gateway) map them. */
const HTTP_STATUS: Readonly<Record<number, number>> = {
  [Code.Canceled]: 499,
  [Code.Unknown]: 500,
  [Code.InvalidArgument]: 400,
  [Code.DeadlineExceeded]: 504,
  [Code.NotFound]: 404,
  [Code.AlreadyExists]: 409,
  [Code.PermissionDenied]: 403,
  [Code.ResourceExhausted]: 429,
  [Code.FailedPrecondition]: 400,
  [Code.Aborted]: 409,
  [Code.OutOfRange]: 400,
  [Code.Unimplemented]: 501,
  [Code.Internal]: 500,
  [Code.Unavailable]: 503,
  [Code.DataLoss]: 500,
  [Code.Unauthenticated]: 401,
};

/**
 * Refusals of the request itself, with the HTTP status to answer (404, 405, 413, 415...) instead of
 * the code's. Kept beside the errors: `instanceof` cannot tell a subclass of `ConnectError` apart,
 * since `ConnectError` answers it by shape.
 */
const requestProblems = new WeakMap<ConnectError, { status: number; headers: Record<string, string> }>();

function requestProblem(message: string, code: Code, status: number, headers: Record<string, string> = {}): ConnectError {
  const error = new ConnectError(message, code);
  requestProblems.set(error, { status, headers });
  return error;
}

const invalid = (message: string) => requestProblem(message, Code.InvalidArgument, 400);

/** Answers the REST routes of `services`; see the file's comment. */
export class Transcoder {
  readonly #routes: Route[];
  readonly #grpcPaths: ReadonlySet<string>;
  readonly #options: TranscoderOptions;
  readonly #registry: Registry;

  /**
   * @param grpcPaths `/pkg.Service/Method` of every served method: requests to them stay gRPC's.
   * @throws TypeError for a rule that does not fit its method (the generator checks them first).
   */
  constructor(services: readonly TranscodedService[], grpcPaths: ReadonlySet<string>, options: TranscoderOptions) {
    this.#grpcPaths = grpcPaths;
    this.#options = options;
    this.#registry = jsonRegistry(services.map((entry) => entry.service.file));
    const routes: Route[] = [];
    for (const { service, methods, http } of services) {
      for (const method of service.methods) {
        if (method.methodKind === "client_streaming" || method.methodKind === "bidi_streaming") continue;
        for (const rule of http[method.localName] ?? []) routes.push(compileRoute(method, methods.get(method.localName), rule));
      }
    }
    // A path ending in `:verb` fits `{name=x/*}:verb` and, with the verb in `name`, `{name=x/*}`: the verb wins.
    this.#routes = [
      ...routes.filter((route) => route.template.verb !== undefined),
      ...routes.filter((route) => route.template.verb === undefined),
    ];
  }

  /** The HTTP methods of the routes (for CORS). */
  get methods(): string[] {
    return [...new Set(this.#routes.map((route) => route.httpMethod))];
  }

  /** Answers `request` when it is a REST request; false for gRPC, gRPC-Web and Connect requests. */
  serve(request: Request, response: Response): boolean {
    const url = request.url ?? "/";
    const mark = url.indexOf("?");
    const path = mark === -1 ? url : url.slice(0, mark);
    const type = String(request.headers["content-type"] ?? "");
    if (
      /^application\/(grpc|connect\+)/i.test(type) ||
      request.headers["connect-protocol-version"] !== undefined ||
      this.#grpcPaths.has(path)
    )
      return false;
    const traceId = randomUUID();
    this.#answer(request, response, path, mark === -1 ? "" : url.slice(mark + 1)).catch((error: unknown) =>
      this.#fail(request, response, error, path, traceId),
    );
    return true;
  }

  async #answer(request: Request, response: Response, path: string, query: string): Promise<void> {
    const matches = this.#routes.flatMap((route) => {
      const variables = matchPathTemplate(route.template, path);
      return variables ? [{ route, variables }] : [];
    });
    if (matches.length === 0) throw requestProblem(`no route matches ${path}`, Code.NotFound, 404);
    const allowed = new Set(matches.map((match) => match.route.httpMethod));
    if (allowed.has("GET")) allowed.add("HEAD");
    allowed.add("OPTIONS");
    const allow = [...allowed].join(", ");
    if (request.method === "OPTIONS") {
      response.writeHead(204, { allow });
      response.end();
      return;
    }
    const head = request.method === "HEAD";
    const match = matches.find((candidate) => candidate.route.httpMethod === (head ? "GET" : request.method));
    if (match === undefined)
      throw requestProblem(`${path} does not answer ${request.method}; it answers ${allow}`, Code.Unimplemented, 405, { allow });
    const { route, variables } = match;
    const metadata = metadataOf(request.headers);
    const { hooks } = this.#options;
    let admitted: Admitted | undefined;
    try {
      if (hooks.authenticate) admitted = await admit(route.method, metadata, hooks);
    } catch (error) {
      throw asConnectError(error, route.method, hooks);
    }
    if (route.handler === undefined)
      throw new ConnectError(`${route.method.parent.typeName}/${route.method.name} is not implemented`, Code.Unimplemented);
    const timeout = request.headers["grpc-timeout"];
    const timeoutMs = typeof timeout === "string" ? grpcTimeoutMs(timeout, this.#options.maxTimeoutMs) : undefined;
    const body = route.body === undefined ? undefined : await readJsonBody(request, this.#options.readMaxBytes);
    const input = this.#input(route, variables, query, body);

    const cancel = new AbortController();
    const deadline = timeoutMs === undefined ? undefined : Date.now() + timeoutMs;
    const timer =
      timeoutMs === undefined
        ? undefined
        : setTimeout(() => cancel.abort(new ConnectError("the operation timed out", Code.DeadlineExceeded)), timeoutMs);
    response.once("close", () => {
      clearTimeout(timer);
      if (!response.writableFinished) cancel.abort(new ConnectError("the client went away", Code.Canceled));
    });
    const call: CallState = {
      requestHeader: metadata,
      responseHeader: new Headers(),
      responseTrailer: new Headers(),
      signal: AbortSignal.any([cancel.signal, this.#options.shutdownSignal]),
      method: route.method,
      protocolName: "http",
      values: createContextValues().set(ADMITTED, admitted),
      timeoutMs: () => (deadline === undefined ? undefined : Math.max(0, deadline - Date.now())),
    };
    if (route.method.methodKind === "unary") {
      const output = await (route.handler(input, call) as Promise<unknown>);
      // An answer after the deadline (or the shutdown) is not sent as if all were well.
      if (call.signal.aborted) throw ConnectError.from(call.signal.reason, Code.Canceled);
      const bytes = Buffer.from(JSON.stringify(this.#outputJson(route, output)));
      response.writeHead(200, {
        ...forwarded(call.responseHeader),
        "content-type": "application/json",
        "content-length": String(bytes.length),
      });
      if (head) response.end();
      else response.end(bytes);
      return;
    }
    await this.#stream(response, route, (route.handler(input, call) as AsyncIterable<unknown>)[Symbol.asyncIterator](), call, head, path);
  }

  /** The request message from the path variables, the query and the body. */
  #input(route: Route, variables: ReadonlyMap<string, string>, query: string, body: JsonValue | undefined): unknown {
    let json: JsonObject = {};
    if (body !== undefined) {
      if (route.body === "*") {
        if (body === null || typeof body !== "object" || Array.isArray(body))
          throw invalid(`the body must be a JSON object (a ${route.method.input.typeName})`);
        json = body;
      } else if (route.body !== undefined) setJsonField(json, route.body, body);
    }
    for (const [name, value] of variables) {
      const fields = route.pathFields.get(name)!;
      try {
        setJsonField(json, fields, urlValueJson(fields[fields.length - 1]!, value));
      } catch (error) {
        throw invalid(`path variable ${name}: ${(error as Error).message}`);
      }
    }
    const seen = new Set<string>();
    for (const [name, value] of new URLSearchParams(query)) {
      if (route.body === "*") throw invalid(`query parameter "${name}": this route takes every field from the body, not the query`);
      // `labels[env]=prod` sets one entry of a map.
      const entry = /^(.+)\[([^\]]*)\]$/.exec(name);
      let fields: DescField[];
      try {
        fields = resolveFieldPath(route.method.input, (entry ? entry[1]! : name).split("."));
      } catch (error) {
        throw invalid(`unknown query parameter "${name}": ${(error as Error).message}`);
      }
      const last = fields[fields.length - 1]!;
      if (entry ? !isUrlMap(last) : !isUrlValue(last)) {
        throw invalid(
          `query parameter "${name}" ${entry ? "is not a map of scalars" : `is a message, a map or a list of messages; set its fields one by one ("${name}.<field>=...") or a map's entries ("${name}[<key>]=...")`}`,
        );
      }
      const key = `${fields.map((field) => field.number).join(".")}${entry ? `[${entry[2]!}]` : ""}`;
      const clash = route.bound.find((bound) => `${key}.`.startsWith(`${bound}.`) || `${bound}.`.startsWith(`${key}.`));
      if (clash !== undefined) throw invalid(`query parameter "${name}" sets a field the path or the body already sets`);
      const list = last.fieldKind === "list";
      if (!list && seen.has(key)) throw invalid(`query parameter "${name}" is given twice, and "${last.name}" holds one value`);
      seen.add(key);
      try {
        if (entry) setJsonMapEntry(json, fields, entry[2]!, urlValueJson(last, value));
        else setJsonField(json, fields, urlValueJson(last, value), list);
      } catch (error) {
        throw invalid(`query parameter "${name}": ${(error as Error).message}`);
      }
    }
    try {
      return jsonCodecOf(route.method.input).fromJson(json, { registry: this.#registry });
    } catch (error) {
      throw invalid((error as Error).message);
    }
  }

  /** The JSON of an answer: the message, or its `response_body` field. */
  #outputJson(route: Route, output: unknown): JsonValue {
    const message = create(route.method.output, output as MessageInitShape<DescMessage>);
    if (route.responseBody === undefined) return jsonCodecOf(route.method.output).toJson(message, { registry: this.#registry });
    const json = toJson(route.method.output, message, { registry: this.#registry, alwaysEmitImplicit: true }) as JsonObject;
    return json[route.responseBody.jsonName] ?? null;
  }

  /** A server stream, one `{"result": ...}` line per message; an error before the first is a problem. */
  async #stream(
    response: Response,
    route: Route,
    messages: AsyncIterator<unknown>,
    call: CallState,
    head: boolean,
    path: string,
  ): Promise<void> {
    let next = await messages.next();
    response.writeHead(200, { ...forwarded(call.responseHeader), "content-type": "application/json" });
    if (head) {
      response.end();
      await messages.return?.();
      return;
    }
    try {
      while (next.done !== true) {
        await write(response, `${JSON.stringify({ result: this.#outputJson(route, next.value) })}\n`);
        next = await messages.next();
      }
      if (call.signal.aborted) throw ConnectError.from(call.signal.reason, Code.Canceled);
    } catch (error) {
      const problem = problemOf(asConnectError(error, route.method, this.#options.hooks), path, randomUUID());
      if (!response.destroyed) await write(response, `${JSON.stringify({ error: problem.body })}\n`);
    }
    response.end();
  }

  /** Answers a failure as a problem, or cuts the response when its head is already out. */
  #fail(request: Request, response: Response, error: unknown, path: string, traceId: string): void {
    if (response.headersSent) {
      response.destroy();
      return;
    }
    const failure = error instanceof ConnectError ? error : asConnectError(error, undefined, this.#options.hooks);
    const { status, body } = problemOf(failure, path, traceId);
    const bytes = Buffer.from(JSON.stringify(body));
    const headers: Record<string, string> = {
      ...requestProblems.get(failure)?.headers,
      "content-type": "application/problem+json",
      "content-length": String(bytes.length),
      "trace-id": traceId,
    };
    if (status === 401) headers["www-authenticate"] = "Bearer";
    // A refused body may still be arriving: do not make the client send it all.
    // (HTTP/1.1 only: HTTP/2 has no Connection header, and resets just the stream.)
    if (status === 413 && request.httpVersionMajor === 1) headers["connection"] = "close";
    try {
      response.writeHead(status, headers);
      response.end(bytes);
    } catch {
      response.destroy(); // the connection went away meanwhile
    }
  }
}

/** The route of one rule; see `HttpRule`. */
function compileRoute(method: DescMethod, handler: CallHandler | undefined, rule: HttpRule): Route {
  const where = `${method.parent.typeName}/${method.name} ${rule.method} ${rule.path}`;
  const fields = (path: string, what: string) => {
    try {
      return resolveFieldPath(method.input, path.split("."));
    } catch (error) {
      throw new TypeError(`${where}: ${what} "${path}": ${(error as Error).message}`);
    }
  };
  const template = parsePathTemplate(rule.path);
  const pathFields = new Map<string, DescField[]>();
  for (const variable of template.variables) {
    const name = variable.fieldPath.join(".");
    const resolved = fields(name, "path variable");
    const last = resolved[resolved.length - 1]!;
    if (!isUrlValue(last) || last.fieldKind === "list")
      throw new TypeError(`${where}: path variable "${name}" must be a singular scalar, enum or string-valued field`);
    pathFields.set(name, resolved);
  }
  const body = rule.body === undefined || rule.body === "" ? undefined : rule.body === "*" ? "*" : fields(rule.body, "body");
  let responseBody: DescField | undefined;
  if (rule.responseBody !== undefined && rule.responseBody !== "") {
    responseBody = method.output.fields.find((field) => field.name === rule.responseBody);
    if (responseBody === undefined)
      throw new TypeError(`${where}: response_body "${rule.responseBody}" is not a field of ${method.output.typeName}`);
  }
  const numbers = (resolved: DescField[]) => resolved.map((field) => field.number).join(".");
  const bound = [...pathFields.values()].map(numbers);
  if (Array.isArray(body)) bound.push(numbers(body));
  return { httpMethod: rule.method, template, method, handler, body, responseBody, pathFields, bound };
}

/** Reads a JSON body (none: undefined) within `limit` bytes. */
function readJsonBody(request: Request, limit: number): Promise<JsonValue | undefined> {
  const declared = Number(request.headers["content-length"] ?? "0");
  if (declared > limit) return Promise.reject(tooLarge(limit));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) return void chunks.push(chunk);
      request.off("data", onData);
      request.resume();
      reject(tooLarge(limit));
    };
    request.on("data", onData);
    request.once("error", reject);
    request.once("end", () => {
      if (size > limit) return;
      const text = Buffer.concat(chunks).toString("utf8");
      if (text.trim() === "") return resolve(undefined);
      const type = String(request.headers["content-type"] ?? "");
      if (!/^application\/([\w.+-]+\+)?json\s*(;|$)/i.test(type)) {
        return reject(
          requestProblem(
            `the body must be application/json, not ${type === "" ? "untyped" : JSON.stringify(type)}`,
            Code.InvalidArgument,
            415,
          ),
        );
      }
      try {
        resolve(JSON.parse(text) as JsonValue);
      } catch (error) {
        reject(invalid(`the body is not JSON: ${(error as Error).message}`));
      }
    });
  });
}

function tooLarge(limit: number): ConnectError {
  return requestProblem(`the body is larger than ${limit} bytes`, Code.ResourceExhausted, 413);
}

/** What a value thrown outside a handler becomes: a `ConnectError` as it is, anything else logged and INTERNAL. */
function asConnectError(error: unknown, method: DescMethod | undefined, hooks: Hooks): ConnectError {
  if (error instanceof ConnectError) return error;
  if (method) hooks.onError(error, method);
  else console.error("grpc transcoding failed:", error);
  return new ConnectError("internal error", Code.Internal);
}

/** The problem document of an error: its status from the gRPC code (or the request's own status). */
function problemOf(error: ConnectError, instance: string, traceId: string): { status: number; body: JsonObject } {
  const status = requestProblems.get(error)?.status ?? HTTP_STATUS[error.code] ?? 500;
  const body: JsonObject = { type: "about:blank", title: STATUS_CODES[status] ?? "Error", status };
  if (error.rawMessage !== "") body["detail"] = error.rawMessage;
  body["instance"] = instance;
  body["code"] = codeName(error.code);
  body["traceId"] = traceId;
  return { status, body };
}

/** `NOT_FOUND` for `Code.NotFound`: the names of google/rpc/code.proto. */
export function codeName(code: Code): string {
  return code === Code.Canceled ? "CANCELLED" : Code[code].replace(/([a-z])([A-Z])/g, "$1_$2").toUpperCase();
}

/** Response metadata a handler set, as HTTP headers (not the ones the transcoder writes). */
function forwarded(headers: Headers): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of headers) {
    if (!/^(content-type|content-length|connection|transfer-encoding|keep-alive|trailer|upgrade)$/i.test(name)) result[name] = value;
  }
  return result;
}

function write(response: Response, text: string): Promise<void> {
  return new Promise((resolve) => {
    if ((response as ServerResponse).write(text)) resolve();
    else {
      const done = () => {
        response.off("drain", done);
        response.off("close", done);
        resolve();
      };
      response.once("drain", done);
      response.once("close", done);
    }
  });
}
