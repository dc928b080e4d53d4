/**
 * What the server and the client of a realtime API both need to know about each channel, decided
 * once: its TypeScript names, its full path (server `pathname` + address), the payload types and
 * validators of each direction, the reply of each request, the correlation and token properties.
 * Anything the runtimes cannot do for a manifest is refused here, with the manifest's location.
 */
import { error } from '../core/diagnostics.js';
import type { TypeEmitter } from '../core/emit/types/emit.js';
import { camelCase, stringLiteral } from '../core/builder/names.js';
import type { JsonSchema, SchemaObject } from '../core/schema/json-schema.js';
import { refName } from '../core/schema/json-schema.js';
import type { Action, Channel, Message, RealtimeModel } from './model.js';

/** One message of a direction, as generated code names it. */
export interface MessageInfo {
  message: Message;
  /** Its payload's type name in this direction's shape. */
  type: string;
  /** `validate<Type>` from validators.ts. */
  validator: string;
  /** Type names of the messages that answer it (a `reply`), empty when none. */
  replies: string[];
}

export interface ChannelInfo {
  channel: Channel;
  /** camelCase member name: `handlers.<member>`, `publish.<member>`, `client.<member>()`. */
  member: string;
  /** The path served: the first server's `pathname` followed by the address. */
  path: string;
  /** `<Channel>Params` when the address has `{parameters}`. */
  paramsType?: string;
  /** `<Channel>Replies` when some received message has a reply. */
  repliesType?: string;
  /** Server → client messages. */
  sent: MessageInfo[];
  /** Client → server messages. */
  received: MessageInfo[];
  /** WebSocket: the payload property pairing a request with its reply (a correlation id's pointer). */
  correlationKey?: string;
  /** The correlation property is a number (`integer`/`number`) in the request's schema: the client sends numeric ids. */
  numericIds?: boolean;
  /** WebSocket first-message auth: the auth message's tag and its token property. */
  auth?: { tag: string; tokenKey: string; timeout: number };
}

/** The schema of `property` of the named payload schema, through `$ref` and `allOf`. */
function propertySchema(model: RealtimeModel, name: string, property: string, depth = 0): JsonSchema | undefined {
  const schema = model.schemas.find((named) => named.name === name)?.schema;
  return typeof schema === 'object' ? propertyOf(model, schema, property, depth) : undefined;
}

