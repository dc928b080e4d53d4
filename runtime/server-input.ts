/**
 * What a generated REST server reads from a request: the request target (path segments and
 * query), the route it matches, its parameters (parsed per OpenAPI `style`/`explode`, coerced to
 * their schema's type) and its body (read within limits, decoded per media type). Every failure is
 * an `HttpProblem`: 400 for malformed syntax, 413/408 while reading, 415 for a media type the
 * operation does not take.
 */
import type { IncomingMessage } from "node:http";
import { type BodyRefusals, readBody as readLimitedBody } from "./http-body.js";
import { HttpProblem } from "./server-types.js";
import type { BodySpec, FieldSpec, OperationSpec, ParameterSpec, ParameterType, RouteNode } from "./server-spec.js";

/**
 * A validation failure, as listed in a problem's `errors`: where (a JSON pointer), which rule, why.
 * @public
 */
export interface FieldError {
  pointer: string;
  keyword: string;
  message: string;
}

/** The parts of a request target in origin form, still percent-encoded. */
export interface Target {
  /** e.g. `/v1/projects/42` */
  path: string;
  /** Without the `?`; empty when there is none. */
  query: string;
  /** Decoded path segments; a trailing slash is dropped. */
  segments: string[];
}

/**
 * Splits and decodes the request target. Every segment is percent-decoded on its own, after the
 * split, so an encoded slash (`%2F`) can never create a segment; segments that decode to `.`/`..`
 * or contain `/`, `\` or NUL are rejected (400), so a parameter value can never walk a path.
 */
export function parseTarget(url: string): Target {
  let target = url;
  // Absolute form (`GET http://host/path`, sent to proxies): keep the path.
  if (!target.startsWith("/")) {
    const scheme = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*/.exec(target);
    if (!scheme) throw new HttpProblem(400, "Bad Request", { detail: "The request target must be an absolute path." });
    target = target.slice(scheme[0].length) || "/";
  }
  const hash = target.indexOf("#");
  if (hash !== -1) target = target.slice(0, hash);
  const mark = target.indexOf("?");
  const path = mark === -1 ? target : target.slice(0, mark);
  const query = mark === -1 ? "" : target.slice(mark + 1);
  // Split once; `/projects/` is `/projects`: one trailing slash is ignored (the root `/` has no segments).
  const raw = path.split("/");
  const end = raw.length > 1 && raw[raw.length - 1] === "" ? raw.length - 1 : raw.length;
  const segments: string[] = [];
  for (let index = 1; index < end; index++) {
    const segment = raw[index]!;
    const encoded = segment.indexOf("%") !== -1;
    const decoded = encoded ? decode(segment, "path") : segment;
    if (
      decoded === "." ||
      decoded === ".." ||
      (encoded ? /[/\\\0]/.test(decoded) : segment.indexOf("\\") !== -1 || segment.indexOf("\0") !== -1)
    ) {
      throw new HttpProblem(400, "Bad Request", { detail: "The path contains a dot segment or an encoded slash." });
    }
    segments.push(decoded);
  }
  return { path, query, segments };
}

function decode(text: string, where: string): string {
  if (text.indexOf("%") === -1) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    throw new HttpProblem(400, "Bad Request", { detail: `The ${where} has malformed percent-encoding.` });
  }
}

/** A route found for a path: the node holding its operations, and the path parameter values. */
export interface RouteMatch {
  node: RouteNode;
  /** Path parameter values, in template order. */
  values: string[];
  /** The base path the request came under (`/v1`), or "". */
  basePath: string;
}

/**
 * Finds the route of `segments` below one of `basePaths` (each given as segments). Literal
 * segments win over `{name}.{ext}` patterns, which win over a whole-segment parameter; the walk
 * backtracks, so `/a/b` still finds `/a/{x}` when the literal `/a/b` branch ends elsewhere.
 */
export function matchRoute(root: RouteNode, basePaths: readonly string[][], segments: string[]): RouteMatch | undefined {
  for (const base of basePaths) {
    if (base.length > segments.length) continue;
    let prefix = true;
    for (let i = 0; i < base.length; i++) {
      if (base[i] !== segments[i]) {
        prefix = false;
        break;
      }
    }
    if (!prefix) continue;
    const values: string[] = [];
    const node = walk(root, segments, base.length, values);
    if (node) return { node, values, basePath: basePathOf(base) };
  }
  return undefined;
}

