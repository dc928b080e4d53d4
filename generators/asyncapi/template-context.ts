/**
 * What each template of the AsyncAPI style (templates/asyncapi/*.hbs) is rendered with. Code blocks
 * are printed by the generators (imports and re-exports by a FileBuilder, so they are derived from
 * what the file prints); the template holds the file's skeleton, its fixed code and its prose. A
 * user's override of a template gets the same context.
 */

/** Fields every generated file of the style gets. */
interface GeneratedFileContext {
  /** The input file, relative to the config's folder, for the header. */
  source: string;
  /** The API's `info.title`, safe inside a comment. */
  title: string;
  /** The API's `info.version`, safe inside a comment. */
  version: string;
}

/**
 * `types.ts`: the payload types, then for each channel and direction the `{ tag: Payload }` map type.
 * @template asyncapi/types.ts.hbs
 */
export interface TypesContext extends GeneratedFileContext {
  /** The payload schemas' type declarations, from the shared type emitter. */
  schemas: string;
  /** Per channel: the map types of each direction, the address's `<Channel>Params` and `<Channel>Replies`; empty without channels. */
  channels: string;
}

/**
 * `validators.ts`: `isX`/`validateX` for every payload schema and every direction's union; with
 * `validators: js` (the default) it renders `validators.js` and then `validators.d.ts`, each with
 * its own imports and code.
 * @template asyncapi/validators.ts.hbs
 */
export interface ValidatorsContext extends GeneratedFileContext {
  /** The import statements (types.ts, runtime/validation.ts). */
  imports: string;
  /** The validator functions and their constants, from the shared validator emitter. */
  code: string;
}

/**
 * `client.ts`: `createClient({ baseUrl })`, one typed member per channel (an `SseClient`, an
 * `HttpStreamClient` or a `WebSocketClient`), for browsers and Node. The template places the file's
 * imports and re-exports (the runtime's client API for the transports used) with `{{importBlock}}` and
 * `{{exportBlock}}`, and names the runtime exports its own code uses with `{{runtime "Credential"}}`.
 * @template asyncapi/client.ts.hbs
 */
export interface ClientContext extends GeneratedFileContext {
  /** Whether the API has SSE channels. */
  sse: boolean;
  /** Whether the API has WebSocket channels. */
  websocket: boolean;
  /** Whether a WebSocket channel requires first-message auth (then `createClient` has a `token` overload). */
  authenticated: boolean;
  /** `<member>Path(params)` of each channel whose address has `{parameters}`. */
  pathFunctions: string;
  /** `<Channel>Client`, the client type of each WebSocket channel. */
  channelTypes: string;
  /** The members of `RealtimeClient`, one per channel, with their JSDoc. */
  members: string;
  /** The members of the object `createClient` returns, one per channel. */
  implementations: string;
}

/**
 * The user's handler file: written once with a stub per message the server receives and per POST
 * stream, then only added to.
 * @template asyncapi/handlers.ts.hbs
 */
export interface HandlersContext {
  /** The API's `info.title`, safe inside a comment. */
  title: string;
  /** The import of `RealtimeHandlers` from the generated server.ts, by its path from the handler file's folder. */
  imports: string;
  /** The local name of server.ts's `RealtimeHandlers`, the type of `handlers`. */
  handlersType: string;
  /** One stub per channel with handlers, indented, each ending with a comma. */
  stubs: string[];
}

/**
 * `server.ts`: `createRealtimeServer(handlers, options)`, one SSE, HTTP stream or WebSocket endpoint
 * per channel, its handler, publish, option and server types, served with node:http. The template
 * places the file's imports and re-exports (the runtime's server API: CORS, `createHttpServer`, event
 * logs, fan-outs, Redis stores) with `{{importBlock}}` and `{{exportBlock}}`, and names the runtime
 * exports its own code uses with `{{runtime "MemoryEventLog"}}` (`from="sse-server"` for `SseHttpError`),
 * and node's with `{{import "IncomingMessage" from="node:http" type=true}}`.
 * @template asyncapi/server.ts.hbs
 */
export interface ServerContext extends GeneratedFileContext {
  /** Whether the API has SSE channels. */
  sse: boolean;
  /** Whether the API has HTTP stream (newline-delimited JSON) channels. */
  streams: boolean;
  /** Whether the API has WebSocket channels. */
  websocket: boolean;
  /** Whether the node:http listener answers some channel (SSE or HTTP stream). */
  routed: boolean;
  /** Whether endpoints authenticate (SSE or WebSocket channels): then the server's types take `Auth`. */
  auth: boolean;
  /** The WebSocket channels with first-message auth, as backticked keys (`chat`, `feed`); empty when none (then `websocket` options are optional). */
  verifies: string;
  /** Per channel: path functions, WebSocket connection, input and handler types, POST stream contexts. */
  declarations: string;
  /** The members of `RealtimeHandlers`, one per WebSocket channel with handlers and per POST stream; empty when the server needs none. */
  handlerMembers: string;
  /** The members of `RealtimePublish`, one per channel the server broadcasts on. */
  publishMembers: string;
  /** The endpoint of each channel, as constants in `createRealtimeServer`. */
  endpoints: string;
  /** The members of the `publish` object. */
  publishImplementation: string;
  /** The listener's route of each SSE and HTTP stream channel. */
  routes: string;
  /** The WebSocket endpoints' constants, comma-separated. */
  websocketEndpoints: string;
  /** Every endpoint's `close()` call, comma-separated. */
  closes: string;
  /** Whether a GET SSE channel does not resume: `withoutResume(log)` is printed. */
  withoutResume: boolean;
  /** Whether an SSE channel has path parameters: `notFound()` is printed. */
  notFound: boolean;
}

/**
 * `mock.ts` (written by `codegen mock` only): `mockHandlers` (samples as replies, POST streams
 * sending a sample of each event), `timedMessages` (a publish call per message the server sends by
 * itself) and `serveMock(options)`. The template places the imports with `{{importBlock}}`.
 * @template asyncapi/mock.ts.hbs
 */
export interface MockContext extends GeneratedFileContext {
  /** Which variant of the sample values (`codegen mock --seed`): the same number, the same values. */
  variant: number;
  /** The members of `mockHandlers`: one object of message handlers per WebSocket channel, one function per POST stream. */
  handlers: string[];
  /** One `(publish) => publish.<channel>(...)` entry per message the timer sends. */
  timed: string[];
}
