/**
 * Interop of the generated gRPC code with independent implementations, on 127.0.0.1:
 * - a stock @grpc/grpc-js client (service built at run time from the .proto by @grpc/proto-loader)
 *   calls the generated server in all four modes, with metadata, deadlines and every status path;
 * - the generated Node client calls a plain @grpc/grpc-js server built the same way;
 * - plain `fetch` calls Connect's JSON protocol;
 * - grpc-js checks and watches health.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as grpc from '@grpc/grpc-js';
import * as net from 'node:net';
import { generateGrpc, grpcJsPackage, load, metadata, unary } from './support/grpc-setup.js';

interface Usage {
  createServer(options?: object): {
    listen(port: number, host?: string): Promise<number>;
    close(): Promise<void>;
    health: { set(service: string, status: number): void };
  };
  seen: { aborted: string[]; logged: unknown[]; principals: string[] };
}

type ServiceClient = Record<string, (...args: unknown[]) => unknown>;

interface NodeClientModule {
  createClient(options: object): { taskService: ServiceClient; close(): void };
  createTaskServiceClient(options: object): ServiceClient;
  ConnectError: new (...args: unknown[]) => Error & { code: number; rawMessage: string };
  GrpcError: new (...args: never[]) => Error & { code: number; rawMessage: string; kind: string; operation: string; cause: unknown };
  ClientError: abstract new (...args: never[]) => Error;
  isClientError(error: unknown, kind?: string): boolean;
  Code: Record<string, number>;
}

const { TaskService, Health } = grpcJsPackage();
let folder: string;
let usage: Usage;
let server: ReturnType<Usage['createServer']>;
let port: number;
let client: grpc.Client;

beforeAll(async () => {
  ({ folder } = await generateGrpc('grpc-interop'));
  usage = await load<Usage>(folder, 'usage.js');
  server = usage.createServer();
  port = await server.listen(0, '127.0.0.1');
  client = new TaskService(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
});

afterAll(async () => {
  client?.close();
  await server?.close();
});

describe('grpc-js client → generated server', () => {
  it('unary with metadata: header and trailer come back, int64 and enums as the .proto says', async () => {
    const { value, header, trailer } = await unary<Record<string, unknown>>(
      client,
      'getTask',
      { id: 't2' },
      metadata('editor', { 'x-trace-id': 'trace-42' }),
    );
    expect(value).toMatchObject({
      id: 't2',
      projectId: 'p1',
      title: 'Ship it',
      status: 'TASK_STATUS_DONE',
      estimateMinutes: '9007199254740993',
    });
    expect(header.get('x-trace-id')).toEqual(['trace-42']);
    expect(trailer.get('x-served-by')).toEqual(['usage']);
    expect(usage.seen.principals).toContain('u1');
  });

  it('server streaming', async () => {
    const call = (client as unknown as { listTasks(request: object, metadata: grpc.Metadata): AsyncIterable<{ id: string }> }).listTasks(
      { projectId: 'p1' },
      metadata('reader'),
    );
    const ids: string[] = [];
    for await (const task of call) ids.push(task.id);
    expect(ids).toEqual(['t1', 't2']);
  });

  it('client streaming', async () => {
    const result = await new Promise<{ created: number; ids: string[] }>((resolve, reject) => {
      const call = (
        client as unknown as {
          importTasks(
            metadata: grpc.Metadata,
            callback: (error: Error | null, value: { created: number; ids: string[] }) => void,
          ): grpc.ClientWritableStream<object>;
        }
      ).importTasks(metadata('editor'), (error, value) => (error ? reject(error) : resolve(value)));
      for (const title of ['a', 'b', 'c']) call.write({ projectId: 'p1', title });
      call.end();
    });
    expect(result.created).toBe(3);
    expect(result.ids).toHaveLength(3);
  });

  it('bidirectional streaming: answers arrive while the client is still sending', async () => {
    const call = (
      client as unknown as {
        syncTasks(metadata: grpc.Metadata): grpc.ClientDuplexStream<object, { kind: string; task: { id: string; title: string } }>;
      }
    ).syncTasks(metadata('editor'));
    const received: string[] = [];
    const first = new Promise<void>((resolve) => call.once('data', () => resolve()));
    call.on('data', (event) => received.push(`${event.kind} ${event.task.id} ${event.task.title}`));
    call.write({ kind: 'KIND_CREATED', task: { id: 'n1', title: 'one' } });
    await first; // the server answered the first event before the second was sent
    call.write({ kind: 'KIND_UNSPECIFIED', task: { id: 'n2', title: 'two' } });
    call.end();
    await new Promise((resolve) => call.on('end', resolve));
    expect(received).toEqual(['KIND_CREATED n1 one (seen)', 'KIND_UPDATED n2 two (seen)']);
  });

  it('no or unknown credentials → UNAUTHENTICATED; a reader writing → PERMISSION_DENIED', async () => {
    await expect(unary(client, 'getTask', { id: 't1' }, metadata(undefined))).rejects.toMatchObject({ code: grpc.status.UNAUTHENTICATED });
    await expect(unary(client, 'getTask', { id: 't1' }, metadata('forged'))).rejects.toMatchObject({ code: grpc.status.UNAUTHENTICATED });
    await expect(unary(client, 'deleteTask', { id: 't1' }, metadata('reader'))).rejects.toMatchObject({
      code: grpc.status.PERMISSION_DENIED,
    });
    const stream = (client as unknown as { listTasks(request: object, metadata: grpc.Metadata): AsyncIterable<unknown> }).listTasks(
      { projectId: 'p1' },
      metadata(undefined),
    );
    await expect(
      (async () => {
        for await (const _ of stream) void _;
      })(),
    ).rejects.toMatchObject({ code: grpc.status.UNAUTHENTICATED });
  });

  it('a validation failure the handler throws → INVALID_ARGUMENT; a missing task → NOT_FOUND', async () => {
    await expect(unary(client, 'getTask', { id: '' }, metadata('editor'))).rejects.toMatchObject({
      code: grpc.status.INVALID_ARGUMENT,
      details: 'id is required',
    });
    await expect(unary(client, 'createTask', { task: { title: '' } }, metadata('editor'))).rejects.toMatchObject({
      code: grpc.status.INVALID_ARGUMENT,
    });
    await expect(unary(client, 'getTask', { id: 'missing' }, metadata('editor'))).rejects.toMatchObject({
      code: grpc.status.NOT_FOUND,
      details: 'task missing not found',
    });
  });

  it('an uncaught exception → INTERNAL with a generic message, no stack and no secret; logged on the server', async () => {
    const logged = usage.seen.logged.length;
    const error = await unary(client, 'getTask', { id: 'boom' }, metadata('editor')).catch((e: grpc.ServiceError) => e);
    expect(error).toMatchObject({ code: grpc.status.INTERNAL, details: 'internal error' });
    const everything = JSON.stringify({
      details: (error as grpc.ServiceError).details,
      metadata: (error as grpc.ServiceError).metadata.getMap(),
    });
    expect(everything).not.toMatch(/secret|at .*\.js|Error:/);
    expect(usage.seen.logged.length).toBe(logged + 1);
    expect(String(usage.seen.logged.at(-1))).toContain('secret');
  });

  it('a deadline that expires → DEADLINE_EXCEEDED, and the handler sees its signal abort', async () => {
    const error = await unary(client, 'getTask', { id: 'slow' }, metadata('editor'), { deadline: Date.now() + 150 }).catch(
      (e: grpc.ServiceError) => e,
    );
    expect(error).toMatchObject({ code: grpc.status.DEADLINE_EXCEEDED });
    await expect.poll(() => usage.seen.aborted).toContain('getTask');
  });

  it('cancelling a server stream reaches the handler', async () => {
    const call = (
      client as unknown as { listTasks(request: object, metadata: grpc.Metadata): grpc.ClientReadableStream<{ id: string }> }
    ).listTasks({ projectId: 'endless' }, metadata('editor'));
    await new Promise<void>((resolve) => call.once('data', () => resolve()));
    call.on('error', () => undefined); // CANCELLED, as asked
    call.cancel();
    await expect.poll(() => usage.seen.aborted).toContain('listTasks');
  });

  it('a message that is not valid protobuf is refused without reaching the handler', async () => {
    const bad = new grpc.Client(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
    const error = await new Promise<grpc.ServiceError>((resolve) =>
      bad.makeUnaryRequest(
        '/acme.tasks.v1.TaskService/GetTask',
        () => Buffer.from([0x0a, 0xff, 0xff]),
        (x: Buffer) => x,
        {},
        metadata('editor'),
        (e) => resolve(e as grpc.ServiceError),
      ),
    );
    bad.close();
    // Connect answers INTERNAL ("parse binary: ..."), as gRPC's status table prescribes for a request
    // proto that does not parse; the JSON protocol answers INVALID_ARGUMENT (see below).
    expect(error.code).toBe(grpc.status.INTERNAL);
    expect(error.details).toMatch(/^parse binary/);
  });

  it('an unknown method → UNIMPLEMENTED', async () => {
    const raw = new grpc.Client(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
    const error = await new Promise<grpc.ServiceError>((resolve) =>
      raw.makeUnaryRequest(
        '/acme.tasks.v1.TaskService/Nope',
        (x: Buffer) => x,
        (x: Buffer) => x,
        Buffer.alloc(0),
        metadata('editor'),
        (e) => resolve(e as grpc.ServiceError),
      ),
    );
    raw.close();
    expect(error.code).toBe(grpc.status.UNIMPLEMENTED);
  });
});

describe('health (grpc.health.v1) through grpc-js', () => {
  it('Check answers per service, NOT_FOUND for an unknown one, with no credentials', async () => {
    const health = new Health(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
    await expect(unary(health, 'check', { service: '' })).resolves.toMatchObject({ value: { status: 'SERVING' } });
    await expect(unary(health, 'check', { service: 'acme.tasks.v1.TaskService' })).resolves.toMatchObject({ value: { status: 'SERVING' } });
    await expect(unary(health, 'check', { service: 'nope.Service' })).rejects.toMatchObject({ code: grpc.status.NOT_FOUND });
    health.close();
  });

  it('Watch streams the current status, then each change', async () => {
    const health = new Health(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
    const call = (health as unknown as { watch(request: object): grpc.ClientReadableStream<{ status: string }> }).watch({
      service: 'acme.tasks.v1.TaskService',
    });
    const statuses: string[] = [];
    const two = new Promise<void>((resolve) => call.on('data', (response) => statuses.push(response.status) === 2 && resolve()));
    await new Promise<void>((resolve) => call.once('data', () => resolve()));
    server.health.set('acme.tasks.v1.TaskService', 2);
    await two;
    server.health.set('acme.tasks.v1.TaskService', 1);
    call.on('error', () => undefined);
    call.cancel();
    health.close();
    expect(statuses).toEqual(['SERVING', 'NOT_SERVING']);
  });
});

describe('fetch → Connect JSON protocol (HTTP/1.1, same port)', () => {
  const url = (method: string) => `http://127.0.0.1:${port}/acme.tasks.v1.TaskService/${method}`;

  it('unary POST with application/json answers proto3 JSON', async () => {
    const response = await fetch(url('GetTask'), {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer reader' },
      body: '{"id":"t2"}',
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.json()).toMatchObject({
      id: 't2',
      projectId: 'p1',
      status: 'TASK_STATUS_DONE',
      estimateMinutes: '9007199254740993',
    });
  });

  it('errors are Connect error JSON with HTTP statuses: 401, 403, 404, 400 for bad JSON, 500 without details', async () => {
    const call = (method: string, body: string, token?: string) =>
      fetch(url(method), {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body,
      });
    let response = await call('GetTask', '{"id":"t1"}');
    expect([response.status, await response.json()]).toEqual([401, { code: 'unauthenticated', message: 'missing or invalid credentials' }]);
    response = await call('DeleteTask', '{"id":"t1"}', 'reader');
    expect(response.status).toBe(403);
    response = await call('GetTask', '{"id":"missing"}', 'editor');
    expect([response.status, (await response.json()).code]).toEqual([404, 'not_found']);
    response = await call('GetTask', '{"id":', 'editor');
    expect([response.status, (await response.json()).code]).toEqual([400, 'invalid_argument']);
    response = await call('GetTask', '{"id":"t1","nope":1}', 'editor');
    expect(response.status).toBe(200); // unknown JSON fields are ignored, as Connect does by default
    response = await call('GetTask', '{"id":"boom"}', 'editor');
    const text = await response.text();
    expect(response.status).toBe(500);
    expect(JSON.parse(text)).toEqual({ code: 'internal', message: 'internal error' });
  });
});

describe('generated Node client → plain grpc-js server', () => {
  let plain: grpc.Server;
  let module: NodeClientModule;
  let connection: ReturnType<NodeClientModule['createClient']>;
  let tasks: ServiceClient;
  let plainPort: number;
  const received: Record<string, unknown> = {};
  /** Calls of GetTask with id `flaky`, answered UNAVAILABLE until the third. */
  let flakyCalls = 0;

  beforeAll(async () => {
    plain = new grpc.Server();
    plain.addService(TaskService.service, {
      getTask(call: grpc.ServerUnaryCall<{ id: string }, unknown>, callback: grpc.sendUnaryData<unknown>) {
        received.authorization = call.metadata.get('authorization')[0];
        received.tenant = call.metadata.get('x-tenant')[0];
        if (call.request.id === 'missing') return callback({ code: grpc.status.NOT_FOUND, details: 'no such task' });
        if (call.request.id === 'slow') return void setTimeout(() => callback(null, { id: 'slow' }), 2000);
        if (call.request.id === 'flaky' && ++flakyCalls < 3) return callback({ code: grpc.status.UNAVAILABLE, details: 'try again' });
        call.sendMetadata(new grpc.Metadata());
        const trailer = new grpc.Metadata();
        trailer.set('x-served-by', 'grpc-js');
        callback(
          null,
          {
            id: call.request.id,
            title: 'from grpc-js',
            status: 'TASK_STATUS_IN_PROGRESS',
            estimateMinutes: '9007199254740993',
            attributes: { priority: 'high' },
          },
          trailer,
        );
      },
      listTasks(call: grpc.ServerWritableStream<{ projectId: string; pageSize: number }, unknown>) {
        for (let i = 0; i < call.request.pageSize; i++) call.write({ id: `${call.request.projectId}-${i}` });
        call.end();
      },
      importTasks(call: grpc.ServerReadableStream<{ title: string }, unknown>, callback: grpc.sendUnaryData<unknown>) {
        const ids: string[] = [];
        call.on('data', (task) => ids.push(task.title));
        call.on('end', () => callback(null, { created: ids.length, ids }));
      },
      syncTasks(call: grpc.ServerDuplexStream<{ kind: string; task: { id: string } }, unknown>) {
        call.on('data', (event) => call.write({ kind: event.kind, task: { id: event.task.id, title: 'echo' } }));
        call.on('end', () => call.end());
      },
    });
    plainPort = await new Promise<number>((resolve, reject) =>
      plain.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (error, bound) => (error ? reject(error) : resolve(bound))),
    );
    module = await load<NodeClientModule>(folder, 'out/client.js');
    // headers as a function, as CommonClientOptions allow: asked on every call.
    connection = module.createClient({
      baseUrl: `http://127.0.0.1:${plainPort}`,
      token: () => 'secret-token',
      headers: async () => ({ 'x-tenant': 'acme' }),
    });
    tasks = connection.taskService;
  });

  afterAll(() => {
    connection?.close();
    plain?.forceShutdown();
  });

  it('unary: typed message back, credentials and metadata sent, trailers read', async () => {
    let trailer: Headers | undefined;
    const task = (await tasks.getTask({ id: 't9' }, { onTrailer: (t: Headers) => (trailer = t) })) as {
      id: string;
      title: string;
      status: number;
      estimateMinutes: bigint;
      attributes: Record<string, string>;
    };
    expect(task).toMatchObject({
      id: 't9',
      title: 'from grpc-js',
      status: 2,
      estimateMinutes: 9007199254740993n,
      attributes: { priority: 'high' },
    });
    expect(received).toEqual({ authorization: 'Bearer secret-token', tenant: 'acme' });
    expect(trailer?.get('x-served-by')).toBe('grpc-js');
  });

  it('a status from the server arrives as GrpcError (a ClientError of kind response) with its code, ConnectError as its cause', async () => {
    const error = (await (tasks.getTask({ id: 'missing' }) as Promise<unknown>).catch((e: unknown) => e)) as InstanceType<
      NodeClientModule['GrpcError']
    >;
    expect(error).toBeInstanceOf(module.GrpcError);
    expect(error).toBeInstanceOf(module.ClientError);
    expect([error.kind, error.operation, error.code, error.rawMessage]).toEqual([
      'response',
      'acme.tasks.v1.TaskService/GetTask',
      module.Code.NotFound,
      'no such task',
    ]);
    expect(error.cause).toBeInstanceOf(module.ConnectError);
  });

  it('a deadline expires → DEADLINE_EXCEEDED of kind timeout, per call (timeoutMs) or per client (timeout)', async () => {
    const error = (await (tasks.getTask({ id: 'slow' }, { timeoutMs: 100 }) as Promise<unknown>).catch((e: unknown) => e)) as {
      code: number;
      kind: string;
    };
    expect([error.code, error.kind]).toEqual([module.Code.DeadlineExceeded, 'timeout']);
    const bounded = module.createClient({ baseUrl: `http://127.0.0.1:${plainPort}`, timeout: 100 });
    try {
      const late = (await (bounded.taskService.getTask!({ id: 'slow' }) as Promise<unknown>).catch((e: unknown) => e)) as {
        code: number;
        kind: string;
      };
      expect([late.code, late.kind]).toEqual([module.Code.DeadlineExceeded, 'timeout']);
    } finally {
      bounded.close();
    }
  });

  it('a unary call that fails UNAVAILABLE is retried (default 2 retries); retry: false sends it once', async () => {
    flakyCalls = 0;
    expect(await tasks.getTask({ id: 'flaky' })).toMatchObject({ id: 'flaky' });
    expect(flakyCalls).toBe(3);
    flakyCalls = 0;
    const once = module.createClient({ baseUrl: `http://127.0.0.1:${plainPort}`, retry: false });
    try {
      const error = (await (once.taskService.getTask!({ id: 'flaky' }) as Promise<unknown>).catch((e: unknown) => e)) as {
        code: number;
        kind: string;
      };
      expect([error.code, error.kind, flakyCalls]).toEqual([module.Code.Unavailable, 'response', 1]);
    } finally {
      once.close();
    }
  });

  it('no server → GrpcError of kind network; the client signal aborts calls', async () => {
    const closed = await new Promise<number>((resolve) => {
      const probe = net.createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as net.AddressInfo;
        probe.close(() => resolve(free));
      });
    });
    const nobody = module.createClient({ baseUrl: `http://127.0.0.1:${closed}`, retry: { maxRetries: 1, baseDelay: 1 } });
    try {
      const error = await (nobody.taskService.getTask!({ id: 't1' }) as Promise<unknown>).catch((e: unknown) => e);
      expect(module.isClientError(error, 'network')).toBe(true);
      expect((error as { code: number }).code).toBe(module.Code.Unavailable);
    } finally {
      nobody.close();
    }
    const controller = new AbortController();
    const aborted = module.createTaskServiceClient({ baseUrl: `http://127.0.0.1:${plainPort}`, signal: controller.signal });
    const pending = (aborted.getTask!({ id: 'slow' }) as Promise<unknown>).catch((e: unknown) => e);
    setTimeout(() => controller.abort(), 50);
    const error = (await pending) as { code: number; kind: string };
    expect(module.isClientError(error)).toBe(true);
    expect(error.code).toBe(module.Code.Canceled);
  });

  it('server streaming, client streaming and bidi as async iterables', async () => {
    const listed: string[] = [];
    for await (const task of tasks.listTasks({ projectId: 'p', pageSize: 3 }) as AsyncIterable<{ id: string }>) listed.push(task.id);
    expect(listed).toEqual(['p-0', 'p-1', 'p-2']);

    async function* titles() {
      yield { title: 'x' };
      yield { title: 'y' };
    }
    expect(await tasks.importTasks(titles())).toMatchObject({ created: 2, ids: ['x', 'y'] });

    async function* events() {
      yield { kind: 1, task: { id: 'a' } };
      yield { kind: 3, task: { id: 'b' } };
    }
    const echoed: string[] = [];
    for await (const event of tasks.syncTasks(events()) as AsyncIterable<{ kind: number; task: { id: string; title: string } }>)
      echoed.push(`${event.kind} ${event.task.id} ${event.task.title}`);
    expect(echoed).toEqual(['1 a echo', '3 b echo']);
  });
});

