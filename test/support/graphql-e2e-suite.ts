/**
 * The GraphQL example end to end: `node dist/examples/graphql/main.js` (what `npm run
 * example:graphql` runs, with `MOUNT=<mount>`: its own listener, or the endpoint mounted in Fastify,
 * Express or Koa by examples/graphql/mounts.ts) on 127.0.0.1 with PORT=0, called by the generated client
 * (out/graphql/client.ts as compiled into dist/) over HTTP and WebSocket, and by a plain
 * `graphql-ws` client on `ws`. Queries with fragments, a cursor-paginated list, mutations, a
 * subscription, an `@auth`-denied field (partial success with its path), limits, persisted-only
 * mode, production introspection and the WebSocket Origin check, all as a user's app meets them.
 */
import { createClient as createWsClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { Mount } from '../../examples/graphql/mounts.js';
import { GRAPHQL_EXAMPLE_MAIN, importDist, startExample, type RunningExample } from './e2e-example.js';

type ClientModule = typeof import('../../out/graphql/client.js');
type OperationsModule = typeof import('../../out/graphql/operations.js');

/** The whole suite against the example served as `mount` says. */
export function graphqlE2eSuite(mount: Mount): void {
  const ADMIN = 'Bearer admin-token';
  const MEMBER = 'Bearer member-token';

  let lib: ClientModule;
  let operations: OperationsModule;
  let example: RunningExample;

  function client(authorization?: string, options: Partial<Parameters<ClientModule['createClient']>[0]> = {}) {
    return lib.createClient({
      url: example.url,
      headers: authorization ? { authorization } : {},
      subscriptions: lib.webSocketSubscriptions({
        webSocketImpl: WebSocket,
        connectionParams: authorization ? { authorization } : {},
        retryAttempts: 0,
      }),
      ...options,
    });
  }

  async function post(url: string, body: unknown, headers: Record<string, string> = {}) {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
    return {
      status: response.status,
      body: (await response.json()) as { data?: unknown; errors?: { message: string; path?: unknown[]; extensions?: { code?: string } }[] },
    };
  }

  beforeAll(async () => {
    lib = await importDist<ClientModule>('out/graphql/client.js');
    operations = await importDist<OperationsModule>('out/graphql/operations.js');
    example = await startExample({ MOUNT: mount }, GRAPHQL_EXAMPLE_MAIN);
  });

  afterAll(async () => {
    const { code } = await example.stop();
    expect(code).toBe(0);
  });

  describe('the GraphQL example with the generated client', () => {
    it('prints its URL first, with the /graphql path', () => {
      expect(example.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/graphql$/);
    });

    it('answers a query with fragments and a nested relation', async () => {
      const { data, errors } = await client(ADMIN).getTask({ id: 't1' });
      expect(errors).toEqual([]);
      expect(data?.task).toMatchObject({
        id: 't1',
        title: 'Task 1',
        status: 'TODO',
        internalNotes: 'Blocked on legal review',
        assignee: { id: 'u2', name: 'Grace' },
        project: { id: 'p1', name: 'Launch' },
      });
    });

    it('partial success: a field @auth denies is null with an error carrying its path; the rest succeeds', async () => {
      const anonymous = await client().getTask({ id: 't1' });
      expect(anonymous.data?.task).toMatchObject({ id: 't1', title: 'Task 1', internalNotes: null });
      expect(anonymous.errors).toEqual([
        expect.objectContaining({ path: ['task', 'internalNotes'], extensions: expect.objectContaining({ code: 'UNAUTHENTICATED' }) }),
      ]);

      const member = await client(MEMBER).getTask({ id: 't1' });
      expect(member.data?.task?.internalNotes).toBeNull();
      expect(member.errors).toEqual([
        expect.objectContaining({ path: ['task', 'internalNotes'], extensions: expect.objectContaining({ code: 'FORBIDDEN' }) }),
      ]);
    });

    it('pages through a connection with cursors, and rejects a page size over the maximum before running it', async () => {
      const api = client(MEMBER);
      const first = await api.projectTasks({ projectId: 'p1', first: 10 });
      expect(first.errors).toEqual([]);
      const tasks = first.data!.project!.tasks;
      expect(tasks.edges).toHaveLength(10);
      expect(tasks.pageInfo.hasNextPage).toBe(true);
      const second = await api.projectTasks({ projectId: 'p1', first: 10, after: tasks.pageInfo.endCursor });
      expect(second.data!.project!.tasks.edges[0].node.id).not.toBe(tasks.edges[9].node.id);
      expect(second.data!.project!.tasks.totalCount).toBe(tasks.totalCount);

      const huge = await api.projectTasks({ projectId: 'p1', first: 5000 });
      expect(huge.data).toBeNull();
      expect(huge.errors[0].extensions?.code).toBe('PAGE_SIZE_LIMIT_EXCEEDED');
    });

    it('answers union and interface selections with __typename', async () => {
      const { data } = await client().search({ text: 'launch' });
      expect(data?.search).toEqual([{ __typename: 'Project', id: 'p1', name: 'Launch' }]);
    });

    it('runs mutations by role: a member creates, only an admin deletes', async () => {
      const created = await client(MEMBER).createTask({ input: { projectId: 'p2', title: 'Write the GraphQL guide' } });
      expect(created.errors).toEqual([]);
      const id = created.data!.createTask.id;
      expect(created.data!.createTask).toMatchObject({ title: 'Write the GraphQL guide', status: 'TODO', assignee: null });

      const denied = await client(MEMBER).deleteTask({ id });
      // `deleted: deleteTask` is Boolean!: the denied field's null reaches the root, the path keeps the alias.
      expect(denied.data).toBeNull();
      expect(denied.errors).toEqual([
        expect.objectContaining({ path: ['deleted'], extensions: expect.objectContaining({ code: 'FORBIDDEN' }) }),
      ]);
      const deleted = await client(ADMIN).deleteTask({ id });
      expect(deleted).toMatchObject({ data: { deleted: true }, errors: [] });
    });

    it('delivers subscription events to the generated client and to a plain graphql-ws client', async () => {
      const api = client(MEMBER);
      const plain = createWsClient({
        url: example.url.replace(/^http/, 'ws'),
        webSocketImpl: WebSocket,
        connectionParams: { authorization: MEMBER },
        retryAttempts: 0,
      });
      const typed = api.taskChanged({ projectId: 'p2' });
      const untyped = plain.iterate<{ taskChanged: { kind: string; task: { title: string } } }>({
        query: operations.TaskChanged.document,
        variables: { projectId: 'p2' },
      });
      const nextTyped = typed.next();
      const nextPlain = untyped.next();
      // Subscriptions start asynchronously: keep changing the project until both have seen an event.
      let sent = 0;
      const timer = setInterval(() => void api.updateTask({ id: 't26', input: { title: `Renamed ${++sent}` } }), 100);
      try {
        const [fromTyped, fromPlain] = await Promise.all([nextTyped, nextPlain]);
        expect(fromTyped.done).toBe(false);
        expect(fromTyped.value?.data?.taskChanged).toMatchObject({
          kind: 'UPDATED',
          task: { id: 't26', title: expect.stringMatching(/^Renamed \d+$/) },
        });
        expect(fromPlain.value).toMatchObject({
          data: { taskChanged: { kind: 'UPDATED', task: { title: expect.stringMatching(/^Renamed/) } } },
        });
      } finally {
        clearInterval(timer);
        await typed.return?.();
        await untyped.return?.();
        await plain.dispose();
        await api.close();
      }
    });

    it('rejects a query over the depth limit before execution, with a code', async () => {
      const deep = `query { task(id: "t1") { ${'project { tasks(first: 1) { edges { node { '.repeat(3)} id ${'} } } }'.repeat(3)} } }`;
      const { status, body } = await post(example.url, { query: deep });
      expect(status).toBe(200);
      expect(body.data).toBeUndefined();
      expect(body.errors?.[0].extensions?.code).toBe('DEPTH_LIMIT_EXCEEDED');
    });
  });

  describe('the GraphQL example in production, persisted-only, with a WebSocket origin list', () => {
    let strict: RunningExample;
    beforeAll(async () => {
      strict = await startExample(
        { MOUNT: mount, NODE_ENV: 'production', PERSISTED_ONLY: '1', CORS_ORIGINS: 'https://app.example.com' },
        GRAPHQL_EXAMPLE_MAIN,
      );
    });
    afterAll(async () => {
      await strict.stop();
    });

    it('runs registered operations sent by id from the generated client', async () => {
      const api = lib.createClient({ url: strict.url, persisted: lib.persistedQueryIds() });
      const { data, errors } = await api.getTask({ id: 't2' });
      expect(errors).toEqual([expect.objectContaining({ path: ['task', 'internalNotes'] })]);
      expect(data?.task?.title).toBe('Task 2');
    });

    it('refuses ad-hoc queries, introspection included', async () => {
      const adHoc = await post(strict.url, { query: '{ viewer { id } }' });
      expect(adHoc.status).toBe(200);
      expect(adHoc.body.errors?.[0].extensions?.code).toMatch(/PERSISTED/);
      const introspection = await post(strict.url, { query: '{ __schema { queryType { name } } }' });
      expect(introspection.body.data).toBeUndefined();
      expect(introspection.body.errors).toHaveLength(1);
    });

    it('refuses a WebSocket from another origin with 403, before it opens', async () => {
      const status = await new Promise<number>((resolve, reject) => {
        const socket = new WebSocket(strict.url.replace(/^http/, 'ws'), 'graphql-transport-ws', { origin: 'https://evil.example' });
        socket.on('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
        socket.on('open', () => reject(new Error('opened')));
        socket.on('error', () => undefined);
      });
      expect(status).toBe(403);
    });
  });

  describe('introspection in production without the allow-list', () => {
    it('is off: the schema is not described to strangers', async () => {
      const production = await startExample({ MOUNT: mount, NODE_ENV: 'production' }, GRAPHQL_EXAMPLE_MAIN);
      try {
        const { body } = await post(production.url, { query: '{ __schema { types { name } } }' });
        expect(body.data).toBeUndefined();
        expect(body.errors?.[0].extensions?.code).toBe('INTROSPECTION_DISABLED');
        const allowed = await post(production.url, { query: '{ __typename }' });
        expect(allowed.body).toEqual({ data: { __typename: 'Query' } });
      } finally {
        await production.stop();
      }
    });
  });
}
