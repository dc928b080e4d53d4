/**
 * The REST server's convention stages (CORS, rate limits, auth, idempotency, conditional requests)
 * and the in-memory store (runtime/*.ts): type-checked under strict with TypeScript 5.9 and 7 as an
 * output holds them, and imported themselves to run for real behind a node:http harness on
 * 127.0.0.1, called with plain fetch.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticate, type SchemeSpec } from '../runtime/auth.js';
import { assertIfMatch, computeEtag, conditional } from '../runtime/conditional.js';
import { cors } from '../runtime/cors.js';
import { idempotency } from '../runtime/idempotency.js';
import { rateLimit } from '../runtime/rate-limit.js';
import { HttpProblem, type ServerRequest } from '../runtime/server-types.js';
import { MemoryStore } from '../runtime/store.js';
import { ROOT } from './support/cli.js';
import { anyTypes, transpileFolder } from './support/client-generate.js';
import { type Harness, type HarnessOptions, json, startHarness } from './support/stages-server.js';
import { copyRuntime } from './support/runtime.js';
import { COMPILERS, typecheck } from './support/typecheck.js';

mkdirSync(join(ROOT, '.vitest-tmp'), { recursive: true });
const OUT = mkdtempSync(join(ROOT, '.vitest-tmp', 'stages-'));
/** The stage modules and what they import. */
const STAGE_FILES = [
  'server-types',
  'server-stage',
  'store',
  'cors-policy',
  'cors',
  'rate-limit',
  'auth',
  'idempotency',
  'conditional',
] as const;

let sources: Record<string, string>;
const harnesses: Harness[] = [];

beforeAll(() => {
  sources = copyRuntime(OUT, STAGE_FILES);
});

afterAll(async () => {
  await Promise.all(harnesses.map((harness) => harness.close()));
  rmSync(OUT, { recursive: true, force: true });
});

async function serve(options: HarnessOptions): Promise<Harness> {
  const harness = await startHarness(options);
  harnesses.push(harness);
  return harness;
}

/** A controllable clock for stores, so TTL tests never sleep. */
function fakeClock(): { now: () => number; advance(ms: number): void } {
  let time = 1_700_000_000_000;
  return { now: () => time, advance: (ms) => void (time += ms) };
}

const ok = async () => json(200, { ok: true });

function deferred(): { promise: Promise<void>; resolve(): void } {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

describe('the stage files', () => {
  it('type-check under strict with TypeScript 5.9 and TypeScript 7 (Node)', () => {
    for (const [label, compiler] of Object.entries(COMPILERS)) {
      const result = typecheck(OUT, compiler, 'node');
      expect(result.output, label).toBe('');
      expect(result.ok, label).toBe(true);
    }
  });

  it('use no `any` and import only node: built-ins and each other', () => {
    for (const name of STAGE_FILES) {
      expect(anyTypes(sources[name]), name).toEqual([]);
      for (const [, from] of sources[name].matchAll(/^import .* from "([^"]+)";$/gm)) expect(from, name).toMatch(/^(node:|\.\/)/);
    }
  });
});

describe('MemoryStore', () => {
  it('expires entries after their TTL', async () => {
    const clock = fakeClock();
    const store = new MemoryStore({ now: clock.now });
    await store.set('a', '1', 100);
    expect(await store.get('a')).toBe('1');
    clock.advance(99);
    expect(await store.get('a')).toBe('1');
    clock.advance(1);
    expect(await store.get('a')).toBeUndefined();
    await store.set('b', '2', 50);
    await store.delete('b');
    expect(await store.get('b')).toBeUndefined();
    await expect(store.set('c', '3', 0)).rejects.toThrow(RangeError);
    store.close();
  });

  it('setIfAbsent is atomic: of concurrent callers exactly one wins, and an expired key is free again', async () => {
    const clock = fakeClock();
    const store = new MemoryStore({ now: clock.now });
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => store.setIfAbsent('lock', String(i), 1000)));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await store.get('lock')).toBe(String(results.indexOf(true)));
    clock.advance(1000);
    expect(await store.setIfAbsent('lock', 'again', 1000)).toBe(true);
    expect(await store.get('lock')).toBe('again');
    store.close();
  });

  it('increment counts in a fixed window that later increments do not extend', async () => {
    const clock = fakeClock();
    const store = new MemoryStore({ now: clock.now });
    expect(await store.increment('n', 1000)).toEqual({ count: 1, ttlMs: 1000 });
    clock.advance(400);
    expect(await store.increment('n', 1000)).toEqual({ count: 2, ttlMs: 600 });
    expect(await store.get('n')).toBe('2');
    clock.advance(600);
    expect(await store.increment('n', 1000)).toEqual({ count: 1, ttlMs: 1000 });
    await store.set('text', 'abc', 1000);
    await expect(store.increment('text', 1000)).rejects.toThrow(TypeError);
    store.close();
  });

  it('holds at most maxEntries (evicting the oldest write) and sweeps expired entries', async () => {
    const clock = fakeClock();
    const store = new MemoryStore({ now: clock.now, maxEntries: 3 });
    await store.set('a', '1', 100);
    await store.set('b', '2', 100);
    await store.set('c', '3', 1000);
    await store.set('a', '1', 100); // rewriting moves `a` to the end
    await store.set('d', '4', 1000);
    expect(store.size).toBe(3);
    expect(await store.get('b')).toBeUndefined();
    expect(await store.get('a')).toBe('1');
    clock.advance(100);
    expect(store.sweep()).toBe(1);
    expect(store.size).toBe(2);
    store.close();
  });

  it('never keeps the process alive (its sweep timer is unref’d)', () => {
    // A process of its own, which loads JavaScript: the copied modules, transpiled.
    transpileFolder(OUT);
    const url = pathToFileURL(join(OUT, 'runtime', 'store.js')).href;
    const script = `import { MemoryStore } from ${JSON.stringify(url)}; const s = new MemoryStore({ sweepIntervalMs: 10 }); await s.set("k", "v", 3600000); console.log("set");`;
    const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 20_000 });
    expect(result.signal).toBeNull();
    expect(result.status).toBe(0);
    expect(result.stdout.trim()).toBe('set');
  });
});

