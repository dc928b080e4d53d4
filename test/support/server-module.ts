/**
 * What the end-to-end tests use of the generated server (`server.js`) and of the typed user code
 * run against it (`usage.js`, see server-usage.ts), and small HTTP helpers: start a listener on
 * 127.0.0.1:0, and send raw bytes for what `fetch` refuses to send (dot segments, huge headers).
 */
import { createServer, type RequestListener, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import express from 'express';
import Fastify from 'fastify';
import { Hono } from 'hono';
import Koa from 'koa';
import type { Mount } from '../../examples/rest/mounts.js';
import type { Listener } from '../../runtime/server.js';

export type { Listener };

/** The generated server of schemas/openapi/tasks.yaml, typed as out/rest/server.ts (its committed output). */
export type ServerModule = Pick<
  typeof import('../../out/rest/server.js'),
  'BASE_PATHS' | 'combine' | 'createHttpServer' | 'fastifyPlugin' | 'koaMiddleware' | 'toFetchHandler'
>;

/** Where the generated server runs: its own node listener, or mounted in a framework's app (as the example does). */
export { MOUNTS, type Mount } from '../../examples/rest/mounts.js';

/**
 * Serves a generated listener as `mount` says, on 127.0.0.1 at a free port: Fastify with the
 * plugin registered without a prefix (every path reaches it), Hono with the Fetch handler on
 * every path (`c.env` passed on: the client's address), Express and Koa with it as middleware.
 * `server` wraps the app's node listener (default: a plain `http.createServer`).
 */
export async function startMounted(
  mount: Mount,
  api: ServerModule,
  listener: Listener,
  server: (app: RequestListener) => Server = (app) => createServer(app),
): Promise<Running> {
  switch (mount) {
    case 'listener':
      return start(listener, server(listener));
    case 'express': {
      const app = express();
      app.use(listener);
      return start(listener, server(app));
    }
    case 'koa': {
      const app = new Koa();
      app.use(api.koaMiddleware(listener));
      return start(listener, server(app.callback()));
    }
    case 'fastify': {
      let made: Server | undefined;
      const app = Fastify({ serverFactory: (handler) => (made = server(handler as RequestListener)) });
      await app.register(api.fastifyPlugin(listener));
      await app.ready();
      return start(listener, made!);
    }
    case 'hono': {
      const app = new Hono();
      const handler = api.toFetchHandler(listener);
      app.all('/*', (context) => handler(context.req.raw, context.env));
      return start(listener, server(getRequestListener(app.fetch)));
    }
  }
}

export interface UsageModule {
  FAILING_TASK: string;
  /** The generated `createServer` with bearer auth ("good"), a quiet error log and `options`. */
  listener(options?: Record<string, unknown>, handlers?: unknown): Listener;
  createHandlers(version?: string): unknown;
}

export interface Running {
  url: string;
  port: number;
  close(): Promise<void>;
}

/** Serves `listener` (or a ready `server`) on 127.0.0.1 at a free port. */
export async function start(listener: Listener, server: Server = createServer(listener)): Promise<Running> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Sends `head` (and then `body`, if any) on a fresh connection and reads the answer until the
 * server closes the connection or `timeout` ms pass. `body` may be sent late, by `delay` ms.
 */
export function raw(port: number, head: string, options: { body?: string; timeout?: number } = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => socket.destroy(), options.timeout ?? 2000);
    socket.on('connect', () => socket.write(head + (options.body ?? '')));
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(timer);
      const text = Buffer.concat(chunks).toString('utf8');
      const end = text.indexOf('\r\n\r\n');
      if (end === -1) return reject(new Error(`no response: ${JSON.stringify(text.slice(0, 200))}`));
      const [statusLine, ...lines] = text.slice(0, end).split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: text.slice(end + 4) });
    });
  });
}
