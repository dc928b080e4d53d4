/**
 * bin/mock-graphql-grpc.ts, what `codegen mock` runs for GraphQL and proto APIs: the example APIs
 * generated into a folder and transpiled to JavaScript, as the command does, then served with the
 * mock handlers. The server's conventions stay on: `@auth` fields need a credential (any one), and
 * the same seed answers the same bytes.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import * as grpc from '@grpc/grpc-js';
import { buildSchema } from 'graphql';
import { ClientError, request } from 'graphql-request';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveGraphQLMock, serveGrpcMock, type ServedMock } from '../bin/mock-graphql-grpc.js';
import { generate } from '../generators/core/pipeline/generate.js';
import { TaskService } from '../out/grpc/acme/tasks/v1/tasks_pb.js';
import { transpileFolder, writeFiles } from './support/client-generate.js';
import { ROOT } from './support/cli.js';

async function generated(
  name: string,
  api: { style: 'graphql' | 'proto'; inputs: string[]; documents?: string[]; options?: Record<string, unknown> },
) {
  const folder = join(ROOT, '.vitest-tmp', `mock-${name}`);
  const [output] = await generate([
    { name, documents: [], ...api, output: folder, emit: ['types', 'client', 'server'], options: api.options ?? {}, root: ROOT },
  ]);
  writeFiles(folder, output!.files);
  transpileFolder(folder);
  return { folder, files: output!.files.map((file) => file.path) };
}

describe('codegen mock for GraphQL: the generated server of a folder with mock resolvers', () => {
  const sdl = join(ROOT, 'schemas/graphql/tasks.graphql');
  let mock: ServedMock;

  beforeAll(async () => {
    const { folder } = await generated('graphql', { style: 'graphql', inputs: [sdl], options: { scalars: { DateTime: 'string' } } });
    mock = await serveGraphQLMock(folder, buildSchema(readFileSync(sdl, 'utf8')), { seed: 1 });
  }, 120_000);
  afterAll(() => mock?.close());

  it('answers with any credential, and keeps @auth for requests without one', async () => {
    const query = '{ task(id: "t-1") { id title internalNotes } }';
    const url = `${mock.url}/graphql`;
    const signedIn = await request<{ task: { id: string; internalNotes: string } }>(url, query, {}, { authorization: 'Bearer anything' });
    expect(signedIn.task.id).toBe('t-1');
    expect(typeof signedIn.task.internalNotes).toBe('string');
    const anonymous = await request(url, query).catch((error: unknown) => error);
    expect(anonymous).toBeInstanceOf(ClientError);
    expect((anonymous as ClientError).response.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
  });
});

describe('codegen mock for proto: the generated server of a folder with mock handlers', () => {
  let mock: ServedMock;
  let folder: string;
  let pbFiles: string[];

  beforeAll(async () => {
    const protoRoot = join(ROOT, 'schemas/proto');
    let files: string[];
    ({ folder, files } = await generated('grpc', {
      style: 'proto',
      inputs: [join(protoRoot, 'acme/tasks/v1/tasks.proto')],
      options: { includePaths: [protoRoot] },
    }));
    pbFiles = files.filter((file) => file.endsWith('_pb.ts')).map((file) => file.replace(/\.ts$/, '.js'));
    mock = await serveGrpcMock(folder, pbFiles, { seed: 1 });
  }, 120_000);
  afterAll(() => mock?.close());

  /** GetTask{id: "task-1"} over plain gRPC (grpc-js), the answer's bytes. */
  function getTask(url: string): Promise<Uint8Array> {
    const client = new grpc.Client(url.replace('http://', ''), grpc.credentials.createInsecure());
    const method = TaskService.method.getTask;
    return new Promise<Uint8Array>((resolve, reject) =>
      client.makeUnaryRequest(
        `/${TaskService.typeName}/${method.name}`,
        (init: object) => Buffer.from(toBinary(method.input, create(method.input, init))),
        (bytes: Buffer) => new Uint8Array(bytes),
        { id: 'task-1' },
        (error, bytes) => (error ? reject(error) : resolve(bytes!)),
      ),
    ).finally(() => client.close());
  }

  it('answers every service the _pb files declare, the same bytes for the same seed', async () => {
    const first = await getTask(mock.url);
    expect(fromBinary(TaskService.method.getTask.output, first).id).toBe('task-1');
    const again = await serveGrpcMock(folder, pbFiles, { seed: 1 });
    try {
      expect(await getTask(again.url)).toEqual(first);
    } finally {
      await again.close();
    }
  });
});
