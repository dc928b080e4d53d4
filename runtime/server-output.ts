/**
 * What a generated REST server writes: a handler's typed result turned into status, headers and
 * bytes (JSON serialised once, sparse fieldsets applied, `Location` and `Link` filled in), and
 * every error turned into an `application/problem+json` body with its `traceId`.
 */
import { STATUS_CODES, validateHeaderName, validateHeaderValue } from "node:http";
import { HttpProblem } from "./server-types.js";
import type { ProblemBody, ServerResponse } from "./server-types.js";
import { type FieldError, isJsonType, mediaTypeOf } from "./server-input.js";
import type { HandlerResult, OperationSpec, PaginationSpec, ResponseSpec } from "./server-spec.js";

const PROBLEM_JSON = "application/problem+json";

/**
 * The path of a request target, for `instance`, `Location` and `Link`: never a host. The absolute
 * form (`POST http://evil.example/v1/projects`, meant for proxies) loses its scheme and authority,
 * and leading slashes collapse into one, since `//evil.example/x` (or `/\evil.example/x` to a
 * browser) is a reference to another host.
 */
export function requestPath(target: string): string {
  const mark = target.search(/[?#]/);
  let path = mark === -1 ? target : target.slice(0, mark);
  if (!path.startsWith("/")) {
    const authority = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/]*/.exec(path);
    path = authority ? path.slice(authority[0].length) : "";
  }
  return `/${path.replace(/^[/\\]+/, "")}`;
}

/**
 * The `publicUrl` option as the prefix of `Location` and `Link` ("" without it). Checked once, at
 * setup: an absolute http(s) URL without query or fragment.
 */
export function publicBase(publicUrl: string | undefined): string {
  if (publicUrl === undefined) return "";
  let url: URL | undefined;
  try {
    url = new URL(publicUrl);
  } catch {
    url = undefined;
  }
  if (
    url === undefined ||
    (url.protocol !== "http:" && url.protocol !== "https:") ||
    url.search !== "" ||
    url.hash !== "" ||
    url.username !== "" ||
    url.password !== ""
  ) {
    throw new TypeError(
      `publicUrl ${JSON.stringify(publicUrl)} is not an absolute http(s) URL without query or fragment, e.g. "https://api.example.com"`,
    );
  }
  return url.href.replace(/\/+$/, "");
}

/** What a problem is about: the request it answers. */
export interface ProblemContext {
  traceId: string;
  /** The request path, as `instance`. */
  instance: string;
  production: boolean;
}

/** The standard reason phrase of a status, e.g. `Not Found`. */
export function statusTitle(status: number): string {
  return STATUS_CODES[status] ?? "Error";
}

/** A problem response, ready to write. Extension members never replace the standard ones. */
export function problemResponse(
  status: number,
  title: string,
  init: { detail?: string | undefined; type?: string | undefined; headers?: Record<string, string>; extensions?: Record<string, unknown> },
  context: ProblemContext,
): ServerResponse {
  const body: ProblemBody = { type: init.type ?? "about:blank", title, status };
  if (init.detail) body.detail = init.detail;
  body.instance = context.instance;
  body.traceId = context.traceId;
  for (const [key, value] of Object.entries(init.extensions ?? {})) {
    if (!Object.hasOwn(body, key) && key !== "__proto__") body[key] = value;
  }
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(init.headers ?? {})) headers[name.toLowerCase()] = value;
  headers["content-type"] = PROBLEM_JSON;
  return { status, headers, body: JSON.stringify(body) };
}

/**
 * The problem for anything thrown while answering. An `HttpProblem` says what to answer; anything
 * else is a 500 whose detail is the error's message in development and nothing in production.
 * No stack trace is ever written.
 */
export function errorResponse(error: unknown, context: ProblemContext): ServerResponse {
  if (error instanceof HttpProblem && error.status >= 400 && error.status <= 599) {
    const { type, detail, ...extensions } = error.extensions;
    return problemResponse(
      error.status,
      error.message || statusTitle(error.status),
      {
        type: typeof type === "string" ? type : undefined,
        detail: typeof detail === "string" ? detail : undefined,
        headers: error.headers,
        extensions,
      },
      context,
    );
  }
  const detail = context.production ? undefined : internalDetail(error);
  return problemResponse(500, statusTitle(500), { detail }, context);
}

function internalDetail(error: unknown): string | undefined {
  if (error instanceof ResponseValidationError) return error.message;
  if (error instanceof Error) return error.message || error.name;
  return typeof error === "string" ? error : undefined;
}

