/**
 * Subscriptions (and queries) over WebSocket: graphql-ws's server (`graphql-transport-ws`) on a
 * `ws` WebSocketServer that shares the HTTP server's port.
 *
 * - The `Origin` header is checked at the upgrade against `cors.origins` (the HTTP side's
 *   allow-list, by the same matcher), or the server's own origin without it: a browser page of
 *   another origin is answered 403 before any WebSocket exists (WebSocket has no same-origin policy).
 * - Connection limits are checked at the upgrade too, so a flood costs no WebSocket: beyond
 *   `maxConnections` the answer is HTTP 503, beyond `maxConnectionsPerClient` HTTP 429 (a refused
 *   handshake has no close code; graphql-ws clients retry it with back-off, which suits both).
 * - `connection_init`'s payload authenticates the connection (`authenticate` sees it as
 *   `connectionParams`); a refusal closes it with 4403 Forbidden.
 * - Each `subscribe` goes through the same allow-list, limits, `@auth` and error masking as HTTP.
 *   Beyond `maxOperations` in progress on the connection it gets an `error` message
 *   (OPERATION_LIMIT_EXCEEDED): one operation refused, the connection and the others go on. A
 *   subscribe resolver that does not return its stream within `timeout` gets a TIMEOUT error.
 * - A connection sending more than `messageRate` messages per window is closed with 1008 (policy
 *   violation, RFC 6455 section 7.4.1): the protocol has no way to ask a client to slow down,
 *   and graphql-ws clients do not reconnect after a 1008. A message larger than `maxPayload`
 *   closes it with 1009.
 * - The legacy `graphql-ws` subprotocol of subscriptions-transport-ws is not spoken. graphql-ws
 *   would decline it in the handshake, which a client reports only as a failed connection; it is
 *   accepted here instead, so that graphql-ws closes the socket at once with 4406 "Subprotocol not
 *   acceptable", a reason the client can show.
 *
 * Close codes, all told: 1001 the server shuts down (`close()`); 1008 over `messageRate`; 1009 a
 * message over `maxPayload`; and graphql-ws's own: 4400 an unparsable message, 4401 `subscribe`
 * before `connection_ack`, 4403 credentials refused, 4406 the legacy subprotocol, 4408 no
 * `connection_init` within `connectionInitTimeout`, 4409 an operation id already in use, 4429 a
 * second `connection_init`, 4500 an internal error. A peer that misses a keep-alive ping is
 * dropped without a close frame (its side sees 1006).
 */
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { GraphQLError, type FormattedExecutionResult, type GraphQLFormattedError } from "graphql";
import { useServer } from "graphql-ws/use/ws";
import { WebSocket, WebSocketServer } from "ws";
import { OpenCounts } from "./client-limits.js";
import { originMatcher, upgradeOriginAllowed } from "./cors-policy.js";
import { ErrorCode, codedError } from "./graphql-errors.js";
import type { Executor, GraphQLRequest } from "./graphql-execution.js";
import type { Viewer } from "./graphql-schema.js";

const PROTOCOL = "graphql-transport-ws";
const LEGACY_PROTOCOL = "graphql-ws";

interface Connection<V> {
  request: Omit<GraphQLRequest, "signal">;
  viewer: V | null;
}

export interface WebSocketEndpoint {
  /** Takes over an HTTP upgrade on the GraphQL path; `false` when the path is another one. */
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): boolean;
  close(): Promise<void>;
}

