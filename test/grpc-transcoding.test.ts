/**
 * REST transcoding from `google.api.http` rules (issue 13 item 5), on Cloud Tasks' own rules
 * (googleapis google/cloud/tasks/v2/cloudtasks.proto, generated through the real pipeline): the
 * generated server with in-memory handlers answers every route over plain HTTP/1.1 — called with
 * `fetch` and with the generated REST client — and the very same handlers answer gRPC; malformed
 * paths, bodies and queries get their 4xx as problem documents before any handler runs. The
 * generated code and the usage module type-check strict under both compilers.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from '../generators/core/pipeline/generate.js';
import { ROOT } from './support/cli.js';
import { transpileFolder, writeFiles } from './support/client-generate.js';
import { load } from './support/grpc-setup.js';
import { CLOUD_TASKS_USAGE, ECHO_PROTO, ECHO_USAGE, TASKS_USAGE } from './support/transcoding-usage.js';
import { COMPILERS, STRICTEST, typecheck } from './support/typecheck.js';
import { cpSync, existsSync, writeFileSync } from 'node:fs';
import { connect } from 'node:http2';

const GOOGLEAPIS = join(ROOT, '..', 'shared', 'corpus', 'protobuf', 'googleapis-visible');
const PROTO_ROOT = join(ROOT, 'schemas/proto');
const FOLDER = join(ROOT, '.vitest-tmp', 'grpc-transcoding');
const EXAMPLE_FOLDER = join(ROOT, '.vitest-tmp', 'grpc-transcoding-example');

/** Generates `input` into `folder/out` with `usage` beside it, transpiled for `import()`. */
async function generateWithUsage(folder: string, include: string, input: string, usage: string): Promise<void> {
  const [{ files }] = await generate([
    {
      name: 'transcoding',
      inputs: [join(include, input)],
      documents: [],
      style: 'proto',
      output: join(folder, 'out'),
      emit: ['types', 'client', 'server'],
      options: { includePaths: [include] },
      root: include,
    },
  ]);
  writeFiles(folder, []);
  writeFiles(join(folder, 'out'), files);
  writeFileSync(join(folder, 'usage.ts'), usage);
  writeFileSync(join(folder, 'package.json'), '{ "type": "module" }\n');
  transpileFolder(folder);
}

type Json = Record<string, unknown>;
interface GrpcErrorLike extends Error {
  code: number;
  rawMessage: string;
  kind: string;
  operation: string;
}
/** The REST client as the test uses it (the real types are checked in usage.ts). */
type RestClient = Record<string, (request: Json, options?: Json) => Promise<Json>>;
interface Usage {
  start(options?: { readMaxBytes?: number }): Promise<{ port: number; calls: string[]; close(): Promise<void> }>;
  restClient(port: number, token: string | undefined, fetch?: (request: Request) => Promise<Response>): RestClient;
  restClients(port: number, token: string): Record<string, RestClient>;
  grpcClient(port: number, token: string): Record<string, (request: Json) => Promise<Json>>;
}

// gRPC codes, as @connectrpc/connect numbers them.
const NOT_FOUND = 5;
const ALREADY_EXISTS = 6;
const PERMISSION_DENIED = 7;
const UNAUTHENTICATED = 16;

const QUEUES = '/v2/projects/p1/locations/l1/queues';
const Q1 = `${QUEUES}/q1`;

