/**
 * An independent check of HTTP responses against schemas/openapi/tasks.yaml: the document is read
 * with `yaml` and its own schemas are compiled by ajv (2020-12 dialect, ajv-formats); nothing of
 * codegen (loader, model, generated validators) is used. For each recorded exchange it finds the
 * operation (path template + method), the declared response (the status, its `NXX` range, or
 * `default`), and checks:
 *   - the status is declared (or covered by `default`);
 *   - a body is sent only when the response declares content, with a declared media type;
 *   - the body matches the schema of that media type (JSON parsed);
 *   - required response headers are present, and declared headers match their schemas;
 *   - a problem body's `status` is the HTTP status.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { parse } from 'yaml';
import { ROOT } from './cli.js';

type Json = Record<string, unknown>;

const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule) as unknown as (
  ajv: Ajv2020,
) => void;

/** One request and what came back, as recorded by `recordingFetch`. */
export interface Exchange {
  method: string;
  url: string;
  status: number;
  /** Lower-case names. */
  headers: Record<string, string>;
  body: string;
}

/** What checking one exchange found. */
export interface CheckResult {
  exchange: Exchange;
  /** `undefined` when the request is outside the document (unknown path or method, OPTIONS). */
  operationId?: string;
  /** The `responses` key that applies: `200`, `4XX`, `default`. */
  responseKey?: string;
  violations: string[];
}

const DOC_BASE = 'https://codegen.test/schemas/openapi/';
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

