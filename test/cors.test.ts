/**
 * One CORS for every HTTP surface (issue 11, principle 7; F14): the four examples started as
 * `npm run example:<style>` does, each with the same `CORS_ORIGINS`, asked from Node the way a
 * browser asks. Per surface: a preflight from an allowed origin is answered 204 with the methods
 * and headers that surface accepts, an actual answer carries Access-Control-Allow-Origin and the
 * surface's exposed headers, a preflight from another origin is refused 403 and no answer to it
 * carries CORS headers; WebSocket upgrades check Origin against the same list.
 * The browser side of the same servers is test/cors-browser.test.ts.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { ROOT } from './support/cli.js';
import { GRAPHQL_EXAMPLE_MAIN, startExample, type RunningExample } from './support/e2e-example.js';

const APP = 'https://app.example.com';
const PREVIEW = 'https://pr-7.preview.example.com';
const EVIL = 'https://evil.example';
const CORS_ORIGINS = `${APP},https://*.preview.example.com`;

const examples: Record<'rest' | 'graphql' | 'grpc' | 'realtime', RunningExample> = {} as never;

beforeAll(async () => {
  const env = { CORS_ORIGINS, FEED_INTERVAL_MS: '60000' };
  const [rest, graphql, grpc, realtime] = await Promise.all([
    startExample(env),
    startExample(env, GRAPHQL_EXAMPLE_MAIN),
    startExample(env, join(ROOT, 'dist', 'examples', 'grpc', 'main.js')),
    startExample(env, join(ROOT, 'dist', 'examples', 'realtime', 'main.js')),
  ]);
  Object.assign(examples, { rest, graphql, grpc, realtime });
}, 60_000);

afterAll(async () => {
  for (const example of Object.values(examples)) expect((await example.stop()).code).toBe(0);
});

/** `http://127.0.0.1:<port>` of an example (the GraphQL one prints its path too). */
const base = (name: keyof typeof examples): string => `http://127.0.0.1:${examples[name].port}`;

function preflight(url: string, origin: string, method: string, headers: string): Promise<Response> {
  return fetch(url, {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': headers },
  });
}

const corsHeaders = (response: Response): string[] => [...response.headers.keys()].filter((name) => name.startsWith('access-control-'));

interface Surface {
  name: keyof typeof examples;
  path: string;
  method: string;
  /** What a browser client of this surface asks for; every one must be granted. */
  requested: string;
  /** Methods the preflight must name. */
  methods: string[];
  /** An actual request, from `origin`. */
  actual(url: string, origin: string): Promise<Response>;
  /** Headers the actual answer must let scripts read. */
  exposed: string[];
}

