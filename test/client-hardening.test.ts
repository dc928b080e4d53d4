/**
 * Clients don't leak, servers don't echo (issue 11, F7 F8 F9 F13c): the generated REST client, the
 * GraphQL client and the SSE client against real node:http servers on 127.0.0.1, where another
 * port is another origin; and the generated REST server sent absolute-form request targets over a
 * raw socket. Each test fails on a client that follows redirects with its credentials, sends `..`
 * as a path parameter, or reads any response size, or on a server that copies the request's host
 * into `Location`, `Link` or `instance`.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GraphQLHttp } from '../runtime/graphql-client.js';
import { SseClient, SseConnectionError } from '../runtime/sse-client.js';
import { ROOT } from './support/cli.js';
import { generateClientFiles, transpileFolder, writeFiles } from './support/client-generate.js';
import { generateServerFiles } from './support/server-generate.js';
import { raw, start, type Running, type UsageModule } from './support/server-module.js';
import { SERVER_USAGE_SOURCE } from './support/server-usage.js';
import type { AnyEvents } from './support/sse-runtime.js';

mkdirSync(join(ROOT, '.vitest-tmp'), { recursive: true });
const OUT = mkdtempSync(join(ROOT, '.vitest-tmp', 'client-hardening-'));
const MiB = 1024 * 1024;
const SECRET_HEADERS = { 'x-tenant-secret': 'tenant-secret' };

/** A small API with an apiKey in a header (the credential fetch keeps on a cross-origin redirect). */
const API = `openapi: 3.1.0
info: { title: Hardening API, version: 1.0.0 }
security: [{ apiKey: [] }]
paths:
  /items:
    get:
      operationId: listItems
      responses:
        '200': { description: ok, content: { application/json: { schema: { type: array, items: { type: object } } } } }
    post:
      operationId: createItem
      requestBody: { content: { application/json: { schema: { type: object } } } }
      responses:
        '200': { description: ok, content: { application/json: { schema: { type: object } } } }
  /items/{itemId}:
    parameters:
      - { name: itemId, in: path, required: true, schema: { type: string } }
    get:
      operationId: getItem
      responses:
        '200': { description: ok, content: { application/json: { schema: { type: object } } } }
    delete:
      operationId: deleteItem
      responses:
        '204': { description: gone }
  /files/{fileId}:
    get:
      operationId: getFile
      parameters:
        - { name: fileId, in: path, required: true, schema: { type: string } }
      responses:
        '200': { description: ok, content: { application/octet-stream: { schema: { type: string, format: binary } } } }
components:
  securitySchemes:
    apiKey: { type: apiKey, in: header, name: X-Api-Key }
`;

// ---------------------------------------------------------------------------------------------
// Two origins: the API and the place its redirects lead to. Both record what reaches them.

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

interface Origin extends Running {
  seen: Seen[];
}

type Route = (req: IncomingMessage, res: ServerResponse, body: string) => void | Promise<void>;

async function origin(route: Route): Promise<Origin> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      void route(req, res, body);
    });
  });
  const running = await start(() => undefined, server);
  return { ...running, seen };
}

/** Writes `size` bytes of a JSON array, chunk by chunk, minding backpressure; stops when the client goes. */
async function hugeJson(res: ServerResponse, size: number, type: string, withLength: boolean): Promise<void> {
  res.writeHead(200, { 'content-type': type, ...(withLength ? { 'content-length': String(size) } : {}) });
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  res.write('[');
  let written = 1;
  while (written < size - 1 && !res.destroyed) {
    const piece = Math.min(chunk.length, size - 1 - written);
    written += piece;
    if (!res.write(piece === chunk.length ? chunk : chunk.subarray(0, piece))) {
      await new Promise<void>((resolve) => {
        res.once('drain', resolve);
        res.once('close', resolve);
      });
    }
  }
  if (!res.destroyed) res.end(']');
}

