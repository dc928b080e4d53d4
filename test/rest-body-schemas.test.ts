/**
 * Request bodies that are neither JSON nor forms are checked by their schema too (issue 12 item
 * 1): a binary body (`application/octet-stream`, `format: binary`) by the byte counts its
 * `minLength`/`maxLength` allow, a `text/plain` body against its string schema, each with a 422
 * whose error points at `/body`. Generated server, real requests on 127.0.0.1.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from './support/cli.js';
import { transpileFolder, writeFiles } from './support/client-generate.js';
import { generateServerFiles } from './support/server-generate.js';
import { start, type Listener, type Running } from './support/server-module.js';

const API = `openapi: 3.1.0
info: { title: Bodies API, version: 1.0.0 }
paths:
  /blobs:
    post:
      operationId: putBlob
      requestBody:
        required: true
        content:
          application/octet-stream:
            schema: { type: string, format: binary, minLength: 2, maxLength: 8 }
      responses:
        '201': { description: stored, content: { application/json: { schema: { type: object, properties: { size: { type: integer } } } } } }
  /notes:
    post:
      operationId: putNote
      requestBody:
        required: true
        content:
          text/plain:
            schema: { type: string, maxLength: 5, pattern: '^[a-z]+$' }
      responses:
        '201': { description: stored, content: { application/json: { schema: { type: object, properties: { text: { type: string } } } } } }
`;

mkdirSync(join(ROOT, '.vitest-tmp'), { recursive: true });
const OUT = mkdtempSync(join(ROOT, '.vitest-tmp', 'rest-bodies-'));
let server: Running;
const received: unknown[] = [];

beforeAll(async () => {
  writeFileSync(join(OUT, 'api.yaml'), API);
  writeFiles(join(OUT, 'out'), await generateServerFiles(join(OUT, 'api.yaml')));
  transpileFolder(join(OUT, 'out'));
  const module = (await import(pathToFileURL(join(OUT, 'out', 'server.js')).href)) as {
    createServer(handlers: Record<string, (request: { body: unknown }) => unknown>): Listener;
  };
  // Plain (not promised) results: a handler may return either.
  server = await start(
    module.createServer({
      putBlob: ({ body }) => (received.push(body), { status: 201, body: { size: (body as Uint8Array).length } }),
      putNote: ({ body }) => (received.push(body), { status: 201, body: { text: body as string } }),
    }),
  );
});

afterAll(async () => {
  await server?.close();
  rmSync(OUT, { recursive: true, force: true });
});

async function post(
  path: string,
  type: string,
  body: BodyInit,
): Promise<{ status: number; json: { size?: number; text?: string; errors?: Array<{ pointer: string; keyword?: string }> } }> {
  const response = await fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': type }, body });
  return { status: response.status, json: (await response.json()) as never };
}

describe('a binary body', () => {
  it('reaches the handler as bytes when its size is within minLength..maxLength', async () => {
    expect(await post('/blobs', 'application/octet-stream', new Uint8Array([1, 2, 3]))).toMatchObject({ status: 201, json: { size: 3 } });
    expect(received.at(-1)).toBeInstanceOf(Uint8Array);
  });

  it('is refused with 422 at /body when larger than maxLength bytes or smaller than minLength', async () => {
    const before = received.length;
    const large = await post('/blobs', 'application/octet-stream', new Uint8Array(9));
    expect(large.status).toBe(422);
    expect(large.json.errors).toEqual([expect.objectContaining({ pointer: '/body', keyword: 'maxLength' })]);
    const small = await post('/blobs', 'application/octet-stream', new Uint8Array(1));
    expect(small.status).toBe(422);
    expect(small.json.errors).toEqual([expect.objectContaining({ pointer: '/body', keyword: 'minLength' })]);
    // Counted in bytes, not characters: 3 characters of 3 bytes each are 9 bytes.
    expect((await post('/blobs', 'application/octet-stream', new Blob(['€€€']))).status).toBe(422);
    expect(received.length).toBe(before);
  });
});

describe('a text body', () => {
  it('is checked against its string schema', async () => {
    expect(await post('/notes', 'text/plain', 'abc')).toMatchObject({ status: 201, json: { text: 'abc' } });
    const long = await post('/notes', 'text/plain', 'abcdef');
    expect(long.status).toBe(422);
    expect(long.json.errors).toEqual([expect.objectContaining({ pointer: '/body', keyword: 'maxLength' })]);
    const pattern = await post('/notes', 'text/plain', 'AB');
    expect(pattern.status).toBe(422);
    expect(pattern.json.errors).toEqual([expect.objectContaining({ pointer: '/body', keyword: 'pattern' })]);
  });
});
