/**
 * The Redis implementations of the shared stores (`options.redis: true`): `RedisStore` (REST
 * idempotency records and rate limits), `RedisEventLog` (SSE resume and fan-out) and
 * `RedisFanOut` (WebSocket broadcast), against a real redis-server started on a free port.
 *
 * - the runtime files type-check under strict with TypeScript 5.9 and 7 where `redis` cannot
 *   resolve (they do not import it), and a node-redis v5 client is accepted as it is;
 * - the `Store` contract, run against `MemoryStore` and `RedisStore` alike;
 * - two generated REST servers sharing one Redis: a replayed Idempotency-Key, one rate limit;
 * - two generated realtime servers sharing one Redis: SSE published on A read on B, resumed on B
 *   with Last-Event-ID without loss or duplicate; a WebSocket broadcast from B reaching A;
 * - Redis going away: 503s and rejections, no crash, and recovery when it is back.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { rmSync, writeFileSync } from 'node:fs';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { loadConfig } from '../generators/core/config/config.js';
import type { LoggedEvent } from '../runtime/sse-store.js';
import type { Store as RuntimeStore } from '../runtime/server-types.js';
import type { RedisEventLog, RedisEventLogOptions } from '../runtime/sse-redis.js';
import { ROOT } from './support/cli.js';
import { anyTypes } from './support/client-generate.js';
import {
  AUTH,
  createProject as postProject,
  loadRedisApps,
  sleep,
  startRealtime,
  until,
  type RealtimeInstance,
  type RealtimeModule,
  type RestModule,
  type RestUsage,
} from './support/redis-apps.js';
import { copyRedisRuntime, generateWith, openSse, REDIS_MODULES } from './support/redis-generate.js';
import { startRedis, type RedisServer } from './support/redis-server.js';
import { start, type Running } from './support/server-module.js';
import { tempDir } from './support/tmp.js';
import { COMPILERS, typecheck } from './support/typecheck.js';

type RedisClient = ReturnType<typeof createClient>;

/** A store under the contract; MemoryStore's sweep timer is stopped with `close`. */
type Store = RuntimeStore & { close?(): void };

/** For stores of tests other than the Redis-down one: errors while Redis is stopped are expected. */
const quiet = () => {};

let redis: RedisServer;
const clients: RedisClient[] = [];
const cleanups: Array<() => Promise<unknown> | unknown> = [];
const folders: string[] = [];
let rest: RestModule;
let restUsage: RestUsage;
let realtime: RealtimeModule;

/** A connected node-redis client, as the docs tell users to make one. */
async function connect(options: { name?: string } = {}): Promise<RedisClient> {
  const client = createClient({ url: redis.url, disableOfflineQueue: true, ...(options.name ? { name: options.name } : {}) });
  client.on('error', () => {});
  await client.connect();
  clients.push(client);
  return client;
}

/** Subscribers Redis counts on a pub/sub channel. */
async function subscribers(client: RedisClient, channel: string): Promise<number> {
  const counts = (await client.pubSubNumSub(channel)) as Record<string, number>;
  return Number(counts[channel] ?? 0);
}

beforeAll(async () => {
  redis = await startRedis();
  const apps = await loadRedisApps();
  folders.push(...apps.folders);
  ({ rest, restUsage, realtime } = apps);
}, 60_000);

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  await Promise.all(clients.map((client) => (client.isOpen ? client.close().catch(() => {}) : undefined)));
  await redis?.close();
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

// ---- the generated files ------------------------------------------------------------------------