let away: Origin;
let api: Origin;

beforeAll(async () => {
  away = await origin((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"stolen":true}');
  });
  api = await origin(async (req, res, body) => {
    const url = req.url ?? '/';
    const send = (status: number, headers: Record<string, string>, text = '') => {
      res.writeHead(status, headers);
      res.end(text);
    };
    if (url.includes('/away')) return send(307, { location: `${away.url}/collect` });
    if (url === '/graphql/to-home') return send(302, { location: '/graphql' });
    if (req.method === 'POST' && url === '/v1/items') return send(307, { location: '/v1/items/echo' });
    if (url.includes('/absolute-home')) return send(302, { location: `${api.url}/v1/items/home` });
    if (url.includes('/to-home')) return send(302, { location: '/v1/items/home' });
    if (url.endsWith('/echo')) return send(200, { 'content-type': 'application/json' }, JSON.stringify({ method: req.method, body }));
    if (url.includes('/home')) return send(200, { 'content-type': 'application/json' }, '{"home":true}');
    if (url.includes('/huge-length')) return hugeJson(res, 64 * MiB, 'application/json', true);
    if (url.includes('/huge')) return hugeJson(res, 64 * MiB, 'application/json', false);
    if (url.startsWith('/files/')) return hugeJson(res, 64 * MiB, 'application/octet-stream', false);
    if (url.startsWith('/graphql')) return send(200, { 'content-type': 'application/json' }, '{"data":{"viewer":{"id":"1"}}}');
    return send(200, { 'content-type': 'application/json' }, '[{"id":1}]');
  });
});

afterAll(async () => {
  await away?.close();
  await api?.close();
  rmSync(OUT, { recursive: true, force: true });
});

beforeEach(() => {
  away.seen.length = 0;
  api.seen.length = 0;
});

async function rejection(promise: Promise<unknown>): Promise<Error & Record<string, unknown>> {
  try {
    await promise;
  } catch (error) {
    return error as Error & Record<string, unknown>;
  }
  throw new Error('expected the call to fail');
}

// ---------------------------------------------------------------------------------------------
// The REST client

type Call = (params?: Record<string, unknown>, options?: Record<string, unknown>) => Promise<unknown>;
interface RestClient {
  listItems: Call;
  createItem: Call;
  getItem: Call;
  deleteItem: Call;
  getFile: Call;
}
interface RestModule {
  createClient: (options: Record<string, unknown>) => RestClient;
  ApiParameterError: new (...args: never[]) => Error;
  ApiRedirectError: new (...args: never[]) => Error;
  ApiResponseTooLargeError: new (...args: never[]) => Error;
}