const basePathTexts = new WeakMap<readonly string[], string>();

/** `["api", "v1"]` → `/api/v1`, joined once per base path. */
function basePathOf(base: readonly string[]): string {
  let text = basePathTexts.get(base);
  if (text === undefined) basePathTexts.set(base, (text = base.length ? `/${base.join("/")}` : ""));
  return text;
}

function walk(node: RouteNode, segments: string[], index: number, values: string[]): RouteNode | undefined {
  const segment = segments[index];
  if (segment === undefined) return node.methods ? node : undefined;
  const child = node.children && Object.hasOwn(node.children, segment) ? node.children[segment] : undefined;
  if (child) {
    const found = walk(child, segments, index + 1, values);
    if (found) return found;
  }
  if (node.patterns) {
    for (const pattern of node.patterns) {
      const match = pattern.match.exec(segment);
      if (!match) continue;
      const mark = values.length;
      values.push(...match.slice(1));
      const found = walk(pattern.node, segments, index + 1, values);
      if (found) return found;
      values.length = mark;
    }
  }
  if (node.param && segment !== "") {
    values.push(segment);
    const found = walk(node.param, segments, index + 1, values);
    if (found) return found;
    values.pop();
  }
  return undefined;
}

/** Query parameters by name, each with every value given, decoded (`+` is a space). */
export function parseQuery(query: string): Map<string, string[]> {
  const result = new Map<string, string[]>();
  if (query === "") return result;
  for (const pair of query.split("&")) {
    if (pair === "") continue;
    const equals = pair.indexOf("=");
    const name = decode((equals === -1 ? pair : pair.slice(0, equals)).replace(/\+/g, " "), "query");
    const value = equals === -1 ? "" : decode(pair.slice(equals + 1).replace(/\+/g, " "), "query");
    const values = result.get(name);
    if (values) values.push(value);
    else result.set(name, [value]);
  }
  return result;
}

/** Cookies of a `Cookie` header by name (the first of each name wins, as browsers send the most specific first). */
function parseCookies(header: string | undefined): Map<string, string> {
  const result = new Map<string, string>();
  if (!header) return result;
  for (const part of header.split(";")) {
    const equals = part.indexOf("=");
    if (equals === -1) continue;
    const name = part.slice(0, equals).trim();
    let value = part.slice(equals + 1).trim();
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) value = value.slice(1, -1);
    if (!result.has(name)) {
      try {
        result.set(name, decodeURIComponent(value));
      } catch {
        result.set(name, value);
      }
    }
  }
  return result;
}

/** Marks a string that cannot be read as its parameter's type. */
const INVALID = Symbol("invalid");

const INTEGER = /^-?\d+$/;
const NUMBER = /^-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/** A string read as a scalar of `type`, or INVALID. */
function scalar(text: string, type: ParameterType | undefined): unknown {
  switch (type) {
    case "integer": {
      if (!INTEGER.test(text)) return INVALID;
      const value = Number(text);
      return Number.isSafeInteger(value) ? value : INVALID;
    }
    case "number": {
      if (!NUMBER.test(text)) return INVALID;
      const value = Number(text);
      return Number.isFinite(value) ? value : INVALID;
    }
    case "boolean":
      return text === "true" ? true : text === "false" ? false : INVALID;
    default:
      return text;
  }
}

const EXPECTED: Record<ParameterType, string> = {
  integer: "must be an integer",
  number: "must be a number",
  boolean: "must be true or false",
  string: "must be a string",
  unknown: "is malformed",
};

const EXPECTED_ITEMS: Record<ParameterType, string> = {
  integer: "must be a list of integers",
  number: "must be a list of numbers",
  boolean: "must be a list of true/false values",
  string: "must be a list of strings",
  unknown: "is a malformed list",
};

/** The parameters of one request, read from wherever each lives. */
export interface ParameterInputs {
  /** The route found: path parameter values in the order of the node's `names`. */
  path: { readonly node: RouteNode; readonly values: readonly string[] };
  query: ReadonlyMap<string, string[]>;
  headers: IncomingMessage["headers"];
}