describe('generated Redis files', () => {
  it('are written only with options.redis: true, and re-exported from server.ts', async () => {
    const plain = await generateWith('openapi', 'schemas/openapi/tasks.yaml', ['types', 'server'], {});
    expect(plain.map((file) => file.path).filter((path) => path.includes('redis'))).toEqual([]);
    const restFiles = await generateWith('openapi', 'schemas/openapi/tasks.yaml', ['types', 'server'], { redis: true });
    expect(restFiles.map((file) => file.path).filter((path) => path.includes('redis'))).toEqual(['runtime/redis-store.ts']);
    expect(restFiles.find((file) => file.path === 'server.ts')!.content).toContain(
      [
        'export {',
        '  RedisStore,',
        '  type RedisStoreClient,',
        '  type RedisStoreOptions,',
        '  RedisStoreUnavailableError,',
        '} from "./runtime/redis-store.js";',
      ].join('\n'),
    );

    const realtimePlain = await generateWith('asyncapi', 'schemas/asyncapi/tasks.asyncapi.yaml', ['types', 'server'], {});
    expect(realtimePlain.map((file) => file.path).filter((path) => path.includes('redis'))).toEqual([]);
    const realtimeFiles = await generateWith('asyncapi', 'schemas/asyncapi/tasks.asyncapi.yaml', ['types', 'server'], { redis: true });
    expect(
      realtimeFiles
        .map((file) => file.path)
        .filter((path) => path.includes('redis'))
        .sort(),
    ).toEqual(['runtime/redis-fanout.ts', 'runtime/redis-pubsub.ts', 'runtime/sse-redis.ts']);
    const server = realtimeFiles.find((file) => file.path === 'server.ts')!.content;
    expect(server).toContain('RedisEventLog');
    expect(server).toContain('RedisFanOut');

    // Anything but a boolean is refused by the config, at its line:col (test/config-options.test.ts has every style).
    const folder = tempDir();
    writeFileSync(
      join(folder, 'codegen.config.yaml'),
      `apis:\n  - input: ${join(ROOT, 'schemas/openapi/tasks.yaml')}\n    output: out\n    options: { redis: "yes" }\n`,
    );
    await expect(loadConfig(join(folder, 'codegen.config.yaml'))).rejects.toThrow(
      /codegen\.config\.yaml:4:23: error: apis\[0\]\.options\.redis: expected true or false/,
    );
  });

  it('use no `any`, and import only node: built-ins and each other (never redis)', () => {
    const { folder, sources } = copyRedisRuntime();
    try {
      for (const name of REDIS_MODULES) {
        expect(anyTypes(sources[name]), name).toEqual([]);
        for (const [, from] of sources[name].matchAll(/^(?:import|export) .* from "([^"]+)";$/gm))
          expect(from, name).toMatch(/^(node:|\.\/)/);
      }
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('type-check under strict with TypeScript 5.9 and 7 where `redis` is not installed', () => {
    // A folder outside the repository: `redis` cannot resolve there.
    const { folder } = copyRedisRuntime();
    try {
      writeFileSync(join(folder, 'no-redis.ts'), 'import { createClient } from "redis";\nvoid createClient;\n');
      for (const [label, compiler] of Object.entries(COMPILERS)) {
        const result = typecheck(folder, compiler, 'node', ['runtime/*.ts']);
        expect(result.output, label).toBe('');
        expect(result.ok, label).toBe(true);
      }
      // The control: the same folder does fail where redis is imported.
      const control = typecheck(folder, COMPILERS['TypeScript 5.9'], 'node', ['no-redis.ts']);
      expect(control.ok).toBe(false);
      expect(control.output).toMatch(/Cannot find module 'redis'/);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }, 60_000);

  it('accept a node-redis v5 client as it is (generated REST and realtime servers, both compilers)', () => {
    for (const folder of folders) {
      for (const [label, compiler] of Object.entries(COMPILERS)) {
        const result = typecheck(folder, compiler, 'node');
        expect(result.output, `${label} ${folder}`).toBe('');
        expect(result.ok, label).toBe(true);
      }
    }
  }, 120_000);
});

// ---- the Store contract -----------------------------------------------------------------------

interface StoreUnderTest {
  make(): Promise<Store>;
  /** Lets `ms` milliseconds pass for the store (a fake clock, or real time for Redis). */
  advance(ms: number): Promise<void>;
  /** Whether `ttlMs` values are exact (fake clock) or only bounded (real time). */
  exact: boolean;
}

function storeContract(name: string, setUp: () => StoreUnderTest): void {
  describe(`Store contract: ${name}`, () => {
    it('expires entries after their TTL; delete removes; a TTL must be positive', async () => {
      const subject = setUp();
      const store = await subject.make();
      await store.set('a', '1', 200);
      expect(await store.get('a')).toBe('1');
      await subject.advance(100);
      expect(await store.get('a')).toBe('1');
      await subject.advance(150);
      expect(await store.get('a')).toBeUndefined();
      await store.set('b', '2', 10_000);
      await store.delete('b');
      expect(await store.get('b')).toBeUndefined();
      await expect(store.set('c', '3', 0)).rejects.toThrow(RangeError);
      await expect(store.setIfAbsent('c', '3', -1)).rejects.toThrow(RangeError);
      await store.set('forever', 'x', Infinity);
      expect(await store.get('forever')).toBe('x');
      store.close?.();
    });

    it('setIfAbsent is atomic: of concurrent callers exactly one wins, and an expired key is free again', async () => {
      const subject = setUp();
      const store = await subject.make();
      const results = await Promise.all(Array.from({ length: 20 }, (_, i) => store.setIfAbsent('lock', String(i), 200)));
      expect(results.filter(Boolean)).toHaveLength(1);
      expect(await store.get('lock')).toBe(String(results.indexOf(true)));
      expect(await store.setIfAbsent('lock', 'late', 200)).toBe(false);
      await subject.advance(250);
      expect(await store.setIfAbsent('lock', 'again', 200)).toBe(true);
      expect(await store.get('lock')).toBe('again');
      store.close?.();
    });

    it('increment counts in a fixed window that later increments do not extend', async () => {
      const subject = setUp();
      const store = await subject.make();
      const first = await store.increment('n', 600);
      expect(first.count).toBe(1);
      if (subject.exact) expect(first.ttlMs).toBe(600);
      else expect(first.ttlMs).toBeGreaterThan(500);
      expect(first.ttlMs).toBeLessThanOrEqual(600);
      await subject.advance(250);
      const second = await store.increment('n', 600);
      expect(second.count).toBe(2);
      if (subject.exact) expect(second.ttlMs).toBe(350);
      else expect(second.ttlMs).toBeGreaterThan(200);
      expect(second.ttlMs).toBeLessThanOrEqual(350);
      expect(await store.get('n')).toBe('2');
      await subject.advance(400);
      expect((await store.increment('n', 600)).count).toBe(1);
      await store.set('text', 'abc', 1000);
      await expect(store.increment('text', 1000)).rejects.toThrow(TypeError);
      store.close?.();
    });

    it('counts concurrent increments exactly once each', async () => {
      const subject = setUp();
      const store = await subject.make();
      const counts = await Promise.all(Array.from({ length: 50 }, () => store.increment('burst', 60_000)));
      expect(counts.map((result) => result.count).sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
      expect(await store.get('burst')).toBe('50');
      store.close?.();
    });
  });
}

storeContract('MemoryStore', () => {
  let time = 1_700_000_000_000;
  return {
    exact: true,
    make: async () => new rest.MemoryStore({ now: () => time }),
    advance: async (ms) => void (time += ms),
  };
});

storeContract('RedisStore', () => ({
  exact: false,
  // A prefix per test: every test starts from an empty keyspace.
  make: async () => new rest.RedisStore(await connect(), { prefix: `${randomUUID()}:` }),
  advance: (ms) => sleep(ms),
}));

describe('RedisStore across clients (as across processes)', () => {
  it('lets exactly one of many concurrent setIfAbsent calls on two connections win, and shares counters', async () => {
    const prefix = `${randomUUID()}:`;
    const one = new rest.RedisStore(await connect(), { prefix });
    const two = new rest.RedisStore(await connect(), { prefix });
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? one : two).setIfAbsent('k', `v${i}`, 5000)));
    expect(results.filter(Boolean)).toHaveLength(1);
    const counts = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? one : two).increment('c', 5000)));
    expect(counts.map((result) => result.count).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(await two.get('k')).toBe(await one.get('k'));
  });

  it('keeps keys under its prefix', async () => {
    const client = await connect();
    const store = new rest.RedisStore(client, { prefix: 'app1:' });
    await store.set('x', 'y', 5000);
    expect(await client.get('app1:x')).toBe('y');
    expect(await client.pTTL('app1:x')).toBeGreaterThan(4000);
  });
});