describe('REST client', () => {
  let rest: RestModule;
  const client = (options: Record<string, unknown> = {}): RestClient =>
    rest.createClient({ baseUrl: `${api.url}/v1`, auth: { apiKey: 'api-key-secret' }, headers: SECRET_HEADERS, retry: false, ...options });

  beforeAll(async () => {
    const folder = join(OUT, 'rest');
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'api.yaml'), API);
    writeFiles(join(folder, 'out'), await generateClientFiles(join(folder, 'api.yaml')));
    transpileFolder(join(folder, 'out'));
    rest = (await import(pathToFileURL(join(folder, 'out', 'client.js')).href)) as RestModule;
  });

  it('does not follow a redirect to another origin: neither the apiKey header nor the headers option get there', async () => {
    const error = await rejection(client().getItem({ itemId: 'away' }));
    expect(error).toBeInstanceOf(rest.ApiRedirectError);
    expect(error).toMatchObject({ status: 307, location: `${away.url}/collect` });
    expect(away.seen).toEqual([]);
    expect(api.seen[0]?.headers['x-api-key']).toBe('api-key-secret');
  });

  it('follows redirects within its origin, with its credentials (relative and absolute Location)', async () => {
    expect(await client().getItem({ itemId: 'to-home' })).toEqual({ home: true });
    expect(await client().getItem({ itemId: 'absolute-home' })).toEqual({ home: true });
    expect(api.seen.map((request) => [request.url, request.headers['x-api-key'], request.headers['x-tenant-secret']])).toEqual([
      ['/v1/items/to-home', 'api-key-secret', 'tenant-secret'],
      ['/v1/items/home', 'api-key-secret', 'tenant-secret'],
      ['/v1/items/absolute-home', 'api-key-secret', 'tenant-secret'],
      ['/v1/items/home', 'api-key-secret', 'tenant-secret'],
    ]);
  });

  it('repeats method and body on a same-origin 307', async () => {
    expect(await client().createItem({ body: { name: 'x' } })).toEqual({ method: 'POST', body: '{"name":"x"}' });
    expect(api.seen.map((request) => [request.method, request.url, request.body])).toEqual([
      ['POST', '/v1/items', '{"name":"x"}'],
      ['POST', '/v1/items/echo', '{"name":"x"}'],
    ]);
  });

  it('refuses ".", ".." and empty path parameters before sending anything', async () => {
    for (const itemId of ['..', '.', '', ['..']]) {
      for (const call of [
        (params: Record<string, unknown>) => client().getItem(params),
        (params: Record<string, unknown>) => client().deleteItem(params),
      ]) {
        const error = await rejection(call({ itemId }));
        expect(error, JSON.stringify(itemId)).toBeInstanceOf(rest.ApiParameterError);
        expect(error).toMatchObject({ parameter: 'itemId', kind: 'invalid-request' });
      }
    }
    expect(api.seen).toEqual([]);
    // Dots inside a value are data: `..x` and `a.b` are sent (encoded as they are).
    await client().getItem({ itemId: '..x' });
    await client().getItem({ itemId: 'a.b' });
    expect(api.seen.map((request) => request.url)).toEqual(['/v1/items/..x', '/v1/items/a.b']);
  });

  it('refuses a 64 MiB response (chunked, with Content-Length, or binary) and reads a normal one', async () => {
    for (const itemId of ['huge', 'huge-length']) {
      const error = await rejection(client().getItem({ itemId }));
      expect(error, itemId).toBeInstanceOf(rest.ApiResponseTooLargeError);
      expect(error).toMatchObject({ status: 200, limit: 16 * MiB });
    }
    const binary = await rejection(rest.createClient({ baseUrl: api.url, auth: { apiKey: 'k' }, retry: false }).getFile({ fileId: 'f' }));
    expect(binary).toBeInstanceOf(rest.ApiResponseTooLargeError);
    expect(await client().listItems()).toEqual([{ id: 1 }]);
  });

  it('takes maxResponseBytes per client and per call (0 = no limit)', async () => {
    const small = client({ maxResponseBytes: 8 });
    expect(await rejection(small.listItems())).toBeInstanceOf(rest.ApiResponseTooLargeError);
    // An operation without parameters takes the call options first.
    expect(await small.listItems({ maxResponseBytes: 0 })).toEqual([{ id: 1 }]);
    expect(await rejection(client().listItems({ maxResponseBytes: 8 }))).toBeInstanceOf(rest.ApiResponseTooLargeError);
  });
});

// ---------------------------------------------------------------------------------------------
// The GraphQL client (its runtime, as generated into every GraphQL client output)

