/**
 * The WebSocket runtime as a user gets it: templates/runtime/ws-*.ts.hbs (and validation.ts.hbs)
 * rendered into a folder beside a hand-written chat channel (what the AsyncAPI generator will emit:
 * message unions, a validator, a reply map), then transpiled for `import()`. The interfaces here
 * are the surface the tests call; the real, stricter types are checked by compiling the folder
 * (with ws-usage.ts) under both compilers.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, Server } from 'node:http';
import { join } from 'node:path';
import type { Duplex } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { TemplateRenderer } from '../../generators/core/pipeline/templates.js';
import { ROOT } from './cli.js';
import { transpileFolder } from './client-generate.js';
import { CHAT_SOURCE } from './ws-chat.js';

export const WS_SERVER_FILES = ['validation', 'cors-policy', 'client-limits', 'ws-protocol', 'ws-fanout', 'ws-handshake', 'ws-connection', 'ws-server'] as const;
export const WS_CLIENT_FILES = ['client-common', 'validation', 'ws-protocol', 'ws-client'] as const;

/** Renders the runtime into `<folder>/runtime/` and the chat channel into `<folder>/chat.ts`. */
export function writeWsRuntime(folder: string, extra: Record<string, string> = {}): void {
  const renderer = new TemplateRenderer();
  mkdirSync(join(folder, 'runtime'), { recursive: true });
  for (const name of new Set([...WS_SERVER_FILES, ...WS_CLIENT_FILES])) {
    writeFileSync(join(folder, 'runtime', `${name}.ts`), renderer.render(`runtime/${name}.ts.hbs`, { source: 'test/asyncapi/chat.yaml' }));
  }
  writeFileSync(join(folder, 'chat.ts'), CHAT_SOURCE);
  for (const [name, source] of Object.entries(extra)) writeFileSync(join(folder, name), source);
}

/** A fresh folder under .vitest-tmp (inside the repo, so `ws` resolves from node_modules). */
export function wsTempFolder(prefix: string): string {
  mkdirSync(join(ROOT, '.vitest-tmp'), { recursive: true });
  return mkdtempSync(join(ROOT, '.vitest-tmp', prefix));
}

// ---- the surface the tests call ----

export type Message = { type: string; [key: string]: unknown };

export interface Connection {
  readonly request: IncomingMessage;
  readonly channel: string;
  readonly params: Readonly<Record<string, string>>;
  readonly protocol: string;
  readonly context: unknown;
  send(message: Message): boolean;
  subscribe(topic: string): Promise<void>;
  unsubscribe(topic: string): Promise<void>;
  close(code?: number, reason?: string): void;
}

export interface ValidationErrorLike {
  path: string;
  keyword: string;
  message: string;
}

export interface MessageProblem {
  reason: string;
  message: string;
  errors: readonly ValidationErrorLike[];
  id: string | number | undefined;
}

export interface FanOut {
  publish(topic: string, message: string): Promise<void>;
  subscribe(topic: string, listener: (message: string) => void): Promise<() => Promise<void>>;
}

export interface EndpointOptions {
  path: string;
  validate: (value: unknown) => { ok: true; value: Message } | { ok: false; errors: ValidationErrorLike[] };
  handlers: Record<string, (message: Message, connection: Connection) => unknown>;
  cors?: { origins: readonly string[] | ((origin: string) => boolean) };
  protocols?: readonly string[];
  authenticate?: (request: IncomingMessage) => unknown;
  firstMessageAuth?: { verify(token: string, request: IncomingMessage): unknown; timeoutMs?: number };
  maxPayload?: number;
  perMessageDeflate?: boolean | { threshold?: number };
  heartbeatMs?: number;
  maxConnections?: number;
  rateLimit?: { messages: number; intervalMs: number; onExceeded?: 'close' | 'drop' } | false;
  errorReply?: (problem: MessageProblem) => Message;
  appPing?: { ping: string; pong: string } | false;
  fanOut?: FanOut;
  closeTimeoutMs?: number;
  onOpen?: (connection: Connection) => void;
  onClose?: (connection: Connection, code: number, reason: string) => void;
  onError?: (error: unknown, connection: Connection | undefined) => void;
}

export interface Endpoint {
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): boolean;
  publish(topic: string, message: Message): Promise<void>;
  readonly size: number;
  close(): Promise<void>;
}

export interface ServerModule {
  createWebSocketEndpoint(options: EndpointOptions): Endpoint;
  serveWebSockets(server: Server, endpoints: readonly Endpoint[]): () => void;
}

export interface FanOutModule {
  MemoryFanOut: new () => FanOut;
}

export interface ChatModule {
  validateChatClientMessage: EndpointOptions['validate'];
  validateChatServerMessage: EndpointOptions['validate'];
}

export interface ClientOptions {
  url: string | (() => string | Promise<string>);
  WebSocket?: unknown;
  protocols?: string[];
  token?: string | (() => string | undefined | Promise<string | undefined>);
  validate?: EndpointOptions['validate'];
  errorType?: string;
  maxQueued?: number;
  timeout?: number;
  signal?: AbortSignal;
  operation?: string;
  pingIntervalMs?: number;
  appPing?: { ping: string; pong: string } | false;
  discriminator?: string;
  correlationKey?: string;
  reconnect?: { baseDelay?: number; maxDelay?: number; maxRetries?: number } | false;
  shouldReconnect?: (code: number, reason: string) => boolean;
  random?: () => number;
  onStateChange?: (state: number) => void;
  onReconnect?: (attempt: number, delayMs: number) => void;
  onClose?: (code: number, reason: string) => void;
  onError?: (error: unknown) => void;
}

export interface Client {
  readonly readyState: number;
  readonly protocol: string;
  send(message: Message): void;
  request(message: Message, options?: { timeout?: number; signal?: AbortSignal }): Promise<Message>;
  on(type: string, handler: (message: Message) => void): () => void;
  onMessage(handler: (message: Message) => void): () => void;
  messages(type?: string): AsyncGenerator<Message, void, undefined>;
  subscribe(message: Message): (leave?: Message) => void;
  close(code?: number, reason?: string): void;
}

export interface ClientModule {
  WebSocketClient: new (options: ClientOptions) => Client;
  WebSocketClientError: new (operation: string, kind: string, message: string) => Error & { kind: string; operation: string };
  WebSocketReplyError: new (operation: string, reply: unknown) => Error & { reply: Message; kind: string };
  WebSocketClosedError: new (operation: string, code: number, reason: string) => Error & { code: number; reason: string; kind: string };
}

export interface WsRuntime {
  folder: string;
  server: ServerModule;
  fanOut: FanOutModule;
  client: ClientModule;
  chat: ChatModule;
}

/** Renders, transpiles and imports the runtime. */
export async function loadWsRuntime(prefix = 'ws-runtime-'): Promise<WsRuntime> {
  const folder = wsTempFolder(prefix);
  writeWsRuntime(folder);
  transpileFolder(folder);
  const load = (path: string): Promise<unknown> => import(pathToFileURL(join(folder, path)).href);
  return {
    folder,
    server: (await load('runtime/ws-server.js')) as ServerModule,
    fanOut: (await load('runtime/ws-fanout.js')) as FanOutModule,
    client: (await load('runtime/ws-client.js')) as ClientModule,
    chat: (await load('chat.js')) as ChatModule,
  };
}
