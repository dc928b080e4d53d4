/**
 * A chat channel written by hand the way the AsyncAPI generator emits one (message unions, their
 * validators on runtime/validation.ts, and the map of replies), so the WebSocket runtime can be
 * exercised before any generator emits it.
 */
export const CHAT_SOURCE = `// A chat channel, hand-written in the shape of generated code.
import { validate, type ErrorCollector, type ValidationResult } from "./runtime/validation.js";

export interface Say { type: "say"; text: string }
export interface Join { type: "join"; room: string }
export interface Leave { type: "leave"; room: string }
export interface History { type: "history"; id?: string | number; room: string }
export interface Work { type: "work"; id?: string | number; ms: number; fail?: boolean }
export interface Crash { type: "crash" }
/** The application-level ping, as a request: the runtime answers it, no handler needed. */
export interface Ping { type: "ping"; id?: string | number }
export type ChatClientMessage = Say | Join | Leave | History | Work | Crash | Ping;

export interface Said { type: "said"; room: string; text: string; from?: string }
export interface HistoryResult { type: "historyResult"; id?: string | number; texts: string[] }
export interface Done { type: "done"; id?: string | number; ms: number }
export interface ChatError { type: "error"; id?: string | number; reason: string; message: string }
export interface Pong { type: "pong"; id?: string | number }
export type ChatServerMessage = Said | HistoryResult | Done | ChatError | Pong;

/** The reply of each request kind (AsyncAPI \`reply\`). */
export interface ChatReplies { history: HistoryResult; work: Done; ping: Pong }

type Props = Record<string, (value: unknown) => boolean>;

const isString = (value: unknown): boolean => typeof value === "string";
const isId = (value: unknown): boolean => typeof value === "string" || typeof value === "number";
const isText = (value: unknown): boolean => typeof value === "string" && value.length > 0 && value.length <= 2000;
const isMs = (value: unknown): boolean => typeof value === "number" && Number.isInteger(value) && value >= 0;

const CLIENT: Record<string, { required: Props; optional: Props }> = {
  say: { required: { text: isText }, optional: {} },
  join: { required: { room: isString }, optional: {} },
  leave: { required: { room: isString }, optional: {} },
  history: { required: { room: isString }, optional: { id: isId } },
  work: { required: { ms: isMs }, optional: { id: isId, fail: (value) => typeof value === "boolean" } },
  crash: { required: {}, optional: {} },
  ping: { required: {}, optional: { id: isId } },
};

const SERVER: Record<string, { required: Props; optional: Props }> = {
  said: { required: { room: isString, text: isString }, optional: { from: isString } },
  historyResult: { required: { texts: (value) => Array.isArray(value) && value.every(isString) }, optional: { id: isId } },
  done: { required: { ms: isMs }, optional: { id: isId } },
  error: { required: { reason: isString, message: isString }, optional: { id: isId } },
  pong: { required: {}, optional: { id: isId } },
};

function union(kinds: Record<string, { required: Props; optional: Props }>) {
  return (value: unknown, errors?: ErrorCollector): boolean => {
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      errors?.add("", "type", "must be object");
      return false;
    }
    const record = value as Record<string, unknown>;
    const type = record["type"];
    const kind = typeof type === "string" && Object.hasOwn(kinds, type) ? kinds[type] : undefined;
    if (!kind) {
      errors?.add("/type", "enum", "must be one of " + Object.keys(kinds).join(", "));
      return false;
    }
    let ok = true;
    for (const [name, check] of Object.entries(kind.required)) {
      if (!(name in record)) { errors?.add("", "required", "must have property " + name); ok = false; }
      else if (!check(record[name])) { errors?.add("/" + name, "type", "is invalid"); ok = false; }
    }
    for (const name of Object.keys(record)) {
      if (name === "type" || name in kind.required) continue;
      const check = kind.optional[name];
      if (!check) { errors?.add("/" + name, "additionalProperties", "is not allowed"); ok = false; }
      else if (!check(record[name])) { errors?.add("/" + name, "type", "is invalid"); ok = false; }
    }
    return ok;
  };
}

const checkClient = union(CLIENT);
const checkServer = union(SERVER);

export function validateChatClientMessage(value: unknown): ValidationResult<ChatClientMessage> {
  return validate<ChatClientMessage>(value, checkClient);
}

export function validateChatServerMessage(value: unknown): ValidationResult<ChatServerMessage> {
  return validate<ChatServerMessage>(value, checkServer);
}
`;

/**
 * TypeScript a user writes against the runtime and the chat channel. It is type-checked beside
 * them: every `@ts-expect-error` must be an error and everything else must compile, so the
 * runtime's generics are exactly as strict as they claim.
 */
