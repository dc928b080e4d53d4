/**
 * `pubsub.ts` of a GraphQL API (plugin `pubsub`, written with `server`): for a schema with several
 * `Subscription` fields (arguments of every kind, a field without arguments, names that need
 * escaping, a mapped payload) the file as generated (snapshot), a strict user file that compiles
 * with both compilers and whose `@ts-expect-error` lines prove wrong keys and payloads are compile
 * errors, and the generated module at work: graphql-js executing subscriptions whose resolvers are
 * `pubsub.<field>.subscribe(args)`, over memory and over a real redis-server shared by two
 * "instances".
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildSchema, parse, subscribe, type ExecutionResult } from 'graphql';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GeneratedFile } from '../generators/core/pipeline/output.js';
import { isKeyArgument } from '../generators/graphql/pubsub.js';
import { ROOT } from './support/cli.js';
import { transpileFolder, writeFiles } from './support/client-generate.js';
import { generateGraphQLFiles } from './support/generate.js';
import { startRedis, type RedisServer } from './support/redis-server.js';
import { COMPILERS, STRICTEST, typecheck } from './support/typecheck.js';

const FIXTURES = join(ROOT, 'test', 'fixtures', 'graphql-pubsub');
const SCHEMA = join(FIXTURES, 'schema.graphql');
const OPTIONS = { mappers: { Task: './records.js#TaskRecord' }, scalars: { Stamp: 'string' }, redis: true };

mkdirSync(join(ROOT, '.vitest-tmp'), { recursive: true });
const OUT = mkdtempSync(join(ROOT, '.vitest-tmp', 'graphql-pubsub-'));
afterAll(() => rmSync(OUT, { recursive: true, force: true }));

let files: GeneratedFile[];
const file = (path: string) => files.find((each) => each.path === path)?.content ?? '';

beforeAll(async () => {
  files = await generateGraphQLFiles(SCHEMA, [], ['types', 'server'], OPTIONS);
  writeFiles(OUT, files);
  copyFileSync(join(FIXTURES, 'records.ts'), join(OUT, 'records.ts'));
});

/** The generated module as this test calls it (its own types are checked by the strict user file below). */
interface FieldTopic {
  publish(...args: unknown[]): Promise<void>;
  subscribe(
    args: object,
    options?: { filter?: (payload: never, args: never) => boolean; signal?: AbortSignal },
  ): Promise<AsyncIterableIterator<unknown>>;
}
type FieldName = 'taskChanged' | 'tick' | 'delete' | 'task' | 'search';
type PubSubLike = Record<FieldName, FieldTopic>;
interface PubSubModule {
  createPubSub(fanOut?: unknown, options?: { codec?: { encode(payload: unknown): string; decode(text: string): unknown } }): PubSubLike;
}

