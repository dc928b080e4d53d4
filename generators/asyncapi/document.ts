/**
 * An AsyncAPI 3 document (already valid against the official schema) → channels with their
 * messages and operations, and the semantic checks the JSON Schema cannot make:
 * - a server's protocol is one codegen generates (`ws`, `wss`, `sse`, `http`, `https`);
 * - an operation's channel is one of `channels`; its messages and its reply's messages belong to it;
 * - a reply travels on the same connection: WebSocket channels at one address on the same servers
 *   are one connection (AsyncAPI 3's way to list a socket's message kinds as channels), lowered as
 *   one channel whose messages are all of theirs, named after the address (see `connectionKey`);
 * - every `{parameter}` of an address is declared, and every declared parameter is used;
 * - message names are unique in a channel; correlation ids point into the payload;
 * - SSE channels receive at most one message (the POST body) and only when they are POST streams.
 *
 * How a channel is SSE: it has `x-sse`, or every server it is on has protocol `sse`. An HTTP stream
 * (newline-delimited JSON): it has an `http` binding with `method: GET` and its servers are `http`
 * or `https`. Otherwise it is a WebSocket channel (`ws`/`wss`, or `http`/`https`, where a WebSocket starts with an HTTP
 * upgrade, as Slack's RTM document describes its API).
 */
import type { Documents, Problems, SourceDoc, Where } from '../core/schema/json-documents.js';
import {
  at,
  child,
  closest,
  deref,
  describe,
  encodePointer,
  isObject,
  locate,
  own,
  resolveRef,
  segments,
} from '../core/schema/json-documents.js';
import type { Action, ChannelOperation, ChannelParameter, RealtimeServer, SseSettings, Transport, WebSocketSettings } from './model.js';
import {
  checkTransportExtensions,
  WEBSOCKET_ONLY,
  readDiscriminator,
  readFirstMessageAuth,
  readHeartbeat,
  readMaxMessageSize,
  readSse,
  readSseEvent,
  readSubprotocols,
  type RawFirstMessageAuth,
} from './extensions.js';
import type { PayloadSchemas } from './schemas.js';

const SUPPORTED = ['ws', 'wss', 'sse', 'http', 'https'] as const;

