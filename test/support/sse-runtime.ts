/**
 * The SSE runtime as a user gets it: templates/runtime/sse-{format,store,http,server,client}.ts.hbs
 * rendered into `<folder>/runtime/`, transpiled and imported. The interfaces below are the surface
 * the tests call; the real, stricter types are checked by compiling the rendered files (and a
 * usage file) under both compilers.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { TemplateRenderer } from '../../generators/core/pipeline/templates.js';
import { transpileFolder } from './client-generate.js';

export const SSE_SERVER_FILES = ['cors-policy', 'client-limits', 'sse-format', 'sse-store', 'sse-http', 'sse-server'] as const;
export const SSE_CLIENT_FILES = ['client-common', 'sse-client'] as const;
export const SSE_FILES = [...SSE_SERVER_FILES, ...SSE_CLIENT_FILES] as const;

export interface LoggedEvent {
  id: string;
  event: string;
  data: string;
}

export interface EventLog {
  append(channel: string, event: { event: string; data: string }): Promise<string>;
  since(channel: string, lastEventId: string): Promise<LoggedEvent[]>;
  subscribe(channel: string, listener: (event: LoggedEvent) => void): Promise<() => void>;
}

export interface MemoryEventLogLike extends EventLog {
  readonly size: number;
}

export type TestValidator = (value: unknown) => { ok: true; value: unknown } | { ok: false; errors: readonly { path: string; message: string }[] };

export interface SseRequestLike {
  request: IncomingMessage;
  url: URL;
  principal: unknown;
}

export interface StreamWriterLike {
  send(event: string, data: unknown, options?: { id?: string }): boolean;
  readonly closed: boolean;
}

export interface EndpointOptions {
  eventLog?: EventLog;
  channel?: (request: SseRequestLike) => string;
  validators?: Record<string, TestValidator>;
  textEvents?: string[];
  authenticate?: (request: IncomingMessage, token: string | undefined) => unknown;
  authorize?: (principal: unknown, request: SseRequestLike) => boolean | Promise<boolean>;
  cors?: { origins: string[] | ((origin: string) => boolean); credentials?: boolean; maxAge?: number };
  retryMs?: number | false;
  keepAliveMs?: number | false;
  maxStreams?: number;
  maxBufferedBytes?: number;
  post?: (context: SseRequestLike & { body: unknown; stream: StreamWriterLike; signal: AbortSignal }) => void | Promise<void>;
  validateBody?: TestValidator;
  maxBodyBytes?: number;
  done?: boolean;
  logger?: (message: string, fields: Record<string, unknown>) => void;
}

export interface EndpointLike {
  handle(request: IncomingMessage, response: ServerResponse): void;
  publish(channel: string, event: string, data: unknown): Promise<string>;
  readonly streamCount: number;
  close(): Promise<void>;
}

export type ReadyState = 0 | 1 | 2;

export interface ClientEvent {
  event: string;
  data: unknown;
  id: string;
}

export interface ClientOptions {
  method?: 'GET' | 'POST';
  body?: unknown;
  headers?: Record<string, string> | (() => Record<string, string> | Promise<Record<string, string>>);
  validators?: Record<string, TestValidator>;
  textEvents?: string[];
  onInvalid?: (error: InvalidEventErrorLike) => void;
  reconnect?: boolean | { baseDelay?: number; maxDelay?: number; maxRetries?: number };
  token?: string | (() => string | undefined | Promise<string | undefined>);
  clientHeaders?: Record<string, string> | (() => Record<string, string> | Promise<Record<string, string>>);
  clientSignal?: AbortSignal;
  timeout?: number;
  operation?: string;
  lastEventId?: string;
  done?: boolean;
  maxEventSize?: number;
  signal?: AbortSignal;
  onStateChange?: (state: ReadyState) => void;
  onReconnect?: (info: { attempt: number; delayMs: number; lastEventId: string; error: unknown }) => void;
  fetch?: (request: Request) => Promise<Response>;
}

export interface ClientLike extends AsyncIterable<ClientEvent> {
  readonly readyState: ReadyState;
  lastEventId: string;
  retryMs: number;
  close(): void;
}

export interface ResponseErrorLike extends Error {
  kind: string;
  operation: string;
  status: number;
  contentType: string | null;
  body: string;
}

export interface InvalidEventErrorLike extends Error {
  event: string;
  data: string;
  id: string;
  errors: readonly { path: string; message: string }[];
}

export interface SseRuntime {
  formatEvent(event: { id?: string; event?: string; data: string }): string;
  formatRetry(milliseconds: number): string;
  formatComment(text: string): string;
  DONE_MARKER: string;
  MemoryEventLog: new (options?: { maxEvents?: number; maxAgeMs?: number; maxChannels?: number; now?: () => number }) => MemoryEventLogLike;
  createSseEndpoint(options?: EndpointOptions): EndpointLike;
  SseHttpError: new (status: number, title: string, init?: { detail?: string; headers?: Record<string, string> }) => Error;
  SseClient: new (url: string | URL, options?: ClientOptions) => ClientLike;
  SseResponseError: new (...args: never[]) => ResponseErrorLike;
  SseConnectionError: new (...args: never[]) => Error;
  SseInvalidEventError: new (...args: never[]) => InvalidEventErrorLike;
  CONNECTING: 0;
  OPEN: 1;
  CLOSED: 2;
}

/** Renders the SSE runtime into `folder/runtime/`; returns the sources by file name. */
export function renderSse(folder: string): Record<string, string> {
  const templates = new TemplateRenderer();
  const runtime = join(folder, 'runtime');
  mkdirSync(runtime, { recursive: true });
  const sources: Record<string, string> = {};
  for (const name of SSE_FILES) {
    sources[name] = templates.render(`runtime/${name}.ts.hbs`, { source: 'test' });
    writeFileSync(join(runtime, `${name}.ts`), sources[name]);
  }
  return sources;
}

/** Transpiles the rendered folder and imports every SSE module, merged into one object. */
export async function importSse(folder: string): Promise<SseRuntime> {
  transpileFolder(folder);
  const modules = await Promise.all(SSE_FILES.map((name) => import(pathToFileURL(join(folder, 'runtime', `${name}.js`)).href) as Promise<object>));
  return Object.assign({}, ...modules) as SseRuntime;
}
