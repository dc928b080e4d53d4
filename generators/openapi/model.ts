/**
 * The OpenAPI loader's model of one API (Swagger 2.0 and OpenAPI 3.x both lower into it): its
 * operations with parameters, bodies, responses, security and pagination, and its named schemas in
 * the shared JSON Schema model (core/schema/json-schema.ts). The REST emitters and the lint read it.
 */
import type { SourceLocation } from '../core/diagnostics.js';
import type { JsonSchema, NamedSchema } from '../core/schema/json-schema.js';

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
  /** The media type's `example`, then each of its `examples`' `value` (what mocks answer with first). */
  examples?: unknown[];
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
  location?: SourceLocation;
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