/** Parameter values by location, keyed by wire name: what the location validators check. */
export type ParameterValues = Record<ParameterSpec["in"], Record<string, unknown>>;

/**
 * Reads and coerces every declared parameter. Values that cannot be read as their type (`limit=abc`,
 * a scalar given twice) are syntax errors: they are collected and thrown together as one 400.
 */
export function readParameters(operation: OperationSpec, inputs: ParameterInputs): ParameterValues {
  const values: ParameterValues = { path: {}, query: {}, header: {}, cookie: {} };
  const errors: FieldError[] = [];
  let cookies: Map<string, string> | undefined;
  for (const parameter of operation.parameters ?? []) {
    let value: unknown;
    switch (parameter.in) {
      case "query":
        value = queryValue(parameter, inputs.query);
        break;
      case "path": {
        const at = inputs.path.node.names?.lastIndexOf(parameter.name) ?? -1;
        const raw = at === -1 ? undefined : inputs.path.values[at];
        value = raw === undefined ? undefined : delimited(parameter, pathText(parameter, raw), ",");
        break;
      }
      case "header": {
        const raw = inputs.headers[headerKey(parameter.name)];
        const text = Array.isArray(raw) ? raw.join(", ") : raw;
        value = text === undefined ? undefined : delimited(parameter, text, ",");
        break;
      }
      case "cookie": {
        cookies ??= parseCookies(typeof inputs.headers.cookie === "string" ? inputs.headers.cookie : undefined);
        const raw = cookies.get(parameter.name);
        value = raw === undefined ? undefined : delimited(parameter, raw, ",");
        break;
      }
    }
    if (value === undefined) continue;
    if (value === INVALID || value === REPEATED) {
      const pointer = `/${parameter.in}/${pointerToken(parameter.name)}`;
      if (value === REPEATED) {
        errors.push({ pointer, keyword: "type", message: "must be given once" });
        continue;
      }
      const message =
        parameter.type === "array"
          ? EXPECTED_ITEMS[parameter.items ?? "unknown"]
          : EXPECTED[parameter.type === "object" ? "unknown" : parameter.type];
      errors.push({ pointer, keyword: "type", message });
      continue;
    }
    values[parameter.in][parameter.name] = value;
  }
  if (errors.length) throw new HttpProblem(400, "Bad Request", { detail: describeErrors(errors), extensions: { errors } });
  return values;
}

const headerKeys = new Map<string, string>();

/** A header parameter's name as node:http keys it (lower case), worked out once per name. */
function headerKey(name: string): string {
  let key = headerKeys.get(name);
  if (key === undefined) headerKeys.set(name, (key = name.toLowerCase()));
  return key;
}

/** Marks a single-valued query parameter given more than once. */
const REPEATED = Symbol("repeated");

function queryValue(parameter: ParameterSpec, query: ReadonlyMap<string, string[]>): unknown {
  const style = parameter.style ?? "form";
  const explode = parameter.explode ?? style === "form";
  if (parameter.type === "object" && (style === "deepObject" || explode)) {
    // `filter[status]=done` (deepObject) or `status=done` (form, exploded): one entry per property.
    const object: Record<string, unknown> = {};
    let found = false;
    for (const [name, texts] of query) {
      let property: string | undefined;
      if (style === "deepObject") {
        if (name.startsWith(`${parameter.name}[`) && name.endsWith("]")) property = name.slice(parameter.name.length + 1, -1);
      } else if (parameter.properties && Object.hasOwn(parameter.properties, name)) {
        property = name;
      }
      const text = texts.at(-1);
      if (property === undefined || property === "" || property.includes("[") || text === undefined) continue;
      const value = scalar(
        text,
        parameter.properties && Object.hasOwn(parameter.properties, property) ? parameter.properties[property] : "string",
      );
      if (value === INVALID) return INVALID;
      Object.defineProperty(object, property, { value, enumerable: true, writable: true, configurable: true });
      found = true;
    }
    return found ? object : undefined;
  }
  const texts = query.get(parameter.name);
  if (texts === undefined) return undefined;
  if (parameter.type === "array" && explode && style === "form") return list(texts, parameter.items);
  if (texts.length > 1) {
    if (parameter.type !== "array") return REPEATED;
    // Non-exploded lists given several times (`fields=a,b&fields=c`) are read as one list.
    return delimited(parameter, texts.join(separator(style)), separator(style));
  }
  return delimited(parameter, texts[0] ?? "", separator(style));
}

