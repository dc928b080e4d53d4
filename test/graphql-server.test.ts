/**
 * The generated GraphQL server over real HTTP on 127.0.0.1: transport rules (graphql-http),
 * persisted queries, `@auth` partial success, limits rejected before any resolver runs (a spy of
 * every resolver call proves it), production hardening, the time limit, a client disconnect, and
 * rate limiting per client (clients told apart by their source address: 127.0.0.2, 127.0.0.3, ...).
 */
import { createHash } from 'node:crypto';
import { createServer, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { anyTypes, writeFiles } from './support/client-generate.js';
import { ROOT } from './support/cli.js';
import { generateGraphQLFiles } from './support/generate.js';
import { COMPILERS, typecheck } from './support/typecheck.js';
import { exampleOperation, generatedServer, get, post, serve, type GeneratedServer, type Running } from './support/graphql-server-setup.js';
import { GRAPHQL_USAGE_SOURCE } from './support/graphql-server-usage.js';

let generated: GeneratedServer;
let dev: Running;
let prod: Running;
const started: Running[] = [];

async function start(options: Record<string, unknown>): Promise<Running> {
  const running = await serve(generated.usage.server(options));
  started.push(running);
  return running;
}

/** POSTs a query from the local address `from` (another loopback address is another client). */
function postFrom(
  url: string,
  from: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{
  status: number;
  headers: IncomingHttpHeaders;
  body: { data?: unknown; errors?: Array<{ message: string; extensions?: Record<string, unknown> }> };
}> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      url,
      { method: 'POST', localAddress: from, headers: { 'content-type': 'application/json', accept: 'application/json', ...headers } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: JSON.parse(Buffer.concat(chunks).toString('utf8')),
          }),
        );
      },
    );
    request.on('error', reject);
    request.end(JSON.stringify(body));
  });
}

const codes = (answer: { body: { errors?: Array<{ extensions?: Record<string, unknown> }> } }) =>
  (answer.body.errors ?? []).map((error) => error.extensions?.code);
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

beforeAll(async () => {
  generated = await generatedServer('graphql-server', GRAPHQL_USAGE_SOURCE);
  dev = await start({ production: false });
  prod = await start({ production: true });
});

afterAll(async () => {
  await Promise.all(started.map((running) => running.close()));
});

beforeEach(() => {
  generated.usage.calls.length = 0;
  generated.usage.errors.length = 0;
});