describe('cors', () => {
  const operations = [
    { method: 'GET', path: '/items' },
    { method: 'POST', path: '/items' },
    { method: 'DELETE', path: '/items' },
  ];
  const origin = 'https://app.example.com';

  it('gives an allowed origin Access-Control-Allow-Origin (its own), exposed headers and Vary: Origin', async () => {
    const { url } = await serve({ stages: [cors({ origins: [origin] })], operations, handler: ok });
    const response = await fetch(`${url}/items`, { headers: { origin } });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe(origin);
    expect(response.headers.get('vary')).toBe('Origin');
    expect(response.headers.get('access-control-allow-credentials')).toBeNull();
    const exposed = response.headers.get('access-control-expose-headers')?.split(', ');
    for (const name of [
      'Trace-Id',
      'ETag',
      'Location',
      'Link',
      'Retry-After',
      'RateLimit-Limit',
      'RateLimit-Remaining',
      'RateLimit-Reset',
    ]) {
      expect(exposed).toContain(name);
    }
  });

  it('gives a denied origin no CORS headers, and Vary: Origin on every response', async () => {
    const { url } = await serve({
      stages: [cors({ origins: [origin] })],
      operations,
      handler: async () => json(200, {}, { vary: 'Accept' }),
    });
    const denied = await fetch(`${url}/items`, { headers: { origin: 'https://evil.example' } });
    expect(denied.status).toBe(200);
    expect([...denied.headers.keys()].filter((name) => name.startsWith('access-control-'))).toEqual([]);
    expect(denied.headers.get('vary')).toBe('Accept, Origin');
    const sameOrigin = await fetch(`${url}/items`);
    expect(sameOrigin.headers.get('access-control-allow-origin')).toBeNull();
    expect(sameOrigin.headers.get('vary')).toBe('Accept, Origin');
  });

  it('answers a preflight with 204, the path’s methods, the allowed requested headers, Max-Age and credentials', async () => {
    const { url, seen } = await serve({
      stages: [cors({ origins: (candidate) => candidate.endsWith('.example.com'), credentials: true, maxAge: 300 })],
      operations,
      handler: ok,
    });
    const response = await fetch(`${url}/items`, {
      method: 'OPTIONS',
      headers: {
        origin,
        'access-control-request-method': 'DELETE',
        'access-control-request-headers': 'Authorization, If-Match, X-Unknown',
      },
    });
    expect(response.status).toBe(204);
    expect(await response.text()).toBe('');
    expect(response.headers.get('access-control-allow-origin')).toBe(origin);
    expect(response.headers.get('access-control-allow-methods')).toBe('GET, POST, DELETE');
    expect(response.headers.get('access-control-allow-headers')).toBe('authorization, if-match');
    expect(response.headers.get('access-control-max-age')).toBe('300');
    expect(response.headers.get('access-control-allow-credentials')).toBe('true');
    expect(response.headers.get('vary')).toContain('Origin');
    expect(seen).toHaveLength(0); // preflights never reach later stages or the handler
  });

  it('takes the preflight’s methods from allowMethods when given', async () => {
    const { url } = await serve({ stages: [cors({ origins: [origin], allowMethods: () => ['GET', 'PUT'] })], operations, handler: ok });
    const response = await fetch(`${url}/items`, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'PUT' } });
    expect(response.headers.get('access-control-allow-methods')).toBe('GET, PUT');
    expect(response.headers.get('access-control-allow-headers')).toBeNull();
  });

  it('answers a preflight from a denied origin 403 problem without CORS headers', async () => {
    const { url } = await serve({ stages: [cors({ origins: [origin] })], operations, handler: ok });
    const response = await fetch(`${url}/items`, {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'DELETE' },
    });
    expect(response.status).toBe(403);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
    expect(response.headers.get('access-control-allow-methods')).toBeNull();
    expect(await response.json()).toMatchObject({ status: 403, title: 'Forbidden' });
  });

  it('never sends * together with credentials: refused at setup; credentials reflect the origin', async () => {
    expect(() => cors({ origins: ['*'], credentials: true })).toThrow(/credentials/);
    expect(() => cors({ origins: ['https://ok.example', '*'], credentials: true })).toThrow(/credentials/);
    expect(() => cors({ origins: ['app.example.com'] })).toThrow(/not an origin/);
    expect(() => cors({ origins: ['null'] })).toThrow(/not an origin/);

    const wildcard = await serve({ stages: [cors({ origins: ['*'] })], operations, handler: ok });
    const open = await fetch(`${wildcard.url}/items`, { headers: { origin: 'https://anyone.example' } });
    expect(open.headers.get('access-control-allow-origin')).toBe('*');
    expect(open.headers.get('access-control-allow-credentials')).toBeNull();
    expect(open.headers.get('vary')).toBeNull();

    const credentialed = await serve({ stages: [cors({ origins: [origin], credentials: true })], operations, handler: ok });
    const response = await fetch(`${credentialed.url}/items`, { headers: { origin } });
    expect(response.headers.get('access-control-allow-origin')).toBe(origin);
    expect(response.headers.get('access-control-allow-credentials')).toBe('true');
  });

  it('puts its headers on problems thrown by later stages, so browsers can read a 401', async () => {
    const { url } = await serve({
      stages: [
        cors({ origins: [origin] }),
        async () => Promise.reject(new HttpProblem(401, 'Unauthorized', { headers: { 'www-authenticate': 'Bearer realm="api"' } })),
      ],
      operations,
      handler: ok,
    });
    const response = await fetch(`${url}/items`, { headers: { origin } });
    expect(response.status).toBe(401);
    expect(response.headers.get('access-control-allow-origin')).toBe(origin);
    expect(response.headers.get('access-control-expose-headers')).toContain('WWW-Authenticate');
    expect(response.headers.get('vary')).toBe('Origin');
  });
});

