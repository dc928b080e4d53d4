/**
 * A typed WebSocket endpoint on `ws`, mountable on any `http.Server` through its `upgrade` event.
 * Clients send `In` messages (a union told apart by `discriminator`), each validated and passed to
 * the handler of its kind; the server sends `Out` messages. How each rule of the conventions is met:
 *
 * - **Handshake** (plain HTTP answers, before any WebSocket exists): a path other than the
 *   channel's is left to other listeners; an `Origin` not allowed → 403; no acceptable
 *   subprotocol → 400 (RFC 6455 §4.2.2 lets a server refuse the handshake; answering 101 without
 *   a protocol would only make the client fail the connection); `authenticate` refusing → 401 or
 *   403; `authenticate` throwing → 500; shutting down → 503.
 * - **First-message auth** instead (or on top): the first message must be `{ type: "auth", token }`
 *   within `timeoutMs` (5 s); late, missing or refused → close 1008. Messages sent right behind
 *   it are held until the token is verified, then handled in order.
 * - **Messages**: a binary frame → 1003; larger than `maxPayload` → 1009 (by `ws`, before the
 *   message is buffered); invalid UTF-8 → 1007 (by `ws`); not JSON or not a valid `In` → 1008 with
 *   the first failing path as the reason, or, with `errorReply`, an error message and the socket
 *   stays open; a handler that throws or rejects → 1011 "Internal error" (the error goes to
 *   `onError`, never to the client).
 * - **Request/reply**: a message with a correlation id (`id`) whose handler returns a message gets
 *   it back carrying the same id.
 * - **Liveness**: a protocol ping every `heartbeatMs` (30 s); a socket that showed no sign of life
 *   (pong or message) for a whole interval is terminated. `{ type: "ping" }` is answered
 *   `{ type: "pong" }` for browsers, which cannot send protocol pings, with the ping's correlation
 *   id when it has one (`{ type: "ping", id: 7 }` → `{ type: "pong", id: 7 }`): a client may
 *   `request()` it. The runtime answers it before validation and authentication, so a bare
 *   heartbeat ping always works; a `ping` handler is optional and runs only with `appPing: false`.
 * - **Limits**: `maxConnections` per endpoint: one more is accepted and closed at once with 1013
 *   "Try Again Later", a code browsers can read (an HTTP 503 would reach them as a bare 1006);
 *   `maxConnectionsPerClient` (100): one more upgrade from the same client is refused with HTTP 429
 *   and `Retry-After` before any WebSocket exists, so that a flood costs no sockets and no client
 *   can take all of `maxConnections`;
 *   `rateLimit` per socket (100 messages/s by default): beyond it, close 1008, or with
 *   `onExceeded: "drop"` the message is dropped (answered by `errorReply` when there is one);
 *   `maxBufferedBytes`: a client that reads too slowly is terminated rather than buffered for.
 * - **Broadcast**: every socket joins the topic named by its channel address (`/rooms/42`) and any
 *   topic its handlers `subscribe` it to; `publish(topic, message)` goes through the `FanOut`
 *   (in-memory by default), so instances sharing one reach each other's sockets.
 * - **Shutdown**: `close()` refuses new upgrades, closes every socket with 1001 and waits for them
 *   (terminating those that do not answer within `closeTimeoutMs`).
 */
import type { IncomingMessage, Server } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocketServer, type RawData, type WebSocket } from "ws";
import type { ValidationError, ValidationResult } from "./validation.js";
import { OpenCounts, clientOf } from "./client-limits.js";
import { Peer, type RateLimit, type WebSocketConnection } from "./ws-connection.js";
import { MemoryFanOut, TopicRouter, type FanOut } from "./pubsub.js";
import { originMatcher, upgradeOriginAllowed, type CorsOptions } from "./cors-policy.js";
import { chooseProtocol, compilePath, offeredProtocols, refuseUpgrade, type PathParams } from "./ws-handshake.js";
import { CloseCode, MESSAGE_DEFAULTS, type MessageOf, type ReplyOf } from "./ws-protocol.js";

export type { WebSocketConnection } from "./ws-connection.js";

