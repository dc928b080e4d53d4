/**
 * The generated GraphQL client, end to end: generated from the Tasks example, type-checked under
 * strict with both compilers (with typed user code), then imported and run against an independent
 * server built here from the same SDL with graphql-js, graphql-http (HTTP) and graphql-ws on `ws`
 * (subscriptions), listening on 127.0.0.1. The server knows persisted queries by `queryId` and
 * APQ hashes itself; nothing is mocked.
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createRequire } from 'node:module';
import type { GraphQLSchema } from 'graphql';
import { createHandler } from 'graphql-http/lib/use/http';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocket, WebSocketServer } from 'ws';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ROOT } from './support/cli.js';
import { anyTypes, transpileFolder, writeFiles } from './support/client-generate.js';
import { generateGraphQLFiles } from './support/generate.js';
import { COMPILERS, typecheck } from './support/typecheck.js';

// graphql-http and graphql-ws load graphql's CommonJS build (it has no `exports` map); the schema
// and errors must come from the same copy, or graphql-js rejects them as from "another realm".
const { GraphQLError, buildSchema } = createRequire(import.meta.url)('graphql') as typeof import('graphql');

mkdirSync(join(ROOT, '.vitest-tmp'), { recursive: true });
const OUT = mkdtempSync(join(ROOT, '.vitest-tmp', 'graphql-client-'));
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

// ---------------------------------------------------------------------------------------------
// What the tests call of the generated module (its real types are checked by compiling USAGE).

interface Result<T = Record<string, any>> {
  data: T | null;
  errors: Array<{ message: string; path?: Array<string | number>; extensions?: Record<string, unknown> }>;
}
type Call = (
  variables?: Record<string, unknown>,
  init?: { signal?: AbortSignal; headers?: Record<string, string>; timeout?: number },
) => Promise<Result>;
interface GeneratedClient {
  viewer: Call;
  getTask: Call;
  projectTasks: Call;
  search: Call;
  createTask: Call;
  deleteTask: Call;
  taskChanged(variables: { projectId: string }, init?: { signal?: AbortSignal }): AsyncIterableIterator<Result>;
  close(): Promise<void>;
}
interface ClientModule {
  createClient(options: Record<string, unknown>): GeneratedClient;
  persistedQueryIds(): unknown;
  automaticPersistedQueries(): unknown;
  ClientError: abstract new (...args: never[]) => Error & { kind: string; operation: string };
  webSocketSubscriptions(options: Record<string, unknown>): unknown;
  GraphQLRequestError: new (...args: never[]) => Error & { kind: string; status: number | undefined; operation: string };
  isGraphQLRequestError(error: unknown, kind?: string): boolean;
}

// ---------------------------------------------------------------------------------------------
// The independent server.

interface Seen {
  method: string;
  query?: string;
  queryId?: string;
  operationName?: string;
  variables?: Record<string, unknown>;
  extensions?: Record<string, unknown>;
  authorization?: string;
  accept?: string;
}

interface TaskRecord {
  __typename: 'Task';
  id: string;
  title: string;
  status: string;
  projectId: string;
  createdAt: string;
  assigneeId: string | null;
}

const USERS = [{ __typename: 'User', id: 'u1', name: 'Ada', email: 'ada@example.com' }];
const PROJECT = { __typename: 'Project', id: 'p1', name: 'Docs', createdAt: '2026-01-01T00:00:00Z' };

class TasksServer {
  readonly seen: Seen[] = [];
  readonly connectionParams: unknown[] = [];
  completed = 0;
  readonly apqCache = new Map<string, string>();
  url = '';
  #tasks: TaskRecord[] = [];
  #listeners = new Set<(task: TaskRecord) => void>();
  #http: Server | undefined;
  #wss: WebSocketServer | undefined;
  #disposeWs: (() => Promise<void> | void) | undefined;

  constructor(
    private readonly schema: GraphQLSchema,
    private readonly allowList: Readonly<Record<string, string>>,
  ) {}

  reset(): void {
    this.seen.length = 0;
    this.connectionParams.length = 0;
    this.completed = 0;
    this.apqCache.clear();
    this.#tasks = [
      {
        __typename: 'Task',
        id: 't1',
        title: 'Write docs',
        status: 'IN_PROGRESS',
        projectId: 'p1',
        createdAt: '2026-02-01T09:30:00Z',
        assigneeId: 'u1',
      },
    ];
  }

  get subscribers(): number {
    return this.#listeners.size;
  }

  #taskView(record: TaskRecord) {
    return {
      ...record,
      assignee: USERS.find((user) => user.id === record.assigneeId) ?? null,
      project: PROJECT,
      internalNotes: (_args: unknown, context: { role?: string }) => {
        if (context.role !== 'ADMIN') throw new GraphQLError('internalNotes needs the ADMIN role', { extensions: { code: 'FORBIDDEN' } });
        return 'secret';
      },
    };
  }

  rootValue() {
    return {
      viewer: (_args: unknown, context: { role?: string }) => (context.role ? USERS[0] : null),
      task: ({ id }: { id: string }) => {
        const record = this.#tasks.find((task) => task.id === id);
        return record ? this.#taskView(record) : null;
      },
      project: ({ id }: { id: string }) =>
        id === PROJECT.id
          ? {
              ...PROJECT,
              tasks: ({ first }: { first: number }) => {
                const page = this.#tasks.slice(0, first);
                return {
                  totalCount: this.#tasks.length,
                  pageInfo: { hasNextPage: this.#tasks.length > first, endCursor: page.at(-1)?.id ?? null },
                  edges: page.map((task) => ({ cursor: task.id, node: this.#taskView(task) })),
                };
              },
            }
          : null,
      search: ({ text }: { text: string }) => [
        ...this.#tasks.filter((task) => task.title.includes(text)).map((task) => this.#taskView(task)),
        ...(PROJECT.name.includes(text) ? [PROJECT] : []),
        ...USERS.filter((user) => user.name.includes(text)),
      ],
      createTask: (
        { input }: { input: { projectId: string; title: string; status?: string; assigneeId?: string } },
        context: { role?: string },
      ) => {
        if (!context.role) throw new GraphQLError('sign in to create tasks', { extensions: { code: 'UNAUTHENTICATED' } });
        const record: TaskRecord = {
          __typename: 'Task',
          id: `t${this.#tasks.length + 1}`,
          title: input.title,
          status: input.status ?? 'TODO',
          projectId: input.projectId,
          createdAt: '2026-03-01T00:00:00Z',
          assigneeId: input.assigneeId ?? null,
        };
        this.#tasks.push(record);
        for (const listener of this.#listeners) listener(record);
        return this.#taskView(record);
      },
      deleteTask: ({ id }: { id: string }) => {
        const before = this.#tasks.length;
        this.#tasks = this.#tasks.filter((task) => task.id !== id);
        return before !== this.#tasks.length;
      },
    };
  }

  /** An async iterator of `taskChanged` events for one project. */
  #changes(projectId: string): AsyncIterableIterator<unknown> {
    const queue: unknown[] = [];
    let wake: (() => void) | undefined;
    let done = false;
    const listener = (task: TaskRecord) => {
      if (task.projectId !== projectId) return;
      queue.push({ taskChanged: { kind: 'CREATED', task: this.#taskView(task) } });
      wake?.();
    };
    this.#listeners.add(listener);
    const listeners = this.#listeners;
    return {
      async next(): Promise<IteratorResult<unknown>> {
        while (queue.length === 0 && !done) await new Promise<void>((resolve) => (wake = resolve));
        return done ? { value: undefined, done: true } : { value: queue.shift(), done: false };
      },
      async return(): Promise<IteratorResult<unknown>> {
        done = true;
        listeners.delete(listener);
        wake?.();
        return { value: undefined, done: true };
      },
      [Symbol.asyncIterator]() {
        return this;
      },
    };
  }

  async start(): Promise<void> {
    const rootValue = this.rootValue();
    const handler = createHandler<{ role?: string }>({
      schema: this.schema,
      rootValue,
      context: (request) => ({ role: roleOf((request.raw as IncomingMessage).headers.authorization) }),
      // Accepts the persisted forms too: a request without `query` but with `queryId` or an APQ hash.
      parseRequestParams: async (request) => {
        const raw = request.raw as IncomingMessage;
        let params: Record<string, unknown>;
        if (request.method === 'GET') {
          const search = new URLSearchParams(request.url.split('?')[1] ?? '');
          params = Object.fromEntries(
            [...search].map(([key, value]) => [key, key === 'variables' || key === 'extensions' ? JSON.parse(value) : value]),
          );
        } else {
          const body = typeof request.body === 'function' ? await request.body() : request.body;
          params = typeof body === 'string' ? JSON.parse(body) : (body ?? {});
        }
        this.seen.push({ method: request.method, ...params, authorization: raw.headers.authorization, accept: raw.headers.accept });
        const extensions = {
          ...(params.extensions as Record<string, unknown> | undefined),
          ...(params.queryId ? { queryId: params.queryId } : {}),
        };
        return {
          query: (params.query as string | undefined) ?? '',
          operationName: params.operationName as string | undefined,
          variables: params.variables as Record<string, unknown> | undefined,
          extensions,
        };
      },
      onSubscribe: (_request, params) => {
        const notFound = [new GraphQLError('PersistedQueryNotFound', { extensions: { code: 'PERSISTED_QUERY_NOT_FOUND' } })];
        const queryId = params.extensions?.queryId;
        if (typeof queryId === 'string') {
          const known = this.allowList[queryId];
          if (!known) return notFound;
          params.query = known;
          return undefined;
        }
        const persisted = params.extensions?.persistedQuery as { version: number; sha256Hash: string } | undefined;
        if (!persisted) return undefined;
        if (params.query) {
          // Apollo's rule: the hash must be the SHA-256 of the text it registers.
          if (sha256(params.query) !== persisted.sha256Hash) return [new GraphQLError('provided sha does not match query')];
          this.apqCache.set(persisted.sha256Hash, params.query);
          return undefined;
        }
        const cached = this.apqCache.get(persisted.sha256Hash);
        if (!cached) return notFound;
        params.query = cached;
        return undefined;
      },
    });

    this.#http = createServer((request, response) => {
      const path = request.url?.split('?')[0];
      if (path === '/graphql') return void handler(request, response);
      if (path === '/bad-gateway') return void response.writeHead(502, { 'content-type': 'text/html' }).end('<h1>502 Bad Gateway</h1>');
      if (path === '/not-json') return void response.writeHead(200, { 'content-type': 'application/json' }).end('{"data": {');
      if (path === '/not-graphql') return void response.writeHead(200, { 'content-type': 'application/json' }).end('{"hello": "world"}');
      if (path === '/slow') return; // never answers: for timeouts and aborts
      response.writeHead(404).end();
    });
    this.#wss = new WebSocketServer({ server: this.#http, path: '/graphql' });
    const changes = (projectId: string) => this.#changes(projectId);
    const server = useServer(
      {
        schema: this.schema,
        roots: { subscription: { taskChanged: ({ projectId }: { projectId: string }) => changes(projectId) } },
        onConnect: (context) => {
          this.connectionParams.push(context.connectionParams);
          return context.connectionParams?.token === 'ws-secret';
        },
        onComplete: () => {
          this.completed += 1;
        },
      },
      this.#wss,
    );
    this.#disposeWs = () => server.dispose();
    await new Promise<void>((resolve) => this.#http!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.#http.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    await this.#disposeWs?.();
    this.#http?.closeAllConnections();
    await new Promise((resolve) => this.#http?.close(resolve));
  }
}

function roleOf(authorization: string | undefined): string | undefined {
  if (authorization === 'Bearer admin-token') return 'ADMIN';
  if (authorization === 'Bearer member-token') return 'MEMBER';
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Typed user code: must compile; each @ts-expect-error must be an error.

const USAGE = `
import { WebSocket } from "ws";
import {
  automaticPersistedQueries, ClientError, createClient, GraphQLRequestError, isClientError, isGraphQLRequestError, webSocketSubscriptions,
  type Fetch, type GraphQLResult,
} from "./client.js";
import type { GetTaskQuery, TaskChangedSubscription } from "./operations.js";

const client = createClient({
  url: "http://127.0.0.1:4000/graphql",
  headers: async () => ({ "x-client": "usage" }),
  token: async () => "token",
  persisted: automaticPersistedQueries(),
  method: "GET",
  timeout: 5_000,
  retry: { maxRetries: 1, baseDelay: 100 },
  fetch: ((request) => fetch(request)) satisfies Fetch,
  subscriptions: webSocketSubscriptions({ webSocketImpl: WebSocket, connectionParams: async () => ({ token: "t" }), retryAttempts: 0 }),
});

export async function usage(signal: AbortSignal): Promise<string | undefined> {
  const result: GraphQLResult<GetTaskQuery> = await client.getTask({ id: "t1" }, { signal, headers: { "x-trace": "1" } });
  if (result.errors.length > 0) console.warn(result.errors.map((error) => \`\${error.message} at \${error.path?.join(".")}\`));
  const title: string | undefined = result.data?.task?.title;
  await client.viewer();
  await client.projectTasks({ projectId: "p1", first: 10 });
  const created = await client.createTask({ input: { projectId: "p1", title: "New" } });
  const id: string | undefined = created.data?.createTask.id;
  const deleted: boolean | undefined = (await client.deleteTask({ id: "t1" })).data?.deleted;

  // @ts-expect-error variables are required
  await client.getTask();
  // @ts-expect-error id is a string
  await client.getTask({ id: 1 });
  // @ts-expect-error not a variable of GetTask
  await client.getTask({ id: "t1", extra: true });
  // @ts-expect-error Viewer takes no variables
  await client.viewer({ id: "u1" });
  // @ts-expect-error data may be null
  const unchecked: string = result.data.task?.title;

  for await (const event of client.taskChanged({ projectId: "p1" }, { signal })) {
    const change: TaskChangedSubscription | null = event.data;
    console.log(change?.taskChanged.kind, change?.taskChanged.task.title, id, deleted, unchecked);
    break;
  }
  try {
    await client.search({ text: "x" });
  } catch (error) {
    if (isGraphQLRequestError(error, "response")) console.error(error.status);
    if (error instanceof GraphQLRequestError) console.error(error.kind, error.operation);
    if (error instanceof ClientError && isClientError(error, "timeout")) console.error(error.operation);
  }
  await client.close();
  return title;
}

// @ts-expect-error persisted takes persistedQueryIds() or automaticPersistedQueries(), not the strings of before
createClient({ url: "/graphql", persisted: "apq" });
// @ts-expect-error the URL is required
createClient({});
`;

// ---------------------------------------------------------------------------------------------

let api: ClientModule;
/** The generated module, where a test's own `api` (a client) hides it. */
const moduleApi = (): ClientModule => api;
let server: TasksServer;
let operations: { persistedOperations: Record<string, string>; [name: string]: unknown };

function client(options: Record<string, unknown> = {}): GeneratedClient {
  return api.createClient({
    url: `${server.url}/graphql`,
    subscriptions: api.webSocketSubscriptions({ webSocketImpl: WebSocket, connectionParams: { token: 'ws-secret' }, retryAttempts: 0 }),
    // Retries as by default, but quick.
    retry: { baseDelay: 1, maxDelay: 5 },
    ...options,
  });
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}

beforeAll(async () => {
  const files = await generateGraphQLFiles('schemas/graphql/tasks.graphql', ['schemas/graphql/operations'], ['types', 'client'], {
    scalars: { DateTime: 'string' },
  });
  writeFiles(OUT, files);
  writeFileSync(join(OUT, 'usage.ts'), USAGE);
  transpileFolder(OUT);
  api = (await import(pathToFileURL(join(OUT, 'client.js')).href)) as ClientModule;
  operations = (await import(pathToFileURL(join(OUT, 'operations.js')).href)) as typeof operations;
  const schema = buildSchema(readFileSync(join(ROOT, 'schemas/graphql/tasks.graphql'), 'utf8'));
  server = new TasksServer(schema, operations.persistedOperations);
  await server.start();
});

afterAll(async () => {
  await server?.stop();
});

beforeEach(() => server.reset());

describe('generated GraphQL client files', () => {
  it('import graphql-ws only from the subscriptions runtime, and only when there are subscriptions', async () => {
    const clientText = readFileSync(join(OUT, 'client.ts'), 'utf8');
    // client.ts names the subscriptions runtime only in type imports and a re-export: createClient never reaches graphql-ws.
    expect(clientText).toMatch(/^import type \{[^}]*\bGraphQLSubscriptions,[^}]*\} from "\.\/runtime\/graphql-subscriptions\.js";$/m);
    expect(clientText).not.toMatch(/^import \{[^}]*\} from "\.\/runtime\/graphql-subscriptions\.js";$/m);
    expect(clientText).toMatch(/^export \{[^}]*\bwebSocketSubscriptions,[^}]*\} from "\.\/runtime\/graphql-subscriptions\.js";$/m);
    expect(readFileSync(join(OUT, 'runtime/graphql-client.ts'), 'utf8')).not.toMatch(/from ['"]graphql-ws['"]/);
    expect(anyTypes(clientText)).toEqual([]);
    expect(anyTypes(readFileSync(join(OUT, 'runtime/graphql-client.ts'), 'utf8'))).toEqual([]);
    expect(anyTypes(readFileSync(join(OUT, 'runtime/graphql-subscriptions.ts'), 'utf8'))).toEqual([]);

    const folder = join(OUT, 'no-subscriptions');
    const documents = join(folder, 'documents');
    mkdirSync(documents, { recursive: true });
    writeFileSync(join(documents, 'viewer.graphql'), 'query Viewer { viewer { id name } }');
    const files = await generateGraphQLFiles('schemas/graphql/tasks.graphql', [documents], ['types', 'client']);
    expect(files.map((file) => file.path).sort()).toEqual([
      'client.ts',
      'operations.ts',
      'runtime/client-common.ts',
      'runtime/graphql-client-persisted.ts',
      'runtime/graphql-client.ts',
      'types.ts',
    ]);
    const text = files.find((file) => file.path === 'client.ts')!.content;
    expect(text).not.toContain('subscriptions');
    expect(text).not.toContain('close()');
    writeFiles(join(folder, 'out'), files);
    for (const [name, compiler] of Object.entries(COMPILERS)) {
      expect(typecheck(join(folder, 'out'), compiler, 'browser').output, name).toBe('');
    }
  });

  it('compile under strict with both compilers, for browsers and Node, with typed user code', () => {
    const generated = ['client.ts', 'operations.ts', 'types.ts', 'runtime/*.ts'];
    for (const [name, compiler] of Object.entries(COMPILERS)) {
      // The generated files alone in a browser project; with the user code (which imports `ws`) in a Node project.
      expect(typecheck(OUT, compiler, 'browser', generated).output, `${name} browser`).toBe('');
      expect(typecheck(OUT, compiler, 'node', [...generated, 'usage.ts']).output, `${name} node`).toBe('');
    }
  });
});