describe('rateLimit', () => {
  const operations = [
    { method: 'GET', path: '/items' },
    { method: 'POST', path: '/items' },
  ];

  it('answers 429 with Retry-After over the limit, and RateLimit-* on every response', async () => {
    const clock = fakeClock();
    const store = new MemoryStore({ now: clock.now });
    const { url, seen } = await serve({ stages: [rateLimit({ store, limit: 2, windowMs: 60_000 })], operations, handler: ok });
    const call = () => fetch(`${url}/items`, { headers: { 'x-test-client': 'alice' } });

    const first = await call();
    expect(first.status).toBe(200);
    expect(first.headers.get('ratelimit-limit')).toBe('2');
    expect(first.headers.get('ratelimit-remaining')).toBe('1');
    expect(first.headers.get('ratelimit-reset')).toBe('60');
    expect(first.headers.get('ratelimit-policy')).toBe('2;w=60');
    clock.advance(15_000);
    expect((await call()).headers.get('ratelimit-remaining')).toBe('0');

    const limited = await call();
    expect(limited.status).toBe(429);
    expect(limited.headers.get('content-type')).toBe('application/problem+json');
    expect(limited.headers.get('retry-after')).toBe('45');
    expect(limited.headers.get('ratelimit-remaining')).toBe('0');
    expect(limited.headers.get('ratelimit-reset')).toBe('45');
    expect(await limited.json()).toMatchObject({ status: 429, title: 'Too Many Requests' });
    expect(seen).toHaveLength(2);

    // Another client has its own budget; the window ends and the budget returns.
    expect((await fetch(`${url}/items`, { headers: { 'x-test-client': 'bob' } })).status).toBe(200);
    clock.advance(45_000);
    expect((await call()).status).toBe(200);
    store.close();
  });

  it('counts one budget across operations by default, or per operation with a key function', async () => {
    const store = new MemoryStore();
    const shared = await serve({ stages: [rateLimit({ store, limit: 1, windowMs: 60_000, prefix: 'shared:' })], operations, handler: ok });
    expect((await fetch(`${shared.url}/items`)).status).toBe(200);
    expect((await fetch(`${shared.url}/items`, { method: 'POST' })).status).toBe(429);

    const perOperation = await serve({
      stages: [
        rateLimit({ store, limit: 1, windowMs: 60_000, prefix: 'op:', key: (request) => `${request.clientKey} ${request.operation.id}` }),
      ],
      operations,
      handler: ok,
    });
    expect((await fetch(`${perOperation.url}/items`)).status).toBe(200);
    expect((await fetch(`${perOperation.url}/items`, { method: 'POST' })).status).toBe(200);
    expect((await fetch(`${perOperation.url}/items`, { method: 'POST' })).status).toBe(429);
    store.close();
  });

  it('adds its headers to problems thrown by later stages', async () => {
    const store = new MemoryStore();
    const { url } = await serve({
      stages: [rateLimit({ store, limit: 5, windowMs: 1000 }), async () => Promise.reject(new HttpProblem(401, 'Unauthorized'))],
      operations,
      handler: ok,
    });
    const response = await fetch(`${url}/items`);
    expect(response.status).toBe(401);
    expect(response.headers.get('ratelimit-remaining')).toBe('4');
    store.close();
  });

  it('refuses a nonsensical configuration at setup', () => {
    const store = new MemoryStore();
    expect(() => rateLimit({ store, limit: 0, windowMs: 1000 })).toThrow(RangeError);
    expect(() => rateLimit({ store, limit: 1, windowMs: 0 })).toThrow(RangeError);
  });
});