// ---- two REST instances, one Redis ---------------------------------------------------------------

async function restPair(options: Record<string, unknown>, handlers?: (version: string) => unknown): Promise<[Running, Running]> {
  const prefix = `${randomUUID()}:`;
  const pair: Running[] = [];
  for (const version of ['a', 'b']) {
    const store = new rest.RedisStore(await connect(), { prefix });
    const running = await start(
      restUsage.listener({ store, ...options }, handlers ? handlers(version) : restUsage.createHandlers(version)),
    );
    cleanups.push(() => running.close());
    pair.push(running);
  }
  return [pair[0], pair[1]];
}

function createProject(instance: Running, key: string, body: unknown): Promise<Response> {
  return postProject(instance.url, key, body);
}

describe('two generated REST servers sharing a RedisStore', () => {
  it('replay an Idempotency-Key on the other instance instead of running the request again', async () => {
    const [a, b] = await restPair({});
    const first = await createProject(a, 'key-1', { name: 'Once' });
    expect(first.status).toBe(201);
    const created = (await first.json()) as { id: string };
    expect(first.headers.get('x-version')).toBe('a');

    const replay = await createProject(b, 'key-1', { name: 'Once' });
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    // The stored response of A, not a second project made by B's handlers.
    expect(replay.headers.get('x-version')).toBe('a');
    expect(await replay.json()).toEqual(created);
    expect((await fetch(`${b.url}/v1/projects/${created.id}`, { headers: AUTH })).status).toBe(404);

    const reused = await createProject(b, 'key-1', { name: 'Something else' });
    expect(reused.status).toBe(422);
  });

  it('let exactly one of two concurrent duplicates (one per instance) run', async () => {
    let runs = 0;
    const [a, b] = await restPair({}, (version) => {
      const handlers = restUsage.createHandlers(version);
      const create = handlers.createProject as (...args: unknown[]) => unknown;
      return {
        ...handlers,
        async createProject(...args: unknown[]) {
          runs++;
          await sleep(300);
          return create(...args);
        },
      };
    });
    const responses = await Promise.all([createProject(a, 'key-2', { name: 'Race' }), createProject(b, 'key-2', { name: 'Race' })]);
    expect(responses.map((response) => response.status).sort()).toEqual([201, 409]);
    expect(runs).toBe(1);
  });

  it('count one rate limit across both instances', async () => {
    const [a, b] = await restPair({ rateLimit: { limit: 3, windowMs: 60_000 } });
    const statuses: number[] = [];
    const remaining: (string | null)[] = [];
    for (const instance of [a, b, a, b, a]) {
      const response = await fetch(`${instance.url}/v1/projects`, { headers: AUTH });
      statuses.push(response.status);
      remaining.push(response.headers.get('ratelimit-remaining'));
      await response.arrayBuffer();
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    expect(remaining).toEqual(['2', '1', '0', '0', '0']);
  });
});

// ---- RedisEventLog ------------------------------------------------------------------------------

describe('RedisEventLog', () => {
  async function logs(options: Partial<RedisEventLogOptions> = {}): Promise<[RedisEventLog, RedisEventLog]> {
    const prefix = `${randomUUID()}:`;
    const one = new realtime.RedisEventLog(await connect(), { prefix, onError: quiet, ...options });
    const two = new realtime.RedisEventLog(await connect(), { prefix, onError: quiet, ...options });
    cleanups.push(
      () => one.close(),
      () => two.close(),
    );
    return [one, two];
  }

  it('gives Redis Stream ids, increasing; since is exclusive, from any instance; a malformed id gives nothing', async () => {
    const [one, two] = await logs();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(await (i % 2 ? one : two).append('c', { event: 'e', data: String(i) }));
    for (const id of ids) expect(id).toMatch(/^\d+-\d+$/);
    const sorted = [...ids].sort((x, y) => {
      const [xm, xs] = x.split('-').map(Number);
      const [ym, ys] = y.split('-').map(Number);
      return xm - ym || xs - ys;
    });
    expect(ids).toEqual(sorted);
    expect(new Set(ids).size).toBe(5);
    expect((await two.since('c', ids[1])).map((event) => event.id)).toEqual(ids.slice(2));
    expect(await one.since('c', ids[1])).toEqual([2, 3, 4].map((i) => ({ id: ids[i], event: 'e', data: String(i) })));
    expect(await one.since('c', ids[4])).toEqual([]);
    expect((await one.since('c', '0-0')).map((event) => event.data)).toEqual(['0', '1', '2', '3', '4']);
    expect(await one.since('c', 'not-an-id')).toEqual([]);
    expect(await one.since('other', '0-0')).toEqual([]);
  });

  it('keeps at most maxEvents for since, and nothing older than maxAgeMs', async () => {
    const [one] = await logs({ maxEvents: 10, maxAgeMs: 400 });
    for (let i = 0; i < 30; i++) await one.append('c', { event: 'e', data: String(i) });
    const kept = await one.since('c', '0-0');
    expect(kept.map((event) => event.data)).toEqual(Array.from({ length: 10 }, (_, i) => String(20 + i)));
    await sleep(450);
    expect(await one.since('c', '0-0')).toEqual([]);
  });

  it('delivers what one instance appends to the subscribers of another, in order, with data as written', async () => {
    const [one, two] = await logs();
    const seen: LoggedEvent[] = [];
    const unsubscribe = await two.subscribe('c', (event) => seen.push(event));
    const data = 'line 1\nline 2 "quoted" / ünïcode \u2028';
    const ids = [await one.append('c', { event: 'a', data }), await two.append('c', { event: 'b\nc', data: '' })];
    await until(() => seen.length === 2, 'two events');
    expect(seen).toEqual([
      { id: ids[0], event: 'a', data },
      { id: ids[1], event: 'b\nc', data: '' },
    ]);
    unsubscribe();
    await one.append('c', { event: 'a', data: 'after' });
    await sleep(100);
    expect(seen).toHaveLength(2);
  });

  it('keeps stream order, without gaps or duplicates, when both instances append concurrently', async () => {
    const [one, two] = await logs();
    const seenOne: string[] = [];
    const seenTwo: string[] = [];
    await one.subscribe('c', (event) => seenOne.push(event.id));
    await two.subscribe('c', (event) => seenTwo.push(event.id));
    const ids = await Promise.all(Array.from({ length: 100 }, (_, i) => (i % 2 ? one : two).append('c', { event: 'e', data: String(i) })));
    await until(() => seenOne.length >= 100 && seenTwo.length >= 100, '100 events on each');
    const inStreamOrder = (await one.since('c', '0-0')).map((event) => event.id);
    expect(new Set(ids)).toEqual(new Set(inStreamOrder));
    expect(seenOne).toEqual(inStreamOrder);
    expect(seenTwo).toEqual(inStreamOrder);
  });

  it('fills a gap from the stream when a published message never arrived', async () => {
    const client = await connect();
    const prefix = `${randomUUID()}:`;
    const log = new realtime.RedisEventLog(client, { prefix, onError: quiet });
    cleanups.push(() => log.close());
    const seen: string[] = [];
    await log.subscribe('c', (event) => seen.push(event.data));
    await log.append('c', { event: 'e', data: 'first' });
    // An entry whose message was lost (written without PUBLISH), then a normal append.
    await client.xAdd(`${prefix}c`, '*', { event: 'e', data: 'lost' });
    await log.append('c', { event: 'e', data: 'third' });
    await until(() => seen.length === 3, 'three events');
    expect(seen).toEqual(['first', 'lost', 'third']);
  });

  it('since waits until this process delivered what it read, so a resuming stream gets no copies', async () => {
    const [one, two] = await logs();
    const delivered: string[] = [];
    await two.subscribe('c', (event) => delivered.push(event.id));
    const id = await one.append('c', { event: 'e', data: 'x' });
    const replay = await two.since('c', '0-0');
    expect(replay.map((event) => event.id)).toEqual([id]);
    // Delivered to the subscription by the time since resolved (the SSE server's merge relies on it).
    expect(delivered).toEqual([id]);
  });

  it('shares one subscriber connection with a RedisFanOut when given the same one, and close() leaves it open', async () => {
    const client = await connect();
    const subscriber = await connect();
    const prefix = `${randomUUID()}:`;
    const log = new realtime.RedisEventLog(client, { prefix, subscriber });
    const fanOut = new realtime.RedisFanOut(client, { prefix, subscriber });
    const events: string[] = [];
    const messages: string[] = [];
    await log.subscribe('c', (event) => events.push(event.data));
    await fanOut.subscribe('t', (message) => messages.push(message));
    await log.append('c', { event: 'e', data: 'to the log' });
    await fanOut.publish('t', 'to the fan-out');
    await until(() => events.length === 1 && messages.length === 1, 'both');
    await log.close();
    await fanOut.close();
    expect(subscriber.isOpen).toBe(true);
    await until(
      async () => (await subscribers(client, `${prefix}c`)) === 0 && (await subscribers(client, `${prefix}t`)) === 0,
      'unsubscribed',
    );
  });
});

// ---- RedisFanOut --------------------------------------------------------------------------------

describe('RedisFanOut', () => {
  it('delivers across instances in publishing order; a removed listener gets nothing more', async () => {
    const prefix = `${randomUUID()}:`;
    const one = new realtime.RedisFanOut(await connect(), { prefix, onError: quiet });
    const two = new realtime.RedisFanOut(await connect(), { prefix, onError: quiet });
    cleanups.push(
      () => one.close(),
      () => two.close(),
    );
    const seen: string[] = [];
    const twice: string[] = [];
    const listener = (message: string) => twice.push(message);
    const remove = await two.subscribe('room', (message) => seen.push(message));
    const removeFirst = await two.subscribe('room', listener);
    await two.subscribe('room', listener);
    for (let i = 0; i < 20; i++) await one.publish('room', `m${i}`);
    await until(() => seen.length === 20 && twice.length === 40, '20 messages');
    expect(seen).toEqual(Array.from({ length: 20 }, (_, i) => `m${i}`));
    await remove();
    await removeFirst();
    await one.publish('room', 'last');
    await until(() => twice.length === 41, 'the last message');
    expect(seen).toHaveLength(20);
  });

  it('with sharded: true uses shard channels (SPUBLISH/SSUBSCRIBE, Redis 7), for the event log too', async () => {
    const prefix = `${randomUUID()}:`;
    const client = await connect();
    const options = { prefix, sharded: true, onError: quiet };
    const one = new realtime.RedisFanOut(await connect(), options);
    const two = new realtime.RedisFanOut(await connect(), options);
    const plain = new realtime.RedisFanOut(await connect(), { prefix, onError: quiet });
    const logs = [new realtime.RedisEventLog(await connect(), options), new realtime.RedisEventLog(await connect(), options)];
    cleanups.push(
      () => one.close(),
      () => two.close(),
      () => plain.close(),
      ...logs.map((log) => () => log.close()),
    );
    const seen: string[] = [];
    await two.subscribe('room', (message) => seen.push(message));
    const events: string[] = [];
    await logs[1]!.subscribe('feed', (event) => events.push(event.id));
    const shardSubscribers = async (channel: string) =>
      Number(((await client.sendCommand(['PUBSUB', 'SHARDNUMSUB', channel])) as string[])[1]);
    expect(await shardSubscribers(`${prefix}room`)).toBe(1);
    expect(await shardSubscribers(`${prefix}feed`)).toBe(1);
    expect(await subscribers(client, `${prefix}room`)).toBe(0);

    await plain.publish('room', 'not on the shard channel');
    for (let i = 0; i < 10; i++) await one.publish('room', `m${i}`);
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) ids.push(await logs[0]!.append('feed', { event: 'e', data: String(i) }));
    await until(() => seen.length >= 10 && events.length >= 10, 'the messages');
    expect(seen).toEqual(Array.from({ length: 10 }, (_, i) => `m${i}`));
    expect(events).toEqual(ids);
    // A subscriber without SSUBSCRIBE is refused up front.
    const bare = { subscribe: async () => {}, unsubscribe: async () => {} };
    expect(() => new realtime.RedisFanOut(client, { sharded: true, subscriber: bare })).toThrow(/sSubscribe/);
  });

  it('holds one subscriber connection per process for every topic, and closes it on close()', async () => {
    const name = `fanout-${randomUUID().slice(0, 8)}`;
    const client = await connect({ name });
    const fanOut = new realtime.RedisFanOut(client, { prefix: `${name}:` });
    const removals = await Promise.all(['t1', 't2', 't3', 't1'].map((topic) => fanOut.subscribe(topic, () => {})));
    const connections = async () =>
      String(await client.sendCommand(['CLIENT', 'LIST']))
        .split('\n')
        .filter((line) => line.includes(`name=${name}`));
    const subscribing = (await connections()).filter((line) => !/ sub=0 /.test(line));
    expect(subscribing).toHaveLength(1);
    expect(subscribing[0]).toMatch(/ sub=3 /);
    await removals[0]();
    expect(await subscribers(client, `${name}:t1`)).toBe(1);
    await removals[3]();
    expect(await subscribers(client, `${name}:t1`)).toBe(0);
    await fanOut.close();
    await until(async () => (await connections()).length === 1, 'the subscriber connection to close');
    await expect(fanOut.subscribe('t1', () => {})).rejects.toThrow();
  });
});

