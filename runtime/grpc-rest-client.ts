/**
 * The client of the REST routes that `google.api.http` rules give a gRPC service (googleapis
 * google/api/http.proto), over plain HTTP and JSON through `fetch`: a request message becomes the
 * path (its path-variable fields, percent-encoded as the spec says), a JSON body (`body: "*"` or
 * one field) and query parameters (every other set field, `a.b=1`, lists repeated), all in the
 * proto3 JSON mapping (https://protobuf.dev/programming-guides/json/); the answer is read back with
 * `fromJson`, unknown fields ignored. A failure is a `GrpcError` (a `ClientError`, as every
 * generated client throws) with the gRPC code the server's problem document names, or the HTTP
 * status suggests; a request its route cannot carry is a `RestRequestError`, and nothing is sent.
 */
import {
  create,
  fromJson,
  toJson,
  type DescFile,
  type DescMessage,
  type DescMethod,
  type JsonObject,
  type JsonValue,
  type MessageInitShape,
  type MessageShape,
  type Registry,
} from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { ClientError, resolveCredential, resolveHeaders, type CommonClientOptions, type Credential } from "./client-common.js";
import { toGrpcError } from "./grpc-client.js";
import { isUrlMap, isUrlValue, jsonRegistry, resolveFieldPath, takeJsonField } from "./grpc-transcoding-fields.js";
import { expandPathTemplate, parsePathTemplate, type HttpRule, type PathTemplate } from "./grpc-transcoding-path.js";

/** @public */
export { Code, ConnectError } from "@connectrpc/connect";
export { GrpcError } from "./grpc-client.js";
export type { HttpRule, HttpRules } from "./grpc-transcoding-path.js";

/**
 * A request its route cannot carry, refused before anything is sent: a path field that is empty or
 * does not fit its template, or a value the query cannot hold. `cause` is the reason.
 * @public
 */
export class RestRequestError extends ClientError {
  override name = "RestRequestError";
  readonly kind = "invalid-request" as const;
}

/**
 * The options of a REST client: every client's (`fetch`, `headers`, `timeout`, `signal`), and where and who.
 * @public
 */
export interface RestClientOptions extends CommonClientOptions {
  /** The server, e.g. `http://127.0.0.1:8080` or `https://api.example.com`. */
  baseUrl: string;
  /**
   * Sent as `Authorization: Bearer <token>` on every call; a function is asked before each call
   * (refresh there), and `undefined` sends no credentials.
   */
  token?: Credential;
}

/** @public */
export interface RestCallOptions {
  /** Aborts the call (CANCELED). */
  signal?: AbortSignal;
  /** Gives up after this many milliseconds (DEADLINE_EXCEEDED); default the client's `timeout`. */
  timeoutMs?: number;
  /** Headers of this call. */
  headers?: Record<string, string>;
}

/** A method descriptor with its message types (`TaskService.method.getTask`). */
export type TypedMethod<I extends DescMessage, O extends DescMessage> = DescMethod & { readonly input: I; readonly output: O };

export interface RestConnection {
  /** Calls a unary method through `rule`. */
  unary<I extends DescMessage, O extends DescMessage>(
    method: TypedMethod<I, O>,
    rule: HttpRule,
    request: MessageInitShape<I>,
    options?: RestCallOptions,
  ): Promise<MessageShape<O>>;
  /** Calls a server-streaming method through `rule`: one message per `{"result": ...}` line. */
  serverStream<I extends DescMessage, O extends DescMessage>(
    method: TypedMethod<I, O>,
    rule: HttpRule,
    request: MessageInitShape<I>,
    options?: RestCallOptions,
  ): AsyncIterable<MessageShape<O>>;
}