function separator(style: ParameterSpec["style"]): string {
  return style === "spaceDelimited" ? " " : style === "pipeDelimited" ? "|" : ",";
}

/** `label` (`.a.b`) and `matrix` (`;id=a,b`) path values, reduced to their `simple` form. */
function pathText(parameter: ParameterSpec, raw: string): string {
  if (parameter.style === "label") return raw.startsWith(".") ? raw.slice(1).split(".").join(",") : raw;
  if (parameter.style === "matrix") {
    const prefix = `;${parameter.name}=`;
    if (!raw.startsWith(prefix)) return raw;
    return raw.slice(prefix.length).split(prefix).join(",");
  }
  return raw;
}

/** A value in its delimited text form: a scalar, a list (`a,b`), or an object (`k,v,k2,v2` or `k=v,k2=v2`). */
function delimited(parameter: ParameterSpec, text: string, by: string): unknown {
  switch (parameter.type) {
    case "array":
      return list(text === "" ? [] : text.split(by), parameter.items);
    case "object": {
      const parts = text === "" ? [] : text.split(by);
      const object: Record<string, unknown> = {};
      const entries: [string, string][] = parameter.explode
        ? parts.map((part) => {
            const equals = part.indexOf("=");
            return equals === -1 ? [part, ""] : [part.slice(0, equals), part.slice(equals + 1)];
          })
        : Array.from({ length: Math.floor(parts.length / 2) }, (_, i) => [parts[2 * i] ?? "", parts[2 * i + 1] ?? ""]);
      for (const [key, item] of entries) {
        const value = scalar(
          item.trim(),
          parameter.properties && Object.hasOwn(parameter.properties, key) ? parameter.properties[key] : "string",
        );
        if (value === INVALID) return INVALID;
        Object.defineProperty(object, key.trim(), { value, enumerable: true, writable: true, configurable: true });
      }
      return object;
    }
    default:
      return scalar(text, parameter.type);
  }
}

function list(texts: string[], type: ParameterType | undefined): unknown {
  const items: unknown[] = [];
  for (const text of texts) {
    const value = scalar(type === "string" || type === undefined ? text : text.trim(), type);
    if (value === INVALID) return INVALID;
    items.push(value);
  }
  return items;
}

/** A property name as a JSON pointer token. */
export function pointerToken(name: string): string {
  return name.replace(/~/g, "~0").replace(/\//g, "~1");
}

/** One sentence naming the failing inputs, for a problem's `detail`. */
export function describeErrors(errors: readonly FieldError[]): string {
  const first = errors.slice(0, 3).map((error) => `${error.pointer || "/"} ${error.message}`);
  const more = errors.length > 3 ? ` (and ${errors.length - 3} more)` : "";
  return `${first.join("; ")}${more}.`;
}

// ---- body ------------------------------------------------------------------------------------

/** `application/json; charset=utf-8` → `application/json`. */
export function mediaTypeOf(contentType: string | undefined): string | undefined {
  if (contentType === undefined) return undefined;
  // Clients send the same few Content-Type values over and over: each is split and lower-cased once.
  let type = mediaTypes.get(contentType);
  if (type === undefined) {
    type = (contentType.split(";", 1)[0] ?? "").trim().toLowerCase();
    if (mediaTypes.size >= 64) mediaTypes.clear();
    mediaTypes.set(contentType, type);
  }
  return type === "" ? undefined : type;
}

const mediaTypes = new Map<string, string>();

/** Whether the request carries a body (a non-zero length, or a chunked one). */
export function hasBody(request: IncomingMessage): boolean {
  const length = request.headers["content-length"];
  if (length !== undefined) return length !== "0";
  return request.headers["transfer-encoding"] !== undefined;
}

/**
 * Whether the operation takes a body of this media type: an exact match, or a declared range
 * (`image/*`, `*\/*`). A JSON body with a charset other than UTF-8 is not taken.
 */
export function acceptsMediaType(spec: BodySpec, contentType: string | undefined): boolean {
  const type = mediaTypeOf(contentType);
  if (type === undefined) return false;
  const accepted = spec.mediaTypes.some(
    (declared) => declared === type || declared === "*/*" || (declared.endsWith("/*") && type.startsWith(declared.slice(0, -1))),
  );
  if (!accepted) return false;
  if (isJsonType(type)) {
    const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType ?? "");
    if (charset?.[1] !== undefined && !/^utf-?8$/i.test(charset[1])) return false;
  }
  return true;
}