describe('authenticate', () => {
  interface User {
    id: string;
    role: 'admin' | 'reader' | 'blocked';
  }
  const USERS: Record<string, User> = {
    'admin-token': { id: 'u1', role: 'admin' },
    'reader-token': { id: 'u2', role: 'reader' },
    'blocked-token': { id: 'u3', role: 'blocked' },
  };
  const schemes = {
    bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
    basicAuth: { type: 'http', scheme: 'Basic' },
    headerKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
    queryKey: { type: 'apiKey', in: 'query', name: 'api_key' },
    cookieKey: { type: 'apiKey', in: 'cookie', name: 'session' },
  } satisfies Record<string, SchemeSpec>;
  const operations = [
    { method: 'GET', path: '/public', security: [] },
    { method: 'GET', path: '/items', security: [['bearerAuth']] },
    { method: 'DELETE', path: '/items', security: [['bearerAuth']] },
    { method: 'GET', path: '/optional', security: [['bearerAuth'], []] },
    { method: 'GET', path: '/basic', security: [['basicAuth']] },
    { method: 'GET', path: '/keys', security: [['headerKey'], ['queryKey'], ['cookieKey']] },
    { method: 'GET', path: '/both', security: [['bearerAuth', 'headerKey']] },
  ];
  const credentialsSeen: unknown[] = [];
  const stage = () =>
    authenticate<User>({
      schemes,
      async verify(credentials) {
        credentialsSeen.push(credentials);
        if (credentials.type === 'bearer') {
          const user = USERS[credentials.token];
          if (user?.role === 'blocked') throw new HttpProblem(403, 'Forbidden', { detail: 'This account is blocked.' });
          return user;
        }
        if (credentials.type === 'basic')
          return credentials.username === 'ann' && credentials.password === 'p:ss wörd' ? { id: 'ann', role: 'reader' } : undefined;
        return credentials.apiKey === 'k-123' ? { id: 'svc', role: 'reader' } : undefined;
      },
      authorize: (user, request) => request.method === 'GET' || user.role === 'admin',
    });
  const handler = async (request: ServerRequest) => json(200, { principal: request.principal ?? null });

  it('lets anyone call a public operation', async () => {
    const { url } = await serve({ stages: [stage()], operations, handler });
    const response = await fetch(`${url}/public`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ principal: null });
  });

  it('answers 401 with a WWW-Authenticate challenge without credentials', async () => {
    const { url, seen } = await serve({ stages: [stage()], operations, handler });
    const response = await fetch(`${url}/items`);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer realm="api"');
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(await response.json()).toMatchObject({ status: 401, title: 'Unauthorized', detail: 'This operation requires authentication.' });
    // A token of another scheme is no credential for this one.
    expect((await fetch(`${url}/items`, { headers: { authorization: 'Basic YW5uOng=' } })).status).toBe(401);
    expect(seen).toHaveLength(0);
  });

  it('answers 401 with error="invalid_token" for a rejected or malformed token', async () => {
    const { url } = await serve({ stages: [stage()], operations, handler });
    for (const authorization of ['Bearer nope', 'Bearer', 'Bearer a b']) {
      const response = await fetch(`${url}/items`, { headers: { authorization } });
      expect(response.status, authorization).toBe(401);
      expect(response.headers.get('www-authenticate'), authorization).toBe('Bearer realm="api", error="invalid_token"');
      expect(await response.json()).toMatchObject({ detail: 'The credentials sent were not accepted.' });
    }
  });

  it('answers 403 when authenticated but not authorized, or when verify throws a 403 problem', async () => {
    const { url, seen } = await serve({ stages: [stage()], operations, handler });
    const reader = await fetch(`${url}/items`, { method: 'DELETE', headers: { authorization: 'Bearer reader-token' } });
    expect(reader.status).toBe(403);
    expect(reader.headers.get('www-authenticate')).toBe('Bearer realm="api", error="insufficient_scope"');
    expect(await reader.json()).toMatchObject({ status: 403, title: 'Forbidden' });

    const blocked = await fetch(`${url}/items`, { headers: { authorization: 'bearer blocked-token' } });
    expect(blocked.status).toBe(403);
    expect(await blocked.json()).toMatchObject({ detail: 'This account is blocked.' });

    const admin = await fetch(`${url}/items`, { method: 'DELETE', headers: { authorization: 'Bearer admin-token' } });
    expect(admin.status).toBe(200);
    expect(await admin.json()).toEqual({ principal: { id: 'u1', role: 'admin' } });
    expect(seen.map((request) => request.principal)).toEqual([{ id: 'u1', role: 'admin' }]);
  });

  it('reads Basic credentials (UTF-8, a password may hold colons)', async () => {
    const { url } = await serve({ stages: [stage()], operations, handler });
    const basic = (text: string) => `Basic ${Buffer.from(text, 'utf8').toString('base64')}`;
    expect((await fetch(`${url}/basic`, { headers: { authorization: basic('ann:p:ss wörd') } })).status).toBe(200);
    const wrong = await fetch(`${url}/basic`, { headers: { authorization: basic('ann:nope') } });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('www-authenticate')).toBe('Basic realm="api", charset="UTF-8"');
    expect((await fetch(`${url}/basic`, { headers: { authorization: 'Basic !!!' } })).status).toBe(401);
  });

  it('reads API keys from a header, the query or a cookie', async () => {
    const { url } = await serve({ stages: [stage()], operations, handler });
    expect((await fetch(`${url}/keys`, { headers: { 'x-api-key': 'k-123' } })).status).toBe(200);
    expect((await fetch(`${url}/keys?api_key=k-123`)).status).toBe(200);
    expect((await fetch(`${url}/keys`, { headers: { cookie: 'theme=dark; session=k-123' } })).status).toBe(200);
    const missing = await fetch(`${url}/keys`);
    expect(missing.status).toBe(401);
    expect(missing.headers.get('www-authenticate')).toBe(
      'ApiKey realm="api", in="header", name="X-API-Key", ApiKey realm="api", in="query", name="api_key", ApiKey realm="api", in="cookie", name="session"',
    );
    expect((await fetch(`${url}/keys`, { headers: { 'x-api-key': 'wrong' } })).status).toBe(401);
  });

  it('treats an empty alternative as optional auth, but still rejects bad credentials', async () => {
    const { url } = await serve({ stages: [stage()], operations, handler });
    expect(await (await fetch(`${url}/optional`)).json()).toEqual({ principal: null });
    expect(await (await fetch(`${url}/optional`, { headers: { authorization: 'Bearer reader-token' } })).json()).toEqual({
      principal: { id: 'u2', role: 'reader' },
    });
    expect((await fetch(`${url}/optional`, { headers: { authorization: 'Bearer expired' } })).status).toBe(401);
  });

  it('requires every scheme of an alternative that lists several', async () => {
    const { url } = await serve({ stages: [stage()], operations, handler });
    expect((await fetch(`${url}/both`, { headers: { authorization: 'Bearer admin-token' } })).status).toBe(401);
    const both = await fetch(`${url}/both`, { headers: { authorization: 'Bearer admin-token', 'x-api-key': 'k-123' } });
    expect(both.status).toBe(200);
    expect(await both.json()).toEqual({ principal: { id: 'u1', role: 'admin' } });
  });

  it('refuses schemes it cannot read at setup', () => {
    expect(() => authenticate({ schemes: { digest: { type: 'http', scheme: 'digest' } }, verify: async () => undefined })).toThrow(
      /bearer and basic/,
    );
  });
});

