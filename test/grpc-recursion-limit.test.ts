/**
 * The generated gRPC server against messages nested 100k deep (a self-referencing message, and a
 * `google.protobuf.Value` chain, a few hundred KB each): every protocol ends the call with a decode
 * error at depth 100 — the generated codecs on the HTTP/2 gRPC path, protobuf-es under Connect,
 * gRPC-Web and JSON — instead of a stack overflow, and the server goes on serving. A binary message
 * that does not parse is INTERNAL ("parse binary: …", gRPC's status table and Connect's own answer),
 * JSON that does not parse is INVALID_ARGUMENT (grpc-interop.test.ts checks the same for other
 * malformed input).
 */
import { writeFileSync } from 'node:fs';
import { connect as http2Connect, type ClientHttp2Session } from 'node:http2';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from '../generators/core/pipeline/generate.js';
import { ROOT } from './support/cli.js';
import { transpileFolder, writeFiles } from './support/client-generate.js';
import { load } from './support/grpc-setup.js';
import { envelope } from './support/h2-frames.js';
import { nestedFields, nestedValues } from './support/proto-nesting.js';

interface Server {
  listen(port: number, host?: string): Promise<number>;
  close(): Promise<void>;
}

const PROTO_ROOT = join(ROOT, 'test/fixtures/proto-nesting');
const MEASURE = '/acme.nesting.v1.NestingService/Measure';
/** Node.child and Node.value. */
const CHILD = (2 << 3) | 2;
const VALUE = (3 << 3) | 2;
const LIMIT_ERROR = /maximum recursion depth of 100 reached/;

const USAGE = `import { createGrpcServer } from "./out/server.js";
import type { Node } from "./out/acme/nesting/v1/nesting_pb.js";

export function createServer() {
  return createGrpcServer({
    NestingService: {
      measure(request: Node) {
        let levels = 0;
        for (let node: Node | undefined = request; node !== undefined; node = node.child) levels++;
        return { levels };
      },
    },
  });
}
`;

let server: Server;
let session: ClientHttp2Session;

beforeAll(async () => {
  const folder = join(ROOT, '.vitest-tmp', 'grpc-recursion-limit');
  const [{ files }] = await generate([
    {
      name: 'nesting',
      inputs: [join(PROTO_ROOT, 'acme/nesting/v1/nesting.proto')],
      documents: [],
      style: 'proto',
      output: join(folder, 'out'),
      emit: ['types', 'server'],
      options: { includePaths: [PROTO_ROOT] },
      root: PROTO_ROOT,
    },
  ]);
  writeFiles(join(folder, 'out'), files);
  writeFileSync(join(folder, 'usage.ts'), USAGE);
  transpileFolder(folder);
  const { createServer } = await load<{ createServer(): Server }>(folder, 'usage.js');
  server = createServer();
  const port = await server.listen(0, '127.0.0.1');
  session = http2Connect(`http://127.0.0.1:${port}`);
});

afterAll(async () => {
  session?.close();
  await server?.close();
});

interface Answer {
  status: number;
  /** Response headers and trailers together (a Trailers-Only gRPC answer has its status in the headers). */
  fields: Record<string, string | string[] | undefined>;
  body: Buffer;
}

function call(contentType: string, body: Uint8Array): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const stream = session.request({ ':method': 'POST', ':path': MEASURE, 'content-type': contentType, te: 'trailers' });
    const fields: Answer['fields'] = {};
    let status = 0;
    const chunks: Buffer[] = [];
    stream.on('response', (headers) => {
      status = Number(headers[':status']);
      Object.assign(fields, headers);
    });
    stream.on('trailers', (trailers) => Object.assign(fields, trailers));
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('error', reject);
    stream.on('close', () => resolve({ status, fields, body: Buffer.concat(chunks) }));
    stream.end(body);
  });
}

const grpcMessage = (answer: Answer) => decodeURIComponent(String(answer.fields['grpc-message'] ?? ''));

/** The top-level Node plus `levels - 1` children: `levels` messages deep. */
const nodes = (levels: number) => nestedFields(levels - 1, () => CHILD);

describe('a request nested 100k messages deep', () => {
  const attacks = [
    ['Node.child, 100k nodes', nodes(100_000)],
    ['Node.value, 100k nested Values and ListValues', nestedValues(100_000, VALUE)],
  ] as const;

  it.each(attacks)('gRPC over HTTP/2 (the generated codecs): INTERNAL, the limit named (%s)', async (_name, message) => {
    expect(message.length).toBeLessThan(500_000);
    const answer = await call('application/grpc', envelope(Buffer.from(message)));
    expect(answer.fields['grpc-status']).toBe('13');
    expect(grpcMessage(answer)).toMatch(/^parse binary: /);
    expect(grpcMessage(answer)).toMatch(LIMIT_ERROR);
  });

  it.each(attacks)('gRPC-Web and Connect (protobuf-es): INTERNAL, the limit named (%s)', async (_name, message) => {
    // gRPC-Web's trailers are the body's last frame (flag 0x80): `grpc-status: 13` and the message.
    const web = await call('application/grpc-web+proto', envelope(Buffer.from(message)));
    const trailers = web.body.subarray(5).toString();
    expect(web.body[0]).toBe(0x80);
    expect(trailers).toMatch(/^grpc-status: ?13\r\n/m);
    expect(decodeURIComponent(trailers)).toMatch(LIMIT_ERROR);
    const connect = await call('application/proto', message);
    expect(connect.status).toBe(500);
    expect(JSON.parse(connect.body.toString())).toMatchObject({ code: 'internal', message: expect.stringMatching(LIMIT_ERROR) });
  });

  it('Connect JSON (protobuf-es fromJson): INVALID_ARGUMENT, for 100k nested lists and 100k nested nodes', async () => {
    const lists = `{"value":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    const children = `${'{"child":'.repeat(99_999)}{}${'}'.repeat(99_999)}`;
    for (const json of [lists, children]) {
      const answer = await call('application/json', Buffer.from(json));
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.body.toString())).toMatchObject({ code: 'invalid_argument', message: expect.stringMatching(LIMIT_ERROR) });
    }
  });

  it('the server goes on serving, and 100 levels (the limit) are decoded', async () => {
    const answer = await call('application/grpc', envelope(Buffer.from(nodes(100))));
    expect(answer.fields['grpc-status']).toBe('0');
    // Depth { levels: 100 }
    expect(answer.body).toEqual(envelope(Buffer.from([0x08, 100])));
    const over = await call('application/grpc', envelope(Buffer.from(nodes(101))));
    expect(grpcMessage(over)).toMatch(LIMIT_ERROR);
  });
});