describe('google.api.http transcoding: Cloud Tasks', () => {
  let usage: Usage;
  let server: Awaited<ReturnType<Usage['start']>>;
  let base: string;

  beforeAll(async () => {
    await generateWithUsage(FOLDER, GOOGLEAPIS, 'google/cloud/tasks/v2/cloudtasks.proto', CLOUD_TASKS_USAGE);
    usage = await load<Usage>(FOLDER, 'usage.js');
    server = await usage.start({ readMaxBytes: 64 * 1024 });
    base = `http://127.0.0.1:${server.port}`;
  }, 120_000);

  afterAll(async () => {
    await server?.close();
  });

  const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    fetch(`${base}${path}`, {
      method,
      headers: { authorization: 'Bearer admin', ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
      ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
    });
  const json = async (response: Response) => ({
    status: response.status,
    type: response.headers.get('content-type'),
    body: (await response.json()) as Json,
  });

  it('writes the route table the rules declare, and a server that serves it', () => {
    expect(server.port).toBeGreaterThan(0);
  });

  it('answers every route of the rules over HTTP/1.1 with fetch', async () => {
    // createQueue: POST, body "queue", parent from the path.
    let answer = await json(
      await call('POST', QUEUES, { name: `projects/p1/locations/l1/queues/q1`, rateLimits: { maxDispatchesPerSecond: 2 } }),
    );
    expect(answer).toMatchObject({
      status: 200,
      type: 'application/json',
      body: { name: 'projects/p1/locations/l1/queues/q1', state: 'RUNNING', rateLimits: { maxDispatchesPerSecond: 2 } },
    });
    answer = await json(await call('POST', QUEUES, {}));
    expect(answer.body.name).toBe('projects/p1/locations/l1/queues/auto1');
    // getQueue: a multi-segment variable.
    answer = await json(await call('GET', Q1));
    expect(answer).toMatchObject({ status: 200, body: { name: 'projects/p1/locations/l1/queues/q1' } });
    // listQueues: the rest from the query, by JSON name or proto name.
    answer = await json(await call('GET', `${QUEUES}?pageSize=1`));
    expect(answer.body).toEqual({ queues: [expect.objectContaining({ name: 'projects/p1/locations/l1/queues/q1' })], nextPageToken: '1' });
    answer = await json(await call('GET', `${QUEUES}?page_size=1&page_token=1`));
    expect(answer.body).toEqual({ queues: [expect.objectContaining({ name: 'projects/p1/locations/l1/queues/auto1' })] });
    // updateQueue: queue.name from the path, the queue from the body, the mask (a FieldMask) from the query.
    answer = await json(await call('PATCH', `${Q1}?updateMask=rateLimits`, { rateLimits: { maxDispatchesPerSecond: 7 } }));
    expect(answer).toMatchObject({
      status: 200,
      body: { name: 'projects/p1/locations/l1/queues/q1', rateLimits: { maxDispatchesPerSecond: 7 } },
    });
    // Custom verbs with body "*".
    expect((await json(await call('POST', `${Q1}:pause`, {}))).body).toMatchObject({ state: 'PAUSED' });
    expect((await json(await call('POST', `${Q1}:resume`))).body).toMatchObject({ state: 'RUNNING' });
    expect((await json(await call('POST', `${Q1}:getIamPolicy`, {}))).body).toEqual({ version: 1 });
    answer = await json(
      await call('POST', `${Q1}:setIamPolicy`, {
        policy: { bindings: [{ role: 'roles/cloudtasks.viewer', members: ['user:ann@example.com'] }] },
      }),
    );
    expect(answer.body).toMatchObject({
      bindings: [{ role: 'roles/cloudtasks.viewer', members: ['user:ann@example.com'] }],
      etag: expect.any(String),
    });
    answer = await json(
      await call('POST', `${Q1}:testIamPermissions`, { permissions: ['cloudtasks.tasks.create', 'storage.buckets.get'] }),
    );
    expect(answer.body).toEqual({ permissions: ['cloudtasks.tasks.create'] });
    // Tasks: createTask (body "*": parent from the path, the rest from the body), list, get, run, delete.
    answer = await json(
      await call('POST', `${Q1}/tasks`, {
        task: { httpRequest: { url: 'https://example.com/work', httpMethod: 'POST', body: 'aGk=' } },
        responseView: 'FULL',
      }),
    );
    expect(answer).toMatchObject({
      status: 200,
      body: {
        name: expect.stringMatching(/^projects\/p1\/locations\/l1\/queues\/q1\/tasks\/t\d+$/),
        view: 'FULL',
        httpRequest: { url: 'https://example.com/work', httpMethod: 'POST', body: 'aGk=' },
      },
    });
    const task = String(answer.body.name);
    answer = await json(await call('GET', `${Q1}/tasks?responseView=FULL`));
    expect(answer.body).toMatchObject({ tasks: [{ name: task }] });
    expect(server.calls).toContain('listTasks http 2');
    await call('GET', `${Q1}/tasks?responseView=1`);
    expect(server.calls).toContain('listTasks http 1'); // an enum by number too
    expect((await json(await call('GET', `/v2/${task}`))).body).toMatchObject({ name: task });
    expect((await json(await call('POST', `/v2/${task}:run`, {}))).body).toMatchObject({ name: task, dispatchCount: 1 });
    expect(await json(await call('DELETE', `/v2/${task}`))).toMatchObject({ status: 200, body: {} });
    expect((await json(await call('POST', `${Q1}:purge`, {}))).body).toMatchObject({ purgeTime: expect.stringMatching(/Z$/) });
    expect(await json(await call('DELETE', `${QUEUES}/auto1`))).toMatchObject({ status: 200, body: {} });
    expect(server.calls.filter((line) => line.endsWith(' http') || / http /.test(line)).length).toBeGreaterThanOrEqual(16);
  });

  it('answers HEAD for GET routes and OPTIONS with Allow', async () => {
    const head = await call('HEAD', Q1);
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    const options = await call('OPTIONS', Q1);
    expect(options.status).toBe(204);
    expect(options.headers.get('allow')?.split(', ').sort()).toEqual(['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH']);
  });

  it('calls every route with the generated REST client', async () => {
    const sent: string[] = [];
    const recording = (request: Request) => {
      sent.push(`${request.method} ${new URL(request.url).pathname}${new URL(request.url).search}`);
      return fetch(request);
    };
    const client = usage.restClient(server.port, 'admin', recording);
    const parent = 'projects/p2/locations/l1';
    const queue = await client.createQueue!({ parent, queue: { name: `${parent}/queues/a`, rateLimits: { maxDispatchesPerSecond: 3 } } });
    expect(queue).toMatchObject({ name: `${parent}/queues/a`, state: 1 });
    expect(await client.getQueue!({ name: `${parent}/queues/a` })).toMatchObject({ name: `${parent}/queues/a` });
    expect(await client.listQueues!({ parent, pageSize: 10, filter: 'a' })).toMatchObject({ queues: [{ name: `${parent}/queues/a` }] });
    const updated = await client.updateQueue!({
      queue: { name: `${parent}/queues/a`, rateLimits: { maxDispatchesPerSecond: 9 } },
      updateMask: { paths: ['rate_limits'] },
    });
    expect(updated).toMatchObject({ rateLimits: { maxDispatchesPerSecond: 9 } });
    expect(await client.pauseQueue!({ name: `${parent}/queues/a` })).toMatchObject({ state: 2 });
    expect(await client.resumeQueue!({ name: `${parent}/queues/a` })).toMatchObject({ state: 1 });
    await client.setIamPolicy!({
      resource: `${parent}/queues/a`,
      policy: { bindings: [{ role: 'roles/viewer', members: ['user:bo@example.com'] }] },
    });
    expect(await client.getIamPolicy!({ resource: `${parent}/queues/a` })).toMatchObject({ bindings: [{ role: 'roles/viewer' }] });
    expect(
      await client.testIamPermissions!({ resource: `${parent}/queues/a`, permissions: ['cloudtasks.queues.get', 'x.y'] }),
    ).toMatchObject({ permissions: ['cloudtasks.queues.get'] });
    const task = await client.createTask!({
      parent: `${parent}/queues/a`,
      task: { httpRequest: { url: 'https://example.com/' } },
      responseView: 2,
    });
    expect(task['name']).toMatch(new RegExp(`^${parent}/queues/a/tasks/t\\d+$`));
    expect(await client.listTasks!({ parent: `${parent}/queues/a`, responseView: 2 })).toMatchObject({ tasks: [{ name: task['name'] }] });
    expect(await client.getTask!({ name: task['name'] })).toMatchObject({ name: task['name'] });
    expect(await client.runTask!({ name: task['name'] })).toMatchObject({ dispatchCount: 1 });
    await client.deleteTask!({ name: task['name'] });
    expect(await client.purgeQueue!({ name: `${parent}/queues/a` })).toMatchObject({ name: `${parent}/queues/a` });
    await client.deleteQueue!({ name: `${parent}/queues/a` });
    expect(sent).toEqual([
      `POST /v2/${parent}/queues`,
      `GET /v2/${parent}/queues/a`,
      `GET /v2/${parent}/queues?filter=a&pageSize=10`,
      `PATCH /v2/${parent}/queues/a?updateMask=rateLimits`,
      `POST /v2/${parent}/queues/a:pause`,
      `POST /v2/${parent}/queues/a:resume`,
      `POST /v2/${parent}/queues/a:setIamPolicy`,
      `POST /v2/${parent}/queues/a:getIamPolicy`,
      `POST /v2/${parent}/queues/a:testIamPermissions`,
      `POST /v2/${parent}/queues/a/tasks`,
      `GET /v2/${parent}/queues/a/tasks?responseView=FULL`,
      `GET /v2/${task['name']}`,
      `POST /v2/${task['name']}:run`,
      `DELETE /v2/${task['name']}`,
      `POST /v2/${parent}/queues/a:purge`,
      `DELETE /v2/${parent}/queues/a`,
    ]);
  });

  it('fails REST client calls with the gRPC code, and refuses requests that do not fit the rule before sending', async () => {
    const client = usage.restClient(server.port, 'reader');
    await expect(client.getQueue!({ name: 'projects/p1/locations/l1/queues/nope' })).rejects.toMatchObject({
      name: 'GrpcError',
      kind: 'response',
      operation: 'google.cloud.tasks.v2.CloudTasks/GetQueue',
      code: NOT_FOUND,
      rawMessage: 'queue projects/p1/locations/l1/queues/nope does not exist',
    } satisfies Partial<GrpcErrorLike>);
    // One client per service from one set of options.
    expect(await usage.restClients(server.port, 'reader')['cloudTasks']!.getQueue!({ name: Q1.slice(4) })).toMatchObject({
      name: Q1.slice(4),
    });
    await expect(client.deleteQueue!({ name: Q1.slice(4) })).rejects.toMatchObject({ code: PERMISSION_DENIED });
    await expect(usage.restClient(server.port, undefined).getQueue!({ name: Q1.slice(4) })).rejects.toMatchObject({
      code: UNAUTHENTICATED,
    });
    const admin = usage.restClient(server.port, 'admin');
    await admin.createQueue!({ parent: 'projects/p3/locations/l1', queue: { name: 'projects/p3/locations/l1/queues/x' } });
    await expect(
      admin.createQueue!({ parent: 'projects/p3/locations/l1', queue: { name: 'projects/p3/locations/l1/queues/x' } }),
    ).rejects.toMatchObject({ code: ALREADY_EXISTS });
    let sent = 0;
    const counting = usage.restClient(server.port, 'admin', (request) => {
      sent++;
      return fetch(request);
    });
    await expect(counting.getQueue!({ name: 'queues/q1' })).rejects.toMatchObject({
      name: 'RestRequestError',
      kind: 'invalid-request',
      cause: expect.any(TypeError),
    });
    await expect(counting.getQueue!({ name: '' })).rejects.toThrow(/name is needed/);
    expect(sent).toBe(0);
  });

  it('answers gRPC from the same handlers', async () => {
    const before = server.calls.length;
    await call('POST', QUEUES, { name: 'projects/p1/locations/l1/queues/shared' });
    const grpc = usage.grpcClient(server.port, 'admin');
    expect(await grpc.getQueue!({ name: 'projects/p1/locations/l1/queues/shared' })).toMatchObject({
      name: 'projects/p1/locations/l1/queues/shared',
      state: 1,
    });
    expect(server.calls.slice(before)).toEqual(['createQueue http admin', 'getQueue grpc']);
    await expect(grpc.getQueue!({ name: 'projects/p1/locations/l1/queues/none' })).rejects.toMatchObject({ code: NOT_FOUND });
  });

  describe('refuses malformed requests before a handler runs', () => {
    const refusals: [string, string, string, unknown, Record<string, string>, number, string][] = [
      ['no route', 'GET', '/v2/projects/p1/queues', undefined, {}, 404, 'NOT_FOUND'],
      ['a segment missing', 'GET', '/v2/projects/p1/locations/l1/queues/q1/tasks/', undefined, {}, 404, 'NOT_FOUND'],
      ['bad percent-encoding', 'GET', '/v2/projects/%E0%A4%A/locations/l1/queues/q1', undefined, {}, 404, 'NOT_FOUND'],
      ['another method', 'PUT', Q1, {}, {}, 405, 'UNIMPLEMENTED'],
      ['a body that is not JSON', 'POST', QUEUES, '{"name": ', {}, 400, 'INVALID_ARGUMENT'],
      ['a body of another type', 'POST', QUEUES, '{"name":"x"}', { 'content-type': 'text/plain' }, 415, 'INVALID_ARGUMENT'],
      ['a body that is no object for body "*"', 'POST', `${Q1}:pause`, [1, 2], {}, 400, 'INVALID_ARGUMENT'],
      ['an unknown body field', 'POST', QUEUES, { colour: 'red' }, {}, 400, 'INVALID_ARGUMENT'],
      ['a wrong-typed body field', 'POST', QUEUES, { rateLimits: { maxDispatchesPerSecond: 'fast' } }, {}, 400, 'INVALID_ARGUMENT'],
      ['a malformed query value', 'GET', `${QUEUES}?pageSize=abc`, undefined, {}, 400, 'INVALID_ARGUMENT'],
      ['an unknown query parameter', 'GET', `${QUEUES}?colour=red`, undefined, {}, 400, 'INVALID_ARGUMENT'],
      ['a query parameter the path sets', 'GET', `${QUEUES}?parent=projects/x/locations/y`, undefined, {}, 400, 'INVALID_ARGUMENT'],
      ['a single field given twice', 'GET', `${QUEUES}?pageSize=1&pageSize=2`, undefined, {}, 400, 'INVALID_ARGUMENT'],
      ['a query parameter with body "*"', 'POST', `${Q1}:pause?name=x`, {}, {}, 400, 'INVALID_ARGUMENT'],
      ['an unknown enum name', 'GET', `${Q1}/tasks?responseView=HUGE`, undefined, {}, 400, 'INVALID_ARGUMENT'],
      ['no credentials', 'GET', Q1, undefined, { authorization: '' }, 401, 'UNAUTHENTICATED'],
      ['a caller without the right', 'DELETE', Q1, undefined, { authorization: 'Bearer reader' }, 403, 'PERMISSION_DENIED'],
    ];
    for (const [what, method, path, body, headers, status, code] of refusals) {
      it(`${what}: ${status}`, async () => {
        const before = server.calls.length;
        const response = await call(method, path, body, headers);
        expect(response.status).toBe(status);
        expect(response.headers.get('content-type')).toBe('application/problem+json');
        const problem = (await response.json()) as Json;
        expect(problem).toMatchObject({ type: 'about:blank', status, code, traceId: expect.any(String), instance: path.split('?')[0] });
        expect(typeof problem['detail']).toBe('string');
        expect(server.calls.length).toBe(before);
        if (status === 401) expect(response.headers.get('www-authenticate')).toBe('Bearer');
        if (status === 405) expect(response.headers.get('allow')).toContain('GET');
      });
    }

    it('a body over the limit: 413', async () => {
      const response = await call('POST', QUEUES, { name: 'x'.repeat(70 * 1024) });
      expect(response.status).toBe(413);
      expect(await response.json()).toMatchObject({ status: 413, code: 'RESOURCE_EXHAUSTED' });
    });

    it("a handler's error: its gRPC code as the HTTP status", async () => {
      const response = await call('GET', `${QUEUES}/missing`);
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({
        status: 404,
        code: 'NOT_FOUND',
        detail: 'queue projects/p1/locations/l1/queues/missing does not exist',
      });
    });
  });

  for (const [name, compiler] of Object.entries(COMPILERS)) {
    it(`the generated code and its usage type-check strict with ${name}`, () => {
      const result = typecheck(FOLDER, compiler, 'node', undefined, STRICTEST);
      expect(result.output).toBe('');
      expect(result.ok).toBe(true);
    }, 180_000);
  }
});

describe('google.api.http transcoding: the example (schemas/proto tasks.proto)', () => {
  let usage: Usage;
  let server: Awaited<ReturnType<Usage['start']>>;
  let base: string;

  beforeAll(async () => {
    await generateWithUsage(EXAMPLE_FOLDER, PROTO_ROOT, 'acme/tasks/v1/tasks.proto', TASKS_USAGE);
    usage = await load<Usage>(EXAMPLE_FOLDER, 'usage.js');
    server = await usage.start();
    base = `http://127.0.0.1:${server.port}`;
  }, 120_000);

  afterAll(async () => {
    await server?.close();
  });

  const call = (method: string, path: string, body?: unknown) =>
    fetch(`${base}${path}`, {
      method,
      ...(body !== undefined ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) } : {}),
    });
  /** A server stream's lines, each a JSON object. */
  const lines = async (response: Response) =>
    (await response.text())
      .trim()
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as Json);

  it('answers every route with fetch: path fields, body field, query, response_body, a server stream', async () => {
    let response = await call('POST', '/v1/projects/p1/tasks', {
      title: 'Write',
      labels: ['docs', 'urgent'],
      attributes: { priority: 'high' },
      dueWithin: '3600s',
      estimateMinutes: '30',
      attachment: 'aGk=',
    });
    expect(response.status).toBe(200);
    const created = (await response.json()) as Json;
    expect(created).toMatchObject({
      id: 't1',
      projectId: 'p1',
      title: 'Write',
      status: 'TASK_STATUS_TODO',
      labels: ['docs', 'urgent'],
      attributes: { priority: 'high' },
      dueWithin: '3600s',
      estimateMinutes: '30',
      attachment: 'aGk=',
    });
    await call('POST', '/v1/projects/p1/tasks', { title: 'Review' });
    await call('POST', '/v1/projects/p2/tasks', { title: 'Elsewhere' });
    const read = await call('GET', '/v1/tasks/t1');
    expect(read.headers.get('x-served-by')).toBe('memory'); // the handler's response metadata, as headers
    expect((await read.json()) as Json).toMatchObject({ id: 't1', title: 'Write' });
    // additional_bindings with response_body: the labels alone.
    response = await call('GET', '/v1/tasks/t1/labels');
    expect(await response.json()).toEqual(['docs', 'urgent']);
    // The mask from the query (a FieldMask by its JSON form), the task from the body, its id from the path.
    response = await call('PATCH', '/v1/tasks/t2?updateMask=title,status', { title: 'Review twice', status: 'TASK_STATUS_DONE' });
    expect(await response.json()).toMatchObject({ id: 't2', title: 'Review twice', status: 'TASK_STATUS_DONE' });
    expect(server.calls).toContain('updateTask http title,status');
    // Server streaming: one {"result": ...} line per task.
    response = await call('GET', '/v1/projects/p1/tasks');
    expect(response.headers.get('content-type')).toBe('application/json');
    expect((await lines(response)).map((line) => (line['result'] as Json)['id'])).toEqual(['t1', 't2']);
    response = await call('GET', '/v1/projects/p1/tasks?status=TASK_STATUS_DONE');
    expect((await lines(response)).map((line) => (line['result'] as Json)['id'])).toEqual(['t2']);
    response = await call('GET', '/v1/projects/p1/tasks?pageSize=1&status=0');
    expect(await lines(response)).toHaveLength(1);
    expect(await call('DELETE', '/v1/tasks/t3').then((r) => r.json())).toEqual({});
    expect((await call('GET', '/v1/tasks/t3')).status).toBe(404);
  });

  it('a stream that fails before its first message is a problem; after it, an {"error": ...} line', async () => {
    let response = await call('GET', '/v1/projects/missing/tasks');
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ status: 404, code: 'NOT_FOUND', detail: 'no project missing' });
    await call('POST', '/v1/projects/flaky/tasks', { title: 'a' });
    await call('POST', '/v1/projects/flaky/tasks', { title: 'b' });
    response = await call('GET', '/v1/projects/flaky/tasks');
    expect(response.status).toBe(200);
    const [first, last] = await lines(response);
    expect(first).toMatchObject({ result: { projectId: 'flaky', title: 'a' } });
    expect(last).toMatchObject({ error: { status: 503, code: 'UNAVAILABLE', detail: 'the store went away' } });
  });

  it('calls the routes with the generated REST client, a stream as an async iterable', async () => {
    const sent: string[] = [];
    const client = usage.restClient(server.port, ((request: Request) => {
      sent.push(`${request.method} ${new URL(request.url).pathname}${new URL(request.url).search}`);
      return fetch(request);
    }) as never) as unknown as Record<string, (request: Json) => unknown>;
    expect(client['importTasks']).toBeUndefined(); // streams requests: no route
    const task = (await client['createTask']!({
      task: { projectId: 'rc', title: 'From REST', due: { case: 'dueTime', value: { seconds: 1700000000n, nanos: 0 } } },
    })) as Json;
    expect(task).toMatchObject({
      projectId: 'rc',
      title: 'From REST',
      status: 1,
      due: { case: 'dueTime', value: { seconds: 1700000000n } },
    });
    const id = String(task['id']);
    expect(await client['getTask']!({ id })).toMatchObject({ id, title: 'From REST' });
    expect(await client['updateTask']!({ task: { id, title: 'Renamed' }, updateMask: { paths: ['title'] } })).toMatchObject({
      id,
      title: 'Renamed',
    });
    const streamed: string[] = [];
    for await (const item of client['listTasks']!({ projectId: 'rc', status: 1 }) as AsyncIterable<Json>)
      streamed.push(String(item['title']));
    expect(streamed).toEqual(['Renamed']);
    await client['deleteTask']!({ id });
    await expect(client['getTask']!({ id })).rejects.toMatchObject({ code: NOT_FOUND });
    expect(sent).toEqual([
      'POST /v1/projects/rc/tasks',
      `GET /v1/tasks/${id}`,
      `PATCH /v1/tasks/${id}?updateMask=title`,
      'GET /v1/projects/rc/tasks?status=TASK_STATUS_TODO',
      `DELETE /v1/tasks/${id}`,
      `GET /v1/tasks/${id}`,
    ]);
  });

  it('takes a deadline from Grpc-Timeout, as grpc-gateway does: 504 once it passes, 400 when malformed', async () => {
    let response = await fetch(`${base}/v1/tasks/slow`, { headers: { 'grpc-timeout': '50m' } });
    expect(response.status).toBe(504);
    expect(await response.json()).toMatchObject({ status: 504, code: 'DEADLINE_EXCEEDED' });
    expect(server.calls.at(-1)).toBe('getTask http deadline');
    response = await fetch(`${base}/v1/tasks/slow`, { headers: { 'grpc-timeout': 'soon' } });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ status: 400, code: 'INVALID_ARGUMENT' });
  });

  it('answers the routes over HTTP/2 without TLS (h2c) too, on the same port', async () => {
    const session = connect(base);
    try {
      const get = (path: string, headers: Record<string, string> = {}) =>
        new Promise<{ status: number; type: string; body: string }>((resolve, reject) => {
          const stream = session.request({ ':method': 'GET', ':path': path, ...headers });
          let status = 0;
          let type = '';
          let body = '';
          stream.on('response', (head) => {
            status = Number(head[':status']);
            type = String(head['content-type']);
          });
          stream.setEncoding('utf8');
          stream.on('data', (chunk: string) => (body += chunk));
          stream.on('end', () => resolve({ status, type, body }));
          stream.on('error', reject);
        });
      const created = (await (await call('POST', '/v1/projects/h2/tasks', { title: 'Over h2c' })).json()) as Json;
      const answer = await get(`/v1/tasks/${String(created['id'])}`);
      expect(answer).toMatchObject({ status: 200, type: 'application/json' });
      expect(JSON.parse(answer.body)).toMatchObject({ title: 'Over h2c', projectId: 'h2' });
      const missing = await get('/v1/tasks/none');
      expect(missing).toMatchObject({ status: 404, type: 'application/problem+json' });
    } finally {
      session.close();
    }
  });

  it("lets allowed browsers call the routes: preflights name the routes' methods", async () => {
    const preflight = await fetch(`${base}/v1/tasks/t1`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://app.example',
        'access-control-request-method': 'PATCH',
        'access-control-request-headers': 'content-type',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('https://app.example');
    expect(preflight.headers.get('access-control-allow-methods')).toMatch(/PATCH/);
    expect(preflight.headers.get('access-control-allow-methods')).toMatch(/DELETE/);
    const read = await fetch(`${base}/v1/projects/p1/tasks`, { headers: { origin: 'https://app.example' } });
    expect(read.headers.get('access-control-allow-origin')).toBe('https://app.example');
    await read.text();
  });

  it('answers gRPC from the same handlers', async () => {
    const created = (await (await call('POST', '/v1/projects/g/tasks', { title: 'Both ways' })).json()) as Json;
    const grpc = usage.grpcClient(server.port, '');
    expect(await grpc.getTask!({ id: String(created['id']) })).toMatchObject({ title: 'Both ways', projectId: 'g' });
    expect(server.calls.slice(-2)).toEqual(['createTask http', 'getTask grpc no deadline']);
  });

  it("keeps gRPC paths gRPC's: a Connect call on the same port is not taken for a REST route", async () => {
    const response = await fetch(`${base}/acme.tasks.v1.TaskService/GetTask`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'connect-protocol-version': '1' },
      body: JSON.stringify({ id: 'nope' }),
    });
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.json()).toMatchObject({ code: 'not_found' });
  });

  for (const [name, compiler] of Object.entries(COMPILERS)) {
    it(`the generated code and its usage type-check strict with ${name}`, () => {
      const result = typecheck(EXAMPLE_FOLDER, compiler, 'node', undefined, STRICTEST);
      expect(result.output).toBe('');
      expect(result.ok).toBe(true);
    }, 180_000);
  }
});

