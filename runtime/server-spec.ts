/**
 * What a generated REST server's `server.ts` declares and hands to the core (`server.ts` of the
 * runtime): its operations (parameters, bodies, responses, pagination), the route tree, and the
 * types its handlers see. A module of its own so that the core's parts (`server-input.ts`,
 * `server-output.ts`) read these descriptions without importing the core that imports them.
 */
import type { IncomingMessage } from "node:http";
import type { SchemeSpec } from "./auth.js";
import type { OperationMeta } from "./server-types.js";
import type { ValidationResult } from "./validation.js";

/** @public */
export type MaybePromise<T> = T | Promise<T>;

/**
 * A response header value; numbers are written in decimal.
 * @public
 */
export type HeaderValue = string | number | readonly string[];

/**
 * Extra response headers a handler may set beside the declared ones.
 * @public
 */
export interface ResponseHeaders {
  [name: string]: HeaderValue | undefined;
}

/** What every handler returns: a status, and the body and headers declared for it. */
export interface HandlerResult {
  status: number;
  body?: unknown;
  headers?: ResponseHeaders;
}

/**
 * One `sort` key: `-createdAt` is `{ field: "createdAt", direction: "desc" }`.
 * @public
 */
export interface SortField<Field extends string = string> {
  field: Field;
  direction: "asc" | "desc";
}

/**
 * The request a host hands over, as handlers and the `traceId`, `clientKey` and `onError` hooks
 * see it: node's `IncomingMessage` under node:http, Express, Koa and Fastify; the Fetch `Request`
 * under `toFetchHandler` (Hono, Bun, Deno, Workers).
 * @public
 */
export type NativeRequest = IncomingMessage | Request;

/**
 * What a handler knows of its request beside its parameters and body.
 * @public
 */
export interface RequestContext<Principal = unknown> {
  /** Also the `Trace-Id` response header and the `traceId` of every problem. */
  readonly traceId: string;
  /** Who `auth.verify` said the credentials belong to; undefined on public operations. */
  readonly principal: Principal | undefined;
  readonly operation: OperationMeta;
  /** The base path the request came under (`/v1`), or "". */
  readonly basePath: string;
  /**
   * The raw request, for what the generated parameters do not cover: node's `IncomingMessage`
   * (node:http, Express, Koa, Fastify) or the Fetch `Request` (`toFetchHandler`: Hono, Bun, Deno, Workers).
   */
  readonly request: NativeRequest;
  /** Aborted when the client goes away before the answer is written. */
  readonly signal: AbortSignal;
  /**
   * Compares the request's `If-Match` with the ETag of the resource as loaded now: 412 when it does
   * not match, 428 when the operation requires `If-Match` and none was sent.
   */
  assertIfMatch(currentEtag: string | undefined): void;
}

export type Validator = (value: unknown) => ValidationResult<unknown>;

/** How a parameter's text is read before its schema validates it. */
export type ParameterType = "string" | "integer" | "number" | "boolean" | "unknown";

export interface ParameterSpec {
  /** Name on the wire, e.g. `filter[status]` or `If-Match`. */
  readonly name: string;
  readonly in: "path" | "query" | "header" | "cookie";
  /** Property of the handler's request object. */
  readonly key: string;
  /** The request property that collects this one (`filter` for `filter[status]`). */
  readonly group?: string;
  readonly type: ParameterType | "array" | "object";
  /** Type of the items of an array. */
  readonly items?: ParameterType;
  /** Types of the properties of an object. */
  readonly properties?: Readonly<Record<string, ParameterType>>;
  /** Default `form` in the query and cookies, `simple` in the path and headers. */
  readonly style?: "form" | "simple" | "label" | "matrix" | "spaceDelimited" | "pipeDelimited" | "deepObject";
  /** Default true for `form`, false otherwise. */
  readonly explode?: boolean;
  /** The schema's `default`, given to the handler when the parameter is absent. */
  readonly default?: unknown;
}

/** How a form or multipart field is read: `binary` fields are files. */
export interface FieldSpec {
  readonly type: ParameterType | "binary" | "array";
  readonly items?: ParameterType | "binary";
}

export interface BodySpec {
  readonly required: boolean;
  /** Media types the operation takes, lower case (`application/json`, `multipart/form-data`). */
  readonly mediaTypes: readonly string[];
  readonly validate?: Validator;
  /** The validator of a text body (`text/*`), from its string schema. */
  readonly validateText?: Validator;
  /** A binary body's size in bytes, from its schema's `minLength`/`maxLength`. */
  readonly bytes?: { readonly minLength?: number; readonly maxLength?: number };
  /** Form and multipart fields by name. */
  readonly fields?: Readonly<Record<string, FieldSpec>>;
}

export interface ResponseSpec {
  readonly contentType?: string;
  /** The body's validator, run when `validateResponses` is on (never in production). */
  readonly validate?: Validator;
}

export type PaginationSpec =
  | { readonly kind: "cursor"; readonly cursor: string; readonly items?: string; readonly next: string; readonly prev?: string }
  | {
      readonly kind: "page";
      readonly page: { readonly name: string; readonly key: string };
      readonly pageSize: { readonly name: string; readonly key: string };
      readonly items?: string;
      readonly total?: string;
    };

/** Everything the core knows of an operation (`allow` is computed from its route). */
export interface OperationSpec extends Omit<OperationMeta, "allow"> {
  readonly parameters?: readonly ParameterSpec[];
  /** Validators of the parameter values by location, keyed by wire name. */
  readonly validate?: { readonly path?: Validator; readonly query?: Validator; readonly header?: Validator; readonly cookie?: Validator };
  readonly body?: BodySpec;
  /** By status: `200`, `4XX`, `default`. */
  readonly responses: Readonly<Record<string, ResponseSpec>>;
  /** A 201 without `Location` gets `<request path>/<body[property]>`. */
  readonly location?: { readonly property: string };
  readonly pagination?: PaginationSpec;
  /** Page-size parameter with no declared maximum: clamped to `maxPageSize`. */
  readonly pageSize?: { readonly key: string };
  /** `sort` parsed into `SortField`s; `fields` lists the sortable names when the schema says. */
  readonly sort?: { readonly key: string; readonly fields?: readonly string[] };
  /** Sparse fieldset: the request property listing the fields, and the body's item list. */
  readonly fields?: { readonly key: string; readonly items?: string };
}

/**
 * The routes, one node per path segment: literal segments in `children`, `{name}.{ext}`-style
 * segments in `patterns`, a whole-segment parameter in `param`. A node with `methods` ends a path.
 */
export interface RouteNode {
  /** The path template ending here. */
  readonly path?: string;
  /** Path parameter names of the template, in order. */
  readonly names?: readonly string[];
  readonly methods?: Readonly<Record<string, OperationSpec>>;
  readonly children?: Readonly<Record<string, RouteNode>>;
  readonly patterns?: readonly { readonly match: RegExp; readonly node: RouteNode }[];
  readonly param?: RouteNode;
}

export interface ApiSpec {
  readonly routes: RouteNode;
  /** Path prefixes of the API's servers (`/v1`); "" for the root. */
  readonly basePaths: readonly string[];
  readonly securitySchemes: Readonly<Record<string, SchemeSpec>>;
}