export function isJsonType(type: string): boolean {
  return type === "application/json" || /^[^/;]+\/[^;]*\+json$/.test(type);
}

export interface BodyLimits {
  maxBodySize: number;
  bodyTimeout: number;
}

/**
 * Reads the body within `maxBodySize` bytes and `bodyTimeout` ms (runtime/http-body.ts) and calls
 * `done` once, with the bytes (undefined: no body) or the error. A declared length over the limit
 * is refused before a byte is read (413); a body growing past it stops being buffered at that
 * point (413); a body still incomplete when the time is up is 408. Either way the connection is
 * marked to close, so the rest is never read. A callback, not a promise: a POST waits on no
 * microtask for it.
 */
export function readBody(
  request: IncomingMessage,
  limits: BodyLimits,
  done: (error: Error | undefined, body: Uint8Array | undefined) => void,
): void {
  if (!hasBody(request)) return done(undefined, undefined);
  // A body parser mounted before this listener (Express, Connect) has read the stream already.
  if (request.readableEnded) return done(undefined, parsedBody(request));
  const declared = request.headers["content-length"];
  if (declared !== undefined && !/^\d+$/.test(declared)) {
    return done(
      new HttpProblem(400, "Bad Request", { detail: "Content-Length is not a number.", headers: { connection: "close" } }),
      undefined,
    );
  }
  readLimitedBody(request, limits.maxBodySize, limits.bodyTimeout, REFUSALS, done);
}

/** The REST server's answers to a refused body: Problem Details, and the connection closes. */
const REFUSALS: BodyRefusals<Error> = {
  tooLarge: (limit) =>
    new HttpProblem(413, "Content Too Large", {
      detail: `The request body exceeds ${limit} bytes.`,
      headers: { connection: "close" },
    }),
  late: (timeout) =>
    new HttpProblem(408, "Request Timeout", {
      detail: `The request body did not arrive within ${timeout} ms.`,
      headers: { connection: "close" },
    }),
  broken: (error) => new ClientGoneError(error),
};

/** What a framework's body parser left in `request.body`, as bytes again. */
function parsedBody(request: IncomingMessage): Uint8Array | undefined {
  const body = (request as IncomingMessage & { body?: unknown }).body;
  if (body instanceof Uint8Array) return body;
  if (typeof body === "string") return Buffer.from(body);
  if (body !== undefined && body !== null) return Buffer.from(JSON.stringify(body));
  return undefined;
}

/** The client went away while its request was read: there is nobody to answer. */
export class ClientGoneError extends Error {
  constructor(cause: unknown) {
    super("the client closed the connection", { cause });
    this.name = "ClientGoneError";
  }
}

/**
 * The body as the handler gets it: JSON parsed, forms and multipart read into objects (fields
 * coerced per schema, files as `File`s), text as a string, anything else as bytes. Undefined
 * when the request has no body.
 */
export function decodeBody(spec: BodySpec, contentType: string | undefined, bytes: Uint8Array | undefined, maxDepth: number): unknown {
  if (bytes === undefined || bytes.length === 0) return undefined;
  const type = mediaTypeOf(contentType) ?? "application/octet-stream";
  if (isJsonType(type)) return parseJson(text(bytes), maxDepth);
  if (type === "application/x-www-form-urlencoded") {
    const fields = new Map<string, Array<string | File>>();
    for (const [name, values] of parseQuery(text(bytes))) fields.set(name, values);
    return formObject(fields, spec.fields);
  }
  // Only multipart is read asynchronously (a Promise); every other body is decoded in place.
  if (type === "multipart/form-data") return decodeMultipart(spec, contentType ?? type, bytes);
  if (type.startsWith("text/")) return text(bytes);
  return bytes;
}