describe('queries and mutations over HTTP', () => {
  it('runs a typed query with variables and sends the exact document with the GraphQL Accept header', async () => {
    const result = await client().getTask({ id: 't1' }, { headers: { authorization: 'Bearer admin-token' } });
    expect(result).toEqual({
      data: {
        task: {
          id: 't1',
          title: 'Write docs',
          status: 'IN_PROGRESS',
          createdAt: '2026-02-01T09:30:00Z',
          assignee: { id: 'u1', name: 'Ada' },
          internalNotes: 'secret',
          project: { id: 'p1', name: 'Docs' },
        },
      },
      errors: [],
    });
    const [request] = server.seen;
    expect(request.method).toBe('POST');
    expect(request.query).toBe((operations.GetTask as { document: string }).document);
    expect(request.operationName).toBe('GetTask');
    expect(request.variables).toEqual({ id: 't1' });
    expect(request.accept).toBe('application/graphql-response+json, application/json');
  });

  it('returns partial success: data with the denied field null, and the error with its path', async () => {
    const result = await client().getTask({ id: 't1' }, { headers: { authorization: 'Bearer member-token' } });
    expect(result.data?.task).toMatchObject({ id: 't1', title: 'Write docs', internalNotes: null });
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]).toMatchObject({
      message: 'internalNotes needs the ADMIN role',
      path: ['task', 'internalNotes'],
      extensions: { code: 'FORBIDDEN' },
    });
  });

  it('returns errors of a rejected operation as a result, not an exception', async () => {
    const result = await client().getTask({ id: { not: 'an id' } });
    expect(result.data).toBeNull();
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0].message).toMatch(/\$id/);
  });

  it('runs mutations, defaulted variables and optional variables', async () => {
    const admin = client({ headers: { authorization: 'Bearer admin-token' } });
    const created = await admin.createTask({ input: { projectId: 'p1', title: 'Review' } });
    expect(created).toEqual({
      data: { createTask: { id: 't2', title: 'Review', status: 'TODO', createdAt: '2026-03-01T00:00:00Z', assignee: null } },
      errors: [],
    });
    const page = await admin.projectTasks({ projectId: 'p1', first: 1 });
    expect(page.data?.project).toMatchObject({ tasks: { totalCount: 2, pageInfo: { hasNextPage: true, endCursor: 't1' } } });
    expect((await admin.deleteTask({ id: 't2' })).data).toEqual({ deleted: true });
    expect((await admin.viewer()).data).toEqual({ viewer: { id: 'u1', name: 'Ada' } });
    expect(server.seen.at(-1)).toMatchObject({ operationName: 'Viewer', variables: {} });
    const search = await admin.search({ text: 'Do' });
    expect(search.data?.search).toEqual([{ __typename: 'Project', id: 'p1', name: 'Docs' }]);
  });

  it('calls the headers function on each call, e.g. for a bearer token', async () => {
    let token = 'nobody';
    let calls = 0;
    const api = client({
      headers: async () => {
        calls += 1;
        return { authorization: `Bearer ${token}`, 'x-unset': undefined };
      },
    });
    expect((await api.viewer()).data).toEqual({ viewer: null });
    const denied = await api.createTask({ input: { projectId: 'p1', title: 'x' } });
    expect(denied.data).toBeNull();
    expect(denied.errors[0]).toMatchObject({ message: 'sign in to create tasks', path: ['createTask'] });
    token = 'admin-token';
    const notes = await api.getTask({ id: 't1' });
    expect(notes.data?.task).toMatchObject({ internalNotes: 'secret' });
    expect(calls).toBe(3);
    expect(server.seen.map((request) => request.authorization)).toEqual(['Bearer nobody', 'Bearer nobody', 'Bearer admin-token']);
    // A per-call header overrides the client's.
    expect(
      (
        await client({ headers: { authorization: 'Bearer nobody' } }).viewer(undefined, {
          headers: { authorization: 'Bearer member-token' },
        })
      ).data?.viewer,
    ).not.toBeNull();
  });

  it('sends queries by GET with URL parameters when asked, mutations still by POST', async () => {
    const api = client({ method: 'GET', headers: { authorization: 'Bearer admin-token' } });
    const result = await api.projectTasks({ projectId: 'p1' });
    expect(result.data?.project).toMatchObject({ id: 'p1', tasks: { totalCount: 1 } });
    expect(server.seen[0]).toMatchObject({ method: 'GET', operationName: 'ProjectTasks', variables: { projectId: 'p1' } });
    expect(server.seen[0].query).toBe((operations.ProjectTasks as { document: string }).document);
    await api.createTask({ input: { projectId: 'p1', title: 'x' } });
    expect(server.seen[1].method).toBe('POST');
  });
});

