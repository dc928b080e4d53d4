/**
 * The shared-state features of `options.redis: true` behind a real load balancer: three
 * generated REST servers and three generated realtime servers on one redis-server, each trio
 * behind its own nginx (test/support/nginx.ts: round-robin, WebSocket upgrade, no buffering for
 * SSE). Clients talk only to nginx; `X-Upstream` says which instance answered.
 *
 * - nginx does spread requests round-robin over the three instances;
 * - an Idempotency-Key is replayed whichever instance answers (same body, one execution), and of
 *   concurrent duplicates exactly one runs;
 * - one rate limit is counted across the instances;
 * - an SSE stream resumed with Last-Event-ID on another instance misses nothing and repeats nothing;
 * - WebSocket says from clients on every instance reach the clients on all the others, in order;
 * - an instance killed with SIGKILL (one in a child process) loses nothing for its SSE client,
 *   which reconnects through nginx to another instance while events keep being published.
 */
import { randomUUID } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { fork } from 'node:child_process';
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { RedisStore } from '../runtime/redis-store.js';
import type { RedisEventLog } from '../runtime/sse-redis.js';
import type { RedisFanOut } from '../runtime/redis-fanout.js';
import { startNginx, type Nginx } from './support/nginx.js';
import { generateWith, openSse, type SseReader, writeGenerated } from './support/redis-generate.js';
import { startRedis, type RedisServer } from './support/redis-server.js';
import { start, type Listener, type Running } from './support/server-module.js';
import { SERVER_USAGE_SOURCE } from './support/server-usage.js';
import { transpileFolder } from './support/client-generate.js';

type RedisClient = ReturnType<typeof createClient>;

interface RestModule {
  RedisStore: typeof RedisStore;
}
interface RestUsage {
  listener(options?: Record<string, unknown>, handlers?: unknown): Listener;
  createHandlers(version?: string): Record<string, (...args: never[]) => unknown>;
}
interface RealtimeServer {
  listener: Listener;
  attach(server: import('node:http').Server): () => void;
  publish: { tasks(event: string, data: unknown): Promise<string>; chat(message: unknown, topic?: string): Promise<void> };
  close(): Promise<void>;
}
interface RealtimeModule {
  createRealtimeServer(handlers: unknown, options: unknown): RealtimeServer;
  RedisEventLog: typeof RedisEventLog;
  RedisFanOut: typeof RedisFanOut;
}

const INSTANCES = ['a', 'b', 'c'] as const;
const AUTH = { authorization: 'Bearer good' };
const FEED = '/v1/tasks/events';

/**
 * One realtime instance in a process of its own (forked from the test), so that killing it is
 * SIGKILL: no close handshake, no cleanup, its Redis connections dropped by the kernel.
 */
const INSTANCE_PROCESS = `import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import { createClient } from "redis";
import { createRealtimeServer, RedisEventLog, RedisFanOut } from "./server.js";

const [url, prefix] = process.argv.slice(2);
const client = createClient({ url, disableOfflineQueue: true });
client.on("error", () => {});
await client.connect();
const subscriber = client.duplicate();
subscriber.on("error", () => {});
await subscriber.connect();
const handlers = {
  chat: {
    join: (message, connection) => connection.subscribe(\`room:\${message.room}\`),
    say: (message) => ({ type: "ack", id: message.id, messageId: randomUUID() }),
  },
  taskSummary: async () => {},
};
const realtime = createRealtimeServer(handlers, {
  sse: { eventLog: new RedisEventLog(client, { prefix, subscriber }), logger: () => {} },
  websocket: { fanOut: new RedisFanOut(client, { prefix, subscriber }), verifyToken: () => undefined },
});
const http = createServer(realtime.listener);
realtime.attach(http);
http.listen(0, "127.0.0.1", () => process.send({ port: http.address().port }));
`;

let redis: RedisServer;
let rest: RestModule;
let restUsage: RestUsage;
let realtime: RealtimeModule;
let realtimeFolder: string;
const clients: RedisClient[] = [];
const cleanups: Array<() => Promise<unknown> | unknown> = [];
const folders: string[] = [];

async function connect(): Promise<RedisClient> {
  const client = createClient({ url: redis.url, disableOfflineQueue: true });
  client.on('error', () => {});
  await client.connect();
  clients.push(client);
  return client;
}