export function createWebSocketEndpoint<Context, V extends Viewer>(executor: Executor<Context, V>, path: string): WebSocketEndpoint {
  const options = executor.options.websocket ?? {};
  const sockets = new WebSocketServer({ noServer: true, maxPayload: options.maxPayload ?? executor.options.maxBodyBytes ?? 102_400 });
  const connections = new WeakMap<object, Connection<V>>();
  const counts = new OpenCounts(options.maxConnections ?? 10_000, options.maxConnectionsPerClient ?? 100);
  const maxOperations = options.maxOperations ?? 100;
  const cors = executor.options.cors;
  const allowsOrigin = cors ? originMatcher(cors.origins) : undefined;
  const messageRate = options.messageRate === false ? undefined : (options.messageRate ?? { limit: 200, windowMs: 10_000 });
  const format = (error: GraphQLError): GraphQLFormattedError => {
    const formatted = executor.formatError(error);
    return formatted instanceof GraphQLError ? formatted.toJSON() : { message: formatted.message };
  };

  const server = useServer(
    {
      schema: executor.schema,
      connectionInitWaitTimeout: options.connectionInitTimeout ?? 3000,
      execute: executor.execute,
      subscribe: executor.subscribe,
      async onConnect(context) {
        const request = {
          transport: "websocket" as const,
          raw: context.extra.request,
          headers: context.extra.request.headers,
          connectionParams: context.connectionParams,
        };
        try {
          const viewer = await executor.authenticate({ ...request, signal: new AbortController().signal });
          connections.set(context, { request, viewer });
          return true;
        } catch {
          return false;
        }
      },
      async onSubscribe(context, _id, payload) {
        const connection = connections.get(context);
        if (!connection) return [new GraphQLError("The connection is not acknowledged.")];
        // A message that arrived over the rate, on a socket now closing: nothing of it runs.
        if (context.extra.socket.readyState !== WebSocket.OPEN) return [new GraphQLError("The connection is closing.")];
        // graphql-ws lists the operation before it asks here, so it counts itself.
        if (Object.keys(context.subscriptions).length > maxOperations) {
          return [codedError(`At most ${maxOperations} operations may be in progress on one connection.`, ErrorCode.OperationLimit)];
        }
        return executor.prepare(payload, connection.request, connection.viewer);
      },
      onNext(_context, _id, _payload, _args, result) {
        if (!result.errors) return undefined;
        // Key by key: graphql's FormattedExecutionResult has no room for an `undefined` data or extensions.
        const formatted: FormattedExecutionResult = { errors: result.errors.map(format) };
        if (result.data !== undefined) formatted.data = result.data;
        if (result.extensions !== undefined) formatted.extensions = result.extensions;
        return formatted;
      },
      onError(_context, _id, _payload, errors) {
        return errors.map(format);
      },
    },
    sockets,
    options.keepAlive ?? 12_000,
  );
  // useServer installs graphql-ws's own choice, which declines the legacy protocol (see above).
  sockets.options.handleProtocols = (offered) =>
    offered.has(PROTOCOL) ? PROTOCOL : offered.has(LEGACY_PROTOCOL) ? LEGACY_PROTOCOL : false;

  return {
    handleUpgrade(request, socket, head) {
      if (pathOf(request.url) !== path) return false;
      if (!upgradeOriginAllowed(request, allowsOrigin)) {
        refuse(socket, "403 Forbidden");
        return true;
      }
      const client = executor.clientKey(request);
      // Open WebSockets and handshakes in progress, in all and per client.
      const refusal = counts.admit(client);
      if (refusal) {
        refuse(socket, refusal === "total" ? "503 Service Unavailable" : "429 Too Many Requests", "Retry-After: 5\r\n");
        return true;
      }
      // The TCP socket closes once, whether the handshake fails or the WebSocket ends later.
      socket.once("close", () => counts.release(client));
      sockets.handleUpgrade(request, socket, head, (websocket) => {
        if (messageRate) limitMessages(websocket, messageRate.limit, messageRate.windowMs);
        sockets.emit("connection", websocket, request);
      });
      return true;
    },
    async close() {
      await server.dispose();
    },
  };
}

/**
 * Closes `websocket` with 1008 once it sends more than `limit` messages in a window. Listening
 * before graphql-ws does, it closes the socket before graphql-ws reads the message over the
 * limit; `onSubscribe` then refuses that message, and anything it would send is dropped.
 */
function limitMessages(websocket: WebSocket, limit: number, windowMs: number): void {
  let count = 0;
  let windowEnd = 0;
  websocket.on("message", () => {
    const now = Date.now();
    if (now >= windowEnd) {
      count = 0;
      windowEnd = now + windowMs;
    }
    if (++count > limit && websocket.readyState === WebSocket.OPEN) websocket.close(1008, "Too many messages");
  });
}

/** Answers an upgrade with a bodyless HTTP status, before any WebSocket exists. */
function refuse(socket: Duplex, status: string, headers = ""): void {
  socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n${headers}\r\n`);
}

export function pathOf(url: string | undefined): string {
  const target = url ?? "/";
  const query = target.indexOf("?");
  return query === -1 ? target : target.slice(0, query);
}
