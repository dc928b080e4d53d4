/**
 * The examples are served by the hardened listener (issue 11, F11 and principle 3): each example
 * process (`node dist/examples/<style>/main.js`, gRPC's HTTP/1.1 side included, as `npm run example:<style>` starts it) closes a
 * client whose request head trickles in, with a 408 problem, once HEADERS_TIMEOUT_MS (shortened
 * here to 1 s; default 20 s) has passed, and one whose body trickles in once the body or request
 * time limit has. A plain `http.createServer` would keep both for node's 300 s.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from './support/cli.js';
import { EXAMPLE_MAIN, GRAPHQL_EXAMPLE_MAIN, startExample, type RunningExample } from './support/e2e-example.js';
import { exchange } from './support/raw-socket.js';

const REALTIME_EXAMPLE_MAIN = join(ROOT, 'dist', 'examples', 'realtime', 'main.js');
const GRPC_EXAMPLE_MAIN = join(ROOT, 'dist', 'examples', 'grpc', 'main.js');
const SHORT = { HEADERS_TIMEOUT_MS: '1000', REQUEST_TIMEOUT_MS: '1500', BODY_TIMEOUT_MS: '1000' };

const examples: Record<string, RunningExample> = {};

beforeAll(async () => {
  const [rest, graphql, realtime, grpc] = await Promise.all([
    startExample({ ...SHORT, RATE_LIMIT: '0' }, EXAMPLE_MAIN),
    startExample({ ...SHORT, RATE_LIMIT: '0' }, GRAPHQL_EXAMPLE_MAIN),
    startExample({ ...SHORT, FEED_INTERVAL_MS: '60000' }, REALTIME_EXAMPLE_MAIN),
    startExample(SHORT, GRPC_EXAMPLE_MAIN),
  ]);
  Object.assign(examples, { rest, graphql, realtime, grpc });
}, 60_000);

afterAll(async () => {
  for (const example of Object.values(examples)) expect((await example.stop()).code).toBe(0);
});

/** A header byte every 100 ms: the head never ends. */
const slowHead = (path: string): string[] => [`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: `, ...'a'.repeat(80)];

describe.each([
  ['rest', '/v1/projects'],
  ['graphql', '/graphql'],
  ['realtime', '/v1/tasks/events'],
  ['grpc', '/acme.tasks.v1.TaskService/GetTask'], // gRPC-Web and Connect's HTTP/1.1 side
])('the %s example', (name, path) => {
  it('closes a client whose request head trickles in, with a 408 problem', async () => {
    const answer = await exchange(examples[name]!.port, slowHead(path), { intervalMs: 100, timeoutMs: 6000 });
    expect(answer.closedByServer).toBe(true);
    expect(answer.status).toBe(408);
    expect(answer.headers['content-type']).toBe('application/problem+json');
    expect(answer.elapsedMs).toBeLessThan(5000);
  });
});

describe('slow bodies', () => {
  it('GraphQL: a body at 1 byte per 100 ms is answered 408 after BODY_TIMEOUT_MS', async () => {
    const body = JSON.stringify({ query: '{ projects(first: 1) { id } }' });
    const head = `POST /graphql HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
    const answer = await exchange(examples.graphql!.port, [head, ...body], { intervalMs: 100, timeoutMs: 6000 });
    expect(answer.closedByServer).toBe(true);
    expect(answer.status).toBe(408);
    expect(answer.elapsedMs).toBeLessThan(5000);
  });

  it('realtime: a POST stream body at 1 byte per 100 ms is cut with 408', async () => {
    const body = JSON.stringify({ language: 'en', detail: 'long' });
    const head = `POST /v1/tasks/t1/summary HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer demo-token\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
    const answer = await exchange(examples.realtime!.port, [head, ...body], { intervalMs: 100, timeoutMs: 6000 });
    expect(answer.closedByServer).toBe(true);
    expect(answer.status).toBe(408);
    expect(answer.elapsedMs).toBeLessThan(5000);
  });
});