/** A handler's result that does not match its operation's response schema (development only). */
export class ResponseValidationError extends Error {
  readonly errors: FieldError[];

  constructor(operation: string, status: number, errors: FieldError[]) {
    super(
      `The ${status} response of ${operation} does not match its schema: ${errors
        .slice(0, 3)
        .map((error) => `${error.pointer || "/"} ${error.message}`)
        .join("; ")}.`,
    );
    this.name = "ResponseValidationError";
    this.errors = errors;
  }
}

/** The declared response for a status: the code itself, then its range (`4XX`), then `default`. */
export function responseSpec(operation: OperationSpec, status: number): ResponseSpec | undefined {
  const responses = operation.responses;
  const code = String(status);
  if (Object.hasOwn(responses, code)) return responses[code];
  const range = `${code[0]}XX`;
  if (Object.hasOwn(responses, range)) return responses[range];
  return Object.hasOwn(responses, "default") ? responses["default"] : undefined;
}

/** What the result needs from the request to fill in `Location`, `Link` and sparse fieldsets. */
export interface ResultContext {
  traceId: string;
  production: boolean;
  /** The `publicUrl` option without its trailing slash, or "": what `Location` and `Link` start with. */
  base: string;
  /**
   * The request target as the client sent it, including any mount prefix (Express `originalUrl`):
   * `Location` and `Link` take its path (never a host), worked out only when they are written.
   */
  target: string;
  /** The raw query string, without `?`. */
  query: string;
  /** The parsed request the handler got. */
  request: Record<string, unknown>;
  /** Fields requested with `fields`, when the operation has a sparse fieldset. */
  fields?: readonly string[] | undefined;
  validateResponses: boolean;
}

/** Serialises a handler's result. Throws (a 500 follows) when it cannot be written. */
export function resultResponse(operation: OperationSpec, result: HandlerResult, context: ResultContext): ServerResponse {
  if (typeof result !== "object" || result === null || !Number.isInteger(result.status) || result.status < 200 || result.status > 599) {
    throw new Error(`The handler of ${operation.id} returned no valid { status } result.`);
  }
  const { status } = result;
  const spec = responseSpec(operation, status);
  const headers = responseHeaders(result.headers);
  let body = result.body;
  if (status === 204 || status === 304 || body === undefined) return { status, headers };

  if (context.validateResponses && !context.production && spec?.validate) {
    const checked = spec.validate(body);
    if (!checked.ok) {
      throw new ResponseValidationError(
        operation.id,
        status,
        checked.errors.map((error) => ({ pointer: `/body${error.path}`, keyword: error.keyword, message: error.message })),
      );
    }
  }
  if (status === 201 && headers["location"] === undefined && operation.location) {
    const id = typeof body === "object" && body !== null ? (body as Record<string, unknown>)[operation.location.property] : undefined;
    if (typeof id === "string" || typeof id === "number")
      headers["location"] = `${context.base}${trimSlash(requestPath(context.target))}/${encodeURIComponent(String(id))}`;
  }
  if (status >= 200 && status < 300 && operation.pagination && headers["link"] === undefined) {
    const link = linkHeader(operation.pagination, body, context);
    if (link) headers["link"] = link;
  }
  if (status >= 400 && isPlainObject(body) && body["traceId"] === undefined) body = { ...body, traceId: context.traceId };
  if (context.fields && status >= 200 && status < 300) body = sparse(body, context.fields, operation.fields?.items);

  const declared = headers["content-type"];
  const contentType = typeof declared === "string" ? declared : spec?.contentType;
  // A string under a JSON media type is a JSON string (the schema's `type: string`): encoded like any value.
  if (typeof body === "string" && !isJsonType(mediaTypeOf(contentType) ?? "")) {
    headers["content-type"] = contentType ?? "text/plain; charset=utf-8";
    return { status, headers, body };
  }
  if (body instanceof Uint8Array) {
    headers["content-type"] = contentType ?? "application/octet-stream";
    return { status, headers, body };
  }
  headers["content-type"] = contentType ?? "application/json";
  const json = JSON.stringify(body);
  return json === undefined ? { status, headers } : { status, headers, body: json };
}

