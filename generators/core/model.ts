/**
 * The intermediate model every loader produces and every emitter reads.
 *
 * Data shapes are JSON Schema 2020-12 objects. Loaders lower their own dialect (OpenAPI 3.0's
 * `nullable`, draft-4 booleans for `exclusiveMaximum`, protobuf messages, GraphQL types) into it, so
 * one type emitter and one validator emitter serve every input style. References between named
 * schemas are always written `{ "$ref": "#/$defs/<name>" }`, where `<name>` is a key of
 * `ApiModel.schemas`.
 */
import type { SourceLocation } from './diagnostics.js';

export type JsonSchema = boolean | SchemaObject;

/** A JSON Schema 2020-12 object, plus the OpenAPI keywords the emitters understand. */
export interface SchemaObject {
  $ref?: string;
  $defs?: Record<string, JsonSchema>;
  type?: JsonType | JsonType[];
  enum?: unknown[];
  const?: unknown;
  title?: string;
  description?: string;
  deprecated?: boolean;
  default?: unknown;
  examples?: unknown[];
  readOnly?: boolean;
  writeOnly?: boolean;
  format?: string;
  // numbers
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  multipleOf?: number;
  // strings
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  contentMediaType?: string;
  contentEncoding?: string;
  // arrays
  items?: JsonSchema;
  prefixItems?: JsonSchema[];
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  contains?: JsonSchema;
  minContains?: number;
  maxContains?: number;
  // objects
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: JsonSchema;
  patternProperties?: Record<string, JsonSchema>;
  propertyNames?: JsonSchema;
  minProperties?: number;
  maxProperties?: number;
  dependentRequired?: Record<string, string[]>;
  // composition
  allOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  not?: JsonSchema;
  if?: JsonSchema;
  then?: JsonSchema;
  else?: JsonSchema;
  /** OpenAPI discriminator, with `mapping` values already rewritten to `#/$defs/<name>`. */
  discriminator?: { propertyName: string; mapping?: Record<string, string> };
  /** Where this schema was written, for messages and for the generated header. */
  'x-location'?: SourceLocation;
}

export type JsonType = 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array' | 'null';

export interface NamedSchema {
  /** Unique, already a valid PascalCase TypeScript identifier. */
  name: string;
  schema: JsonSchema;
  /** `component` for schemas the user named; `operation` for shapes hoisted from an operation. */
  origin: 'component' | 'operation';
}

export type HttpMethod = 'get' | 'put' | 'post' | 'delete' | 'options' | 'head' | 'patch' | 'trace';

export interface Parameter {
  /** The wire name, e.g. `filter[status]` or `If-Match`. */
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  description?: string;
  deprecated?: boolean;
  schema: JsonSchema;
  /** OpenAPI serialisation; defaults already applied (`form`/explode for query, `simple` otherwise). */
  style: 'form' | 'simple' | 'label' | 'matrix' | 'spaceDelimited' | 'pipeDelimited' | 'deepObject';
  explode: boolean;
}

export interface MediaContent {
  /** e.g. `application/json`, `application/problem+json`, `multipart/form-data`. */
  mediaType: string;
  schema?: JsonSchema;
}

export interface RequestBody {
  required: boolean;
  description?: string;
  contents: MediaContent[];
}

export interface ResponseHeader {
  name: string;
  required: boolean;
  description?: string;
  schema: JsonSchema;
}

export interface Response {
  /** `200`, `404`, `4XX` or `default`. */
  status: string;
  description?: string;
  contents: MediaContent[];
  headers: ResponseHeader[];
}

/** Cursor pagination: `cursor`/`limit` in, items plus a next cursor out. */
export interface CursorPagination {
  kind: 'cursor';
  cursorParam: string;
  limitParam: string;
  /** Property of the 200 body holding the page's items. */
  itemsProperty: string;
  /** Property of the 200 body holding the next cursor (absent or null on the last page). */
  nextCursorProperty: string;
}

/** Offset pagination: `page`/`pageSize`. */
export interface PagePagination {
  kind: 'page';
  pageParam: string;
  pageSizeParam: string;
  itemsProperty?: string;
}

export type Pagination = CursorPagination | PagePagination;

export interface SecurityScheme {
  type: 'apiKey' | 'http' | 'oauth2' | 'openIdConnect' | 'mutualTLS';
  description?: string;
  /** apiKey: where and under which name. */
  in?: 'query' | 'header' | 'cookie';
  name?: string;
  /** http: `bearer`, `basic`, ... */
  scheme?: string;
  bearerFormat?: string;
}

/** Alternatives (OR) of sets of schemes (AND), each scheme with its scopes. */
export type SecurityRequirement = Record<string, string[]>;

export interface Operation {
  /** camelCase method name, unique in the API: the `operationId`, or derived from method + path. */
  name: string;
  operationId?: string;
  method: HttpMethod;
  /** Path template as written, e.g. `/tasks/{taskId}`. */
  path: string;
  summary?: string;
  description?: string;
  deprecated: boolean;
  tags: string[];
  parameters: Parameter[];
  requestBody?: RequestBody;
  /** Sorted: numeric codes ascending, then ranges (`4XX`), then `default`. */
  responses: Response[];
  /** Undefined means the API-wide default applies; `[]` means explicitly public. */
  security?: SecurityRequirement[];
  pagination?: Pagination;
  location?: import('./diagnostics.js').SourceLocation;
}

export interface ApiModel {
  title: string;
  version: string;
  description?: string;
  /** Root input file, relative to the config folder, with `/` separators: goes in file headers. */
  source: string;
  servers: { url: string; description?: string }[];
  /** Sorted by name. */
  schemas: NamedSchema[];
  /** Sorted by path, then method. */
  operations: Operation[];
  securitySchemes: Record<string, SecurityScheme>;
  security: SecurityRequirement[];
}