describe('generated Node client (Connect gRPC transport, HTTP/2) → generated server', () => {
  let module: NodeClientModule;
  const connections: { close(): void }[] = [];
  const clientFor = (token: string) => {
    const connection = module.createClient({ baseUrl: `http://127.0.0.1:${port}`, token: () => token });
    connections.push(connection);
    return connection.taskService;
  };
  const failure = async (call: unknown) =>
    (await (call as Promise<unknown>).then(
      () => undefined,
      (e: unknown) => e,
    )) as { code: number; rawMessage: string } | undefined;

  beforeAll(async () => {
    module = await load<NodeClientModule>(folder, 'out/client.js');
  });
  afterAll(() => connections.forEach((connection) => connection.close()));

  it('unary with metadata, then all streaming modes', async () => {
    const tasks = clientFor('editor');
    let header: Headers | undefined;
    let trailer: Headers | undefined;
    const task = await tasks.getTask(
      { id: 't2' },
      { headers: { 'x-trace-id': 'connect-7' }, onHeader: (h: Headers) => (header = h), onTrailer: (t: Headers) => (trailer = t) },
    );
    expect(task).toMatchObject({ id: 't2', title: 'Ship it', estimateMinutes: 9007199254740993n });
    expect([header?.get('x-trace-id'), trailer?.get('x-served-by')]).toEqual(['connect-7', 'usage']);
    // createTask's handler returns a plain value, not a promise.
    expect(await tasks.createTask({ task: { projectId: 'p1', title: 'plain' } })).toMatchObject({ projectId: 'p1', title: 'plain' });

    const listed: string[] = [];
    for await (const item of tasks.listTasks({ projectId: 'p1' }) as AsyncIterable<{ id: string }>) listed.push(item.id);
    expect(listed).toEqual(['t1', 't2']);

    async function* created() {
      yield { projectId: 'p1', title: 'one' };
      yield { projectId: 'p1', title: 'two' };
    }
    expect(await tasks.importTasks(created())).toMatchObject({ created: 2 });

    async function* events() {
      yield { kind: 1, task: { id: 'c1', title: 'x' } };
      yield { kind: 0, task: { id: 'c2', title: 'y' } };
    }
    const echoed: string[] = [];
    for await (const event of tasks.syncTasks(events()) as AsyncIterable<{ kind: number; task: { id: string; title: string } }>)
      echoed.push(`${event.kind} ${event.task.id} ${event.task.title}`);
    expect(echoed).toEqual(['1 c1 x (seen)', '2 c2 y (seen)']);
  });

  it('statuses: NOT_FOUND, INVALID_ARGUMENT, PERMISSION_DENIED, UNAUTHENTICATED, INTERNAL without details, DEADLINE_EXCEEDED', async () => {
    const editor = clientFor('editor');
    expect(await failure(editor.getTask({ id: 'missing' }))).toMatchObject({
      code: module.Code.NotFound,
      rawMessage: 'task missing not found',
    });
    expect(await failure(editor.getTask({ id: '' }))).toMatchObject({ code: module.Code.InvalidArgument, rawMessage: 'id is required' });
    expect(await failure(clientFor('reader').deleteTask({ id: 't1' }))).toMatchObject({ code: module.Code.PermissionDenied });
    expect(await failure(clientFor('forged').getTask({ id: 't1' }))).toMatchObject({ code: module.Code.Unauthenticated });
    expect(await failure(editor.getTask({ id: 'boom' }))).toMatchObject({ code: module.Code.Internal, rawMessage: 'internal error' });
    expect(await failure(editor.getTask({ id: 'slow' }, { timeoutMs: 150 }))).toMatchObject({ code: module.Code.DeadlineExceeded });
  });
});