const SURFACES: Surface[] = [
  {
    name: 'rest',
    path: '/v1/projects',
    method: 'POST',
    requested: 'authorization, content-type, idempotency-key',
    methods: ['GET', 'POST'],
    actual: (url, origin) => fetch(url, { headers: { origin, authorization: 'Bearer demo-token' } }),
    exposed: ['Trace-Id', 'ETag', 'Location', 'Link', 'Retry-After', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'],
  },
  {
    name: 'graphql',
    path: '/graphql',
    method: 'POST',
    requested: 'authorization, content-type',
    methods: ['GET', 'POST'],
    actual: (url, origin) =>
      fetch(url, {
        method: 'POST',
        headers: { origin, 'content-type': 'application/json', authorization: 'Bearer member-token' },
        body: JSON.stringify({ query: '{ task(id: "t1") { id } }' }),
      }),
    exposed: ['Retry-After', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'],
  },
  {
    name: 'grpc',
    path: '/acme.tasks.v1.TaskService/CreateTask',
    method: 'POST',
    requested: 'authorization, content-type, x-grpc-web, x-user-agent, grpc-timeout, connect-protocol-version, connect-timeout-ms',
    methods: ['POST', 'GET'],
    actual: (url, origin) =>
      fetch(url, {
        method: 'POST',
        headers: { origin, 'content-type': 'application/json', 'connect-protocol-version': '1', authorization: 'Bearer demo-token' },
        body: JSON.stringify({ task: { projectId: 'p1', title: 'From another origin' } }),
      }),
    exposed: ['Grpc-Status', 'Grpc-Message', 'Grpc-Status-Details-Bin'],
  },
  {
    name: 'realtime',
    path: '/v1/tasks/t1/summary',
    method: 'POST',
    requested: 'authorization, content-type, last-event-id',
    methods: ['GET', 'HEAD', 'POST'],
    actual: (url, origin) =>
      fetch(url, {
        method: 'POST',
        headers: { origin, 'content-type': 'application/json', authorization: 'Bearer demo-token' },
        body: '{}',
      }),
    exposed: ['Retry-After', 'WWW-Authenticate'],
  },
];

describe.each(SURFACES)('CORS of the $name example', (surface) => {
  const url = (): string => `${base(surface.name)}${surface.path}`;

  it('answers a preflight from an allowed origin with 204, its methods, the requested headers, credentials and Max-Age', async () => {
    for (const origin of [APP, PREVIEW]) {
      const response = await preflight(url(), origin, surface.method, surface.requested);
      expect(response.status).toBe(204);
      expect(response.headers.get('access-control-allow-origin')).toBe(origin);
      expect(response.headers.get('access-control-allow-credentials')).toBe('true');
      expect(response.headers.get('access-control-max-age')).toBe('600');
      const methods = response.headers.get('access-control-allow-methods')!.split(', ');
      for (const method of surface.methods) expect(methods).toContain(method);
      expect(response.headers.get('access-control-allow-headers')).toBe(surface.requested);
      expect(response.headers.get('vary')).toContain('Origin');
    }
  });

  it('lets an allowed origin read the answer and its headers', async () => {
    const response = await surface.actual(url(), APP);
    await response.arrayBuffer();
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe(APP);
    expect(response.headers.get('access-control-allow-credentials')).toBe('true');
    const exposed = response.headers.get('access-control-expose-headers')!.toLowerCase().split(', ');
    for (const name of surface.exposed) expect(exposed).toContain(name.toLowerCase());
    expect(response.headers.get('vary')).toContain('Origin');
  });

  it('refuses a preflight from another origin (403, no CORS headers) and gives its requests none', async () => {
    for (const origin of [EVIL, 'https://preview.example.com', `${PREVIEW}.evil.example`, 'null']) {
      const refused = await preflight(url(), origin, surface.method, surface.requested);
      expect(refused.status).toBe(403);
      expect(refused.headers.get('content-type')).toBe('application/problem+json');
      expect(corsHeaders(refused)).toEqual([]);
      await refused.arrayBuffer();
    }
    const actual = await surface.actual(url(), EVIL);
    await actual.arrayBuffer();
    expect(corsHeaders(actual)).toEqual([]);
    expect(actual.headers.get('vary')).toContain('Origin');
  });
});

describe('F14: GraphQL over HTTP answers CORS', () => {
  it('answers OPTIONS /graphql (a preflight for POST) with 204, and a POST from the allowed origin carries Access-Control-Allow-Origin', async () => {
    const response = await preflight(`${base('graphql')}/graphql`, APP, 'POST', 'content-type, authorization');
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe(APP);
    expect(response.headers.get('access-control-allow-methods')).toBe('GET, POST');
    expect(response.headers.get('access-control-allow-headers')).toBe('content-type, authorization');
    const post = await fetch(`${base('graphql')}/graphql`, {
      method: 'POST',
      headers: { origin: APP, 'content-type': 'application/json' },
      body: '{"query":"{ __typename }"}',
    });
    expect(post.status).toBe(200);
    expect(post.headers.get('access-control-allow-origin')).toBe(APP);
    expect(await post.json()).toEqual({ data: { __typename: 'Query' } });
  });

  it('still answers an OPTIONS that is not a preflight 405, as GraphQL over HTTP says', async () => {
    const response = await fetch(`${base('graphql')}/graphql`, { method: 'OPTIONS' });
    await response.arrayBuffer();
    expect(response.status).toBe(405);
  });
});

describe('SSE and WebSocket refuse other origins outright', () => {
  it('SSE: a stream request from another origin is 403 before any hook runs; an allowed one opens', async () => {
    const refused = await fetch(`${base('realtime')}/v1/tasks/events`, { headers: { origin: EVIL } });
    expect(refused.status).toBe(403);
    expect(corsHeaders(refused)).toEqual([]);
    await refused.arrayBuffer();
    const controller = new AbortController();
    const allowed = await fetch(`${base('realtime')}/v1/tasks/events`, { headers: { origin: PREVIEW }, signal: controller.signal });
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('access-control-allow-origin')).toBe(PREVIEW);
    controller.abort();
  });

  /** The status of an upgrade (403 when refused), or "open". */
  function upgrade(url: string, protocol: string, origin: string): Promise<number | 'open'> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url, protocol, { origin });
      socket.once('open', () => {
        socket.close();
        resolve('open');
      });
      socket.once('unexpected-response', (_request, response) => {
        resolve(response.statusCode ?? 0);
        socket.terminate();
      });
      socket.once('error', (error) => reject(error));
    });
  }

  it.each([
    ['graphql', '/graphql', 'graphql-transport-ws'],
    ['realtime', '/v1/chat', 'chat.v1'],
  ] as const)('%s: the WebSocket upgrade takes the CORS allow-list', async (name, path, protocol) => {
    const url = `ws://127.0.0.1:${examples[name].port}${path}`;
    expect(await upgrade(url, protocol, EVIL)).toBe(403);
    expect(await upgrade(url, protocol, APP)).toBe('open');
    expect(await upgrade(url, protocol, PREVIEW)).toBe('open');
  });
});
