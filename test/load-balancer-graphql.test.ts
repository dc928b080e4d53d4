/**
 * GraphQL subscriptions across instances, for real: three processes of the example GraphQL server
 * (`node dist/examples/graphql/main.js`, what `npm run example:graphql` runs) with `REDIS_URL` set
 * to one redis-server, so their resolvers publish and subscribe through the generated pub/sub
 * (out/graphql/pubsub.ts) on a `RedisFanOut`, behind nginx (round-robin, WebSocket upgrade).
 * Subscribers are plain `graphql-ws` clients on `ws`, connected through nginx; mutations go through
 * nginx too, so they land on every instance in turn.
 *
 * - every subscriber of a project receives every event of that project, none lost, none
 *   duplicated, in publishing order (the whole received list is compared with the sent one);
 *   subscribers of another project receive none of them;
 * - an instance killed with SIGKILL: its subscribers' sockets close, graphql-ws reconnects them
 *   through nginx to the other instances and subscribes again, and every event published after
 *   that arrives; subscribers of the other instances miss nothing at all.
 *
 * What a reconnect keeps: the conventions promise a resume only where events carry ids (SSE's
 * `Last-Event-ID`, api-conventions §4.8); GraphQL subscriptions over `graphql-transport-ws` have no
 * event ids, so events published while a subscriber is disconnected are not replayed (the client
 * refetches what it shows after a reconnect). What is kept is the subscription itself: graphql-ws
 * subscribes again with the same query and variables, and the stream continues from then on.
 *
 * A subscription has no "subscribed" acknowledgement in graphql-transport-ws, so the test knows a
 * subscriber is listening when it receives a warm-up event: it publishes warm-up events until every
 * subscriber has one, then the counted events.
 */
