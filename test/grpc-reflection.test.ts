/**
 * gRPC server reflection (`grpc.reflection.v1` and `v1alpha`) of the generated server.
 * - The gRPC example (`node dist/examples/grpc/main.js`, as `npm run example:grpc` starts it) asked
 *   by a third-party client, npm's `grpc-js-reflection-client` over @grpc/grpc-js, without
 *   credentials: it lists the services, fetches their file descriptors, and a grpc-js client built
 *   from nothing but those descriptors calls TaskService; both protocol versions.
 * - The protocol itself over one raw grpc-js stream: file_by_filename, file_containing_symbol
 *   (services, methods, messages, fields, enum values), file_containing_extension,
 *   all_extension_numbers_of_type and their NOT_FOUND answers, imports sent once per stream,
 *   descriptors equal to what the loader (= protoc) gives.
 * - Off under NODE_ENV=production (UNIMPLEMENTED), the `reflection` option overriding both ways, and
 *   `reflection: "authenticated"` behind the auth hooks.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { fromBinary, toJson } from '@bufbuild/protobuf';
import { embedFileDesc } from '@bufbuild/protobuf/codegenv2';
import { FileDescriptorProtoSchema, type FileDescriptorProto } from '@bufbuild/protobuf/wkt';
import { GrpcReflection } from 'grpc-js-reflection-client';
import { generate } from '../generators/core/pipeline/generate.js';
import { loadProto } from '../generators/proto/load.js';
import { ROOT } from './support/cli.js';
import { transpileFolder, writeFiles } from './support/client-generate.js';
import { startExample, type RunningExample } from './support/e2e-example.js';
import { generateGrpc, load, PROTO_ROOT, TASKS_PROTO } from './support/grpc-setup.js';

const EXAMPLE_MAIN = join(ROOT, 'dist', 'examples', 'grpc', 'main.js');
const REFLECTION_ROOT = join(ROOT, 'test', 'fixtures', 'proto', 'good', 'reflection');
const SERVICES = [
  'acme.tasks.v1.TaskService',
  'grpc.health.v1.Health',
  'grpc.reflection.v1.ServerReflection',
  'grpc.reflection.v1alpha.ServerReflection',
];

interface Server {
  listen(port: number, host?: string): Promise<number>;
  close(): Promise<void>;
}

let example: RunningExample;
let target: string;

beforeAll(async () => {
  example = await startExample({}, EXAMPLE_MAIN);
  target = `127.0.0.1:${example.port}`;
});

afterAll(async () => {
  const { code } = await example.stop();
  expect(code).toBe(0);
});

function bearer(token: string): grpc.Metadata {
  const metadata = new grpc.Metadata();
  metadata.set('authorization', `Bearer ${token}`);
  return metadata;
}

type UnaryMethod = (
  request: object,
  metadata: grpc.Metadata,
  callback: (error: grpc.ServiceError | null, value: Record<string, unknown>) => void,
) => void;

function call(client: grpc.Client, method: string, request: object, metadata: grpc.Metadata): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    (client as unknown as Record<string, UnaryMethod>)[method]!.call(client, request, metadata, (error, value) =>
      error ? reject(error) : resolve(value),
    );
  });
}

describe.each(['v1', 'v1alpha'])('grpc-js-reflection-client (%s) against the gRPC example', (version) => {
  it('lists the services, reflection and health included, without credentials', async () => {
    const reflection = new GrpcReflection(target, grpc.credentials.createInsecure(), {}, version);
    expect(await reflection.listServices()).toEqual(SERVICES);
    const methods = await reflection.listMethods('acme.tasks.v1.TaskService');
    expect(methods.map((method) => method.name)).toEqual([
      'GetTask',
      'CreateTask',
      'UpdateTask',
      'DeleteTask',
      'ListTasks',
      'ListProjectTasks',
      'ImportTasks',
      'SyncTasks',
    ]);
  });

  it('fetches the descriptors, and a client built from them alone calls TaskService', async () => {
    const reflection = new GrpcReflection(target, grpc.credentials.createInsecure(), {}, version);
    const descriptor = await reflection.getDescriptorBySymbol('acme.tasks.v1.TaskService');
    // The well-known imports came along with tasks.proto.
    const root = descriptor.getProtobufJsRoot();
    for (const type of ['google.protobuf.Timestamp', 'google.protobuf.Duration', 'google.protobuf.FieldMask', 'google.protobuf.Empty'])
      expect(root.lookupType(type).fullName).toBe(`.${type}`);
    const loaded = descriptor.getPackageObject({ keepCase: true, longs: String, enums: String, defaults: true }) as unknown as {
      acme: { tasks: { v1: { TaskService: grpc.ServiceClientConstructor } } };
    };
    const client = new loaded.acme.tasks.v1.TaskService(target, grpc.credentials.createInsecure());
    try {
      const created = await call(
        client,
        'CreateTask',
        { task: { project_id: `p-${version}`, title: `via ${version} reflection`, estimate_minutes: '30' } },
        bearer('demo-token'),
      );
      expect(created).toMatchObject({
        project_id: `p-${version}`,
        title: `via ${version} reflection`,
        estimate_minutes: '30',
        status: 'TASK_STATUS_TODO',
      });
      const read = await call(client, 'GetTask', { id: created['id'] }, bearer('reader-token'));
      expect(read).toMatchObject({ id: created['id'], title: `via ${version} reflection` });
      // Reflection needs no credentials, the services still do.
      await expect(call(client, 'GetTask', { id: created['id'] }, new grpc.Metadata())).rejects.toMatchObject({
        code: grpc.status.UNAUTHENTICATED,
      });
    } finally {
      client.close();
    }
  });

  it('fetches a file by name with its imports', async () => {
    const reflection = new GrpcReflection(target, grpc.credentials.createInsecure(), {}, version);
    const descriptor = await reflection.getDescriptorByFileName('acme/tasks/v1/tasks.proto');
    const root = descriptor.getProtobufJsRoot();
    expect(root.lookupType('acme.tasks.v1.Task').fields['createTime']?.resolve().resolvedType?.fullName).toBe('.google.protobuf.Timestamp');
    await expect(reflection.getDescriptorByFileName('acme/tasks/v1/missing.proto')).rejects.toThrow(
      'file "acme/tasks/v1/missing.proto" not found',
    );
  });
});

/** A raw `ServerReflectionInfo` stream of grpc-js, from the official reflection.proto. */
function reflectionStream(address: string, version: 'v1' | 'v1alpha' = 'v1') {
  const definition = protoLoader.loadSync(`grpc/reflection/${version}/reflection.proto`, {
    includeDirs: [REFLECTION_ROOT],
    oneofs: true,
    arrays: true,
  });
  const loaded = grpc.loadPackageDefinition(definition) as unknown as {
    grpc: { reflection: Record<string, { ServerReflection: grpc.ServiceClientConstructor }> };
  };
  const client = new loaded.grpc.reflection[version]!.ServerReflection(address, grpc.credentials.createInsecure());
  const stream = (client as unknown as { ServerReflectionInfo(): grpc.ClientDuplexStream<object, Response> }).ServerReflectionInfo();
  const answers: Response[] = [];
  const waiting: ((answer: Response) => void)[] = [];
  stream.on('data', (answer: Response) => {
    const next = waiting.shift();
    if (next) next(answer);
    else answers.push(answer);
  });
  const ended = new Promise<grpc.StatusObject>((resolve) => stream.on('status', resolve));
  stream.on('error', () => {}); // the status carries it
  return {
    ask(request: object): Promise<Response> {
      stream.write(request);
      const ready = answers.shift();
      return ready ? Promise.resolve(ready) : new Promise((resolve) => waiting.push(resolve));
    },
    async end(): Promise<grpc.StatusObject> {
      stream.end();
      const status = await ended;
      client.close();
      return status;
    },
  };
}

