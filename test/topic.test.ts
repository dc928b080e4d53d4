/**
 * The typed topics of runtime/topic.ts (what the generated GraphQL and gRPC pub/sub modules are
 * made of), over the in-memory fan-out and over Redis (a real redis-server, two clients standing
 * for two server instances).
 */
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryFanOut, type FanOut } from '../runtime/pubsub.js';
import { SubscriptionOverflowError, Topic, type TopicSubscription } from '../runtime/topic.js';
import { RedisFanOut } from '../runtime/redis-fanout.js';
import { startRedis, type RedisServer } from './support/redis-server.js';

interface Change {
  kind: 'CREATED' | 'UPDATED';
  id: string;
}

const changes = new Topic<{ projectId: string }, Change>('taskChanged', (key) => [key.projectId]);

async function take<T>(subscription: TopicSubscription<T>, count: number): Promise<T[]> {
  const values: T[] = [];
  for await (const value of subscription) {
    values.push(value);
    if (values.length === count) break;
  }
  return values;
}

describe('Topic over the in-memory fan-out', () => {
  it('delivers in publishing order, per key, to every subscriber of the key', async () => {
    const fanOut = new MemoryFanOut();
    const a = await changes.subscribe(fanOut, { projectId: 'p1' });
    const b = await changes.subscribe(fanOut, { projectId: 'p1' });
    const other = await changes.subscribe(fanOut, { projectId: 'p2' });
    for (let i = 0; i < 50; i++) await changes.publish(fanOut, { projectId: 'p1' }, { kind: 'CREATED', id: `t${i}` });
    await changes.publish(fanOut, { projectId: 'p2' }, { kind: 'UPDATED', id: 'x' });
    const expected = Array.from({ length: 50 }, (_, i) => ({ kind: 'CREATED', id: `t${i}` }));
    expect(await take(a, 50)).toEqual(expected);
    expect(await take(b, 50)).toEqual(expected);
    expect(await take(other, 1)).toEqual([{ kind: 'UPDATED', id: 'x' }]);
  });

  it('encodes key parts, so no two keys share a channel', () => {
    expect(changes.channel({ projectId: 'a:b' })).toBe('taskChanged:a%3Ab');
    const pair = new Topic<{ a: string; b: string }, Change>('t', (key) => [key.a, key.b]);
    expect(pair.channel({ a: 'x:y', b: 'z' })).not.toBe(pair.channel({ a: 'x', b: 'y:z' }));
  });

  it('applies the filter, and unsubscribes on return() and on abort', async () => {
    const fanOut = new MemoryFanOut();
    const controller = new AbortController();
    const updates = await changes.subscribe(
      fanOut,
      { projectId: 'p1' },
      { filter: (change) => change.kind === 'UPDATED', signal: controller.signal },
    );
    await changes.publish(fanOut, { projectId: 'p1' }, { kind: 'CREATED', id: 't1' });
    await changes.publish(fanOut, { projectId: 'p1' }, { kind: 'UPDATED', id: 't1' });
    expect(await updates.next()).toEqual({ value: { kind: 'UPDATED', id: 't1' }, done: false });
    const pending = updates.next();
    controller.abort();
    expect(await pending).toEqual({ value: undefined, done: true });
    const topics = (fanOut as unknown as { topics: Map<string, unknown> }).topics;
    await new Promise((resolve) => setImmediate(resolve));
    expect(topics.size).toBe(0);
    const later = await changes.subscribe(fanOut, { projectId: 'p1' });
    await later.return();
    await new Promise((resolve) => setImmediate(resolve));
    expect(topics.size).toBe(0);
  });

  it('a consumer that falls behind reads what was kept, then a SubscriptionOverflowError; memory stays bounded', async () => {
    const fanOut = new MemoryFanOut();
    const slow = await changes.subscribe(fanOut, { projectId: 'p1' }, { maxQueued: 3 });
    for (let i = 0; i < 10; i++) await changes.publish(fanOut, { projectId: 'p1' }, { kind: 'CREATED', id: `t${i}` });
    expect((await slow.next()).value).toEqual({ kind: 'CREATED', id: 't0' });
    expect((await slow.next()).value).toEqual({ kind: 'CREATED', id: 't1' });
    expect((await slow.next()).value).toEqual({ kind: 'CREATED', id: 't2' });
    await expect(slow.next()).rejects.toBeInstanceOf(SubscriptionOverflowError);
    expect(await slow.next()).toEqual({ value: undefined, done: true });
  });

  it('skips a message it cannot decode and reports it', async () => {
    const fanOut = new MemoryFanOut();
    const errors: unknown[] = [];
    const subscription = await changes.subscribe(fanOut, { projectId: 'p1' }, { onError: (error) => errors.push(error) });
    await fanOut.publish('taskChanged:p1', '{not json');
    await changes.publish(fanOut, { projectId: 'p1' }, { kind: 'CREATED', id: 't1' });
    expect((await subscription.next()).value).toEqual({ kind: 'CREATED', id: 't1' });
    expect(errors).toHaveLength(1);
  });
});

describe('Topic over Redis: two instances, one redis-server', () => {
  let redis: RedisServer;
  const clients: ReturnType<typeof createClient>[] = [];
  const fanOuts: RedisFanOut[] = [];

  beforeAll(async () => {
    redis = await startRedis();
    for (let i = 0; i < 2; i++) {
      const client = createClient({ url: redis.url, disableOfflineQueue: true });
      client.on('error', () => {});
      await client.connect();
      clients.push(client);
      fanOuts.push(new RedisFanOut(client, { prefix: 'test:' }));
    }
  });
  afterAll(async () => {
    for (const fanOut of fanOuts) await fanOut.close();
    for (const client of clients) await client.close();
    await redis?.close();
  });

  it('what one instance publishes reaches the subscribers of both, each once, in order', async () => {
    const [a, b] = fanOuts as unknown as [FanOut, FanOut];
    const onA = await changes.subscribe(a, { projectId: 'p1' });
    const onB = await changes.subscribe(b, { projectId: 'p1' });
    const published = Array.from({ length: 200 }, (_, i) => ({ kind: 'CREATED' as const, id: `t${i}` }));
    for (const change of published) await changes.publish(b, { projectId: 'p1' }, change);
    expect(await take(onA, 200)).toEqual(published);
    expect(await take(onB, 200)).toEqual(published);
  });
});
