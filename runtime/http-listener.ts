/**
 * The hardened `http.Server` every style's server is hosted on (REST, GraphQL, realtime): finite
 * limits on what a connection may cost before any listener runs, and node's own refusals written
 * as Problem Details (RFC 9457) instead of its empty bodies.
 *
 * | limit | default | past it |
 * |---|---|---|
 * | request head (request line + headers) | 16 KiB | 431 |
 * | time for the head to arrive (slow headers) | 20 s | 408, connection closed |
 * | time for the whole request to arrive | 60 s | 408, connection closed |
 * | idle keep-alive connection | 5 s | closed |
 *
 * node's defaults are 16 KiB, 60 s, 300 s and 5 s, with the timeouts checked only every 30 s; here
 * they are checked every quarter of the shorter timeout (at most every 5 s), so a slow client is
 * closed soon after its time is up. HTTP/1.1 without `Host` → 400; an `Expect` other than
 * `100-continue` → 417. Streams (SSE responses, WebSockets) are not cut by these: they bound how
 * long a request takes to arrive, not how long its answer lasts. Bodies have their own, shorter
 * time limit in each style's reader (30 s, 408).
 */
import { randomUUID } from "node:crypto";
import { STATUS_CODES, createServer as createNodeServer } from "node:http";
import type { IncomingMessage, Server, ServerOptions as NodeServerOptions, ServerResponse } from "node:http";
import type { Duplex } from "node:stream";

/** @public */
export interface HttpServerOptions {
  /** Largest request head (request line and headers) in bytes; 431 above. Default 16 KiB. */
  maxHeaderSize?: number;
  /** Milliseconds for the whole request to arrive; 408 after. Default 60 000. */
  requestTimeout?: number;
  /** Milliseconds for the request head to arrive; 408 after. Default 20 000. */
  headersTimeout?: number;
  /** Milliseconds an idle keep-alive connection stays open. Default 5 000. */
  keepAliveTimeout?: number;
}

/** A node:http request listener (Express and Connect apps are ones too). */
export type RequestListener = (request: IncomingMessage, response: ServerResponse) => void;

/**
 * A listener that may pass a request it does not serve on (`next`), as Express and Connect
 * middleware does: the generated REST and GraphQL servers' listeners, and what the Fastify and Koa
 * mounts take.
 * @public
 */
export type NodeListener = (request: IncomingMessage, response: ServerResponse, next?: (error?: unknown) => void) => void;

/**
 * An `http.Server` around `listener`, with the limits above and node's early refusals (head too
 * large → 431, malformed → 400, too slow → 408, no `Host` → 400, unmet `Expect` → 417) answered
 * as `application/problem+json` with a `Trace-Id`, on a connection that then closes.
 *
 * @throws RangeError for a limit that is not a positive integer.
 * @public
 */
export function createHttpServer(listener: RequestListener, options: HttpServerOptions = {}): Server {
  const headersTimeout = positive("headersTimeout", options.headersTimeout ?? 20_000);
  const requestTimeout = positive("requestTimeout", options.requestTimeout ?? 60_000);
  const settings: NodeServerOptions = {
    maxHeaderSize: positive("maxHeaderSize", options.maxHeaderSize ?? 16 * 1024),
    // node refuses a headersTimeout above requestTimeout.
    headersTimeout: Math.min(headersTimeout, requestTimeout),
    requestTimeout,
    keepAliveTimeout: positive("keepAliveTimeout", options.keepAliveTimeout ?? 5_000),
    connectionsCheckingInterval: Math.max(100, Math.min(5_000, Math.floor(Math.min(headersTimeout, requestTimeout) / 4))),
    // Checked below instead, so the 400 is a problem like every other.
    requireHostHeader: false,
  };
  const server = createNodeServer(settings, (request, response) => {
    // RFC 9112 3.2: an HTTP/1.1 request without Host is a 400 (node's own check, as a problem).
    if (request.httpVersionMajor === 1 && request.httpVersionMinor === 1 && request.headers.host === undefined) {
      refuse(response, 400, "An HTTP/1.1 request must carry a Host header.");
      return;
    }
    listener(request, response);
  });
  // node emits this for an `Expect` it cannot meet (anything but `100-continue`).
  server.on("checkExpectation", (_request: IncomingMessage, response: ServerResponse) => {
    refuse(response, 417, "The only expectation this server meets is 100-continue; send the request without Expect.");
  });
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (error.code === "ECONNRESET" || !socket.writable) {
      socket.destroy();
      return;
    }
    const status = error.code === "HPE_HEADER_OVERFLOW" ? 431 : error.code === "ERR_HTTP_REQUEST_TIMEOUT" ? 408 : 400;
    const { body, traceId } = problem(status);
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: application/problem+json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n` +
        `trace-id: ${traceId}\r\nconnection: close\r\n\r\n${body}`,
    );
  });
  return server;
}

/** A problem answered before any listener runs; the connection closes, as node's own answer does. */
function refuse(response: ServerResponse, status: number, detail: string): void {
  const { body, traceId } = problem(status, detail);
  response.writeHead(status, {
    "content-type": "application/problem+json",
    "content-length": String(Buffer.byteLength(body)),
    "trace-id": traceId,
    connection: "close",
  });
  response.end(body);
}

function problem(status: number, detail?: string): { body: string; traceId: string } {
  const traceId = randomUUID();
  return { body: JSON.stringify({ type: "about:blank", title: STATUS_CODES[status] ?? "Error", status, detail, traceId }), traceId };
}

function positive(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`createHttpServer: ${name} must be a positive integer, not ${value}`);
  return value;
}