/** A connection to the REST routes of the server at `options.baseUrl`. */
export function createRestConnection(options: RestClientOptions): RestConnection {
  const base = options.baseUrl.replace(/\/+$/, "");
  const send = async (method: DescMethod, rule: HttpRule, request: unknown, call: RestCallOptions): Promise<Response> => {
    const registry = registryOf(method.parent.file);
    const { url, body } = encodeRequest(base, method, rule, request, registry);
    const headers = await resolveHeaders(options.headers);
    for (const [name, value] of Object.entries(call.headers ?? {})) headers.set(name, value);
    const token = await resolveCredential(options.token);
    if (token !== undefined && !headers.has("authorization")) headers.set("authorization", `Bearer ${token}`);
    headers.set("accept", "application/json");
    if (body !== undefined) headers.set("content-type", "application/json");
    const timeoutMs = call.timeoutMs ?? (options.timeout ? options.timeout : undefined);
    // The server's handler gets the deadline too (grpc-gateway reads this header), and stops in time.
    if (timeoutMs !== undefined) headers.set("grpc-timeout", `${Math.max(1, Math.ceil(timeoutMs))}m`);
    const signals = [options.signal, call.signal, timeoutMs === undefined ? undefined : AbortSignal.timeout(timeoutMs)].filter(
      (signal) => signal !== undefined,
    );
    const signal = signals.length === 0 ? undefined : AbortSignal.any(signals);
    let response: Response;
    try {
      response = await (options.fetch ?? ((input: Request) => fetch(input)))(
        new Request(url, { method: rule.method, headers, ...(body !== undefined ? { body } : {}), ...(signal ? { signal } : {}) }),
      );
    } catch (error) {
      throw signal?.aborted
        ? abortError(signal)
        : new ConnectError(`${rule.method} ${url} failed: ${(error as Error).message}`, Code.Unavailable, undefined, undefined, error);
    }
    if (!response.ok) throw await errorOf(response);
    return response;
  };
  const operation = (method: DescMethod) => `${method.parent.typeName}/${method.name}`;
  // The path and query builders refuse a request that does not fit its rule with a TypeError.
  const failure = (error: unknown, name: string) =>
    error instanceof TypeError ? new RestRequestError(name, `${name}: ${error.message}`, { cause: error }) : toGrpcError(error, name);
  return {
    async unary(method, rule, request, call = {}) {
      try {
        const response = await send(method, rule, request, call);
        return decodeResponse(method.output, rule, (await response.json()) as JsonValue, registryOf(method.parent.file));
      } catch (error) {
        throw failure(error, operation(method));
      }
    },
    async *serverStream(method, rule, request, call = {}) {
      try {
        const response = await send(method, rule, request, call);
        const registry = registryOf(method.parent.file);
        for await (const line of lines(response)) {
          const item = JSON.parse(line) as { result?: JsonValue; error?: JsonObject };
          if (item.error !== undefined) throw problemError(item.error, response.status, response.headers);
          if (item.result !== undefined) yield decodeResponse(method.output, rule, item.result, registry);
        }
      } catch (error) {
        throw failure(error, operation(method));
      }
    },
  };
}

const templates = new WeakMap<HttpRule, PathTemplate>();

/**
 * The URL and body of a call.
 *
 * @throws TypeError for a request that does not fit the rule (the client turns it into a `RestRequestError`): a path field that is empty or does
 *   not fit its template, or a map or list of messages that only a body could carry.
 */
function encodeRequest(
  base: string,
  method: DescMethod,
  rule: HttpRule,
  request: unknown,
  registry: Registry,
): { url: string; body: string | undefined } {
  let template = templates.get(rule);
  if (template === undefined) templates.set(rule, (template = parsePathTemplate(rule.path)));
  const json = toJson(method.input, create(method.input, request as MessageInitShape<DescMessage>), { registry }) as JsonObject;
  const values = new Map<string, string>();
  for (const variable of template.variables) {
    const value = takeJsonField(json, resolveFieldPath(method.input, variable.fieldPath));
    values.set(variable.fieldPath.join("."), value === undefined || value === null ? "" : String(value));
  }
  const path = expandPathTemplate(template, values);
  let body: string | undefined;
  if (rule.body === "*") {
    body = JSON.stringify(json);
    return { url: `${base}${path}`, body };
  }
  if (rule.body !== undefined && rule.body !== "") {
    const value = takeJsonField(json, resolveFieldPath(method.input, rule.body.split(".")));
    body = JSON.stringify(value ?? {});
  }
  const query = new URLSearchParams();
  queryOf(method.input, json, "", query, rule);
  const search = query.toString();
  return { url: `${base}${path}${search === "" ? "" : `?${search}`}`, body };
}

/** The query parameters of the fields left in `json`, nested messages as `a.b=...`. */
function queryOf(message: DescMessage, json: JsonObject, prefix: string, query: URLSearchParams, rule: HttpRule): void {
  for (const [key, value] of Object.entries(json)) {
    const field = message.fields.find((candidate) => candidate.jsonName === key);
    const name = `${prefix}${key}`;
    if (field !== undefined && isUrlValue(field)) {
      for (const item of Array.isArray(value) ? value : [value]) query.append(name, String(item));
    } else if (field !== undefined && isUrlMap(field) && value !== null && typeof value === "object" && !Array.isArray(value)) {
      for (const [entry, item] of Object.entries(value)) query.append(`${name}[${entry}]`, String(item));
    } else if (field?.fieldKind === "message" && value !== null && typeof value === "object" && !Array.isArray(value)) {
      queryOf(field.message, value, `${name}.`, query, rule);
    } else {
      throw new TypeError(
        `${name} cannot travel in the query of ${rule.method} ${rule.path}: only a body carries maps of messages, lists of messages and free-form JSON`,
      );
    }
  }
}