function escapePointer(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

function mediaType(contentType: string | undefined): string | undefined {
  return contentType?.split(';', 1)[0].trim().toLowerCase() || undefined;
}

interface Located {
  value: Json;
  /** Absolute URI of the value: document URI + `#` + JSON pointer. */
  uri: string;
}

interface Route {
  template: string;
  pattern: RegExp;
  /** Literal characters in the template: more specific templates win. */
  literal: number;
  item: Located;
}

export class OpenApiChecker {
  readonly ajv: Ajv2020;
  readonly basePath: string;
  readonly #documents = new Map<string, unknown>();
  readonly #routes: Route[] = [];
  readonly #compiled = new Map<string, ValidateFunction>();
  readonly #entry: string;

  /** @param file the OpenAPI document, relative to the repository root; its relative `$ref`s are loaded too */
  constructor(file = 'schemas/openapi/tasks.yaml') {
    this.ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
    addFormats(this.ajv);
    this.#entry = new URL(file.replace(/^schemas\/openapi\//, ''), DOC_BASE).href;
    this.#load(this.#entry, join(ROOT, file));
    const root = this.#documents.get(this.#entry) as Json;
    const servers = (root.servers as Json[] | undefined) ?? [];
    this.basePath = servers.length ? new URL(String(servers[0].url), 'http://x').pathname.replace(/\/$/, '') : '';
    for (const [template, item] of Object.entries((root.paths as Json | undefined) ?? {})) {
      const source = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+');
      this.#routes.push({
        template,
        pattern: new RegExp(`^${source}$`),
        literal: template.replace(/\{[^}]+\}/g, '').length,
        item: this.#deref({ value: item as Json, uri: `${this.#entry}#/paths/${escapePointer(template)}` }),
      });
    }
    this.#routes.sort((a, b) => b.literal - a.literal);
  }

  /** Loads a document and, recursively, every document its `$ref`s name. */
  #load(uri: string, path: string): void {
    if (this.#documents.has(uri)) return;
    const document = parse(readFileSync(path, 'utf8')) as unknown;
    this.#documents.set(uri, document);
    // Registered as a whole: ajv resolves `$ref`s by URI and JSON pointer inside it.
    this.ajv.addSchema(document as Json, uri, undefined, false);
    const visit = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(visit);
      else if (typeof node === 'object' && node !== null) {
        for (const [key, value] of Object.entries(node)) {
          if (key === '$ref' && typeof value === 'string' && !value.startsWith('#')) {
            const file = value.split('#', 1)[0];
            this.#load(new URL(file, uri).href, join(path, '..', file));
          } else visit(value);
        }
      }
    };
    visit(document);
  }

  /** Follows `$ref`s of non-schema objects (responses, headers, path items). */
  #deref(located: Located): Located {
    let current = located;
    for (let hops = 0; typeof current.value.$ref === 'string'; hops++) {
      if (hops > 20) throw new Error(`$ref cycle at ${current.uri}`);
      const target = new URL(current.value.$ref as string, current.uri);
      const fragment = decodeURIComponent(target.hash.slice(1));
      target.hash = '';
      let value: unknown = this.#documents.get(target.href);
      if (value === undefined) throw new Error(`unknown document ${target.href}`);
      for (const token of fragment.split('/').slice(1)) {
        value = (value as Json)[token.replace(/~1/g, '/').replace(/~0/g, '~')];
      }
      if (typeof value !== 'object' || value === null) throw new Error(`dangling $ref ${current.value.$ref as string} at ${current.uri}`);
      current = { value: value as Json, uri: `${target.href}#${fragment}` };
    }
    return current;
  }

  #validator(uri: string): ValidateFunction {
    let validate = this.#compiled.get(uri);
    if (!validate) {
      validate = this.ajv.compile({ $ref: uri });
      this.#compiled.set(uri, validate);
    }
    return validate;
  }

  /**
   * A validator for a schema of the document set, by reference relative to the entry document
   * (`#/components/schemas/Task`, `./problem.yaml#/Problem`).
   */
  schema(ref: string): ValidateFunction {
    return this.#validator(new URL(ref, this.#entry).href);
  }

  /** Operation ids of the document, in document order. */
  operationIds(): string[] {
    const ids: string[] = [];
    for (const route of [...this.#routes].sort((a, b) => a.template.localeCompare(b.template))) {
      for (const method of METHODS) {
        const operation = route.item.value[method] as Json | undefined;
        if (operation && typeof operation.operationId === 'string') ids.push(operation.operationId);
      }
    }
    return ids;
  }

  /** The operation a request is for, if the document declares one. */
  operation(method: string, url: string): { id: string; template: string; located: Located } | undefined {
    let path = new URL(url).pathname;
    if (this.basePath && (path === this.basePath || path.startsWith(`${this.basePath}/`))) path = path.slice(this.basePath.length) || '/';
    else if (this.basePath) return undefined;
    if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
    const lower = method.toLowerCase() === 'head' ? 'get' : method.toLowerCase();
    for (const route of this.#routes) {
      if (!route.pattern.test(path)) continue;
      const operation = route.item.value[lower] as Json | undefined;
      if (!operation) return undefined;
      return {
        id: String(operation.operationId),
        template: route.template,
        located: { value: operation, uri: `${route.item.uri}/${lower}` },
      };
    }
    return undefined;
  }

  check(exchange: Exchange): CheckResult {
    const found = this.operation(exchange.method, exchange.url);
    if (!found) return { exchange, violations: [] };
    const violations: string[] = [];
    const where = `${exchange.method} ${new URL(exchange.url).pathname} → ${exchange.status}`;
    const responses = (found.located.value.responses ?? {}) as Json;
    const code = String(exchange.status);
    const key = Object.hasOwn(responses, code)
      ? code
      : Object.hasOwn(responses, `${code[0]}XX`)
        ? `${code[0]}XX`
        : Object.hasOwn(responses, 'default')
          ? 'default'
          : undefined;
    if (key === undefined) {
      return {
        exchange,
        operationId: found.id,
        violations: [`${where}: status ${code} is not declared for ${found.id} (and there is no default)`],
      };
    }
    const response = this.#deref({ value: responses[key] as Json, uri: `${found.located.uri}/responses/${escapePointer(key)}` });

    // Headers: required ones present, declared ones valid.
    for (const [name, header] of Object.entries((response.value.headers ?? {}) as Json)) {
      const declared = this.#deref({ value: header as Json, uri: `${response.uri}/headers/${escapePointer(name)}` });
      const value = exchange.headers[name.toLowerCase()];
      if (value === undefined) {
        if (declared.value.required === true) violations.push(`${where}: required header ${name} is missing`);
        continue;
      }
      if (declared.value.schema === undefined) continue;
      const schemaUri = `${declared.uri}/schema`;
      const schema = this.#derefSchema(declared.value.schema as Json, schemaUri);
      const typed = schema.type === 'integer' || schema.type === 'number' ? (/^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value) : value;
      const validate = this.#validator(schemaUri);
      if (!validate(typed)) violations.push(`${where}: header ${name}: ${JSON.stringify(value)} ${this.ajv.errorsText(validate.errors)}`);
    }

    // Body and content type.
    const content = response.value.content as Json | undefined;
    const bodyless = exchange.method.toUpperCase() === 'HEAD' || exchange.status === 204 || exchange.status === 304;
    const type = mediaType(exchange.headers['content-type']);
    if (bodyless || content === undefined || Object.keys(content).length === 0) {
      if (exchange.body !== '')
        violations.push(`${where}: a body was sent, but the response declares none (${exchange.body.slice(0, 80)})`);
      else if (!bodyless && type !== undefined && content !== undefined)
        violations.push(`${where}: content type ${type} without declared content`);
      return { exchange, operationId: found.id, responseKey: key, violations };
    }
    if (exchange.method.toUpperCase() === 'HEAD') return { exchange, operationId: found.id, responseKey: key, violations };
    const declaredType = Object.keys(content).find((candidate) => {
      const lower = candidate.toLowerCase();
      return lower === type || lower === '*/*' || (lower.endsWith('/*') && type?.startsWith(lower.slice(0, -1)));
    });
    if (type === undefined || declaredType === undefined) {
      violations.push(`${where}: content type ${type ?? '(none)'} is not declared (declared: ${Object.keys(content).join(', ')})`);
      return { exchange, operationId: found.id, responseKey: key, violations };
    }
    const media = content[declaredType] as Json;
    if (exchange.body === '') {
      violations.push(`${where}: ${declaredType} content is declared, but the body is empty`);
      return { exchange, operationId: found.id, responseKey: key, violations };
    }
    let data: unknown = exchange.body;
    if (/[/+]json$/.test(type)) {
      try {
        data = JSON.parse(exchange.body);
      } catch {
        violations.push(`${where}: the ${type} body is not JSON: ${exchange.body.slice(0, 80)}`);
        return { exchange, operationId: found.id, responseKey: key, violations };
      }
    }
    if (media.schema !== undefined) {
      const validate = this.#validator(
        `${this.#deref({ value: media, uri: `${response.uri}/content/${escapePointer(declaredType)}` }).uri}/schema`,
      );
      if (!validate(data))
        violations.push(
          `${where}: body does not match the ${declaredType} schema of ${found.id} ${key}: ${this.ajv.errorsText(validate.errors)}; body: ${exchange.body.slice(0, 300)}`,
        );
    }
    if (type === 'application/problem+json' && typeof data === 'object' && data !== null && (data as Json).status !== exchange.status) {
      violations.push(`${where}: the problem's status ${String((data as Json).status)} is not the HTTP status`);
    }
    return { exchange, operationId: found.id, responseKey: key, violations };
  }

  /** A schema object with its `$ref` followed once, to read its `type`. */
  #derefSchema(schema: Json, uri: string): Json {
    return typeof schema.$ref === 'string' ? this.#deref({ value: schema, uri }).value : schema;
  }
}

/** Header names lower-cased, as a plain object. */
export function headersOf(headers: Headers): Record<string, string> {
  const result: Record<string, string> = {};
  headers.forEach((value, name) => (result[name] = value));
  return result;
}

/**
 * A `fetch` that records every exchange in `log` (body read from a clone, so the caller still reads
 * the original): pass it to the generated client as `fetch`, or call it like `fetch`.
 */
export function recordingFetch(log: Exchange[]): (input: Request | string | URL, init?: RequestInit) => Promise<Response> {
  return async (input, init) => {
    const request = input instanceof Request && init === undefined ? input : new Request(input, init);
    const response = await fetch(request);
    const body = await response.clone().text();
    log.push({ method: request.method, url: request.url, status: response.status, headers: headersOf(response.headers), body });
    return response;
  };
}
