/**
 * Fuzzing GraphQL over HTTP: the generated server of schemas/graphql/tasks.graphql on the hardened
 * listener it exports (`createHttpServer`), on 127.0.0.1, over raw TCP. A fixed seed (printed), at
 * least 2,500 requests within a time bound: malformed and truncated bodies, every content type,
 * huge and deep queries, many aliases, batching arrays, wrong variables, persisted-query shapes
 * (APQ hashes, `queryId`, `documentId`), GET with odd parameters, odd methods and `Accept`s,
 * oversized bodies and heads, and a few bodies sent at 1 byte per 100 ms (the slow-body shape of
 * F11, with `bodyTimeout` shortened to 300 ms).
 *
 * Every answer must be below 500, carry no stack trace, path or error class name the request did
 * not contain, and a JSON answer must be a GraphQL response (`data` and/or `errors`). Slow bodies
 * must get 408. Afterwards the server must still answer a good query.
 */
import type { Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Rng } from './support/e2e-fuzz.js';
import { fuzz, fuzzSummary } from './support/fuzz-loop.js';
import { generatedServer, post, type GeneratedServer, type GraphQLServerHandle } from './support/graphql-server-setup.js';
import { GRAPHQL_USAGE_SOURCE } from './support/graphql-server-usage.js';
import { exchange, type RawExchange } from './support/raw-socket.js';

const SEED = 0x6a11f022;
const TARGET = 2500;
const TIME_LIMIT_MS = 30_000;
const CONCURRENCY = 16;
const MAX_BODY = 8192;
const LEAKS = [
  /\n\s*at\s+\S/,
  /\bat [\w$.<>[\]]+ \(/,
  /node:internal|node_modules\//,
  /\/(?:work|home|usr|tmp)\/[\w./-]+/,
  /[\w-]+\.(?:js|ts|mjs|cjs):\d+/,
  /\b(?:TypeError|ReferenceError|RangeError|SyntaxError)\b/,
];

const require = createRequire(import.meta.url);
let generated: GeneratedServer;
let graphql: GraphQLServerHandle;
let server: Server;
let port: number;

beforeAll(async () => {
  generated = await generatedServer('graphql-fuzz', GRAPHQL_USAGE_SOURCE);
  const { createHttpServer } = require(join(generated.folder, 'server.js')) as {
    createHttpServer: (listener: unknown, options?: object) => Server;
  };
  graphql = generated.usage.server({ production: false, bodyTimeout: 300, maxBodyBytes: MAX_BODY });
  server = createHttpServer(graphql.listener);
  graphql.attach(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
}, 60_000);

afterAll(async () => {
  await graphql?.close();
  server?.closeAllConnections();
  await new Promise<void>((resolve) => server?.close(() => resolve()));
});

const GOOD = [
  '{ task(id: "t1") { title } }',
  'query Q($id: ID!) { task(id: $id) { id title status } }',
  '{ projects(first: 2) { edges { node { id name } } } }',
  'mutation { createTask(input: { projectId: "p1", title: "x" }) { id } }',
  '{ __schema { types { name } } }',
  '{ __typename }',
];

function deep(n: number): string {
  return `{ ${'task(id: "t1") { project { tasks(first: 1) { edges { node { '.repeat(n)}id${' } } } } }'.repeat(n)} }`;
}

function jsonValue(rng: Rng, depth = 0): unknown {
  switch (rng.int(0, depth > 3 ? 4 : 7)) {
    case 0:
      return rng.string(rng.int(0, 12));
    case 1:
      return rng.int(-1e9, 1e9);
    case 2:
      return rng.pick([null, true, false, 1e308, -0.5, 2 ** 53 + 7]);
    case 3:
      return rng.pick(['\u0000', '\ud800', '💥', '__proto__', 'constructor', '${x}', '<x>']);
    case 4:
      return rng.string(rng.int(0, 4), 'xyz');
    case 5:
      return Array.from({ length: rng.int(0, 4) }, () => jsonValue(rng, depth + 1));
    case 6:
      return Object.fromEntries(
        Array.from({ length: rng.int(0, 4) }, () => [
          rng.pick(['id', 'title', '__proto__', 'constructor', rng.string(3)]),
          jsonValue(rng, depth + 1),
        ]),
      );
    default:
      return { a: jsonValue(rng, depth + 1) };
  }
}

function query(rng: Rng): unknown {
  switch (rng.int(0, 9)) {
    case 0:
      return rng.pick(GOOD);
    case 1:
      return deep(rng.int(2, 40));
    case 2:
      return `{ ${Array.from({ length: rng.int(10, 400) }, (_, i) => `a${i}: __typename`).join(' ')} }`;
    case 3:
      return rng.pick(GOOD).slice(0, rng.int(0, 20));
    case 4:
      return jsonValue(rng);
    case 5:
      return `{ ${'task(id: "t1") { title } '.repeat(rng.int(50, 600))} }`;
    case 6:
      return `query { projects(first: ${rng.pick(['-1', '0', '1000000', '"x"', 'null', '1e99', '2147483648'])}) { edges { node { id } } } }`;
    case 7:
      return `subscription { ${rng.string(6)} }`;
    case 8:
      return rng.string(rng.int(1, 200), '{}()[]:!$@."\\ abcdefgh\n#');
    default:
      return `fragment F on Task { ...F } { task(id: "t1") { ...F } }`;
  }
}

function params(rng: Rng): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  if (rng.chance(0.9)) result.query = query(rng);
  if (rng.chance(0.4)) result.variables = rng.chance(0.5) ? { id: jsonValue(rng) } : jsonValue(rng);
  if (rng.chance(0.2)) result.operationName = jsonValue(rng);
  if (rng.chance(0.25)) {
    const hash = rng.chance(0.5) ? rng.string(64, '0123456789abcdef') : jsonValue(rng);
    result.extensions = rng.chance(0.8) ? { persistedQuery: { version: rng.pick([1, 2, '1', null]), sha256Hash: hash } } : jsonValue(rng);
  }
  if (rng.chance(0.1)) result.queryId = jsonValue(rng);
  if (rng.chance(0.1)) result.documentId = jsonValue(rng);
  return result;
}

interface Case {
  category: string;
  parts: (string | Buffer)[];
  slow?: boolean;
}

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/graphql-response+json',
  'text/plain',
  'application/graphql',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/json; charset=latin1',
  '',
  'application/JSON',
  '*/*',
];
const ACCEPTS = [
  'application/json',
  'application/graphql-response+json',
  '*/*',
  'text/html',
  '',
  'application/graphql-response+json;q=0, application/json',
  'image/png',
];