describe('idempotency', () => {
  const operations = [
    { method: 'POST', path: '/items', idempotencyKey: true as const },
    { method: 'POST', path: '/plain' },
  ];

  /** A create handler that counts its runs; `gate` holds requests until opened. */
  function creator(options: { gate?: Promise<void>; fail?: () => 'throw' | 500 | undefined } = {}) {
    let runs = 0;
    const handler = async (request: ServerRequest) => {
      runs++;
      if (options.gate) await options.gate;
      const failure = options.fail?.();
      if (failure === 'throw') throw new Error('database down');
      if (failure === 500) return json(500, { failed: true });
      const id = `item-${runs}`;
      return json(201, { id, input: JSON.parse(new TextDecoder().decode(request.body)) }, { location: `/items/${id}` });
    };
    return { handler, runs: () => runs };
  }

  const post = (url: string, body: unknown, key?: string, client = 'c1') =>
    fetch(`${url}/items`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-test-client': client, ...(key === undefined ? {} : { 'idempotency-key': key }) },
      body: JSON.stringify(body),
    });

  it('replays the stored response for a repeat with the same key and body', async () => {
    const store = new MemoryStore();
    const create = creator();
    const { url } = await serve({ stages: [idempotency({ store })], operations, handler: create.handler });
    const first = await post(url, { title: 'a' }, 'key-1');
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const again = await post(url, { title: 'a' }, 'key-1');
    expect(again.status).toBe(201);
    expect(again.headers.get('location')).toBe(first.headers.get('location'));
    expect(again.headers.get('content-type')).toBe('application/json');
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await again.json()).toEqual(await first.json());
    expect(create.runs()).toBe(1);

    // Without a key, or on an operation without the header, every request runs.
    await post(url, { title: 'a' });
    await fetch(`${url}/plain`, { method: 'POST', headers: { 'idempotency-key': 'key-1' }, body: '{}' });
    expect(create.runs()).toBe(3);
    // The same key from another client is another key.
    expect((await post(url, { title: 'a' }, 'key-1', 'c2')).headers.get('idempotent-replayed')).toBeNull();
    store.close();
  });

  it('answers 422 for the same key with a different body', async () => {
    const store = new MemoryStore();
    const create = creator();
    const { url } = await serve({ stages: [idempotency({ store })], operations, handler: create.handler });
    expect((await post(url, { title: 'a' }, 'key-2')).status).toBe(201);
    const other = await post(url, { title: 'b' }, 'key-2');
    expect(other.status).toBe(422);
    expect(other.headers.get('content-type')).toBe('application/problem+json');
    expect(await other.json()).toMatchObject({
      status: 422,
      title: 'Unprocessable Content',
      detail: expect.stringContaining('different request'),
    });
    expect(create.runs()).toBe(1);
    store.close();
  });

  it('answers 409 to a duplicate while the first request is still in flight', async () => {
    const store = new MemoryStore();
    const gate = deferred();
    const create = creator({ gate: gate.promise });
    const { url } = await serve({ stages: [idempotency({ store })], operations, handler: create.handler });
    const first = post(url, { title: 'a' }, 'key-3');
    while (create.runs() === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    const duplicate = await post(url, { title: 'a' }, 'key-3');
    expect(duplicate.status).toBe(409);
    expect(duplicate.headers.get('retry-after')).toBe('1');
    expect(await duplicate.json()).toMatchObject({
      status: 409,
      title: 'Conflict',
      detail: expect.stringContaining('still being processed'),
    });
    gate.resolve();
    expect((await first).status).toBe(201);
    expect((await post(url, { title: 'a' }, 'key-3')).headers.get('idempotent-replayed')).toBe('true');
    expect(create.runs()).toBe(1);
    store.close();
  });

  it('forgets keys after ttlMs', async () => {
    const clock = fakeClock();
    const store = new MemoryStore({ now: clock.now });
    const create = creator();
    const { url } = await serve({ stages: [idempotency({ store, ttlMs: 1000 })], operations, handler: create.handler });
    expect((await post(url, { title: 'a' }, 'key-4')).status).toBe(201);
    clock.advance(999);
    expect((await post(url, { title: 'a' }, 'key-4')).headers.get('idempotent-replayed')).toBe('true');
    clock.advance(1);
    const fresh = await post(url, { title: 'b' }, 'key-4');
    expect(fresh.status).toBe(201);
    expect(fresh.headers.get('idempotent-replayed')).toBeNull();
    expect(create.runs()).toBe(2);
    store.close();
  });

  it('releases the key when the first attempt fails (5xx or thrown), so a retry runs', async () => {
    const store = new MemoryStore();
    const failures: Array<'throw' | 500 | undefined> = [500, 'throw'];
    const create = creator({ fail: () => failures.shift() });
    const { url } = await serve({ stages: [idempotency({ store })], operations, handler: create.handler });
    expect((await post(url, { title: 'a' }, 'key-5')).status).toBe(500);
    expect((await post(url, { title: 'a' }, 'key-5')).status).toBe(500);
    const retry = await post(url, { title: 'a' }, 'key-5');
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
    expect((await post(url, { title: 'a' }, 'key-5')).headers.get('idempotent-replayed')).toBe('true');
    expect(create.runs()).toBe(3);
    store.close();
  });

  it('answers 400 to a key that is too long, empty or not printable ASCII', async () => {
    const store = new MemoryStore();
    const create = creator();
    const { url } = await serve({ stages: [idempotency({ store })], operations, handler: create.handler });
    for (const key of ['x'.repeat(256), '', '""', 'clé']) {
      const response = await fetch(`${url}/items`, { method: 'POST', headers: { 'idempotency-key': key }, body: '{}' });
      expect(response.status, key).toBe(400);
      expect(await response.json()).toMatchObject({
        status: 400,
        title: 'Bad Request',
        detail: expect.stringContaining('Idempotency-Key'),
      });
    }
    // The quoted structured-field form of the IETF draft is the same key as the bare one.
    expect((await post(url, { title: 'a' }, '"key-6"')).status).toBe(201);
    expect((await post(url, { title: 'a' }, 'key-6')).headers.get('idempotent-replayed')).toBe('true');
    expect(create.runs()).toBe(1);
    store.close();
  });
});

