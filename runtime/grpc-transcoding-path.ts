/**
 * Path templates of `google.api.http` rules (googleapis google/api/http.proto, "Path template
 * syntax"): parsed once, matched against request paths by the server, expanded by the REST client.
 *
 *     Template = "/" Segments [ Verb ] ;  Segments = Segment { "/" Segment } ;
 *     Segment  = "*" | "**" | LITERAL | Variable ;  Variable = "{" FieldPath [ "=" Segments ] "}" ;
 *     FieldPath = IDENT { "." IDENT } ;  Verb = ":" LITERAL ;
 *
 * A variable of one segment (`{name}`, `{name=*}`) is percent-decoded whole; a variable of several
 * (`{name=projects/*}`, `{name=**}`) keeps `%2F` as it is, so a decoded `/` and an encoded one
 * stay apart, as the spec says.
 */

/** One HTTP binding of a method, from its `google.api.http` rule or one of its `additional_bindings`. */
export interface HttpRule {
  /** `GET`, `POST`, `PUT`, `PATCH`, `DELETE`, or the `kind` of a custom pattern. */
  readonly method: string;
  /** The path template, e.g. `/v1/{name=projects/*\/tasks/*}:cancel`. */
  readonly path: string;
  /** `*` (every field the path does not set) or the request field the JSON body is; none: no body. */
  readonly body?: string;
  /** The response field sent as the body instead of the whole response message. */
  readonly responseBody?: string;
}

/** The HTTP bindings of a service's methods, by method `localName`: the main rule first. */
export type HttpRules = Readonly<Record<string, readonly HttpRule[]>>;

/** One segment of a template: a literal, `*` (one segment) or `**` (zero or more, last only). */
export type TemplateSegment = { kind: "literal"; value: string } | { kind: "*" } | { kind: "**" };

/** A `{field.path=segments}` variable: the segments it covers, `[start, end)`. */
export interface TemplateVariable {
  fieldPath: string[];
  start: number;
  end: number;
}

export interface PathTemplate {
  /** The template as written, for messages. */
  source: string;
  segments: TemplateSegment[];
  variables: TemplateVariable[];
  /** The custom verb after the last segment (`cancel` of `/v1/{name=tasks/*}:cancel`). */
  verb: string | undefined;
}

const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Parses a path template.
 *
 * @throws SyntaxError saying what is wrong where, e.g. for `/v1/{name` or `/v1/**`+`/x`.
 */
export function parsePathTemplate(source: string): PathTemplate {
  const fail = (why: string): never => {
    throw new SyntaxError(`path template ${JSON.stringify(source)}: ${why}`);
  };
  if (!source.startsWith("/")) fail('it must start with "/"');
  // The verb follows the last segment: after the last "/" or "}", whichever comes later.
  const colon = source.indexOf(":", Math.max(source.lastIndexOf("/"), source.lastIndexOf("}")));
  const verb = colon === -1 ? undefined : source.slice(colon + 1);
  if (verb !== undefined && (verb === "" || /[/{}*=]/.test(verb))) fail(`":${verb}" is not a verb like ":cancel"`);
  const text = colon === -1 ? source : source.slice(0, colon);
  const segments: TemplateSegment[] = [];
  const variables: TemplateVariable[] = [];
  let at = 1;
  const segment = () => {
    const stop = text.slice(at).search(/[/{}=]/);
    const end = stop === -1 ? text.length : at + stop;
    const part = text.slice(at, end);
    at = end;
    if (part === "*" || part === "**") segments.push({ kind: part });
    else if (part === "" || part.includes("*")) fail(`segment ${segments.length + 1} is empty or mixes "*" with text`);
    else segments.push({ kind: "literal", value: part });
  };
  for (;;) {
    if (text[at] === "{") {
      const close = text.slice(at).search(/[=}]/);
      if (close === -1) fail('a "{" is never closed');
      const fieldPath = text.slice(at + 1, at + close).split(".");
      if (!fieldPath.every((part) => IDENT.test(part))) fail(`"${fieldPath.join(".")}" is not a field path like "name" or "task.name"`);
      const start = segments.length;
      at += close;
      if (text[at] === "}") segments.push({ kind: "*" });
      else {
        do {
          at++; // past "=" or "/"
          segment();
        } while (text[at] === "/");
      }
      if (text[at] !== "}") fail(text[at] === "{" ? "a variable cannot hold another variable" : 'a "{" is never closed');
      at++;
      variables.push({ fieldPath, start, end: segments.length });
    } else {
      segment();
    }
    if (at === text.length) break;
    if (text[at] !== "/") fail(`unexpected "${text[at]}" at offset ${at}`);
    at++;
  }
  const deep = segments.findIndex((part) => part.kind === "**");
  if (deep !== -1 && deep !== segments.length - 1) fail('"**" must be the last segment');
  const names = variables.map((variable) => variable.fieldPath.join("."));
  const twice = names.find((name, i) => names.indexOf(name) !== i);
  if (twice !== undefined) fail(`the variable "${twice}" appears twice`);
  return { source, segments, variables, verb };
}