function request(method: string, target: string, headers: Record<string, string>, body?: Buffer | string): string | Buffer {
  const lines = [`${method} ${target} HTTP/1.1`, 'Host: 127.0.0.1', 'Connection: close'];
  for (const [name, value] of Object.entries(headers)) if (value !== '') lines.push(`${name}: ${value}`);
  if (body !== undefined) lines.push(`Content-Length: ${Buffer.byteLength(body)}`);
  const head = `${lines.join('\r\n')}\r\n\r\n`;
  return body === undefined ? head : Buffer.concat([Buffer.from(head, 'latin1'), Buffer.from(body)]);
}

function nextCase(rng: Rng): Case {
  const accept = rng.pick(ACCEPTS);
  // Slow bodies take `bodyTimeout` each: a few of them.
  const category = rng.chance(0.02)
    ? 'slow'
    : rng.pick(['post', 'post', 'post', 'batch', 'bytes', 'truncated', 'get', 'get', 'method', 'oversized', 'huge-head']);
  switch (category) {
    case 'batch': {
      const body = JSON.stringify(Array.from({ length: rng.int(0, 50) }, () => params(rng)));
      return { category, parts: [request('POST', '/graphql', { 'Content-Type': 'application/json', Accept: accept }, body)] };
    }
    case 'bytes':
      return {
        category,
        parts: [request('POST', '/graphql', { 'Content-Type': rng.pick(CONTENT_TYPES), Accept: accept }, rng.bytes(rng.int(0, 512)))],
      };
    case 'truncated': {
      const text = JSON.stringify(params(rng));
      return {
        category,
        parts: [
          request('POST', '/graphql', { 'Content-Type': 'application/json', Accept: accept }, text.slice(0, rng.int(0, text.length))),
        ],
      };
    }
    case 'get': {
      const search = new URLSearchParams();
      for (const [name, value] of Object.entries(params(rng)))
        search.append(name, typeof value === 'string' ? value : (JSON.stringify(value) ?? ''));
      let target = `/graphql?${search.toString()}`;
      if (rng.chance(0.2))
        target += rng.pick(['&query=%zz', '&variables={', '&query=&query={__typename}', '&extensions=%00', '#frag', '&&&=']);
      return { category, parts: [request('GET', target, { Accept: accept })] };
    }
    case 'method':
      return {
        category,
        parts: [
          request(
            rng.pick(['PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD', 'TRACE', 'FOO']),
            rng.pick(['/graphql', '/graphql/', '/GRAPHQL', '/other', '*']),
            { Accept: accept, 'Content-Type': 'application/json' },
            JSON.stringify(params(rng)),
          ),
        ],
      };
    case 'oversized':
      return {
        category,
        parts: [
          request(
            'POST',
            '/graphql',
            { 'Content-Type': 'application/json', Accept: accept },
            JSON.stringify({ query: `{ __typename }${' '.repeat(MAX_BODY + rng.int(1, 50_000))}` }),
          ),
        ],
      };
    case 'huge-head':
      return {
        category,
        parts: [
          request('GET', `/graphql?query=${'a'.repeat(rng.int(8_000, 40_000))}`, {
            Accept: accept,
            'X-Big': 'b'.repeat(rng.int(0, 20_000)),
          }),
        ],
      };
    case 'slow': {
      const body = JSON.stringify({ query: rng.pick(GOOD) });
      const head = `POST /graphql HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
      return { category, parts: [head, ...body.slice(0, 12)], slow: true };
    }
    default:
      return {
        category,
        parts: [
          request(
            'POST',
            '/graphql',
            { 'Content-Type': rng.chance(0.85) ? 'application/json' : rng.pick(CONTENT_TYPES), Accept: accept },
            JSON.stringify(params(rng)) ?? '',
          ),
        ],
      };
  }
}

function check(fuzzCase: Case, answer: RawExchange, fail: (reason: string) => void): void {
  if (answer.status === 0) return fail(`no answer (${answer.closedByServer ? 'closed' : 'timed out'})`);
  if (answer.status >= 500) fail(`status ${answer.status}`);
  if (fuzzCase.slow && answer.status !== 408) fail(`a slow body got ${answer.status}, not 408`);
  const sent = fuzzCase.parts.map((part) => part.toString()).join('');
  for (const pattern of LEAKS) {
    const match = pattern.exec(answer.body);
    if (match && !sent.includes(match[0].trim())) fail(`leaks ${JSON.stringify(match[0])}`);
  }
  const type = answer.headers['content-type'] ?? '';
  if (/json/.test(type) && answer.body !== '') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(answer.body);
    } catch {
      return fail('a JSON answer that does not parse');
    }
    const shape = parsed as { data?: unknown; errors?: unknown; status?: unknown };
    const isProblem = /problem\+json/.test(type) && shape.status === answer.status;
    if (!isProblem && !('data' in shape) && !Array.isArray(shape.errors))
      fail('a JSON answer that is neither a GraphQL response nor a problem');
  }
}

it(`survives ${TARGET.toLocaleString('en-US')} malformed GraphQL requests: no 5xx, no leaks, 408 for slow bodies, still answering`, async () => {
  const result = await fuzz({
    seed: SEED,
    target: TARGET,
    timeLimitMs: TIME_LIMIT_MS,
    concurrency: CONCURRENCY,
    next: nextCase,
    run: async (fuzzCase, fail) => {
      const answer = await exchange(port, fuzzCase.parts, { intervalMs: 100, timeoutMs: fuzzCase.slow ? 3000 : 5000 });
      check(fuzzCase, answer, (reason) =>
        fail(
          `[${fuzzCase.category}] ${reason}: ${JSON.stringify(fuzzCase.parts.map(String).join('').slice(0, 200))} → ${JSON.stringify(answer.body.slice(0, 200))}`,
        ),
      );
      return String(answer.status);
    },
  });
  console.log(fuzzSummary('graphql fuzz', SEED, result));
  const { sent, failures, counts: byStatus } = result;

  expect(sent).toBeGreaterThanOrEqual(TARGET);
  expect(failures.slice(0, 10)).toEqual([]);
  expect(byStatus.get('408') ?? 0).toBeGreaterThan(0);
  const good = await post(`http://127.0.0.1:${port}/graphql`, { query: '{ __typename }' });
  expect(good).toMatchObject({ status: 200, body: { data: { __typename: 'Query' } } });
  expect(generated.usage.errors.filter((error) => !/secret|signal|aborted|closed/i.test(String(error)))).toEqual([]);
}, 90_000);