function propertyOf(model: RealtimeModel, schema: SchemaObject, property: string, depth: number): JsonSchema | undefined {
  if (depth > 16) return undefined;
  if (schema.properties && Object.hasOwn(schema.properties, property)) return schema.properties[property];
  const target = typeof schema.$ref === 'string' ? refName(schema.$ref) : undefined;
  const viaRef = target === undefined ? undefined : propertySchema(model, target, property, depth + 1);
  if (viaRef !== undefined) return viaRef;
  for (const part of schema.allOf ?? []) {
    const found = typeof part === 'object' ? propertyOf(model, part, property, depth + 1) : undefined;
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Whether a schema is a number (`integer` or `number`), through one `$ref`. */
function isNumeric(schema: JsonSchema | undefined, model?: RealtimeModel): boolean {
  if (typeof schema !== 'object') return false;
  if (schema.type === 'integer' || schema.type === 'number') return true;
  const target = typeof schema.$ref === 'string' ? refName(schema.$ref) : undefined;
  const named =
    target === undefined || model === undefined ? undefined : model.schemas.find((candidate) => candidate.name === target)?.schema;
  return named !== undefined && isNumeric(named);
}

/** The `[DONE]` marker is the only end marker the SSE runtime writes and its client recognises. */
const DONE = '[DONE]';

export function describeChannels(model: RealtimeModel, types: TypeEmitter): ChannelInfo[] {
  return model.channels.map((channel) => describeChannel(model, channel, types));
}

function describeChannel(model: RealtimeModel, channel: Channel, types: TypeEmitter): ChannelInfo {
  const infoOf =
    (action: Action) =>
    (message: Message): MessageInfo => {
      const type = types.typeName(message.payload, shapeOf(action));
      const replyKeys = channel.operations
        .filter((operation) => operation.action === 'receive' && operation.messages.includes(message.key) && operation.reply)
        .flatMap((operation) => operation.reply!.messages);
      const replies = [...new Set(replyKeys)].map((key) => {
        const reply = channel.messages.find((candidate) => candidate.key === key)!;
        return types.typeName(reply.payload, 'read');
      });
      return { message, type, validator: `validate${type}`, replies: action === 'receive' ? replies : [] };
    };
  const sent = channel.messages.filter((message) => message.actions.includes('send')).map(infoOf('send'));
  const received = channel.messages.filter((message) => message.actions.includes('receive')).map(infoOf('receive'));
  const server = model.servers.find((candidate) => channel.servers.includes(candidate.name));
  const info: ChannelInfo = {
    channel,
    member: camelCase(channel.name),
    path: joinPath(server?.pathname ?? '', channel.address),
    sent,
    received,
  };
  if (channel.parameters.length > 0) info.paramsType = `${channel.name}Params`;
  if (received.some((message) => message.replies.length > 0)) info.repliesType = `${channel.name}Replies`;

  if (channel.transport === 'websocket') {
    const pointer = channel.messages.find((message) => message.correlationId)?.correlationId;
    if (pointer) info.correlationKey = pointer[0];
    const request = received.find((entry) => entry.replies.length > 0)?.message;
    if (info.correlationKey !== undefined && request && isNumeric(propertySchema(model, request.payload, info.correlationKey), model))
      info.numericIds = true;
    const auth = channel.websocket?.firstMessageAuth;
    const message = auth && channel.messages.find((candidate) => candidate.key === auth.message);
    if (auth && message) info.auth = { tag: message.tag, tokenKey: auth.token[0], timeout: auth.timeout };
  }
  return info;
}

/**
 * Refuses what the runtimes cannot serve, at the channel's location: an SSE end marker other than
 * `[DONE]`, correlation ids or auth tokens below the top level of a payload, or first-message auth
 * without a discriminator to recognise the auth message by.
 */
export function assertSupported(info: ChannelInfo): void {
  const { channel } = info;
  if (channel.sse?.done !== undefined && channel.sse.done !== DONE) {
    throw error(
      `x-sse.done: the SSE runtime ends streams with ${DONE} only, not ${stringLiteral(channel.sse.done)}`,
      channel.location,
      `use done: '${DONE}'`,
    );
  }
  if (channel.transport !== 'websocket') return;
  for (const message of channel.messages) {
    const pointer = message.correlationId;
    if (pointer && (pointer.length !== 1 || pointer[0] !== info.correlationKey)) {
      throw error(
        `correlationId: the WebSocket runtime pairs requests and replies by one top-level payload property shared by the channel; ${stringLiteral(message.key)} uses /${pointer.join('/')}`,
        message.location,
        'point every correlationId of the channel at the same top-level property, e.g. $message.payload#/id',
      );
    }
  }
  const auth = channel.websocket?.firstMessageAuth;
  if (auth && auth.token.length !== 1) {
    throw error(
      `x-first-message-auth.token: the WebSocket runtime reads the token from a top-level property, not /${auth.token.join('/')}`,
      channel.location,
    );
  }
  if (auth && channel.discriminator === undefined) {
    throw error('x-first-message-auth needs a discriminator (x-discriminator) to recognise the auth message by', channel.location);
  }
}

/** `/api` + `/` → `/api`; `` + `/chat` → `/chat`; always one leading slash, no doubled ones. */
function joinPath(pathname: string, address: string): string {
  const joined = `/${pathname}/${address}`.replace(/\/{2,}/g, '/');
  return joined.length > 1 ? joined.replace(/\/$/, '') : joined;
}

/** The shape a direction's payloads have: server-sent ones are read, received ones written. */
export function shapeOf(action: Action): 'read' | 'write' {
  return action === 'send' ? 'read' : 'write';
}

/** The kind of message the WebSocket runtime answers itself (application-level ping). */
export const APP_PING = 'ping';

/**
 * The received messages a WebSocket channel's handlers get: all but the first-message auth (the
 * runtime verifies it; a repeated one closes the socket) and the application-level ping (the
 * runtime answers it, with its correlation id, before any handler runs). Both stay in the
 * channel's types, so `ping` is a request like any other for clients.
 */
export function handledMessages(info: ChannelInfo): MessageInfo[] {
  return info.received.filter((entry) => entry.message.tag !== info.auth?.tag && !runtimePing(info, entry));
}

/** Whether the runtime answers this message itself: a `ping` on a channel with a discriminator. */
export function runtimePing(info: ChannelInfo, entry: MessageInfo): boolean {
  return info.channel.discriminator !== undefined && entry.message.tag === APP_PING;
}

/** A path template as a RegExp source: each `{name}` one non-empty segment, captured. */
export function pathPattern(path: string): string {
  const parts = path
    .split(/(\{[^}]+\})/)
    .map((part) => (/^\{[^}]+\}$/.test(part) ? '([^/]+)' : part.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')));
  return `^${parts.join('')}$`;
}

/** The names of a path template's `{parameters}`, in order. */
export function pathNames(path: string): string[] {
  return [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]);
}