interface Response {
  validHost: string;
  originalRequest: Record<string, unknown>;
  messageResponse: string;
  fileDescriptorResponse?: { fileDescriptorProto: Buffer[] };
  allExtensionNumbersResponse?: { baseTypeName: string; extensionNumber: number[] };
  listServicesResponse?: { service: { name: string }[] };
  errorResponse?: { errorCode: number; errorMessage: string };
}

function names(answer: Response): string[] {
  return (answer.fileDescriptorResponse?.fileDescriptorProto ?? []).map((bytes) => fromBinary(FileDescriptorProtoSchema, bytes).name);
}

describe('the reflection protocol', () => {
  it('answers each kind of request on one stream, imports sent once per stream', async () => {
    const stream = reflectionStream(target);
    const first = await stream.ask({ host: 'example', fileContainingSymbol: 'acme.tasks.v1.TaskService' });
    expect(first.validHost).toBe('example');
    expect(first.originalRequest).toMatchObject({ host: 'example', fileContainingSymbol: 'acme.tasks.v1.TaskService' });
    // The requested file first, then its imports breadth first in import order, as grpc-go sends them.
    expect(names(first)).toEqual([
      'acme/tasks/v1/tasks.proto',
      'google/api/annotations.proto',
      'google/protobuf/duration.proto',
      'google/protobuf/empty.proto',
      'google/protobuf/field_mask.proto',
      'google/protobuf/timestamp.proto',
      'google/api/http.proto',
      'google/protobuf/descriptor.proto',
    ]);
    // Any symbol a tool may ask for: methods, nested enum values (scoped as protobuf scopes them), fields.
    for (const symbol of [
      'acme.tasks.v1.TaskService.GetTask',
      'acme.tasks.v1.Task',
      '.acme.tasks.v1.Task.title',
      'acme.tasks.v1.TASK_STATUS_DONE',
      'acme.tasks.v1.ImportTasksResponse',
    ]) {
      // Already sent on this stream: only the file itself comes again.
      expect(names(await stream.ask({ fileContainingSymbol: symbol })), symbol).toEqual(['acme/tasks/v1/tasks.proto']);
    }
    expect(names(await stream.ask({ fileContainingSymbol: 'google.protobuf.Timestamp' }))).toEqual(['google/protobuf/timestamp.proto']);
    expect(names(await stream.ask({ fileByFilename: 'grpc/health/v1/health.proto' }))).toEqual(['grpc/health/v1/health.proto']);
    expect(names(await stream.ask({ fileContainingSymbol: 'grpc.reflection.v1alpha.ServerReflection' }))).toEqual([
      'grpc/reflection/v1alpha/reflection.proto',
    ]);
    expect((await stream.ask({ listServices: '' })).listServicesResponse?.service.map((service) => service.name)).toEqual(SERVICES);
    expect((await stream.ask({ allExtensionNumbersOfType: 'acme.tasks.v1.Task' })).allExtensionNumbersResponse).toEqual({
      baseTypeName: 'acme.tasks.v1.Task',
      extensionNumber: [],
    });
    for (const [request, message] of [
      [{ fileByFilename: 'tasks.proto' }, 'file "tasks.proto" not found'],
      [{ fileContainingSymbol: 'acme.tasks.v1.Nope' }, 'symbol "acme.tasks.v1.Nope" not found'],
      [{ fileContainingSymbol: 'acme.tasks' }, 'symbol "acme.tasks" not found'],
      [
        { fileContainingExtension: { containingType: 'acme.tasks.v1.Task', extensionNumber: 100 } },
        'extension 100 of "acme.tasks.v1.Task" not found',
      ],
      [{ allExtensionNumbersOfType: 'acme.tasks.v1.Nope' }, 'message type "acme.tasks.v1.Nope" not found'],
    ] as const) {
      // NOT_FOUND in the answer; the stream goes on.
      expect((await stream.ask(request)).errorResponse, JSON.stringify(request)).toEqual({
        errorCode: grpc.status.NOT_FOUND,
        errorMessage: message,
      });
    }
    expect(await stream.ask({ listServices: '*' })).toMatchObject({ messageResponse: 'listServicesResponse' });
    expect((await stream.end()).code).toBe(grpc.status.OK);
  });

  it('ends the stream with INVALID_ARGUMENT for a request that asks nothing, as grpc-go', async () => {
    const stream = reflectionStream(target, 'v1alpha');
    stream.ask({ host: 'x' }).catch(() => {});
    const status = await stream.end();
    expect(status.code).toBe(grpc.status.INVALID_ARGUMENT);
  });

  it('serves the descriptors protoc gives (no source info), json_name included', async () => {
    const stream = reflectionStream(target);
    const answer = await stream.ask({ fileByFilename: 'acme/tasks/v1/tasks.proto' });
    await stream.end();
    const served = fromBinary(FileDescriptorProtoSchema, answer.fileDescriptorResponse!.fileDescriptorProto[0]!);
    const loaded = loadProto([TASKS_PROTO], { includePaths: [PROTO_ROOT], sourceInfo: false }).set.file.find(
      (file) => file.name === 'acme/tasks/v1/tasks.proto',
    )!;
    expect(toJson(FileDescriptorProtoSchema, served)).toEqual(toJson(FileDescriptorProtoSchema, loaded));
  });
});