/** The handler of messages of kind `T`; a kind that has a reply returns it (or a promise of it). */
export type MessageHandler<In extends Readonly<Record<K, string>>, Out, Replies, Ctx, K extends string, T extends In[K]> = (
  message: MessageOf<In, K, T>,
  connection: WebSocketConnection<Out, Ctx>,
) => ReplyOf<Replies, T> | Promise<ReplyOf<Replies, T>>;

/**
 * A handler per message kind. The application-level ping (`ping`) may go without one: the runtime
 * answers it itself, so a manifest can declare `ping` → `pong` as a request/reply with no code.
 */
export type MessageHandlers<In extends Readonly<Record<K, string>>, Out, Replies, Ctx, K extends string> = {
  [T in Exclude<In[K], AppPingKind>]: MessageHandler<In, Out, Replies, Ctx, K, T>;
} & {
  [T in Extract<In[K], AppPingKind>]?: MessageHandler<In, Out, Replies, Ctx, K, T>;
};

/** The kind of the application-level ping the runtime answers by default. */
type AppPingKind = (typeof MESSAGE_DEFAULTS)["ping"];

/** What `authenticate` decides about a handshake: who it is, or the HTTP status that refuses it. */
export type HandshakeAuth<Ctx> = { context: Ctx } | { status: 401 | 403; message?: string };

export interface FirstMessageAuth<Ctx> {
  /** Resolves the token of the first message to who it is, or `undefined` to refuse (close 1008). */
  verify(token: string, request: IncomingMessage): Ctx | undefined | Promise<Ctx | undefined>;
  /** Milliseconds a new socket has to send it. Default 5000. */
  timeoutMs?: number;
  /** The first message's kind. Default `"auth"`. */
  type?: string;
  /** Its property that holds the token. Default `"token"`. */
  tokenKey?: string;
}

/** A message the server could not accept, for `errorReply` to describe to the client. */
export interface MessageProblem {
  reason: "invalid-json" | "invalid-message" | "rate-limited";
  /** One line saying what is wrong, without anything from the server's internals. */
  message: string;
  /** The validator's errors (`invalid-message` only). */
  errors: readonly ValidationError[];
  /** The correlation id of the message, when it had one; the answer carries it back. */
  id: string | number | undefined;
}

export interface WebSocketEndpointOptions<In extends Readonly<Record<K, string>>, Out, Replies, Ctx, K extends string> {
  /** The channel address, e.g. `/chat` or `/rooms/{roomId}`. */
  path: string;
  /** The validator of the whole `In` union (generated from the manifest). */
  validate: (value: unknown) => ValidationResult<In>;
  handlers: MessageHandlers<In, Out, Replies, Ctx, K>;
  /** The property naming a message's kind. Default `"type"`. */
  discriminator?: K;
  /** The property carrying a request's correlation id. Default `"id"`. */
  correlationKey?: string;
  /**
   * The CORS options every generated server takes; here only `origins` matters: the pages allowed
   * to open a socket, matched as for HTTP. Default: the server's own origin only.
   */
  cors?: Pick<CorsOptions, "origins"> | undefined;
  /** Subprotocols spoken, in order of preference. When given, a client must offer one of them. */
  protocols?: readonly string[];
  /** Authenticates the upgrade request itself (a cookie, or a token in the URL's query). */
  authenticate?: (request: IncomingMessage) => HandshakeAuth<Ctx> | Promise<HandshakeAuth<Ctx>>;
  /** Authenticates by a token in the first message instead of, or after, the handshake. */
  firstMessageAuth?: FirstMessageAuth<Ctx>;
  /** Largest message in bytes; a larger one closes the socket with 1009. Default 65 536. */
  maxPayload?: number;
  /**
   * permessage-deflate (RFC 7692), off by default: it costs CPU and memory per socket and makes
   * small messages bigger. `threshold`: messages smaller than this many bytes are sent
   * uncompressed (default 1024). Contexts are not kept between messages, to bound memory.
   */
  perMessageDeflate?: boolean | { threshold?: number };
  /** Milliseconds between protocol pings; 0 turns the heartbeat off. Default 30 000. */
  heartbeatMs?: number;
  /** Most open sockets on this endpoint. Default 10 000. */
  maxConnections?: number;
  /**
   * Most open sockets (and handshakes in progress) per client; one more upgrade is refused with
   * HTTP 429 and `Retry-After`. A client is the context `authenticate` gave the handshake, by its
   * identity (a string or number, or its `id` or `sub`), else its `clientKey`. Default 100.
   */
  maxConnectionsPerClient?: number;
  /**
   * Who a client is when the handshake gives no identity (first-message auth, or none). Default:
   * the remote address; behind a reverse proxy, read the address it forwards (from a proxy you trust).
   */
  clientKey?: (request: IncomingMessage) => string;
  /** Per-socket message rate; `false` for none. Default 100 messages per 1000 ms, then close. */
  rateLimit?: (RateLimit & { onExceeded?: "close" | "drop" }) | false;
  /** Bytes a slow reader may have queued before it is terminated. Default 4 MiB. */
  maxBufferedBytes?: number;
  /**
   * The application-level ping and its answer, sent by the runtime itself with the ping's
   * correlation id; `false` to answer none (a ping is then a message like any other). Default
   * `ping`/`pong`.
   */
  appPing?: { ping: string; pong: string } | false;
  /** Answers a bad message with this message instead of closing the socket with 1008. */
  errorReply?: (problem: MessageProblem) => Out;
  /** Where `publish` goes. Default: a `MemoryFanOut` of this endpoint alone. */
  fanOut?: FanOut;
  /** Milliseconds `close()` waits for clients to answer the close frame. Default 3000. */
  closeTimeoutMs?: number;
  /** A socket is open and authenticated: handlers will now see its messages. */
  onOpen?: (connection: WebSocketConnection<Out, Ctx>) => void;
  onClose?: (connection: WebSocketConnection<Out, Ctx>, code: number, reason: string) => void;
  /** An error of a handler or of an auth hook, for logging; the client never sees it. */
  onError?: (error: unknown, connection: WebSocketConnection<Out, Ctx> | undefined) => void;
}

