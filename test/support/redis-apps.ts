/**
 * The generated REST and realtime servers with `options.redis: true`, loaded for the Redis tests
 * (one server in test/redis-stores.test.ts, a cluster in test/redis-cluster.test.ts), and what
 * those tests do with them: a realtime instance on its own HTTP server, an idempotent POST, a wait.
 */
import { randomUUID } from 'node:crypto';
import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { RedisUnavailableError } from '../../runtime/redis-pubsub.js';
import type { RedisStore, RedisStoreUnavailableError } from '../../runtime/redis-store.js';
import type { RedisEventLog } from '../../runtime/sse-redis.js';
import type { MemoryStore } from '../../runtime/store.js';
import type { RedisFanOut } from '../../runtime/redis-fanout.js';
import { transpileFolder } from './client-generate.js';
import { generateWith, REALTIME_REDIS_USAGE, REST_REDIS_USAGE, writeGenerated } from './redis-generate.js';
import type { Listener } from './server-module.js';
import { SERVER_USAGE_SOURCE } from './server-usage.js';

export interface RestModule {
  RedisStore: typeof RedisStore;
  RedisStoreUnavailableError: typeof RedisStoreUnavailableError;
  MemoryStore: typeof MemoryStore;
}
export interface RestUsage {
  listener(options?: Record<string, unknown>, handlers?: unknown): Listener;
  createHandlers(version?: string): Record<string, (...args: never[]) => unknown>;
}
export interface RealtimeServer {
  listener: Listener;
  attach(server: Server): () => void;
  publish: { tasks(event: string, data: unknown): Promise<string>; chat(message: unknown, topic?: string): Promise<void> };
  close(): Promise<void>;
}
export interface RealtimeModule {
  createRealtimeServer(handlers: unknown, options: unknown): RealtimeServer;
  RedisEventLog: typeof RedisEventLog;
  RedisFanOut: typeof RedisFanOut;
  RedisUnavailableError: typeof RedisUnavailableError;
}

export interface RedisApps {
  rest: RestModule;
  restUsage: RestUsage;
  realtime: RealtimeModule;
  /** The generated folders (under .vitest-tmp), to type-check and to remove after. */
  folders: string[];
}

/** Generates tasks.yaml's REST server and tasks.asyncapi.yaml's realtime server with Redis, and imports them. */
export async function loadRedisApps(): Promise<RedisApps> {
  const restFiles = await generateWith('openapi', 'schemas/openapi/tasks.yaml', ['types', 'validators', 'server'], { redis: true });
  const restFolder = writeGenerated('redis-rest-', restFiles, { 'usage.ts': SERVER_USAGE_SOURCE, 'redis-usage.ts': REST_REDIS_USAGE });
  const realtimeFiles = await generateWith('asyncapi', 'schemas/asyncapi/tasks.asyncapi.yaml', ['types', 'validators', 'server'], {
    redis: true,
  });
  const realtimeFolder = writeGenerated('redis-realtime-', realtimeFiles, { 'redis-usage.ts': REALTIME_REDIS_USAGE });
  transpileFolder(restFolder);
  transpileFolder(realtimeFolder);
  return {
    rest: (await import(pathToFileURL(join(restFolder, 'server.js')).href)) as RestModule,
    restUsage: (await import(pathToFileURL(join(restFolder, 'usage.js')).href)) as RestUsage,
    realtime: (await import(pathToFileURL(join(realtimeFolder, 'server.js')).href)) as RealtimeModule,
    folders: [restFolder, realtimeFolder],
  };
}

export const AUTH = { authorization: 'Bearer good' };

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export async function until(condition: () => Promise<boolean> | boolean, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

/** POST /v1/projects with an Idempotency-Key. */
export function createProject(url: string, key: string, body: unknown): Promise<Response> {
  return fetch(`${url}/v1/projects`, {
    method: 'POST',
    headers: { ...AUTH, 'content-type': 'application/json', 'idempotency-key': key },
    body: JSON.stringify(body),
  });
}

export const realtimeHandlers = {
  chat: {
    join: async (message: { room: string }, connection: { subscribe(topic: string): Promise<void> }) => {
      await connection.subscribe(`room:${message.room}`);
    },
    say: (message: { id: string }) => ({ type: 'ack', id: message.id, messageId: randomUUID() }),
  },
  taskSummary: async () => {},
};

export interface RealtimeInstance {
  url: string;
  server: RealtimeServer;
  /** Closes the server, its HTTP server, the event log and the fan-out. */
  close(): Promise<void>;
}

/** The generated realtime server on 127.0.0.1:0 with this event log and fan-out (token "good" signs in). */
export async function startRealtime(realtime: RealtimeModule, eventLog: RedisEventLog, fanOut: RedisFanOut): Promise<RealtimeInstance> {
  const server = realtime.createRealtimeServer(realtimeHandlers, {
    sse: { eventLog, logger: () => {} },
    websocket: { fanOut, verifyToken: (token: string) => (token === 'good' ? { name: 'u' } : undefined), onError: () => {} },
  });
  const http = createHttpServer((request, response) => server.listener(request, response));
  server.attach(http);
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}`,
    server,
    async close() {
      await server.close();
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
      await eventLog.close();
      await fanOut.close();
    },
  };
}
