/**
 * gRPC/Connect mocks (`grpcMockServices`, generators/proto/mock.ts) in the generated server of the
 * example proto, on 127.0.0.1: every method over plain gRPC with a stock @grpc/grpc-js client (raw
 * bytes, so nothing of ours decodes them), the unary and server-streaming methods over Connect with
 * the generated browser client, client and bidi streams with the generated Node client, and the
 * `google.api.http` routes over fetch; every answer must survive protobuf-es's
 * `fromBinary`/`toBinary` round trip and a strict `fromJson` of its `toJson`. Streams send and
 * answer the counts they should. Then real protos through their own generated servers: route_guide
 * (all four kinds) and helloworld, Cloud Tasks (AIP-158 list methods page with next_page_token) and
 * Datastore from ../shared/corpus/protobuf, and the kitchen-sink fixture (every field kind).
 */
import { join } from 'node:path';
import {
  create,
  createRegistry,
  equals,
  fromBinary,
  fromJson,
  toBinary,
  toJson,
  type DescMessage,
  type DescMethod,
  type DescService,
  type Registry,
} from '@bufbuild/protobuf';
import { DurationSchema } from '@bufbuild/protobuf/wkt';
import * as grpc from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from '../generators/core/pipeline/generate.js';
import { grpcMockServices, type GrpcMockOptions } from '../generators/proto/mock.js';
import { file_acme_tasks_v1_tasks, TaskService, TaskStatus } from '../out/grpc/acme/tasks/v1/tasks_pb.js';
import { createClient } from '../out/grpc/client.js';
import { createConnectClient } from '../out/grpc/client-web.js';
import { createGrpcServer } from '../out/grpc/server.js';
import { writeFiles } from './support/client-generate.js';
import { ROOT } from './support/cli.js';

const CORPUS = join(ROOT, '..', 'shared', 'corpus', 'protobuf');

interface Running {
  port: number;
  close(): Promise<void>;
}

type CreateServer = (services: never) => { listen(port: number, host?: string): Promise<number>; close(): Promise<void> };

async function serve(create: CreateServer, services: readonly DescService[], options: GrpcMockOptions): Promise<Running> {
  const server = create(grpcMockServices(services, options) as never);
  const port = await server.listen(0, '127.0.0.1');
  return { port, close: () => server.close() };
}

/** What protobuf-es makes of an answer: decoded, re-encoded and decoded equal; its JSON read back strictly, equal. */
function accepted(schema: DescMessage, bytes: Uint8Array, registry: Registry) {
  const message = fromBinary(schema, bytes);
  expect(equals(schema, fromBinary(schema, toBinary(schema, message)), message)).toBe(true);
  const json = toJson(schema, message, { registry });
  expect(equals(schema, fromJson(schema, json, { registry }), message)).toBe(true);
  return message;
}

/** Calls `method` over plain gRPC with grpc-js, raw bytes both ways; answers every response's bytes. */
async function callGrpc(client: grpc.Client, method: DescMethod, requests: Record<string, unknown>[]): Promise<Uint8Array[]> {
  const path = `/${method.parent.typeName}/${method.name}`;
  const serialize = (init: Record<string, unknown>) => Buffer.from(toBinary(method.input, create(method.input, init)));
  const deserialize = (bytes: Buffer) => new Uint8Array(bytes);
  const collect = (stream: grpc.ClientReadableStream<Uint8Array> | grpc.ClientDuplexStream<Record<string, unknown>, Uint8Array>) =>
    new Promise<Uint8Array[]>((resolve, reject) => {
      const received: Uint8Array[] = [];
      stream.on('data', (bytes: Uint8Array) => received.push(bytes));
      stream.on('error', reject);
      stream.on('end', () => resolve(received));
    });
  const unaryCallback =
    (resolve: (value: Uint8Array[]) => void, reject: (error: unknown) => void) => (error: grpc.ServiceError | null, bytes?: Uint8Array) =>
      error ? reject(error) : resolve([bytes!]);
  switch (method.methodKind) {
    case 'unary':
      return new Promise((resolve, reject) =>
        client.makeUnaryRequest(path, serialize, deserialize, requests[0]!, unaryCallback(resolve, reject)),
      );
    case 'server_streaming':
      return collect(client.makeServerStreamRequest(path, serialize, deserialize, requests[0]!));
    case 'client_streaming':
      return new Promise((resolve, reject) => {
        const call = client.makeClientStreamRequest(path, serialize, deserialize, unaryCallback(resolve, reject));
        for (const request of requests) call.write(request);
        call.end();
      });
    case 'bidi_streaming': {
      const call = client.makeBidiStreamRequest(path, serialize, deserialize);
      const received = collect(call);
      for (const request of requests) call.write(request);
      call.end();
      return received;
    }
  }
}