describe('the embedded reflection protos', () => {
  it('are grpc-proto reflection.proto (v1 and v1alpha) as our loader and protoc-gen-es embed them', () => {
    const module = readFileSync(join(ROOT, 'runtime', 'grpc-reflection.ts'), 'utf8');
    for (const version of ['v1', 'v1alpha']) {
      const { set } = loadProto([join(REFLECTION_ROOT, `grpc/reflection/${version}/reflection.proto`)], {
        includePaths: [REFLECTION_ROOT],
        sourceInfo: false,
      });
      const file = set.file.at(-1) as FileDescriptorProto;
      expect(file.name).toBe(`grpc/reflection/${version}/reflection.proto`);
      expect(module).toContain(`"${embedFileDesc(file).base64()}"`);
    }
  });
});

describe('on and off', () => {
  let folder: string;

  beforeAll(async () => {
    ({ folder } = await generateGrpc('grpc-reflection'));
  });

  /** The services reflection lists, or the client's error message. */
  async function servicesOf(options: object, env?: string, metadata = new grpc.Metadata()): Promise<string[] | string> {
    const saved = process.env['NODE_ENV'];
    if (env !== undefined) process.env['NODE_ENV'] = env;
    let server: Server;
    try {
      server = (await load<{ createServer(options: object): Server }>(folder, 'usage.js')).createServer(options);
    } finally {
      process.env['NODE_ENV'] = saved;
    }
    const port = await server.listen(0, '127.0.0.1');
    try {
      return await new GrpcReflection(`127.0.0.1:${port}`, grpc.credentials.createInsecure(), {}, 'v1').listServices('*', metadata);
    } catch (error) {
      return (error as Error).message;
    } finally {
      await server.close();
    }
  }

  it('is off under NODE_ENV=production: UNIMPLEMENTED', async () => {
    // Connect answers an unknown method with HTTP 404, which gRPC clients read as UNIMPLEMENTED.
    expect(await servicesOf({}, 'production')).toMatch(/^Error: 12 UNIMPLEMENTED/);
  });

  it('`reflection: true` turns it on in production, `reflection: false` off elsewhere', async () => {
    expect(await servicesOf({ reflection: true }, 'production')).toEqual(SERVICES);
    expect(await servicesOf({ reflection: false }, 'development')).toMatch(/^Error: 12 UNIMPLEMENTED/);
    expect(await servicesOf({ health: false }, 'development')).toEqual(SERVICES.filter((name) => name !== 'grpc.health.v1.Health'));
  });

  it('`reflection: "authenticated"` puts it behind authenticate and authorize, as a generated service', async () => {
    expect(await servicesOf({ reflection: 'authenticated' }, 'production')).toMatch(/^Error: 16 UNAUTHENTICATED/);
    // The test server (grpc-usage.ts: tokens `editor`, `reader`) lets readers call GetTask and ListTasks only.
    expect(await servicesOf({ reflection: 'authenticated' }, 'production', bearer('reader'))).toMatch(
      /^Error: 7 PERMISSION_DENIED: not allowed to call ServerReflectionInfo/,
    );
    expect(await servicesOf({ reflection: 'authenticated' }, 'development', bearer('editor'))).toEqual(SERVICES);
  });

  it.each(['connect', 'grpc-web'] as const)("answers over the %s protocol on HTTP/2 too (Connect's side of the port)", async (protocol) => {
    const { createClient } = await import('@connectrpc/connect');
    const { createConnectTransport, createGrpcWebTransport } = await import('@connectrpc/connect-node');
    const { ServerReflectionV1 } = await load<typeof import('../out/grpc/runtime/grpc-reflection.js')>(
      folder,
      'out/runtime/grpc-reflection.js',
    );
    const server = (await load<{ createServer(options: object): Server }>(folder, 'usage.js')).createServer({});
    const port = await server.listen(0, '127.0.0.1');
    try {
      const transport = (protocol === 'connect' ? createConnectTransport : createGrpcWebTransport)({
        baseUrl: `http://127.0.0.1:${port}`,
        httpVersion: '2',
      });
      const client = createClient(ServerReflectionV1, transport);
      const answers = [];
      async function* requests() {
        yield { messageRequest: { case: 'listServices', value: '' } } as const;
        yield { messageRequest: { case: 'fileContainingSymbol', value: 'acme.tasks.v1.Task' } } as const;
      }
      for await (const answer of client.serverReflectionInfo(requests())) answers.push(answer);
      expect(
        answers[0]?.messageResponse.case === 'listServicesResponse' &&
          answers[0].messageResponse.value.service.map((service) => service.name),
      ).toEqual(SERVICES);
      expect(
        answers[1]?.messageResponse.case === 'fileDescriptorResponse' && answers[1].messageResponse.value.fileDescriptorProto.length,
      ).toBe(8); // tasks.proto and its imports, google/api's included
    } finally {
      await server.close();
    }
  });

  it('the example answers UNIMPLEMENTED when started with NODE_ENV=production', async () => {
    const production = await startExample({ NODE_ENV: 'production' }, EXAMPLE_MAIN);
    try {
      await expect(
        new GrpcReflection(`127.0.0.1:${production.port}`, grpc.credentials.createInsecure(), {}, 'v1alpha').listServices(),
      ).rejects.toThrow(/^Error: 12 UNIMPLEMENTED/);
    } finally {
      expect((await production.stop()).code).toBe(0);
    }
  });
});

