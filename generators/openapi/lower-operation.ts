/**
 * Lowers one operation: its parameters (path-level ones merged in), request body, responses with
 * their headers, and security. Inline bodies are hoisted into named schemas: `<Operation>Body`,
 * `<Operation><Status>Response`, or, for one written in a shared `components.requestBodies` /
 * `responses` entry, that entry's name, once. Pagination is filled in later (pagination.ts).
 */
import type { MediaContent, Operation, Parameter, RequestBody, Response, ResponseHeader } from './model.js';
import type { JsonSchema } from '../core/schema/json-schema.js';
import { pascalCase } from '../core/builder/names.js';
import type { Documents, Problems, Where } from '../core/schema/json-documents.js';
import { at, closest, deref, describe, isObject, locate, locateWhenRead } from '../core/schema/json-documents.js';
import type { SchemaRegistry } from '../core/schema/registry.js';
import type { RawOperation } from './path-items.js';
import { withPathQuery } from './path-query.js';
import { lowerSecurity } from './security.js';

const STYLES = ['form', 'simple', 'label', 'matrix', 'spaceDelimited', 'pipeDelimited', 'deepObject'] as const;
const LOCATIONS = ['path', 'query', 'header', 'cookie'] as const;
/** Header parameters the spec says to ignore: they are set by content negotiation and security. */
const IGNORED_HEADERS = new Set(['accept', 'content-type', 'authorization']);