/** Polls `condition` (a state outside this process: Redis, a socket) until true. */
async function until(condition: () => Promise<boolean> | boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function subscribers(client: RedisClient, channel: string): Promise<number> {
  const counts = (await client.pubSubNumSub(channel)) as Record<string, number>;
  return Number(counts[channel] ?? 0);
}

/** The instance that answered, by port: the last address of nginx's `$upstream_addr` (earlier ones failed). */
function upstreamPort(headers: Headers): number {
  const addresses = (headers.get('x-upstream') ?? '').split(', ');
  return Number(addresses[addresses.length - 1]?.split(':')[1]);
}

beforeAll(async () => {
  redis = await startRedis();
  const restFiles = await generateWith('openapi', 'schemas/openapi/tasks.yaml', ['types', 'validators', 'server'], { redis: true });
  const restFolder = writeGenerated('lb-rest-', restFiles, { 'usage.ts': SERVER_USAGE_SOURCE });
  const realtimeFiles = await generateWith('asyncapi', 'schemas/asyncapi/tasks.asyncapi.yaml', ['types', 'validators', 'server'], {
    redis: true,
  });
  realtimeFolder = writeGenerated('lb-realtime-', realtimeFiles);
  writeFileSync(join(realtimeFolder, 'instance.js'), INSTANCE_PROCESS);
  folders.push(restFolder, realtimeFolder);
  transpileFolder(restFolder);
  transpileFolder(realtimeFolder);
  rest = (await import(pathToFileURL(join(restFolder, 'server.js')).href)) as RestModule;
  restUsage = (await import(pathToFileURL(join(restFolder, 'usage.js')).href)) as RestUsage;
  realtime = (await import(pathToFileURL(join(realtimeFolder, 'server.js')).href)) as RealtimeModule;
}, 120_000);

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  await Promise.all(clients.map((client) => (client.isOpen ? client.close().catch(() => {}) : undefined)));
  await redis?.close();
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

// ---- REST ---------------------------------------------------------------------------------------

interface RestCluster {
  nginx: Nginx;
  instances: Running[];
  /** Handler runs per instance (createProject only). */
  runs: Map<string, number>;
}

/** Three REST instances on one Redis (one key prefix), behind a fresh nginx. */
async function restCluster(options: Record<string, unknown> = {}, delayMs = 0): Promise<RestCluster> {
  const prefix = `${randomUUID()}:`;
  const runs = new Map<string, number>();
  const instances: Running[] = [];
  for (const version of INSTANCES) {
    const handlers = restUsage.createHandlers(version);
    const create = handlers.createProject as (...args: unknown[]) => Promise<unknown>;
    const counted = {
      ...handlers,
      async createProject(...args: unknown[]) {
        runs.set(version, (runs.get(version) ?? 0) + 1);
        if (delayMs) await new Promise((resolve) => setTimeout(resolve, delayMs));
        return create(...args);
      },
    };
    const store = new rest.RedisStore(await connect(), { prefix });
    const running = await start(restUsage.listener({ store, ...options }, counted));
    cleanups.push(() => running.close());
    instances.push(running);
  }
  const nginx = await startNginx(instances.map((instance) => instance.port));
  cleanups.push(() => nginx.close());
  return { nginx, instances, runs };
}

function createProject(nginx: Nginx, key: string, body: unknown): Promise<Response> {
  return fetch(`${nginx.url}/v1/projects`, {
    method: 'POST',
    headers: { ...AUTH, 'content-type': 'application/json', 'idempotency-key': key },
    body: JSON.stringify(body),
  });
}

const total = (runs: Map<string, number>) => [...runs.values()].reduce((sum, count) => sum + count, 0);

describe('three generated REST servers behind nginx, one Redis', () => {
  it('nginx spreads requests round-robin: each instance answers every third', async () => {
    const { nginx, instances } = await restCluster();
    const answeredBy: number[] = [];
    for (let i = 0; i < 9; i++) {
      const response = await fetch(`${nginx.url}/v1/projects`, { headers: AUTH });
      expect(response.status).toBe(200);
      answeredBy.push(upstreamPort(response.headers));
      await response.arrayBuffer();
    }
    for (const instance of instances) expect(answeredBy.filter((port) => port === instance.port)).toHaveLength(3);
    // The same instance every third request: a rotation, not chance.
    expect(answeredBy.slice(3)).toEqual([...answeredBy.slice(0, 3), ...answeredBy.slice(0, 3)]);
  });

  it('replays an Idempotency-Key whichever instance answers: same body, one execution', async () => {
    const { nginx, runs } = await restCluster();
    const responses: Response[] = [];
    for (let i = 0; i < 3; i++) responses.push(await createProject(nginx, 'key-1', { name: 'Once' }));
    expect(new Set(responses.map((response) => upstreamPort(response.headers))).size).toBe(3);
    expect(responses.map((response) => response.status)).toEqual([201, 201, 201]);
    expect(responses.map((response) => response.headers.get('idempotent-replayed'))).toEqual([null, 'true', 'true']);
    // The stored response of the first instance, from each: its body and its x-version.
    const versions = responses.map((response) => response.headers.get('x-version'));
    expect(new Set(versions).size).toBe(1);
    const bodies = await Promise.all(responses.map((response) => response.json()));
    expect(bodies[1]).toEqual(bodies[0]);
    expect(bodies[2]).toEqual(bodies[0]);
    expect(total(runs)).toBe(1);
  });

  it('runs exactly one of six concurrent duplicates spread over the instances', async () => {
    const { nginx, runs } = await restCluster({}, 300);
    const responses = await Promise.all(Array.from({ length: 6 }, () => createProject(nginx, 'key-2', { name: 'Race' })));
    expect(new Set(responses.map((response) => upstreamPort(response.headers))).size).toBe(3);
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409, 409]);
    expect(total(runs)).toBe(1);
    await Promise.all(responses.map((response) => response.arrayBuffer()));
  });

  it('counts one rate limit across the instances: 5 allowed in total, then 429', async () => {
    const { nginx } = await restCluster({ rateLimit: { limit: 5, windowMs: 60_000 } });
    const statuses: number[] = [];
    const answeredBy = new Set<number>();
    for (let i = 0; i < 9; i++) {
      const response = await fetch(`${nginx.url}/v1/projects`, { headers: AUTH });
      statuses.push(response.status);
      answeredBy.add(upstreamPort(response.headers));
      await response.arrayBuffer();
    }
    expect(answeredBy.size).toBe(3);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429, 429, 429]);
  });
});

