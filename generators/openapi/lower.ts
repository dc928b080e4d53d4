/**
 * Lowering an OpenAPI document's paths and schemas to the model: named schemas (components,
 * schemas hoisted from other files, and inline request/response bodies), operations with merged
 * parameters, sorted responses, security and pagination.
 *
 * Naming rules (all names unique; clashes get 2, 3, ... via `uniqueName`):
 * - a component schema keeps its name when it is an identifier starting with a capital letter,
 *   otherwise it is PascalCased (`simple-user` → `SimpleUser`);
 * - a schema referenced from elsewhere (another file, or a non-component place) is named after the
 *   last segment of its pointer (`./problem.yaml#/Problem` → `Problem`), or the file name;
 * - an inline body becomes `<Operation>Body` / `<Operation><Status>Response`; one written in a
 *   shared `components.requestBodies`/`responses` entry is named after that entry, once;
 * - an operation is `camelCase(operationId)`, or, without one, method + path: GET on a path that
 *   ends in a literal segment is `list…`, other methods keep their name, literal segments are
 *   PascalCased and `{param}` becomes `By<Param>`: GET /projects/{projectId}/tasks →
 *   `listProjectsByProjectIdTasks`, DELETE /tasks/{taskId} → `deleteTasksByTaskId`, GET / → `getRoot`.
 */
import type { HttpMethod, MediaContent, Operation, Pagination, Parameter, RequestBody, Response, ResponseHeader, SecurityRequirement } from './model.js';
import type { JsonSchema, NamedSchema, SchemaObject } from '../core/schema/json-schema.js';
import { camelCase, isIdentifier, pascalCase, safeIdentifier, uniqueName, words } from '../core/builder/names.js';
import type { Documents, Problems, SourceDoc, Where } from '../core/schema/json-documents.js';
import { child, closest, deref, describe, encodePointer, isObject, locate, own, resolveRef, segments } from '../core/schema/json-documents.js';
import type { SchemaContext } from './dialect.js';
import { lowerSchema } from './dialect.js';
import { describeReading, splitPathKey, withPathQuery, type QueryInPath } from './path-query.js';

export const METHODS: HttpMethod[] = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

function at(where: Where, ...keys: (string | number)[]): Where {
  let path = where.path;
  for (const key of keys) path = child(path, key);
  return { doc: where.doc, path };
}

function pascalWords(text: string): string {
  return words(text).map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join('');
}

/** Names every schema reachable from the document and lowers each once. */
export class SchemaRegistry {
  private readonly taken = new Set<string>();
  private readonly byKey = new Map<string, string>();
  private readonly queue: { name: string; value: unknown; where: Where; origin: NamedSchema['origin'] }[] = [];
  private readonly named: NamedSchema[] = [];
  readonly context: SchemaContext;

  constructor(private readonly docs: Documents, dialect: '3.0' | '3.1', readonly problems: Problems) {
    this.context = { dialect, problems, refTo: (ref, where) => this.refTo(ref, where) };
  }

  static schemaName(raw: string): string {
    return isIdentifier(raw) && /^[A-Z]/.test(raw) ? safeIdentifier(raw, 'Type') : pascalCase(raw);
  }

  /** Registers the schema at `where` under a name based on `base`; the same place gets one name. */
  add(base: string, value: unknown, where: Where, origin: NamedSchema['origin']): string {
    const key = `${where.doc.path}#${encodePointer(segments(where.path))}`;
    const known = this.byKey.get(key);
    if (known) return known;
    const name = uniqueName(base, this.taken);
    this.byKey.set(key, name);
    this.queue.push({ name, value, where, origin });
    return name;
  }

  /** Lowers a schema in place (parameters, headers): refs inside it become named schemas. */
  inline(value: unknown, where: Where): JsonSchema {
    return lowerSchema(value, where, this.context);
  }

  /** A body schema: a plain `$ref` stays a ref; anything else is hoisted under `base`. */
  body(value: unknown, where: Where, base: string): JsonSchema {
    if (isObject(value) && typeof value.$ref === 'string' && Object.keys(value).length === 1) return this.inline(value, where);
    return { $ref: `#/$defs/${this.add(base, value, where, 'operation')}` };
  }