describe('pubsub.ts', () => {
  it('is written with the server when the schema has Subscription fields, and only then', async () => {
    expect(files.map((each) => each.path)).toContain('pubsub.ts');
    expect(files.map((each) => each.path)).toEqual(
      expect.arrayContaining(['runtime/graphql-pubsub.ts', 'runtime/topic.ts', 'runtime/pubsub.ts', 'runtime/redis-fanout.ts']),
    );
    const typesOnly = await generateGraphQLFiles(SCHEMA, [], ['types'], OPTIONS);
    expect(typesOnly.map((each) => each.path)).not.toContain('pubsub.ts');
    const noSubscriptions = join(OUT, 'no-subscriptions.graphql');
    writeFileSync(noSubscriptions, 'type Query { a: Int }\n');
    const server = await generateGraphQLFiles(noSubscriptions, [], ['types', 'server'], {});
    expect(server.map((each) => each.path)).not.toContain('pubsub.ts');
    expect(server.map((each) => each.path)).not.toContain('runtime/topic.ts');
  });

  it('as generated (snapshot), with types.ts’s SubscriptionPayloads', async () => {
    await expect(file('pubsub.ts')).toMatchFileSnapshot(join(FIXTURES, 'pubsub.ts.snap'));
    const types = file('types.ts');
    const payloads = types.slice(types.indexOf('/** What the events of each `Subscription` field carry'));
    await expect(payloads.slice(0, payloads.indexOf('}\n') + 2)).toMatchFileSnapshot(join(FIXTURES, 'subscription-payloads.ts.snap'));
  });

  it('keys a field by its required scalar and enum arguments; the others are for filters', () => {
    const fields = buildSchema(readSdl()).getSubscriptionType()!.getFields();
    const keyed = Object.fromEntries(
      Object.values(fields).map((field) => [field.name, field.args.filter(isKeyArgument).map((arg) => arg.name)]),
    );
    expect(keyed).toEqual({ taskChanged: ['projectId', 'kind', 'limit'], tick: [], delete: ['id'], task: ['id', 'flag'], search: [] });
    expect(file('pubsub.ts')).toContain('new SubscriptionTopic(fanOut, "taskChanged", ["projectId", "kind", "limit"], options.codec)');
  });

  it('escapes descriptions and names: no comment ends early, reserved names are numbered or suffixed', () => {
    const pubsub = file('pubsub.ts');
    expect(pubsub).toContain('ends a comment: *\\/ and goes on.');
    expect(pubsub).not.toMatch(/\*\/ and goes on/);
    expect(pubsub).toContain('SubscriptionPayloads2["delete"]');
    expect(file('types.ts')).toContain('delete: string_ | null;');
  });

  it('type-checks under strict with a user file; wrong keys and payloads are compile errors', () => {
    writeFileSync(join(OUT, 'usage.ts'), USAGE);
    for (const [name, compiler] of Object.entries(COMPILERS)) {
      const result = typecheck(OUT, compiler, 'node', ['**/*.ts'], STRICTEST);
      expect(result.output, name).toBe('');
    }
  });
});

