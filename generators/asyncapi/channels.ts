/**
 * Finishing channels once their payloads are lowered: the tag that tells each message apart on the
 * wire, the discriminator of WebSocket channels, and per direction a named union schema and the
 * name of its `{ tag: payload }` map type.
 *
 * Names, for a channel `chat` (PascalCased, unique): WebSocket `ChatServerMessage` /
 * `ChatServerMessages` (what the server sends) and `ChatClientMessage` / `ChatClientMessages` (what it
 * receives); SSE `ChatEvent` / `ChatEvents` and, for a POST stream's body, `ChatRequest` /
 * `ChatRequests`. A name a schema already has gets a number (`uniqueName`).
 */
import type { Problems } from '../core/schema/json-documents.js';
import { child, locate } from '../core/schema/json-documents.js';
import type { JsonSchema, NamedSchema, SchemaObject } from '../core/schema/json-schema.js';
import { pascalCase, uniqueName } from '../core/builder/names.js';
import { refName } from '../core/schema/json-schema.js';
import type { PendingChannel, PendingMessage } from './document.js';
import type { Action, Channel, Message } from './model.js';

/** The string a schema pins `property` to (`const`, or a one-value `enum`), through `$ref`, `allOf` and agreeing `oneOf`/`anyOf`. */
export function pinnedValue(
  schema: JsonSchema | undefined,
  property: string,
  byName: Map<string, JsonSchema>,
  depth = 0,
): string | undefined {
  if (typeof schema !== 'object' || depth > 16) return undefined;
  if (typeof schema.$ref === 'string') {
    const target = refName(schema.$ref);
    const found = target === undefined ? undefined : pinnedValue(byName.get(target), property, byName, depth + 1);
    if (found !== undefined) return found;
  }
  const own =
    schema.properties && Object.prototype.hasOwnProperty.call(schema.properties, property) ? schema.properties[property] : undefined;
  if (typeof own === 'object') {
    if (typeof own.const === 'string') return own.const;
    if (Array.isArray(own.enum) && own.enum.length === 1 && typeof own.enum[0] === 'string') return own.enum[0];
  }
  for (const part of schema.allOf ?? []) {
    const found = pinnedValue(part, property, byName, depth + 1);
    if (found !== undefined) return found;
  }
  const alternatives = schema.oneOf ?? schema.anyOf;
  if (alternatives?.length) {
    const values = alternatives.map((part) => pinnedValue(part, property, byName, depth + 1));
    if (values.every((value) => value !== undefined && value === values[0])) return values[0];
  }
  return undefined;
}

/** Properties a schema pins to a string, in the order written (candidates for a discriminator). */
function pinnedProperties(schema: JsonSchema | undefined, byName: Map<string, JsonSchema>, depth = 0): string[] {
  if (typeof schema !== 'object' || depth > 16) return [];
  const names: string[] = [];
  if (typeof schema.$ref === 'string') names.push(...pinnedProperties(byName.get(refName(schema.$ref) ?? ''), byName, depth + 1));
  names.push(...Object.keys(schema.properties ?? {}));
  for (const part of schema.allOf ?? []) names.push(...pinnedProperties(part, byName, depth + 1));
  for (const part of schema.oneOf ?? schema.anyOf ?? []) names.push(...pinnedProperties(part, byName, depth + 1));
  return [...new Set(names)];
}

/** Whether `pointer` names a property the schema declares (through `$ref` and `allOf`). */
function declares(schema: JsonSchema | undefined, pointer: string[], byName: Map<string, JsonSchema>, depth = 0): boolean {
  if (pointer.length === 0) return true;
  if (typeof schema !== 'object' || depth > 32) return false;
  if (typeof schema.$ref === 'string' && declares(byName.get(refName(schema.$ref) ?? ''), pointer, byName, depth + 1)) return true;
  const [head, ...rest] = pointer;
  if (
    schema.properties &&
    Object.prototype.hasOwnProperty.call(schema.properties, head) &&
    declares(schema.properties[head], rest, byName, depth + 1)
  )
    return true;
  return (schema.allOf ?? []).some((part) => declares(part, pointer, byName, depth + 1));
}

/** Which ways each message travels: an operation's messages go its way, its reply's the other way. */
function actionsOf(channel: PendingChannel): Map<string, Action[]> {
  const actions = new Map<string, Action[]>();
  const add = (key: string, action: Action) => {
    const list = actions.get(key) ?? [];
    if (!list.includes(action)) list.push(action);
    actions.set(key, list.sort());
  };
  for (const operation of channel.operations) {
    for (const key of operation.messages) add(key, operation.action);
    for (const key of operation.reply?.messages ?? []) add(key, operation.action === 'send' ? 'receive' : 'send');
  }
  return actions;
}

/** The property every message pins to a value distinct in its direction; the first such, in the first message's order. */
function findDiscriminator(
  messages: PendingMessage[],
  actions: Map<string, Action[]>,
  byName: Map<string, JsonSchema>,
): string | undefined {
  if (messages.length === 0) return undefined;
  for (const property of pinnedProperties(byName.get(messages[0].payload), byName)) {
    const values = messages.map((message) => pinnedValue(byName.get(message.payload), property, byName));
    if (values.some((value) => value === undefined)) continue;
    const distinct = (['send', 'receive'] as const).every((action) => {
      const inDirection = messages.flatMap((message, i) => ((actions.get(message.key) ?? []).includes(action) ? [values[i]] : []));
      return new Set(inDirection).size === inDirection.length;
    });
    if (distinct) return property;
  }
  return undefined;
}