describe('conditional', () => {
  const operations = [
    { method: 'GET', path: '/items', cacheControl: 'private, max-age=60' },
    { method: 'GET', path: '/plain' },
    { method: 'GET', path: '/tagged' },
    { method: 'POST', path: '/plain' },
    { method: 'PUT', path: '/items', ifMatch: 'required' as const },
    { method: 'PATCH', path: '/items', ifMatch: 'optional' as const },
    { method: 'DELETE', path: '/items', ifMatch: 'required' as const },
  ];
  const LAST_MODIFIED = 'Wed, 01 May 2024 10:00:00 GMT';
  const body = { id: 'item-1', title: 'Write docs' };
  const bodyBytes = new TextEncoder().encode(JSON.stringify(body));
  const expectedEtag = `"${createHash('sha256').update(bodyBytes).digest('base64url')}"`;
  const handler = async (request: ServerRequest) => {
    if (request.url.pathname === '/tagged')
      return json(200, body, { etag: 'W/"v1"', 'last-modified': LAST_MODIFIED, 'cache-control': 'no-store' });
    return json(request.method === 'POST' ? 201 : 200, body, { 'last-modified': LAST_MODIFIED });
  };

  it('computes a strong ETag from the body, the same for HEAD, weak on request', async () => {
    const { url } = await serve({ stages: [conditional()], operations, handler });
    const response = await fetch(`${url}/items`);
    expect(response.headers.get('etag')).toBe(expectedEtag);
    expect(computeEtag(bodyBytes)).toBe(expectedEtag);
    expect(await response.json()).toEqual(body);
    expect((await fetch(`${url}/items`, { method: 'HEAD' })).headers.get('etag')).toBe(expectedEtag);
    expect((await fetch(`${url}/plain`, { method: 'POST', body: '{}' })).headers.get('etag')).toBeNull();

    const weak = await serve({ stages: [conditional({ etag: 'weak' })], operations, handler });
    expect((await fetch(`${weak.url}/items`)).headers.get('etag')).toBe(`W/${expectedEtag}`);
  });

  it('answers 304 with no body to a matching If-None-Match, keeping ETag, Cache-Control and Last-Modified', async () => {
    const { url } = await serve({ stages: [conditional()], operations, handler });
    for (const ifNoneMatch of [expectedEtag, `"other", ${expectedEtag}`, '*']) {
      const response = await fetch(`${url}/items`, { headers: { 'if-none-match': ifNoneMatch } });
      expect(response.status, ifNoneMatch).toBe(304);
      expect(await response.text()).toBe('');
      expect(response.headers.get('etag')).toBe(expectedEtag);
      expect(response.headers.get('cache-control')).toBe('private, max-age=60');
      expect(response.headers.get('last-modified')).toBe(LAST_MODIFIED);
      expect(response.headers.get('content-type')).toBeNull();
    }
    const changed = await fetch(`${url}/items`, { headers: { 'if-none-match': '"stale"' } });
    expect(changed.status).toBe(200);
    expect(await changed.json()).toEqual(body);
  });

  it('compares If-None-Match weakly and keeps a handler’s own ETag', async () => {
    const { url } = await serve({ stages: [conditional()], operations, handler });
    const response = await fetch(`${url}/tagged`);
    expect(response.headers.get('etag')).toBe('W/"v1"');
    expect((await fetch(`${url}/tagged`, { headers: { 'if-none-match': '"v1"' } })).status).toBe(304);
    expect((await fetch(`${url}/tagged`, { headers: { 'if-none-match': 'W/"v1"' } })).status).toBe(304);
    expect((await fetch(`${url}/tagged`, { headers: { 'if-none-match': 'W/"v2"' } })).status).toBe(200);
  });

  it('answers 304 to If-Modified-Since not before Last-Modified, only without If-None-Match', async () => {
    const { url } = await serve({ stages: [conditional()], operations, handler });
    expect((await fetch(`${url}/plain`, { headers: { 'if-modified-since': LAST_MODIFIED } })).status).toBe(304);
    expect((await fetch(`${url}/plain`, { headers: { 'if-modified-since': 'Thu, 02 May 2024 10:00:00 GMT' } })).status).toBe(304);
    expect((await fetch(`${url}/plain`, { headers: { 'if-modified-since': 'Tue, 30 Apr 2024 10:00:00 GMT' } })).status).toBe(200);
    expect((await fetch(`${url}/plain`, { headers: { 'if-modified-since': 'not a date' } })).status).toBe(200);
    // If-None-Match takes precedence: a non-matching tag means 200 whatever the date says.
    expect((await fetch(`${url}/plain`, { headers: { 'if-modified-since': LAST_MODIFIED, 'if-none-match': '"stale"' } })).status).toBe(200);
  });

  it('sends Cache-Control per operation on GET/HEAD, a default otherwise, a handler’s own first, none on POST', async () => {
    const { url } = await serve({ stages: [conditional()], operations, handler });
    expect((await fetch(`${url}/items`)).headers.get('cache-control')).toBe('private, max-age=60');
    expect((await fetch(`${url}/items`, { method: 'HEAD' })).headers.get('cache-control')).toBe('private, max-age=60');
    expect((await fetch(`${url}/plain`)).headers.get('cache-control')).toBe('private, no-cache');
    expect((await fetch(`${url}/tagged`)).headers.get('cache-control')).toBe('no-store');
    expect((await fetch(`${url}/plain`, { method: 'POST', body: '{}' })).headers.get('cache-control')).toBeNull();
    const configured = await serve({ stages: [conditional({ defaultCacheControl: 'no-store' })], operations, handler });
    expect((await fetch(`${configured.url}/plain`)).headers.get('cache-control')).toBe('no-store');
  });

  it('answers 428 when a required If-Match is missing, before the handler runs', async () => {
    const { url, seen } = await serve({ stages: [conditional()], operations, handler });
    const response = await fetch(`${url}/items`, { method: 'PUT', body: '{}' });
    expect(response.status).toBe(428);
    expect(await response.json()).toMatchObject({ status: 428, title: 'Precondition Required' });
    expect((await fetch(`${url}/items`, { method: 'DELETE' })).status).toBe(428);
    expect(seen).toHaveLength(0);
    // Optional: without If-Match the change goes ahead.
    expect((await fetch(`${url}/items`, { method: 'PATCH', body: '{}' })).status).toBe(200);
  });

  it('answers 412 when If-Match names another version (currentEtag option)', async () => {
    let current: string | undefined = expectedEtag;
    const { url, seen } = await serve({ stages: [conditional({ currentEtag: async () => current })], operations, handler });
    const stale = await fetch(`${url}/items`, { method: 'PUT', headers: { 'if-match': '"old"' }, body: '{}' });
    expect(stale.status).toBe(412);
    expect(await stale.json()).toMatchObject({ status: 412, title: 'Precondition Failed' });
    expect(seen).toHaveLength(0);
    expect((await fetch(`${url}/items`, { method: 'PUT', headers: { 'if-match': expectedEtag }, body: '{}' })).status).toBe(200);
    expect((await fetch(`${url}/items`, { method: 'PUT', headers: { 'if-match': `"x", ${expectedEtag}` }, body: '{}' })).status).toBe(200);
    // If-Match compares strongly: a weak tag never matches.
    expect((await fetch(`${url}/items`, { method: 'PUT', headers: { 'if-match': `W/${expectedEtag}` }, body: '{}' })).status).toBe(412);
    expect((await fetch(`${url}/items`, { method: 'PUT', headers: { 'if-match': '*' }, body: '{}' })).status).toBe(200);
    current = undefined; // the resource is gone: even * fails
    expect((await fetch(`${url}/items`, { method: 'PUT', headers: { 'if-match': '*' }, body: '{}' })).status).toBe(412);
  });

  it('warns once when If-Match reached an operation that never compared it', async () => {
    const warnings: Array<Error & { code?: string }> = [];
    const listener = (warning: Error & { code?: string }) => warnings.push(warning);
    process.on('warning', listener);
    try {
      const { url } = await serve({
        stages: [conditional()],
        operations: [{ method: 'PATCH', path: '/unchecked', ifMatch: 'optional' }],
        handler,
      });
      for (let i = 0; i < 2; i++)
        expect((await fetch(`${url}/unchecked`, { method: 'PATCH', headers: { 'if-match': '"v1"' }, body: '{}' })).status).toBe(200);
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('warning', listener);
    }
    expect(warnings.filter((warning) => warning.code === 'CODEGEN_IF_MATCH_UNCHECKED')).toHaveLength(1);
  });

  it('answers 412 from assertIfMatch in the handler, which compares with what it loaded', async () => {
    let version = 1;
    const stored = () => ({ id: 'item-1', version });
    const { url } = await serve({
      stages: [conditional()],
      operations,
      handler: async (request) => {
        if (request.method === 'GET') return json(200, stored());
        assertIfMatch(request, computeEtag(JSON.stringify(stored())));
        version++;
        return json(200, stored());
      },
    });
    const { headers } = await fetch(`${url}/items`);
    const etag = headers.get('etag') ?? '';
    const update = () => fetch(`${url}/items`, { method: 'PATCH', headers: { 'if-match': etag }, body: '{}' });
    expect((await update()).status).toBe(200);
    const lost = await update();
    expect(lost.status).toBe(412);
    expect(lost.headers.get('content-type')).toBe('application/problem+json');
    expect(version).toBe(2);
  });
});