describe('the generated pub/sub at work, under graphql-js', () => {
  let module: PubSubModule;
  let redis: RedisServer;
  const clients: ReturnType<typeof createClient>[] = [];

  beforeAll(async () => {
    transpileFolder(OUT);
    module = (await import(pathToFileURL(join(OUT, 'pubsub.js')).href)) as PubSubModule;
    redis = await startRedis();
  }, 60_000);

  afterAll(async () => {
    for (const client of clients) await client.close();
    await redis?.close();
  });

  /** An executable schema whose subscribe resolvers are the one-liners pubsub.ts promises. */
  function schemaWith(pubsub: PubSubLike) {
    const schema = buildSchema(readSdl());
    const fields = schema.getSubscriptionType()!.getFields();
    for (const name of ['taskChanged', 'tick', 'delete', 'task'] as const) {
      fields[name]!.subscribe = (_parent, args: object) => pubsub[name].subscribe(args);
    }
    const search = (tasks: { title: string }[], { text }: { text?: string | null }) =>
      !text || tasks.some((task) => task.title.includes(text));
    fields.search!.subscribe = (_parent, args: object) => pubsub.search.subscribe(args, { filter: search });
    return schema;
  }

  async function start(schema: ReturnType<typeof schemaWith>, query: string) {
    const result = await subscribe({ schema, document: parse(query) });
    if (!(Symbol.asyncIterator in result)) throw new Error(JSON.stringify(result));
    return result as AsyncGenerator<ExecutionResult>;
  }

  async function check(subscriber: PubSubLike, publisher: PubSubLike) {
    const subscriberSide = schemaWith(subscriber);
    const p1 = await start(
      subscriberSide,
      'subscription { taskChanged(projectId: "p1", kind: CREATED, tags: [], at: "now") { kind task { id title } } }',
    );
    const p2 = await start(
      subscriberSide,
      'subscription { taskChanged(projectId: "p2", kind: CREATED, tags: [], at: "now") { task { id } } }',
    );
    const ticks = await start(subscriberSide, 'subscription { tick }');
    const searches = await start(subscriberSide, 'subscription { search(text: "b") { title } }');
    // subscribe() has resolved: what is published now must arrive, from this "instance" or another.
    const key = { projectId: 'p1', kind: 'CREATED' as const, limit: 10 };
    await publisher.taskChanged.publish(key, { kind: 'CREATED', task: { id: 't1', title: 'a', projectId: 'p1' } });
    await publisher.taskChanged.publish(key, { kind: 'CREATED', task: { id: 't2', title: 'b', projectId: 'p1' } });
    await publisher.taskChanged.publish({ ...key, projectId: 'p2' }, { kind: 'CREATED', task: { id: 't3', title: 'c', projectId: 'p2' } });
    for (const tick of [1, 2, 3]) await publisher.tick.publish(tick);
    await publisher.search.publish([{ id: 't1', title: 'a', projectId: 'p1' }]);
    await publisher.search.publish([{ id: 't2', title: 'b', projectId: 'p1' }]);

    const take = async (events: AsyncGenerator<ExecutionResult>, count: number) => {
      const results: unknown[] = [];
      for (let i = 0; i < count; i++) results.push((await events.next()).value);
      await events.return(undefined);
      return results;
    };
    expect(await take(p1, 2)).toEqual([
      { data: { taskChanged: { kind: 'CREATED', task: { id: 't1', title: 'a' } } } },
      { data: { taskChanged: { kind: 'CREATED', task: { id: 't2', title: 'b' } } } },
    ]);
    expect(await take(p2, 1)).toEqual([{ data: { taskChanged: { task: { id: 't3' } } } }]);
    expect(await take(ticks, 3)).toEqual([{ data: { tick: 1 } }, { data: { tick: 2 } }, { data: { tick: 3 } }]);
    // The filter skipped the event without "b".
    expect(await take(searches, 1)).toEqual([{ data: { search: [{ title: 'b' }] } }]);
  }

  it('in one process (MemoryFanOut, the default)', async () => {
    const pubsub = module.createPubSub();
    await check(pubsub, pubsub);
  });

  it('across two instances on one Redis (RedisFanOut): subscribe resolves once Redis confirmed it', async () => {
    const server = await import(pathToFileURL(join(OUT, 'server.js')).href);
    const instance = async () => {
      const client = createClient({ url: redis.url, disableOfflineQueue: true });
      await client.connect();
      clients.push(client);
      return module.createPubSub(new server.RedisFanOut(client, { prefix: 'test:' }));
    };
    const [subscriberSide, publisherSide] = [await instance(), await instance()];
    await check(subscriberSide, publisherSide);
    // graphql-js ended each subscription with return(): the Redis subscriptions go too (asynchronously).
    const channel = 'test:taskChanged:p1:CREATED:10';
    const deadline = Date.now() + 20_000;
    while (Number((await clients[0]!.pubSubNumSub(channel))[channel]) !== 0 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await clients[0]!.pubSubNumSub(channel)).toEqual({ [channel]: 0 });
  }, 60_000);

  it('takes a codec for payloads JSON does not keep (memory encodes as Redis does)', async () => {
    const when = new Date('2026-11-27T01:30:00Z');
    const plain = module.createPubSub();
    const plainEvents = await plain.tick.subscribe({});
    await plain.tick.publish(when);
    // JSON turns a Date into a string: what a second instance would get, shown by one process too.
    expect(await plainEvents.next()).toEqual({ done: false, value: { tick: when.toISOString() } });
    const dates = {
      encode: (payload: unknown) => JSON.stringify(payload instanceof Date ? { $date: payload.toISOString() } : payload),
      decode: (text: string) => {
        const value: unknown = JSON.parse(text);
        return value !== null && typeof value === 'object' && '$date' in value ? new Date(String(value.$date)) : value;
      },
    };
    const coded = module.createPubSub(undefined, { codec: dates });
    const codedEvents = await coded.tick.subscribe({});
    await coded.tick.publish(when);
    const next = await codedEvents.next();
    expect((next.value as { tick: unknown }).tick).toBeInstanceOf(Date);
    expect(next.value).toEqual({ tick: when });
    await plainEvents.return?.();
    await codedEvents.return?.();
  });

  it('ends a subscription when its signal aborts', async () => {
    const pubsub = module.createPubSub();
    const controller = new AbortController();
    const events = await pubsub.tick.subscribe({}, { signal: controller.signal });
    await pubsub.tick.publish(7);
    expect(await events.next()).toEqual({ done: false, value: { tick: 7 } });
    controller.abort();
    expect(await events.next()).toEqual({ done: true, value: undefined });
  });
});

