/**
 * The WebSocket runtime (runtime/ws-*.ts) for the tests, which import its modules themselves: the
 * hand-written chat channel (test/support/ws-chat.ts, what the AsyncAPI generator emits: message
 * unions, a validator, a reply map) on the runtime's validation module, the files a strict
 * type-check or a browser page needs on disk, and the runtime's generic types instantiated for
 * untyped messages.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ValidationResult } from '../../runtime/validation.js';
import type { WebSocketClient, WebSocketClientOptions } from '../../runtime/ws-client.js';
import type { WebSocketConnection, WebSocketEndpoint, WebSocketEndpointOptions } from '../../runtime/ws-server.js';
import { ROOT } from './cli.js';
import { copyRuntime, runtimeSpecifier } from './runtime.js';
import { CHAT_SOURCE } from './ws-chat.js';

const WS_SERVER_FILES = [
  'validation',
  'cors-policy',
  'client-limits',
  'ws-protocol',
  'pubsub',
  'ws-handshake',
  'ws-connection',
  'ws-server',
] as const;
const WS_CLIENT_FILES = ['client-common', 'validation', 'ws-protocol', 'ws-client'] as const;

/** Copies the runtime into `<folder>/runtime/` and writes the chat channel as `<folder>/chat.ts`, as an output holds them. */
export function writeWsRuntime(folder: string, extra: Record<string, string> = {}): void {
  copyRuntime(folder, new Set([...WS_SERVER_FILES, ...WS_CLIENT_FILES]));
  writeFileSync(join(folder, 'chat.ts'), CHAT_SOURCE);
  for (const [name, source] of Object.entries(extra)) writeFileSync(join(folder, name), source);
}

/** A fresh folder under .vitest-tmp (inside the repo, so `ws` resolves from node_modules). */
export function wsTempFolder(prefix: string): string {
  mkdirSync(join(ROOT, '.vitest-tmp'), { recursive: true });
  return mkdtempSync(join(ROOT, '.vitest-tmp', prefix));
}

/** A message of any kind, as the tests send and receive them. */
export type Message = { type: string; [key: string]: unknown };
/** Any request kind may have a reply of any shape. */
type AnyReplies = Record<string, unknown>;

export type EndpointOptions = WebSocketEndpointOptions<Message, Message, AnyReplies, unknown, 'type'>;
export type Endpoint = WebSocketEndpoint<Message>;
export type Connection = WebSocketConnection<Message, unknown>;
export type ClientOptions = WebSocketClientOptions<Message>;
export type Client = WebSocketClient<Message, Message, AnyReplies>;

/** The chat channel's validators, typed for untyped messages. */
export interface ChatModule {
  validateChatClientMessage: (value: unknown) => ValidationResult<Message>;
  validateChatServerMessage: (value: unknown) => ValidationResult<Message>;
}

let chat: Promise<ChatModule> | undefined;

/** The chat channel, imported with its import of the runtime pointing at runtime/validation.ts itself. */
export function loadChat(): Promise<ChatModule> {
  chat ??= (async () => {
    const folder = wsTempFolder('ws-chat-');
    const source = CHAT_SOURCE.replace('"./runtime/validation.js"', JSON.stringify(runtimeSpecifier(folder, 'validation')));
    writeFileSync(join(folder, 'chat.ts'), source);
    return (await import(pathToFileURL(join(folder, 'chat.ts')).href)) as ChatModule;
  })();
  return chat;
}
