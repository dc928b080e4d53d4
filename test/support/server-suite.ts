/**
 * The generated REST server core, end to end, once per host (`mount`: its own listener, or mounted in
 * Fastify, Hono, Express, Koa; support/server-module.ts `startMounted`): generated from schemas/openapi/tasks.yaml with
 * types and validators, type-checked under strict (TypeScript 5.9 and 7, Node), then started on
 * 127.0.0.1:0 and called with plain `fetch` (raw sockets where fetch cannot send the request).
 * One test per rule, each asserting status, headers and body. The handlers are typed user code
 * (support/server-usage.ts), compiled with the generated files.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from './cli.js';
import { anyTypes, transpileFolder, writeFiles } from './client-generate.js';
import { generateServerFiles } from './server-generate.js';
import { createServer, type RequestListener, type Server } from 'node:http';
import express from 'express';
import { raw, start, startMounted, type Listener, type Mount, type Running, type ServerModule, type UsageModule } from './server-module.js';
import { STYLES_API, STYLES_USAGE_SOURCE } from './server-fixtures.js';
import { SERVER_USAGE_SOURCE } from './server-usage.js';
import { COMPILERS, typecheck } from './typecheck.js';

/** Every test of the REST core, with the generated server served as `mount` says. */
export function serverSuite(mount: Mount): void {
  /**
   * As middleware (Express, Koa) the server passes what none of its routes serve to `next()`
   * (`fallthrough`, on by default): the app answers those paths, not the server.
   */
  const passesOn = mount === 'express' || mount === 'koa';

  /** Serves a generated listener as `mount` says (optionally on a given kind of `http.Server`). */
  const mounted = (listener: Listener, server?: (app: RequestListener) => Server): Promise<Running> =>
    startMounted(mount, api, listener, server);

  mkdirSync(join(ROOT, '.vitest-tmp'), { recursive: true });
  const OUT = mkdtempSync(join(ROOT, '.vitest-tmp', 'server-'));
  const AUTH = { authorization: 'Bearer good' };
  const PROBLEM = 'application/problem+json';
  const MISSING = '7d3f4c1e-0000-4000-8000-00000000dead';

  let api: ServerModule;
  let usage: UsageModule;
  /** Development mode, small limits so 413 and 408 are quick to provoke. */
  let dev: Running;
  /** Production mode. */
  let prod: Running;

  function errorsOf(output: string): string[] {
    return output.split('\n').filter((line) => /\.ts\(\d+,\d+\): error/.test(line));
  }

  async function call(server: Running, path: string, init: RequestInit & { headers?: Record<string, string> } = {}): Promise<Response> {
    return fetch(server.url + path, { ...init, headers: { ...AUTH, ...init.headers } });
  }

  async function json(server: Running, path: string, body: unknown, method = 'POST'): Promise<Response> {
    return call(server, path, { method, body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
  }

  /** A new project, by the API. */
  async function project(name = 'Docs'): Promise<{ id: string; name: string }> {
    const response = await json(dev, '/v1/projects', { name });
    expect(response.status).toBe(201);
    return (await response.json()) as { id: string; name: string };
  }

  async function task(projectId: string, fields: Record<string, unknown>): Promise<{ id: string }> {
    const response = await json(dev, `/v1/projects/${projectId}/tasks`, { status: 'todo', ...fields });
    expect(response.status).toBe(201);
    return (await response.json()) as { id: string };
  }

  /** A 404 for a path no route serves: the server's problem, or, as middleware, the app's own 404. */
  async function notFound(response: Response, path: string): Promise<void> {
    if (passesOn) {
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).not.toBe(PROBLEM);
      return;
    }
    const body = await problem(response, 404);
    expect(body.instance).toBe(path);
  }

  /** Asserts a Problem Details answer, and that its traceId is the Trace-Id header. */
  async function problem(response: Response, status: number): Promise<Record<string, unknown>> {
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toBe(PROBLEM);
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ type: 'about:blank', status, title: expect.any(String) });
    expect(typeof body.instance).toBe('string');
    expect(body.traceId).toBe(response.headers.get('trace-id'));
    expect(JSON.stringify(body)).not.toMatch(/\n\s+at |\.ts:\d+|\.js:\d+/);
    return body;
  }

  beforeAll(async () => {
    const files = await generateServerFiles('schemas/openapi/tasks.yaml');
    writeFiles(OUT, files);
    writeFileSync(join(OUT, 'usage.ts'), SERVER_USAGE_SOURCE);
    transpileFolder(OUT);
    api = (await import(pathToFileURL(join(OUT, 'server.js')).href)) as ServerModule;
    usage = (await import(pathToFileURL(join(OUT, 'usage.js')).href)) as UsageModule;
    dev = await mounted(
      usage.listener({ production: false, validateResponses: true, limits: { maxBodySize: 16 * 1024, bodyTimeout: 300 } }),
    );
    prod = await mounted(usage.listener({ production: true }));
  });

  afterAll(async () => {
    await dev?.close();
    await prod?.close();
    rmSync(OUT, { recursive: true, force: true });
  });

  // What is generated is the same whatever hosts it: checked once, on the plain listener.
  if (mount === 'listener') {
    describe('generated server code', () => {
      it('is deterministic', async () => {
        const again = await generateServerFiles('schemas/openapi/tasks.yaml');
        for (const file of again) expect(readFileSync(join(OUT, file.path), 'utf8'), file.path).toBe(file.content);
      });

      it('type-checks under strict with TypeScript 5.9 (Node), with typed handlers and the type errors they must get', () => {
        expect(errorsOf(typecheck(OUT, COMPILERS['TypeScript 5.9'], 'node').output)).toEqual([]);
      });

      it('type-checks under strict with TypeScript 7', () => {
        expect(errorsOf(typecheck(OUT, COMPILERS['TypeScript 7'], 'node').output)).toEqual([]);
      });

      it('has no `any` in server.ts or the core runtime', () => {
        for (const path of ['server.ts', 'runtime/server.ts', 'runtime/server-input.ts', 'runtime/server-output.ts']) {
          expect(anyTypes(readFileSync(join(OUT, path), 'utf8')), path).toEqual([]);
        }
      });

      it('takes its base path from the servers of the document', () => {
        expect(api.BASE_PATHS).toEqual(['/v1']);
      });

      it('a handler returning a body its schema does not allow is a type error', () => {
        // usage.ts holds `@ts-expect-error` lines; an unused one fails the type-check above. Prove
        // they are live: without the directives, exactly those lines fail.
        const folder = mkdtempSync(join(ROOT, '.vitest-tmp', 'server-neg-'));
        try {
          cpSync(OUT, folder, { recursive: true });
          writeFileSync(join(folder, 'usage.ts'), SERVER_USAGE_SOURCE.replace(/\/\/ @ts-expect-error.*\n/g, ''));
          const errors = errorsOf(typecheck(folder, COMPILERS['TypeScript 5.9'], 'node').output);
          const expected = (SERVER_USAGE_SOURCE.match(/@ts-expect-error/g) ?? []).length;
          expect(errors.length).toBeGreaterThanOrEqual(expected);
          expect(errors.every((line) => line.includes('usage.ts'))).toBe(true);
          expect(errors.some((line) => /Task.*not assignable|not assignable.*Project/s.test(line))).toBe(true);
        } finally {
          rmSync(folder, { recursive: true, force: true });
        }
      });
    });
  }

  describe('routing and methods', () => {
    it('answers a typed success: 200 with the JSON body', async () => {
      const created = await project('Typed');
      const response = await call(dev, `/v1/projects/${created.id}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/json');
      expect(response.headers.get('etag')).toMatch(/^"[\w-]+"$/);
      expect(response.headers.get('x-version')).toBe('v1');
      expect(await response.json()).toEqual({ id: created.id, name: 'Typed', createdAt: expect.any(String) });
    });

    it('POST create → 201 with Location (computed from the member route and the new id)', async () => {
      const response = await json(dev, '/v1/projects', { name: 'Created', description: null });
      expect(response.status).toBe(201);
      const body = (await response.json()) as { id: string };
      expect(response.headers.get('location')).toBe(`/v1/projects/${body.id}`);
      expect(response.headers.get('x-principal')).toBe('u1');
      expect(body).toMatchObject({ name: 'Created', description: null });
    });

    it('POST create → 201 with the Location the handler supplies', async () => {
      const { id } = await project();
      const response = await json(dev, `/v1/projects/${id}/tasks`, { title: 'Write', status: 'todo' });
      expect(response.status).toBe(201);
      const body = (await response.json()) as { id: string };
      expect(response.headers.get('location')).toBe(`/v1/tasks/${body.id}`);
    });

    it('DELETE → 204 without a body', async () => {
      const { id } = await project();
      const response = await call(dev, `/v1/projects/${id}`, { method: 'DELETE' });
      expect(response.status).toBe(204);
      // @hono/node-server gives every response without one `text/plain` (its buildOutgoingHttpHeaders); the server sets none.
      expect(response.headers.get('content-type')).toBe(mount === 'hono' ? 'text/plain; charset=UTF-8' : null);
      expect(response.headers.get('content-length')).toBeNull();
      expect(await response.text()).toBe('');
    });

    it('PUT → 200 with the replaced resource; PATCH takes merge-patch JSON', async () => {
      const { id } = await project();
      const created = await task(id, { title: 'Old', dueDate: '2024-06-01' });
      const put = await json(dev, `/v1/tasks/${created.id}`, { title: 'New', status: 'done' }, 'PUT');
      expect(put.status).toBe(200);
      expect(await put.json()).toMatchObject({ id: created.id, title: 'New', status: 'done', updatedAt: expect.any(String) });
      const patch = await call(dev, `/v1/tasks/${created.id}`, {
        method: 'PATCH',
        body: JSON.stringify({ title: 'Newer' }),
        headers: { 'content-type': 'application/merge-patch+json' },
      });
      expect(patch.status).toBe(200);
      expect(await patch.json()).toMatchObject({ title: 'Newer', status: 'done' });
    });

    it('HEAD answers every GET route: same status and headers (ETag, length), no body', async () => {
      const { id } = await project('Head');
      const get = await call(dev, `/v1/projects/${id}`);
      const head = await call(dev, `/v1/projects/${id}`, { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(head.headers.get('etag')).toBe(get.headers.get('etag'));
      expect(head.headers.get('content-length')).toBe(get.headers.get('content-length'));
      expect(head.headers.get('content-type')).toBe('application/json');
      expect(await head.text()).toBe('');
    });

    it('OPTIONS → 204 listing the methods of the path in Allow', async () => {
      const response = await call(dev, `/v1/projects/${MISSING}`, { method: 'OPTIONS' });
      expect(response.status).toBe(204);
      expect(response.headers.get('allow')).toBe('GET, HEAD, DELETE, OPTIONS');
      expect(await response.text()).toBe('');
    });

    it('an unknown method on a known path → 405 with Allow', async () => {
      const response = await call(dev, `/v1/tasks/${MISSING}/attachments`, { method: 'GET' });
      const body = await problem(response, 405);
      expect(response.headers.get('allow')).toBe('POST, OPTIONS');
      expect(body.title).toBe('Method Not Allowed');
    });

    it('an unknown path → 404, also outside the base path', async () => {
      for (const path of ['/v1/nothing', '/projects', '/v2/projects', '/v1/projects/x/y/z']) await notFound(await call(dev, path), path);
    });

    it('a trailing slash is ignored; an empty segment is not', async () => {
      expect((await call(dev, '/v1/projects/')).status).toBe(200);
      await notFound(await call(dev, '/v1//projects'), '/v1//projects');
    });

    it('percent-decodes path parameters; dot segments and encoded slashes never reach a handler', async () => {
      // fetch would normalise these away, so they go over a raw socket.
      for (const path of [
        '/v1/tasks/..%2Fprojects',
        '/v1/tasks/%2e%2e',
        '/v1/projects/../projects',
        '/v1/tasks/a%2Fb/attachments',
        '/v1/tasks/%E0%A4%A',
      ]) {
        const response = await raw(dev.port, `GET ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer good\r\nConnection: close\r\n\r\n`);
        const resolved = new URL(path, 'http://x').pathname;
        if (mount === 'hono' && resolved !== path) {
          // A Fetch `Request` carries a WHATWG URL: its dot segments are resolved before any
          // handler runs, so the server sees (and answers) the resolved path instead.
          expect(response.status, path).toBe((await call(dev, resolved)).status);
          continue;
        }
        expect(response.status, path).toBe(400);
        if (mount === 'fastify' && path.includes('%A4%A')) continue; // Fastify's router answers a malformed escape itself (its JSON).
        expect(response.headers['content-type']).toBe(PROBLEM);
      }
      // An encoded character that is not a slash is data: `%20` decodes into the parameter.
      const spaced = await call(dev, '/v1/projects/not%20a%20uuid');
      const body = await problem(spaced, 422);
      expect(body.errors).toEqual([{ pointer: '/path/projectId', keyword: 'format', message: 'must be a valid uuid' }]);
    });

    it('serves separate handler sets under /v1 and /v2, and falls through to `next` outside them', async () => {
      const v1 = usage.listener({ basePath: '/v1' }, usage.createHandlers('v1'));
      const v2 = usage.listener({ basePath: '/v2' }, usage.createHandlers('v2'));
      const both = await mounted(api.combine(v1, v2));
      try {
        for (const version of ['v1', 'v2']) {
          const created = await fetch(`${both.url}/${version}/projects`, {
            method: 'POST',
            body: JSON.stringify({ name: version }),
            headers: { ...AUTH, 'content-type': 'application/json' },
          });
          expect(created.status).toBe(201);
          expect(created.headers.get('x-version')).toBe(version);
          expect(created.headers.get('location')).toMatch(new RegExp(`^/${version}/projects/`));
          const list = (await (await fetch(`${both.url}/${version}/projects`, { headers: AUTH })).json()) as {
            items: Array<{ name: string }>;
          };
          expect(list.items.map((item) => item.name)).toEqual([version]);
        }
        await notFound(await fetch(`${both.url}/v3/projects`, { headers: AUTH }), '/v3/projects');

        // As middleware: paths outside the API go to next().
        const nexted: string[] = [];
        const middleware = await start((req, res) =>
          v1(req, res, () => {
            nexted.push(req.url ?? '');
            res.writeHead(299).end();
          }),
        );
        try {
          expect((await fetch(`${middleware.url}/elsewhere`)).status).toBe(299);
          expect((await fetch(`${middleware.url}/v1/projects`, { headers: AUTH })).status).toBe(200);
          expect(nexted).toEqual(['/elsewhere']);
        } finally {
          await middleware.close();
        }
      } finally {
        await both.close();
      }
    });

    it('works behind a body parser that already read the stream (Express `express.json()`)', async () => {
      const inner = usage.listener();
      const server = await start((req, res) => {
        let text = '';
        req.setEncoding('utf8');
        req.on('data', (chunk: string) => (text += chunk));
        req.on('end', () => {
          Object.assign(req, { body: text ? JSON.parse(text) : undefined });
          inner(req, res);
        });
      });
      try {
        const response = await fetch(`${server.url}/v1/projects`, {
          method: 'POST',
          body: JSON.stringify({ name: 'Parsed' }),
          headers: { ...AUTH, 'content-type': 'application/json' },
        });
        expect(response.status).toBe(201);
        expect(await response.json()).toMatchObject({ name: 'Parsed' });
      } finally {
        await server.close();
      }
    });
  });

  describe('input', () => {
    it('malformed JSON → 400', async () => {
      const response = await call(dev, '/v1/projects', {
        method: 'POST',
        body: '{"name": "x"',
        headers: { 'content-type': 'application/json' },
      });
      const body = await problem(response, 400);
      expect(body.detail).toMatch(/^The body is not valid JSON/);
    });

    it('a parameter that cannot be read as its type → 400 naming it', async () => {
      const body = await problem(await call(dev, '/v1/projects?page=two&pageSize=1e3'), 400);
      expect(body.errors).toEqual([
        { pointer: '/query/page', keyword: 'type', message: 'must be an integer' },
        { pointer: '/query/pageSize', keyword: 'type', message: 'must be an integer' },
      ]);
    });

    it('schema failures → 422 with a pointer for each, prefixed by where', async () => {
      const { id } = await project();
      const response = await call(dev, `/v1/projects/${id}/tasks?ignored=1`, {
        method: 'POST',
        body: JSON.stringify({ title: '', status: 'later', labels: [{ name: 'Bad Name' }] }),
        headers: { 'content-type': 'application/json' },
      });
      const body = await problem(response, 422);
      expect(body.title).toBe('Unprocessable Content');
      expect(body.errors).toEqual(
        expect.arrayContaining([
          { pointer: '/body/title', keyword: 'minLength', message: 'must have at least 1 character' },
          { pointer: '/body/status', keyword: 'enum', message: expect.stringContaining('must be one of') },
          { pointer: '/body/labels/0/name', keyword: 'pattern', message: expect.any(String) },
        ]),
      );
      const query = await problem(await call(dev, '/v1/projects?page=0'), 422);
      expect(query.errors).toEqual([{ pointer: '/query/page', keyword: 'minimum', message: 'must be >= 1' }]);
      const missing = await problem(await call(dev, '/v1/projects', { method: 'POST' }), 422);
      expect(missing.errors).toEqual([{ pointer: '/body', keyword: 'required', message: 'is required' }]);
    });

    it('a Content-Type the operation does not take → 415 saying what it takes', async () => {
      const text = await call(dev, '/v1/projects', { method: 'POST', body: 'name=x', headers: { 'content-type': 'text/plain' } });
      const body = await problem(text, 415);
      expect(text.headers.get('accept-post')).toBe('application/json');
      expect(body.detail).toContain('text/plain');
      const { id } = await project();
      const created = await task(id, { title: 'Patch me' });
      const patch = await call(dev, `/v1/tasks/${created.id}`, {
        method: 'PATCH',
        body: '{}',
        headers: { 'content-type': 'application/json' },
      });
      await problem(patch, 415);
      expect(patch.headers.get('accept-patch')).toBe('application/merge-patch+json');
    });

    it('reads multipart bodies: files as Blobs, fields by schema', async () => {
      const { id } = await project();
      const created = await task(id, { title: 'Attach' });
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(1000)]), 'data.bin');
      form.append('caption', 'zeros');
      const response = await call(dev, `/v1/tasks/${created.id}/attachments`, { method: 'POST', body: form });
      expect(response.status).toBe(201);
      expect(await response.json()).toMatchObject({ size: 1000, caption: 'zeros' });
      const noFile = new FormData();
      noFile.append('caption', 'nothing');
      const invalid = await problem(await call(dev, `/v1/tasks/${created.id}/attachments`, { method: 'POST', body: noFile }), 422);
      expect(invalid.errors).toEqual([{ pointer: '/body/file', keyword: 'required', message: 'is required' }]);
    });
  });

  describe('limits', () => {
    it('a body over the limit → 413, and the connection closes', async () => {
      const big = JSON.stringify({ name: 'x', description: 'y'.repeat(20 * 1024) });
      const response = await call(dev, '/v1/projects', { method: 'POST', body: big, headers: { 'content-type': 'application/json' } });
      const body = await problem(response, 413);
      expect(body.detail).toBe('The request body exceeds 16384 bytes.');
      expect(response.headers.get('connection')).toBe('close');
    });

    it('a chunked body growing over the limit → 413 without buffering the rest', async () => {
      let sent = 0;
      const stream = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent > 1024 * 1024) return controller.close();
          sent += 8192;
          controller.enqueue(new Uint8Array(8192).fill(32));
        },
      });
      // `duplex` is required for a streamed body, and not yet in the DOM types of RequestInit.
      const init = { method: 'POST', body: stream, headers: { 'content-type': 'application/json' }, duplex: 'half' } as RequestInit & {
        headers: Record<string, string>;
      };
      const response = await call(dev, '/v1/projects', init);
      await problem(response, 413);
    });

    it('a URI over the limit → 414', async () => {
      const response = await call(dev, `/v1/projects?page=1&x=${'a'.repeat(9000)}`);
      const body = await problem(response, 414);
      expect(body.detail).toContain('8192');
    });

    it("headers over node's maxHeaderSize → 431 (a problem body with createHttpServer)", async () => {
      const head = `GET /v1/projects HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20 * 1024)}\r\nConnection: close\r\n\r\n`;
      // Plain http.createServer: node answers by itself, before any listener, with no body
      // (Fastify answers on the server it is given, in its own JSON).
      const plain = await raw(dev.port, head);
      expect(plain.status).toBe(431);
      if (mount !== 'fastify') expect(plain.body).toBe('');
      // createHttpServer: the same limit, answered as Problem Details.
      const hosted = await mounted(usage.listener(), (app) => api.createHttpServer(app, { maxHeaderSize: 8 * 1024 }));
      try {
        const response = await raw(hosted.port, head);
        expect(response.status).toBe(431);
        expect(response.headers['content-type']).toBe(PROBLEM);
        expect(JSON.parse(response.body)).toMatchObject({
          status: 431,
          title: 'Request Header Fields Too Large',
          traceId: response.headers['trace-id'],
        });
      } finally {
        await hosted.close();
      }
    });

    it('a body that does not arrive in time → 408', async () => {
      const head =
        'POST /v1/projects HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer good\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n';
      const started = Date.now();
      const response = await raw(dev.port, head, { body: '{"name":', timeout: 3000 });
      expect(response.status).toBe(408);
      expect(response.headers['content-type']).toBe(PROBLEM);
      expect(response.headers.connection).toBe('close');
      expect(JSON.parse(response.body)).toMatchObject({ status: 408, title: 'Request Timeout' });
      expect(Date.now() - started).toBeLessThan(2500);
    });
  });

  describe('errors', () => {
    it('an uncaught handler exception → 500 without stack or message in production; the server keeps running', async () => {
      const response = await call(prod, `/v1/tasks/${usage.FAILING_TASK}`, { method: 'DELETE' });
      const body = await problem(response, 500);
      expect(body).toEqual({
        type: 'about:blank',
        title: 'Internal Server Error',
        status: 500,
        instance: `/v1/tasks/${usage.FAILING_TASK}`,
        traceId: expect.any(String),
      });
      expect(JSON.stringify(body)).not.toMatch(/postgres|hunter2|refused/);
      expect((await call(prod, '/v1/projects')).status).toBe(200);
    });

    it('in development a 500 says the message, never the stack', async () => {
      const body = await problem(await call(dev, `/v1/tasks/${usage.FAILING_TASK}`, { method: 'DELETE' }), 500);
      expect(body.detail).toBe('connection to postgres://admin:hunter2@db.internal:5432/tasks refused');
      expect(JSON.stringify(body)).not.toMatch(/ at |\.js:\d/);
    });

    it('a thrown HttpProblem is answered as it says', async () => {
      const body = await problem(await call(prod, `/v1/projects/${MISSING}`), 404);
      expect(body).toMatchObject({ title: 'Not Found', detail: `No project ${MISSING}.`, instance: `/v1/projects/${MISSING}` });
    });

    it('every response carries Trace-Id; problems repeat it; a W3C traceparent is honoured', async () => {
      const ok = await call(dev, '/v1/projects');
      expect(ok.headers.get('trace-id')).toMatch(/^[\w-]{8,}$/);
      const failed = await call(dev, '/v1/projects/not-a-uuid');
      const body = await problem(failed, 422);
      expect(body.traceId).toBe(failed.headers.get('trace-id'));
      expect(failed.headers.get('trace-id')).not.toBe(ok.headers.get('trace-id'));
      if (!passesOn) {
        // Also where no route matched.
        const lost = await call(dev, '/nowhere');
        expect((await problem(lost, 404)).traceId).toBe(lost.headers.get('trace-id'));
      }
      const traced = await call(dev, '/v1/projects', {
        headers: { traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' },
      });
      expect(traced.headers.get('trace-id')).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
      // A trace id that could inject a header is not taken.
      const injected = await call(dev, '/v1/projects', { headers: { 'x-request-id': 'a b;c' } });
      expect(injected.headers.get('trace-id')).not.toBe('a b;c');
    });

    it('the handler context carries the traceId and the principal', async () => {
      const { id } = await project();
      const response = await call(dev, `/v1/projects/${id}`, { headers: { 'trace-id': 'trace-123' } });
      expect(response.headers.get('trace-id')).toBe('trace-123');
      expect(response.headers.get('x-trace-id')).toBe('trace-123');
    });
  });

  describe('pagination, sort, filter, fields', () => {
    let projectIds: string[] = [];
    let tasksProject = '';
    let paged: Running;

    beforeAll(async () => {
      // A server of its own, so the counts do not depend on the other tests.
      const server = await mounted(usage.listener());
      const make = (path: string, body: unknown) =>
        fetch(server.url + path, { method: 'POST', body: JSON.stringify(body), headers: { ...AUTH, 'content-type': 'application/json' } });
      projectIds = [];
      for (const name of ['e', 'c', 'a', 'd', 'b'])
        projectIds.push(((await (await make('/v1/projects', { name })).json()) as { id: string }).id);
      tasksProject = projectIds[0];
      const statuses = ['todo', 'done', 'todo', 'in_progress', 'done'];
      for (const [index, status] of statuses.entries())
        await make(`/v1/projects/${tasksProject}/tasks`, { title: `t${5 - index}`, status, labels: [{ name: 'x' }] });
      paged = server;
    });
    afterAll(async () => {
      await paged?.close();
    });

    it('page/pageSize: defaults applied, bounded by the schema, next/prev links in Link', async () => {
      const first = await fetch(`${paged.url}/v1/projects`, { headers: AUTH });
      expect(await first.json()).toMatchObject({ page: 1, pageSize: 20, total: 5 });
      const second = await fetch(`${paged.url}/v1/projects?pageSize=2&page=2`, { headers: AUTH });
      expect(second.status).toBe(200);
      expect(((await second.json()) as { items: unknown[] }).items).toHaveLength(2);
      expect(second.headers.get('link')).toBe(
        '</v1/projects?page=1&pageSize=2>; rel="first", </v1/projects?page=1&pageSize=2>; rel="prev", ' +
          '</v1/projects?page=3&pageSize=2>; rel="next", </v1/projects?page=3&pageSize=2>; rel="last"',
      );
      const tooBig = await problem(await fetch(`${paged.url}/v1/projects?pageSize=500`, { headers: AUTH }), 422);
      expect(tooBig.errors).toEqual([{ pointer: '/query/pageSize', keyword: 'maximum', message: 'must be <= 100' }]);
    });

    it('cursor/limit: a Link to the next page while there is one', async () => {
      const first = await fetch(`${paged.url}/v1/projects/${tasksProject}/tasks?limit=2&sort=title`, { headers: AUTH });
      const page = (await first.json()) as { items: Array<{ title: string }>; nextCursor: string | null };
      expect(page.items.map((item) => item.title)).toEqual(['t1', 't2']);
      expect(first.headers.get('link')).toBe(`</v1/projects/${tasksProject}/tasks?limit=2&sort=title&cursor=2>; rel="next"`);
      const last = await fetch(`${paged.url}/v1/projects/${tasksProject}/tasks?limit=2&sort=title&cursor=4`, { headers: AUTH });
      expect(((await last.json()) as { nextCursor: unknown }).nextCursor).toBeNull();
      expect(last.headers.get('link')).toBeNull();
      await problem(await fetch(`${paged.url}/v1/projects/${tasksProject}/tasks?limit=101`, { headers: AUTH }), 422);
    });

    it('sort: parsed into typed fields (`-` descending); undeclared fields → 422', async () => {
      const descending = await fetch(`${paged.url}/v1/projects?sort=-name`, { headers: AUTH });
      expect(((await descending.json()) as { items: Array<{ name: string }> }).items.map((item) => item.name)).toEqual([
        'e',
        'd',
        'c',
        'b',
        'a',
      ]);
      // Without `sort`, the handler gets the schema's default (`name`) parsed, and its doc says so.
      const byDefault = await fetch(`${paged.url}/v1/projects`, { headers: AUTH });
      expect(((await byDefault.json()) as { items: Array<{ name: string }> }).items.map((item) => item.name)).toEqual([
        'a',
        'b',
        'c',
        'd',
        'e',
      ]);
      const server = readFileSync(join(OUT, 'server.ts'), 'utf8');
      expect(server).toContain(
        '(`-` prefix: descending); when not given, the default `name` parsed the same way.\n   * @default "name"\n   */\n  sort: SortField<"name" | "createdAt">[];',
      );
      // A sort without a default is empty when not given.
      expect(server).toContain(
        '(`-` prefix: descending); empty when not given.\n   * @pattern ^-?(title|dueDate|createdAt)(,-?(title|dueDate|createdAt))*$\n   */\n  sort: SortField<"title" | "dueDate" | "createdAt">[];',
      );
      const bogus = await problem(await fetch(`${paged.url}/v1/projects?sort=-secret`, { headers: AUTH }), 422);
      expect(bogus.errors).toEqual([{ pointer: '/query/sort', keyword: 'enum', message: expect.any(String) }]);
      const pattern = await problem(
        await fetch(`${paged.url}/v1/projects/${tasksProject}/tasks?sort=title,-priority`, { headers: AUTH }),
        422,
      );
      expect(pattern.errors).toEqual([{ pointer: '/query/sort', keyword: 'pattern', message: expect.any(String) }]);
    });

    it('filter[field]: typed and validated, given to the handler as an object', async () => {
      const done = await fetch(`${paged.url}/v1/projects/${tasksProject}/tasks?filter[status]=done`, { headers: AUTH });
      const items = ((await done.json()) as { items: Array<{ status: string }> }).items;
      expect(items.map((item) => item.status)).toEqual(['done', 'done']);
      const encoded = await fetch(`${paged.url}/v1/projects/${tasksProject}/tasks?filter%5Bstatus%5D=todo`, { headers: AUTH });
      expect(((await encoded.json()) as { items: unknown[] }).items).toHaveLength(2);
      const invalid = await problem(
        await fetch(`${paged.url}/v1/projects/${tasksProject}/tasks?filter[status]=open`, { headers: AUTH }),
        422,
      );
      expect(invalid.errors).toEqual([
        { pointer: '/query/filter[status]', keyword: 'enum', message: expect.stringContaining('must be one of') },
      ]);
    });

    it('fields: a sparse fieldset applied to each item of the page', async () => {
      const response = await fetch(`${paged.url}/v1/projects/${tasksProject}/tasks?fields=id,title&limit=2&sort=-title`, { headers: AUTH });
      const page = (await response.json()) as { items: Array<Record<string, unknown>>; nextCursor: unknown };
      expect(page.items).toEqual([
        { id: expect.any(String), title: 't5' },
        { id: expect.any(String), title: 't4' },
      ]);
      expect(page.nextCursor).toBe('2');
      const unknown = await problem(await fetch(`${paged.url}/v1/projects/${tasksProject}/tasks?fields=id,secret`, { headers: AUTH }), 422);
      expect(unknown.errors).toEqual([{ pointer: '/query/fields/1', keyword: 'enum', message: expect.any(String) }]);
    });
  });

  describe('handlers and their context', () => {
    type Handlers = Record<string, (...args: never[]) => unknown>;

    it('validates response bodies in development when asked (a mismatch is a 500), never in production', async () => {
      const broken: Handlers = {
        ...(usage.createHandlers() as Handlers),
        getProject: () => ({ status: 200, body: { id: 'not-a-uuid', name: '' } }),
      };
      const checking = await mounted(usage.listener({ production: false, validateResponses: true }, broken));
      const trusting = await mounted(usage.listener({ production: true, validateResponses: true }, broken));
      try {
        const body = await problem(await fetch(`${checking.url}/v1/projects/${MISSING}`, { headers: AUTH }), 500);
        expect(body.detail).toMatch(/^The 200 response of getProject does not match its schema: \/body\/id must be a valid uuid/);
        const unchecked = await fetch(`${trusting.url}/v1/projects/${MISSING}`, { headers: AUTH });
        expect(unchecked.status).toBe(200);
        expect(await unchecked.json()).toEqual({ id: 'not-a-uuid', name: '' });
      } finally {
        await checking.close();
        await trusting.close();
      }
    });

    it('aborts context.signal when the client goes away', async () => {
      let aborted!: (reason: unknown) => void;
      const seen = new Promise((resolve) => (aborted = resolve));
      const slow: Handlers = {
        ...(usage.createHandlers() as Handlers),
        listProjects: ((_request: unknown, context: { signal: AbortSignal }) =>
          new Promise((resolve) => {
            context.signal.addEventListener('abort', () => {
              aborted(context.signal.reason);
              resolve({ status: 200, body: { items: [], page: 1, pageSize: 1, total: 0 } });
            });
          })) as never,
      };
      const server = await mounted(usage.listener({}, slow));
      try {
        const controller = new AbortController();
        const pending = fetch(`${server.url}/v1/projects`, { headers: AUTH, signal: controller.signal }).catch(() => 'gone');
        await new Promise((resolve) => setTimeout(resolve, 50));
        controller.abort();
        expect(await pending).toBe('gone');
        expect(await seen).toBeInstanceOf(Error);
      } finally {
        await server.close();
      }
    });

    it('refuses to start without auth settings when the document declares security', () => {
      expect(() => usage.listener({ auth: undefined })).toThrow(/pass auth: \{ verify \}/);
    });
  });

  describe('conventions around the handler (wiring only: the stages have their own tests)', () => {
    it('no credentials → 401 with WWW-Authenticate, before the body is read', async () => {
      const response = await fetch(`${dev.url}/v1/projects`, {
        method: 'POST',
        body: 'not json',
        headers: { 'content-type': 'application/json' },
      });
      await problem(response, 401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer realm="api"');
    });

    it('GET carries an ETag; If-None-Match with it → 304 without a body, for HEAD too', async () => {
      const { id } = await project('Cached');
      const first = await call(dev, `/v1/projects/${id}`);
      const etag = first.headers.get('etag')!;
      expect(first.headers.get('cache-control')).toBe('private, no-cache');
      for (const method of ['GET', 'HEAD']) {
        const again = await call(dev, `/v1/projects/${id}`, { method, headers: { 'if-none-match': etag } });
        expect(again.status, method).toBe(304);
        expect(again.headers.get('etag')).toBe(etag);
        expect(await again.text()).toBe('');
      }
    });

    it('a POST repeated with its Idempotency-Key replays the first response', async () => {
      const send = () =>
        call(dev, '/v1/projects', {
          method: 'POST',
          body: JSON.stringify({ name: 'Once' }),
          headers: { 'content-type': 'application/json', 'idempotency-key': 'key-1' },
        });
      const first = await send();
      const second = await send();
      expect(second.status).toBe(201);
      expect(second.headers.get('idempotent-replayed')).toBe('true');
      expect(second.headers.get('location')).toBe(first.headers.get('location'));
      expect(await second.json()).toEqual(await first.json());
    });

    it('only operations that declare an Idempotency-Key header say so in their descriptor (`idempotencyKey: true`)', () => {
      const server = readFileSync(join(OUT, 'server-routes.js'), 'utf8');
      const flagged = [...server.matchAll(/\n    id: "(\w+)",[^]*?\n  \},?\n/g)]
        .filter((match) => match[0].includes('\n    idempotencyKey: true,\n'))
        .map((match) => match[1]);
      expect(flagged.sort()).toEqual(['createProject', 'createTask']);
      // No `idempotent: false` on a GET: the old name said the opposite of what it meant.
      expect(server).not.toMatch(/\bidempotent:/);
    });

    it("CORS: preflights answered from the allow-list with the path's methods; problems carry the headers too", async () => {
      const server = await mounted(usage.listener({ cors: { origins: ['https://app.example.com'], credentials: true } }));
      try {
        const preflight = await fetch(`${server.url}/v1/projects/${MISSING}`, {
          method: 'OPTIONS',
          headers: {
            origin: 'https://app.example.com',
            'access-control-request-method': 'DELETE',
            'access-control-request-headers': 'authorization',
          },
        });
        expect(preflight.status).toBe(204);
        expect(preflight.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
        expect(preflight.headers.get('access-control-allow-methods')).toBe('GET, HEAD, DELETE, OPTIONS');
        const missing = await fetch(`${server.url}/v1/projects/${MISSING}`, { headers: { ...AUTH, origin: 'https://app.example.com' } });
        await problem(missing, 404);
        expect(missing.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
        expect(missing.headers.get('access-control-allow-credentials')).toBe('true');
      } finally {
        await server.close();
      }
    });
  });

  describe('parameter styles, mixed segments, form and text bodies (a second document)', () => {
    const folder = mkdtempSync(join(ROOT, '.vitest-tmp', 'server-styles-'));
    let styles: Running;

    beforeAll(async () => {
      const input = join(folder, 'styles.yaml');
      writeFileSync(input, STYLES_API);
      writeFiles(join(folder, 'out'), await generateServerFiles(input));
      writeFileSync(join(folder, 'out', 'usage.ts'), STYLES_USAGE_SOURCE);
      transpileFolder(join(folder, 'out'));
      const module = (await import(pathToFileURL(join(folder, 'out', 'usage.js')).href)) as { listener(): Parameters<typeof start>[0] };
      styles = await mounted(module.listener());
    });

    afterAll(async () => {
      await styles?.close();
      rmSync(folder, { recursive: true, force: true });
    });

    it('type-checks under both compilers', () => {
      for (const compiler of Object.values(COMPILERS))
        expect(errorsOf(typecheck(join(folder, 'out'), compiler, 'node').output)).toEqual([]);
    });

    it('reads form-exploded and pipe-delimited lists, deepObject, header lists, cookies and defaults', async () => {
      const response = await fetch(`${styles.url}/search?ids=1&ids=2&tags=a|b%7Cc&range[min]=1.5&range%5Bmax%5D=3`, {
        headers: { 'x-ids': '4, 5', cookie: 'other=1; session=abc' },
      });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({
        ids: [1, 2],
        tags: ['a', 'b', 'c'],
        flag: false,
        range: { min: 1.5, max: 3 },
        xIds: [4, 5],
        session: 'abc',
      });
      expect(await (await fetch(`${styles.url}/search?flag=true`)).json()).toEqual({ flag: true });
    });

    it('refuses unreadable values with 400 and schema failures with 422, by location', async () => {
      const unreadable = await problem(await fetch(`${styles.url}/search?ids=1&ids=x&flag=yes`, { headers: { 'x-ids': '1,two' } }), 400);
      expect(unreadable.errors).toEqual([
        { pointer: '/query/ids', keyword: 'type', message: 'must be a list of integers' },
        { pointer: '/query/flag', keyword: 'type', message: 'must be true or false' },
        { pointer: '/header/X-Ids', keyword: 'type', message: 'must be a list of integers' },
      ]);
      const invalid = await problem(await fetch(`${styles.url}/search?range[max]=500`), 422);
      expect(invalid.errors).toEqual([{ pointer: '/query/range/max', keyword: 'maximum', message: 'must be <= 100' }]);
    });

    it('routes segments that mix text and parameters; literal segments win', async () => {
      expect(await (await fetch(`${styles.url}/files/read.me.md`)).text()).toBe('read.me as md');
      expect(await (await fetch(`${styles.url}/files/index`)).text()).toBe('index');
      const wrong = await problem(await fetch(`${styles.url}/files/readme.pdf`), 422);
      expect(wrong.errors).toEqual([{ pointer: '/path/ext', keyword: 'enum', message: expect.any(String) }]);
    });

    it('reads urlencoded forms by their schema', async () => {
      const form = (body: string) =>
        fetch(`${styles.url}/forms`, { method: 'POST', body, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
      expect(await (await form('count=3&tags=a&tags=b+c')).json()).toEqual({ count: 3, tags: ['a', 'b c'] });
      const invalid = await problem(await form('count=0'), 422);
      expect(invalid.errors).toEqual([{ pointer: '/body/count', keyword: 'minimum', message: 'must be >= 1' }]);
      await problem(await form('count=three'), 400);
    });

    it('reads text bodies as strings and answers text', async () => {
      const response = await fetch(`${styles.url}/notes`, {
        method: 'PUT',
        body: 'héllo',
        headers: { 'content-type': 'text/plain; charset=utf-8' },
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/plain');
      expect(await response.text()).toBe('HÉLLO');
    });
  });

  if (mount === 'express')
    describe('under an Express mount prefix: app.use("/v1", api) with basePath ""', () => {
      let prefixed: Running | undefined;
      beforeAll(async () => {
        const listener = usage.listener({ basePath: '' });
        const app = express();
        app.use('/v1', listener);
        prefixed = await start(listener, createServer(app));
      });
      afterAll(() => prefixed?.close());

      it('serves the routes below the prefix and keeps it in Location and Link (from originalUrl)', async () => {
        const url = prefixed!.url;
        const ids: string[] = [];
        for (const name of ['First', 'Second']) {
          const created = await fetch(`${url}/v1/projects`, {
            method: 'POST',
            headers: { ...AUTH, 'content-type': 'application/json' },
            body: JSON.stringify({ name }),
          });
          expect(created.status).toBe(201);
          const { id } = (await created.json()) as { id: string };
          expect(created.headers.get('location')).toBe(`/v1/projects/${id}`);
          ids.push(id);
        }
        const read = await fetch(`${url}/v1/projects/${ids[0]}`, { headers: AUTH });
        expect(read.status).toBe(200);
        expect(await read.json()).toMatchObject({ id: ids[0], name: 'First' });
        const page = await fetch(`${url}/v1/projects?page=1&pageSize=1`, { headers: AUTH });
        expect(page.status).toBe(200);
        expect(page.headers.get('link')).toContain('</v1/projects?page=2&pageSize=1>; rel="next"');
        // Outside the prefix nothing reaches the server: Express answers its own 404.
        const outside = await fetch(`${url}/projects`, { headers: AUTH });
        expect(outside.status).toBe(404);
        expect(outside.headers.get('content-type')).not.toBe(PROBLEM);
      });
    });
}
