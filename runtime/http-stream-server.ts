/**
 * HTTP streaming endpoints: a GET whose response stays open and carries one JSON text per line
 * (newline-delimited JSON, `application/x-ndjson`), as Gitter's and Twitter's streaming APIs do and
 * AsyncAPI describes with an `http` server and a GET binding. Any JSON value is a message: an
 * object, a string, a number, an array. `publish` checks a message with the channel's validator and
 * writes it to every open stream of a path; after `keepAliveMs` of silence a `\r\n` keep-alive line
 * goes out, so proxies keep the connection and clients (which skip blank lines) see nothing.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { CorsPolicy, isPreflight, type CorsOptions, type CorsSurface } from "./cors-policy.js";

/** A validator's answer (validators.ts returns these). */
type ValidationResult<T> = { ok: true; value: T } | { ok: false; errors: readonly { path: string; message: string }[] };

export interface HttpStreamEndpointOptions<Message> {
  /** Checks what `publish` writes; an invalid message throws a TypeError and is not written. */
  validate: (value: unknown) => ValidationResult<Message>;
  /** Interval of `\r\n` keep-alive lines on an idle stream, in milliseconds; 0: none. Default 15000. */
  keepAliveMs?: number;
  /** Bytes a slow client may leave unread before its stream is cut. Default 1 MiB. */
  maxBufferedBytes?: number;
  /** Browser pages of other origins; without it, only same-origin pages may read the stream. */
  cors?: CorsOptions | undefined;
}

export interface HttpStreamEndpoint<Message> {
  /** Answers a request for one of the endpoint's paths: opens a stream for GET, 405 otherwise. */
  handle(request: IncomingMessage, response: ServerResponse): void;
  /** Writes `message` as one line to every open stream of `path`; resolves when written. */
  publish(path: string, message: Message): Promise<void>;
  /** Ends every stream and refuses new ones (503). */
  close(): Promise<void>;
}

const STREAM_CORS: CorsSurface = { methods: ["GET", "HEAD"], allowHeaders: ["Authorization", "Accept"], exposeHeaders: [] };

export function createHttpStreamEndpoint<Message>(options: HttpStreamEndpointOptions<Message>): HttpStreamEndpoint<Message> {
  const keepAliveMs = options.keepAliveMs ?? 15_000;
  const maxBufferedBytes = options.maxBufferedBytes ?? 1024 * 1024;
  const corsPolicy = options.cors ? new CorsPolicy(options.cors, STREAM_CORS) : undefined;
  /** Open streams by request path. */
  const streams = new Map<string, Set<ServerResponse>>();
  let closing = false;

  const write = (response: ServerResponse, text: string): void => {
    if (response.destroyed || response.writableEnded) return;
    // A client that reads slower than the stream is written is cut instead of growing memory.
    if (response.writableLength > maxBufferedBytes) {
      response.destroy();
      return;
    }
    response.write(text);
  };

  return {
    handle(request, response) {
      const origin = request.headers.origin;
      const cors = corsPolicy ? corsPolicy.responseHeaders(origin) : {};
      if (corsPolicy && origin !== undefined) {
        if (isPreflight(request)) {
          const answer = corsPolicy.preflight(origin, request.headers["access-control-request-headers"], STREAM_CORS.methods);
          response.writeHead(answer.status, answer.headers).end(answer.body);
          return;
        }
        if (!corsPolicy.allows(origin)) {
          response.writeHead(403, { "content-type": "text/plain" }).end("This origin may not open streams.");
          return;
        }
      }
      if (request.method !== "GET" && request.method !== "HEAD") {
        response.writeHead(405, { allow: "GET, HEAD", ...cors }).end();
        return;
      }
      if (closing) {
        response.writeHead(503, { "retry-after": "1", ...cors }).end();
        return;
      }
      response.writeHead(200, {
        "content-type": "application/x-ndjson; charset=utf-8",
        "cache-control": "no-store",
        "x-accel-buffering": "no",
        ...cors,
      });
      if (request.method === "HEAD") {
        response.end();
        return;
      }
      response.flushHeaders();
      const path = new URL(request.url ?? "/", "http://localhost").pathname;
      let open = streams.get(path);
      if (!open) streams.set(path, (open = new Set()));
      open.add(response);
      const keepAlive = keepAliveMs > 0 ? setInterval(() => write(response, "\r\n"), keepAliveMs) : undefined;
      keepAlive?.unref();
      response.on("close", () => {
        clearInterval(keepAlive);
        open.delete(response);
        if (open.size === 0 && streams.get(path) === open) streams.delete(path);
      });
    },
    async publish(path, message) {
      const result = options.validate(message);
      if (!result.ok) {
        const first = result.errors[0];
        throw new TypeError(`Invalid message for ${path}: ${first ? `${first.path || "/"} ${first.message}` : "invalid"}`);
      }
      const line = `${JSON.stringify(message)}\n`;
      for (const response of streams.get(path) ?? []) write(response, line);
    },
    async close() {
      closing = true;
      const ended = [...streams.values()]
        .flatMap((open) => [...open])
        .map(
          (response) =>
            new Promise<void>((resolve) => {
              if (response.destroyed) resolve();
              else {
                response.once("close", () => resolve());
                response.end();
              }
            }),
        );
      await Promise.all(ended);
    },
  };
}