describe('persisted operations', () => {
  it('queryId: sends the id and no text; the server runs it from its allow-list', async () => {
    const api = client({ persisted: moduleApi().persistedQueryIds(), headers: { authorization: 'Bearer admin-token' } });
    const result = await api.getTask({ id: 't1' });
    expect(result.data?.task).toMatchObject({ id: 't1' });
    const getTask = operations.GetTask as { id: string; document: string };
    expect(server.seen[0]).toMatchObject({ method: 'POST', queryId: getTask.id, operationName: 'GetTask', variables: { id: 't1' } });
    expect(server.seen[0].query).toBeUndefined();
    expect(getTask.id).toBe(sha256(getTask.document));
    // The same by GET.
    await client({ persisted: moduleApi().persistedQueryIds(), method: 'GET' }).viewer();
    expect(server.seen[1]).toMatchObject({ method: 'GET', queryId: (operations.Viewer as { id: string }).id });
    expect(server.seen[1].query).toBeUndefined();
  });

  it('APQ: the hash first; on PersistedQueryNotFound the text with it; then the hash alone', async () => {
    const api = client({ persisted: moduleApi().automaticPersistedQueries(), headers: { authorization: 'Bearer admin-token' } });
    const hash = (operations.GetTask as { id: string }).id;
    const first = await api.getTask({ id: 't1' });
    expect(first.data?.task).toMatchObject({ id: 't1', internalNotes: 'secret' });
    expect(first.errors).toEqual([]);
    expect(server.seen.map((request) => [request.query === undefined ? 'hash' : 'text', request.extensions?.persistedQuery])).toEqual([
      ['hash', { version: 1, sha256Hash: hash }],
      ['text', { version: 1, sha256Hash: hash }],
    ]);
    expect(server.apqCache.get(hash)).toBe((operations.GetTask as { document: string }).document);

    const second = await client({ persisted: moduleApi().automaticPersistedQueries(), method: 'GET' }).getTask({ id: 't1' });
    expect(second.data?.task).toMatchObject({ id: 't1' });
    expect(server.seen).toHaveLength(3);
    expect(server.seen[2]).toMatchObject({ method: 'GET', extensions: { persistedQuery: { version: 1, sha256Hash: hash } } });
    expect(server.seen[2].query).toBeUndefined();
  });
});