describe('path templates (runtime/grpc-transcoding-path.ts)', () => {
  interface PathModule {
    parsePathTemplate(source: string): { variables: { fieldPath: string[] }[]; verb: string | undefined };
    matchPathTemplate(template: unknown, path: string): Map<string, string> | undefined;
    expandPathTemplate(template: unknown, values: Map<string, string>): string;
  }
  let paths: PathModule;
  beforeAll(async () => {
    if (!existsSync(join(FOLDER, 'out/runtime/grpc-transcoding-path.js')))
      await generateWithUsage(FOLDER, GOOGLEAPIS, 'google/cloud/tasks/v2/cloudtasks.proto', CLOUD_TASKS_USAGE);
    paths = await load<PathModule>(FOLDER, 'out/runtime/grpc-transcoding-path.js');
  }, 120_000);

  it("refuses what http.proto's grammar does not allow", () => {
    for (const bad of ['v1/x', '/v1/{name', '/v1/{a={b}}', '/v1/**/x', '/v1/{a}/{a}', '/v1/x:', '/v1//x', '/v1/{a-b}', '/v1/x*y']) {
      expect(() => paths.parsePathTemplate(bad), bad).toThrow(SyntaxError);
    }
  });

  it('matches variables of one and of many segments, `**` and verbs, decoding as the spec says', () => {
    const books = paths.parsePathTemplate('/v1/{name=shelves/*/books/**}:get');
    expect(books.verb).toBe('get');
    expect(paths.matchPathTemplate(books, '/v1/shelves/s1/books/a/b/c:get')).toEqual(new Map([['name', 'shelves/s1/books/a/b/c']]));
    expect(paths.matchPathTemplate(books, '/v1/shelves/s1/books/a')).toBeUndefined(); // no verb
    expect(paths.matchPathTemplate(books, '/v1/shelves/s1/notes/a:get')).toBeUndefined();
    const single = paths.parsePathTemplate('/v1/{id}');
    expect(paths.matchPathTemplate(single, '/v1/a%2Fb%20c')).toEqual(new Map([['id', 'a/b c']])); // one segment: decoded whole
    expect(paths.matchPathTemplate(single, '/v1/a:b')).toEqual(new Map([['id', 'a:b']])); // no verb in the template: part of the value
    expect(paths.matchPathTemplate(single, '/v1/a/b')).toBeUndefined();
    expect(paths.matchPathTemplate(single, '/v1/%E0%A4%A')).toBeUndefined();
    const deep = paths.parsePathTemplate('/v1/{path=**}');
    expect(paths.matchPathTemplate(deep, '/v1/a%2Fb/c%20d')).toEqual(new Map([['path', 'a%2Fb/c d']])); // many segments: %2F stays
    const nested = paths.parsePathTemplate('/v1/{task.project_id}/tasks/{task.id}');
    expect(paths.matchPathTemplate(nested, '/v1/p1/tasks/t1')).toEqual(
      new Map([
        ['task.project_id', 'p1'],
        ['task.id', 't1'],
      ]),
    );
  });

  it('expands values percent-encoded, and refuses values that do not fit', () => {
    const queues = paths.parsePathTemplate('/v2/{parent=projects/*/locations/*}/queues');
    expect(paths.expandPathTemplate(queues, new Map([['parent', 'projects/p 1/locations/é']]))).toBe(
      '/v2/projects/p%201/locations/%C3%A9/queues',
    );
    expect(() => paths.expandPathTemplate(queues, new Map([['parent', 'projects/p1']]))).toThrow(TypeError);
    expect(() => paths.expandPathTemplate(queues, new Map())).toThrow(/parent is needed/);
    const single = paths.parsePathTemplate('/v1/{id}:cancel');
    expect(paths.expandPathTemplate(single, new Map([['id', 'a/b']]))).toBe('/v1/a%2Fb:cancel');
  });
});

