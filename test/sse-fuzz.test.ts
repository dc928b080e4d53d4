/**
 * Fuzzing the SSE endpoint (runtime/sse-*.ts) on the hardened listener (runtime/http-listener.ts)
 * over raw TCP on 127.0.0.1: a fixed seed (printed), at least 2,500 requests within a time bound:
 * odd `Last-Event-ID`s (huge, binary, negative, duplicated, in the query), odd tokens, huge heads,
 * odd methods and paths, POST bodies (malformed, truncated, wrong content types, oversized, deep,
 * prototype keys, schema-invalid, unauthenticated) and a few bodies sent at 1 byte per 100 ms
 * (`bodyTimeoutMs` shortened to 300 ms → 408).
 *
 * Every answer must be a stream (200, `text/event-stream`) or a Problem Details refusal below 500
 * whose `status` is the HTTP status, with no stack trace or path in it; slow bodies get 408, and
 * no POST producer runs for an unauthenticated request. Afterwards a good client still gets events.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createHttpServer } from '../runtime/http-listener.js';
import { createSseEndpoint } from '../runtime/sse-server.js';
import type { Rng } from './support/e2e-fuzz.js';
import { fuzz, fuzzSummary } from './support/fuzz-loop.js';
import { exchange, openHead, type RawExchange } from './support/raw-socket.js';
import type { AnyEvents, Endpoint } from './support/sse-runtime.js';

const SEED = 0x55ef022;
const TARGET = 2500;
const TIME_LIMIT_MS = 30_000;
const CONCURRENCY = 16;
const MAX_BODY = 4096;
const LEAKS = [
  /\n\s*at\s+\S/,
  /\bat [\w$.<>[\]]+ \(/,
  /node:internal|node_modules\//,
  /\/(?:work|home|usr|tmp)\/[\w./-]+/,
  /[\w-]+\.(?:js|ts|mjs|cjs):\d+/,
  /\b(?:TypeError|ReferenceError|RangeError|SyntaxError)\b/,
];

let endpoint: Endpoint;
let server: Server;
let port: number;
let unauthenticatedPosts = 0;

beforeAll(async () => {
  endpoint = createSseEndpoint<AnyEvents>({
    keepAliveMs: false,
    maxBodyBytes: MAX_BODY,
    bodyTimeoutMs: 300,
    logger: () => {},
    authenticate: (_request, token) => (token === undefined ? 'anonymous' : token === 'good' ? { id: 'fuzz' } : undefined),
    authorize: (principal, { request }) => request.method !== 'POST' || principal !== 'anonymous',
    validateBody: (value) =>
      typeof value === 'object' && value !== null && typeof (value as { topic?: unknown }).topic === 'string'
        ? { ok: true, value }
        : { ok: false, errors: [{ path: '/topic', message: 'must be a string' }] },
    post: ({ stream, principal }) => {
      if (principal === 'anonymous' || principal === undefined) unauthenticatedPosts++;
      stream.send('note', { n: 1 });
    },
  });
  server = createHttpServer(endpoint.handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
}, 60_000);

afterAll(async () => {
  await endpoint?.close();
  server?.closeAllConnections();
  await new Promise<void>((resolve) => server?.close(() => resolve()));
});

interface Case {
  category: string;
  parts: (string | Buffer)[];
  slow?: boolean;
  /** A GET stream: read its head, then hang up. */
  stream?: boolean;
}

function eventId(rng: Rng): string {
  return rng.pick([
    () => String(rng.int(-5, 50)),
    () => 'x'.repeat(rng.int(200, 6000)),
    () =>
      rng
        .bytes(rng.int(1, 30))
        .toString('latin1')
        .replace(/[\r\n]/g, ''),
    () => '99999999999999999999999999',
    () => '-1',
    () => '1-0',
    () => `${rng.int(0, 1e6)}-${rng.int(0, 9)}`,
    () => '💥',
    () => '',
    () => ' 3 ',
    () => '__proto__',
  ])();
}

function head(method: string, target: string, headers: string[], body?: Buffer | string): Buffer {
  const lines = [`${method} ${target} HTTP/1.1`, 'Host: 127.0.0.1', 'Connection: close', ...headers];
  if (body !== undefined) lines.push(`Content-Length: ${Buffer.byteLength(body)}`);
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), Buffer.from(body ?? '')]);
}

function postBody(rng: Rng): string | Buffer {
  return rng.pick<() => string | Buffer>([
    () => JSON.stringify({ topic: rng.string(8) }),
    () => JSON.stringify({ topic: rng.int(0, 9) }),
    () => '{"topic":"' + rng.string(rng.int(0, 20)),
    () => rng.bytes(rng.int(0, 300)),
    () => '['.repeat(rng.int(1, 3000)),
    () => '{"__proto__":{"polluted":true},"topic":"p"}',
    () => JSON.stringify({ topic: 'x'.repeat(MAX_BODY + rng.int(1, 20_000)) }),
    () => 'null',
    () => '',
  ])();
}