describe('extensions', () => {
  let server: Server;
  let address: string;

  beforeAll(async () => {
    // A service whose file extends descriptor.proto's options, generated and served for real.
    const folder = join(ROOT, '.vitest-tmp', 'grpc-reflection-extensions');
    const [{ files }] = await generate([
      {
        name: 'audit',
        inputs: [join(REFLECTION_ROOT, 'acme/audit/v1/audit.proto')],
        documents: [],
        style: 'proto',
        output: join(folder, 'out'),
        emit: ['types', 'server'],
        options: { includePaths: [REFLECTION_ROOT] },
        root: REFLECTION_ROOT,
      },
    ]);
    writeFiles(join(folder, 'out'), files);
    writeFileSync(
      join(folder, 'main.ts'),
      'import { createGrpcServer } from "./out/server.js";\nexport const server = createGrpcServer({ AuditService: { check: async () => ({}) } }, { reflection: true });\n',
    );
    transpileFolder(folder);
    ({ server } = await load<{ server: Server }>(folder, 'main.js'));
    address = `127.0.0.1:${await server.listen(0, '127.0.0.1')}`;
  });

  afterAll(() => server.close());

  it('finds the file of an extension by extendee and number, and every number of an extendee', async () => {
    const stream = reflectionStream(address);
    const audit = ['acme/audit/v1/audit.proto', 'google/protobuf/descriptor.proto', 'google/protobuf/empty.proto'];
    expect(
      names(await stream.ask({ fileContainingExtension: { containingType: 'google.protobuf.MethodOptions', extensionNumber: 50001 } })),
    ).toEqual(audit);
    // Nested in a message, and by symbol; imports already sent on this stream stay out.
    expect(
      names(await stream.ask({ fileContainingExtension: { containingType: 'google.protobuf.MethodOptions', extensionNumber: 50010 } })),
    ).toEqual(audit.slice(0, 1));
    expect(names(await stream.ask({ fileContainingSymbol: 'acme.audit.v1.Ping.sample_percent' }))).toEqual(audit.slice(0, 1));
    expect(names(await stream.ask({ fileContainingSymbol: 'acme.audit.v1.audit_level' }))).toEqual(audit.slice(0, 1));
    expect((await stream.ask({ allExtensionNumbersOfType: 'google.protobuf.MethodOptions' })).allExtensionNumbersResponse).toEqual({
      baseTypeName: 'google.protobuf.MethodOptions',
      extensionNumber: [50001, 50003, 50010],
    });
    expect(
      (await stream.ask({ allExtensionNumbersOfType: 'google.protobuf.ServiceOptions' })).allExtensionNumbersResponse?.extensionNumber,
    ).toEqual([50002]);
    expect(
      (await stream.ask({ fileContainingExtension: { containingType: 'google.protobuf.MethodOptions', extensionNumber: 50002 } }))
        .errorResponse?.errorCode,
    ).toBe(grpc.status.NOT_FOUND);
    expect((await stream.end()).code).toBe(grpc.status.OK);
  });

  it('serves the options as set, so a client reads them from the descriptor', async () => {
    const stream = reflectionStream(address, 'v1alpha');
    const answer = await stream.ask({ fileContainingSymbol: 'acme.audit.v1.AuditService.Check' });
    await stream.end();
    const served = fromBinary(FileDescriptorProtoSchema, answer.fileDescriptorResponse!.fileDescriptorProto[0]!);
    const loaded = loadProto([join(REFLECTION_ROOT, 'acme/audit/v1/audit.proto')], {
      includePaths: [REFLECTION_ROOT],
      sourceInfo: false,
    }).set.file.at(-1)!;
    expect(toJson(FileDescriptorProtoSchema, served)).toEqual(toJson(FileDescriptorProtoSchema, loaded));
    expect(served.service[0]?.method[0]?.options?.$unknown?.length).toBe(1); // (audit_level), as bytes a client decodes with the extension
  });
});
