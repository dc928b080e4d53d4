/**
 * The generated gRPC server beyond interop: it type-checks (with handler code written against it)
 * under both compilers, one port tells HTTP/2 from HTTP/1.1, CORS, the handler scaffold (written
 * once, then only added to), hostile comments, and shutdown.
 */
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { connect as http2Connect, constants } from 'node:http2';
import { connect as netConnect } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transpileFolder } from './support/client-generate.js';
import { ROOT } from './support/cli.js';
import { generateGrpc, load, PROTO_ROOT } from './support/grpc-setup.js';
import { COMPILERS, typecheck } from './support/typecheck.js';

interface Server {
  listen(port: number, host?: string): Promise<number>;
  close(): Promise<void>;
}
interface Usage {
  createServer(options?: object): Server;
}

let folder: string;
let files: Map<string, string>;

beforeAll(async () => {
  ({ folder, files } = await generateGrpc('grpc-server'));
});

describe('generated code', () => {
  it.each(Object.entries(COMPILERS))('type-checks under strict with the handlers written against it (%s)', (_name, compiler) => {
    const node = typecheck(folder, compiler, 'node+dom', ['out/**/*.ts', 'usage.ts', 'handlers.ts']);
    expect(node.output).toBe('');
    // The browser client compiles without @types/node: it pulls in nothing of Node.
    writeFileSync(join(folder, 'browser-usage.ts'), BROWSER_USAGE);
    const browser = typecheck(folder, compiler, 'browser', ['browser-usage.ts']);
    expect(browser.output).toBe('');
  });

  it('is deterministic', async () => {
    const again = await generateGrpc('grpc-server-again', { usage: false });
    expect([...again.files.entries()]).toEqual([...files.entries()]);
  });

  it('names every file it needs, and nothing else, for the services', () => {
    expect([...files.keys()].filter((path) => !/_(pb|codec|json)\.ts$/.test(path)).sort()).toEqual([
      'client-rest.ts',
      'client-web.ts',
      'client.ts',
      'http-rules.ts',
      'pubsub.ts',
      'runtime/client-common.ts',
      'runtime/cors-policy.ts',
      'runtime/grpc-admission.ts',
      'runtime/grpc-call.ts',
      'runtime/grpc-client.ts',
      'runtime/grpc-health.ts',
      'runtime/grpc-http2.ts',
      'runtime/grpc-limits.ts',
      'runtime/grpc-node-client.ts',
      'runtime/grpc-pubsub.ts',
      'runtime/grpc-reflection.ts',
      'runtime/grpc-rest-client.ts',
      'runtime/grpc-server.ts',
      'runtime/grpc-transcoding-fields.ts',
      'runtime/grpc-transcoding-path.ts',
      'runtime/grpc-transcoding.ts',
      'runtime/grpc-web-client.ts',
      'runtime/http-listener.ts',
      'runtime/proto-codec.ts',
      'runtime/proto-json.ts',
      'runtime/proto-reader.ts',
      'runtime/proto-writer.ts',
      'runtime/pubsub.ts',
      'runtime/topic.ts',
      'server.ts',
    ]);
  });

  it('the browser client offers unary and server streaming only', () => {
    const web = files.get('client-web.ts')!;
    expect(web).toMatch(/listTasks\(request/);
    expect(web).not.toMatch(/importTasks|syncTasks/);
    expect(files.get('client.ts')).toMatch(/syncTasks\(requests: AsyncIterable/);
  });

  it("the health descriptor embedded in the runtime is grpc-proto's health.proto", async () => {
    const { loadProto } = await import('../generators/proto/load.js');
    const { toBinary, clone } = await import('@bufbuild/protobuf');
    const { FileDescriptorProtoSchema } = await import('@bufbuild/protobuf/wkt');
    const corpus = join(ROOT, '..', 'shared', 'corpus', 'protobuf', 'grpc-proto');
    const loaded = loadProto([join(corpus, 'grpc/health/v1/health.proto')], { includePaths: [corpus], sourceInfo: false });
    const expected = clone(FileDescriptorProtoSchema, loaded.set.file.at(-1)!);
    const embedded = /fileDesc\(\s*"([^"]+)"/.exec(files.get('runtime/grpc-health.ts')!)![1];
    expect(embedded).toBe(Buffer.from(toBinary(FileDescriptorProtoSchema, expected)).toString('base64'));
  });
});

describe('one port for HTTP/2 and HTTP/1.1', () => {
  let server: Server;
  let port: number;

  beforeAll(async () => {
    const usage = await load<Usage>(folder, 'usage.js');
    server = usage.createServer({ cors: { origins: ['http://app.example'], exposeHeaders: ['x-trace-id'] } });
    port = await server.listen(0, '127.0.0.1');
  });
  afterAll(() => server?.close());

  it('answers HTTP/2 (prior knowledge) and HTTP/1.1 on the same port', async () => {
    const session = http2Connect(`http://127.0.0.1:${port}`);
    const status = await new Promise<number>((resolve, reject) => {
      const stream = session.request({
        [constants.HTTP2_HEADER_METHOD]: 'POST',
        [constants.HTTP2_HEADER_PATH]: '/acme.tasks.v1.TaskService/GetTask',
        'content-type': 'application/json',
        authorization: 'Bearer editor',
      });
      stream.on('response', (headers) => resolve(Number(headers[constants.HTTP2_HEADER_STATUS])));
      stream.on('error', reject);
      stream.end('{"id":"t1"}');
    });
    session.close();
    expect(status).toBe(200);
    const response = await fetch(`http://127.0.0.1:${port}/acme.tasks.v1.TaskService/GetTask`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer editor' },
      body: '{"id":"t1"}',
    });
    expect(response.status).toBe(200);
  });

  it('waits for enough bytes when the first packet is a prefix of the HTTP/2 preface', async () => {
    const reply = await rawExchange(port, [
      'P',
      'OST /acme.tasks.v1.TaskService/GetTask HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nAuthorization: Bearer editor\r\nContent-Length: 11\r\nConnection: close\r\n\r\n{"id":"t1"}',
    ]);
    expect(reply).toMatch(/^HTTP\/1\.1 200/);
    expect(reply).toContain('"title":"Write docs"');
  });

  it('survives garbage: a bad HTTP/1.1 request gets 400, a broken preface is dropped, the server still answers', async () => {
    expect(await rawExchange(port, ['\x00\x01garbage\r\n\r\n'])).toMatch(/^HTTP\/1\.1 400/);
    await rawExchange(port, ['PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n\xff\xff\xff\xff\xff\xff\xff\xff\xff']);
    const response = await fetch(`http://127.0.0.1:${port}/grpc.health.v1.Health/Check`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(await response.json()).toEqual({ status: 'SERVING' });
  });

  it('CORS: an allowed origin gets a preflight answer and readable gRPC-Web/Connect headers', async () => {
    const preflight = await fetch(`http://127.0.0.1:${port}/acme.tasks.v1.TaskService/GetTask`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://app.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers':
          'authorization,content-type,x-grpc-web,x-user-agent,connect-protocol-version,grpc-timeout,x-unknown',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('http://app.example');
    expect(preflight.headers.get('access-control-allow-methods')).toContain('POST');
    // The requested headers the protocols use, and only those.
    expect(preflight.headers.get('access-control-allow-headers')).toBe(
      'authorization, content-type, x-grpc-web, x-user-agent, connect-protocol-version, grpc-timeout',
    );

    const call = await fetch(`http://127.0.0.1:${port}/acme.tasks.v1.TaskService/GetTask`, {
      method: 'POST',
      headers: { origin: 'http://app.example', 'content-type': 'application/json', authorization: 'Bearer editor' },
      body: '{"id":"t1"}',
    });
    expect(call.headers.get('access-control-allow-origin')).toBe('http://app.example');
    const exposed = call.headers.get('access-control-expose-headers')!.toLowerCase();
    for (const header of ['grpc-status', 'grpc-message', 'x-trace-id']) expect(exposed).toContain(header);
    expect(call.headers.get('vary')).toContain('Origin');
  });

  it('CORS: another origin gets 403 on preflight and no CORS headers on a request', async () => {
    const preflight = await fetch(`http://127.0.0.1:${port}/acme.tasks.v1.TaskService/GetTask`, {
      method: 'OPTIONS',
      headers: { origin: 'http://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(403);
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    const call = await fetch(`http://127.0.0.1:${port}/acme.tasks.v1.TaskService/GetTask`, {
      method: 'POST',
      headers: { origin: 'http://evil.example', 'content-type': 'application/json', authorization: 'Bearer editor' },
      body: '{"id":"t1"}',
    });
    expect(call.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('shutdown', () => {
  it('close() reports NOT_SERVING, then cancels a stream that outlives the grace period', async () => {
    const usage = await load<Usage>(folder, 'usage.js');
    const server = usage.createServer();
    const port = await server.listen(0, '127.0.0.1');
    const response = await fetch(`http://127.0.0.1:${port}/acme.tasks.v1.TaskService/ListTasks`, {
      method: 'POST',
      headers: { 'content-type': 'application/connect+json', authorization: 'Bearer editor' },
      body: new Uint8Array(envelope('{"projectId":"endless"}')),
    });
    const reader = response.body!.getReader();
    await reader.read(); // the stream is running
    const closed = server.close();
    let text = '';
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += Buffer.from(value).toString('latin1');
    }
    await closed;
    expect(text).toContain('"code":"unavailable"');
  });
});

describe('handler scaffold', () => {
  it('is written once with a stub per rpc; stubs answer UNIMPLEMENTED', async () => {
    const scaffold = readFileSync(join(folder, 'handlers.ts'), 'utf8');
    expect(scaffold.match(/is not implemented yet/g)).toHaveLength(8);
    expect(scaffold).toContain('async *listTasks()');
    expect(scaffold).toContain('} satisfies GrpcServices;');
    const { handlers } = await load<{ handlers: object }>(folder, 'handlers.js');
    const { createGrpcServer } = await load<{ createGrpcServer(services: object): Server }>(folder, 'out/server.js');
    const server = createGrpcServer(handlers);
    const port = await server.listen(0, '127.0.0.1');
    const response = await fetch(`http://127.0.0.1:${port}/acme.tasks.v1.TaskService/GetTask`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    await server.close();
    expect(response.status).toBe(501);
    expect(await response.json()).toEqual({ code: 'unimplemented', message: 'TaskService.GetTask is not implemented yet' });
  });

  it('keeps what the user wrote and adds stubs for a new rpc and a new service; hostile comments stay comments', async () => {
    const protoRoot = join(ROOT, '.vitest-tmp', 'grpc-scaffold-proto');
    mkdirSync(join(protoRoot, 'acme/tasks/v1'), { recursive: true });
    cpSync(join(PROTO_ROOT, 'google'), join(protoRoot, 'google'), { recursive: true }); // google.api.http's annotations
    const original = readFileSync(join(PROTO_ROOT, 'acme/tasks/v1/tasks.proto'), 'utf8');
    writeFileSync(join(protoRoot, 'acme/tasks/v1/tasks.proto'), original);
    const first = await generateGrpc('grpc-scaffold', { protoRoot, usage: false });
    const userEdit = readFileSync(join(first.folder, 'handlers.ts'), 'utf8').replace(
      /async getTask\(\) \{\n\s*throw [^\n]*\n\s*\}/,
      'async getTask(request) {\n      // mine: keep this\n      return { id: request.id, title: "hand-written" };\n    }',
    );
    writeFileSync(join(first.folder, 'handlers.ts'), userEdit);

    const grown = original
      .replace(
        '  rpc SyncTasks(stream TaskEvent) returns (stream TaskEvent);',
        '  rpc SyncTasks(stream TaskEvent) returns (stream TaskEvent);\n  // Archive a task */ alert(1); /* (unary).\n  rpc ArchiveTask(GetTaskRequest) returns (Task);',
      )
      .concat(
        '\n// Labels */ export const pwned = 1; /*\nservice LabelService {\n  rpc WatchLabels(GetTaskRequest) returns (stream Task);\n}\n',
      );
    writeFileSync(join(protoRoot, 'acme/tasks/v1/tasks.proto'), grown);
    const second = await generateGrpc('grpc-scaffold', { protoRoot, usage: false, keepHandlers: true });
    const updated = readFileSync(join(second.folder, 'handlers.ts'), 'utf8');

    expect(updated.startsWith(userEdit.slice(0, userEdit.indexOf('    async createTask')))).toBe(true);
    expect(updated).toContain('// mine: keep this');
    expect(updated).toContain('TaskService.ArchiveTask is not implemented yet');
    expect(updated).toMatch(/\/\*\* Archive a task \*\\\/ alert\(1\); \/\* \(unary\)\. \*\/\n\s+async archiveTask\(\)/);
    expect(updated).toMatch(/LabelService: \{\n\s+\/\*\* `WatchLabels` \(server streaming\)\. \*\/\n\s+async \*watchLabels\(\)/);
    expect(second.files.get('server.ts')).toContain(' * Labels *\\/ export const pwned = 1; /*\n');
    expect(updated.match(/async getTask/g)).toHaveLength(1);
    expect(second.files.get('server.ts')).not.toMatch(/^export const pwned/m);
    transpileFolder(second.folder);
    for (const compiler of Object.values(COMPILERS))
      expect(typecheck(second.folder, compiler, 'node+dom', ['out/**/*.ts', 'handlers.ts']).output).toBe('');
  });
});

/** Writes `chunks` to a raw TCP connection, 30 ms apart; resolves with everything read until it closes. */
function rawExchange(port: number, chunks: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = netConnect(port, '127.0.0.1');
    let text = '';
    socket.on('data', (data) => (text += data.toString('latin1')));
    socket.on('close', () => resolve(text));
    socket.on('error', (error) =>
      text ? resolve(text) : (error as NodeJS.ErrnoException).code === 'ECONNRESET' ? resolve(text) : reject(error),
    );
    socket.setTimeout(3000, () => socket.destroy());
    chunks.forEach((chunk, i) => setTimeout(() => socket.write(Buffer.from(chunk, 'latin1')), i * 30));
  });
}

/** One Connect streaming envelope (flags 0, big-endian length) around `json`. */
function envelope(json: string): Buffer {
  const body = Buffer.from(json);
  const head = Buffer.alloc(5);
  head.writeUInt32BE(body.length, 1);
  return Buffer.concat([head, body]);
}

const BROWSER_USAGE = `import { Code, createConnectClient, createTaskServiceClient, GrpcError, isClientError, type TaskServiceWebClient } from "./out/client-web.js";

export async function titles(token: string): Promise<string[]> {
  const tasks = createConnectClient({ baseUrl: "https://api.example", token: () => token, credentials: "include", timeout: 5000, fetch: (request) => fetch(request) }).taskService;
  const grpcWeb: TaskServiceWebClient = createTaskServiceClient({ baseUrl: "https://api.example", headers: () => ({ "x-tenant": "acme" }), retry: { maxRetries: 1 } });
  void grpcWeb;
  const found: string[] = [];
  let header: Headers | undefined;
  const first = await tasks.getTask({ id: "t1" }, { timeoutMs: 1000, headers: { "x-trace-id": "1" }, onHeader: (h) => (header = h) });
  found.push(first.title, header?.get("x-trace-id") ?? "");
  for await (const task of tasks.listTasks({ projectId: "p1" }, { signal: AbortSignal.timeout(1000) })) found.push(task.title);
  // @ts-expect-error browsers cannot stream requests: no client streaming on the web client
  void tasks.importTasks;
  try {
    await tasks.deleteTask({ id: "t1" });
  } catch (error) {
    if (error instanceof GrpcError && error.code === Code.PermissionDenied && isClientError(error, "response")) found.push("denied");
  }
  return found;
}
`;