  private refTo(ref: string, where: Where): string | undefined {
    const target = resolveRef(this.docs, ref, where, this.problems);
    if (!target) return undefined;
    const known = this.byKey.get(target.key);
    if (known) return `#/$defs/${known}`;
    const parts = segments(target.path);
    const last = parts.length ? parts[parts.length - 1] : target.doc.path.replace(/^.*[\\/]/, '').replace(/\.[^.]*$/, '');
    return `#/$defs/${this.add(SchemaRegistry.schemaName(last), target.value, target, 'component')}`;
  }

  /** Lowers everything registered so far (lowering may register more) and checks alias cycles. */
  finish(): NamedSchema[] {
    const whereOf = new Map<string, Where>();
    // Lowering a schema may register more (its refs): the queue grows while it is read.
    for (let i = 0; i < this.queue.length; i++) {
      const item = this.queue[i];
      const schema = lowerSchema(item.value, item.where, this.context);
      if (typeof schema === 'object') schema['x-location'] = locate(item.where);
      whereOf.set(item.name, item.where);
      this.named.push({ name: item.name, schema, origin: item.origin });
    }
    this.queue.length = 0;
    this.checkAliasCycles(whereOf);
    return [...this.named].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  /** `A: {$ref: B}`, `B: {$ref: A}` names no shape at all. */
  private checkAliasCycles(whereOf: Map<string, Where>): void {
    const target = new Map<string, string>();
    for (const { name, schema } of this.named) {
      if (typeof schema !== 'object' || !schema.$ref) continue;
      if (Object.keys(schema).some((key) => key !== '$ref' && key !== 'x-location')) continue;
      target.set(name, schema.$ref.slice('#/$defs/'.length));
    }
    const reported = new Set<string>();
    for (const start of target.keys()) {
      const chain: string[] = [];
      for (let name: string | undefined = start; name !== undefined && target.has(name); name = target.get(name)) {
        if (chain.includes(name)) {
          const cycle = chain.slice(chain.indexOf(name));
          if (!cycle.some((member) => reported.has(member))) {
            cycle.forEach((member) => reported.add(member));
            const first = whereOf.get(cycle[0]);
            this.problems.add(
              `$ref cycle: ${[...cycle, cycle[0]].join(' → ')} never reaches a schema`,
              first ? locate(at(first, '$ref')) : undefined,
              'make one of these schemas an actual schema instead of a reference',
            );
          }
          break;
        }
        chain.push(name);
      }
    }
  }
}

interface RawOperation {
  /** The path key without a query string (see path-query.ts). */
  path: string;
  /** Query parameters written into the path key. */
  query: QueryInPath[];
  method: HttpMethod;
  raw: Record<string, unknown>;
  where: Where;
  itemParameters: unknown;
  itemWhere: Where;
  /** Position in the document (paths, then methods, as written): the first of a duplicate operationId keeps its name. */
  written: number;
}

/** Finds every operation under `paths`, sorted by path then method. */
export function collectOperations(root: SourceDoc, docs: Documents, problems: Problems): RawOperation[] {
  const paths = own(root.data, 'paths');
  const pathsWhere: Where = { doc: root, path: child(undefined, 'paths') };
  if (paths === undefined) return [];
  if (!isObject(paths)) {
    problems.add(`"paths" must be an object, not ${describe(paths)}`, locate(pathsWhere), 'write one key per path, e.g. /pets: { get: ... }');
    return [];
  }
  const found: RawOperation[] = [];
  const keyOf = new Map<string, string>();
  for (const key of Object.keys(paths)) {
    const itemAt = at(pathsWhere, key);
    if (key.startsWith('x-')) continue;
    if (!key.startsWith('/')) problems.add(`path "${key}" must start with "/"`, locate(itemAt, 'key'), `write "/${key}"`);
    const { path, query, problem } = splitPathKey(key);
    if (problem !== undefined) {
      problems.add(`path "${key}" has a query string, and its part "${problem}" is not name=value`, locate(itemAt, 'key'), `write the path as "${path}" and declare the query parameters under parameters, with in: query`);
      continue;
    }
    if (query.length) {
      problems.warn(`path "${key}" has a query string, which is not part of an OpenAPI path; read as ${describeReading(path, query)}`, locate(itemAt, 'key'), `write the path as "${path}" and declare the query parameters under parameters, with in: query`);
    }
    const resolved = deref(docs, paths[key], itemAt, problems);
    if (!resolved) continue;
    const item = resolved.value;
    if (!isObject(item)) {
      problems.add(`path "${key}" must be an object of operations, not ${describe(item)}`, locate(resolved.where), 'write e.g. get: { responses: ... }');
      continue;
    }
    for (const method of METHODS) {
      const raw = item[method];
      if (raw === undefined) continue;
      const where = at(resolved.where, method);
      if (!isObject(raw)) {
        problems.add(`${method.toUpperCase()} ${key} must be an operation object, not ${describe(raw)}`, locate(where), 'write e.g. { responses: { "200": { description: OK } } }');
        continue;
      }
      const route = `${method.toUpperCase()} ${path}`;
      const first = keyOf.get(route);
      if (first !== undefined && first !== key) {
        problems.add(`${route} is declared twice: under "${first}" and under "${key}"`, locate(where, 'key'), `merge the two operations into one under "${path}", with the query parameters under parameters`);
        continue;
      }
      keyOf.set(route, key);
      found.push({ path, query, method, raw, where, itemParameters: item.parameters, itemWhere: resolved.where, written: found.length });
    }
  }
  const order = (op: RawOperation) => METHODS.indexOf(op.method);
  return found.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : order(a) - order(b)));
}