describe('gRPC over HTTP/2: limits, compression and shutdown', () => {
  let limited: ReturnType<Usage['createServer']>;
  let limitedClient: grpc.Client;

  beforeAll(async () => {
    limited = usage.createServer({ readMaxBytes: 64, maxTimeoutMs: 10_000 });
    const limitedPort = await limited.listen(0, '127.0.0.1');
    limitedClient = new TaskService(`127.0.0.1:${limitedPort}`, grpc.credentials.createInsecure());
  });
  afterAll(async () => {
    limitedClient?.close();
    await limited?.close();
  });

  it("a gzip-compressed call is answered (compressed requests are Connect's)", async () => {
    const gzip = new TaskService(`127.0.0.1:${port}`, grpc.credentials.createInsecure(), { 'grpc.default_compression_algorithm': 2 });
    const { value } = await unary<{ id: string; title: string }>(gzip, 'getTask', { id: 't1' }, metadata('editor'));
    gzip.close();
    expect(value).toMatchObject({ id: 't1', title: 'Write docs' });
  });

  it('a message over readMaxBytes → RESOURCE_EXHAUSTED, unary and mid-stream; the handler never sees it', async () => {
    const big = { task: { projectId: 'p1', title: 'x'.repeat(100) } };
    await expect(unary(limitedClient, 'createTask', big, metadata('editor'))).rejects.toMatchObject({
      code: grpc.status.RESOURCE_EXHAUSTED,
    });
    const result = await new Promise<grpc.ServiceError | null>((resolve) => {
      const call = (
        limitedClient as unknown as {
          importTasks(metadata: grpc.Metadata, callback: (error: grpc.ServiceError | null) => void): grpc.ClientWritableStream<object>;
        }
      ).importTasks(metadata('editor'), resolve);
      call.write({ projectId: 'p1', title: 'small' });
      call.write(big.task);
      call.end();
    });
    expect(result).toMatchObject({ code: grpc.status.RESOURCE_EXHAUSTED });
  });

  it('a deadline beyond maxTimeoutMs → INVALID_ARGUMENT; within it the call goes through', async () => {
    await expect(
      unary(limitedClient, 'getTask', { id: 't1' }, metadata('editor'), { deadline: Date.now() + 60_000 }),
    ).rejects.toMatchObject({ code: grpc.status.INVALID_ARGUMENT });
    await expect(
      unary(limitedClient, 'getTask', { id: 't1' }, metadata('editor'), { deadline: Date.now() + 5_000 }),
    ).resolves.toMatchObject({ value: { id: 't1' } });
  });

  it('close() lets a running stream go on for the grace period, then ends it with UNAVAILABLE', async () => {
    const own = usage.createServer();
    const ownPort = await own.listen(0, '127.0.0.1');
    const client = new TaskService(`127.0.0.1:${ownPort}`, grpc.credentials.createInsecure());
    const call = (
      client as unknown as { listTasks(request: object, metadata: grpc.Metadata): grpc.ClientReadableStream<{ id: string }> }
    ).listTasks({ projectId: 'endless' }, metadata('editor'));
    let received = 0;
    call.on('data', () => received++);
    const ended = new Promise<grpc.ServiceError>((resolve) => call.on('error', resolve));
    await new Promise<void>((resolve) => call.once('data', () => resolve()));
    const closed = own.close();
    const atClose = received;
    const error = await ended;
    await closed;
    client.close();
    expect(error.code).toBe(grpc.status.UNAVAILABLE);
    expect(received).toBeGreaterThan(atClose); // messages kept coming during the grace period
  });
});
