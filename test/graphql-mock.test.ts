/**
 * GraphQL mocks (`graphqlMockResolvers`, generators/graphql/mock.ts) in the generated server of the
 * example schema, on 127.0.0.1: every operation of the example documents through the generated
 * client, every Query and Mutation field to depth 3 through third-party clients (graphql-request,
 * graphql-ws), and every answer executed again by graphql-js against the schema (no errors, the same
 * data back). Connections page with cursors; the same seed answers the same data. Then the same for
 * real schemas, each through its own generated server: SWAPI and Hacker News (../shared/corpus/graphql)
 * and GitHub's public schema.
 */
import { readFileSync, readdirSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createClient as createWsClient } from 'graphql-ws';
import { request } from 'graphql-request';
import { buildClientSchema, buildSchema, getIntrospectionQuery, type GraphQLSchema, type IntrospectionQuery } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { generate } from '../generators/core/pipeline/generate.js';
import { graphqlMockResolvers, type GraphQLMockOptions } from '../generators/graphql/mock.js';
import { createClient, webSocketSubscriptions } from '../out/graphql/client.js';
import { createGraphQLServer, createHttpServer } from '../out/graphql/server.js';
import type { Resolvers } from '../out/graphql/types.js';
import { writeFiles } from './support/client-generate.js';
import { ROOT } from './support/cli.js';
import { queriesForEveryField, schemaErrors } from './support/graphql-mock-checks.js';

const SDL = readFileSync(join(ROOT, 'schemas/graphql/tasks.graphql'), 'utf8');
const DOCUMENTS = readFileSync(join(ROOT, 'schemas/graphql/operations/tasks.graphql'), 'utf8');
const CORPUS = join(ROOT, '..', 'shared', 'corpus', 'graphql');

interface Running {
  url: string;
  close(): Promise<void>;
}

/** A generated server's `createGraphQLServer`, loosely: each corpus schema has its own `Resolvers`. */
type CreateServer = (
  resolvers: never,
  options: {
    context: () => object;
    authenticate?: () => { role: string };
    limits?: { complexity: number; tokens?: number; aliases?: number };
  },
) => { listener: Parameters<typeof createHttpServer>[0]; attach(server: Server): void; close(): Promise<void> };

