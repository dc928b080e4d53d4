/**
 * Operation-level types of a REST API, appended to `types.ts` after the component types: for each
 * operation, the params object its client method takes (`GetTaskParams`), its successful responses
 * (`GetTaskResponse`) and its error responses (`GetTaskError`), each typed per status.
 *
 * `describeOperations` decides every name and type once per generation (openapi/index.ts);
 * types.ts, the client, the server and the handler file read that one description, so they agree.
 */
import type { ApiModel, MediaContent, Operation, Parameter, Response } from './model.js';
import type { JsonSchema } from '../core/schema/json-schema.js';
import { camelCase, jsDoc, pascalCase, propertyKey, stringLiteral, uniqueName } from '../core/builder/names.js';
import { docParts } from '../core/emit/types/doc.js';
import type { TypeEmitter } from '../core/emit/types/emit.js';
import type { TypesContext } from './template-context.js';
import { refName } from '../core/schema/json-schema.js';

/** One response of an operation, as a member of its response or error union. */
export interface ResponseCase {
  /** Type of `status`: `200`, or e.g. `Exclude<HttpStatus<3 | 4 | 5>, 404>` for `default`. */
  status: string;
  /** Numeric status, when the response has one. */
  code?: number;
  /** The chosen media type of the body, if it has one. */
  content?: MediaContent;
  /** TypeScript type of `data`. */
  type: string;
}

export interface ParameterInfo {
  parameter: Parameter;
  /** Property of the params object. */
  key: string;
  /** TypeScript type of the property. */
  type: string;
}

export interface OperationInfo {
  operation: Operation;
  /** Client method name (the operation's name unless that is reserved on a class). */
  method: string;
  paramsType: string;
  responseType: string;
  errorType: string;
  /** Parameters, path first, then query, header and cookie. */
  parameters: ParameterInfo[];
  /** The request body: always the `body` property of the params object. */
  body?: { content: MediaContent; required: boolean; type: string };
  /** Whether the method takes a params object, and whether the caller must pass it. */
  hasParams: boolean;
  paramsRequired: boolean;
  success: ResponseCase[];
  errors: ResponseCase[];
  /** Type the call resolves to: the union of the 2xx bodies (`void` when none has a body). */
  resultType: string;
  /** Whether the operation declares an `Idempotency-Key` header. */
  idempotencyKey: boolean;
  /** Async iteration over every item of a paginated operation. */
  iterator?: { method: string; itemType: string; spec: IteratorSpec };
}

export type IteratorSpec =
  | { kind: 'cursor'; cursor: string; items: string; nextCursor: string }
  | { kind: 'page'; page: string; pageSize: string; items: string };

const LOCATION_ORDER: Parameter['in'][] = ['path', 'query', 'header', 'cookie'];

/** Class members and names a client object must not shadow (`then` would make it a thenable). */
const RESERVED_METHODS = new Set(['constructor', 'then']);

/** `application/json`, `application/problem+json`, `application/merge-patch+json`, ... */
export function isJsonMediaType(mediaType: string): boolean {
  return /^[^;]*[/+]json\s*(;|$)/i.test(mediaType.trim());
}

/** Prefers a JSON body, then the first one listed. */
export function preferredContent(contents: MediaContent[]): MediaContent | undefined {
  return contents.find((content) => isJsonMediaType(content.mediaType)) ?? contents[0];
}

function isSuccess(status: string): boolean {
  return /^2(\d\d|XX)$/i.test(status);
}

export interface OperationsInfo {
  operations: OperationInfo[];
  /** Name of the `HttpStatus` helper type in types.ts, typing `default` and `4XX` statuses. */
  statusType: string;
  /** Whether any operation has such a response. */
  usesStatusType: boolean;
}

