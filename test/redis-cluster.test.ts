/**
 * The Redis implementations on a Redis Cluster: three redis-server masters (support/redis-cluster.ts)
 * and node-redis's `createCluster` client, given to the generated servers as it is.
 *
 * - two generated REST servers: Idempotency-Key replays on the other instance, one rate limit;
 * - `RedisEventLog` with sharded pub/sub: events appended on one instance reach the other in
 *   order, SSE resumes with Last-Event-ID on the other instance;
 * - `RedisFanOut` with sharded pub/sub (the WebSocket broadcast of the generated server, and typed
 *   topics over it): every subscriber gets every message, in order;
 * - each asks the nodes themselves where the keys and shard channels are: on more than one;
 * - one node stopped: REST answers 503 with Retry-After for the keys on it, publishing on its
 *   channels rejects, the other nodes' keys and channels still work, nothing crashes, and it all
 *   works again once the node is back (the subscriptions too: an SSE stream opened before the
 *   outage gets exactly what its Redis stream holds).
 */
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { createCluster } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { Topic, type TopicSubscription } from '../runtime/topic.js';
import type { RedisEventLog } from '../runtime/sse-redis.js';
import type { RedisFanOut } from '../runtime/redis-fanout.js';
import { AUTH, createProject, loadRedisApps, startRealtime, until, type RedisApps } from './support/redis-apps.js';
import { cli, startRedisCluster, type RedisClusterServers } from './support/redis-cluster.js';
import { openSse } from './support/redis-generate.js';
import { start, type Running } from './support/server-module.js';

type Cluster = ReturnType<typeof createCluster>;

const quiet = () => {};

let servers: RedisClusterServers;
let apps: RedisApps;
const clusters: Cluster[] = [];
const cleanups: Array<() => Promise<unknown> | unknown> = [];

/** A connected cluster client, as README tells users to make one. */
async function connectCluster(): Promise<Cluster> {
  const cluster = createCluster({ rootNodes: servers.rootNodes, defaults: { disableOfflineQueue: true } });
  cluster.on('error', quiet);
  await cluster.connect();
  clusters.push(cluster);
  return cluster;
}

/** The number of keys matching `pattern` on each node, asked of the node itself. */
function keysPerNode(pattern: string): number[] {
  return servers.nodes.map((node) => cli(node.port, ['--scan', '--pattern', pattern]).split('\n').filter(Boolean).length);
}

/** The number of shard channels matching `pattern` that each node has subscribers on. */
function shardChannelsPerNode(pattern: string): number[] {
  return servers.nodes.map((node) => cli(node.port, ['pubsub', 'shardchannels', pattern]).split('\n').filter(Boolean).length);
}

/** Nodes with at least one. */
const used = (counts: number[]) => counts.filter((count) => count > 0).length;

beforeAll(async () => {
  servers = await startRedisCluster();
  apps = await loadRedisApps();
}, 120_000);

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  await Promise.all(clusters.map((cluster) => cluster.close().catch(() => {})));
  await servers?.close();
  for (const folder of apps?.folders ?? []) rmSync(folder, { recursive: true, force: true });
});

async function restPair(prefix: string, options: Record<string, unknown> = {}): Promise<[Running, Running]> {
  const pair: Running[] = [];
  for (const version of ['a', 'b']) {
    const store = new apps.rest.RedisStore(await connectCluster(), { prefix, onError: quiet });
    const running = await start(apps.restUsage.listener({ store, ...options }, apps.restUsage.createHandlers(version)));
    cleanups.push(() => running.close());
    pair.push(running);
  }
  return [pair[0]!, pair[1]!];
}