// ---- realtime -----------------------------------------------------------------------------------

interface RealtimeInstance {
  port: number;
  server: RealtimeServer;
  /** Stops it: listener closed, every connection cut, its Redis clients closed. */
  close(): Promise<void>;
}

/** An instance in a child process: only its port and SIGKILL. */
interface ForkedInstance {
  port: number;
  kill(): Promise<void>;
}

/** Starts `instance.js` in a child process on the cluster's Redis prefix; resolves with its port. */
async function forkInstance(prefix: string): Promise<ForkedInstance> {
  const child = fork(join(realtimeFolder, 'instance.js'), [redis.url, prefix], { stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (message) => resolve((message as { port: number }).port));
    child.once('exit', (code) => reject(new Error(`the instance process exited with ${code}: ${stderr}`)));
  });
  const kill = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  };
  cleanups.push(kill);
  return { port, kill };
}

interface RealtimeCluster {
  nginx: Nginx;
  instances: RealtimeInstance[];
  /** With `forked: true`, the third instance, in a child process. */
  forked?: ForkedInstance;
  prefix: string;
  client: RedisClient;
}

interface Say {
  id: string;
  room: string;
  text: string;
}

/**
 * Three realtime instances on one Redis (one prefix), behind a fresh nginx; a say is published to
 * its room. With `forked`, the third runs in a child process.
 */