describe('transport failures', () => {
  it('throws GraphQLRequestError for a non-GraphQL error status, bad JSON and a non-GraphQL body', async () => {
    const badGateway = await rejection(client({ url: `${server.url}/bad-gateway` }).viewer());
    expect(badGateway).toBeInstanceOf(api.GraphQLRequestError);
    expect(badGateway).toMatchObject({ kind: 'response', status: 502, operation: 'Viewer' });
    expect(badGateway).toBeInstanceOf(api.ClientError);
    expect(api.isGraphQLRequestError(badGateway, 'response')).toBe(true);

    expect(await rejection(client({ url: `${server.url}/not-json` }).viewer())).toMatchObject({ kind: 'invalid-response', status: 200 });
    expect(await rejection(client({ url: `${server.url}/not-graphql` }).viewer())).toMatchObject({ kind: 'invalid-response', status: 200 });
  });

  it('retries a query (not a mutation) after a 502, through the injected fetch, which gets a Request', async () => {
    const sent: string[] = [];
    const fetch = (request: Request): Promise<Response> => {
      sent.push(`${request.method} ${new URL(request.url).pathname} ${request.headers.get('authorization')}`);
      return globalThis.fetch(request);
    };
    const flaky = client({ url: `${server.url}/bad-gateway`, fetch, token: () => 'graphql-token' });
    expect(await rejection(flaky.viewer())).toMatchObject({ kind: 'response', status: 502 });
    expect(sent).toEqual(Array(3).fill('POST /bad-gateway Bearer graphql-token'));
    sent.length = 0;
    expect(await rejection(flaky.deleteTask({ id: 't1' }))).toMatchObject({ kind: 'response', status: 502 });
    expect(sent).toHaveLength(1);
    sent.length = 0;
    expect(await rejection(client({ url: `${server.url}/bad-gateway`, fetch, retry: false }).viewer())).toMatchObject({ status: 502 });
    expect(sent).toHaveLength(1);
  });

  it('sends token as Authorization: Bearer, asking a function on every call', async () => {
    let calls = 0;
    const api = client({ token: async () => (++calls === 1 ? 'admin-token' : undefined) });
    expect((await api.getTask({ id: 't1' })).data?.task).toMatchObject({ internalNotes: 'secret' });
    await api.viewer();
    expect(server.seen.map((request) => request.authorization)).toEqual(['Bearer admin-token', undefined]);
  });

  it('throws a network error when nothing listens', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const error = await rejection(client({ url: `http://127.0.0.1:${port}/graphql` }).viewer());
    expect(error).toMatchObject({ kind: 'network', status: undefined });
  });

  it('times out, and rejects with the caller’s reason when aborted', async () => {
    const slow = client({ url: `${server.url}/slow`, timeout: 50, retry: false });
    expect(await rejection(slow.viewer())).toMatchObject({ kind: 'timeout', operation: 'Viewer' });

    const controller = new AbortController();
    const call = client({ url: `${server.url}/slow`, timeout: 0 }).viewer(undefined, { signal: controller.signal });
    const reason = new Error('user left the page');
    controller.abort(reason);
    expect(await rejection(call)).toBe(reason);
    // The client's own signal aborts every call.
    const shutdown = new AbortController();
    shutdown.abort();
    expect(await rejection(client({ signal: shutdown.signal }).viewer())).toMatchObject({ name: 'AbortError' });
  });
});