describe('GraphQL over HTTP', () => {
  test('POST runs a query with variables and an operation name', async () => {
    const answer = await post(dev.url, {
      query: 'query One($id: ID!) { task(id: $id) { id title status } } query Two { viewer { id } }',
      variables: { id: 't1' },
      operationName: 'One',
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ data: { task: { id: 't1', title: 'Write docs', status: 'TODO' } } });
  });

  test('GET runs queries; a mutation over GET is refused (405) and never runs', async () => {
    const query = await get(dev.url, { query: '{ project(id: "p1") { name } }' });
    expect(query.body).toEqual({ data: { project: { name: 'Launch' } } });
    const mutation = await get(dev.url, { query: 'mutation { deleteTask(id: "t1") }' }, { authorization: 'Bearer admin' });
    expect(mutation.status).toBe(405);
    expect(generated.usage.calls).not.toContain('Mutation.deleteTask');
  });

  test('application/json answers 200 to a document that does not validate; graphql-response+json answers 400', async () => {
    const json = await post(dev.url, { query: '{ nope }' });
    expect(json.status).toBe(200);
    expect(codes(json)).toEqual(['GRAPHQL_VALIDATION_FAILED']);
    const strict = await post(dev.url, { query: '{ nope }' }, { accept: 'application/graphql-response+json' });
    expect(strict.status).toBe(400);
    expect(strict.contentType).toContain('application/graphql-response+json');
    expect(strict.body.data).toBeUndefined();
  });

  test('bad JSON is 400, a wrong media type 415, a body above the limit 413', async () => {
    const badJson = await fetch(dev.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query": ' });
    expect(badJson.status).toBe(400);
    const text = await fetch(dev.url, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{ __typename }' });
    expect(text.status).toBe(415);
    const small = await start({ maxBodyBytes: 64 });
    const large = await post(small.url, { query: `{ __typename } # ${'x'.repeat(100)}` });
    expect(large.status).toBe(413);
    expect(codes(large)).toEqual(['PAYLOAD_TOO_LARGE']);
    const fits = await post(small.url, { query: '{ __typename }' });
    expect(fits.body).toEqual({ data: { __typename: 'Query' } });
  });

  test('another path goes to next() as middleware, and is 404 without one', async () => {
    const graphql = generated.usage.server();
    let passed = '';
    const server = createServer((request, response) => {
      graphql.listener(request, response, () => {
        passed = request.url ?? '';
        response.end('next');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const answer = await fetch(`http://127.0.0.1:${port}/health`);
    expect(await answer.text()).toBe('next');
    expect(passed).toBe('/health');
    server.closeAllConnections();
    server.close();
    expect((await fetch(dev.url.replace('/graphql', '/elsewhere'))).status).toBe(404);
  });
});

describe('@auth: partial success', () => {
  const query = '{ task(id: "t1") { title internalNotes assignee { name email } } }';

  test('an anonymous viewer gets null and UNAUTHENTICATED with the path; the guarded resolver never runs', async () => {
    const answer = await post(dev.url, { query });
    expect(answer.status).toBe(200);
    expect(answer.body.data).toEqual({ task: { title: 'Write docs', internalNotes: null, assignee: { name: 'Ada', email: null } } });
    expect(answer.body.errors).toEqual([
      expect.objectContaining({ path: ['task', 'internalNotes'], extensions: { code: 'UNAUTHENTICATED' } }),
      expect.objectContaining({ path: ['task', 'assignee', 'email'], extensions: { code: 'UNAUTHENTICATED' } }),
    ]);
    expect(generated.usage.calls).toContain('Query.task');
    expect(generated.usage.calls).not.toContain('Task.internalNotes');
  });

  test('a lower role gets FORBIDDEN, a higher role includes the lower ones', async () => {
    const member = await post(dev.url, { query }, { authorization: 'Bearer member' });
    expect(codes(member)).toEqual(['FORBIDDEN', 'FORBIDDEN']);
    expect(generated.usage.calls).not.toContain('Task.internalNotes');
    const admin = await post(dev.url, { query }, { authorization: 'Bearer admin' });
    expect(admin.body).toEqual({
      data: { task: { title: 'Write docs', internalNotes: 'needs legal review', assignee: { name: 'Ada', email: 'ada@example.com' } } },
    });
    // @auth without an argument is the lowest role: a member may create, an admin too.
    const create = 'mutation { createTask(input: { projectId: "p1", title: "New" }) { title } }';
    expect((await post(dev.url, { query: create }, { authorization: 'Bearer member' })).body.data).toEqual({
      createTask: { title: 'New' },
    });
    const deleted = await post(dev.url, { query: 'mutation { deleteTask(id: "t9") }' }, { authorization: 'Bearer member' });
    expect(deleted.body).toEqual({
      data: null,
      errors: [expect.objectContaining({ path: ['deleteTask'], extensions: { code: 'FORBIDDEN' } })],
    });
    expect(generated.usage.calls).not.toContain('Mutation.deleteTask');
  });

  test('credentials authenticate refuses answer UNAUTHENTICATED and run nothing', async () => {
    const answer = await post(dev.url, { query }, { authorization: 'Bearer bad' });
    expect(answer.body).toEqual({ errors: [{ message: 'The token is not valid.', extensions: { code: 'UNAUTHENTICATED' } }] });
    expect(generated.usage.calls).toEqual([]);
  });
});

describe('the JSON POST fast path', () => {
  // A rate-limited server takes graphql-http's handler for every request: its answers are the reference.
  test('answers every kind of JSON POST as graphql-http does', async () => {
    const reference = await start({ production: false, rateLimit: { limit: 1_000_000, windowMs: 60_000 } });
    const bodies = [
      { query: '{ project(id: "p1") { name } }' },
      { query: '{ task(id: "boom") { id } }' },
      { query: '{ task(id: "gone") { id } }' },
      { query: '{ task(id: "t1") { title internalNotes } }' },
      { query: '{ nope }' },
      { query: 'query Q($id: ID!) { task(id: $id) { id } }', variables: { id: { not: 'an id' } } },
      { query: 'query A { projects { id } } query B { projects { name } }', operationName: 'C' },
      { query: '{ project(id: "p1") { name } }', operationName: 7 },
      { query: 'subscription { taskChanged(projectId: "p1") { id } }' },
      { extensions: { persistedQuery: { version: 1, sha256Hash: sha256('never sent') } } },
      ['not', 'an object'],
    ];
    const accepts = ['application/json', 'application/graphql-response+json', 'application/graphql-response+json, application/json;q=0.9'];
    const headerSets: Record<string, string>[] = [{}, { authorization: 'Bearer bad' }];
    const answer = async (url: string, body: unknown, headers: Record<string, string>) => {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });
      return { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
    };
    for (const body of bodies) {
      for (const accept of accepts) {
        for (const headers of headerSets) {
          const sent = { accept, ...headers };
          expect({ request: body, sent, ...(await answer(dev.url, body, sent)) }).toEqual({
            request: body,
            sent,
            ...(await answer(reference.url, body, sent)),
          });
        }
      }
    }
  });
});

describe('limits, checked before any resolver runs', () => {
  test('depth', async () => {
    const deep =
      '{ task(id: "t1") { project { tasks(first: 1) { edges { node { project { tasks(first: 1) { edges { node { project { id } } } } } } } } } } }';
    const answer = await post(dev.url, { query: deep });
    expect(answer.body.data).toBeUndefined();
    expect(codes(answer)).toEqual(['DEPTH_LIMIT_EXCEEDED']);
    expect(answer.body.errors?.[0].message).toBe('Query depth 11 exceeds the limit of 10.');
    expect(generated.usage.calls).toEqual([]);
    const shallower = deep.replace('project { id }', 'id');
    expect((await post(dev.url, { query: shallower })).body.errors).toBeUndefined();
  });

  test('complexity, with page sizes from literals, variables and defaults', async () => {
    const literal = await post(dev.url, { query: '{ projects(first: 100) { tasks(first: 100) { totalCount } } }' });
    expect(codes(literal)).toEqual(['COMPLEXITY_LIMIT_EXCEEDED']);
    expect(literal.body.errors?.[0].message).toBe('Query complexity 10101 exceeds the limit of 1000.');
    const query = 'query Pages($n: Int) { projects(first: $n) { tasks(first: $n) { totalCount } } }';
    expect(codes(await post(dev.url, { query, variables: { n: 40 } }))).toEqual(['COMPLEXITY_LIMIT_EXCEEDED']);
    // Unset, the schema's defaults (20 and 20) apply: 1 + 20 × (1 + 20 × 1) = 421.
    expect((await post(dev.url, { query })).body.errors).toBeUndefined();
    expect(generated.usage.calls).toEqual(['Query.projects', 'Project.tasks']);
    generated.usage.calls.length = 0;
    const lower = await start({ limits: { complexity: 400 } });
    expect(codes(await post(lower.url, { query }))).toEqual(['COMPLEXITY_LIMIT_EXCEEDED']);
    expect(generated.usage.calls).toEqual([]);
  });

  test('page sizes above the maximum, literal or variable', async () => {
    const literal = await post(dev.url, { query: '{ projects(first: 500) { id } }' });
    expect(codes(literal)).toEqual(['PAGE_SIZE_LIMIT_EXCEEDED']);
    const variable = await post(dev.url, {
      query: 'query($n: Int) { search(text: "a", first: $n) { __typename } }',
      variables: { n: 101 },
    });
    expect(codes(variable)).toEqual(['PAGE_SIZE_LIMIT_EXCEEDED']);
    expect(generated.usage.calls).toEqual([]);
    expect(
      (await post(dev.url, { query: 'query($n: Int) { search(text: "a", first: $n) { __typename } }', variables: { n: 100 } })).body.errors,
    ).toBeUndefined();
  });

  test('aliases and tokens', async () => {
    const aliases = Array.from({ length: 16 }, (_, i) => `a${i}: viewer { id }`).join(' ');
    expect(codes(await post(dev.url, { query: `{ ${aliases} }` }))).toEqual(['ALIAS_LIMIT_EXCEEDED']);
    const tokens = `{ ${'__typename '.repeat(2100)}}`;
    const answer = await post(dev.url, { query: tokens });
    expect(codes(answer)).toEqual(['TOKEN_LIMIT_EXCEEDED']);
    expect(generated.usage.calls).toEqual([]);
  });

  test('the time limit answers TIMEOUT and aborts the signal resolvers were given', async () => {
    const quick = await start({ timeout: 50 });
    const answer = await post(quick.url, { query: '{ task(id: "slow") { id } }' });
    expect(answer.body).toEqual({ data: null, errors: [expect.objectContaining({ extensions: { code: 'TIMEOUT' } })] });
    await expect.poll(() => generated.usage.calls, { timeout: 3000 }).toContain('Query.task(slow) finished aborted=true');
  });
});

describe('rate limiting per client', () => {
  const query = { query: '{ project(id: "p1") { name } }' };

  test('is off unless configured: no RateLimit headers', async () => {
    const answer = await postFrom(dev.url, '127.0.0.1', query);
    expect(answer.status).toBe(200);
    expect(answer.headers['ratelimit-limit']).toBeUndefined();
  });

  test('per IP: the request over the limit is 429 with Retry-After and RATE_LIMITED, runs nothing, and another client is unaffected', async () => {
    const limited = await start({ rateLimit: { limit: 3, windowMs: 60_000 } });
    const remaining: unknown[] = [];
    for (let i = 0; i < 3; i++) {
      const answer = await postFrom(limited.url, '127.0.0.2', query);
      expect(answer.body).toEqual({ data: { project: { name: 'Launch' } } });
      expect(answer.headers).toMatchObject({ 'ratelimit-limit': '3', 'ratelimit-policy': '3;w=60' });
      remaining.push(answer.headers['ratelimit-remaining']);
    }
    expect(remaining).toEqual(['2', '1', '0']);
    generated.usage.calls.length = 0;
    const over = await postFrom(limited.url, '127.0.0.2', query);
    expect(over.status).toBe(429);
    expect(over.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(Number(over.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(over.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(over.headers['ratelimit-remaining']).toBe('0');
    expect(over.body).toEqual({
      errors: [{ message: expect.stringContaining('Too many requests'), extensions: { code: 'RATE_LIMITED' } }],
    });
    expect(generated.usage.calls).toEqual([]);
    const strict = await postFrom(limited.url, '127.0.0.2', query, { accept: 'application/graphql-response+json' });
    expect(strict.status).toBe(429);
    expect(strict.headers['content-type']).toBe('application/graphql-response+json; charset=utf-8');
    // A refused document counts too.
    expect((await postFrom(limited.url, '127.0.0.2', { query: '{ nope }' })).status).toBe(429);
    const other = await postFrom(limited.url, '127.0.0.3', query);
    expect(other.status).toBe(200);
    expect(other.headers['ratelimit-remaining']).toBe('2');
  });

  test('per viewer: `key` sees who authenticate found; each viewer and the anonymous IP have their own budget', async () => {
    const seen: unknown[] = [];
    const key = (request: { raw: { socket: { remoteAddress?: string } } }, viewer: { role: string } | null) => {
      seen.push(viewer);
      return viewer ? `role:${viewer.role}` : `ip:${request.raw.socket.remoteAddress}`;
    };
    const limited = await start({ rateLimit: { limit: 2, windowMs: 60_000, key } });
    const member = { authorization: 'Bearer member' };
    expect((await postFrom(limited.url, '127.0.0.4', query, member)).status).toBe(200);
    // The same viewer from another address spends the same budget.
    expect((await postFrom(limited.url, '127.0.0.5', query, member)).status).toBe(200);
    expect((await postFrom(limited.url, '127.0.0.4', query, member)).status).toBe(429);
    expect((await postFrom(limited.url, '127.0.0.4', query, { authorization: 'Bearer admin' })).status).toBe(200);
    expect((await postFrom(limited.url, '127.0.0.4', query)).status).toBe(200);
    expect(seen).toEqual([{ role: 'MEMBER' }, { role: 'MEMBER' }, { role: 'MEMBER' }, { role: 'ADMIN' }, null]);
    // Refused credentials are counted against the anonymous key: guessing tokens spends the IP's budget.
    expect(codes(await postFrom(limited.url, '127.0.0.4', query, { authorization: 'Bearer bad' }))).toEqual(['UNAUTHENTICATED']);
    expect((await postFrom(limited.url, '127.0.0.4', query)).status).toBe(429);
  });

  test('weighted by complexity: an operation spends its complexity; a refused one spends nothing', async () => {
    const limited = await start({ rateLimit: { limit: 1000, windowMs: 60_000, cost: 'complexity' } });
    // 1 + 20 × (1 + 20 × 1) = 421 points (the page sizes default to 20).
    const pages = { query: 'query Pages($n: Int) { projects(first: $n) { tasks(first: $n) { totalCount } } }' };
    const first = await postFrom(limited.url, '127.0.0.6', pages);
    expect(first.headers).toMatchObject({ 'ratelimit-limit': '1000', 'ratelimit-remaining': '579' });
    expect((await postFrom(limited.url, '127.0.0.6', pages)).headers['ratelimit-remaining']).toBe('158');
    const over = await postFrom(limited.url, '127.0.0.6', pages);
    expect(over.status).toBe(429);
    expect(over.headers['ratelimit-remaining']).toBe('158');
    // Page sizes from variables are priced with them: 1 + 2 × (1 + 2 × 1) = 7.
    const small = await postFrom(limited.url, '127.0.0.6', { ...pages, variables: { n: 2 } });
    expect(small.status).toBe(200);
    expect(small.headers['ratelimit-remaining']).toBe('151');
    expect(() => generated.usage.server({ rateLimit: { limit: 999, windowMs: 1000, cost: 'complexity' } })).toThrow(
      /at least limits.complexity/,
    );
  });

  test('servers given one Store share one budget', async () => {
    const { MemoryStore } = createRequire(import.meta.url)(join(generated.folder, 'server.js')) as { MemoryStore: new () => object };
    const store = new MemoryStore();
    const a = await start({ rateLimit: { limit: 2, windowMs: 60_000, store } });
    const b = await start({ rateLimit: { limit: 2, windowMs: 60_000, store } });
    expect((await postFrom(a.url, '127.0.0.7', query)).status).toBe(200);
    expect((await postFrom(b.url, '127.0.0.7', query)).status).toBe(200);
    expect((await postFrom(a.url, '127.0.0.7', query)).status).toBe(429);
  });
});

describe('a client that disconnects', () => {
  test('aborts the signal resolvers were given, with CLIENT_CLOSED_REQUEST as the reason', async () => {
    const request = httpRequest(dev.url, { method: 'POST', headers: { 'content-type': 'application/json' } });
    request.on('error', () => {});
    request.end(JSON.stringify({ query: '{ task(id: "hang") { id } }' }));
    await expect.poll(() => generated.usage.calls, { timeout: 3000 }).toContain('Query.task');
    request.destroy();
    await expect.poll(() => generated.usage.calls, { timeout: 3000 }).toContain('Query.task(hang) ended: CLIENT_CLOSED_REQUEST');
  });
});

describe('persisted queries', () => {
  test('queryId and documentId run a registered operation, by POST and GET', async () => {
    const { id } = exampleOperation('GetTask');
    const byQueryId = await post(dev.url, { queryId: id, variables: { id: 't2' } });
    expect(byQueryId.body.data).toMatchObject({ task: { id: 't2', title: 'Ship it' } });
    const byDocumentId = await post(dev.url, { documentId: `sha256:${id}`, variables: { id: 't1' } });
    expect(byDocumentId.body.data).toMatchObject({ task: { id: 't1' } });
    const overGet = await get(dev.url, { queryId: id, variables: JSON.stringify({ id: 't1' }) });
    expect(overGet.body.data).toMatchObject({ task: { id: 't1' } });
    expect(codes(await post(dev.url, { queryId: 'f'.repeat(64) }))).toEqual(['PERSISTED_QUERY_NOT_FOUND']);
  });

  test('automatic persisted queries: miss, register with the query, then hit by hash alone (POST and GET)', async () => {
    const query = `{ project(id: "p1") { name } } # ${Math.random()}`;
    const hash = sha256(query);
    const extensions = { persistedQuery: { version: 1, sha256Hash: hash } };
    const miss = await post(dev.url, { extensions });
    expect(miss.status).toBe(200);
    expect(miss.body).toEqual({ errors: [{ message: 'PersistedQueryNotFound', extensions: { code: 'PERSISTED_QUERY_NOT_FOUND' } }] });
    const register = await post(dev.url, { query, extensions });
    expect(register.body).toEqual({ data: { project: { name: 'Launch' } } });
    expect((await post(dev.url, { extensions })).body).toEqual({ data: { project: { name: 'Launch' } } });
    expect((await get(dev.url, { extensions: JSON.stringify(extensions) })).body).toEqual({ data: { project: { name: 'Launch' } } });
    const lying = await post(dev.url, { query: '{ viewer { id } }', extensions });
    expect(codes(lying)).toEqual(['PERSISTED_QUERY_HASH_MISMATCH']);
  });

  test('allow-list mode runs registered operations only, and APQ cannot register more', async () => {
    const listed = await start({ persistedOnly: true });
    const adHoc = await post(listed.url, { query: '{ task(id: "t1") { id } }' });
    expect(adHoc.body).toEqual({ errors: [expect.objectContaining({ extensions: { code: 'PERSISTED_QUERY_NOT_IN_LIST' } })] });
    expect(generated.usage.calls).toEqual([]);
    const { id, text } = exampleOperation('GetTask');
    expect((await post(listed.url, { queryId: id, variables: { id: 't1' } })).body.data).toMatchObject({ task: { id: 't1' } });
    expect((await post(listed.url, { query: text, variables: { id: 't1' } })).body.data).toMatchObject({ task: { id: 't1' } });
    // The APQ hash of a registered operation is its id.
    expect(
      (await post(listed.url, { extensions: { persistedQuery: { version: 1, sha256Hash: id } }, variables: { id: 't1' } })).body.data,
    ).toMatchObject({ task: { id: 't1' } });
    const query = '{ viewer { id } }';
    const extensions = { persistedQuery: { version: 1, sha256Hash: sha256(query) } };
    expect(codes(await post(listed.url, { query, extensions }))).toEqual(['PERSISTED_QUERY_NOT_IN_LIST']);
    expect(codes(await post(listed.url, { extensions }))).toEqual(['PERSISTED_QUERY_NOT_FOUND']);
  });
});

describe('production hardening', () => {
  test('introspection is on in development and off in production (__typename stays)', async () => {
    const query = '{ __schema { queryType { name } } }';
    expect((await post(dev.url, { query })).body).toEqual({ data: { __schema: { queryType: { name: 'Query' } } } });
    expect(codes(await post(prod.url, { query }))).toEqual(['INTROSPECTION_DISABLED']);
    expect(codes(await post(prod.url, { query: '{ __type(name: "Task") { name } }' }))).toEqual(['INTROSPECTION_DISABLED']);
    expect((await post(prod.url, { query: '{ __typename }' })).body).toEqual({ data: { __typename: 'Query' } });
  });

  test('"Did you mean" suggestions are stripped in production only', async () => {
    const query = '{ tsk(id: "t1") { id } }';
    expect((await post(dev.url, { query })).body.errors?.[0].message).toBe(
      'Cannot query field "tsk" on type "Query". Did you mean "task"?',
    );
    expect((await post(prod.url, { query })).body.errors?.[0].message).toBe('Cannot query field "tsk" on type "Query".');
    const enumValue = await post(prod.url, {
      query: 'query($s: TaskStatus) { project(id: "p1") { tasks(status: $s) { totalCount } } }',
      variables: { s: 'DONEE' },
    });
    expect(enumValue.body.errors?.[0].message).not.toContain('Did you mean');
    expect(codes(enumValue)).toEqual(['BAD_USER_INPUT']);
  });

  test('unexpected resolver errors are masked in production and logged; errors thrown on purpose keep their message', async () => {
    const boom = await fetch(prod.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ task(id: "boom") { id } }' }),
    });
    const text = await boom.text();
    expect(JSON.parse(text)).toEqual({
      data: { task: null },
      errors: [
        {
          message: 'Internal server error',
          locations: [{ line: 1, column: 3 }],
          path: ['task'],
          extensions: { code: 'INTERNAL_SERVER_ERROR' },
        },
      ],
    });
    expect(text).not.toContain('hunter2');
    expect(generated.usage.errors).toEqual([expect.objectContaining({ message: expect.stringContaining('hunter2') })]);
    const gone = await post(prod.url, { query: '{ task(id: "gone") { id } }' });
    expect(gone.body.errors).toEqual([
      expect.objectContaining({ message: 'Task gone was archived.', path: ['task'], extensions: { code: 'ARCHIVED' } }),
    ]);
  });

  test('development shows the message but never a stack', async () => {
    const answer = await post(dev.url, { query: '{ task(id: "boom") { id } }' });
    expect(answer.body.errors).toEqual([
      expect.objectContaining({ message: expect.stringContaining('refused'), extensions: { code: 'INTERNAL_SERVER_ERROR' } }),
    ]);
    expect(JSON.stringify(answer.body)).not.toMatch(/stack|at .*\.js:\d+/);
  });
});

describe('the generated code', () => {
  test('has no `any`, and embeds the @auth rules of the schema', () => {
    for (const file of ['server.ts', ...readdirSync(join(generated.folder, 'runtime')).map((name) => `runtime/${name}`)]) {
      expect({ file, any: anyTypes(readFileSync(join(generated.folder, file), 'utf8')) }).toEqual({ file, any: [] });
    }
    const server = readFileSync(join(generated.folder, 'server.ts'), 'utf8');
    expect(server).toContain('export const ROLES = ["MEMBER", "ADMIN"] as const;');
    expect(server).toContain('  "Task.internalNotes": "ADMIN",\n  "Mutation.createTask": "MEMBER",');
  });

  test.each(Object.entries(COMPILERS))(
    'a schema without @auth or documents gets a server that type-checks with %s',
    async (_name, compiler) => {
      const folder = join(ROOT, '.vitest-tmp', 'graphql-server-plain');
      mkdirSync(folder, { recursive: true });
      const schema = join(folder, 'plain.graphql');
      writeFileSync(schema, 'type Query { "Says hi." hello(name: String = "you"): String! }');
      const files = await generateGraphQLFiles(schema, [], ['types', 'server']);
      writeFiles(join(folder, 'out'), files);
      const server = files.find((file) => file.path === 'server.ts')!.content;
      expect(server).not.toContain('operations.js');
      expect(server).toContain('auth: { roles: [], fields: {} }, persistedOperations: {}');
      const result = typecheck(join(folder, 'out'), compiler, 'node', ['server.ts', 'runtime/*.ts', 'types.ts']);
      expect(result.output).toBe('');
    },
  );

  test.each(Object.entries(COMPILERS))('type-checks under strict with %s', (_name, compiler) => {
    // The user code is included only against the real types.ts (the stand-in is deliberately loose).
    const files = ['server.ts', 'runtime/*.ts', 'types.ts', 'operations.ts', ...(generated.standIns.types ? [] : ['usage.ts'])];
    const result = typecheck(generated.folder, compiler, 'node', files);
    expect(result.output).toBe('');
    expect(result.ok).toBe(true);
  });
});