/** The name of an operation without an operationId; see the rules at the top of this file. */
export function derivedName(method: HttpMethod, path: string): string {
  const parts = path.split('/').filter(Boolean);
  const noun = parts.map((part) => {
    const param = /^\{(.+)\}$/.exec(part);
    return param ? `By${pascalWords(param[1])}` : pascalWords(part);
  }).join('') || 'Root';
  const member = parts.length > 0 && /^\{.+\}$/.test(parts[parts.length - 1]);
  const verb = method === 'get' && parts.length > 0 && !member ? 'list' : method;
  return camelCase(`${verb}${noun}`);
}

/**
 * Assigns unique names: operationIds first (they are what the user chose), then derived ones. A
 * duplicate operationId is forgiven: the first written keeps the name, later ones are numbered
 * (`getTask2`), as hey-api and openapi-generator number them.
 */
export function nameOperations(ops: RawOperation[], problems: Problems): string[] {
  const names = new Array<string>(ops.length);
  const taken = new Set<string>();
  const firstWritten = new Map<string, RawOperation>();
  for (const op of ops) {
    const id = op.raw.operationId;
    const first = typeof id === 'string' ? firstWritten.get(id) : undefined;
    if (typeof id === 'string' && id !== '' && (!first || op.written < first.written)) firstWritten.set(id, op);
  }
  const duplicates: { i: number; id: string }[] = [];
  ops.forEach((op, i) => {
    const id = op.raw.operationId;
    if (id === undefined) return;
    const idAt = at(op.where, 'operationId');
    if (typeof id !== 'string' || id === '') {
      problems.add(`"operationId" must be a non-empty string, not ${describe(id)}`, locate(idAt), 'write e.g. operationId: listPets');
      return;
    }
    if (firstWritten.get(id) === op) names[i] = uniqueName(camelCase(id), taken);
    else duplicates.push({ i, id });
  });
  for (const { i, id } of duplicates) {
    const op = ops[i] as RawOperation;
    names[i] = uniqueName(camelCase(id), taken);
    const where = locate(at((firstWritten.get(id) as RawOperation).where, 'operationId'));
    problems.warn(
      `duplicate operationId "${id}" (also used at ${where.file}:${where.line}:${where.column}); this operation is named ${names[i]}`,
      locate(at(op.where, 'operationId')),
      'every operationId must be unique in the API: rename one of them',
    );
  }
  ops.forEach((op, i) => {
    if (names[i] === undefined) names[i] = uniqueName(derivedName(op.method, op.path), taken);
  });
  return names;
}

const STYLES = ['form', 'simple', 'label', 'matrix', 'spaceDelimited', 'pipeDelimited', 'deepObject'] as const;
const LOCATIONS = ['path', 'query', 'header', 'cookie'] as const;
/** Header parameters the spec says to ignore: they are set by content negotiation and security. */
const IGNORED_HEADERS = new Set(['accept', 'content-type', 'authorization']);

