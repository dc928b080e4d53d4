/**
 * The request a GraphQL server's hooks see (`authenticate`, `context`, the rate limiter's `key`),
 * over HTTP or WebSocket. Its own module so the execution core and the rate limiter, which imports
 * nothing else of it, both read it without importing each other.
 */
import type { IncomingHttpHeaders, IncomingMessage } from "node:http";

/** What `authenticate` and `context` know of a request. */
export interface GraphQLRequest {
  readonly transport: "http" | "websocket";
  /** The HTTP request, or the WebSocket upgrade request. */
  readonly raw: IncomingMessage;
  readonly headers: IncomingHttpHeaders;
  /** The `connection_init` payload (WebSocket only). */
  readonly connectionParams: Readonly<Record<string, unknown>> | undefined;
  /** Aborted when the operation times out or (over HTTP) the client disconnects: pass it on to slow I/O. */
  readonly signal: AbortSignal;
}
