/**
 * The generated REST server as a Fetch handler, `(request: Request) => Promise<Response>`: what
 * Hono mounts, and what Bun (`Bun.serve({ fetch })`), Deno (`Deno.serve(handler)`) and Cloudflare
 * Workers (`export default { fetch }`) serve. The same core as the node listener, on a host that
 * reads a `Request` and answers a `Response`; every convention is kept. The body limits hold
 * (413 from `Content-Length` before a byte is read, or as the stream grows; 408 after
 * `bodyTimeout`); limits on the request head and connection are the platform's.
 */
import type { Host, RequestHeaders } from "./server-host.js";
import { hostedOf } from "./server-host.js";
import { ClientGoneError, type BodyLimits } from "./server-input.js";
import { HttpProblem } from "./server-types.js";

/**
 * A Fetch handler. The arguments after the request are the platform's (Hono's `c.env`, Bun's
 * `server`, Deno's `info`), read only for the client's address when the `clientKey` option does
 * not say.
 * @public
 */
export type FetchHandler = (request: Request, ...platform: unknown[]) => Promise<Response>;

/**
 * The listener of a generated `createServer` (or of `combine`) as a Fetch handler. Routes live
 * under the same base paths as on node: mount it where the full path still reaches it (Hono:
 * `app.all("/v1/*", (c) => handler(c.req.raw, c.env))` or `app.mount("/v1", handler, { replaceRequest: false })`).
 *
 * @example
 * const handler = toFetchHandler(createServer(handlers, options));
 * Bun.serve({ fetch: handler });          // Bun
 * Deno.serve(handler);                     // Deno
 * export default { fetch: handler };       // Cloudflare Workers
 * @throws TypeError when `listener` is not one a generated `createServer` made.
 * @public
 */
export function toFetchHandler(listener: object): FetchHandler {
  const hosted = hostedOf(listener);
  return (request, ...platform) =>
    new Promise<Response>((resolve) => {
      const call = new FetchCall(request, remoteAddressOf(request, platform), resolve);
      hosted(fetchHost, call, call);
      // Past the base paths, with no `next`, the core has answered 404: nothing is left pending.
    });
}

/** One request on the Fetch host: the `Request`, its headers as node gives them, and where the `Response` goes. */
class FetchCall {
  readonly headers: RequestHeaders = {};
  readonly target: string;
  settled = false;

  constructor(
    readonly request: Request,
    readonly remoteAddress: string | undefined,
    readonly resolve: (response: Response) => void,
  ) {
    request.headers.forEach((value, name) => {
      // `Headers` joins repeated fields with ", " (node does too, except for `set-cookie`, never in a request).
      this.headers[name] = value;
    });
    const url = new URL(request.url);
    this.target = url.pathname + url.search;
  }
}

const fetchHost: Host<FetchCall, FetchCall> = {
  headers: (call) => call.headers,
  method: (call) => call.request.method,
  target: (call) => call.target,
  originalTarget: () => undefined,
  remoteAddress: (call) => call.remoteAddress,
  native: (call) => call.request,
  hasBody: (call) => call.request.body !== null && call.headers["content-length"] !== "0",
  readBody: (call, limits, done) => {
    readFetchBody(call, limits).then(
      (body) => done(undefined, body),
      (error: unknown) => done(error instanceof Error ? error : new ClientGoneError(error), undefined),
    );
  },
  signal: (call) => clientGone(call.request.signal),
  open: (call) => !call.settled,
  write(call, status, headers, body) {
    const fields = new Headers();
    for (const name in headers) {
      const value = headers[name]!;
      if (typeof value === "string") fields.append(name, value);
      else for (const item of value) fields.append(name, item);
    }
    // Refused headers throw above, before anything is settled (the core answers 500 then).
    call.settled = true;
    call.resolve(new Response(body === undefined ? null : typeof body === "string" ? body : body.slice(), { status, headers: fields }));
  },
  reset: () => {},
  abort(call) {
    if (call.settled) return;
    call.settled = true;
    call.resolve(
      new Response(JSON.stringify({ type: "about:blank", title: "Internal Server Error", status: 500 }), {
        status: 500,
        headers: { "content-type": "application/problem+json" },
      }),
    );
  },
};

/** The body within the limits, from the request's stream. */
async function readFetchBody(call: FetchCall, limits: BodyLimits): Promise<Uint8Array | undefined> {
  const declared = call.headers["content-length"];
  if (typeof declared === "string") {
    if (!/^\d+$/.test(declared)) throw new HttpProblem(400, "Bad Request", { detail: "Content-Length is not a number.", headers: CLOSE });
    if (Number(declared) > limits.maxBodySize) throw tooLarge(limits.maxBodySize);
  }
  const stream = call.request.body;
  if (stream === null) return undefined;
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new HttpProblem(408, "Request Timeout", {
            detail: `The request body did not arrive within ${limits.bodyTimeout} ms.`,
            headers: CLOSE,
          }),
        ),
      limits.bodyTimeout,
    );
  });
  // Raced with each read below; once the body is in, the timer is cleared and it never settles.
  late.catch(() => {});
  try {
    for (;;) {
      const chunk = await Promise.race([reader.read(), late]).catch((error: unknown) => {
        throw error instanceof HttpProblem ? error : new ClientGoneError(error);
      });
      if (chunk.done) break;
      size += chunk.value.byteLength;
      if (size > limits.maxBodySize) throw tooLarge(limits.maxBodySize);
      chunks.push(chunk.value);
    }
  } catch (error) {
    // Read what is still in flight and drop it, so the answer is not lost to a reset connection
    // (on node, @hono/node-server keeps the connection open: an unread rest would be parsed as
    // the next request).
    discard(reader);
    throw error;
  } finally {
    clearTimeout(timer);
  }
  if (chunks.length === 1) return chunks[0];
  const body = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    body.set(chunk, at);
    at += chunk.byteLength;
  }
  return body;
}

function discard(reader: ReadableStreamDefaultReader<Uint8Array>): void {
  const next = (): void => {
    reader.read().then(
      (chunk) => (chunk.done ? undefined : next()),
      () => {},
    );
  };
  next();
}

/** On node (Hono's node-server) the connection then closes, so the rest of a refused body is never read. */
const CLOSE = { connection: "close" } as const;

function tooLarge(limit: number): HttpProblem {
  return new HttpProblem(413, "Content Too Large", { detail: `The request body exceeds ${limit} bytes.`, headers: CLOSE });
}

/** The request's signal, with the reason every host gives handlers: a `ClientGoneError`. */
function clientGone(signal: AbortSignal): AbortSignal {
  const controller = new AbortController();
  const gone = () => controller.abort(new ClientGoneError(signal.reason));
  if (signal.aborted) gone();
  else signal.addEventListener("abort", gone, { once: true });
  return controller.signal;
}

/**
 * The client's address from what the platform passed beside the request: Hono on node
 * (`c.env.incoming.socket`), Bun (`server.requestIP(request)`), Deno (`info.remoteAddr`).
 */
function remoteAddressOf(request: Request, platform: readonly unknown[]): string | undefined {
  const first = platform[0] as
    | {
        incoming?: { socket?: { remoteAddress?: string } };
        requestIP?: (request: Request) => { address?: string } | null;
        remoteAddr?: { hostname?: string };
      }
    | null
    | undefined;
  if (first === null || typeof first !== "object") return undefined;
  return first.incoming?.socket?.remoteAddress ?? first.requestIP?.(request)?.address ?? first.remoteAddr?.hostname;
}