/** Lowers one operation. Pagination is filled in later, once every schema is lowered. */
export class OperationLowering {
  constructor(
    private readonly docs: Documents,
    private readonly schemas: SchemaRegistry,
    private readonly problems: Problems,
    private readonly schemeNames: Set<string>,
  ) {}

  lower(op: RawOperation, name: string): Operation {
    const { raw, where } = op;
    const pascal = pascalCase(name);
    const operation: Operation = {
      name,
      method: op.method,
      path: op.path,
      deprecated: false,
      tags: [],
      parameters: this.parameters(op),
      responses: [],
      location: locate(where, 'key'),
    };
    if (typeof raw.operationId === 'string') operation.operationId = raw.operationId;
    this.text(raw, where, 'summary', (value) => (operation.summary = value));
    this.text(raw, where, 'description', (value) => (operation.description = value));
    if (raw.deprecated !== undefined) {
      if (typeof raw.deprecated === 'boolean') operation.deprecated = raw.deprecated;
      else this.problems.add(`"deprecated" must be true or false, not ${describe(raw.deprecated)}`, locate(at(where, 'deprecated')), 'write true or false without quotes');
    }
    if (raw.tags !== undefined) {
      if (Array.isArray(raw.tags) && raw.tags.every((tag) => typeof tag === 'string')) operation.tags = [...raw.tags];
      else this.problems.add(`"tags" must be a list of strings, not ${describe(raw.tags)}`, locate(at(where, 'tags')), 'write e.g. tags: [pets]');
    }
    if (raw.requestBody !== undefined) operation.requestBody = this.requestBody(raw.requestBody, at(where, 'requestBody'), pascal);
    operation.responses = this.responses(raw.responses, at(where, 'responses'), pascal);
    if (raw.security !== undefined) {
      const security = lowerSecurity(raw.security, at(where, 'security'), this.schemeNames, this.problems);
      if (security) operation.security = security;
    }
    this.checkPathParameters(op, operation);
    return operation;
  }

  private text(raw: Record<string, unknown>, where: Where, key: string, set: (value: string) => void): void {
    const value = raw[key];
    if (value === undefined) return;
    if (typeof value === 'string') set(value);
    else this.problems.add(`"${key}" must be a string, not ${describe(value)}`, locate(at(where, key)), 'quote the text');
  }

  /** Path-level parameters, overridden by operation-level ones with the same name and `in`. */
  private parameters(op: RawOperation): Parameter[] {
    const merged = new Map<string, Parameter>();
    for (const [list, listAt] of [[op.itemParameters, at(op.itemWhere, 'parameters')], [op.raw.parameters, at(op.where, 'parameters')]] as const) {
      if (list === undefined) continue;
      if (!Array.isArray(list)) {
        this.problems.add(`"parameters" must be a list, not ${describe(list)}`, locate(listAt), 'write a list: parameters: [{ name: id, in: path, ... }]');
        continue;
      }
      const level = new Set<string>();
      list.forEach((item, i) => {
        const parameter = this.parameter(item, at(listAt, i));
        if (!parameter) return;
        const key = `${parameter.in}:${parameter.in === 'header' ? parameter.name.toLowerCase() : parameter.name}`;
        if (level.has(key)) {
          this.problems.add(`parameter "${parameter.name}" in ${parameter.in} is listed twice`, locate(at(listAt, i)), 'remove one of the two');
          return;
        }
        level.add(key);
        merged.set(key, parameter);
      });
    }
    return withPathQuery([...merged.values()], op.query);
  }