// ---- two realtime instances, one Redis ----------------------------------------------------------

async function realtimePair(): Promise<{
  a: RealtimeInstance;
  b: RealtimeInstance;
  prefix: string;
  client: RedisClient;
  logs: RedisEventLog[];
}> {
  const prefix = `${randomUUID()}:`;
  const instances: RealtimeInstance[] = [];
  const logs: RedisEventLog[] = [];
  for (let i = 0; i < 2; i++) {
    const client = await connect();
    const subscriber = await connect();
    const eventLog = new realtime.RedisEventLog(client, { prefix, subscriber, onError: quiet });
    const fanOut = new realtime.RedisFanOut(client, { prefix, subscriber, onError: quiet });
    logs.push(eventLog);
    const instance = await startRealtime(realtime, eventLog, fanOut);
    cleanups.push(() => instance.close());
    instances.push(instance);
  }
  return { a: instances[0], b: instances[1], prefix, client: await connect(), logs };
}

const FEED = '/v1/tasks/events';
const deleted = () => ({ id: randomUUID() });

describe('two generated realtime servers sharing Redis', () => {
  it('SSE: an event published on A reaches a stream on B; B resumes with Last-Event-ID without loss or duplicate', async () => {
    const { a, b, prefix, client } = await realtimePair();
    const stream = await openSse(`${b.url}${FEED}`);
    await until(async () => (await subscribers(client, `${prefix}${FEED}`)) === 1, "B's subscription");
    await sleep(50);
    const first = [
      await a.server.publish.tasks('task.deleted', deleted()),
      await a.server.publish.tasks('task.deleted', deleted()),
      await a.server.publish.tasks('task.deleted', deleted()),
    ];
    expect((await stream.waitFor(3)).map((event) => event.id)).toEqual(first);
    expect(stream.events.every((event) => event.event === 'task.deleted')).toBe(true);
    stream.close();

    // Away: A keeps publishing.
    const missed = [await a.server.publish.tasks('task.deleted', deleted()), await a.server.publish.tasks('task.deleted', deleted())];
    const resumed = await openSse(`${b.url}${FEED}`, first[2]);
    const after = await a.server.publish.tasks('task.deleted', deleted());
    expect((await resumed.waitFor(3)).map((event) => event.id)).toEqual([...missed, after]);
    await sleep(100);
    expect(resumed.events).toHaveLength(3);
    resumed.close();
  });

  it('SSE: a client switching instances while both publish sees every event exactly once, in order', async () => {
    const { a, b } = await realtimePair();
    const published: Promise<string>[] = [];
    let publishing = true;
    const publisher = (async () => {
      for (let i = 0; publishing; i++) {
        published.push((i % 2 ? a : b).server.publish.tasks('task.deleted', deleted()));
        await sleep(2);
      }
    })();
    const seen: string[] = [];
    let lastEventId = '0-0';
    for (const instance of [a, b, a, b, a, b]) {
      const stream = await openSse(`${instance.url}${FEED}`, lastEventId);
      await stream.waitFor(5);
      stream.close();
      await stream.ended;
      seen.push(...stream.events.map((event) => event.id));
      lastEventId = seen[seen.length - 1];
    }
    publishing = false;
    await publisher;
    const ids = await Promise.all(published);
    expect(new Set(seen).size).toBe(seen.length);
    // Every id up to the last one seen, in stream order: nothing lost across the switches.
    const order = (id: string) => id.split('-').map(Number) as [number, number];
    const sorted = [...ids].sort((x, y) => order(x)[0] - order(y)[0] || order(x)[1] - order(y)[1]);
    expect(seen).toEqual(sorted.slice(0, seen.length));
  }, 20_000);

  it('WebSocket: a broadcast published on B reaches a client connected to A', async () => {
    const { a, b, prefix, client } = await realtimePair();
    const socket = new WebSocket(`${a.url.replace('http', 'ws')}/v1/chat`, 'chat.v1', { origin: a.url });
    const received: unknown[] = [];
    socket.on('message', (data) => received.push(JSON.parse(String(data))));
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });
    socket.send(JSON.stringify({ type: 'auth', token: 'good' }));
    await until(async () => (await subscribers(client, `${prefix}/v1/chat`)) === 1, "A's subscription");
    const line = { type: 'joined', room: randomUUID(), user: 'someone' };
    await b.server.publish.chat(line);
    await until(() => received.length > 0, 'the broadcast');
    expect(received).toEqual([line]);

    // A topic a handler subscribed to, published on the other instance.
    const room = randomUUID();
    socket.send(JSON.stringify({ type: 'join', room }));
    await until(async () => (await subscribers(client, `${prefix}room:${room}`)) === 1, 'the room subscription');
    await b.server.publish.chat({ type: 'joined', room, user: 'other' }, `room:${room}`);
    await until(() => received.length === 2, 'the room message');
    expect(received[1]).toEqual({ type: 'joined', room, user: 'other' });
    socket.close();
  });
});

