/**
 * The GraphQL example's endpoint in a framework app: `MOUNT=fastify|express|koa npm run
 * example:graphql` (default: the plain listener). Each runs on the hardened `createHttpServer`,
 * which also carries the WebSocket upgrades of subscriptions. No Hono: the GraphQL server is a
 * node:http listener, with no Fetch handler (see ARCHITECTURE, Decisions).
 */
import type { RequestListener, Server } from 'node:http';
import express from 'express';
import Fastify from 'fastify';
import Koa from 'koa';
import { createHttpServer, fastifyPlugin, type HttpServerOptions, koaMiddleware, type NodeListener } from '../../out/graphql/server.js';

export const MOUNTS = ['listener', 'fastify', 'express', 'koa'] as const;
export type Mount = (typeof MOUNTS)[number];

/** The endpoint (`/graphql`) served as `mount` says, on an `http.Server` not yet listening. */
export async function mounted(mount: Mount, listener: NodeListener, limits: HttpServerOptions): Promise<Server> {
  switch (mount) {
    case 'listener':
      return createHttpServer(listener, limits);
    case 'express':
      return createHttpServer(express().use(listener), limits);
    case 'koa':
      return createHttpServer(new Koa().use(koaMiddleware(listener)).callback(), limits);
    case 'fastify': {
      let server: Server | undefined;
      const app = Fastify({ serverFactory: (handler) => (server = createHttpServer(handler as RequestListener, limits)) });
      await app.register(fastifyPlugin(listener), { prefix: '/graphql' });
      await app.ready();
      return server!;
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