import { createClient as createWsClient, type Client } from 'graphql-ws';
import { createClient as createRedisClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { GRAPHQL_EXAMPLE_MAIN, startExample, type RunningExample } from './support/e2e-example.js';
import { startNginx, type Nginx } from './support/nginx.js';
import { startRedis, type RedisServer } from './support/redis-server.js';

const MEMBER = 'Bearer member-token';
const SUBSCRIPTION = 'subscription ($projectId: ID!) { taskChanged(projectId: $projectId) { kind task { title project { id } } } }';
const CREATE = 'mutation ($input: CreateTaskInput!) { createTask(input: $input) { id } }';

let redis: RedisServer;
let nginx: Nginx;
/** A Redis client of the test's own, to count the channel's subscribers (PUBSUB NUMSUB). */
let probe: ReturnType<typeof createRedisClient>;
let killed: RunningExample | undefined;
const instances: RunningExample[] = [];
const subscribers: Subscriber[] = [];

/** One graphql-ws client (its own WebSocket) subscribed to one project's `taskChanged`. */
interface Subscriber {
  project: string;
  /** The titles of the tasks its events carry, in arrival order. */
  titles: string[];
  /** The instance (port) each of its WebSockets was upgraded on, as nginx's X-Upstream said. */
  upstreams: number[];
  /** How many times its socket closed. */
  closed: number;
  errors: unknown[];
  client: Client;
  dispose: () => void;
}

/** The instance that answered, by port: the last address of nginx's `$upstream_addr` (earlier ones failed). */
function upstreamPort(header: string | string[] | null | undefined): number {
  const addresses = String(header ?? '').split(', ');
  return Number(addresses[addresses.length - 1]?.split(':')[1]);
}

/** Polls `condition` (what other processes did) until true. */
async function until(condition: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Subscribes through nginx; resolves once its WebSocket is connected (graphql-ws `connected`). */
async function subscribe(project: string): Promise<Subscriber> {
  const upstreams: number[] = [];
  // `ws` with the upgrade response's X-Upstream recorded, for every (re)connect.
  class TrackedWebSocket extends WebSocket {
    constructor(address: string, protocols?: string | string[]) {
      super(address, protocols);
      this.once('upgrade', (response) => upstreams.push(upstreamPort(response.headers['x-upstream'])));
    }
  }
  let connected!: () => void;
  const firstConnect = new Promise<void>((resolve) => (connected = resolve));
  const subscriber: Subscriber = { project, titles: [], upstreams, closed: 0, errors: [], client: undefined as never, dispose: () => {} };
  subscriber.client = createWsClient({
    url: `ws://127.0.0.1:${nginx.port}/graphql`,
    webSocketImpl: TrackedWebSocket,
    connectionParams: { authorization: MEMBER },
    lazy: false,
    // Reconnect (through nginx, to another instance) whatever closed the socket, quickly.
    retryAttempts: 20,
    shouldRetry: () => true,
    retryWait: () => new Promise((resolve) => setTimeout(resolve, 100)),
    on: {
      connected: () => connected(),
      closed: () => void subscriber.closed++,
    },
  });
  await firstConnect;
  subscriber.dispose = subscriber.client.subscribe<{ taskChanged: { task: { title: string; project: { id: string } } } }>(
    { query: SUBSCRIPTION, variables: { projectId: project } },
    {
      next: (result) => {
        if (result.errors) subscriber.errors.push(result.errors);
        const task = result.data?.taskChanged.task;
        if (task) subscriber.titles.push(task.project.id === project ? task.title : `WRONG PROJECT ${task.project.id}: ${task.title}`);
      },
      error: (error) => subscriber.errors.push(error),
      complete: () => {},
    },
  );
  subscribers.push(subscriber);
  return subscriber;
}

/** Creates a task through nginx; resolves with the instance that served it, once its event is published. */
async function createTask(projectId: string, title: string): Promise<number> {
  const response = await fetch(`${nginx.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: MEMBER },
    body: JSON.stringify({ query: CREATE, variables: { input: { projectId, title } } }),
  });
  const body = (await response.json()) as { errors?: unknown };
  expect(response.status, JSON.stringify(body)).toBe(200);
  expect(body.errors).toBeUndefined();
  return upstreamPort(response.headers.get('x-upstream'));
}

/**
 * Publishes `<label>-<n>` tasks in each project, one after the other, until every subscriber of
 * that project has received one: from then on each is known to be subscribed. Returns what was sent.
 */
async function warmUp(label: string, group: readonly Subscriber[]): Promise<Map<string, string[]>> {
  const sent = new Map<string, string[]>();
  for (const project of new Set(group.map((each) => each.project))) {
    const titles: string[] = [];
    sent.set(project, titles);
    const members = group.filter((each) => each.project === project);
    const deadline = Date.now() + 60_000;
    while (!members.every((each) => each.titles.some((title) => title.startsWith(`${label}-`)))) {
      if (Date.now() > deadline) throw new Error(`${label}: not every subscriber of ${project} received a warm-up event`);
      const title = `${label}-${project}-${titles.length + 1}`;
      titles.push(title);
      await createTask(project, title);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  return sent;
}

/** The titles a subscriber received that start with `label-`. */
function received(subscriber: Subscriber, label: string): string[] {
  return subscriber.titles.filter((title) => title.startsWith(`${label}-`) || title.startsWith('WRONG'));
}

beforeAll(async () => {
  redis = await startRedis();
  // In parallel: three processes of the example on one Redis.
  instances.push(...(await Promise.all([0, 1, 2].map(() => startExample({ REDIS_URL: redis.url }, GRAPHQL_EXAMPLE_MAIN)))));
  nginx = await startNginx(instances.map((instance) => instance.port));
  probe = createRedisClient({ url: redis.url });
  probe.on('error', () => {});
  await probe.connect();
}, 120_000);

afterAll(async () => {
  for (const subscriber of subscribers) {
    subscriber.dispose();
    await subscriber.client.dispose();
  }
  await probe?.close();
  const running = instances.filter((instance) => instance !== killed);
  const stopped = await Promise.all(running.map((instance) => instance.stop()));
  await killed?.stop();
  await nginx?.close();
  await redis?.close();
  // The instances that were not killed stop cleanly (their Redis connections closed).
  expect(stopped.map((result) => result.code)).toEqual(running.map(() => 0));
}, 60_000);

describe('three example GraphQL servers behind nginx, subscriptions on one Redis', () => {
  it('every subscriber gets every event of its project, once and in order, wherever it was published; a killed instance’s subscribers reconnect and get what follows', async () => {
    // Six subscribers of p1 and two of p2, connected one after the other: round-robin spreads them.
    const p1: Subscriber[] = [];
    for (let i = 0; i < 6; i++) p1.push(await subscribe('p1'));
    const p2 = [await subscribe('p2'), await subscribe('p2')];
    const ports = instances.map((instance) => instance.port);
    expect(new Set(p1.map((each) => each.upstreams[0]))).toEqual(new Set(ports));

    // Each instance holds one Redis subscription for the p1 topic, however many sockets it serves.
    const channel = 'graphql:taskChanged:p1';
    const numsub = async () => Number(((await probe.pubSubNumSub(channel)) as Record<string, number>)[channel] ?? 0);

    await warmUp('warm1', [...p1, ...p2]);
    expect(await numsub()).toBe(3);

    // Counted events, sent through nginx one after the other: served by every instance in turn.
    const sent = Array.from({ length: 30 }, (_, index) => `one-p1-${index + 1}`);
    const servedBy = new Set<number>();
    for (const title of sent) servedBy.add(await createTask('p1', title));
    expect(servedBy).toEqual(new Set(ports));
    await until(() => p1.every((each) => received(each, 'one').length >= sent.length), 'the p1 subscribers to receive every event');
    for (const subscriber of p1) expect(received(subscriber, 'one')).toEqual(sent);
    // Another project's subscribers: none of p1's events (a p2 event after them shows they have been delivered).
    const marker = await warmUp('mark1', p2);
    for (const subscriber of p2) {
      expect(received(subscriber, 'one')).toEqual([]);
      expect(subscriber.titles.every((title) => title.startsWith('warm1-p2-') || title.startsWith('mark1-p2-'))).toBe(true);
      expect(received(subscriber, 'mark1').length).toBeGreaterThan(0);
    }
    expect(marker.get('p2')!.length).toBeGreaterThan(0);
    expect(p1.flatMap((each) => each.errors)).toEqual([]);

    // SIGKILL the instance of the first subscriber: no close handshake, its Redis connections dropped.
    const victim = instances.find((instance) => instance.port === p1[0]!.upstreams[0])!;
    killed = victim;
    const orphans = p1.filter((each) => each.upstreams[0] === victim.port);
    const survivors = p1.filter((each) => each.upstreams[0] !== victim.port);
    expect(orphans.length).toBeGreaterThan(0);
    expect(survivors.length).toBeGreaterThan(0);
    victim.child.kill('SIGKILL');
    await until(() => orphans.every((each) => each.closed > 0 && each.upstreams.length > 1), 'the orphaned subscribers to reconnect');
    for (const orphan of orphans) expect(orphan.upstreams.at(-1)).not.toBe(victim.port);

    // Once every subscriber is subscribed again (it receives a warm-up event), nothing is lost.
    const warm2 = (await warmUp('warm2', p1)).get('p1')!;
    expect(await numsub()).toBe(2);
    const after = Array.from({ length: 30 }, (_, index) => `two-p1-${index + 1}`);
    const servedAfter = new Set<number>();
    for (const title of after) servedAfter.add(await createTask('p1', title));
    expect(servedAfter).toEqual(new Set(ports.filter((port) => port !== victim.port)));
    await until(
      () => p1.every((each) => received(each, 'two').length >= after.length),
      'every p1 subscriber to receive the events after the kill',
    );
    for (const subscriber of p1) expect(received(subscriber, 'two')).toEqual(after);
    // Those that stayed connected missed nothing, not even what was published while the others reconnected.
    for (const subscriber of survivors) {
      expect(subscriber.closed).toBe(0);
      expect(received(subscriber, 'warm2')).toEqual(warm2);
    }
    expect([...p1, ...p2].flatMap((each) => each.errors)).toEqual([]);
  }, 180_000);
});