  private parameter(item: unknown, itemAt: Where): Parameter | undefined {
    const resolved = deref(this.docs, item, itemAt, this.problems);
    if (!resolved) return undefined;
    const { value: raw, where } = resolved;
    if (!isObject(raw)) {
      this.problems.add(`a parameter must be an object, not ${describe(raw)}`, locate(where), 'write e.g. { name: id, in: path, required: true, schema: { type: string } }');
      return undefined;
    }
    const { name } = raw;
    const place = raw.in;
    if (typeof name !== 'string' || name === '') {
      this.problems.add(`parameter "name" must be a non-empty string, not ${describe(name)}`, locate(name === undefined ? where : at(where, 'name')), 'write e.g. name: limit');
      return undefined;
    }
    if (typeof place !== 'string' || !(LOCATIONS as readonly string[]).includes(place)) {
      const near = typeof place === 'string' ? closest(place, [...LOCATIONS]) : undefined;
      this.problems.add(`parameter "${name}": "in" must be one of ${LOCATIONS.join(', ')}, not ${describe(place)}`, locate(place === undefined ? where : at(where, 'in')), near ? `did you mean "${near}"?` : 'write e.g. in: query');
      return undefined;
    }
    const location = place as Parameter['in'];
    if (location === 'header' && IGNORED_HEADERS.has(name.toLowerCase())) return undefined;
    let style: Parameter['style'] = location === 'query' || location === 'cookie' ? 'form' : 'simple';
    if (raw.style !== undefined) {
      if (typeof raw.style === 'string' && (STYLES as readonly string[]).includes(raw.style)) style = raw.style as Parameter['style'];
      else this.problems.add(`parameter "${name}": "style" must be one of ${STYLES.join(', ')}, not ${describe(raw.style)}`, locate(at(where, 'style')), 'remove it to use the default for this location');
    }
    let explode = style === 'form';
    if (raw.explode !== undefined) {
      if (typeof raw.explode === 'boolean') explode = raw.explode;
      else this.problems.add(`parameter "${name}": "explode" must be true or false, not ${describe(raw.explode)}`, locate(at(where, 'explode')), 'write true or false without quotes');
    }
    let required = location === 'path';
    if (raw.required !== undefined) {
      if (typeof raw.required !== 'boolean') this.problems.add(`parameter "${name}": "required" must be true or false, not ${describe(raw.required)}`, locate(at(where, 'required')), 'write true or false without quotes');
      else if (location !== 'path') required = raw.required;
      else if (!raw.required) this.problems.add(`path parameter "${name}" must be required`, locate(at(where, 'required')), 'write required: true (a path always has every segment)');
    }
    this.checkExamples(raw.examples, at(where, 'examples'));
    const parameter: Parameter = { name, in: location, required, schema: this.contentSchema(raw, where), style, explode };
    if (typeof raw.description === 'string') parameter.description = raw.description;
    if (raw.deprecated === true) parameter.deprecated = true;
    return parameter;
  }

  /** Examples are not part of the model, but a dangling `$ref` among them is still a mistake. */
  private checkExamples(value: unknown, where: Where): void {
    if (!isObject(value)) return;
    for (const name of Object.keys(value)) deref(this.docs, value[name], at(where, name), this.problems);
  }

  /** `schema`, or the schema of the single entry of `content` (parameters and headers). */
  private contentSchema(raw: Record<string, unknown>, where: Where): JsonSchema {
    if (raw.schema !== undefined) return this.schemas.inline(raw.schema, at(where, 'schema'));
    if (isObject(raw.content)) {
      const [type] = Object.keys(raw.content);
      const media = type === undefined ? undefined : raw.content[type];
      if (isObject(media) && media.schema !== undefined) return this.schemas.inline(media.schema, at(where, 'content', type, 'schema'));
    }
    return {};
  }

  private requestBody(value: unknown, bodyAt: Where, pascal: string): RequestBody | undefined {
    const resolved = deref(this.docs, value, bodyAt, this.problems);
    if (!resolved) return undefined;
    const { value: raw, where, key } = resolved;
    if (!isObject(raw)) {
      this.problems.add(`"requestBody" must be an object, not ${describe(raw)}`, locate(where), 'write e.g. { content: { application/json: { schema: ... } } }');
      return undefined;
    }
    const base = key ? sharedName(key, 'Body') : `${pascal}Body`;
    const body: RequestBody = { required: raw.required === true, contents: this.contents(raw.content, at(where, 'content'), base) };
    if (typeof raw.description === 'string') body.description = raw.description;
    return body;
  }