export function finishChannels(
  pending: PendingChannel[],
  schemas: NamedSchema[],
  problems: Problems,
): { channels: Channel[]; schemas: NamedSchema[] } {
  const byName = new Map(schemas.map((named) => [named.name, named.schema]));
  const taken = new Set(schemas.flatMap((named) => [named.name, `${named.name}Input`]));
  const channelNames = new Set<string>();
  const unions: NamedSchema[] = [];
  const channels: Channel[] = [];
  for (const channel of pending) {
    const name = uniqueName(pascalCase(channel.key), channelNames);
    const actions = actionsOf(channel);
    const discriminator =
      channel.transport === 'websocket' ? (channel.discriminator ?? findDiscriminator(channel.messages, actions, byName)) : undefined;
    const messages: Message[] = [];
    for (const message of channel.messages) {
      let tag = channel.transport === 'sse' ? (message.sseEvent ?? message.name) : message.name;
      if (discriminator !== undefined) {
        const value = pinnedValue(byName.get(message.payload), discriminator, byName);
        if (value === undefined) {
          problems.add(
            `message "${message.key}" of channel "${channel.key}" does not pin the discriminator "${discriminator}" to a value`,
            locate({ doc: message.where.doc, path: child(message.where.path, 'payload') }),
            `add properties: { ${discriminator}: { const: ${message.name} } } (and list it under required)`,
          );
        } else tag = value;
      }
      const lowered: Message = {
        key: message.key,
        name: message.name,
        deprecated: message.deprecated,
        payload: message.payload,
        tag,
        actions: actions.get(message.key) ?? [],
        location: locate(message.where, 'key'),
      };
      for (const field of ['title', 'summary', 'description'] as const) if (message[field] !== undefined) lowered[field] = message[field];
      if (message.correlationId) lowered.correlationId = message.correlationId;
      messages.push(lowered);
    }
    const result: Channel = {
      key: channel.key,
      name,
      address: channel.address,
      parameters: channel.parameters,
      transport: channel.transport,
      servers: channel.servers,
      messages,
      operations: channel.operations,
      types: {},
      location: locate(channel.where, 'key'),
    };
    for (const field of ['title', 'summary', 'description'] as const) if (channel[field] !== undefined) result[field] = channel[field];
    if (discriminator !== undefined) result.discriminator = discriminator;
    if (channel.sse) result.sse = channel.sse;
    if (channel.websocket) result.websocket = { ...channel.websocket };

    for (const action of ['send', 'receive'] as const) {
      const members = messages.filter((message) => message.actions.includes(action));
      if (members.length === 0) continue;
      const what = channel.transport === 'sse' ? 'SSE event name' : discriminator === undefined ? 'name' : `"${discriminator}"`;
      checkUniqueTags(channel, members, action, what, problems);
      const [unionBase, mapBase] =
        channel.transport === 'sse'
          ? action === 'send'
            ? ['Event', 'Events']
            : ['Request', 'Requests']
          : action === 'send'
            ? ['ServerMessage', 'ServerMessages']
            : ['ClientMessage', 'ClientMessages'];
      const union = uniqueName(`${name}${unionBase}`, taken);
      const map = uniqueName(`${name}${mapBase}`, taken);
      unions.push({ name: union, schema: unionSchema(channel, members, action, discriminator), origin: 'operation' });
      result.types[action] = { union, map };
    }
    if (channel.firstMessageAuth && result.websocket) {
      const auth = channel.firstMessageAuth;
      const message = messages.find((candidate) => candidate.key === auth.message);
      if (!message || !message.actions.includes('receive')) {
        const keys = messages.filter((candidate) => candidate.actions.includes('receive')).map((candidate) => candidate.key);
        problems.add(
          `"x-first-message-auth.message" must name a message the server receives on channel "${channel.key}", not "${auth.message}"`,
          locate(auth.messageAt),
          keys.length ? `one of ${keys.join(', ')}` : 'add a receive operation with the auth message',
        );
      } else if (!declares(byName.get(message.payload), auth.token, byName)) {
        problems.add(
          `the payload of message "${message.key}" has no property at "/${auth.token.join('/')}" for the token`,
          locate(auth.tokenAt),
          "declare it under the payload's properties",
        );
      } else {
        result.websocket.firstMessageAuth = { message: auth.message, token: auth.token, timeout: auth.timeout };
      }
    }
    channels.push(result);
  }
  const all = [...schemas, ...unions].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { channels, schemas: all };
}

function checkUniqueTags(channel: PendingChannel, members: Message[], action: Action, what: string, problems: Problems): void {
  const seen = new Map<string, Message>();
  for (const message of members) {
    const first = seen.get(message.tag);
    if (first) {
      problems.add(
        `messages "${first.key}" and "${message.key}" that the server ${action === 'send' ? 'sends' : 'receives'} on channel "${channel.key}" have the same ${what} "${message.tag}"`,
        message.location,
        channel.transport === 'sse' ? 'give one of them another name or x-sse-event' : 'give each message its own discriminator value',
      );
    } else seen.set(message.tag, message);
  }
}

/** One direction's messages as one schema: a ref for one payload; `oneOf` + discriminator, or `anyOf`. */
function unionSchema(channel: PendingChannel, members: Message[], action: Action, discriminator: string | undefined): SchemaObject {
  const who = action === 'send' ? 'the server sends' : 'the server receives';
  const description = `A message ${who} on ${channel.address}.`;
  const refs = [...new Set(members.map((message) => `#/$defs/${message.payload}`))];
  if (refs.length === 1) return { $ref: refs[0], description };
  const alternatives = refs.map((ref): SchemaObject => ({ $ref: ref }));
  if (discriminator === undefined) return { description, anyOf: alternatives };
  const mapping: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const message of members) mapping[message.tag] = `#/$defs/${message.payload}`;
  return { description, oneOf: alternatives, discriminator: { propertyName: discriminator, mapping } };
}