// ---- Redis going away (last: it stops the server) ----------------------------------------------

describe('when Redis is down', () => {
  it('REST answers 503 with Retry-After (and reports it), never crashes, and recovers', async () => {
    const reported: unknown[] = [];
    const client = await connect();
    const store = new rest.RedisStore(client, { prefix: `${randomUUID()}:`, timeoutMs: 500, onError: (error) => reported.push(error) });
    const instance = await start(restUsage.listener({ store, rateLimit: { limit: 100, windowMs: 60_000 } }));
    cleanups.push(() => instance.close());
    expect((await fetch(`${instance.url}/v1/projects`, { headers: AUTH })).status).toBe(200);

    const sse = await realtimePair();
    const stream = await openSse(`${sse.b.url}${FEED}`);
    await until(async () => (await subscribers(sse.client, `${sse.prefix}${FEED}`)) === 1, "B's subscription");

    await redis.stop();
    await until(() => !client.isReady, 'the client to notice');
    const down = await fetch(`${instance.url}/v1/projects`, { headers: AUTH });
    expect(down.status).toBe(503);
    expect(down.headers.get('retry-after')).toBe('1');
    expect(down.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const problem = (await down.json()) as { title: string; detail: string };
    expect(problem.title).toBe('Service Unavailable');
    expect(JSON.stringify(problem)).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|Redis/);
    const idempotent = await createProject(instance, 'key-down', { name: 'x' });
    expect(idempotent.status).toBe(503);
    expect(reported.length).toBeGreaterThan(0);
    expect((reported[0] as Error).name).toBe('RedisStoreUnavailableError');
    expect((reported[0] as { describe(): string }).describe()).toMatch(/^RedisStore: INCR failed: /);

    // Realtime: publishing rejects with a RedisUnavailableError; a new stream is ended, not hung.
    await expect(sse.a.server.publish.tasks('task.deleted', deleted())).rejects.toThrow(realtime.RedisUnavailableError);
    await expect(sse.a.server.publish.chat({ type: 'joined', room: 'x', user: 'y' })).rejects.toThrow(/RedisFanOut: PUBLISH/);
    const late = await openSse(`${sse.b.url}${FEED}`, '0-0');
    await late.ended;

    // Back: new requests succeed without restarting anything.
    await redis.restart();
    await until(() => client.isReady, 'the client to reconnect', 10_000);
    const up = await fetch(`${instance.url}/v1/projects`, { headers: AUTH });
    expect(up.status).toBe(200);
    expect((await createProject(instance, 'key-up', { name: 'x' })).status).toBe(201);
    // The stream opened before the outage is still subscribed (node-redis resubscribes) and gets new events.
    await until(() => clients.every((each) => each.isReady), 'every client to reconnect', 10_000);
    await until(async () => (await subscribers(sse.client, `${sse.prefix}${FEED}`)) === 1, "B's subscription again", 10_000);
    const id = await sse.a.server.publish.tasks('task.deleted', deleted());
    expect((await stream.waitFor(1)).map((event) => event.id)).toEqual([id]);
    stream.close();
  }, 30_000);
});