/** Lowers one operation. Pagination is filled in later, once every schema is lowered. */
export class OperationLowering {
  /**
   * The lowered schema of each shared parameter (`components/parameters`, by `$ref` target): one
   * object for every operation that refers to it, so what is derived from it later (types,
   * validator keys) is computed once, and lowering runs once. Problems are the same each time.
   */
  private readonly sharedSchemas = new Map<string, JsonSchema>();

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
    };
    locateWhenRead(operation, 'location', where, 'key');
    if (typeof raw.operationId === 'string') operation.operationId = raw.operationId;
    this.text(raw, where, 'summary', (value) => (operation.summary = value));
    this.text(raw, where, 'description', (value) => (operation.description = value));
    if (raw.deprecated !== undefined) {
      if (typeof raw.deprecated === 'boolean') operation.deprecated = raw.deprecated;
      else
        this.problems.add(
          `"deprecated" must be true or false, not ${describe(raw.deprecated)}`,
          locate(at(where, 'deprecated')),
          'write true or false without quotes',
        );
    }
    if (raw.tags !== undefined) {
      if (Array.isArray(raw.tags) && raw.tags.every((tag) => typeof tag === 'string')) operation.tags = [...raw.tags];
      else
        this.problems.add(
          `"tags" must be a list of strings, not ${describe(raw.tags)}`,
          locate(at(where, 'tags')),
          'write e.g. tags: [pets]',
        );
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
    for (const [list, listAt] of [
      [op.itemParameters, at(op.itemWhere, 'parameters')],
      [op.raw.parameters, at(op.where, 'parameters')],
    ] as const) {
      if (list === undefined) continue;
      if (!Array.isArray(list)) {
        this.problems.add(
          `"parameters" must be a list, not ${describe(list)}`,
          locate(listAt),
          'write a list: parameters: [{ name: id, in: path, ... }]',
        );
        continue;
      }
      const level = new Set<string>();
      list.forEach((item, i) => {
        const parameter = this.parameter(item, at(listAt, i));
        if (!parameter) return;
        const key = `${parameter.in}:${parameter.in === 'header' ? parameter.name.toLowerCase() : parameter.name}`;
        if (level.has(key)) {
          this.problems.add(
            `parameter "${parameter.name}" in ${parameter.in} is listed twice`,
            locate(at(listAt, i)),
            'remove one of the two',
          );
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
    const { value: raw, where, key: shared } = resolved;
    if (!isObject(raw)) {
      this.problems.add(
        `a parameter must be an object, not ${describe(raw)}`,
        locate(where),
        'write e.g. { name: id, in: path, required: true, schema: { type: string } }',
      );
      return undefined;
    }
    const { name } = raw;
    const place = raw.in;
    if (typeof name !== 'string' || name === '') {
      this.problems.add(
        `parameter "name" must be a non-empty string, not ${describe(name)}`,
        locate(name === undefined ? where : at(where, 'name')),
        'write e.g. name: limit',
      );
      return undefined;
    }
    if (typeof place !== 'string' || !(LOCATIONS as readonly string[]).includes(place)) {
      const near = typeof place === 'string' ? closest(place, [...LOCATIONS]) : undefined;
      this.problems.add(
        `parameter "${name}": "in" must be one of ${LOCATIONS.join(', ')}, not ${describe(place)}`,
        locate(place === undefined ? where : at(where, 'in')),
        near ? `did you mean "${near}"?` : 'write e.g. in: query',
      );
      return undefined;
    }
    const location = place as Parameter['in'];
    if (location === 'header' && IGNORED_HEADERS.has(name.toLowerCase())) return undefined;
    let style: Parameter['style'] = location === 'query' || location === 'cookie' ? 'form' : 'simple';
    if (raw.style !== undefined) {
      if (typeof raw.style === 'string' && (STYLES as readonly string[]).includes(raw.style)) style = raw.style as Parameter['style'];
      else
        this.problems.add(
          `parameter "${name}": "style" must be one of ${STYLES.join(', ')}, not ${describe(raw.style)}`,
          locate(at(where, 'style')),
          'remove it to use the default for this location',
        );
    }
    let explode = style === 'form';
    if (raw.explode !== undefined) {
      if (typeof raw.explode === 'boolean') explode = raw.explode;
      else
        this.problems.add(
          `parameter "${name}": "explode" must be true or false, not ${describe(raw.explode)}`,
          locate(at(where, 'explode')),
          'write true or false without quotes',
        );
    }
    let required = location === 'path';
    if (raw.required !== undefined) {
      if (typeof raw.required !== 'boolean')
        this.problems.add(
          `parameter "${name}": "required" must be true or false, not ${describe(raw.required)}`,
          locate(at(where, 'required')),
          'write true or false without quotes',
        );
      else if (location !== 'path') required = raw.required;
      else if (!raw.required)
        this.problems.add(
          `path parameter "${name}" must be required`,
          locate(at(where, 'required')),
          'write required: true (a path always has every segment)',
        );
    }
    this.checkExamples(raw.examples, at(where, 'examples'));
    let schema = shared === undefined ? undefined : this.sharedSchemas.get(shared);
    if (schema === undefined) {
      schema = this.contentSchema(raw, where);
      if (shared !== undefined) this.sharedSchemas.set(shared, schema);
    }
    const parameter: Parameter = { name, in: location, required, schema, style, explode };
    if (typeof raw.description === 'string') parameter.description = raw.description;
    if (raw.deprecated === true) parameter.deprecated = true;
    return parameter;
  }

  /** Examples are not part of the model, but a dangling `$ref` among them is still a mistake. */
  private checkExamples(value: unknown, where: Where): void {
    if (!isObject(value)) return;
    for (const name of Object.keys(value)) deref(this.docs, value[name], at(where, name), this.problems);
  }

  /** A media type's `example` and the `value` of each of its `examples` (references followed). */
  private examples(media: Record<string, unknown>, where: Where): unknown[] {
    const out: unknown[] = media.example === undefined ? [] : [media.example];
    if (!isObject(media.examples)) return out;
    for (const name of Object.keys(media.examples)) {
      const resolved = deref(this.docs, media.examples[name], at(where, 'examples', name), this.problems);
      if (resolved && isObject(resolved.value) && resolved.value.value !== undefined) out.push(resolved.value.value);
    }
    return out;
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
      this.problems.add(
        `"requestBody" must be an object, not ${describe(raw)}`,
        locate(where),
        'write e.g. { content: { application/json: { schema: ... } } }',
      );
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
      this.problems.add(
        `"content" must map media types to media objects, not ${describe(value)}`,
        locate(contentAt),
        'write e.g. content: { application/json: { schema: ... } }',
      );
      return [];
    }
    return Object.keys(value).map((mediaType) => {
      const media = value[mediaType];
      const content: MediaContent = { mediaType };
      if (isObject(media) && media.schema !== undefined)
        content.schema = this.schemas.body(media.schema, at(contentAt, mediaType, 'schema'), base);
      if (isObject(media)) {
        const examples = this.examples(media, at(contentAt, mediaType));
        if (examples.length > 0) content.examples = examples;
      }
      return content;
    });
  }

  private responses(value: unknown, responsesAt: Where, pascal: string): Response[] {
    if (value === undefined) return [];
    if (!isObject(value)) {
      this.problems.add(
        `"responses" must map status codes to responses, not ${describe(value)}`,
        locate(responsesAt),
        'write e.g. responses: { "200": { description: OK } }',
      );
      return [];
    }
    const out: Response[] = [];
    for (const code of Object.keys(value)) {
      if (code.startsWith('x-')) continue;
      const status = /^[1-5]xx$/i.test(code) ? code.toUpperCase() : code;
      const codeAt = at(responsesAt, code);
      if (!/^([1-5][0-9][0-9]|[1-5]XX|default)$/.test(status)) {
        this.problems.add(
          `response status "${code}" is not a status code`,
          locate(codeAt, 'key'),
          'use a code from 100 to 599, a range such as 4XX, or default',
        );
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
      const response: Response = {
        status,
        contents: this.contents(raw.content, at(where, 'content'), base),
        headers: this.headers(raw.headers, at(where, 'headers')),
      };
      if (typeof raw.description === 'string') response.description = raw.description;
      out.push(response);
    }
    return out.sort((a, b) => statusRank(a.status) - statusRank(b.status));
  }

  private headers(value: unknown, headersAt: Where): ResponseHeader[] {
    if (value === undefined) return [];
    if (!isObject(value)) {
      this.problems.add(
        `"headers" must map header names to headers, not ${describe(value)}`,
        locate(headersAt),
        'write e.g. headers: { ETag: { schema: { type: string } } }',
      );
      return [];
    }
    const out: ResponseHeader[] = [];
    for (const name of Object.keys(value)) {
      if (name.toLowerCase() === 'content-type') continue; // described by `content`, per the spec
      const resolved = deref(this.docs, value[name], at(headersAt, name), this.problems);
      if (!resolved) continue;
      const { value: raw, where } = resolved;
      if (!isObject(raw)) {
        this.problems.add(
          `header "${name}" must be an object, not ${describe(raw)}`,
          locate(where),
          'write e.g. { schema: { type: string } }',
        );
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
  const last = key
    .slice(key.lastIndexOf('/') + 1)
    .replace(/~1/g, '/')
    .replace(/~0/g, '~');
  const base = pascalCase(last);
  return base.endsWith(suffix) ? base : `${base}${suffix}`;
}

function statusRank(status: string): number {
  if (status === 'default') return 10000;
  if (status.endsWith('XX')) return 1000 + Number(status[0]);
  return Number(status);
}
