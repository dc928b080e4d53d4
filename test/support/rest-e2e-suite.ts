/**
 * The REST example end to end: `node dist/examples/rest/main.js` (what `npm run example:rest`
 * runs, with `MOUNT=<mount>`: its own listener, or the API mounted in Fastify, Hono, Express or Koa
 * by examples/rest/mounts.ts) is started on 127.0.0.1 with PORT=0, and the generated client (out/rest/client.ts, as
 * compiled into dist/) round-trips every operation of schemas/openapi/tasks.yaml against it,
 * errors included (401, 403, 404, 412, 413, 422, 429). Every response of the suite, from the
 * client and from the few plain `fetch` calls, is recorded and checked by an independent
 * validator (ajv with the document's own schemas, support/e2e-openapi.ts): declared status,
 * declared content type, body valid against its schema, required headers present.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Mount } from '../../examples/rest/mounts.js';
import type { Task } from '../../out/rest/types.js';
import { ROOT } from './cli.js';
import { EDITOR_TOKEN, importDist, READER_TOKEN, startExample, type RunningExample } from './e2e-example.js';
import { send } from './e2e-fuzz.js';
import { OpenApiChecker, recordingFetch, type CheckResult, type Exchange } from './e2e-openapi.js';

type ClientModule = typeof import('../../out/rest/client.js');
type ResponseValidatorsModule = typeof import('../../out/rest/response-validators.js');

/** The whole suite against the example served as `mount` says. */
export function restE2eSuite(mount: Mount): void {
  const exchanges: Exchange[] = [];
  const recorded = recordingFetch(exchanges);
  /** Responses that break the document in a way reported to the generator's owners (see below). */
  const knownExchanges: Exchange[] = [];
  let checker: OpenApiChecker;
  let lib: ClientModule;
  let validators: ResponseValidatorsModule;
  let example: RunningExample;
  /** A second instance with a budget of 3 requests a minute, for the 429. */
  let tight: RunningExample;

  function client(options: { token?: string; cache?: boolean; url?: string } = {}) {
    const token = 'token' in options ? options.token : EDITOR_TOKEN;
    return lib.createClient({
      baseUrl: `${options.url ?? example.url}/v1`,
      auth: token === undefined ? {} : { bearerAuth: token },
      fetch: recorded,
      ...(options.cache ? { cache: lib.etagCache() } : {}),
      // Retries would hide the statuses under test (429 is retried by default).
      retry: false,
      validateResponses: validators.responseValidators,
    });
  }

  /** The error a call rejects with (failing the test if it resolves). */
  async function rejection(promise: Promise<unknown>): Promise<unknown> {
    try {
      await promise;
    } catch (error) {
      return error;
    }
    throw new Error('expected the call to fail');
  }

  /** Raw `fetch` to the example, recorded like the client's calls. */
  function raw(path: string, init: RequestInit & { headers?: Record<string, string> } = {}): Promise<Response> {
    return recorded(example.url + path, { ...init, headers: { authorization: `Bearer ${EDITOR_TOKEN}`, ...init.headers } });
  }

  beforeAll(async () => {
    checker = new OpenApiChecker();
    lib = await importDist<ClientModule>('out/rest/client.js');
    validators = await importDist<ResponseValidatorsModule>('out/rest/response-validators.js');
    [example, tight] = await Promise.all([
      startExample({ MOUNT: mount, RATE_LIMIT: '100000' }),
      startExample({ MOUNT: mount, RATE_LIMIT: '3', RATE_LIMIT_WINDOW_MS: '60000' }),
    ]);
  });

  afterAll(async () => {
    await Promise.all([example?.stop(), tight?.stop()]);
  });

  describe('the example server (npm run example:rest)', () => {
    it('is what `npm run example:rest` starts, and printed `listening on <url>` first', () => {
      const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
      expect(scripts['example:rest']).toBe('node dist/examples/rest/main.js');
      expect(example.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(example.port).toBeGreaterThan(0);
    });

    it('answers its health check without credentials', async () => {
      const response = await fetch(`${example.url}/healthz`);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ status: 'ok' });
    });
  });

  describe('the generated client against the example, every operation', () => {
    it('projects: create with Idempotency-Key (replayed), list by page and pageSize, iterate, get with ETag then a 304, delete', async () => {
      const api = client();
      const key = `project-${Date.now()}`;
      const first = await api
        .createProject({ idempotencyKey: key, body: { name: 'Roadmap', description: 'What comes next' } })
        .withResponse();
      expect(first.status).toBe(201);
      expect(first.data).toMatchObject({
        name: 'Roadmap',
        description: 'What comes next',
        id: expect.any(String),
        createdAt: expect.any(String),
      });
      expect(first.headers.get('location')).toBe(`/v1/projects/${first.data.id}`);
      const replay = await api
        .createProject({ idempotencyKey: key, body: { name: 'Roadmap', description: 'What comes next' } })
        .withResponse();
      expect(replay.status).toBe(201);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(replay.data).toEqual(first.data);

      const names = ['Alpha', 'Bravo', 'Charlie', 'Delta', 'Echo'];
      for (const name of names) await api.createProject({ body: { name } });

      const page = await api.listProjects({ page: 2, pageSize: 2, sort: 'name' }).withResponse();
      expect(page.status).toBe(200);
      expect(page.data.page).toBe(2);
      expect(page.data.pageSize).toBe(2);
      expect(page.data.total).toBeGreaterThanOrEqual(6);
      expect(page.data.items).toHaveLength(2);
      expect(page.headers.get('link')).toMatch(/rel="next"/);
      expect(page.headers.get('link')).toMatch(/rel="prev"/);
      const descending = await api.listProjects({ sort: '-name', pageSize: 100 });
      const sorted = descending.items.map((project) => project.name);
      expect(sorted).toEqual([...sorted].sort().reverse());

      const all: string[] = [];
      for await (const project of api.listProjectsAll({ pageSize: 2, sort: 'createdAt' })) all.push(project.name);
      expect(all).toEqual(expect.arrayContaining(['Roadmap', ...names]));

      const cached = client({ cache: true });
      const got = await cached.getProject({ projectId: first.data.id }).withResponse();
      expect(got.status).toBe(200);
      const etag = got.headers.get('etag');
      expect(etag).toMatch(/^"[\w-]+"$/);
      expect(got.headers.get('cache-control')).toBe('private, max-age=60');
      expect(got.headers.get('last-modified')).toBe(new Date(first.data.createdAt).toUTCString());
      const before = exchanges.length;
      const again = await cached.getProject({ projectId: first.data.id }).withResponse();
      // The server answered 304 to If-None-Match; the client served its cached copy.
      expect(exchanges.slice(before).map((exchange) => exchange.status)).toEqual([304]);
      expect(again.status).toBe(200);
      expect(again.data).toEqual(got.data);

      const deleted = await api.deleteProject({ projectId: first.data.id }).withResponse();
      expect(deleted.status).toBe(204);
      expect(deleted.data).toBeUndefined();
      const gone = await rejection(api.getProject({ projectId: first.data.id }));
      expect(lib.isApiError(gone, 'getProject') && gone.status === 404 && gone.data.title).toBe('Not Found');
      // Deleting again is still 204 (the document says: also when it was already gone).
      expect((await api.deleteProject({ projectId: first.data.id }).withResponse()).status).toBe(204);
    });

    it('tasks: create with Idempotency-Key, list by cursor with the async iterator, sort, filter and fields', async () => {
      const api = client();
      const project = await api.createProject({ body: { name: 'Tasks' } });
      const specs: Array<Omit<Task, 'id' | 'createdAt'>> = [
        { title: 'charlie', status: 'todo', dueDate: '2025-03-01', assignee: { kind: 'person', email: 'ana@example.com' } },
        { title: 'alpha', status: 'done', dueDate: '2025-01-01', labels: [{ name: 'docs', color: '#00ff00' }] },
        { title: 'echo', status: 'in_progress', assignee: { kind: 'team', team: 'platform' }, estimateHours: 1.5 },
        { title: 'bravo', status: 'done', assignee: { kind: 'person', email: 'ana@example.com' }, metadata: { source: 'import' } },
        { title: 'delta', status: 'todo', dueDate: '2025-02-01', subtasks: [{ title: 'delta.1', status: 'todo' } as Task] },
      ];
      const created: Task[] = [];
      for (const [index, body] of specs.entries()) {
        const response = await api
          .createTask({ projectId: project.id, idempotencyKey: `task-${project.id}-${index}`, body })
          .withResponse();
        expect(response.status).toBe(201);
        expect(response.headers.get('location')).toBe(`/v1/tasks/${response.data.id}`);
        created.push(response.data);
      }
      expect(created[4].subtasks?.[0]).toMatchObject({ title: 'delta.1', id: expect.any(String), createdAt: expect.any(String) });
      // The same key and body again: the stored response, not a sixth task.
      const replay = await api.createTask({ projectId: project.id, idempotencyKey: `task-${project.id}-0`, body: specs[0] }).withResponse();
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(replay.data.id).toBe(created[0].id);

      // Cursor pages of 2, followed by the iterator: 3 requests, every task once.
      const before = exchanges.length;
      const iterated: string[] = [];
      for await (const task of api.listProjectTasksAll({ projectId: project.id, limit: 2 })) iterated.push(task.title);
      expect(iterated).toEqual(['charlie', 'alpha', 'echo', 'bravo', 'delta']);
      const pages = exchanges.slice(before).filter((exchange) => exchange.url.includes('/tasks'));
      expect(pages).toHaveLength(3);
      expect(pages[1].url).toMatch(/[?&]cursor=/);
      expect(pages[0].headers.link).toMatch(/rel="next"/);

      const first = await api.listProjectTasks({ projectId: project.id, limit: 2 });
      expect(first.nextCursor).toEqual(expect.any(String));
      const second = await api.listProjectTasks({ projectId: project.id, limit: 2, cursor: first.nextCursor! });
      expect(second.items.map((task) => task.title)).toEqual(['echo', 'bravo']);

      const byTitle = await api.listProjectTasks({ projectId: project.id, sort: '-title' });
      expect(byTitle.items.map((task) => task.title)).toEqual(['echo', 'delta', 'charlie', 'bravo', 'alpha']);
      const byDue = await api.listProjectTasks({ projectId: project.id, sort: 'dueDate,title' });
      expect(byDue.items.map((task) => task.title)).toEqual(['alpha', 'delta', 'charlie', 'bravo', 'echo']);
      const done = await api.listProjectTasks({ projectId: project.id, filterStatus: 'done', sort: 'title' });
      expect(done.items.map((task) => task.title)).toEqual(['alpha', 'bravo']);
      const ana = await api.listProjectTasks({ projectId: project.id, filterAssignee: 'ana@example.com', filterStatus: 'todo' });
      expect(ana.items.map((task) => task.title)).toEqual(['charlie']);
      const team = await api.listProjectTasks({ projectId: project.id, filterAssignee: 'platform' });
      expect(team.items.map((task) => task.title)).toEqual(['echo']);

      // A sparse fieldset; it keeps the required properties so the body still matches TaskPage.
      const sparse = await api.listProjectTasks({
        projectId: project.id,
        fields: ['id', 'title', 'status', 'createdAt'],
        sort: 'title',
        limit: 3,
      });
      expect(sparse.items).toHaveLength(3);
      for (const item of sparse.items) expect(Object.keys(item).sort()).toEqual(['createdAt', 'id', 'status', 'title']);
      expect(sparse.items[0]).toEqual({ id: created[1].id, title: 'alpha', status: 'done', createdAt: created[1].createdAt });

      const missing = await rejection(api.listProjectTasks({ projectId: '7d3f4c1e-0000-4000-8000-00000000dead' }));
      expect(lib.isApiError(missing, 'listProjectTasks') && missing.status).toBe(404);
    });

    it('tasks: get with ETag, replace with If-Match (412 when stale), merge-patch, upload an attachment, delete', async () => {
      const api = client();
      const project = await api.createProject({ body: { name: 'Lifecycle' } });
      const task = await api.createTask({
        projectId: project.id,
        body: { title: 'Draft', status: 'todo', dueDate: '2025-05-01', assignee: { kind: 'person', email: 'bo@example.com' } },
      });

      const got = await api.getTask({ taskId: task.id }).withResponse();
      expect(got.status).toBe(200);
      expect(got.data).toEqual(task);
      const etag = got.headers.get('etag')!;
      expect(etag).toMatch(/^"[\w-]+"$/);
      // Conditional GET through the client's If-None-Match parameter: a 304 is not an error.
      const notModified = await raw(`/v1/tasks/${task.id}`, { headers: { 'if-none-match': etag } });
      expect(notModified.status).toBe(304);
      expect(await notModified.text()).toBe('');

      const replaced = await api
        .replaceTask({ taskId: task.id, ifMatch: etag, body: { title: 'Final', status: 'in_progress', estimateHours: 2.25 } })
        .withResponse();
      expect(replaced.status).toBe(200);
      expect(replaced.data).toMatchObject({
        id: task.id,
        title: 'Final',
        status: 'in_progress',
        estimateHours: 2.25,
        createdAt: task.createdAt,
        updatedAt: expect.any(String),
      });
      expect(replaced.data.dueDate).toBeUndefined();
      const newEtag = replaced.headers.get('etag')!;
      expect(newEtag).not.toBe(etag);

      const stale = await rejection(api.replaceTask({ taskId: task.id, ifMatch: etag, body: { title: 'Lost update', status: 'done' } }));
      expect(lib.isApiError(stale, 'replaceTask') && stale.status).toBe(412);
      expect((await api.getTask({ taskId: task.id })).title).toBe('Final');

      const patched = await api.updateTask({
        taskId: task.id,
        ifMatch: newEtag,
        body: { status: 'done', dueDate: '2025-06-30', assignee: { kind: 'team', team: 'docs' } },
      });
      expect(patched).toMatchObject({ title: 'Final', status: 'done', dueDate: '2025-06-30', assignee: { kind: 'team', team: 'docs' } });
      const cleared = await api.updateTask({ taskId: task.id, body: { dueDate: null, assignee: null } });
      expect(cleared.dueDate).toBeUndefined();
      expect(cleared.assignee).toBeUndefined();
      const stalePatch = await rejection(api.updateTask({ taskId: task.id, ifMatch: newEtag, body: { title: 'x' } }));
      expect(lib.isApiError(stalePatch, 'updateTask') && stalePatch.status).toBe(412);

      const file = new File([new Uint8Array(1000).fill(7)], 'notes.bin', { type: 'application/octet-stream' });
      const uploaded = await api.uploadAttachment({ taskId: task.id, body: { file, caption: 'Meeting notes' } }).withResponse();
      expect(uploaded.status).toBe(201);
      expect(uploaded.data).toEqual({ id: expect.any(String), fileName: 'notes.bin', size: 1000, caption: 'Meeting notes' });
      expect(uploaded.headers.get('location')).toBe(`/v1/tasks/${task.id}/attachments/${uploaded.data.id}`);
      const tooBig = await rejection(api.uploadAttachment({ taskId: task.id, body: { file: new Blob([new Uint8Array(300 * 1024)]) } }));
      expect(lib.isApiError(tooBig, 'uploadAttachment') && tooBig.status === 413 && tooBig.data.title).toBe('Content Too Large');

      const deleted = await api.deleteTask({ taskId: task.id }).withResponse();
      expect(deleted.status).toBe(204);
      const gone = await rejection(api.getTask({ taskId: task.id }));
      expect(lib.isApiError(gone, 'getTask') && gone.status).toBe(404);
    });
  });

  describe('errors through the generated client', () => {
    it('401 with WWW-Authenticate without a token, and with a token the server does not know', async () => {
      const anonymous = await rejection(client({ token: undefined }).listProjects());
      expect(lib.isApiError(anonymous, 'listProjects')).toBe(true);
      if (!lib.isApiError(anonymous, 'listProjects') || anonymous.status !== 401) throw anonymous;
      expect(anonymous.data).toMatchObject({ status: 401, title: 'Unauthorized' });
      expect(anonymous.headers.get('www-authenticate')).toBe('Bearer realm="api"');

      const unknown = await rejection(client({ token: 'not-a-token' }).getTask({ taskId: '7d3f4c1e-0000-4000-8000-00000000dead' }));
      expect(lib.isApiError(unknown) && unknown.status).toBe(401);
      expect(lib.isApiError(unknown) && unknown.headers.get('www-authenticate')).toBe('Bearer realm="api", error="invalid_token"');
    });

    it('403 for a read-only token on the writes that declare it; its reads work', async () => {
      const reader = client({ token: READER_TOKEN });
      const list = await reader.listProjects();
      expect(list.items.length).toBeGreaterThan(0);
      const create = await rejection(reader.createProject({ body: { name: 'Nope' } }));
      expect(lib.isApiError(create, 'createProject') && create.status === 403 && create.data.title).toBe('Forbidden');
      const remove = await rejection(reader.deleteProject({ projectId: list.items[0].id }));
      expect(lib.isApiError(remove, 'deleteProject') && remove.status).toBe(403);
      // Still there.
      expect((await reader.getProject({ projectId: list.items[0].id })).id).toBe(list.items[0].id);
    });

    it('422 with a typed ValidationProblem: schema failures with JSON pointers, and a business rule', async () => {
      const api = client();
      const project = await api.createProject({ body: { name: 'Validation' } });
      const invalid = { title: '', status: 'blocked', estimateHours: 0.3, labels: [{ name: 'Bad Name' }] } as unknown as Task;
      const error = await rejection(api.createTask({ projectId: project.id, body: invalid }));
      if (!lib.isApiError(error, 'createTask') || error.status !== 422) throw error;
      // Narrowed by status: `data` is a ValidationProblem.
      const pointers = error.data.errors.map((item) => item.pointer).sort();
      expect(pointers).toEqual(expect.arrayContaining(['/body/title', '/body/status', '/body/estimateHours', '/body/labels/0/name']));
      expect(error.data).toMatchObject({ status: 422, type: 'about:blank' });
      expect(error.headers.get('content-type')).toBe('application/problem+json');

      const duplicate = await rejection(
        api.createTask({
          projectId: project.id,
          body: { title: 'Labels', status: 'todo', labels: [{ name: 'docs' }, { name: 'docs', color: '#123456' }] },
        }),
      );
      if (!lib.isApiError(duplicate, 'createTask') || duplicate.status !== 422) throw duplicate;
      expect(duplicate.data.errors).toEqual([
        { pointer: '/body/labels/1/name', keyword: 'unique', message: 'label "docs" is given twice' },
      ]);

      const emptyName = await rejection(api.createProject({ body: { name: '' } }));
      if (!lib.isApiError(emptyName, 'createProject') || emptyName.status !== 422) throw emptyName;
      expect(emptyName.data.errors.map((item) => item.pointer)).toEqual(['/body/name']);

      const badQuery = await rejection(api.listProjectTasks({ projectId: project.id, limit: 1000 }));
      expect(lib.isApiError(badQuery) && badQuery.status).toBe(422);
      const badId = await rejection(api.getTask({ taskId: 'not-a-uuid' }));
      expect(lib.isApiError(badId) && badId.status).toBe(422);
    });

    it('429 with Retry-After from an instance with a tight rate limit', async () => {
      const limited = client({ url: tight.url });
      const statuses: number[] = [];
      let limitedError: unknown;
      for (let i = 0; i < 5; i++) {
        try {
          await limited.createProject({ body: { name: `Burst ${i}` } });
          statuses.push(201);
        } catch (error) {
          if (!lib.isApiError(error, 'createProject')) throw error;
          statuses.push(error.status);
          limitedError ??= error;
        }
      }
      expect(statuses).toEqual([201, 201, 201, 429, 429]);
      if (!lib.isApiError(limitedError, 'createProject') || limitedError.status !== 429) throw limitedError;
      expect(Number(limitedError.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(limitedError.headers.get('ratelimit-remaining')).toBe('0');
      expect(limitedError.data).toMatchObject({ status: 429, title: 'Too Many Requests' });
    });
  });

  describe('plain fetch, for what the client does not send', () => {
    it('HEAD, If-Modified-Since, malformed JSON (400), wrong Content-Type (415), a body over the limit (413)', async () => {
      const created = await raw('/v1/projects', {
        method: 'POST',
        body: JSON.stringify({ name: 'Raw' }),
        headers: { 'content-type': 'application/json' },
      });
      expect(created.status).toBe(201);
      const project = (await created.json()) as { id: string; createdAt: string };

      const head = await raw(`/v1/projects/${project.id}`, { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(head.headers.get('etag')).toMatch(/^"/);
      const lastModified = head.headers.get('last-modified')!;
      expect(lastModified).toBe(new Date(project.createdAt).toUTCString());
      const since = await raw(`/v1/projects/${project.id}`, { headers: { 'if-modified-since': lastModified } });
      expect(since.status).toBe(304);
      const older = await raw(`/v1/projects/${project.id}`, {
        headers: { 'if-modified-since': new Date(Date.parse(project.createdAt) - 60_000).toUTCString() },
      });
      expect(older.status).toBe(200);

      const malformed = await raw(`/v1/projects/${project.id}/tasks`, {
        method: 'POST',
        body: '{"title": "x", ',
        headers: { 'content-type': 'application/json' },
      });
      expect(malformed.status).toBe(400);
      expect(malformed.headers.get('content-type')).toBe('application/problem+json');
      const wrongType = await raw(`/v1/projects/${project.id}/tasks`, {
        method: 'POST',
        body: 'title=x',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(wrongType.status).toBe(415);
      const huge = await raw(`/v1/projects/${project.id}/tasks`, {
        method: 'POST',
        body: JSON.stringify({ title: 'x'.repeat(2 * 1024 * 1024), status: 'todo' }),
        headers: { 'content-type': 'application/json' },
      });
      expect(huge.status).toBe(413);
      const preflight = await fetch(`${example.url}/v1/projects`, {
        method: 'OPTIONS',
        headers: {
          origin: 'http://localhost:5173',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization, content-type',
        },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
      expect(preflight.headers.get('access-control-allow-credentials')).toBe('true');
    });
  });

  describe('raw sockets, for what fetch refuses to send', () => {
    it('a Host header that is not a valid URL host (127.0.0.145661) is answered normally, not with a 500', async () => {
      // Regression: the request URL was built from Host and threw; found by the fuzz test.
      const missing = '7d3f4c1e-0000-4000-8000-00000000dead';
      for (const host of ['127.0.0.145661', '1r7.0.0.1:80', '.0.1']) {
        const head = `GET /v1/projects/${missing} HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${EDITOR_TOKEN}\r\nConnection: close\r\n\r\n`;
        const outcome = await send(example.port, { category: 'host', chunks: [Buffer.from(head)], method: 'GET' });
        if (mount === 'hono') {
          // @hono/node-server builds the Fetch `Request`'s URL from Host, and refuses one it cannot (400).
          expect(outcome.responses.map((response) => response.status)).toEqual([400]);
          continue;
        }
        expect(outcome.responses.map((response) => response.status)).toEqual([404]);
        const [response] = outcome.responses;
        expect(response.headers['content-type']).toBe('application/problem+json');
        exchanges.push({
          method: 'GET',
          url: `${example.url}/v1/projects/${missing}`,
          status: response.status,
          headers: response.headers,
          body: response.body.toString('utf8'),
        });
      }
    });
  });

  describe('an Idempotency-Key reused with another body', () => {
    const exchanges: Exchange[] = [];
    const send = recordingFetch(exchanges);

    it('is a 422 ValidationProblem naming the header, as the document declares', async () => {
      const post = (name: string) =>
        send(`${example.url}/v1/projects`, {
          method: 'POST',
          body: JSON.stringify({ name }),
          headers: { authorization: `Bearer ${EDITOR_TOKEN}`, 'content-type': 'application/json', 'idempotency-key': key },
        });
      const key = `reuse-${Date.now()}`;
      expect((await post('First')).status).toBe(201);
      const reused = await post('Second');
      expect(reused.status).toBe(422);
      expect(await reused.json()).toMatchObject({ errors: [{ pointer: '/headers/idempotency-key', keyword: 'idempotency' }] });
      expect(exchanges.flatMap((exchange) => checker.check(exchange).violations)).toEqual([]);
    });
  });

  describe('known discrepancies between the generated server and the document (reported, kept out of the strict check)', () => {
    // Each case is recorded apart and must still show exactly its violation: when it is fixed, the
    // assertion fails, and the case belongs in the suite above instead.
    const known = recordingFetch(knownExchanges);
    const send = (path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> =>
      known(example.url + path, {
        method: 'POST',
        body: JSON.stringify(body),
        headers: { authorization: `Bearer ${EDITOR_TOKEN}`, 'content-type': 'application/json', ...headers },
      });

    it('a sparse fieldset without the required properties: items the declared TaskPage (Task requires status, createdAt) rejects', async () => {
      const project = (await (await send('/v1/projects', { name: 'Sparse' })).json()) as { id: string };
      expect((await send(`/v1/projects/${project.id}/tasks`, { title: 'Only', status: 'todo' })).status).toBe(201);
      const response = await known(`${example.url}/v1/projects/${project.id}/tasks?fields=id,title`, {
        headers: { authorization: `Bearer ${EDITOR_TOKEN}` },
      });
      expect(response.status).toBe(200);
      expect(((await response.json()) as { items: object[] }).items[0]).toEqual({ id: expect.any(String), title: 'Only' });
      const violations = checker.check(knownExchanges[knownExchanges.length - 1]).violations;
      expect(violations).toHaveLength(1);
      expect(violations[0]).toMatch(/listProjectTasks 200: .*must have required property 'status'/);
    });
  });

  describe('every response of this suite, checked against the OpenAPI document by ajv', () => {
    let results: CheckResult[];

    beforeAll(() => {
      results = exchanges.map((exchange) => checker.check(exchange));
    });

    it('has a declared status, a declared content type and a body matching its schema', () => {
      const violations = results.flatMap((result) => result.violations);
      expect(violations).toEqual([]);
      const checked = results.filter((result) => result.operationId !== undefined);
      const byOperation = new Map<string, string[]>();
      for (const result of checked)
        byOperation.set(result.operationId!, [...(byOperation.get(result.operationId!) ?? []), String(result.exchange.status)]);
      console.log(
        `checked ${checked.length} responses against schemas/openapi/tasks.yaml with ajv:\n` +
          [...byOperation]
            .map(
              ([id, statuses]) =>
                `  ${id}: ${[...new Set(statuses)]
                  .sort()
                  .map((status) => `${status}×${statuses.filter((s) => s === status).length}`)
                  .join(' ')}`,
            )
            .join('\n'),
      );
      expect(checked.length).toBeGreaterThan(60);
      expect(checked.length).toBe(results.length);
    });

    it('covers every operation of the document with a successful response', () => {
      const succeeded = new Set(results.filter((result) => result.exchange.status < 300).map((result) => result.operationId));
      expect(checker.operationIds().filter((id) => !succeeded.has(id))).toEqual([]);
      expect(checker.operationIds()).toHaveLength(11);
    });

    it('covers the error statuses the suite provokes', () => {
      const statuses = new Set(results.map((result) => result.exchange.status));
      for (const status of [304, 400, 401, 403, 404, 412, 413, 415, 422, 429]) expect(statuses.has(status), String(status)).toBe(true);
    });

    it('catches a response that breaks the document (the checker is not a rubber stamp)', () => {
      const project = results.find((result) => result.operationId === 'getProject' && result.exchange.status === 200)!.exchange;
      const broken = (body: unknown, headers: Record<string, string> = project.headers): string[] =>
        checker.check({ ...project, headers, body: JSON.stringify(body) }).violations;
      expect(broken({ id: 'not-a-uuid', name: 'x', createdAt: 'yesterday' })).toHaveLength(1);
      expect(broken({ name: 'x' })[0]).toMatch(/must have required property 'id'/);
      expect(broken(JSON.parse(project.body), { ...project.headers, 'content-type': 'text/html' })[0]).toMatch(
        /content type text\/html is not declared/,
      );
      // getProject has a default response: any status is declared, as problem+json.
      const teapot = { ...project, status: 418, headers: { ...project.headers, 'content-type': 'application/problem+json' } };
      expect(
        checker.check({ ...teapot, body: JSON.stringify({ type: 'about:blank', title: "I'm a teapot", status: 418 }) }).violations,
      ).toEqual([]);
      expect(checker.check({ ...teapot, body: JSON.stringify({ title: "I'm a teapot", status: 418 }) }).violations[0]).toMatch(
        /required property 'type'/,
      );
      expect(
        checker.check({ ...teapot, body: JSON.stringify({ type: 'about:blank', title: "I'm a teapot", status: 400 }) }).violations[0],
      ).toMatch(/not the HTTP status/);
      const deleteTask = results.find((result) => result.operationId === 'deleteTask')!.exchange;
      expect(checker.check({ ...deleteTask, status: 204, body: '{}' }).violations[0]).toMatch(/declares none/);
      const created = results.find((result) => result.operationId === 'createTask' && result.exchange.status === 201)!.exchange;
      const { location: _location, ...withoutLocation } = created.headers;
      expect(checker.check({ ...created, headers: withoutLocation }).violations[0]).toMatch(/required header Location is missing/);
    });

    it('the example shuts down cleanly on SIGTERM', async () => {
      const { code } = await tight.stop();
      expect(code).toBe(0);
    });
  });
}