  private contents(value: unknown, contentAt: Where, base: string): MediaContent[] {
    if (value === undefined) return [];
    if (!isObject(value)) {
      this.problems.add(`"content" must map media types to media objects, not ${describe(value)}`, locate(contentAt), 'write e.g. content: { application/json: { schema: ... } }');
      return [];
    }
    return Object.keys(value).map((mediaType) => {
      const media = value[mediaType];
      const content: MediaContent = { mediaType };
      if (isObject(media) && media.schema !== undefined) content.schema = this.schemas.body(media.schema, at(contentAt, mediaType, 'schema'), base);
      if (isObject(media)) this.checkExamples(media.examples, at(contentAt, mediaType, 'examples'));
      return content;
    });
  }

  private responses(value: unknown, responsesAt: Where, pascal: string): Response[] {
    if (value === undefined) return [];
    if (!isObject(value)) {
      this.problems.add(`"responses" must map status codes to responses, not ${describe(value)}`, locate(responsesAt), 'write e.g. responses: { "200": { description: OK } }');
      return [];
    }
    const out: Response[] = [];
    for (const code of Object.keys(value)) {
      if (code.startsWith('x-')) continue;
      const status = /^[1-5]xx$/i.test(code) ? code.toUpperCase() : code;
      const codeAt = at(responsesAt, code);
      if (!/^([1-5][0-9][0-9]|[1-5]XX|default)$/.test(status)) {
        this.problems.add(`response status "${code}" is not a status code`, locate(codeAt, 'key'), 'use a code from 100 to 599, a range such as 4XX, or default');
        continue;
      }
      const resolved = deref(this.docs, value[code], codeAt, this.problems);
      if (!resolved) continue;
      const { value: raw, where, key } = resolved;
      if (!isObject(raw)) {
        this.problems.add(`response ${status} must be an object, not ${describe(raw)}`, locate(where), 'write e.g. { description: OK }');
        continue;
      }
      const base = key ? sharedName(key, 'Response') : `${pascal}${status === 'default' ? 'Default' : status}Response`;
      const response: Response = { status, contents: this.contents(raw.content, at(where, 'content'), base), headers: this.headers(raw.headers, at(where, 'headers')) };
      if (typeof raw.description === 'string') response.description = raw.description;
      out.push(response);
    }
    return out.sort((a, b) => statusRank(a.status) - statusRank(b.status));
  }

  private headers(value: unknown, headersAt: Where): ResponseHeader[] {
    if (value === undefined) return [];
    if (!isObject(value)) {
      this.problems.add(`"headers" must map header names to headers, not ${describe(value)}`, locate(headersAt), 'write e.g. headers: { ETag: { schema: { type: string } } }');
      return [];
    }
    const out: ResponseHeader[] = [];
    for (const name of Object.keys(value)) {
      if (name.toLowerCase() === 'content-type') continue; // described by `content`, per the spec
      const resolved = deref(this.docs, value[name], at(headersAt, name), this.problems);
      if (!resolved) continue;
      const { value: raw, where } = resolved;
      if (!isObject(raw)) {
        this.problems.add(`header "${name}" must be an object, not ${describe(raw)}`, locate(where), 'write e.g. { schema: { type: string } }');
        continue;
      }
      const header: ResponseHeader = { name, required: raw.required === true, schema: this.contentSchema(raw, where) };
      if (typeof raw.description === 'string') header.description = raw.description;
      out.push(header);
    }
    return out;
  }

  /** Every `{name}` in the path template is a path parameter, and every path parameter is in it. */
  private checkPathParameters(op: RawOperation, operation: Operation): void {
    const inTemplate = [...op.path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]);
    const declared = operation.parameters.filter((parameter) => parameter.in === 'path').map((parameter) => parameter.name);
    for (const name of inTemplate) {
      if (!declared.includes(name)) {
        this.problems.add(
          `${op.method.toUpperCase()} ${op.path}: path parameter "${name}" is not declared`,
          locate(op.where, 'key'),
          `add { name: ${name}, in: path, required: true, schema: { type: string } } to its parameters`,
        );
      }
    }
    for (const name of declared) {
      if (!inTemplate.includes(name)) {
        this.problems.add(
          `${op.method.toUpperCase()} ${op.path}: path parameter "${name}" does not appear in the path`,
          locate(op.where, 'key'),
          `add {${name}} to the path, or change the parameter's "in"`,
        );
      }
    }
  }
}