function nextCase(rng: Rng): Case {
  const token = rng.pick([
    '',
    'Authorization: Bearer good',
    'Authorization: Bearer bad',
    'Authorization: Basic Zm9vOmJhcg==',
    'Authorization: Bearer ',
    `Authorization: Bearer ${'t'.repeat(rng.int(10, 3000))}`,
  ]);
  const headers = token === '' ? [] : [token];
  const category = rng.chance(0.02)
    ? 'slow'
    : rng.pick(['last-event-id', 'last-event-id', 'query-id', 'post', 'post', 'post', 'huge-head', 'method', 'path']);
  switch (category) {
    case 'last-event-id': {
      const ids = Array.from({ length: rng.int(1, 3) }, () => `Last-Event-ID: ${eventId(rng)}`);
      return { category, parts: [head('GET', '/feed', [...headers, 'Accept: text/event-stream', ...ids])], stream: true };
    }
    case 'query-id':
      return {
        category,
        parts: [
          head(
            'GET',
            `/feed?lastEventId=${encodeURIComponent(eventId(rng))}&access_token=${rng.pick(['good', 'bad', '%zz', ''])}`,
            headers,
          ),
        ],
        stream: true,
      };
    case 'huge-head':
      return { category, parts: [head('GET', '/feed', [...headers, `X-Big: ${'b'.repeat(rng.int(4_000, 40_000))}`])], stream: true };
    case 'method':
      return {
        category,
        parts: [
          head(
            rng.pick(['PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD', 'FOO']),
            '/feed',
            [...headers, rng.pick(['', 'Origin: https://evil.example', 'Access-Control-Request-Method: POST'])].filter(Boolean),
          ),
        ],
      };
    case 'path':
      return {
        category,
        parts: [head('GET', rng.pick(['/%zz', '/feed/../x', '//feed', '/feed?%', `/${'a'.repeat(3000)}`, '/feed#x']), headers)],
        stream: true,
      };
    case 'slow': {
      const body = JSON.stringify({ topic: 'slow' });
      const start = head('POST', '/feed', ['Authorization: Bearer good', 'Content-Type: application/json'])
        .toString('latin1')
        .replace('\r\n\r\n', `\r\nContent-Length: ${body.length}\r\n\r\n`);
      return { category, parts: [start, ...body.slice(0, 8)], slow: true };
    }
    default:
      return {
        category,
        parts: [
          head(
            'POST',
            '/feed',
            [
              ...headers,
              `Content-Type: ${rng.pick(['application/json', 'text/plain', 'application/merge-patch+json', 'multipart/form-data', 'application/json; charset=utf-8'])}`,
            ],
            postBody(rng),
          ),
        ],
      };
  }
}

function check(
  fuzzCase: Case,
  answer: { status: number; headers: Record<string, string>; body: string },
  fail: (reason: string) => void,
): void {
  if (answer.status === 0) return fail('no answer');
  if (answer.status >= 500) fail(`status ${answer.status}`);
  if (fuzzCase.slow && answer.status !== 408) fail(`a slow body got ${answer.status}, not 408`);
  const type = answer.headers['content-type'] ?? '';
  if (answer.status === 200 && !type.startsWith('text/event-stream')) fail(`200 with ${type}`);
  if (answer.status >= 400) {
    if (type !== 'application/problem+json') return fail(`refusal with content type ${type}`);
    const sent = fuzzCase.parts.map((part) => part.toString()).join('');
    for (const pattern of LEAKS) {
      const match = pattern.exec(answer.body);
      if (match && !sent.includes(match[0].trim())) fail(`leaks ${JSON.stringify(match[0])}`);
    }
    if (answer.body !== '') {
      try {
        const problem = JSON.parse(answer.body) as { status?: unknown };
        if (problem.status !== answer.status) fail(`problem status ${String(problem.status)} ≠ ${answer.status}`);
      } catch {
        fail('the problem body is not JSON');
      }
    }
  }
}

async function run(fuzzCase: Case): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  if (fuzzCase.stream) {
    try {
      const answer = await openHead(port, fuzzCase.parts[0]!, '127.0.0.1', 5000);
      let body = '';
      if (answer.status !== 200) {
        body = await new Promise<string>((resolve) => {
          let text = '';
          answer.socket.removeAllListeners('data');
          answer.socket.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
          answer.socket.once('close', () => resolve(text));
          setTimeout(() => answer.socket.destroy(), 1000);
        });
      }
      answer.socket.destroy();
      return { status: answer.status, headers: answer.headers, body };
    } catch {
      return { status: 0, headers: {}, body: '' };
    }
  }
  const answer: RawExchange = await exchange(port, fuzzCase.parts, { intervalMs: 100, timeoutMs: 5000 });
  return answer;
}

it(`survives ${TARGET.toLocaleString('en-US')} malformed SSE requests: streams or problems, no 5xx, no leaks, 408 for slow bodies`, async () => {
  const result = await fuzz({
    seed: SEED,
    target: TARGET,
    timeLimitMs: TIME_LIMIT_MS,
    concurrency: CONCURRENCY,
    next: nextCase,
    run: async (fuzzCase, fail) => {
      const answer = await run(fuzzCase);
      check(fuzzCase, answer, (reason) =>
        fail(
          `[${fuzzCase.category}] ${reason}: ${JSON.stringify(fuzzCase.parts.map(String).join('').slice(0, 160))} → ${JSON.stringify(answer.body.slice(0, 160))}`,
        ),
      );
      return String(answer.status);
    },
  });
  console.log(fuzzSummary('sse fuzz', SEED, result));
  const { sent, failures, counts: byStatus } = result;

  expect(sent).toBeGreaterThanOrEqual(TARGET);
  expect(failures.slice(0, 10)).toEqual([]);
  expect(byStatus.get('408') ?? 0).toBeGreaterThan(0);
  expect(unauthenticatedPosts).toBe(0);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();

  // A good client still gets published events.
  const good = await openHead(port, head('GET', '/feed', ['Accept: text/event-stream']));
  expect(good.status).toBe(200);
  const received = new Promise<string>((resolve) => {
    let text = '';
    good.socket.removeAllListeners('data');
    good.socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      if (text.includes('after-fuzz')) resolve(text);
    });
  });
  await endpoint.publish('/feed', 'note', 'after-fuzz');
  expect(await received).toContain('after-fuzz');
  good.socket.destroy();
}, 90_000);