/** Every response of every method of `service` over grpc-js, checked by protobuf-es; the messages by method name. */
async function everyMethod(port: number, service: DescService, registry: Registry, requests = 3) {
  const client = new grpc.Client(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  const answers = new Map<string, unknown[]>();
  try {
    for (const method of service.methods) {
      const sent = Array.from(
        { length: method.methodKind === 'unary' || method.methodKind === 'server_streaming' ? 1 : requests },
        () => ({}),
      );
      const received = await callGrpc(client, method, sent);
      answers.set(
        method.name,
        received.map((bytes) => accepted(method.output, bytes, registry)),
      );
    }
  } finally {
    client.close();
  }
  return answers;
}

describe('gRPC/Connect mocks in the generated server of the example', () => {
  const registry = createRegistry(file_acme_tasks_v1_tasks, DurationSchema);
  let running: Running;

  beforeAll(async () => {
    running = await serve(createGrpcServer as unknown as CreateServer, [TaskService], { seed: 5, intervalMs: 5 });
  });
  afterAll(() => running?.close());

  it('answers every method over gRPC (grpc-js) with messages protobuf-es accepts, streams with their counts', async () => {
    const answers = await everyMethod(running.port, TaskService, registry, 4);
    expect([...answers.keys()]).toEqual([
      'GetTask',
      'CreateTask',
      'UpdateTask',
      'DeleteTask',
      'ListTasks',
      'ListProjectTasks',
      'ImportTasks',
      'SyncTasks',
    ]);
    expect(answers.get('ListTasks')).toHaveLength(3); // server stream: streamCount
    expect(answers.get('ImportTasks')).toHaveLength(1); // client stream: one answer
    expect(answers.get('SyncTasks')).toHaveLength(4); // bidi: one answer per request
    // Every kind of field of Task has a value: scalars, enum, optional, list, map, Timestamp, oneof, int64, bytes, nested list.
    const task = answers.get('GetTask')![0] as import('../out/grpc/acme/tasks/v1/tasks_pb.js').Task;
    expect(task.title).not.toBe('');
    expect(task.status).not.toBe(TaskStatus.UNSPECIFIED);
    expect(task.assigneeId).toBeDefined();
    expect(task.labels).toHaveLength(2);
    expect(Object.keys(task.attributes)).toHaveLength(2);
    expect(task.createTime?.seconds).toBeGreaterThan(0n);
    expect(task.due.case).toBeDefined();
    expect(task.estimateMinutes).toBeGreaterThan(0n);
    expect(task.attachment).toHaveLength(4);
    expect(task.comments).toHaveLength(2);
    expect(task.comments[0]!.createTime).toBeDefined();
  });

  it('echoes request fields that name a response field, and answers the same for the same seed', async () => {
    const client = new grpc.Client(`127.0.0.1:${running.port}`, grpc.credentials.createInsecure());
    const other = await serve(createGrpcServer as unknown as CreateServer, [TaskService], { seed: 6 });
    const otherClient = new grpc.Client(`127.0.0.1:${other.port}`, grpc.credentials.createInsecure());
    try {
      const getTask = TaskService.method.getTask;
      const [first] = await callGrpc(client, getTask, [{ id: 'task-9' }]);
      const [again] = await callGrpc(client, getTask, [{ id: 'task-9' }]);
      const [reseeded] = await callGrpc(otherClient, getTask, [{ id: 'task-9' }]);
      const task = accepted(getTask.output, first!, registry) as unknown as { id: string };
      expect(task.id).toBe('task-9');
      expect(again).toEqual(first);
      expect(reseeded).not.toEqual(first);
    } finally {
      client.close();
      otherClient.close();
      await other.close();
    }
  });

  it('answers unary and server-streaming methods over Connect (generated client)', async () => {
    const client = createConnectClient({ baseUrl: `http://127.0.0.1:${running.port}`, timeout: 10_000 });
    const service = client.taskService;
    const unary = [
      [TaskService.method.getTask.output, await service.getTask({ id: 'a' })],
      [TaskService.method.createTask.output, await service.createTask({ task: { title: 'x' } })],
      [TaskService.method.updateTask.output, await service.updateTask({ task: { id: 'a' } })],
      [TaskService.method.deleteTask.output, await service.deleteTask({ id: 'a' })],
    ] as const;
    for (const [schema, message] of unary) accepted(schema, toBinary(schema, message as never), registry);
    const streamed = [];
    for await (const task of service.listTasks({ projectId: 'p' }))
      streamed.push(accepted(TaskService.method.listTasks.output, toBinary(TaskService.method.listTasks.output, task), registry));
    expect(streamed).toHaveLength(3);
  });

  it('answers client and bidi streams through the generated Node client (gRPC over HTTP/2)', async () => {
    const client = createClient({ baseUrl: `http://127.0.0.1:${running.port}`, timeout: 10_000 });
    try {
      async function* tasks() {
        for (const title of ['a', 'b', 'c']) yield { title };
      }
      const imported = await client.taskService.importTasks(tasks());
      accepted(TaskService.method.importTasks.output, toBinary(TaskService.method.importTasks.output, imported), registry);
      async function* events() {
        for (const id of ['1', '2']) yield { task: { id } };
      }
      const answers = [];
      for await (const event of client.taskService.syncTasks(events()))
        answers.push(accepted(TaskService.method.syncTasks.output, toBinary(TaskService.method.syncTasks.output, event), registry));
      expect(answers).toHaveLength(2);
    } finally {
      client.close();
    }
  });

  it('answers the google.api.http routes too (REST transcoding of the same handlers)', async () => {
    const response = await fetch(`http://127.0.0.1:${running.port}/v1/tasks/task-3`);
    expect(response.status).toBe(200);
    const schema = TaskService.method.getTask.output;
    const task = fromJson(schema, await response.json(), { registry }) as unknown as { id: string; title: string };
    expect(task.id).toBe('task-3');
    expect(task.title).not.toBe('');
  });
});

describe('gRPC mocks for protos of ../shared/corpus/protobuf', () => {
  const sets = [
    { name: 'grpc-examples', include: join(CORPUS, 'grpc-examples'), inputs: ['route_guide.proto', 'helloworld.proto'] },
    {
      name: 'googleapis-visible',
      include: join(CORPUS, 'googleapis-visible'),
      inputs: ['google/cloud/tasks/v2/cloudtasks.proto', 'google/datastore/v1/datastore.proto'],
    },
    // Every field kind in one proto: maps keyed by int64 and bool, Any in a map, Struct, Value,
    // wrappers, float and double, the fixed and 64-bit integers, proto3 optional, oneofs.
    { name: 'kitchen-sink', include: join(ROOT, 'test/fixtures/proto/good'), inputs: ['tasks.proto'] },
  ];
  const generated = new Map<string, { services: DescService[]; createGrpcServer: CreateServer; registry: Registry }>();

  beforeAll(async () => {
    for (const set of sets) {
      const folder = join(ROOT, '.vitest-tmp', `grpc-mock-${set.name}`);
      const [output] = await generate([
        {
          name: set.name,
          inputs: set.inputs.map((input) => join(set.include, input)),
          documents: [],
          style: 'proto',
          output: folder,
          emit: ['types', 'server'],
          options: { includePaths: [set.include] },
          root: set.include,
        },
      ]);
      writeFiles(folder, output!.files);
      const services: DescService[] = [];
      const files = [];
      for (const input of set.inputs) {
        const module = (await import(join(folder, input.replace(/\.proto$/, '_pb.ts')))) as Record<string, unknown>;
        for (const value of Object.values(module)) {
          if (isDescService(value)) services.push(value);
          if (isDescFile(value)) files.push(value);
        }
      }
      const { createGrpcServer: create } = (await import(join(folder, 'server.ts'))) as { createGrpcServer: CreateServer };
      generated.set(set.name, { services, createGrpcServer: create, registry: createRegistry(...files, DurationSchema) });
    }
  }, 120_000);

  it('route_guide and helloworld: every method over gRPC, all four streaming kinds', async () => {
    const { services, createGrpcServer: create, registry } = generated.get('grpc-examples')!;
    expect(services.map((service) => service.typeName).sort()).toEqual(['helloworld.Greeter', 'routeguide.RouteGuide']);
    const running = await serve(create, services, { seed: 2, intervalMs: 1, streamCount: 4 });
    try {
      for (const service of services) {
        const answers = await everyMethod(running.port, service, registry, 3);
        for (const method of service.methods) {
          const expected = { unary: 1, server_streaming: 4, client_streaming: 1, bidi_streaming: 3 }[method.methodKind];
          expect(answers.get(method.name), method.name).toHaveLength(expected);
        }
      }
    } finally {
      await running.close();
    }
  });

  it('a kitchen-sink proto: every field kind answered, accepted by protobuf-es', async () => {
    const { services, createGrpcServer: create, registry } = generated.get('kitchen-sink')!;
    const running = await serve(create, services, { seed: 9, intervalMs: 1 });
    try {
      for (const service of services) {
        const answers = await everyMethod(running.port, service, registry);
        expect(answers.size).toBe(service.methods.length);
      }
      const task = (await everyMethod(running.port, services[0]!, registry)).get('GetTask')![0] as Record<string, unknown>;
      for (const field of [
        'labels',
        'notesById',
        'statusByCode',
        'anything',
        'metadata',
        'extra',
        'nickname',
        'blob',
        'ratio',
        'weight',
        'f64',
        'u64',
      ])
        expect(task[field], field).toBeTruthy();
    } finally {
      await running.close();
    }
  });

  it('Cloud Tasks and Datastore: every unary method over gRPC; AIP-158 list methods page with next_page_token', async () => {
    const { services, createGrpcServer: create, registry } = generated.get('googleapis-visible')!;
    const cloudTasks = services.find((service) => service.typeName === 'google.cloud.tasks.v2.CloudTasks');
    const datastore = services.find((service) => service.typeName === 'google.datastore.v1.Datastore');
    const running = await serve(create, services, { seed: 4 });
    const client = new grpc.Client(`127.0.0.1:${running.port}`, grpc.credentials.createInsecure());
    try {
      expect((await everyMethod(running.port, cloudTasks!, registry)).size).toBe(cloudTasks!.methods.length);
      // Datastore's answers hold google.protobuf.Struct in lists (query profiles) and its own Value type.
      expect((await everyMethod(running.port, datastore!, registry)).size).toBe(datastore!.methods.length);
      const listQueues = cloudTasks!.methods.find((method) => method.name === 'ListQueues')!;
      const names: string[] = [];
      let token = '';
      let pages = 0;
      do {
        const [bytes] = await callGrpc(client, listQueues, [{ parent: 'projects/p/locations/l', pageSize: 2, pageToken: token }]);
        const page = accepted(listQueues.output, bytes!, registry) as unknown as { queues: { name: string }[]; nextPageToken: string };
        names.push(...page.queues.map((queue) => queue.name));
        token = page.nextPageToken;
        pages++;
      } while (token !== '' && pages < 10);
      expect(pages).toBe(3);
      expect(names).toHaveLength(5);
      await expect(callGrpc(client, listQueues, [{ parent: 'p', pageToken: 'nope' }])).rejects.toMatchObject({
        code: grpc.status.INVALID_ARGUMENT,
      });
    } finally {
      client.close();
      await running.close();
    }
  });
});

function isDescService(value: unknown): value is DescService {
  return typeof value === 'object' && value !== null && (value as DescService).kind === 'service';
}

function isDescFile(value: unknown): value is Parameters<typeof createRegistry>[0] & { kind: 'file' } {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'file';
}