/** Names and types of every operation, in model order. Deterministic. */
export function describeOperations(model: ApiModel, types: TypeEmitter): OperationsInfo {
  const schemas = new Map(model.schemas.map((schema) => [schema.name, schema.schema]));
  const typeNames = new Set(model.schemas.flatMap(({ name }) => [types.typeName(name, 'read'), types.typeName(name, 'write')]));
  const statusType = uniqueName('HttpStatus', typeNames);
  let usesStatusType = false;
  const methods = new Set<string>();
  const infos: OperationInfo[] = model.operations.map((operation) => {
    const method = uniqueName(RESERVED_METHODS.has(operation.name) ? `${operation.name}_` : operation.name, methods);
    const base = pascalCase(method);

    const keys = new Set<string>(operation.requestBody ? ['body'] : []);
    const parameters = [...operation.parameters]
      .sort((a, b) => LOCATION_ORDER.indexOf(a.in) - LOCATION_ORDER.indexOf(b.in))
      .map((parameter) => ({
        parameter,
        key: uniqueName(camelCase(parameter.name), keys),
        type: types.typeOf(parameter.schema, 'write', '  '),
      }));

    const bodyContent = operation.requestBody && preferredContent(operation.requestBody.contents);
    const body =
      operation.requestBody && bodyContent
        ? { content: bodyContent, required: operation.requestBody.required, type: requestBodyType(bodyContent, types) }
        : undefined;

    const statuses = responseStatuses(operation.responses, statusType);
    if (statuses.size) usesStatusType ||= [...statuses.values()].some((type) => type.includes(statusType));
    const cases = operation.responses.map((response) => responseCase(response, statuses.get(response) ?? 'number', types));
    let success = cases.filter((_item, index) => isSuccess(operation.responses[index].status));
    let errors = cases.filter((_item, index) => !isSuccess(operation.responses[index].status));
    const fallback = operation.responses.find((response) => response.status === 'default');
    if (success.length === 0) {
      // No 2xx declared: `default` (or nothing) describes what a successful call returns.
      const type = fallback ? responseBodyType(preferredContent(fallback.contents), types) : 'unknown';
      success = [{ status: 'number', type }];
    }
    if (errors.length === 0) errors = [{ status: 'number', type: 'unknown' }];

    const results = unique(success.map((item) => item.type));
    const resultType = results.every((type) => type === 'undefined') ? 'void' : results.join(' | ');
    const paramsRequired = parameters.some(({ parameter }) => parameter.required) || Boolean(body?.required);

    return {
      operation,
      method,
      paramsType: uniqueName(`${base}Params`, typeNames),
      responseType: uniqueName(`${base}Response`, typeNames),
      errorType: uniqueName(`${base}Error`, typeNames),
      parameters,
      body,
      hasParams: parameters.length > 0 || body !== undefined,
      paramsRequired,
      success,
      errors,
      resultType,
      idempotencyKey: operation.parameters.some(
        (parameter) => parameter.in === 'header' && parameter.name.toLowerCase() === 'idempotency-key',
      ),
    };
  });

  // Iterator methods are named after every operation has its name, so operations keep theirs.
  for (const info of infos) {
    const iterator = iteratorOf(info, types, (schema) => resolveSchema(schema, schemas));
    if (iterator) info.iterator = { ...iterator, method: uniqueName(`${info.method}All`, methods) };
  }
  return { operations: infos, statusType, usesStatusType };
}

/**
 * The type of `status` for each error response (and 2XX range) of an operation: a literal for a
 * code; for a range or `default`, the statuses it stands for minus those declared on their own, so
 * that `error.status === 404` narrows to the 404 response alone.
 */
function responseStatuses(responses: Response[], statusType: string): Map<Response, string> {
  const codes = responses.map((response) => response.status).filter((status) => /^\d{3}$/.test(status));
  const ranges = responses.map((response) => response.status.toUpperCase()).filter((status) => /^[1-5]XX$/.test(status));
  const result = new Map<Response, string>();
  const minus = (base: string, excluded: string[]): string => (excluded.length ? `Exclude<${base}, ${excluded.join(' | ')}>` : base);
  for (const response of responses) {
    const status = response.status.toUpperCase();
    if (/^\d{3}$/.test(status)) result.set(response, status);
    else if (/^[1-5]XX$/.test(status)) {
      result.set(
        response,
        minus(
          `${statusType}<${status[0]}>`,
          codes.filter((code) => code[0] === status[0]),
        ),
      );
    } else if (status === 'DEFAULT') {
      // Only 3xx, 4xx and 5xx answers become errors (1xx never reach fetch; 2xx are successes).
      const excluded = [
        ...codes.filter((code) => /^[345]/.test(code)),
        ...ranges.filter((range) => /^[345]/.test(range)).map((range) => `${statusType}<${range[0]}>`),
      ];
      result.set(response, minus(`${statusType}<3 | 4 | 5>`, excluded));
    }
  }
  return result;
}