describe('GraphQL client', () => {
  const viewer = { kind: 'query', name: 'Viewer', id: 'viewer', document: '{ viewer { id } }' } as const;
  const headers = { authorization: 'Bearer graphql-secret', ...SECRET_HEADERS };

  it('does not follow a redirect to another origin with its headers', async () => {
    const error = await rejection(new GraphQLHttp({ url: `${api.url}/graphql/away`, headers }).execute(viewer, {}));
    expect(error).toMatchObject({ name: 'GraphQLRequestError', kind: 'redirect', status: 307 });
    expect(away.seen).toEqual([]);
  });

  it('follows a redirect within its origin; a 302 after a POST becomes a GET', async () => {
    const result = await new GraphQLHttp({ url: `${api.url}/graphql/to-home`, headers }).execute(viewer, {});
    expect(result.data).toEqual({ viewer: { id: '1' } });
    expect(api.seen.map((request) => [request.method, request.headers['x-tenant-secret']])).toEqual([
      ['POST', 'tenant-secret'],
      ['GET', 'tenant-secret'],
    ]);
  });

  it('refuses a 64 MiB response with kind too-large, and takes maxResponseBytes', async () => {
    for (const path of ['huge', 'huge-length']) {
      const error = await rejection(new GraphQLHttp({ url: `${api.url}/v1/${path}`, headers }).execute(viewer, {}));
      expect(error, path).toMatchObject({ kind: 'too-large', status: 200 });
    }
    expect(await rejection(new GraphQLHttp({ url: `${api.url}/graphql`, maxResponseBytes: 10 }).execute(viewer, {}))).toMatchObject({
      kind: 'too-large',
    });
    expect((await new GraphQLHttp({ url: `${api.url}/graphql` }).execute(viewer, {})).data).toEqual({ viewer: { id: '1' } });
  });
});

// ---------------------------------------------------------------------------------------------
// The SSE client