describe('subscriptions over graphql-ws', () => {
  it('iterates events, passes connectionParams in connection_init, and unsubscribes on break', async () => {
    const api = client({ headers: { authorization: 'Bearer member-token' } });
    const events = api.taskChanged({ projectId: 'p1' });
    const received: Result[] = [];
    const reading = (async () => {
      for await (const event of events) {
        received.push(event);
        if (received.length === 2) break;
      }
    })();
    await until(() => server.subscribers === 1);
    expect(server.connectionParams).toEqual([{ token: 'ws-secret' }]);
    await api.createTask({ input: { projectId: 'p2', title: 'elsewhere' } });
    await api.createTask({ input: { projectId: 'p1', title: 'First' } });
    await api.createTask({ input: { projectId: 'p1', title: 'Second' } });
    await reading;
    expect(received.map((event) => [event.data?.taskChanged.kind, event.data?.taskChanged.task.title, event.errors])).toEqual([
      ['CREATED', 'First', []],
      ['CREATED', 'Second', []],
    ]);
    // `break` sent `complete`: the server ended the subscription.
    await until(() => server.subscribers === 0 && server.completed === 1);
    await api.close();
  });

  it('ends a subscription when its signal aborts', async () => {
    const api = client();
    const controller = new AbortController();
    const events = api.taskChanged({ projectId: 'p1' }, { signal: controller.signal });
    const next = events.next();
    await until(() => server.subscribers === 1);
    controller.abort();
    expect(await next).toEqual({ value: undefined, done: true });
    await until(() => server.subscribers === 0);
    await api.close();
  });

  it('has no subscriptions unless given a transport: subscribing then throws a TypeError saying what to pass', async () => {
    const queriesOnly = api.createClient({ url: `${server.url}/graphql` });
    expect(() => queriesOnly.taskChanged({ projectId: 'p1' })).toThrow(/webSocketSubscriptions/);
    // The options object `subscriptions` took before is refused with the same advice.
    const oldStyle = api.createClient({
      url: `${server.url}/graphql`,
      subscriptions: { webSocketImpl: WebSocket, connectionParams: { token: 'ws-secret' } },
    });
    expect(() => oldStyle.taskChanged({ projectId: 'p1' })).toThrow(/webSocketSubscriptions/);
    await expect(queriesOnly.close()).resolves.toBeUndefined();
    expect(server.connectionParams).toEqual([]);
  });

  it("sends the client's token in connection_init when no connectionParams are given", async () => {
    const tokened = client({
      token: async () => 'sub-token',
      subscriptions: api.webSocketSubscriptions({ webSocketImpl: WebSocket, retryAttempts: 0 }),
    });
    // The test server wants { token: "ws-secret" }: it records the payload and refuses this one.
    expect(await rejection(tokened.taskChanged({ projectId: 'p1' }).next())).toMatchObject({ kind: 'closed' });
    expect(server.connectionParams).toEqual([{ authorization: 'Bearer sub-token' }]);
    await tokened.close();
  });

  it('rejects with a closed GraphQLRequestError when the server refuses the connection', async () => {
    const refused = client({
      subscriptions: api.webSocketSubscriptions({ webSocketImpl: WebSocket, connectionParams: { token: 'wrong' }, retryAttempts: 0 }),
    });
    const error = await rejection(refused.taskChanged({ projectId: 'p1' }).next());
    expect(error).toBeInstanceOf(api.GraphQLRequestError);
    expect(error).toMatchObject({ kind: 'closed', operation: 'TaskChanged' });
    expect((error as Error).message).toMatch(/4403/);
    expect(server.connectionParams).toEqual([{ token: 'wrong' }]);
    await refused.close();
  });
});