function unique<T>(items: T[]): T[] {
  return [...new Set(items)];
}

/** Follows `$ref`s to named schemas (a few levels; cycles stop). */
function resolveSchema(schema: JsonSchema | undefined, schemas: Map<string, JsonSchema>): JsonSchema | undefined {
  for (let depth = 0; depth < 10 && typeof schema === 'object' && schema.$ref; depth++) {
    const name = refName(schema.$ref);
    schema = name === undefined ? undefined : schemas.get(name);
  }
  return schema;
}

function responseCase(response: Response, status: string, types: TypeEmitter): ResponseCase {
  const content = preferredContent(response.contents);
  const code = /^\d{3}$/.test(response.status) ? Number(response.status) : undefined;
  return { status, code, content, type: responseBodyType(content, types) };
}

function responseBodyType(content: MediaContent | undefined, types: TypeEmitter): string {
  if (!content) return 'undefined';
  if (isJsonMediaType(content.mediaType)) return content.schema === undefined ? 'unknown' : types.typeOf(content.schema, 'read');
  if (/^text\//i.test(content.mediaType)) return 'string';
  return 'Blob';
}

/**
 * JSON, form and multipart bodies are typed by their schema (binary strings are `Blob`s, so a
 * multipart file part takes a `Blob` or `File`); text is a string; anything else is raw bytes.
 */
function requestBodyType(content: MediaContent, types: TypeEmitter): string {
  const type = content.mediaType.toLowerCase();
  if (isJsonMediaType(type) || type.startsWith('application/x-www-form-urlencoded') || type.startsWith('multipart/')) {
    return content.schema === undefined ? 'unknown' : types.typeOf(content.schema, 'write', '  ');
  }
  if (type.startsWith('text/')) return 'string';
  return 'Blob | ArrayBuffer | Uint8Array | string';
}

/** A property of an object schema, looking into `allOf` members too. */
function propertyOf(
  schema: JsonSchema | undefined,
  name: string,
  resolve: (schema: JsonSchema | undefined) => JsonSchema | undefined,
): JsonSchema | undefined {
  const object = resolve(schema);
  if (typeof object !== 'object') return undefined;
  if (object.properties && Object.hasOwn(object.properties, name)) return object.properties[name];
  for (const member of object.allOf ?? []) {
    const found = propertyOf(member, name, resolve);
    if (found !== undefined) return found;
  }
  return undefined;
}

function iteratorOf(
  info: OperationInfo,
  types: TypeEmitter,
  resolve: (schema: JsonSchema | undefined) => JsonSchema | undefined,
): { itemType: string; spec: IteratorSpec } | undefined {
  const pagination = info.operation.pagination;
  if (!pagination?.itemsProperty) return undefined;
  const keyOf = (wireName: string): string | undefined =>
    info.parameters.find(({ parameter }) => parameter.in === 'query' && parameter.name === wireName)?.key;
  const page = info.success.find((item) => item.content?.schema !== undefined && isJsonMediaType(item.content.mediaType));
  if (!page?.content?.schema) return undefined;

  let spec: IteratorSpec;
  if (pagination.kind === 'cursor') {
    const cursor = keyOf(pagination.cursorParam);
    if (!cursor) return undefined;
    spec = { kind: 'cursor', cursor, items: pagination.itemsProperty, nextCursor: pagination.nextCursorProperty };
  } else {
    const pageKey = keyOf(pagination.pageParam);
    const pageSize = keyOf(pagination.pageSizeParam);
    if (!pageKey || !pageSize) return undefined;
    spec = { kind: 'page', page: pageKey, pageSize, items: pagination.itemsProperty };
  }

  const items = resolve(propertyOf(page.content.schema, pagination.itemsProperty, resolve));
  const item = typeof items === 'object' && items.items !== undefined ? items.items : undefined;
  const itemType =
    item !== undefined ? types.typeOf(item, 'read') : `NonNullable<${page.type}[${stringLiteral(pagination.itemsProperty)}]>[number]`;
  return { itemType, spec };
}

// ---------------------------------------------------------------------------------------------
// types.ts section

/** The operation types, as TypeScript to append to `types.ts` (which declares the component types). */
export function emitOperationTypes({
  operations,
  statusType,
  usesStatusType,
}: OperationsInfo): Pick<TypesContext, 'statusType' | 'operations'> {
  return {
    // Declared by the template, under the name describeOperations chose.
    statusType: usesStatusType ? statusType : undefined,
    operations: operations.map((info) =>
      [paramsDeclaration(info), responseDeclaration(info), errorDeclaration(info)].filter(Boolean).join('\n'),
    ),
  };
}

/** `HttpStatus` is 100 | 101 | ... | 599; `HttpStatus<4>` is 400 | ... | 499. */

function endpoint(operation: Operation): string {
  return `\`${operation.method.toUpperCase()} ${operation.path}\``;
}

function paramsDeclaration(info: OperationInfo): string {
  if (!info.hasParams) return '';
  const members = info.parameters.map(({ parameter, key, type }) => {
    // The schema's facts (`@format uuid`, `@default 20`, ...); its description only when the parameter has none.
    const facts = docParts(parameter.schema).filter((part) => !parameter.description || part.startsWith('@'));
    const deprecated = parameter.deprecated && !facts.includes('@deprecated') ? '@deprecated' : undefined;
    const doc = jsDoc([parameter.description, wireNote(parameter, key), deprecated, ...facts], '  ');
    return `${doc}  ${propertyKey(key)}${parameter.required ? '' : '?'}: ${type};\n`;
  });
  if (info.body) {
    const { content, required, type } = info.body;
    const mediaNote = content.mediaType === 'application/json' ? undefined : `Sent as \`${content.mediaType}\`.`;
    const doc = jsDoc([info.operation.requestBody?.description ?? 'The request body.', mediaNote], '  ');
    members.push(`${doc}  body${required ? '' : '?'}: ${type};\n`);
  }
  const doc = jsDoc([`Parameters of \`${info.method}\` (${endpoint(info.operation)}).`]);
  return `${doc}export interface ${info.paramsType} {\n${members.join('')}}\n`;
}

/** Where a parameter goes on the wire, when its property name does not say it. */
function wireNote(parameter: Parameter, key: string): string | undefined {
  const name = `\`${parameter.name}\``;
  switch (parameter.in) {
    case 'header':
      return `Sent as the ${name} header.`;
    case 'cookie':
      return `Sent as the ${name} cookie.`;
    case 'query':
      return key === parameter.name ? undefined : `Sent as query parameter ${name}.`;
    case 'path':
      return key === parameter.name ? undefined : `Path parameter ${name}.`;
  }
}

function union(cases: ResponseCase[]): string {
  const members = cases.map((item) => `{ status: ${item.status}; headers: Headers; data: ${item.type} }`);
  return members.length === 1 ? ` ${members[0]}` : `\n${members.map((member) => `  | ${member}`).join('\n')}`;
}

function responseDeclaration(info: OperationInfo): string {
  const doc = jsDoc([`Successful responses of \`${info.method}\` (${endpoint(info.operation)}), by status.`]);
  return `${doc}export type ${info.responseType} =${union(info.success)};\n`;
}

function errorDeclaration(info: OperationInfo): string {
  const doc = jsDoc([`Error responses of \`${info.method}\`, by status: what its \`ApiError\` carries.`]);
  return `${doc}export type ${info.errorType} =${union(info.errors)};\n`;
}