async function realtimeCluster({ forked = false } = {}): Promise<RealtimeCluster> {
  const prefix = `${randomUUID()}:`;
  const instances: RealtimeInstance[] = [];
  for (let i = 0; i < INSTANCES.length - (forked ? 1 : 0); i++) {
    const client = await connect();
    const subscriber = await connect();
    const eventLog = new realtime.RedisEventLog(client, { prefix, subscriber, onError: () => {} });
    const fanOut = new realtime.RedisFanOut(client, { prefix, subscriber, onError: () => {} });
    const handlers = {
      chat: {
        join: async (message: { room: string }, connection: { subscribe(topic: string): Promise<void> }) => {
          await connection.subscribe(`room:${message.room}`);
        },
        say: async (message: Say) => {
          const line = {
            type: 'said',
            messageId: randomUUID(),
            room: message.room,
            user: 'u',
            text: message.text,
            sentAt: new Date().toISOString(),
          };
          await server.publish.chat(line, `room:${message.room}`);
          return { type: 'ack', id: message.id, messageId: line.messageId };
        },
      },
      taskSummary: async () => {},
    };
    const server = realtime.createRealtimeServer(handlers, {
      sse: { eventLog, logger: () => {} },
      websocket: { fanOut, verifyToken: (token: string) => (token === 'good' ? { name: 'u' } : undefined), onError: () => {} },
    });
    const http = createHttpServer((request, response) => server.listener(request, response));
    server.attach(http);
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const close = async (): Promise<void> => {
      const closed = new Promise((resolve) => http.close(resolve));
      http.closeAllConnections();
      await closed;
      await server.close();
      await eventLog.close();
      await fanOut.close();
    };
    cleanups.push(close);
    instances.push({ port: (http.address() as AddressInfo).port, server, close });
  }
  const child = forked ? await forkInstance(prefix) : undefined;
  const nginx = await startNginx([...instances.map((instance) => instance.port), ...(child ? [child.port] : [])]);
  cleanups.push(() => nginx.close());
  return { nginx, instances, ...(child ? { forked: child } : {}), prefix, client: await connect() };
}

const deleted = () => ({ id: randomUUID() });

