/**
 * The realtime model: what the AsyncAPI loader (and the OpenAPI 3.2 SSE adapter) produce and the
 * SSE/WebSocket emitters read.
 *
 * Point of view: every direction here is the **server's**. AsyncAPI 3 operations describe the
 * application the document is about, and codegen reads a manifest as the description of the server
 * it generates: `send` is a message the server sends to its clients, `receive` one it receives from
 * them. A client does the opposite.
 *
 * Payloads are named JSON Schema 2020-12 schemas (`schemas`, references written `#/$defs/<Name>`,
 * as in generators/core/schema/json-schema.ts), so the shared type and validator emitters serve them. Each
 * channel direction also has a named union schema (`ChatServerMessage`, ...) with a validator that
 * dispatches on the discriminator.
 */
import type { SourceLocation } from '../core/diagnostics.js';
import type { JsonSchema, NamedSchema } from '../core/schema/json-schema.js';

/** `http-stream`: a GET whose response is newline-delimited JSON (an `http`/`https` channel with a GET binding). */
export type Transport = 'sse' | 'websocket' | 'http-stream';

/** `send`: server → client. `receive`: client → server. */
export type Action = 'send' | 'receive';

export interface RealtimeServer {
  /** The key under `servers`. */
  name: string;
  /** Lower-cased: `ws`, `wss`, `sse`, `http` or `https`. */
  protocol: 'ws' | 'wss' | 'sse' | 'http' | 'https';
  /** `host` with its `{variables}` replaced by their defaults. */
  host: string;
  /** `pathname`, `''` when absent; channel addresses are relative to it. */
  pathname: string;
  description?: string;
}

export interface ChannelParameter {
  /** Name as written in the address: `{roomId}` → `roomId`. */
  name: string;
  description?: string;
  /** A string schema (`enum`, `default`, `examples` from the parameter object). */
  schema: JsonSchema;
}

export interface Message {
  /** The key in the channel's `messages`; unique in the channel. */
  key: string;
  /** The message's `name`, else its `components.messages` key, else `key`. */
  name: string;
  title?: string;
  summary?: string;
  description?: string;
  deprecated: boolean;
  /** The named schema of the payload (a key of `RealtimeModel.schemas`). */
  payload: string;
  /**
   * What tells this message apart on the wire. SSE: the `event:` field's value (`x-sse-event`, else
   * `name`). WebSocket: the value of the channel's discriminator property in the payload (its
   * `const`), or `name` when the channel has no discriminator.
   */
  tag: string;
  /** Directions this message travels in, from the operations that use it. */
  actions: Action[];
  /** `correlationId.location` as a JSON pointer into the payload (`$message.payload#/id` → `['id']`). */
  correlationId?: string[];
  location: SourceLocation;
}

export interface Reply {
  /** Message keys (of the same channel) that answer the operation's messages. */
  messages: string[];
}

export interface ChannelOperation {
  /** The key under `operations`. */
  name: string;
  action: Action;
  /** Message keys of the channel; all of the channel's messages when the operation lists none. */
  messages: string[];
  reply?: Reply;
  summary?: string;
  description?: string;
  location: SourceLocation;
}

/** The `x-sse` settings of an SSE channel, defaults applied. See the README, "SSE and WebSocket". */
export interface SseSettings {
  /** `GET` for EventSource feeds; `POST` for streams that take a JSON body (the `receive` message). */
  method: 'GET' | 'POST';
  /** `retry:` sent when a stream opens, in milliseconds; undefined: none sent (clients wait ~3 s). */
  retry?: number;
  /** Interval of `:` comment lines keeping proxies from closing an idle stream, ms; 0: none. */
  keepAlive: number;
  /** `data:` line that ends the stream (e.g. `[DONE]`); undefined: the stream has no end marker. */
  done?: string;
  /** Events are kept in the event log and a reconnect with `Last-Event-ID` resumes after it. */
  resume: boolean;
}

/** First-message authentication: the client's first message must be `message`, within `timeout`. */
export interface FirstMessageAuth {
  /** Key of a `receive` message of the channel. */
  message: string;
  /** JSON pointer into that message's payload where the token is. */
  token: string[];
  /** Milliseconds the server waits for it before closing with 1008. */
  timeout: number;
}

/** The WebSocket extensions of a channel, defaults applied. See the README, "SSE and WebSocket". */
export interface WebSocketSettings {
  /** Accepted `Sec-WebSocket-Protocol` values, in the server's order of preference; `[]`: none. */
  subprotocols: string[];
  /** Protocol-level ping interval in milliseconds; a peer silent for a whole interval is dropped. 0: off. */
  heartbeat: number;
  /** Largest accepted message in bytes; larger ones close the connection with 1009. */
  maxMessageSize: number;
  firstMessageAuth?: FirstMessageAuth;
}

/** The types of one direction of a channel. */
export interface DirectionTypes {
  /** Named union schema of every message in this direction (a key of `RealtimeModel.schemas`). */
  union: string;
  /** Name of the map type `{ [tag]: payload }` emitted in types.ts for this direction. */
  map: string;
}

export interface Channel {
  /** The key under `channels`. */
  key: string;
  /** PascalCase base of the channel's generated names (`chat` → `Chat`), unique in the model. */
  name: string;
  /** The address as written, e.g. `/v1/rooms/{roomId}`; a server's `pathname` goes in front of it. */
  address: string;
  title?: string;
  summary?: string;
  description?: string;
  parameters: ChannelParameter[];
  transport: Transport;
  /** Names of the servers the channel is available on. */
  servers: string[];
  /** Messages some operation uses, in the order the channel lists them. */
  messages: Message[];
  operations: ChannelOperation[];
  /**
   * WebSocket: the payload property whose `const` tells the messages of a direction apart (from
   * `x-discriminator`, else found: the one property every message of both directions pins to a
   * distinct string). Undefined for SSE (the `event:` field does that) and when there is none.
   */
  discriminator?: string;
  /** Per direction: `send` = what the server sends. Absent when no message goes that way. */
  types: { send?: DirectionTypes; receive?: DirectionTypes };
  sse?: SseSettings;
  websocket?: WebSocketSettings;
  location: SourceLocation;
}

export interface RealtimeModel {
  title: string;
  version: string;
  description?: string;
  /** Root input file, relative to the display root, with `/` separators: goes in file headers. */
  source: string;
  servers: RealtimeServer[];
  /** Sorted by key. */
  channels: Channel[];
  /** Payloads and per-direction unions, sorted by name. */
  schemas: NamedSchema[];
}