/** The part of an endpoint that an `http.Server`'s `upgrade` event needs. */
export interface UpgradeHandler {
  /** Takes over an upgrade request on this endpoint's path; `false` when the path is another. */
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): boolean;
}

export interface WebSocketEndpoint<Out> extends UpgradeHandler {
  /** Sends `message` to every socket, on every instance sharing the `FanOut`, that joined `topic`. */
  publish(topic: string, message: Out): Promise<void>;
  /** Open sockets. */
  readonly size: number;
  /** Refuses new sockets, closes the open ones with 1001 and resolves when they are gone. */
  close(): Promise<void>;
}

/** Held back at most while a first-message token is verified; more is a flood. */
const MAX_BACKLOG = 64;

/**
 * Creates the endpoint of one channel. `In`/`Out`: the client → server and server → client message
 * unions; `Replies`: the reply of each request kind; `Ctx`: what authentication yields (left
 * `undefined` when the endpoint authenticates nothing); `K`: the discriminator property.
 */
export function createWebSocketEndpoint<
  In extends Readonly<Record<K, string>>,
  // Any JSON value: a channel without a discriminator may send strings, numbers or arrays.
  Out,
  Replies = Record<never, never>,
  Ctx = undefined,
  K extends string = "type",
>(options: WebSocketEndpointOptions<In, Out, Replies, Ctx, K>): WebSocketEndpoint<Out> {
  const discriminator = options.discriminator ?? (MESSAGE_DEFAULTS.discriminator as K);
  const correlationKey = options.correlationKey ?? MESSAGE_DEFAULTS.correlationKey;
  const matchPath = compilePath(options.path);
  const allowsOrigin = options.cors ? originMatcher(options.cors.origins) : undefined;
  const protocols = options.protocols ?? [];
  const firstMessage = options.firstMessageAuth;
  const authType = firstMessage?.type ?? MESSAGE_DEFAULTS.auth;
  const tokenKey = firstMessage?.tokenKey ?? MESSAGE_DEFAULTS.tokenKey;
  const appPing = options.appPing ?? { ping: MESSAGE_DEFAULTS.ping, pong: MESSAGE_DEFAULTS.pong };
  // The answer to a ping without a correlation id (a heartbeat) is always the same text.
  const pong = appPing && JSON.stringify({ [discriminator]: appPing.pong });
  const rateLimit = options.rateLimit === false ? undefined : (options.rateLimit ?? { messages: 100, intervalMs: 1000 });
  const maxConnections = options.maxConnections ?? 10_000;
  const perClient = new OpenCounts(Infinity, options.maxConnectionsPerClient ?? 100);
  const maxBufferedBytes = options.maxBufferedBytes ?? 4 * 1024 * 1024;
  // Looked up by the kind of a message the validator accepted: one signature for all of them.
  const handlers = options.handlers as unknown as Record<string, (message: In, connection: WebSocketConnection<Out, Ctx>) => unknown>;
  const router = new TopicRouter(options.fanOut ?? new MemoryFanOut());
  const deflate = options.perMessageDeflate;
  const sockets = new WebSocketServer({
    noServer: true,
    clientTracking: false,
    maxPayload: options.maxPayload ?? 65_536,
    perMessageDeflate: deflate
      ? {
          threshold: (deflate === true ? undefined : deflate.threshold) ?? 1024,
          serverNoContextTakeover: true,
          clientNoContextTakeover: true,
        }
      : false,
    handleProtocols: (offered) => chooseProtocol(offered, protocols),
  });
  const peers = new Set<Peer<Out, Ctx>>();
  let closing: Promise<void> | undefined;
  let heartbeat: ReturnType<typeof setInterval> | undefined;
  let allClosed: (() => void) | undefined;

  const report = (error: unknown, peer?: Peer<Out, Ctx>): void => {
    try {
      options.onError?.(error, peer);
    } catch {
      // A failing logger must not take the socket (or the process) down with it.
    }
  };

  const fail = (peer: Peer<Out, Ctx>, error: unknown): void => {
    report(error, peer);
    peer.close(CloseCode.InternalError, "Internal error");
  };

  const reject = (peer: Peer<Out, Ctx>, problem: MessageProblem): void => {
    if (options.errorReply) peer.send(withId(options.errorReply(problem), problem.id));
    else peer.close(CloseCode.PolicyViolation, problem.message);
  };

  // Only an object reply can carry the request's id; a string, number or array goes as it is.
  const withId = <M>(message: M, id: string | number | undefined): M =>
    id === undefined || typeof message !== "object" || message === null || Array.isArray(message)
      ? message
      : ({ ...message, [correlationKey]: id } as M);

  const answer = (peer: Peer<Out, Ctx>, reply: unknown, id: string | number | undefined): void => {
    if (reply !== undefined && reply !== null) peer.send(withId(reply as Out, id));
  };

  const dispatch = (peer: Peer<Out, Ctx>, value: unknown): void => {
    const id = correlationOf(value, correlationKey);
    const result = options.validate(value);
    if (!result.ok) {
      reject(peer, { reason: "invalid-message", message: describe(result.errors), errors: result.errors, id });
      return;
    }
    const kind = result.value[discriminator];
    // The validator admits only declared kinds and `handlers` has one per kind; `hasOwn` keeps a
    // kind named like an Object.prototype member (`constructor`) from reaching inherited code.
    const handler = Object.hasOwn(handlers, kind) ? handlers[kind] : undefined;
    if (!handler) {
      reject(peer, { reason: "invalid-message", message: `Unknown message type: ${kind}`, errors: [], id });
      return;
    }
    let reply: unknown;
    try {
      reply = handler(result.value, peer);
    } catch (error) {
      fail(peer, error);
      return;
    }
    if (reply instanceof Promise)
      reply.then(
        (value: unknown) => answer(peer, value, id),
        (error: unknown) => fail(peer, error),
      );
    else answer(peer, reply, id);
  };

  /** The socket is authenticated: it joins its channel's topic and handlers see its messages. */
  const admit = (peer: Peer<Out, Ctx>): void => {
    peer.subscribe(peer.channel).catch((error: unknown) => fail(peer, error));
    options.onOpen?.(peer);
  };

  const authenticateFirst = (peer: Peer<Out, Ctx>, value: unknown): void => {
    clearTimeout(peer.authTimer);
    peer.authTimer = undefined;
    const token = isRecord(value) && value[discriminator] === authType ? value[tokenKey] : undefined;
    if (typeof token !== "string" || !firstMessage) {
      peer.close(CloseCode.PolicyViolation, `Authentication required: the first message must be "${authType}"`);
      return;
    }
    peer.backlog = [];
    Promise.resolve()
      .then(() => firstMessage.verify(token, peer.request))
      .then(
        (context) => {
          if (!peer.open) return;
          if (context === undefined) {
            peer.close(CloseCode.PolicyViolation, "Authentication failed");
            return;
          }
          peer.context = context;
          const backlog = peer.backlog ?? [];
          peer.backlog = undefined;
          admit(peer);
          for (const held of backlog) if (peer.open) dispatch(peer, held);
        },
        (error: unknown) => fail(peer, error),
      );
  };

  const receive = (peer: Peer<Out, Ctx>, data: RawData, isBinary: boolean): void => {
    // A socket this side is closing (refused auth, a bad message) reads no further: messages that
    // arrived right behind the refused one must not reach a handler without a context.
    if (!peer.open) return;
    peer.alive = true;
    if (isBinary) {
      peer.close(CloseCode.UnsupportedData, "Binary messages are not accepted");
      return;
    }
    if (rateLimit !== undefined && !peer.take(Date.now())) {
      if (rateLimit?.onExceeded !== "drop") peer.close(CloseCode.PolicyViolation, "Rate limit exceeded");
      else if (options.errorReply)
        peer.send(options.errorReply({ reason: "rate-limited", message: "Rate limit exceeded", errors: [], id: undefined }));
      return;
    }
    let value: unknown;
    try {
      // Text frames arrive as a Buffer (`binaryType` stays "nodebuffer").
      value = JSON.parse(data.toString());
    } catch {
      reject(peer, { reason: "invalid-json", message: "Invalid message: not JSON", errors: [], id: undefined });
      return;
    }
    if (pong && isRecord(value) && value[discriminator] === appPing.ping) {
      const id = correlationOf(value, correlationKey);
      peer.deliver(id === undefined ? pong : JSON.stringify({ [discriminator]: appPing.pong, [correlationKey]: id }));
    } else if (peer.authTimer) {
      authenticateFirst(peer, value);
    } else if (peer.backlog) {
      if (peer.backlog.length < MAX_BACKLOG) peer.backlog.push(value);
      else peer.close(CloseCode.PolicyViolation, "Too many messages before authentication");
    } else {
      dispatch(peer, value);
    }
  };

  const accept = (
    socket: WebSocket,
    transport: Duplex,
    request: IncomingMessage,
    channel: string,
    params: PathParams,
    context: Ctx,
  ): void => {
    // `ws` closes the socket itself with the right code (1002, 1007, 1009) before emitting these.
    socket.on("error", () => {});
    if (peers.size >= maxConnections || closing) {
      socket.close(closing ? CloseCode.GoingAway : CloseCode.TryAgainLater, closing ? "Server shutting down" : "Too many connections");
      return;
    }
    const peer = new Peer<Out, Ctx>(socket, transport, request, channel, params, context, router, rateLimit, maxBufferedBytes);
    peers.add(peer);
    socket.on("pong", () => (peer.alive = true));
    socket.on("message", (data, isBinary) => receive(peer, data, isBinary));
    socket.on("close", (code, reason) => {
      peers.delete(peer);
      clearTimeout(peer.authTimer);
      peer.leaveAll().catch((error: unknown) => report(error, peer));
      try {
        options.onClose?.(peer, code, reason.toString());
      } catch (error) {
        report(error, peer);
      }
      if (peers.size === 0) allClosed?.();
    });
    if (firstMessage) {
      peer.authTimer = setTimeout(() => peer.close(CloseCode.PolicyViolation, "Authentication timed out"), firstMessage.timeoutMs ?? 5000);
    } else {
      admit(peer);
    }
  };

  const upgrade = (request: IncomingMessage, socket: Duplex, head: Buffer, channel: string, params: PathParams, context: Ctx): void => {
    // Counted per client from here until the TCP connection closes; one too many is refused.
    if (socket.destroyed) return;
    const client = clientOf(request, context, options.clientKey);
    if (perClient.admit(client) !== undefined) {
      refuseUpgrade(socket, 429, `At most ${perClient.maxPerClient} connections per client`, { "Retry-After": "5" });
      return;
    }
    socket.once("close", () => perClient.release(client));
    sockets.handleUpgrade(request, socket, head, (client) => accept(client, socket, request, channel, params, context));
  };

  const heartbeatMs = options.heartbeatMs ?? 30_000;
  if (heartbeatMs > 0) {
    heartbeat = setInterval(() => {
      for (const peer of peers) {
        if (!peer.alive) {
          peer.socket.terminate();
        } else if (peer.open) {
          peer.alive = false;
          peer.socket.ping();
        }
      }
    }, heartbeatMs);
    heartbeat.unref();
  }

  return {
    handleUpgrade(request, socket, head) {
      const params = matchPath(request.url);
      if (!params) return false;
      if (closing) {
        refuseUpgrade(socket, 503, "The server is shutting down", { "Retry-After": "5" });
        return true;
      }
      if (!upgradeOriginAllowed(request, allowsOrigin)) {
        refuseUpgrade(socket, 403, "Origin not allowed");
        return true;
      }
      if (protocols.length > 0 && chooseProtocol(offeredProtocols(request), protocols) === false) {
        refuseUpgrade(socket, 400, `Unsupported subprotocol: offer one of ${protocols.join(", ")}`);
        return true;
      }
      const url = request.url ?? "/";
      const query = url.indexOf("?");
      const channel = query === -1 ? url : url.slice(0, query);
      const authenticate = options.authenticate;
      if (!authenticate) {
        upgrade(request, socket, head, channel, params, undefined as Ctx);
        return true;
      }
      // The client may hang up while `authenticate` runs; that must not be an unhandled error.
      const ignore = (): void => {};
      socket.on("error", ignore);
      Promise.resolve()
        .then(() => authenticate(request))
        .then(
          (decision) => {
            socket.off("error", ignore);
            if ("status" in decision)
              refuseUpgrade(socket, decision.status, decision.message ?? (decision.status === 401 ? "Unauthorized" : "Forbidden"));
            else upgrade(request, socket, head, channel, params, decision.context);
          },
          (error: unknown) => {
            socket.off("error", ignore);
            report(error);
            refuseUpgrade(socket, 500, "Internal Server Error");
          },
        );
      return true;
    },

    async publish(topic, message) {
      await router.publish(topic, JSON.stringify(message));
    },

    get size() {
      return peers.size;
    },

    close() {
      closing ??= new Promise<void>((resolve) => {
        clearInterval(heartbeat);
        const done = (): void => {
          clearTimeout(timer);
          sockets.close();
          resolve();
        };
        const timer = setTimeout(() => {
          for (const peer of peers) peer.socket.terminate();
        }, options.closeTimeoutMs ?? 3000);
        if (peers.size === 0) {
          done();
          return;
        }
        allClosed = done;
        for (const peer of peers) peer.close(CloseCode.GoingAway, "Server shutting down");
      });
      return closing;
    },
  };
}

/**
 * Routes an `http.Server`'s upgrade requests to the endpoints by path; a path none of them serves
 * is answered 404. Returns the function that detaches the listener.
 */
export function serveWebSockets(server: Server, endpoints: readonly UpgradeHandler[]): () => void {
  const listener = (request: IncomingMessage, socket: Duplex, head: Buffer): void => {
    for (const endpoint of endpoints) if (endpoint.handleUpgrade(request, socket, head)) return;
    refuseUpgrade(socket, 404, "Not Found");
  };
  server.on("upgrade", listener);
  return () => server.off("upgrade", listener);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A message's correlation id: a string or a number, nothing else is echoed back. */
function correlationOf(value: unknown, key: string): string | number | undefined {
  if (!isRecord(value)) return undefined;
  const id = value[key];
  return typeof id === "string" || typeof id === "number" ? id : undefined;
}

/** The close reason (or error message) of an invalid message: its first failing path. */
function describe(errors: readonly ValidationError[]): string {
  const first = errors[0];
  if (!first) return "Invalid message";
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : "";
  return `Invalid message: ${first.path || "/"} ${first.message}${more}`;
}