function readSdl(): string {
  return readFileSync(SCHEMA, 'utf8');
}

/** A user's strict code against the generated module. */
const USAGE = `import { createPubSub, MemoryFanOut, type PubSub } from "./pubsub.js";
import { RedisFanOut } from "./server.js";
import type { TaskRecord } from "./records.js";
import type { SubscriptionResolvers } from "./types.js";

declare const redis: ConstructorParameters<typeof RedisFanOut>[0];
export const memory: PubSub = createPubSub(new MemoryFanOut());
export const shared: PubSub = createPubSub(new RedisFanOut(redis, { prefix: "graphql:" }));
const record: TaskRecord = { id: "t1", title: "a", projectId: "p1" };

// The resolvers are one line each, and match SubscriptionResolvers exactly.
export const resolvers = {
  taskChanged: { subscribe: (_parent, args, context) => context.pubsub.taskChanged.subscribe(args) },
  tick: { subscribe: (_parent, args, { pubsub }) => pubsub.tick.subscribe(args) },
  delete: { subscribe: (_parent, args, { pubsub }) => pubsub.delete.subscribe(args) },
  task: { subscribe: (_parent, args, { pubsub }) => pubsub.task.subscribe(args, { filter: (task, { flag }) => flag || task !== null }) },
  search: {
    subscribe: (_parent, args, { pubsub }, _info) =>
      pubsub.search.subscribe(args, { filter: (tasks, { text }) => !text || tasks.some((task) => task.title.includes(text)) }),
  },
} satisfies SubscriptionResolvers<{ pubsub: PubSub }>;

export async function publishing(pubsub: PubSub): Promise<void> {
  await pubsub.taskChanged.publish({ projectId: "p1", kind: "CREATED", limit: 10 }, { kind: "CREATED", task: record });
  await pubsub.tick.publish(1);
  await pubsub.delete.publish({ id: "x" }, { value: "gone" });
  await pubsub.delete.publish({ id: "x" }, null);
  await pubsub.task.publish({ id: "t1", flag: true }, record);
  await pubsub.search.publish([record]);

  // @ts-expect-error the key lacks kind and limit
  await pubsub.taskChanged.publish({ projectId: "p1" }, { kind: "CREATED", task: record });
  // @ts-expect-error a key part of the wrong type
  await pubsub.task.publish({ id: 1, flag: true }, record);
  // @ts-expect-error kind is an enum
  await pubsub.taskChanged.publish({ projectId: "p1", kind: "MOVED", limit: 1 }, { kind: "CREATED", task: record });
  // @ts-expect-error the payload is the resolver-side TaskRecord, which has projectId
  await pubsub.task.publish({ id: "t1", flag: true }, { id: "t1", title: "a" });
  // @ts-expect-error tick has no key: only the payload
  await pubsub.tick.publish({}, 1);
  // @ts-expect-error a tick is a number
  await pubsub.tick.publish("1");
  // @ts-expect-error delete's payload may be null, not undefined
  await pubsub.delete.publish({ id: "x" }, undefined);
  // @ts-expect-error status is not part of the key
  await pubsub.taskChanged.publish({ projectId: "p1", kind: "CREATED", limit: 10, status: "x" }, { kind: "CREATED", task: record });

  const events = await pubsub.taskChanged.subscribe(
    { projectId: "p1", kind: "DELETED", limit: 1, tags: [], status: null, at: "now" },
    { filter: (change, args) => change.task.projectId === args.projectId && args.tags.length === 0, maxQueued: 10 },
  );
  for await (const event of events) {
    const task: TaskRecord = event.taskChanged.task;
    // @ts-expect-error the event is keyed by the field's name
    void event.tick;
    void task;
    break;
  }
  // @ts-expect-error subscribing needs the field's required arguments
  await pubsub.taskChanged.subscribe({ projectId: "p1" });
  // @ts-expect-error the filter gets the payload
  await pubsub.tick.subscribe({}, { filter: (tick: string) => tick === "1" });
}
`;