/**
 * The variables of `path` (the request path without query, still percent-encoded) when it fits the
 * template, by field path (`"task.name"`); undefined when it does not fit or is badly encoded.
 */
export function matchPathTemplate(template: PathTemplate, path: string): Map<string, string> | undefined {
  if (!path.startsWith("/")) return undefined;
  let rest = path.slice(1);
  if (template.verb !== undefined) {
    const suffix = `:${template.verb}`;
    if (!rest.endsWith(suffix)) return undefined;
    rest = rest.slice(0, -suffix.length);
  }
  const parts = rest.split("/");
  const { segments } = template;
  const deep = segments.length > 0 && segments[segments.length - 1]!.kind === "**";
  if (deep ? parts.length < segments.length - 1 : parts.length !== segments.length) return undefined;
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]!;
    if (segment.kind === "**") break;
    const part = parts[i]!;
    if (part === "") return undefined;
    if (segment.kind === "literal" && decodeSegment(part, true) !== segment.value) return undefined;
  }
  const values = new Map<string, string>();
  for (const variable of template.variables) {
    const reachesEnd = variable.end === segments.length;
    const covered = reachesEnd && deep ? parts.slice(variable.start) : parts.slice(variable.start, variable.end);
    const single = variable.end - variable.start === 1 && segments[variable.start]!.kind === "*";
    const value = single ? decodeSegment(covered[0]!, true) : decodeSegment(covered.join("/"), false);
    if (value === undefined) return undefined;
    values.set(variable.fieldPath.join("."), value);
  }
  return values;
}

/**
 * The path for `values` (by field path), each variable percent-encoded as the spec says: all but
 * `[-_.~0-9a-zA-Z]` for one segment, `/` kept too for several.
 *
 * @throws TypeError when a variable has no value or the value does not fit its segments
 *   (`parent` = "p1" for `{parent=projects/*}`).
 */
export function expandPathTemplate(template: PathTemplate, values: ReadonlyMap<string, string>): string {
  let path = "";
  let i = 0;
  for (const variable of template.variables) {
    for (; i < variable.start; i++) path += `/${literalOf(template.segments[i]!)}`;
    const name = variable.fieldPath.join(".");
    const value = values.get(name);
    if (value === undefined || value === "") throw new TypeError(`${name} is needed for the path ${template.source} and is empty`);
    const single = variable.end - variable.start === 1 && template.segments[variable.start]!.kind === "*";
    path += `/${single ? encodeSegment(value) : encodeSegment(value).replace(/%2F/g, "/")}`;
    i = variable.end;
  }
  for (; i < template.segments.length; i++) path += `/${literalOf(template.segments[i]!)}`;
  if (template.verb !== undefined) path += `:${template.verb}`;
  const matched = matchPathTemplate(template, path);
  for (const variable of template.variables) {
    const name = variable.fieldPath.join(".");
    if (matched?.get(name) !== values.get(name)) {
      throw new TypeError(`${name} = ${JSON.stringify(values.get(name))} does not fit the path ${template.source}`);
    }
  }
  return path;
}

function literalOf(segment: TemplateSegment): string {
  if (segment.kind !== "literal") throw new TypeError(`"${segment.kind}" outside a variable cannot be expanded`);
  return segment.value;
}

/** RFC 3986 unreserved characters stay; everything else is percent-encoded (UTF-8). */
function encodeSegment(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** Percent-decodes; `%2F` stays encoded unless `all`. Undefined for malformed encoding. */
function decodeSegment(raw: string, all: boolean): string | undefined {
  try {
    return all ? decodeURIComponent(raw) : raw.split(/%2F/i).map(decodeURIComponent).join("%2F");
  } catch {
    return undefined;
  }
}