describe('three generated realtime servers behind nginx, one Redis', () => {
  it('SSE: a stream resumed with Last-Event-ID through nginx on another instance misses nothing, repeats nothing', async () => {
    const { nginx, instances } = await realtimeCluster();
    const [a, b, c] = instances;
    // From the start of the (fresh) log: whatever is published after this line reaches it, live or replayed.
    const first = await openSse(`${nginx.url}${FEED}`, '0-0');
    const firstPort = upstreamPort(first.headers);
    const seen = [
      await a.server.publish.tasks('task.deleted', deleted()),
      await b.server.publish.tasks('task.deleted', deleted()),
      await c.server.publish.tasks('task.deleted', deleted()),
    ];
    expect((await first.waitFor(3, 20_000)).map((event) => event.id)).toEqual(seen);
    first.close();
    await first.ended;

    // Away: every instance keeps publishing.
    const missed = [
      await c.server.publish.tasks('task.deleted', deleted()),
      await a.server.publish.tasks('task.deleted', deleted()),
      await b.server.publish.tasks('task.deleted', deleted()),
    ];
    const resumed = await openSse(`${nginx.url}${FEED}`, seen[2]);
    expect(upstreamPort(resumed.headers)).not.toBe(firstPort);
    const after = [await b.server.publish.tasks('task.deleted', deleted()), await a.server.publish.tasks('task.deleted', deleted())];
    expect((await resumed.waitFor(5, 20_000)).map((event) => event.id)).toEqual([...missed, ...after]);
    // Nothing more than that: the next event is the sixth.
    const last = await c.server.publish.tasks('task.deleted', deleted());
    expect((await resumed.waitFor(6, 20_000)).map((event) => event.id)).toEqual([...missed, ...after, last]);
    resumed.close();
  }, 60_000);

  it('SSE: when its instance is killed (SIGKILL), the client reconnects through nginx to another and loses nothing', async () => {
    const { nginx, instances, forked } = await realtimeCluster({ forked: true });
    const doomed = forked!;
    // Round-robin: one of three consecutive streams lands on the forked instance; keep that one.
    let first: SseReader | undefined;
    for (let attempt = 0; attempt < 3 && !first; attempt++) {
      const stream = await openSse(`${nginx.url}${FEED}`, '0-0');
      if (upstreamPort(stream.headers) === doomed.port) first = stream;
      else stream.close();
    }
    if (!first) throw new Error('no stream reached the forked instance');

    // Published all along, by the instances that live, one after the other (so the log's order is this order).
    const published: string[] = [];
    let publishing = true;
    const publisher = (async () => {
      for (let i = 0; publishing || published.length < 40; i++)
        published.push(await instances[i % instances.length].server.publish.tasks('task.deleted', deleted()));
    })();

    try {
      await first.waitFor(10, 20_000);
      await doomed.kill();
      await first.ended;
      const before = first.events.map((event) => event.id);

      // The browser's EventSource would reconnect with the last id it saw; so does this client.
      const second = await openSse(`${nginx.url}${FEED}`, before[before.length - 1]);
      const answeredBy = upstreamPort(second.headers);
      expect(answeredBy).not.toBe(doomed.port);
      expect(instances.map((instance) => instance.port)).toContain(answeredBy);
      // nginx tried the dead instance once (on this request or one of the next three), then the next one: no 502.
      const upstreams = [second.headers.get('x-upstream')];
      for (let i = 0; i < 3; i++) {
        const response = await fetch(`${nginx.url}/v1/no-such-path`);
        expect(response.status).toBe(404);
        upstreams.push(response.headers.get('x-upstream'));
        await response.arrayBuffer();
      }
      expect(upstreams.filter((upstream) => upstream?.startsWith(`127.0.0.1:${doomed.port}, `))).toHaveLength(1);
      await second.waitFor(10, 20_000);
      publishing = false;
      await publisher;
      await second.waitFor(published.length - before.length, 30_000);
      const seen = [...before, ...second.events.map((event) => event.id)];
      expect(seen).toEqual(published);
      second.close();
    } finally {
      // A failed assertion must not leave it publishing into a Redis that afterAll stops.
      publishing = false;
      await publisher.catch(() => {});
    }
  }, 90_000);

  it('WebSocket: says from a client on each instance reach the clients on every instance, all of them, in order', async () => {
    const { nginx, prefix, client } = await realtimeCluster();
    const room = randomUUID();
    const SAYS = 10;
    const sockets = await Promise.all(
      INSTANCES.map(async () => {
        const socket = new WebSocket(`${nginx.url.replace('http', 'ws')}/v1/chat`, 'chat.v1', { origin: nginx.url });
        const said: string[] = [];
        const acks = new Map<string, () => void>();
        socket.on('message', (data) => {
          const message = JSON.parse(String(data)) as { type: string; id?: string; text?: string };
          if (message.type === 'said') said.push(message.text ?? '');
          else if (message.type === 'ack') acks.get(message.id ?? '')?.();
        });
        await new Promise((resolve, reject) => {
          socket.once('open', resolve);
          socket.once('error', reject);
        });
        socket.send(JSON.stringify({ type: 'auth', token: 'good' }));
        socket.send(JSON.stringify({ type: 'join', room }));
        /** Says `text` and resolves on its ack (so this client's says are published in order). */
        const say = (text: string) =>
          new Promise<void>((resolve) => {
            const id = randomUUID();
            acks.set(id, resolve);
            socket.send(JSON.stringify({ type: 'say', id, room, text }));
          });
        return { socket, said, say };
      }),
    );
    cleanups.push(() => sockets.forEach(({ socket }) => socket.terminate()));
    // One subscriber connection per instance in the room: the three clients are on three instances.
    await until(async () => (await subscribers(client, `${prefix}room:${room}`)) === 3, 'the room on all three instances');

    await Promise.all(
      sockets.map(async ({ say }, sender) => {
        for (let i = 0; i < SAYS; i++) await say(`${sender}:${i}`);
      }),
    );
    const sent = sockets.length * SAYS;
    await until(() => sockets.every(({ said }) => said.length >= sent), `${sent} lines on every client`);
    // One more, after everything: received right after the others means no copies came in between.
    await sockets[0].say('end');
    await until(() => sockets.every(({ said }) => said.length >= sent + 1), 'the last line on every client');
    for (const { said } of sockets) {
      expect(said).toHaveLength(sent + 1);
      expect(said[sent]).toBe('end');
      for (let sender = 0; sender < sockets.length; sender++)
        expect(said.filter((text) => text.startsWith(`${sender}:`))).toEqual(Array.from({ length: SAYS }, (_, i) => `${sender}:${i}`));
    }
  }, 60_000);
});