describe('google.api.http rules that cannot work stop generation, located', () => {
  const dir = join(ROOT, '.vitest-tmp', 'grpc-transcoding-bad');
  const cases: [string, string, RegExp][] = [
    [
      'an unknown path field',
      'get: "/v1/{nam}"',
      /bad\.proto:11:\d+: error: A: google\.api\.http GET "\/v1\/\{nam\}": bad\.v1\.Req has no field nam/,
    ],
    ['a list in the path', 'get: "/v1/{tags}"', /the path variable tags is a list/],
    ['a message in the path', 'get: "/v1/{sub}"', /the path variable sub is a message \(bad\.v1\.Sub\)/],
    ['no leading slash', 'get: "v1/x"', /GET "v1\/x" is not a path template/],
    ['`**` in the middle', 'get: "/v1/**/x"', /is not a path template/],
    ['a GET with a body', 'get: "/v1/x" body: "*"', /GET "\/v1\/x" has a body/],
    ['an unknown body field', 'post: "/v1/x" body: "nope"', /body "nope" is not a field of bad\.v1\.Req/],
    ['an unknown response_body', 'get: "/v1/x" response_body: "nope"', /response_body "nope" is not a field of bad\.v1\.Res/],
    ['no pattern', 'body: "*"', /has no pattern/],
    [
      'a custom kind that is no method',
      'custom: { kind: "NOT A METHOD" path: "/v1/x" }',
      /custom kind "NOT A METHOD" is not an HTTP method/,
    ],
    [
      'a field in an additional binding',
      'get: "/v1/{name}" additional_bindings { get: "/v1/{nam=*}/x" }',
      /GET "\/v1\/\{nam=\*\}\/x": bad\.v1\.Req has no field nam/,
    ],
  ];
  const proto = (rule: string) => `syntax = "proto3";
package bad.v1;

import "google/api/annotations.proto";

message Sub { string id = 1; }
message Req { string name = 1; repeated string tags = 2; Sub sub = 3; }
message Res { string text = 1; }

service S {
  rpc A(Req) returns (Res) { option (google.api.http) = { ${rule} }; }
  rpc B(Req) returns (Res) { option (google.api.http) = { get: "/v2/{name}" }; }
}
`;
  const generateBad = (rule: string) => {
    writeFiles(dir, []);
    cpSync(join(PROTO_ROOT, 'google'), join(dir, 'google'), { recursive: true });
    writeFileSync(join(dir, 'bad.proto'), proto(rule));
    return generate([
      {
        name: 'bad',
        inputs: [join(dir, 'bad.proto')],
        documents: [],
        style: 'proto',
        output: join(dir, 'out'),
        emit: ['types', 'client', 'server'],
        options: { includePaths: [dir] },
        root: dir,
      },
    ]);
  };
  for (const [what, rule, message] of cases) {
    it(what, async () => {
      await expect(generateBad(rule)).rejects.toThrow(message);
    });
  }

  it('the same route on two methods', async () => {
    await expect(generateBad('get: "/v2/{id=*}"'.replace('id', 'name'))).rejects.toThrow(/B: the route GET \/v2\/\{name\} is also A's/);
  });

  it('a good rule generates', async () => {
    const [{ files }] = await generateBad(
      'get: "/v1/{name=shelves/*}/x:go" additional_bindings { post: "/v1/x" body: "*" response_body: "text" }',
    );
    expect(files.find((file) => file.path === 'http-rules.ts')?.content).toContain(
      '{ method: "POST", path: "/v1/x", body: "*", responseBody: "text" }',
    );
  });
});

describe('google.api.http of the other googleapis services: Secret Manager, Datastore, IAM', () => {
  const folder = join(ROOT, '.vitest-tmp', 'grpc-transcoding-googleapis');
  let files: Map<string, string>;
  beforeAll(async () => {
    const inputs = { secretmanager: 'google/cloud/secretmanager/v1/service.proto', datastore: 'google/datastore/v1/datastore.proto' };
    const outputs = await generate(
      Object.entries(inputs).map(([name, input]) => ({
        name,
        inputs: [join(GOOGLEAPIS, input)],
        documents: [],
        style: 'proto' as const,
        output: join(folder, name),
        emit: ['types', 'client', 'server'],
        options: { includePaths: [GOOGLEAPIS] },
        root: GOOGLEAPIS,
      })),
    );
    writeFiles(folder, []);
    files = new Map();
    for (const [i, output] of outputs.entries()) {
      const name = Object.keys(inputs)[i]!;
      writeFiles(join(folder, name), output.files);
      for (const file of output.files) files.set(`${name}/${file.path}`, file.content);
    }
    writeFileSync(join(folder, 'package.json'), '{ "type": "module" }\n');
  }, 120_000);

  it('writes their routes, additional bindings included', () => {
    const secrets = files.get('secretmanager/http-rules.ts')!;
    expect(secrets).toContain(
      '{ method: "GET", path: "/v1/{parent=projects/*}/secrets" },\n    { method: "GET", path: "/v1/{parent=projects/*/locations/*}/secrets" },',
    );
    expect(secrets).toContain('{ method: "POST", path: "/v1/{resource=projects/*/secrets/*}:setIamPolicy", body: "*" }');
    expect(files.get('datastore/http-rules.ts')).toContain('{ method: "POST", path: "/v1/projects/{project_id}:runQuery", body: "*" }');
  });

  for (const [name, compiler] of Object.entries(COMPILERS)) {
    it(`their server and REST clients type-check strict with ${name}`, () => {
      const result = typecheck(folder, compiler, 'node', undefined, STRICTEST);
      expect(result.output).toBe('');
      expect(result.ok).toBe(true);
    }, 240_000);
  }
});

describe('query parameters and bodies of every kind (echo.proto)', () => {
  const folder = join(ROOT, '.vitest-tmp', 'grpc-transcoding-echo');
  const protos = join(folder, 'protos');
  let usage: Usage;
  let server: Awaited<ReturnType<Usage['start']>>;
  let base: string;

  beforeAll(async () => {
    writeFiles(protos, []);
    cpSync(join(PROTO_ROOT, 'google'), join(protos, 'google'), { recursive: true });
    writeFileSync(join(protos, 'echo.proto'), ECHO_PROTO);
    const [{ files }] = await generate([
      {
        name: 'echo',
        inputs: [join(protos, 'echo.proto')],
        documents: [],
        style: 'proto',
        output: join(folder, 'out'),
        emit: ['types', 'client', 'server'],
        options: { includePaths: [protos] },
        root: protos,
      },
    ]);
    writeFiles(join(folder, 'out'), files);
    writeFileSync(join(folder, 'usage.ts'), ECHO_USAGE);
    writeFileSync(join(folder, 'package.json'), '{ "type": "module" }\n');
    transpileFolder(folder);
    usage = await load<Usage>(folder, 'usage.js');
    server = await usage.start();
    base = `http://127.0.0.1:${server.port}`;
  }, 120_000);

  afterAll(async () => {
    await server?.close();
  });

  it('nested fields (a.b.c), lists repeated, map entries (m[key]), enums by name or number, well-known types and bytes by their JSON form', async () => {
    const query = [
      'filter.owner=ann',
      'filter.tags=a',
      'filter.tags=b%20c',
      'filter.inner.limit=5',
      'filter.inner.strict=true',
      'ids=1',
      'ids=2',
      'colours=COLOUR_RED',
      'colours=1',
      'since=2024-01-02T03:04:05Z',
      'limit=7',
      'flag=false',
      'blob=aGk%3D',
      'ratio=0.5',
      'note=',
      'labels[env]=prod',
      'labels%5Bteam%5D=core',
      'switches[beta]=true',
    ].join('&');
    const response = await fetch(`${base}/v1/echo/rooms/r1?${query}`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      name: 'rooms/r1',
      filter: { owner: 'ann', tags: ['a', 'b c'], inner: { limit: '5', strict: true } },
      ids: [1, 2],
      colours: ['COLOUR_RED', 'COLOUR_RED'],
      since: '2024-01-02T03:04:05Z',
      limit: 7,
      flag: false,
      blob: 'aGk=',
      ratio: 0.5,
      note: '',
      labels: { env: 'prod', team: 'core' },
      switches: { beta: true },
    });
    // Proto names work as well as JSON names.
    expect(await (await fetch(`${base}/v1/echo/rooms/r1?filter.inner.strict=true`)).json()).toEqual({
      name: 'rooms/r1',
      filter: { inner: { strict: true } },
    });
    for (const bad of [
      'filter=x',
      'filter.inner.strict=yes',
      'ids=one',
      'since=yesterday',
      'filter.nope=1',
      'colours=COLOUR_BLUE',
      'labels=x',
      'switches[a]=maybe',
      'ids[0]=1',
      'labels[a]=1&labels[a]=2',
    ]) {
      const refused = await fetch(`${base}/v1/echo/rooms/r1?${bad}`);
      expect(refused.status, bad).toBe(400);
      await refused.body?.cancel();
    }
  });

  it('a ** variable, a :verb, a body field and response_body', async () => {
    const response = await fetch(`${base}/v1/raw/a/b%2Fc/d:echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ owner: 'bo', tags: ['x'] }),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ owner: 'bo', tags: ['x'] }); // the filter alone
  });

  it('the REST client sends the same URLs', async () => {
    const sent: string[] = [];
    const client = usage.restClient(server.port, ((request: Request) => {
      sent.push(`${request.method} ${new URL(request.url).pathname}${new URL(request.url).search}`);
      return fetch(request);
    }) as never) as unknown as Record<string, (request: Json) => Promise<Json>>;
    const echoed = await client['echo']!({
      name: 'rooms/r 2',
      filter: { owner: 'ann', tags: ['a', 'b'], inner: { limit: 5n, strict: true } },
      ids: [1, 2],
      colours: [1],
      since: { seconds: 1704164645n, nanos: 0 },
      ratio: 0.5,
      labels: { env: 'prod' },
    });
    expect(echoed).toMatchObject({
      name: 'rooms/r 2',
      filter: { owner: 'ann', tags: ['a', 'b'], inner: { limit: 5n, strict: true } },
      ids: [1, 2],
      colours: [1],
      since: { seconds: 1704164645n },
      ratio: 0.5,
      labels: { env: 'prod' },
    });
    expect(await client['raw']!({ name: 'x/y', filter: { owner: 'bo' } })).toMatchObject({ filter: { owner: 'bo' } });
    expect(sent).toEqual([
      'GET /v1/echo/rooms/r%202?filter.owner=ann&filter.tags=a&filter.tags=b&filter.inner.limit=5&filter.inner.strict=true&ids=1&ids=2&colours=COLOUR_RED&since=2024-01-02T03%3A04%3A05Z&ratio=0.5&labels%5Benv%5D=prod',
      'POST /v1/raw/x/y:echo',
    ]);
  });
});