export const WS_SERVER_USAGE = `import { createServer } from "node:http";
import { createWebSocketEndpoint, serveWebSockets } from "./runtime/ws-server.js";
import { MemoryFanOut } from "./runtime/pubsub.js";
import { validateChatClientMessage, type ChatClientMessage, type ChatReplies, type ChatServerMessage } from "./chat.js";

interface User { name: string }

const chat = createWebSocketEndpoint<ChatClientMessage, ChatServerMessage, ChatReplies, User>({
  path: "/rooms/{room}",
  validate: validateChatClientMessage,
  protocols: ["chat.v1"],
  cors: { origins: ["https://app.example.com"] },
  authenticate: (request) => (request.headers.cookie ? { context: { name: "cookie" } } : { status: 401 }),
  fanOut: new MemoryFanOut(),
  perMessageDeflate: { threshold: 2048 },
  handlers: {
    say(message, connection) {
      const text: string = message.text;
      const name: string = connection.context.name;
      void connection.subscribe("x");
      // @ts-expect-error a Say has no room
      void message.room;
      // @ts-expect-error only server messages are sent
      connection.send({ type: "say", text });
      connection.send({ type: "said", room: connection.params["room"] ?? "", text, from: name });
    },
    join: async (message, connection) => {
      await connection.subscribe(message.room);
    },
    leave: (message, connection) => connection.unsubscribe(message.room),
    history: async (message) => ({ type: "historyResult", texts: [message.room] }),
    // @ts-expect-error work must reply with a Done
    work: () => ({ type: "historyResult", texts: [] }),
    crash() {
      throw new Error("boom");
    },
    // No \`ping\` handler: the runtime answers the application-level ping itself.
  },
});

// A \`ping\` handler may be given (it runs with \`appPing: false\`), typed like the others.
createWebSocketEndpoint<ChatClientMessage, ChatServerMessage, ChatReplies>({
  path: "/",
  validate: validateChatClientMessage,
  appPing: false,
  handlers: { say() {}, join() {}, leave() {}, history: (message) => ({ type: "historyResult", texts: [message.room] }), work: (message) => ({ type: "done", ms: message.ms }), crash() {}, ping: (message) => ({ type: "pong", ...(message.id === undefined ? {} : { id: message.id }) }) },
});

// @ts-expect-error every message kind needs a handler
createWebSocketEndpoint<ChatClientMessage, ChatServerMessage, ChatReplies>({ path: "/", validate: validateChatClientMessage, handlers: { say() {} } });

const server = createServer();
serveWebSockets(server, [chat]);
void chat.publish("/rooms/a", { type: "said", room: "a", text: "hi" });
// @ts-expect-error only server messages are published
void chat.publish("/rooms/a", { type: "say", text: "hi" });
`;

export const WS_CLIENT_USAGE = `import { WebSocketClient, WebSocketReplyError } from "./runtime/ws-client.js";
import { validateChatServerMessage, type ChatClientMessage, type ChatReplies, type ChatServerMessage, type Done, type HistoryResult, type Pong } from "./chat.js";

export async function usage(): Promise<void> {
  const client = new WebSocketClient<ChatClientMessage, ChatServerMessage, ChatReplies>({
    url: () => "wss://example.com/rooms/a",
    token: async () => "secret",
    validate: validateChatServerMessage,
    errorType: "error",
  });
  client.send({ type: "say", text: "hello" });
  // @ts-expect-error server messages are not sent
  client.send({ type: "said", room: "a", text: "x" });
  const history: HistoryResult = await client.request({ type: "history", room: "a" });
  const done: Done = await client.request({ type: "work", ms: 1 }, { timeout: 100 });
  // @ts-expect-error a say has no reply
  await client.request({ type: "say", text: "x" });
  // @ts-expect-error the client adds the correlation id itself
  await client.request({ type: "history", id: "mine", room: "a" });
  // @ts-expect-error a history needs its room, id or not
  await client.request({ type: "history" });
  const pong: Pong = await client.request({ type: "ping" });
  const off = client.on("said", (message) => {
    const text: string = message.text;
    void text;
  });
  off();
  // @ts-expect-error clients do not receive say
  client.on("say", () => {});
  for await (const message of client.messages("historyResult")) {
    const texts: string[] = message.texts;
    void texts;
  }
  const offEvery = client.onMessage((message) => {
    const kind: ChatServerMessage["type"] = message.type;
    // @ts-expect-error any kind: narrow before reading a kind's properties
    void message.texts;
    void kind;
  });
  offEvery();
  for await (const message of client.messages()) {
    if (message.type === "said") {
      const text: string = message.text;
      void text;
    }
  }
  const leave = client.subscribe({ type: "join", room: "a" });
  leave({ type: "leave", room: "a" });
  const state: 0 | 1 | 2 | 3 = client.readyState;
  void [history, done, pong, state, WebSocketReplyError];
  client.close();
}

/** A channel without a discriminator: messages are sent, and received all together. */
interface Order { side: "buy" | "sell"; quantity: number }
interface Quote { symbol: string; price: number }

export async function plainUsage(): Promise<void> {
  const client = new WebSocketClient<Order, Quote, Record<never, never>, never>({ url: "wss://example.com/quotes", appPing: false });
  client.send({ side: "buy", quantity: 1 });
  // @ts-expect-error only orders are sent
  client.send({ symbol: "X", price: 1 });
  client.onMessage((quote) => {
    const price: number = quote.price;
    void price;
  });
  for await (const quote of client.messages()) {
    const symbol: string = quote.symbol;
    void symbol;
  }
  // @ts-expect-error no discriminator: received messages cannot be told apart by kind
  client.on("quote", () => {});
  // @ts-expect-error nor requested
  await client.request({ side: "buy", quantity: 1 });
}
`;

/** The Node client as a user writes it: \`ws\` injected (Node 20 has no global WebSocket). */
export const WS_NODE_CLIENT_USAGE = `import WebSocket from "ws";
import { WebSocketClient } from "./runtime/ws-client.js";
import type { ChatClientMessage, ChatReplies, ChatServerMessage } from "./chat.js";

export const client = new WebSocketClient<ChatClientMessage, ChatServerMessage, ChatReplies>({ url: "ws://127.0.0.1:1/rooms/a", WebSocket });
`;

/** The browser client: the global \`WebSocket\` is the default, and can be passed as well. */
export const WS_BROWSER_CLIENT_USAGE = `import { WebSocketClient } from "./runtime/ws-client.js";
import type { ChatClientMessage, ChatServerMessage } from "./chat.js";

export const client = new WebSocketClient<ChatClientMessage, ChatServerMessage>({ url: "ws://127.0.0.1:1/rooms/a", WebSocket });
`;