/** Result headers, lower-cased; a name or value that could split the response is refused. */
function responseHeaders(given: HandlerResult["headers"]): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {};
  if (!given) return headers;
  for (const name of Object.keys(given)) {
    const value = given[name];
    if (value === undefined) continue;
    const text = typeof value === "number" ? String(value) : typeof value === "string" ? value : value.map(String);
    // Throws (and the request answers 500) on CR, LF or other invalid characters. Handlers set
    // the same few names on every response: each is checked once.
    if (!validNames.has(name)) {
      validateHeaderName(name);
      if (validNames.size < 256) validNames.add(name);
    }
    if (typeof text === "string") validateHeaderValue(name, text);
    else for (const item of text) validateHeaderValue(name, item);
    headers[name.toLowerCase()] = text;
  }
  return headers;
}

const validNames = new Set<string>();

function trimSlash(path: string): string {
  return path.length > 1 && path.endsWith("/") ? path.slice(0, -1) : path;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Uint8Array);
}

/** Keeps only `fields` of the body, or of each item of its `items` list, or of each element. */
function sparse(body: unknown, fields: readonly string[], items: string | undefined): unknown {
  if (items && isPlainObject(body) && Array.isArray(body[items]))
    return { ...body, [items]: (body[items] as unknown[]).map((item) => pick(item, fields)) };
  if (Array.isArray(body)) return body.map((item) => pick(item, fields));
  return pick(body, fields);
}

function pick(value: unknown, fields: readonly string[]): unknown {
  if (!isPlainObject(value)) return value;
  const picked: Record<string, unknown> = {};
  for (const field of fields) {
    if (Object.hasOwn(value, field))
      Object.defineProperty(picked, field, { value: value[field], enumerable: true, writable: true, configurable: true });
  }
  return picked;
}

/**
 * RFC 8288 links to the neighbouring pages: this request with the paging parameters changed, as
 * path-absolute references, or under `publicUrl` (never a host from the request: the `Host`
 * header and an absolute-form target are the client's to forge).
 */
function linkHeader(pagination: PaginationSpec, body: unknown, context: ResultContext): string | undefined {
  if (!isPlainObject(body)) return undefined;
  const links: string[] = [];
  const path = requestPath(context.target);
  const link = (rel: string, changes: Record<string, string>) =>
    links.push(`<${context.base}${withQuery(path, context.query, changes)}>; rel="${rel}"`);
  if (pagination.kind === "cursor") {
    const next = body[pagination.next];
    if (typeof next === "string" && next !== "") link("next", { [pagination.cursor]: next });
    const prev = pagination.prev === undefined ? undefined : body[pagination.prev];
    if (typeof prev === "string" && prev !== "") link("prev", { [pagination.cursor]: prev });
    return links.length ? links.join(", ") : undefined;
  }
  const page = context.request[pagination.page.key];
  const size = context.request[pagination.pageSize.key];
  if (typeof page !== "number" || typeof size !== "number" || size <= 0) return undefined;
  const total = pagination.total === undefined ? undefined : body[pagination.total];
  const items = pagination.items === undefined ? undefined : body[pagination.items];
  const last = typeof total === "number" ? Math.max(1, Math.ceil(total / size)) : undefined;
  const at = (n: number) => ({ [pagination.page.name]: String(n), [pagination.pageSize.name]: String(size) });
  link("first", at(1));
  if (page > 1) link("prev", at(last === undefined ? page - 1 : Math.min(page - 1, last)));
  const more = last !== undefined ? page < last : Array.isArray(items) && items.length >= size;
  if (more) link("next", at(page + 1));
  if (last !== undefined) link("last", at(last));
  return links.join(", ");
}

/** `path?query` with the named parameters replaced (others kept as sent, in order). */
function withQuery(path: string, query: string, changes: Record<string, string>): string {
  const pairs =
    query === ""
      ? []
      : query.split("&").filter((pair) => {
          if (pair === "") return false;
          const equals = pair.indexOf("=");
          const name = equals === -1 ? pair : pair.slice(0, equals);
          let decoded = name;
          try {
            decoded = decodeURIComponent(name.replace(/\+/g, " "));
          } catch {
            // Kept as sent.
          }
          return !Object.hasOwn(changes, decoded);
        });
  for (const [name, value] of Object.entries(changes)) pairs.push(`${encodeURIComponent(name)}=${encodeURIComponent(value)}`);
  // `<` and `>` never appear: the path and query come percent-encoded from the request line.
  return `${path.replace(/[<>"\s]/g, encodeURIComponent)}?${pairs.join("&").replace(/[<>"\s]/g, encodeURIComponent)}`;
}
