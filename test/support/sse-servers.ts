/**
 * Real sockets for the SSE tests: HTTP servers on 127.0.0.1 port 0, a raw node:http reader that
 * keeps every byte it receives, and a server that writes chosen byte chunks (parser test vectors).
 */
import { createServer, get, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface Listening {
  url: string;
  server: Server;
  /** Sockets accepted so far, so a test can cut connections the way a network would. */
  sockets: Set<Socket>;
  /** Requests received so far (method, url, headers), in order. */
  requests: { method: string; url: string; headers: IncomingMessage['headers'] }[];
  close(): Promise<void>;
}

/** Serves `handler` on 127.0.0.1 at a free port. */
export async function listen(handler: RequestListener): Promise<Listening> {
  const sockets = new Set<Socket>();
  const requests: Listening['requests'] = [];
  const server = createServer((request, response) => {
    requests.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers });
    handler(request, response);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    sockets,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Cuts every open connection mid-stream, as a failing network or proxy would. */
export function dropConnections(listening: Listening): number {
  const count = listening.sockets.size;
  for (const socket of listening.sockets) socket.destroy();
  return count;
}

/** Polls `condition` until it holds; fails after `timeoutMs` with `what` in the message. */
export async function until(condition: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

export interface RawReader {
  response: IncomingMessage;
  /** Everything received so far, decoded as UTF-8. */
  text(): string;
  /** `data:` values of the events received so far, split the way a spec parser would not: tests only send simple events here. */
  events(): { id?: string; event?: string; data: string }[];
  ended: Promise<void>;
  close(): void;
}

/** A plain `http.get` reader of an event stream, on its own socket. */
export function rawGet(url: string, headers: Record<string, string> = {}): Promise<RawReader> {
  return new Promise((resolve, reject) => {
    const request = get(url, { headers, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      let resolveEnded!: () => void;
      const ended = new Promise<void>((done) => (resolveEnded = done));
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', resolveEnded);
      response.on('close', resolveEnded);
      response.on('error', resolveEnded);
      const text = () => Buffer.concat(chunks).toString('utf8');
      resolve({
        response,
        text,
        events: () => parseSimple(text()),
        ended,
        close: () => request.destroy(),
      });
    });
    request.on('error', reject);
  });
}

/** Events of a stream whose blocks are LF-terminated and complete (what our server writes). */
export function parseSimple(text: string): { id?: string; event?: string; data: string }[] {
  const events: { id?: string; event?: string; data: string }[] = [];
  for (const block of text.split('\n\n').slice(0, -1)) {
    const event: { id?: string; event?: string; data?: string } = {};
    for (const line of block.split('\n')) {
      const colon = line.indexOf(':');
      if (colon <= 0) continue;
      const field = line.slice(0, colon);
      const value = line.slice(colon + (line[colon + 1] === ' ' ? 2 : 1));
      if (field === 'data') event.data = event.data === undefined ? value : `${event.data}\n${value}`;
      else if (field === 'id' || field === 'event') event[field] = value;
    }
    if (event.data !== undefined) events.push(event as { data: string });
  }
  return events;
}

/**
 * A server that answers every request with `chunks`, written one at a time with a pause between
 * them (and Nagle off) so each arrives as its own read on the client.
 */
export async function chunkServer(chunks: readonly Uint8Array[], init: { status?: number; contentType?: string } = {}): Promise<Listening> {
  return listen((_request: IncomingMessage, response: ServerResponse) => {
    response.writeHead(init.status ?? 200, { 'content-type': init.contentType ?? 'text/event-stream', 'cache-control': 'no-cache' });
    response.socket?.setNoDelay(true);
    response.flushHeaders();
    void (async () => {
      for (const chunk of chunks) {
        await new Promise((resolve) => setTimeout(resolve, 15));
        response.write(chunk);
      }
      await new Promise((resolve) => setTimeout(resolve, 15));
      response.end();
    })();
  });
}

/** A `fetch` that counts the body chunks it hands to the client: proof that a split arrived as one. */
export function countingFetch(): { fetch: typeof fetch; reads: () => number } {
  let reads = 0;
  const counting: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    if (response.body === null) return response;
    const body = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          reads++;
          controller.enqueue(chunk);
        },
      }),
    );
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
  return { fetch: counting, reads: () => reads };
}