describe('two generated REST servers on a Redis Cluster', () => {
  it('replay every Idempotency-Key on the other instance; the records spread over the nodes', async () => {
    const prefix = `${randomUUID()}:`;
    const [a, b] = await restPair(prefix);
    const keys = Array.from({ length: 24 }, (_, i) => `key-${i}`);
    const created: unknown[] = [];
    for (const key of keys) {
      const response = await createProject(a.url, key, { name: key });
      expect(response.status).toBe(201);
      created.push(await response.json());
    }
    for (const [index, key] of keys.entries()) {
      const replay = await createProject(b.url, key, { name: key });
      expect(replay.status).toBe(201);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(replay.headers.get('x-version')).toBe('a');
      expect(await replay.json()).toEqual(created[index]);
    }
    const perNode = keysPerNode(`${prefix}*`);
    expect(perNode.reduce((sum, count) => sum + count, 0)).toBe(keys.length);
    expect(used(perNode)).toBeGreaterThan(1);
  });

  it('count one rate limit across both instances', async () => {
    const [a, b] = await restPair(`${randomUUID()}:`, { rateLimit: { limit: 3, windowMs: 60_000 } });
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

/** Two event logs and two fan-outs, one cluster client each (as two processes), sharded pub/sub. */
async function realtimePair(prefix: string, timeoutMs?: number): Promise<{ logs: RedisEventLog[]; fanOuts: RedisFanOut[] }> {
  const logs: RedisEventLog[] = [];
  const fanOuts: RedisFanOut[] = [];
  for (let i = 0; i < 2; i++) {
    const cluster = await connectCluster();
    const options = { prefix, sharded: true, onError: quiet, ...(timeoutMs ? { timeoutMs } : {}) };
    // A cluster subscribes on connections of its own (one per node), so it can be its own
    // subscriber; the fan-out makes one with cluster.duplicate() instead (both ways work).
    logs.push(new apps.realtime.RedisEventLog(cluster, { ...options, subscriber: cluster }));
    fanOuts.push(new apps.realtime.RedisFanOut(cluster, options));
  }
  for (const each of [...logs, ...fanOuts]) cleanups.push(() => each.close());
  return { logs, fanOuts };
}

describe('RedisEventLog on a Redis Cluster (sharded pub/sub)', () => {
  it('delivers what one instance appends on many channels to the other, in order; streams and channels on several nodes', async () => {
    const prefix = `${randomUUID()}:`;
    const {
      logs: [one, two],
    } = await realtimePair(prefix);
    const channels = Array.from({ length: 12 }, (_, i) => `feed-${i}`);
    const received = new Map(channels.map((channel) => [channel, [] as string[]]));
    for (const channel of channels) await two!.subscribe(channel, (event) => received.get(channel)!.push(event.id));
    const shardChannels = shardChannelsPerNode(`${prefix}*`);
    expect(shardChannels.reduce((sum, count) => sum + count, 0)).toBe(channels.length);
    expect(used(shardChannels)).toBeGreaterThan(1);

    const sent = new Map(channels.map((channel) => [channel, [] as string[]]));
    for (let round = 0; round < 10; round++)
      for (const channel of channels) sent.get(channel)!.push(await one!.append(channel, { event: 'e', data: `${channel}/${round}` }));
    await until(() => channels.every((channel) => received.get(channel)!.length >= 10), 'every event', 15_000);
    for (const channel of channels) expect(received.get(channel), channel).toEqual(sent.get(channel));

    const streams = keysPerNode(`${prefix}*`);
    expect(streams.reduce((sum, count) => sum + count, 0)).toBe(channels.length);
    expect(used(streams)).toBeGreaterThan(1);
    // since on the other instance: the events after an id, from the stream.
    const ids = sent.get('feed-3')!;
    expect((await two!.since('feed-3', ids[4]!)).map((event) => event.id)).toEqual(ids.slice(5));
  });

  it('the generated SSE endpoint resumes on another instance with Last-Event-ID, without loss or duplicate', async () => {
    const prefix = `${randomUUID()}:`;
    const { logs, fanOuts } = await realtimePair(prefix);
    const a = await startRealtime(apps.realtime, logs[0]!, fanOuts[0]!);
    const b = await startRealtime(apps.realtime, logs[1]!, fanOuts[1]!);
    cleanups.push(
      () => a.close(),
      () => b.close(),
    );
    const feed = '/v1/tasks/events';
    const stream = await openSse(`${a.url}${feed}`);
    await until(() => shardChannelsPerNode(`${prefix}${feed}`).some((count) => count > 0), "A's subscription");
    const first: string[] = [];
    for (let i = 0; i < 10; i++) first.push(await b.server.publish.tasks('task.deleted', { id: randomUUID() }));
    expect((await stream.waitFor(10, 10_000)).map((event) => event.id)).toEqual(first);
    stream.close();

    const missed: string[] = [];
    for (let i = 0; i < 5; i++) missed.push(await a.server.publish.tasks('task.deleted', { id: randomUUID() }));
    const resumed = await openSse(`${b.url}${feed}`, first[9]);
    const after = await a.server.publish.tasks('task.deleted', { id: randomUUID() });
    expect((await resumed.waitFor(6, 10_000)).map((event) => event.id)).toEqual([...missed, after]);
    // One more, so a duplicate of the six would show before it.
    const last = await b.server.publish.tasks('task.deleted', { id: randomUUID() });
    expect((await resumed.waitFor(7, 10_000)).map((event) => event.id)).toEqual([...missed, after, last]);
    resumed.close();
  });
});

describe('RedisFanOut on a Redis Cluster (sharded pub/sub)', () => {
  it('gives every subscriber on the other instance every message of its topic, in order; channels on several nodes', async () => {
    const prefix = `${randomUUID()}:`;
    const {
      fanOuts: [one, two],
    } = await realtimePair(prefix);
    const topics = Array.from({ length: 12 }, (_, i) => `room-${i}`);
    // Three subscribers per topic on the second instance.
    const received = topics.flatMap((topic) => [0, 1, 2].map(() => ({ topic, messages: [] as string[] })));
    for (const subscriber of received) await two!.subscribe(subscriber.topic, (message) => subscriber.messages.push(message));
    const shardChannels = shardChannelsPerNode(`${prefix}*`);
    expect(shardChannels.reduce((sum, count) => sum + count, 0)).toBe(topics.length);
    expect(used(shardChannels)).toBeGreaterThan(1);

    const sent = Array.from({ length: 20 }, (_, i) => `m${i}`);
    for (const message of sent) for (const topic of topics) await one!.publish(topic, `${topic}/${message}`);
    await until(() => received.every((subscriber) => subscriber.messages.length >= sent.length), 'every message', 15_000);
    for (const subscriber of received)
      expect(subscriber.messages, subscriber.topic).toEqual(sent.map((message) => `${subscriber.topic}/${message}`));
  });

  it('carries the generated WebSocket broadcast from one instance to a client of the other', async () => {
    const prefix = `${randomUUID()}:`;
    const { logs, fanOuts } = await realtimePair(prefix);
    const a = await startRealtime(apps.realtime, logs[0]!, fanOuts[0]!);
    const b = await startRealtime(apps.realtime, logs[1]!, fanOuts[1]!);
    cleanups.push(
      () => a.close(),
      () => b.close(),
    );
    const socket = new WebSocket(`${a.url.replace('http', 'ws')}/v1/chat`, 'chat.v1', { origin: a.url });
    const received: unknown[] = [];
    socket.on('message', (data) => received.push(JSON.parse(String(data))));
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });
    socket.send(JSON.stringify({ type: 'auth', token: 'good' }));
    await until(() => shardChannelsPerNode(`${prefix}/v1/chat`).some((count) => count > 0), "A's subscription");
    const lines = Array.from({ length: 20 }, (_, i) => ({ type: 'joined', room: `r${i}`, user: 'someone' }));
    for (const line of lines) await b.server.publish.chat(line);
    await until(() => received.length >= lines.length, 'the broadcasts', 10_000);
    expect(received).toEqual(lines);
    socket.close();
  });

  it('carries typed topics: each key to its subscribers on the other instance, in order', async () => {
    const {
      fanOuts: [one, two],
    } = await realtimePair(`${randomUUID()}:`);
    const changes = new Topic<{ projectId: string }, { id: number }>('taskChanged', (key) => [key.projectId]);
    const projects = Array.from({ length: 8 }, (_, i) => `p${i}`);
    const subscriptions: [string, TopicSubscription<{ id: number }>][] = [];
    // A subscription that misses messages ends after 15 s, short, instead of hanging the test.
    const signal = AbortSignal.timeout(15_000);
    for (const projectId of projects)
      for (let i = 0; i < 2; i++) subscriptions.push([projectId, await changes.subscribe(two!, { projectId }, { signal })]);
    for (let id = 0; id < 25; id++) for (const projectId of projects) await changes.publish(one!, { projectId }, { id });
    for (const [projectId, subscription] of subscriptions) {
      const values: number[] = [];
      for await (const value of subscription) {
        values.push(value.id);
        if (values.length === 25) break;
      }
      expect(values, projectId).toEqual(Array.from({ length: 25 }, (_, id) => id));
    }
  });
});

describe('a Redis Cluster node going away (last: it stops a node)', () => {
  it('REST answers 503 with Retry-After for the keys on that node, serves the others, never crashes, and recovers (pub/sub and SSE too)', async () => {
    // Two instances whose rate-limit counters (every request increments one) live on different nodes.
    const reported: unknown[] = [];
    const instance = async (prefix: string) => {
      const store = new apps.rest.RedisStore(await connectCluster(), { prefix, timeoutMs: 500, onError: (error) => reported.push(error) });
      const running = await start(apps.restUsage.listener({ store, rateLimit: { limit: 1000, windowMs: 60_000 } }));
      cleanups.push(() => running.close());
      return running;
    };
    const holding = (prefix: string) => servers.nodes[keysPerNode(`${prefix}*`).findIndex((count) => count > 0)];
    const first = `${randomUUID()}:`;
    const hit = await instance(first);
    expect((await fetch(`${hit.url}/v1/projects`, { headers: AUTH })).status).toBe(200);
    const down = holding(first)!;
    let other: Running | undefined;
    while (!other) {
      const prefix = `${randomUUID()}:`;
      const candidate = await instance(prefix);
      expect((await fetch(`${candidate.url}/v1/projects`, { headers: AUTH })).status).toBe(200);
      if (holding(prefix) !== down) other = candidate;
    }
    // A fan-out topic on each side of the outage, heard on the other instance.
    const fanPrefix = `${randomUUID()}:`;
    const {
      fanOuts: [one, two],
    } = await realtimePair(fanPrefix);
    const topics = Array.from({ length: 50 }, (_, i) => `t${i}`);
    const lostTopic = topics.find((topic) => servers.nodeOf(fanPrefix + topic) === down)!;
    const keptTopic = topics.find((topic) => servers.nodeOf(fanPrefix + topic) !== down)!;
    const heard: string[] = [];
    await two!.subscribe(lostTopic, (message) => heard.push(message));
    await two!.subscribe(keptTopic, (message) => heard.push(message));
    // An SSE feed whose stream and channel live on that node, with a stream open on A.
    const feed = '/v1/tasks/events';
    let ssePrefix = `${randomUUID()}:`;
    while (servers.nodeOf(ssePrefix + feed) !== down) ssePrefix = `${randomUUID()}:`;
    const sse = await realtimePair(ssePrefix, 500);
    const a = await startRealtime(apps.realtime, sse.logs[0]!, sse.fanOuts[0]!);
    const b = await startRealtime(apps.realtime, sse.logs[1]!, sse.fanOuts[1]!);
    cleanups.push(
      () => a.close(),
      () => b.close(),
    );
    const stream = await openSse(`${a.url}${feed}`);
    await until(() => shardChannelsPerNode(`${ssePrefix}${feed}`).some((count) => count > 0), "A's subscription");

    await servers.stop(down);
    const answer = await fetch(`${hit.url}/v1/projects`, { headers: AUTH });
    expect(answer.status).toBe(503);
    expect(answer.headers.get('retry-after')).toBe('1');
    expect(answer.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const problem = (await answer.json()) as { title: string };
    expect(problem.title).toBe('Service Unavailable');
    expect(JSON.stringify(problem)).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|Redis/);
    expect((await createProject(hit.url, 'key-down', { name: 'x' })).status).toBe(503);
    expect(reported.length).toBeGreaterThan(0);
    expect((reported[0] as Error).name).toBe('RedisStoreUnavailableError');
    // The other nodes' slots are still served.
    for (let i = 0; i < 3; i++) expect((await fetch(`${other.url}/v1/projects`, { headers: AUTH })).status).toBe(200);
    await expect(one!.publish(lostTopic, 'lost')).rejects.toThrow(apps.realtime.RedisUnavailableError);
    await one!.publish(keptTopic, 'kept');
    await until(() => heard.includes('kept'), 'the message on a running node');
    // SSE: publishing rejects; a new stream is ended (the client retries), not left hanging.
    await expect(b.server.publish.tasks('task.deleted', { id: randomUUID() })).rejects.toThrow(apps.realtime.RedisUnavailableError);
    const late = await openSse(`${b.url}${feed}`, '0-0');
    await late.ended;
    expect(late.events).toEqual([]);

    await servers.start(down);
    await until(
      async () => (await fetch(`${hit.url}/v1/projects`, { headers: AUTH })).status === 200,
      'the REST instance to reach the node again',
      20_000,
    );
    expect((await createProject(hit.url, 'key-up', { name: 'x' })).status).toBe(201);
    expect((await fetch(`${other.url}/v1/projects`, { headers: AUTH })).status).toBe(200);
    // The subscription on the node that was down is back (node-redis resubscribes its connection).
    await until(
      async () => {
        await one!.publish(lostTopic, 'back').catch(() => {});
        return heard.includes('back');
      },
      'the subscription on the node that came back',
      20_000,
    );
    expect(heard.filter((message) => message !== 'back')).toEqual(['kept']);
    // The SSE stream opened before the outage gets what B publishes now, each event once, in order.
    const published: string[] = [];
    await until(
      async () => {
        const id = await b.server.publish.tasks('task.deleted', { id: randomUUID() }).catch(() => undefined);
        if (id) published.push(id);
        return stream.events.length > 0;
      },
      'the SSE stream to hear B again',
      20_000,
    );
    const last = await b.server.publish.tasks('task.deleted', { id: randomUUID() });
    published.push(last);
    await until(() => stream.events.some((event) => event.id === last), 'the last event', 10_000);
    // Exactly what the stream in Redis holds (a publish that timed out may still have been appended).
    const logged = (await sse.logs[1]!.since(feed, '0-0')).map((event) => event.id);
    expect(stream.events.map((event) => event.id)).toEqual(logged);
    expect(logged).toEqual(expect.arrayContaining(published));
    stream.close();
  }, 90_000);
});
