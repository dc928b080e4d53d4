/**
 * What the REST core (`server.ts`) needs of the server it runs in: read a request's head and body,
 * write one answer. The core is written once over this small interface; each kind of host is a
 * table of functions made once, so a request costs no adapter object: `nodeHost` here (node:http,
 * and so Express, Koa and Fastify, which hand over node's request and response), and the Fetch
 * host in `mount-fetch.ts` (Hono, Bun, Deno, Workers), which only those who mount import.
 */
import type { IncomingMessage, ServerResponse as NodeResponse } from "node:http";
import { ClientGoneError, hasBody, readBody, type BodyLimits } from "./server-input.js";
import type { NativeRequest } from "./server-spec.js";
import type { ServerResponse } from "./server-types.js";

/** Lower-case header names, as node:http gives them. */
export type RequestHeaders = Record<string, string | string[] | undefined>;

/**
 * One kind of host, for requests `Req` answered through `Res` (which may be the same object).
 * Every function may be called at most as often as the core needs it; none keeps state.
 */
export interface Host<Req, Res> {
  headers(request: Req): RequestHeaders;
  /** The method as received (`undefined`: GET). */
  method(request: Req): string | undefined;
  /** The request target: path and query, as in the request line. */
  target(request: Req): string;
  /** The target before a framework took its mount prefix off (Express's `originalUrl`), if it did. */
  originalTarget(request: Req): string | undefined;
  remoteAddress(request: Req): string | undefined;
  /** What handlers and hooks get as `request`. */
  native(request: Req): NativeRequest;
  hasBody(request: Req): boolean;
  /**
   * The whole body within the limits, to `done` (a callback, not a promise: no microtask per
   * request): 413, 408 and 400 as `HttpProblem`s, a client gone as `ClientGoneError`.
   */
  readBody(request: Req, limits: BodyLimits, done: (error: Error | undefined, body: Uint8Array | undefined) => void): void;
  /** Aborted when the client leaves before the answer is written. */
  signal(request: Req, response: Res): AbortSignal;
  /** Whether an answer may still be written (none was, and the client is there). */
  open(response: Res): boolean;
  /**
   * Writes the answer (no `body`: none is sent). Throws, having written nothing, when a header is
   * one the host refuses (CR/LF in a value, a bad name).
   */
  write(response: Res, status: number, headers: ServerResponse["headers"], body: string | Uint8Array | undefined): void;
  /** Forgets headers set on the response before a failed `write` (a framework's), so the 500 goes out clean. */
  reset(response: Res): void;
  /** Cuts the exchange short after a failure to write: a bare 500 if nothing went out yet, else a closed connection. */
  abort(response: Res): void;
}

/** The host of node:http's `(request, response)`, which Express, Koa and Fastify pass on as they are. */
export const nodeHost: Host<IncomingMessage, NodeResponse> = {
  headers: (request) => request.headers,
  method: (request) => request.method,
  target: (request) => request.url ?? "/",
  originalTarget(request) {
    // Express and Connect keep the full path in `originalUrl` when they strip a mount prefix.
    const value = (request as IncomingMessage & { originalUrl?: unknown }).originalUrl;
    return typeof value === "string" ? value : undefined;
  },
  remoteAddress: (request) => request.socket.remoteAddress,
  native: (request) => request,
  hasBody,
  readBody,
  signal: (_request, response) => disconnectSignal(response),
  open: (response) => !response.headersSent && !response.destroyed,
  write(response, status, headers, body) {
    response.writeHead(status, headers);
    response.end(body);
  },
  reset(response) {
    for (const name of response.getHeaderNames()) response.removeHeader(name);
  },
  abort(response) {
    if (!response.headersSent && !response.destroyed) {
      response.writeHead(500, { "content-type": "application/problem+json" });
      response.end(JSON.stringify({ type: "about:blank", title: "Internal Server Error", status: 500 }));
    } else {
      response.destroy();
    }
  },
};

/** A signal aborted when the response closes before it was completely written. */
function disconnectSignal(res: NodeResponse): AbortSignal {
  const controller = new AbortController();
  const gone = () => controller.abort(new ClientGoneError(undefined));
  if (res.destroyed) {
    if (!res.writableFinished) gone();
  } else {
    res.once("close", () => {
      if (!res.writableFinished) gone();
    });
  }
  return controller.signal;
}

/**
 * The core of a listener on any host: `createListener` keeps it on the listener under `HOSTED`,
 * where `toFetchHandler` (`mount-fetch.ts`) finds it. Not a public API.
 */
export type Hosted = <Req, Res>(host: Host<Req, Res>, request: Req, response: Res, next?: (error?: unknown) => void) => void;

export const HOSTED: unique symbol = Symbol.for("codegen.rest.hosted");

/** The core of a listener made by a generated `createServer`. @throws TypeError for any other function. */
export function hostedOf(listener: object): Hosted {
  const hosted = (listener as { [HOSTED]?: Hosted })[HOSTED];
  if (typeof hosted !== "function") throw new TypeError("not the listener of a generated createServer (nor of combine())");
  return hosted;
}