/** One segment of a JSON pointer in a URI fragment: percent-decoded, then `~1` → `/`, `~0` → `~`. */
function decodePart(part: string): string {
  let decoded = part;
  try {
    decoded = decodeURIComponent(part);
  } catch {
    // Not percent-encoded after all: read it as written.
  }
  return decoded.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** Whether a channel or an operation has an `http` binding with `method: GET`. */
function httpGetBinding(object: Record<string, unknown>): boolean {
  const method = own(own(own(object, 'bindings'), 'http'), 'method');
  return typeof method === 'string' && method.toUpperCase() === 'GET';
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** A message of a channel, before tags and unions are worked out (see channels.ts). */
export interface PendingMessage {
  key: string;
  name: string;
  title?: string;
  summary?: string;
  description?: string;
  deprecated: boolean;
  payload: string;
  sseEvent?: string;
  correlationId?: string[];
  where: Where;
}

export interface PendingChannel {
  key: string;
  address: string;
  title?: string;
  summary?: string;
  description?: string;
  parameters: ChannelParameter[];
  transport: Transport;
  servers: string[];
  messages: PendingMessage[];
  operations: ChannelOperation[];
  discriminator?: string;
  sse?: SseSettings;
  websocket?: WebSocketSettings;
  firstMessageAuth?: RawFirstMessageAuth;
  where: Where;
}

export interface UnsupportedServer {
  protocol: string;
  /** Where its `protocol` is written: the error points there. */
  where: Where;
}

interface RawChannel {
  key: string;
  value: Record<string, unknown>;
  /** Where the channel object is (after `$ref`s). */
  where: Where;
  /** Message key → where the entry is written (before `$ref`s) and the message object. */
  messages: Map<string, RawMessage>;
}

interface RawMessage {
  entry: Where;
  value: Record<string, unknown>;
  where: Where;
  component?: string;
  /** The key in its own channel, when the connection renamed it (two channels with one key). */
  writtenKey?: string;
}

/** The channels that share one connection, lowered as one channel. */
interface Connection extends RawChannel {
  /** Keys of the channels it joins, in document order (the first names the connection). */
  members: string[];
  /** `<channel key>\0<message key>` → the message's key in the connection. */
  keys: Map<string, string>;
}

/** Servers with their protocols; unsupported ones are reported when a channel uses them. */
export function lowerServers(
  root: SourceDoc,
  docs: Documents,
  problems: Problems,
): { servers: RealtimeServer[]; unsupported: Map<string, UnsupportedServer> } {
  const servers: RealtimeServer[] = [];
  const unsupported = new Map<string, UnsupportedServer>();
  const raw = own(root.data, 'servers');
  if (!isObject(raw)) return { servers, unsupported };
  for (const name of Object.keys(raw)) {
    const resolved = deref(docs, raw[name], { doc: root, path: child(child(undefined, 'servers'), name) }, problems);
    if (!resolved || !isObject(resolved.value)) continue;
    const server = resolved.value;
    const protocol = String(server.protocol).toLowerCase();
    if (!(SUPPORTED as readonly string[]).includes(protocol)) {
      unsupported.set(name, { protocol: String(server.protocol), where: at(resolved.where, 'protocol') });
      continue;
    }
    const variables = isObject(server.variables) ? server.variables : {};
    const fill = (value: string) =>
      value.replace(/\{([^}]+)\}/g, (whole, variable: string) => text(own(own(variables, variable), 'default')) ?? whole);
    const lowered: RealtimeServer = {
      name,
      protocol: protocol as RealtimeServer['protocol'],
      host: fill(String(server.host)),
      pathname: fill(text(server.pathname) ?? '').replace(/\/+$/, ''),
    };
    const description = text(server.description);
    if (description !== undefined) lowered.description = description;
    servers.push(lowered);
  }
  return { servers, unsupported };
}

/** Reads `channels` and `operations` into channels with their messages, operations and settings. */
export class DocumentLowering {
  private readonly raw = new Map<string, RawChannel>();
  /** Channel key → the connection it belongs to (its own, unless it shares its address). */
  private readonly connections = new Map<string, Connection>();
  private readonly operations = new Map<string, ChannelOperation[]>();
  /** Connections with an operation whose `http` binding says GET (AsyncAPI 3 puts `method` on operations). */
  private readonly httpGet = new Set<string>();

  constructor(
    private readonly root: SourceDoc,
    private readonly docs: Documents,
    private readonly problems: Problems,
    private readonly payloads: PayloadSchemas,
    private readonly servers: { servers: RealtimeServer[]; unsupported: Map<string, UnsupportedServer> },
  ) {}

  lower(): PendingChannel[] {
    this.readChannels();
    this.joinConnections();
    this.readOperations();
    const channels: PendingChannel[] = [];
    for (const channel of new Set(this.connections.values())) {
      const lowered = this.lowerChannel(channel);
      if (lowered) channels.push(lowered);
    }
    return channels.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  private readChannels(): void {
    const raw = own(this.root.data, 'channels');
    if (!isObject(raw)) return;
    for (const key of Object.keys(raw)) {
      const resolved = deref(this.docs, raw[key], { doc: this.root, path: child(child(undefined, 'channels'), key) }, this.problems);
      if (!resolved || !isObject(resolved.value)) continue;
      const channel: RawChannel = { key, value: resolved.value, where: resolved.where, messages: new Map() };
      const messages = own(resolved.value, 'messages');
      if (isObject(messages)) {
        for (const messageKey of Object.keys(messages)) {
          const entry = at(resolved.where, 'messages', messageKey);
          const message = deref(this.docs, messages[messageKey], entry, this.problems);
          if (!message || !isObject(message.value)) continue;
          const parts = segments(message.where.path);
          const component = parts.length === 3 && parts[0] === 'components' && parts[1] === 'messages' ? parts[2] : undefined;
          channel.messages.set(messageKey, { entry, value: message.value, where: message.where, component });
        }
      }
      this.raw.set(key, channel);
    }
  }

  /**
   * Groups WebSocket channels by address and servers: the channels of a group are one connection.
   * SSE channels (`x-sse`, or only `sse` servers) and HTTP streams stay on their own.
   */
  private joinConnections(): void {
    const groups = new Map<string, RawChannel[]>();
    for (const channel of this.raw.values()) {
      const address = text(channel.value.address);
      const servers = this.serverNamesOf(channel.value);
      const sse =
        own(channel.value, 'x-sse') !== undefined ||
        (servers.length > 0 && servers.every((name) => this.servers.servers.find((server) => server.name === name)?.protocol === 'sse')) ||
        own(own(channel.value, 'bindings'), 'http') !== undefined;
      const group =
        address === undefined || sse
          ? `\0${channel.key}`
          : `${address.startsWith('/') ? address : `/${address}`}\0${[...servers].sort().join('\0')}`;
      groups.set(group, [...(groups.get(group) ?? []), channel]);
    }
    for (const members of groups.values()) {
      const [first] = members as [RawChannel, ...RawChannel[]];
      const key = members.length === 1 ? first.key : this.connectionKey(first, members);
      const connection: Connection = { ...first, key, messages: new Map(), members: members.map((member) => member.key), keys: new Map() };
      const byTarget = new Map<string, string>();
      for (const member of members) {
        for (const [key, message] of member.messages) {
          // One message object listed by two channels is one message of the connection.
          const target = `${message.where.doc.path}#${encodePointer(segments(message.where.path))}`;
          let joined = byTarget.get(target);
          if (joined === undefined) {
            joined = connection.messages.has(key) ? `${member.key}/${key}` : key;
            connection.messages.set(joined, joined === key ? message : { ...message, writtenKey: key });
            byTarget.set(target, joined);
          }
          connection.keys.set(`${member.key}\0${key}`, joined);
        }
      }
      for (const member of members) this.connections.set(member.key, connection);
      this.checkConnectionSettings(first, members);
    }
  }

  /** A connection has one set of WebSocket settings: the first channel's. Another channel may repeat them, not change them. */
  private checkConnectionSettings(first: RawChannel, members: RawChannel[]): void {
    for (const member of members.slice(1)) {
      for (const key of WEBSOCKET_ONLY) {
        const value = own(member.value, key);
        if (value === undefined || JSON.stringify(value) === JSON.stringify(own(first.value, key))) continue;
        this.problems.add(
          `"${key}" of channel "${member.key}" differs from channel "${first.key}"'s, and both are the one connection at ${text(first.value.address) ?? '/'}`,
          locate(at(member.where, key), 'key'),
          `write "${key}" on "${first.key}", the first channel at that address, and remove it here`,
        );
      }
    }
  }

  /**
   * The name of a connection of several channels: the last static segment of their address
   * (`/v1/market/{pair}` → `market`), else `socket`; the first channel's key when another channel
   * already has that name.
   */
  private connectionKey(first: RawChannel, members: RawChannel[]): string {
    const segments = String(first.value.address)
      .split('/')
      .filter((part) => part !== '' && !part.includes('{'));
    const name = segments.at(-1) ?? 'socket';
    const taken = [...this.raw.keys()].some((key) => key === name && !members.some((member) => member.key === key));
    return taken ? first.key : name;
  }

  /** Server names a channel lists (all servers when it lists none), without reporting anything. */
  private serverNamesOf(channel: Record<string, unknown>): string[] {
    const listed = own(channel, 'servers');
    if (!Array.isArray(listed)) return [...this.servers.servers.map((server) => server.name), ...this.servers.unsupported.keys()];
    return listed.flatMap((item) => {
      const ref = own(item, '$ref');
      const match = typeof ref === 'string' ? /^#\/servers\/([^/]+)$/.exec(ref) : null;
      return match ? [decodePart(match[1])] : [];
    });
  }

  private connectionOf(channel: RawChannel): Connection {
    return this.connections.get(channel.key)!;
  }

  /** The channel a `$ref` (written at `where`) names: `#/channels/<key>`, or any ref reaching one. */
  private channelOf(ref: unknown, where: Where): RawChannel | undefined {
    const refAt = at(where, '$ref');
    if (typeof ref !== 'string') return undefined;
    const local = /^#\/channels\/([^/]+)$/.exec(ref);
    if (local) {
      const key = decodePart(local[1]);
      const found = this.raw.get(key);
      if (!found) {
        const near = closest(key, [...this.raw.keys()]);
        this.problems.add(
          `operation refers to channel "${key}", which is not under "channels"`,
          locate(refAt),
          near ? `did you mean "${near}"?` : `the channels are ${[...this.raw.keys()].join(', ') || 'none'}`,
        );
      }
      return found;
    }
    const target = resolveRef(this.docs, ref, refAt, this.problems);
    if (!target) return undefined;
    for (const channel of this.raw.values()) {
      if (`${channel.where.doc.path}#${encodePointer(segments(channel.where.path))}` === target.key) return channel;
    }
    this.problems.add(
      `"${ref}" is not one of the document's channels`,
      locate(refAt),
      'an operation\'s channel must be a $ref to an entry of "channels", e.g. #/channels/chat',
    );
    return undefined;
  }

  /** The key in `channel`'s connection of the message that `ref` names (`#/channels/<c>/messages/<m>`, c on that connection). */
  private messageOf(ref: unknown, where: Where, channel: RawChannel, role: string): string | undefined {
    const refAt = at(where, '$ref');
    if (typeof ref !== 'string') return undefined;
    const connection = this.connectionOf(channel);
    const local = /^#\/channels\/([^/]+)\/messages\/([^/]+)$/.exec(ref);
    let key: string | undefined;
    if (local && connection.members.includes(decodePart(local[1]))) {
      const named = this.raw.get(decodePart(local[1]))!;
      const found = connection.keys.get(`${named.key}\0${decodePart(local[2])}`);
      if (found !== undefined) return found;
      channel = named;
      key = decodePart(local[2]);
    } else if (!local) {
      const target = resolveRef(this.docs, ref, refAt, this.problems);
      if (!target) return undefined;
      for (const [messageKey, message] of connection.messages) {
        const entryKey = `${message.entry.doc.path}#${encodePointer(segments(message.entry.path))}`;
        const valueKey = `${message.where.doc.path}#${encodePointer(segments(message.where.path))}`;
        if (target.key === entryKey || target.key === valueKey) key = messageKey;
      }
      if (key !== undefined) return key;
    }
    const near = key === undefined ? undefined : closest(key, [...channel.messages.keys()]);
    this.problems.add(
      `${role} message "${ref}" is not one of channel "${channel.key}"'s messages`,
      locate(refAt),
      near
        ? `did you mean "#/channels/${channel.key}/messages/${near}"?`
        : `refer to a message of the channel, e.g. #/channels/${channel.key}/messages/${[...channel.messages.keys()][0] ?? 'name'}`,
    );
    return undefined;
  }

  private readOperations(): void {
    const raw = own(this.root.data, 'operations');
    if (!isObject(raw)) return;
    for (const name of Object.keys(raw)) {
      const resolved = deref(this.docs, raw[name], { doc: this.root, path: child(child(undefined, 'operations'), name) }, this.problems);
      if (!resolved || !isObject(resolved.value)) continue;
      const op = resolved.value;
      const where = resolved.where;
      const channel = this.channelOf(own(op.channel, '$ref'), at(where, 'channel'));
      if (!channel) continue;
      const messages = this.messageList(op.messages, at(where, 'messages'), channel, 'operation');
      const operation: ChannelOperation = { name, action: op.action as Action, messages, location: locate(where, 'key') };
      const summary = text(op.summary);
      if (summary !== undefined) operation.summary = summary;
      const description = text(op.description);
      if (description !== undefined) operation.description = description;
      if (op.reply !== undefined) {
        const reply = this.reply(op.reply, at(where, 'reply'), channel);
        if (reply) operation.reply = { messages: reply };
      }
      const connection = this.connectionOf(channel).key;
      if (httpGetBinding(op)) this.httpGet.add(connection);
      const list = this.operations.get(connection) ?? [];
      list.push(operation);
      this.operations.set(connection, list);
    }
  }

  /** An operation's (or reply's) `messages`: keys in the channel's connection; all of the channel's when absent. */
  private messageList(value: unknown, where: Where, channel: RawChannel, role: string): string[] {
    const connection = this.connectionOf(channel);
    if (!Array.isArray(value)) return [...channel.messages.keys()].map((key) => connection.keys.get(`${channel.key}\0${key}`) ?? key);
    const keys: string[] = [];
    value.forEach((item, i) => {
      const key = this.messageOf(own(item, '$ref'), at(where, i), channel, role);
      if (key !== undefined && !keys.includes(key)) keys.push(key);
    });
    return keys;
  }

  private reply(value: unknown, where: Where, channel: RawChannel): string[] | undefined {
    const resolved = deref(this.docs, value, where, this.problems);
    if (!resolved || !isObject(resolved.value)) return undefined;
    const reply = resolved.value;
    if (reply.address !== undefined) {
      this.problems.add(
        'a reply address is not supported: replies travel back on the same connection',
        locate(at(resolved.where, 'address'), 'key'),
        'remove address; the reply goes to the client that sent the request',
      );
      return undefined;
    }
    let replyChannel = channel;
    if (reply.channel !== undefined) {
      const named = this.channelOf(own(reply.channel, '$ref'), at(resolved.where, 'channel'));
      if (!named) return undefined;
      if (this.connectionOf(named) !== this.connectionOf(channel)) {
        this.problems.add(
          `the reply travels on channel "${named.key}", not on the connection of the operation's channel "${channel.key}"; codegen answers on the same connection`,
          locate(at(resolved.where, 'channel')),
          `reply on a channel with the same address and servers as "${channel.key}" (${text(channel.value.address) ?? 'its address'}), or leave channel out`,
        );
        return undefined;
      }
      replyChannel = named;
    }
    return this.messageList(reply.messages, at(resolved.where, 'messages'), replyChannel, 'reply');
  }

  private lowerChannel(channel: RawChannel): PendingChannel | undefined {
    const { value, where } = channel;
    const operations = this.operations.get(channel.key) ?? [];
    const servers = this.channelServers(channel);
    if (!servers) return undefined;
    const address = this.address(channel);
    const sse = readSse(value, where, this.problems);
    const protocols = servers.map((name) => this.servers.servers.find((server) => server.name === name)?.protocol);
    const httpGet =
      !sse &&
      (httpGetBinding(value) || this.httpGet.has(channel.key)) &&
      protocols.every((protocol) => protocol === 'http' || protocol === 'https');
    const transport: Transport =
      sse || (protocols.length > 0 && protocols.every((protocol) => protocol === 'sse')) ? 'sse' : httpGet ? 'http-stream' : 'websocket';
    const mismatch = servers.find((_, i) =>
      transport === 'sse' ? protocols[i] === 'ws' || protocols[i] === 'wss' : protocols[i] === 'sse',
    );
    if (mismatch !== undefined && transport !== 'http-stream') {
      this.problems.add(
        `channel "${channel.key}" is ${transport === 'sse' ? 'SSE' : 'WebSocket'} but server "${mismatch}" speaks ${protocols[servers.indexOf(mismatch)]}`,
        locate(transport === 'sse' && sse ? at(where, 'x-sse') : where, 'key'),
        'list the channel\'s servers under "servers", or make the channel SSE with x-sse: true',
      );
    }
    checkTransportExtensions(value, where, transport, this.problems);
    const pending: PendingChannel = {
      key: channel.key,
      address,
      parameters: this.parameters(channel, address),
      transport,
      servers,
      messages: [],
      operations,
      where,
    };
    for (const key of ['title', 'summary', 'description'] as const) {
      const found = text(value[key]);
      if (found !== undefined) pending[key] = found;
    }
    if (transport === 'sse') pending.sse = sse ?? readSse({ 'x-sse': true }, where, this.problems);
    else if (transport === 'http-stream') this.checkStreamOperations(pending);
    else {
      pending.websocket = {
        subprotocols: readSubprotocols(value, where, this.problems),
        heartbeat: readHeartbeat(value, where, this.problems),
        maxMessageSize: readMaxMessageSize(value, where, this.problems),
      };
      const discriminator = readDiscriminator(value, where, this.problems);
      if (discriminator !== undefined) pending.discriminator = discriminator;
      const auth = readFirstMessageAuth(value, where, this.problems);
      if (auth) pending.firstMessageAuth = auth;
    }
    this.checkSseOperations(pending);
    pending.messages = this.messages(channel, operations);
    return pending;
  }

  /** Names of the channel's servers (all servers when it lists none); undefined when one is unsupported. */
  private channelServers(channel: RawChannel): string[] | undefined {
    const listed = own(channel.value, 'servers');
    let names: string[];
    if (Array.isArray(listed)) {
      names = [];
      listed.forEach((item, i) => {
        const ref = own(item, '$ref');
        const match = typeof ref === 'string' ? /^#\/servers\/([^/]+)$/.exec(ref) : null;
        if (match) names.push(decodePart(match[1]));
        else
          this.problems.add(
            `a channel's servers must be $refs to entries of "servers", not ${describe(ref ?? item)}`,
            locate(at(channel.where, 'servers', i)),
            'write e.g. - $ref: "#/servers/production"',
          );
      });
    } else {
      names = [...this.servers.servers.map((server) => server.name), ...this.servers.unsupported.keys()];
    }
    let ok = true;
    for (const name of names) {
      const unsupported = this.servers.unsupported.get(name);
      if (!unsupported) continue;
      ok = false;
      this.problems.add(
        `not supported: ${unsupported.protocol} (codegen generates WebSocket and SSE)`,
        locate(unsupported.where),
        `server "${name}" carries channels; use protocol ws or wss for WebSocket, or sse (or http with x-sse on the channel) for Server-Sent Events`,
      );
    }
    return ok ? names : undefined;
  }

  private address(channel: RawChannel): string {
    const raw = channel.value.address;
    if (typeof raw !== 'string') {
      this.problems.add(
        `channel "${channel.key}" needs an address (the path clients connect to), not ${describe(raw)}`,
        locate(raw === undefined ? channel.where : at(channel.where, 'address')),
        'write e.g. address: /v1/chat',
      );
      return '/';
    }
    return raw.startsWith('/') ? raw : `/${raw}`;
  }

  private parameters(channel: RawChannel, address: string): ChannelParameter[] {
    const used = [...address.matchAll(/\{([^}]*)\}/g)].map((match) => match[1]);
    const raw = own(channel.value, 'parameters');
    const declared = isObject(raw) ? raw : {};
    const out: ChannelParameter[] = [];
    for (const name of used) {
      if (own(declared, name) === undefined) {
        const near = closest(name, Object.keys(declared));
        this.problems.add(
          `address parameter "{${name}}" of channel "${channel.key}" is not declared under "parameters"`,
          locate(at(channel.where, 'address')),
          near ? `did you mean "${near}"?` : `add parameters: { ${name}: { description: ... } }`,
        );
      }
    }
    for (const name of Object.keys(declared)) {
      const paramAt = at(channel.where, 'parameters', name);
      if (!used.includes(name)) {
        this.problems.add(
          `parameter "${name}" is declared but the address "${address}" has no {${name}}`,
          locate(paramAt, 'key'),
          `use it in the address, e.g. ${address.replace(/\/?$/, `/{${name}}`)}, or remove it`,
        );
        continue;
      }
      const resolved = deref(this.docs, declared[name], paramAt, this.problems);
      const param = resolved && isObject(resolved.value) ? resolved.value : {};
      const schema: Record<string, unknown> = { type: 'string' };
      if (Array.isArray(param.enum)) schema.enum = param.enum.map(String);
      if (typeof param.default === 'string') schema.default = param.default;
      if (Array.isArray(param.examples)) schema.examples = param.examples;
      const parameter: ChannelParameter = { name, schema };
      const description = text(param.description);
      if (description !== undefined) parameter.description = description;
      out.push(parameter);
    }
    return out;
  }

  /** An HTTP stream only sends: a GET has no body to receive and no way to reply. */
  private checkStreamOperations(channel: PendingChannel): void {
    for (const operation of channel.operations) {
      const place = { file: operation.location.file, line: operation.location.line, column: operation.location.column };
      if (operation.reply)
        this.problems.add(
          `operation "${operation.name}": HTTP stream channel "${channel.key}" has no replies`,
          place,
          'an HTTP stream (a GET binding) only sends; use a ws/wss channel for requests and replies',
        );
      else if (operation.action === 'receive')
        this.problems.add(
          `operation "${operation.name}" receives on HTTP stream channel "${channel.key}", which is a GET`,
          place,
          'an HTTP stream (a GET binding) only sends; use a ws/wss channel for messages from clients',
        );
    }
  }

  /** SSE: no reply; a GET feed receives nothing; a POST stream receives at most its one body message. */
  private checkSseOperations(channel: PendingChannel): void {
    if (channel.transport !== 'sse') return;
    for (const operation of channel.operations) {
      const place = { file: operation.location.file, line: operation.location.line, column: operation.location.column };
      if (operation.reply)
        this.problems.add(
          `operation "${operation.name}": an SSE channel has no replies`,
          place,
          'replies are for WebSocket channels; an SSE stream only sends',
        );
      if (operation.action !== 'receive') continue;
      if (channel.sse?.method !== 'POST') {
        this.problems.add(
          `operation "${operation.name}" receives on SSE channel "${channel.key}", which is a GET feed`,
          place,
          'set x-sse: { method: POST } to take the message as the JSON body of a POST stream',
        );
      } else if (operation.messages.length !== 1) {
        this.problems.add(
          `operation "${operation.name}": a POST stream receives exactly one message (its JSON body), not ${operation.messages.length}`,
          place,
          'list one message under messages',
        );
      }
    }
    const bodies = new Set(channel.operations.filter((op) => op.action === 'receive').flatMap((op) => op.messages));
    if (bodies.size > 1)
      this.problems.add(
        `SSE channel "${channel.key}" receives ${bodies.size} different messages; a POST stream has one body`,
        locate(channel.where, 'key'),
        'use one receive message',
      );
  }

  /** The channel's messages that operations use, payloads registered, in the channel's order. */
  private messages(channel: RawChannel, operations: ChannelOperation[]): PendingMessage[] {
    const used = new Set(operations.flatMap((op) => [...op.messages, ...(op.reply?.messages ?? [])]));
    const out: PendingMessage[] = [];
    const names = new Map<string, string>();
    for (const [key, message] of channel.messages) {
      if (!used.has(key)) continue;
      const { value, where } = message;
      const name = text(value.name) ?? message.component ?? message.writtenKey ?? key;
      const clash = names.get(name);
      if (clash !== undefined) {
        this.problems.add(
          `messages "${clash}" and "${key}" of channel "${channel.key}" are both named "${name}"`,
          locate(value.name === undefined ? message.entry : at(where, 'name'), value.name === undefined ? 'key' : 'value'),
          'give each message of a channel its own name',
        );
        continue;
      }
      names.set(name, key);
      const payload = this.payloads.payload(own(value, 'payload'), at(where, 'payload'), name);
      if (payload === undefined) continue;
      const pending: PendingMessage = { key, name, payload, deprecated: value.deprecated === true, where };
      for (const field of ['title', 'summary', 'description'] as const) {
        const found = text(value[field]);
        if (found !== undefined) pending[field] = found;
      }
      const sseEvent = readSseEvent(value, where, this.problems);
      if (sseEvent !== undefined) pending.sseEvent = sseEvent;
      if (value.correlationId !== undefined) {
        const correlation = this.correlationId(value.correlationId, at(where, 'correlationId'));
        if (correlation) pending.correlationId = correlation;
      }
      out.push(pending);
    }
    return out;
  }

  /** `$message.payload#/a/b` → `['a', 'b']`; headers do not exist on SSE or WebSocket messages. */
  private correlationId(value: unknown, where: Where): string[] | undefined {
    const resolved = deref(this.docs, value, where, this.problems);
    if (!resolved) return undefined;
    const location = own(resolved.value, 'location');
    const locationAt = at(resolved.where, 'location');
    const match = typeof location === 'string' ? /^\$message\.payload#((?:\/[^/]*)*)$/.exec(location) : null;
    if (!match) {
      const header = typeof location === 'string' && location.startsWith('$message.header');
      this.problems.add(
        header
          ? 'correlation ids in headers are not supported: SSE and WebSocket messages have no headers'
          : `correlationId.location must be "$message.payload#/<pointer>", not ${describe(location)}`,
        locate(locationAt),
        'write e.g. location: $message.payload#/id',
      );
      return undefined;
    }
    return match[1] === ''
      ? []
      : match[1]
          .slice(1)
          .split('/')
          .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
  }
}