async function decodeMultipart(spec: BodySpec, contentType: string, bytes: Uint8Array): Promise<unknown> {
  let form: FormData;
  try {
    // slice(): a copy typed Uint8Array<ArrayBuffer>, which the DOM typing of BodyInit asks for.
    form = await new Response(bytes.slice(), { headers: { "content-type": contentType } }).formData();
  } catch {
    throw new HttpProblem(400, "Bad Request", { detail: "The multipart body is malformed." });
  }
  const fields = new Map<string, Array<string | File>>();
  for (const [name, value] of form) {
    const values = fields.get(name);
    if (values) values.push(value);
    else fields.set(name, [value]);
  }
  return formObject(fields, spec.fields);
}

const UTF8 = new TextDecoder("utf-8", { fatal: true });

function text(bytes: Uint8Array): string {
  try {
    return UTF8.decode(bytes);
  } catch {
    throw new HttpProblem(400, "Bad Request", { detail: "The request body is not valid UTF-8." });
  }
}

function parseJson(source: string, maxDepth: number): unknown {
  if (source.length > 2 * maxDepth && depthOf(source) > maxDepth) {
    throw new HttpProblem(400, "Bad Request", { detail: `The JSON body is nested deeper than ${maxDepth} levels.` });
  }
  try {
    return JSON.parse(source);
  } catch (error) {
    throw new HttpProblem(400, "Bad Request", {
      detail: `The body is not valid JSON: ${error instanceof Error ? error.message : "syntax error"}.`,
    });
  }
}

/** Deepest nesting of `[`/`{` outside strings; a linear scan, so checking costs less than parsing. */
function depthOf(source: string): number {
  let depth = 0;
  let deepest = 0;
  for (let i = 0; i < source.length; i++) {
    const code = source.charCodeAt(i);
    if (code === 0x22) {
      // Jump over the string: to the next quote not escaped by an odd run of backslashes.
      let end = i;
      for (;;) {
        end = source.indexOf('"', end + 1);
        if (end === -1) return deepest;
        let slashes = 0;
        while (source.charCodeAt(end - 1 - slashes) === 0x5c) slashes++;
        if (slashes % 2 === 0) break;
      }
      i = end;
    } else if (code === 0x5b || code === 0x7b) {
      if (++depth > deepest) deepest = depth;
    } else if (code === 0x5d || code === 0x7d) {
      depth--;
    }
  }
  return deepest;
}

/** Form fields as an object: lists where the schema has an array, scalars coerced, files kept. */
function formObject(
  fields: Map<string, Array<string | File>>,
  specs: Readonly<Record<string, FieldSpec>> | undefined,
): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  const errors: FieldError[] = [];
  for (const [name, values] of fields) {
    const spec = specs && Object.hasOwn(specs, name) ? specs[name] : undefined;
    const read = (value: string | File, type: ParameterType | "binary" | undefined): unknown => {
      if (typeof value !== "string") return type === "binary" || type === undefined ? value : INVALID;
      if (type === "binary") return new File([value], name);
      return scalar(value, type);
    };
    let value: unknown;
    if (spec?.type === "array") {
      const items = values.map((item) => read(item, spec.items));
      value = items.includes(INVALID) ? INVALID : items;
    } else {
      const last = values.at(-1);
      if (last === undefined) continue; // never: a field is stored with its first value
      value = read(last, spec?.type);
    }
    if (value === INVALID) {
      errors.push({
        pointer: `/body/${pointerToken(name)}`,
        keyword: "type",
        message:
          spec?.type === "array" ? "has a malformed item" : EXPECTED[spec?.type === "binary" || spec === undefined ? "unknown" : spec.type],
      });
      continue;
    }
    Object.defineProperty(object, name, { value, enumerable: true, writable: true, configurable: true });
  }
  if (errors.length) throw new HttpProblem(400, "Bad Request", { detail: describeErrors(errors), extensions: { errors } });
  return object;
}
