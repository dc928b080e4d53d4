/**
 * The server convention stages as a user gets them: templates/runtime/{server-types,store,cors,
 * rate-limit,auth,idempotency,conditional}.ts.hbs rendered into a folder, then transpiled and
 * imported. The interfaces below are the surface the tests call (the real, stricter types are
 * checked by compiling the rendered files).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { TemplateRenderer } from '../../generators/core/pipeline/templates.js';
import { transpileFolder } from './client-generate.js';

export const STAGE_FILES = ['server-types', 'store', 'cors-policy', 'cors', 'rate-limit', 'auth', 'idempotency', 'conditional'] as const;

export interface OperationMeta {
  id: string;
  method: string;
  path: string;
  security: string[][];
  idempotencyKey?: true;
  cacheControl?: string;
  ifMatch?: 'optional' | 'required';
  /** The methods of the path, which the core is asked to provide for CORS preflights. */
  allow?: string[];
}

export interface ServerRequest {
  method: string;
  url: URL;
  headers: Record<string, string | string[] | undefined>;
  body?: Uint8Array;
  operation: OperationMeta;
  traceId: string;
  clientKey: string;
  principal?: unknown;
}

export interface ServerResponse {
  status: number;
  headers: Record<string, string | string[]>;
  body?: Uint8Array;
}

export type Next = () => Promise<ServerResponse>;
export type Stage = (request: ServerRequest, next: Next) => Promise<ServerResponse>;

export interface Store {
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string, ttlMs: number): Promise<void>;
  setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean>;
  delete(key: string): Promise<void>;
  increment(key: string, ttlMs: number): Promise<{ count: number; ttlMs: number }>;
}

export interface MemoryStoreLike extends Store {
  readonly size: number;
  sweep(): number;
  close(): void;
}

export interface HttpProblemLike extends Error {
  status: number;
  headers: Record<string, string>;
  extensions: Record<string, unknown>;
}

export type Credentials =
  | { scheme: string; type: 'bearer'; token: string }
  | { scheme: string; type: 'basic'; username: string; password: string }
  | { scheme: string; type: 'apiKey'; apiKey: string };

export interface StagesRuntime {
  HttpProblem: new (
    status: number,
    title: string,
    init?: { detail?: string; type?: string; headers?: Record<string, string>; extensions?: Record<string, unknown> },
  ) => HttpProblemLike;
  MemoryStore: new (options?: { maxEntries?: number; sweepIntervalMs?: number; now?: () => number }) => MemoryStoreLike;
  cors(options: {
    origins: string[] | ((origin: string) => boolean);
    credentials?: boolean;
    allowHeaders?: string[];
    exposeHeaders?: string[];
    maxAge?: number;
    allowMethods?: (request: ServerRequest) => string[];
  }): Stage;
  DEFAULT_EXPOSE_HEADERS: readonly string[];
  rateLimit(options: { store: Store; limit: number; windowMs: number; key?: (request: ServerRequest) => string; prefix?: string }): Stage;
  authenticate<P>(options: {
    schemes: Record<string, Record<string, unknown> & { type: string }>;
    verify: (credentials: Credentials, request: ServerRequest) => Promise<P | undefined>;
    authorize?: (principal: P, request: ServerRequest) => boolean | Promise<boolean>;
    realm?: string;
  }): Stage;
  idempotency(options: {
    store: Store;
    ttlMs?: number;
    lockTtlMs?: number;
    maxKeyLength?: number;
    scope?: (request: ServerRequest) => string;
    prefix?: string;
  }): Stage;
  conditional(options?: {
    etag?: 'strong' | 'weak' | false;
    defaultCacheControl?: string;
    currentEtag?: (request: ServerRequest) => Promise<string | undefined>;
  }): Stage;
  computeEtag(body: Uint8Array | string, kind?: 'strong' | 'weak'): string;
  assertIfMatch(request: ServerRequest, currentEtag: string | undefined): void;
}

/** Renders the stage templates into `folder/runtime/` (as `out/<api>/runtime/`); returns the sources by file. */
export function renderStages(folder: string): Record<string, string> {
  const templates = new TemplateRenderer();
  const runtime = join(folder, 'runtime');
  mkdirSync(runtime, { recursive: true });
  const sources: Record<string, string> = {};
  for (const name of STAGE_FILES) {
    sources[name] = templates.render(`runtime/${name}.ts.hbs`, { source: 'test' });
    writeFileSync(join(runtime, `${name}.ts`), sources[name]);
  }
  return sources;
}

/** Transpiles the rendered folder and imports every stage module, merged into one object. */
export async function importStages(folder: string): Promise<StagesRuntime> {
  transpileFolder(folder);
  const modules = await Promise.all(STAGE_FILES.map((name) => import(pathToFileURL(join(folder, 'runtime', `${name}.js`)).href) as Promise<object>));
  return Object.assign({}, ...modules) as StagesRuntime;
}
