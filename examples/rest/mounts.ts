/**
 * The example API mounted in a framework app, as README's "Mounting in Fastify, Hono, Express, Koa"
 * shows: `MOUNT=fastify|hono|express|koa npm run example:rest` (default: the plain listener). Each
 * app also answers `GET /healthz` itself, and each runs on the hardened `createHttpServer`, so the
 * head-size and timeout limits are the same whichever framework routes the request. The e2e suites
 * run every convention test once per mount through this module.
 */
import type { RequestListener, Server } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import express from 'express';
import Fastify from 'fastify';
import { Hono } from 'hono';
import Koa from 'koa';
import {
  createHttpServer,
  fastifyPlugin,
  type HttpServerOptions,
  koaMiddleware,
  type Listener,
  toFetchHandler,
} from '../../out/rest/server.js';

/** How the API is served. */
export const MOUNTS = ['listener', 'fastify', 'hono', 'express', 'koa'] as const;
export type Mount = (typeof MOUNTS)[number];

const HEALTH = '{"status":"ok"}';

/** The API (`api`, routes under `/v1`) and `GET /healthz`, in a `mount` app, on an `http.Server` not yet listening. */
export async function mounted(mount: Mount, api: Listener, limits: HttpServerOptions): Promise<Server> {
  switch (mount) {
    case 'listener':
      return createHttpServer((request, response) => {
        if (request.url === '/healthz' && (request.method === 'GET' || request.method === 'HEAD')) {
          response.writeHead(200, {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(HEALTH),
            'cache-control': 'no-store',
          });
          response.end(request.method === 'HEAD' ? undefined : HEALTH);
          return;
        }
        api(request, response);
      }, limits);
    case 'express': {
      const app = express();
      app.get('/healthz', (_request, response) => void response.set('cache-control', 'no-store').json({ status: 'ok' }));
      // The listener is Express middleware as it is; paths outside /v1 go on to the next one.
      app.use(api);
      return createHttpServer(app, limits);
    }
    case 'koa': {
      const app = new Koa();
      app.use(koaMiddleware(api));
      app.use((context) => {
        if (context.path !== '/healthz') return;
        context.set('cache-control', 'no-store');
        context.body = { status: 'ok' };
      });
      return createHttpServer(app.callback(), limits);
    }
    case 'fastify': {
      let server: Server | undefined;
      const app = Fastify({
        serverFactory: (handler) => (server = createHttpServer(handler as RequestListener, limits)),
      });
      app.get('/healthz', async (_request, reply) => reply.header('cache-control', 'no-store').send({ status: 'ok' }));
      await app.register(fastifyPlugin(api), { prefix: '/v1' });
      await app.ready();
      return server!;
    }
    case 'hono': {
      const app = new Hono();
      const handler = toFetchHandler(api);
      app.get('/healthz', (context) => context.json({ status: 'ok' }, 200, { 'cache-control': 'no-store' }));
      // `c.env` (node-server's incoming request) tells the handler the client's address, for rate limits.
      app.all('/v1/*', (context) => handler(context.req.raw, context.env));
      return createHttpServer(getRequestListener(app.fetch), limits);
    }
  }
}

/** `MOUNT` from the environment (default `listener`); anything else stops the example. */
export function mountSetting(): Mount {
  const value = process.env.MOUNT || 'listener';
  if (!(MOUNTS as readonly string[]).includes(value))
    throw new Error(`MOUNT must be one of ${MOUNTS.join(', ')}, not ${JSON.stringify(value)}`);
  return value as Mount;
}