/** Name for a body written once in a shared component: `#/components/responses/NotFound` → `NotFoundResponse`. */
function sharedName(key: string, suffix: string): string {
  const last = key.slice(key.lastIndexOf('/') + 1).replace(/~1/g, '/').replace(/~0/g, '~');
  const base = pascalCase(last);
  return base.endsWith(suffix) ? base : `${base}${suffix}`;
}

function statusRank(status: string): number {
  if (status === 'default') return 10000;
  if (status.endsWith('XX')) return 1000 + Number(status[0]);
  return Number(status);
}

/** A list of security requirements; every scheme named must be declared. */
export function lowerSecurity(value: unknown, where: Where, schemes: Set<string>, problems: Problems): SecurityRequirement[] | undefined {
  if (!Array.isArray(value)) {
    problems.add(`"security" must be a list of requirements, not ${describe(value)}`, locate(where), 'write e.g. security: [{ bearerAuth: [] }], or [] for public');
    return undefined;
  }
  const out: SecurityRequirement[] = [];
  value.forEach((item, i) => {
    const itemAt = at(where, i);
    if (!isObject(item)) {
      problems.add(`a security requirement must be an object, not ${describe(item)}`, locate(itemAt), 'write e.g. { bearerAuth: [] }');
      return;
    }
    const requirement: SecurityRequirement = {};
    for (const scheme of Object.keys(item)) {
      const scopes = item[scheme];
      if (!schemes.has(scheme)) {
        const near = closest(scheme, [...schemes]);
        problems.add(`security scheme "${scheme}" is not defined in components.securitySchemes`, locate(at(itemAt, scheme), 'key'), near ? `did you mean "${near}"?` : 'declare it under components.securitySchemes');
        continue;
      }
      if (!Array.isArray(scopes) || !scopes.every((scope) => typeof scope === 'string')) {
        problems.add(`scopes of "${scheme}" must be a list of strings, not ${describe(scopes)}`, locate(at(itemAt, scheme)), 'write [] when no scopes apply');
        continue;
      }
      Object.defineProperty(requirement, scheme, { value: [...scopes], enumerable: true, writable: true, configurable: true });
    }
    out.push(requirement);
  });
  return out;
}

// ---------------------------------------------------------------- pagination

const PAGE_SIZE_PARAMS = ['pageSize', 'page_size', 'per_page', 'perPage', 'size'];

/** Follows `#/$defs/` refs to the schema object they name. */
function resolve(schema: JsonSchema | undefined, byName: Map<string, JsonSchema>): SchemaObject | undefined {
  for (let depth = 0; depth < 32 && typeof schema === 'object'; depth++) {
    if (!schema.$ref) return schema;
    schema = byName.get(schema.$ref.slice('#/$defs/'.length));
  }
  return undefined;
}

/** Properties of an object schema, including those its `allOf` members add. */
function properties(schema: SchemaObject | undefined, byName: Map<string, JsonSchema>): [string, JsonSchema][] {
  if (!schema) return [];
  const own = schema.properties ? Object.entries(schema.properties) : [];
  return [...own, ...(schema.allOf ?? []).flatMap((member) => properties(resolve(member, byName), byName))];
}

function hasType(schema: SchemaObject | undefined, type: string, byName: Map<string, JsonSchema>): boolean {
  if (!schema) return false;
  if (schema.type !== undefined) return Array.isArray(schema.type) ? schema.type.includes(type as never) : schema.type === type;
  if (type === 'array' && (schema.items !== undefined || schema.prefixItems)) return true;
  const members = schema.anyOf ?? schema.oneOf;
  return !!members && members.some((member) => hasType(resolve(member, byName), type, byName));
}

/** The 200 JSON body of `operation`, resolved. */
function okBody(operation: Operation, byName: Map<string, JsonSchema>): SchemaObject | undefined {
  const ok = operation.responses.find((response) => response.status === '200');
  const json = ok?.contents.find((content) => /^application\/(.+\+)?json$/.test(content.mediaType.split(';')[0].trim()));
  return resolve(json?.schema, byName);
}