/** The response message from its JSON (the `response_body` field's JSON, for such rules). */
function decodeResponse<O extends DescMessage>(output: O, rule: HttpRule, json: JsonValue, registry: Registry): MessageShape<O> {
  let whole = json;
  if (rule.responseBody !== undefined && rule.responseBody !== "") {
    const field = output.fields.find((candidate) => candidate.name === rule.responseBody);
    whole = field === undefined ? {} : { [field.jsonName]: json };
  }
  try {
    return fromJson(output, whole, { registry, ignoreUnknownFields: true });
  } catch (error) {
    throw new ConnectError(
      `the answer is not a ${output.typeName}: ${(error as Error).message}`,
      Code.Internal,
      undefined,
      undefined,
      error,
    );
  }
}

/** The error of a failed response: its problem document's `code` and `detail`, else its status. */
async function errorOf(response: Response): Promise<ConnectError> {
  const text = await response.text().catch(() => "");
  let problem: JsonObject = {};
  try {
    const parsed = JSON.parse(text) as JsonValue;
    if (parsed !== null && typeof parsed === "object" && !Array.isArray(parsed)) problem = parsed;
  } catch {
    // not JSON: the status says enough
  }
  return problemError(problem, response.status, response.headers);
}

function problemError(problem: JsonObject, status: number, headers: Headers): ConnectError {
  const named = typeof problem["code"] === "string" ? codeOfName(problem["code"]) : undefined;
  const detail =
    typeof problem["detail"] === "string" ? problem["detail"] : typeof problem["title"] === "string" ? problem["title"] : `HTTP ${status}`;
  return new ConnectError(detail, named ?? codeOfStatus(status), headers, undefined, problem);
}

/** `Code.NotFound` for `NOT_FOUND` (google/rpc/code.proto's names). */
function codeOfName(name: string): Code | undefined {
  const key =
    name === "CANCELLED" ? "Canceled" : name.toLowerCase().replace(/(?:^|_)([a-z])/g, (_, letter: string) => letter.toUpperCase());
  const code = (Code as unknown as Record<string, unknown>)[key];
  return typeof code === "number" ? (code as Code) : undefined;
}

/** The gRPC code an HTTP status stands for, when the body names none. */
function codeOfStatus(status: number): Code {
  const codes: Record<number, Code> = {
    400: Code.InvalidArgument,
    401: Code.Unauthenticated,
    403: Code.PermissionDenied,
    404: Code.NotFound,
    405: Code.Unimplemented,
    409: Code.Aborted,
    412: Code.FailedPrecondition,
    413: Code.ResourceExhausted,
    415: Code.InvalidArgument,
    429: Code.ResourceExhausted,
    499: Code.Canceled,
    501: Code.Unimplemented,
    503: Code.Unavailable,
    504: Code.DeadlineExceeded,
  };
  return codes[status] ?? (status >= 500 ? Code.Internal : Code.Unknown);
}

function abortError(signal: AbortSignal): ConnectError {
  const reason: unknown = signal.reason;
  const timedOut = reason instanceof DOMException && reason.name === "TimeoutError";
  return new ConnectError(
    timedOut ? "the deadline passed" : "the call was cancelled",
    timedOut ? Code.DeadlineExceeded : Code.Canceled,
    undefined,
    undefined,
    reason,
  );
}

/** The lines of a response body, as they arrive. */
async function* lines(response: Response): AsyncIterable<string> {
  if (response.body === null) return;
  const decoder = new TextDecoder();
  const reader = response.body.getReader();
  let pending = "";
  let finished = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      pending += done ? decoder.decode() : decoder.decode(value, { stream: true });
      let end: number;
      while ((end = pending.indexOf("\n")) !== -1) {
        const line = pending.slice(0, end).trim();
        pending = pending.slice(end + 1);
        if (line !== "") yield line;
      }
      if (done) break;
    }
    finished = true;
    if (pending.trim() !== "") yield pending.trim();
  } finally {
    // A caller that stops early (break, an error) cancels the rest of the stream.
    if (!finished) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}

const registries = new WeakMap<DescFile, Registry>();

/** Every type the file reaches through its imports, so `Any` fields resolve. */
function registryOf(file: DescFile): Registry {
  let registry = registries.get(file);
  if (registry === undefined) registries.set(file, (registry = jsonRegistry([file])));
  return registry;
}