describe('SSE client', () => {
  let events: Origin;

  beforeAll(async () => {
    events = await origin((req, res) => {
      if (req.url === '/away') {
        res.writeHead(307, { location: `${away.url}/collect` }).end();
        return;
      }
      if (req.url === '/moved') {
        res.writeHead(301, { location: '/feed' }).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      // One 2 MiB event (over the default 1 MiB), or a small one; then the stream ends.
      const size = req.url === '/big' ? 2 * MiB : 8;
      res.end(`event: message\ndata: "${'x'.repeat(size)}"\n\n`);
    });
  });

  afterAll(() => events?.close());
  beforeEach(() => {
    events.seen.length = 0;
  });

  async function collect(url: string): Promise<{ received: unknown[]; error: unknown }> {
    const received: unknown[] = [];
    try {
      for await (const event of new SseClient<AnyEvents>(url, {
        headers: { authorization: 'Bearer sse-secret', ...SECRET_HEADERS },
        reconnect: false,
      }))
        received.push(event.data);
    } catch (error) {
      return { received, error };
    }
    return { received, error: undefined };
  }

  it('does not follow a redirect to another origin with its headers', async () => {
    const { error } = await collect(`${events.url}/away`);
    expect(error).toBeInstanceOf(SseConnectionError);
    expect(error).toMatchObject({ kind: 'redirect' });
    expect(String(error)).toMatch(/another origin/);
    expect(away.seen).toEqual([]);
  });

  it('follows a redirect within its origin', async () => {
    const { received, error } = await collect(`${events.url}/moved`);
    expect(error).toBeUndefined();
    expect(received).toEqual(['x'.repeat(8)]);
    expect(events.seen.map((request) => [request.url, request.headers['x-tenant-secret']])).toEqual([
      ['/moved', 'tenant-secret'],
      ['/feed', 'tenant-secret'],
    ]);
  });

  it('ends a stream whose event is larger than maxEventSize (default 1 MiB)', async () => {
    const { received, error } = await collect(`${events.url}/big`);
    expect(received).toEqual([]);
    expect(error).toBeInstanceOf(SseConnectionError);
    expect(error).toMatchObject({ kind: 'too-large' });
    expect(String(error)).toMatch(/maxEventSize/);
  });
});

// ---------------------------------------------------------------------------------------------
// The REST server: URLs it writes never carry the request's host

describe('REST server URLs', () => {
  let usage: UsageModule;
  let server: Running;
  let configured: Running;
  const AUTH = 'Authorization: Bearer good\r\n';

  beforeAll(async () => {
    const folder = join(OUT, 'server');
    writeFiles(folder, await generateServerFiles('schemas/openapi/tasks.yaml'));
    writeFileSync(join(folder, 'usage.ts'), SERVER_USAGE_SOURCE);
    transpileFolder(folder);
    usage = (await import(pathToFileURL(join(folder, 'usage.js')).href)) as UsageModule;
    server = await start(usage.listener({ production: true }));
    configured = await start(usage.listener({ production: true, publicUrl: 'https://api.example.com/' }));
  });

  afterAll(async () => {
    await server?.close();
    await configured?.close();
  });

  function send(target: Running, head: string, body = ''): ReturnType<typeof raw> {
    const length = body === '' ? '' : `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n`;
    return raw(target.port, `${head}\r\nConnection: close\r\n${AUTH}${length}\r\n`, { body });
  }

  it('an absolute-form POST gets a path-absolute Location, not the host of the target', async () => {
    for (const host of ['evil.example', '127.0.0.1']) {
      const response = await send(server, `POST http://evil.example/v1/projects HTTP/1.1\r\nHost: ${host}`, '{"name":"Abs"}');
      expect(response.status).toBe(201);
      const { id } = JSON.parse(response.body) as { id: string };
      expect(response.headers.location).toBe(`/v1/projects/${id}`);
    }
  });

  it('an absolute-form GET gets Link references without the host of the target', async () => {
    for (const name of ['A', 'B']) await send(server, 'POST /v1/projects HTTP/1.1\r\nHost: x', JSON.stringify({ name }));
    const response = await send(server, 'GET http://evil.example/v1/projects?page=1&pageSize=1 HTTP/1.1\r\nHost: evil.example');
    expect(response.status).toBe(200);
    expect(response.headers.link).toMatch(/^<\/v1\/projects\?/);
    expect(response.headers.link).not.toMatch(/evil/);
  });

  it('problems name the path as instance, never a host (absolute form, //host, /\\host)', async () => {
    const cases: Array<[string, string]> = [
      ['GET http://evil.example/v1/nowhere?x=1 HTTP/1.1', '/v1/nowhere'],
      ['GET http://evil.example/v1/projects/%2E%2E HTTP/1.1', '/v1/projects/%2E%2E'],
      ['GET //evil.example/v1/nowhere HTTP/1.1', '/evil.example/v1/nowhere'],
      ['GET /\\evil.example/v1/nowhere HTTP/1.1', '/evil.example/v1/nowhere'],
    ];
    for (const [line, instance] of cases) {
      const response = await send(server, `${line}\r\nHost: evil.example`);
      expect(response.status, line).toBeGreaterThanOrEqual(400);
      expect((JSON.parse(response.body) as { instance: string }).instance, line).toBe(instance);
    }
  });

  it('with publicUrl, Location and Link start with it, whatever the target says', async () => {
    const created = await send(configured, 'POST http://evil.example/v1/projects HTTP/1.1\r\nHost: evil.example', '{"name":"Public"}');
    const { id } = JSON.parse(created.body) as { id: string };
    expect(created.headers.location).toBe(`https://api.example.com/v1/projects/${id}`);
    await send(configured, 'POST /v1/projects HTTP/1.1\r\nHost: x', '{"name":"Second"}');
    const listed = await send(configured, 'GET http://evil.example/v1/projects?page=1&pageSize=1 HTTP/1.1\r\nHost: evil.example');
    expect(listed.headers.link).toMatch(/^<https:\/\/api\.example\.com\/v1\/projects\?/);
  });

  it('refuses a publicUrl that is not an absolute http(s) URL at setup', () => {
    for (const publicUrl of ['api.example.com', 'ftp://api.example.com', 'https://api.example.com/?x=1']) {
      expect(() => usage.listener({ publicUrl }), publicUrl).toThrow(/publicUrl/);
    }
  });
});