/** What the 200 body offers for paging: its first array property and a string `…cursor…` property. */
function pageShape(operation: Operation, byName: Map<string, JsonSchema>): { itemsProperty?: string; nextCursorProperty?: string } {
  const body = okBody(operation, byName);
  const props = hasType(body, 'object', byName) || body?.properties ? properties(body, byName) : [];
  return {
    itemsProperty: props.find(([, schema]) => hasType(resolve(schema, byName), 'array', byName))?.[0],
    nextCursorProperty: props.find(([name, schema]) => /cursor/i.test(name) && hasType(resolve(schema, byName), 'string', byName))?.[0],
  };
}

/** Cursor pagination (`cursor` + `limit`), page pagination (`page` + a page size), or none. */
export function detectPagination(operation: Operation, byName: Map<string, JsonSchema>): Pagination | undefined {
  if (operation.method !== 'get') return undefined;
  const query = new Set(operation.parameters.filter((parameter) => parameter.in === 'query').map((parameter) => parameter.name));
  const { itemsProperty, nextCursorProperty } = pageShape(operation, byName);
  if (query.has('cursor') && query.has('limit') && itemsProperty && nextCursorProperty) {
    return { kind: 'cursor', cursorParam: 'cursor', limitParam: 'limit', itemsProperty, nextCursorProperty };
  }
  const pageSize = PAGE_SIZE_PARAMS.find((name) => query.has(name));
  if (query.has('page') && pageSize) {
    const page: Pagination = { kind: 'page', pageParam: 'page', pageSizeParam: pageSize };
    if (itemsProperty) page.itemsProperty = itemsProperty;
    return page;
  }
  return undefined;
}

/**
 * `x-pagination` on an operation overrides detection: `false` turns it off; an object sets `kind`
 * and any of the parameter and property names (the rest are detected or conventional).
 */
export function explicitPagination(value: unknown, where: Where, operation: Operation, byName: Map<string, JsonSchema>, problems: Problems): Pagination | undefined {
  if (value === false) return undefined;
  if (!isObject(value) || (value.kind !== 'cursor' && value.kind !== 'page')) {
    problems.add(`"x-pagination" must be false or an object with kind: cursor or kind: page, not ${describe(isObject(value) ? value.kind : value)}`, locate(isObject(value) ? at(where, 'kind') : where), 'write e.g. x-pagination: { kind: cursor, cursorParam: after, limitParam: first, itemsProperty: items, nextCursorProperty: next }');
    return undefined;
  }
  const shape = pageShape(operation, byName);
  const query = new Set(operation.parameters.filter((parameter) => parameter.in === 'query').map((parameter) => parameter.name));
  const fields: Record<string, string | undefined> = value.kind === 'cursor'
    ? { cursorParam: 'cursor', limitParam: 'limit', itemsProperty: shape.itemsProperty, nextCursorProperty: shape.nextCursorProperty }
    : { pageParam: 'page', pageSizeParam: PAGE_SIZE_PARAMS.find((name) => query.has(name)) ?? 'pageSize', itemsProperty: shape.itemsProperty };
  const result: Record<string, unknown> = { kind: value.kind };
  const props = new Set(properties(okBody(operation, byName), byName).map(([name]) => name));
  for (const [field, fallback] of Object.entries(fields)) {
    const given = value[field];
    if (given !== undefined && typeof given !== 'string') {
      problems.add(`"x-pagination.${field}" must be a string, not ${describe(given)}`, locate(at(where, field)), 'write the parameter or property name');
      continue;
    }
    const chosen = given ?? fallback;
    if (chosen === undefined) {
      if (field !== 'itemsProperty' || value.kind === 'cursor') problems.add(`"x-pagination" needs "${field}" here: it cannot be found in the 200 response`, locate(where), `add ${field}: <property name of the 200 response body>`);
      continue;
    }
    const isParam = field.endsWith('Param');
    if (isParam ? !query.has(chosen) : given !== undefined && props.size > 0 && !props.has(chosen)) {
      problems.add(`"x-pagination.${field}": ${isParam ? 'query parameter' : '200 response property'} "${chosen}" does not exist`, locate(given !== undefined ? at(where, field) : where), isParam ? `declare a query parameter "${chosen}", or name another` : 'name a property of the 200 response body');
    }
    result[field] = chosen;
  }
  return result as unknown as Pagination;
}