async function listen(
  create: CreateServer,
  resolvers: unknown,
  limits?: { complexity: number; tokens?: number; aliases?: number },
): Promise<Running> {
  const graphql = create(resolvers as never, {
    context: () => ({}),
    authenticate: () => ({ role: 'ADMIN' }),
    ...(limits ? { limits } : {}),
  });
  const server = createHttpServer(graphql.listener);
  graphql.attach(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/graphql`,
    close: async () => {
      await graphql.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The example server with mock resolvers of `options`. */
function exampleServer(schema: GraphQLSchema, options: GraphQLMockOptions): Promise<Running> {
  const resolvers = graphqlMockResolvers(schema, options) as unknown as Resolvers<object>;
  return listen(createGraphQLServer as unknown as CreateServer, resolvers);
}

async function expectValid(
  schema: GraphQLSchema,
  document: string,
  data: unknown,
  variables?: Record<string, unknown>,
  operationName?: string,
) {
  const { errors, replayed } = await schemaErrors(schema, document, data, variables, operationName);
  expect(errors).toEqual([]);
  expect(replayed).toEqual(data);
}

describe('GraphQL mocks in the generated server of the example', () => {
  const schema = buildSchema(SDL);
  let running: Running;
  let client: ReturnType<typeof createClient>;

  beforeAll(async () => {
    running = await exampleServer(schema, { seed: 7, subscriptionIntervalMs: 5 });
    client = createClient({ url: running.url, subscriptions: webSocketSubscriptions({ webSocketImpl: WebSocket }) });
  });
  afterAll(async () => {
    await client?.close();
    await running?.close();
  });

  it('answers every query and mutation of the documents through the generated client', async () => {
    // Each operation of the documents: its name, its variables, the generated client's call.
    const calls: [string, Record<string, unknown>, (variables: never) => Promise<{ data?: unknown; errors?: readonly unknown[] }>][] = [
      ['Viewer', {}, client.viewer],
      ['GetTask', { id: 't-42' }, client.getTask],
      ['ProjectTasks', { projectId: 'p-1', first: 2 }, client.projectTasks],
      ['Search', { text: 'alpha' }, client.search],
      ['CreateTask', { input: { projectId: 'p-1', title: 'Write the mock tests' } }, client.createTask],
      ['UpdateTask', { id: 't-42', input: { status: 'DONE' } }, client.updateTask],
      ['DeleteTask', { id: 't-42' }, client.deleteTask],
    ];
    const results: Record<string, unknown> = {};
    for (const [operation, values, call] of calls) {
      const result = await call(values as never);
      expect(result.errors ?? [], operation).toEqual([]);
      expect(result.data, operation).toBeTruthy();
      await expectValid(schema, DOCUMENTS, result.data, values, operation);
      results[operation] = result.data;
    }
    // Arguments that name a field of the answer are echoed: the task asked for, the title created.
    expect(results.GetTask).toMatchObject({ task: { id: 't-42' } });
    expect(results.CreateTask).toMatchObject({ createTask: { title: 'Write the mock tests' } });
    expect(results.UpdateTask).toMatchObject({ updateTask: { id: 't-42', status: 'DONE' } });
    // Custom scalars have values of their kind: DateTime is RFC 3339 text.
    const createdAt = (results.GetTask as { task: { createdAt: string } }).task.createdAt;
    expect(new Date(createdAt).toISOString()).toBe(createdAt);
  });

  it('answers every Query and Mutation field to depth 3 through graphql-request, as the schema says', async () => {
    const introspection = await request<IntrospectionQuery>(running.url, getIntrospectionQuery());
    const served = buildClientSchema(introspection);
    const queries = [
      ...queriesForEveryField(served, served.getQueryType()!, { depth: 3 }),
      ...queriesForEveryField(served, served.getMutationType()!, { depth: 3 }, 'mutation'),
    ];
    expect(queries.map(([field]) => field)).toEqual([
      'viewer',
      'node',
      'project',
      'projects',
      'task',
      'search',
      'createTask',
      'updateTask',
      'deleteTask',
    ]);
    for (const [field, query] of queries) {
      const data = await request<Record<string, unknown>>(running.url, query);
      expect(data[field], field).not.toBeNull();
      await expectValid(schema, query, data);
    }
  });

  it('pages a connection with cursors: every item once, as many as totalCount', async () => {
    const ids: string[] = [];
    let after: string | null = null;
    let totalCount = 0;
    for (let pages = 0; pages < 10; pages++) {
      const result = await client.projectTasks({ projectId: 'p-1', first: 2, ...(after ? { after } : {}) });
      const tasks = result.data!.project!.tasks;
      totalCount = tasks.totalCount;
      ids.push(...tasks.edges.map((edge) => edge.node.id));
      expect(tasks.pageInfo.endCursor).toBe(tasks.edges.at(-1)?.cursor ?? null);
      if (!tasks.pageInfo.hasNextPage) break;
      after = tasks.pageInfo.endCursor;
    }
    expect(totalCount).toBe(5);
    expect(ids).toHaveLength(5);
    // The first page asked for again is the same page.
    const again = await client.projectTasks({ projectId: 'p-1', first: 2 });
    expect(again.data!.project!.tasks.edges.map((edge) => edge.node.id)).toEqual(ids.slice(0, 2));
    // A filter argument of the connection holds for every item.
    const done = await client.projectTasks({ projectId: 'p-1', status: 'DONE' });
    expect(done.data!.project!.tasks.edges.map((edge) => edge.node.status)).toEqual(['DONE', 'DONE', 'DONE', 'DONE', 'DONE']);
    const bad = await client.projectTasks({ projectId: 'p-1', after: 'not-a-cursor' });
    expect(bad.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  });

  it('sends subscription events on a timer, each valid (generated client and graphql-ws)', async () => {
    const received: unknown[] = [];
    for await (const result of client.taskChanged({ projectId: 'p-1' })) {
      expect(result.errors ?? []).toEqual([]);
      await expectValid(schema, DOCUMENTS, result.data, { projectId: 'p-1' }, 'TaskChanged');
      received.push(result.data);
      if (received.length === 3) break;
    }
    expect(received).toHaveLength(3);
    // Events differ from one another (each is the sample of its count).
    expect(new Set(received.map((event) => JSON.stringify(event))).size).toBe(3);

    const ws = createWsClient({ url: running.url.replace('http:', 'ws:'), webSocketImpl: WebSocket, retryAttempts: 0 });
    const [field, query] = [...queriesForEveryField(schema, schema.getSubscriptionType()!, { depth: 3 }, 'subscription')][0]!;
    const events: unknown[] = [];
    for await (const result of ws.iterate({ query })) {
      expect(result.errors).toBeUndefined();
      await expectValid(schema, query, result.data);
      events.push((result.data as Record<string, unknown>)[field]);
      if (events.length === 2) break;
    }
    await ws.dispose();
    expect(events).toHaveLength(2);
  });

  it('answers the same data for the same seed, other data for another', async () => {
    const query =
      '{ projects { id name createdAt tasks(first: 2) { edges { node { id title status } } } } search(text: "x") { __typename ... on Node { id } } }';
    const same = await exampleServer(schema, { seed: 7 });
    const other = await exampleServer(schema, { seed: 8 });
    try {
      const [a, b, c] = await Promise.all([request(running.url, query), request(same.url, query), request(other.url, query)]);
      expect(b).toEqual(a);
      expect(c).not.toEqual(a);
    } finally {
      await same.close();
      await other.close();
    }
  });
});

describe('GraphQL mocks for schemas of ../shared/corpus/graphql', () => {
  const cases = [
    {
      name: 'swapi',
      // Its example query 04 (starships, their pilots and homeworlds) costs 3550 points with the
      // server's page-size multipliers, over the default limit of 1000.
      limits: { complexity: 5000 },
      schema: join(CORPUS, 'swapi', 'schema.graphql'),
      documents: readdirSync(join(CORPUS, 'swapi', 'example_queries'))
        .filter((file) => file !== '07_fragments.graphql' && file !== '08_introspection.graphql')
        .map((file) => join(CORPUS, 'swapi', 'example_queries', file)),
    },
    { name: 'hackernews', schema: join(CORPUS, 'howtographql-hackernews', 'schema.graphql'), documents: [] as string[] },
    // GitHub's public schema: 12 custom scalars, `nodes` beside `edges`, 150 deprecated fields; its
    // SDL repeats field definitions (hence assumeValidSDL). Its types have up to 100 fields, so
    // even depth 2 with 3 fragments per abstract type (`Node` has hundreds of types) passes the
    // server's default 2000-token limit: this server allows 20000 (and aliases for fields that
    // conflict between fragments).
    {
      name: 'github',
      schema: join(ROOT, 'node_modules', '@octokit', 'graphql-schema', 'schema.graphql'),
      documents: [] as string[],
      shape: { depth: 2, fragments: 3 },
      limits: { complexity: 20_000, tokens: 20_000, aliases: 1000 },
      assumeValidSDL: true,
    },
  ];
  for (const test of cases) {
    it(`${test.name}: every Query field to depth ${test.shape?.depth ?? 3}, and every example query, validate against the schema`, async () => {
      const folder = join(ROOT, '.vitest-tmp', `graphql-mock-${test.name}`);
      const [output] = await generate([
        {
          name: test.name,
          inputs: [test.schema],
          documents: test.documents,
          style: 'graphql',
          output: folder,
          emit: ['types', 'server'],
          options: test.assumeValidSDL ? { assumeValidSDL: true } : {},
          root: ROOT,
        },
      ]);
      writeFiles(folder, output!.files);
      const generated = (await import(join(folder, 'server.ts'))) as { createGraphQLServer: CreateServer };
      const schema = buildSchema(readFileSync(test.schema, 'utf8'), { assumeValidSDL: test.assumeValidSDL === true });
      const running = await listen(generated.createGraphQLServer, graphqlMockResolvers(schema, { seed: 3 }), test.limits);
      try {
        const queries = [...queriesForEveryField(schema, schema.getQueryType()!, test.shape ?? { depth: 3 })];
        expect(queries.length).toBeGreaterThan(0);
        for (const [field, query] of queries) {
          const data = await request<Record<string, unknown>>(running.url, query);
          expect(data[field], field).not.toBeNull();
          await expectValid(schema, query, data);
        }
        for (const file of test.documents) {
          const document = readFileSync(file, 'utf8');
          const data = await request<Record<string, unknown>>(running.url, document);
          await expectValid(schema, document, data);
        }
      } finally {
        await running.close();
      }
    }, 120_000);
  }
});
