/**
 * GraphQL over HTTP against slow clients (issue 11, F11): the generated server of
 * schemas/graphql/tasks.graphql (generated into a folder, transpiled, loaded natively) on
 * 127.0.0.1, over raw TCP.
 *
 * - A body sent at 1 byte per 100 ms is answered 408 (REQUEST_TIMEOUT) once `bodyTimeout` (here
 *   shortened to 500 ms; default 30 s, as REST) has passed, and the connection closes.
 * - The hardened listener the output exports (`createHttpServer`, runtime/http-listener.ts)
 *   closes a client whose request head trickles in, with a 408 problem, after `headersTimeout`.
 */
import type { Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatedServer, post, serve, type GeneratedServer, type Running } from './support/graphql-server-setup.js';
import { GRAPHQL_USAGE_SOURCE } from './support/graphql-server-usage.js';
import { exchange } from './support/raw-socket.js';

let generated: GeneratedServer;
const started: Running[] = [];
const QUERY = JSON.stringify({ query: '{ task(id: "t1") { title } }' });

beforeAll(async () => {
  generated = await generatedServer('graphql-limits-http', GRAPHQL_USAGE_SOURCE);
}, 60_000);

afterAll(async () => {
  await Promise.all(started.map((running) => running.close()));
});

async function start(options: Record<string, unknown>): Promise<Running> {
  const running = await serve(generated.usage.server(options));
  started.push(running);
  return running;
}

/** The body, one byte per part. */
const slowly = (text: string): string[] => [...text];

describe('a slow request body (F11)', () => {
  it('is answered 408 REQUEST_TIMEOUT after bodyTimeout, and the connection closes', async () => {
    const running = await start({ bodyTimeout: 500 });
    const head = `POST /graphql HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json\r\nContent-Length: ${QUERY.length}\r\n\r\n`;
    // 1 byte per 100 ms: the 40-odd bytes would take 4 s.
    const answer = await exchange(running.port, [head, ...slowly(QUERY)], { intervalMs: 100, timeoutMs: 4000 });
    expect(answer.status).toBe(408);
    expect(answer.closedByServer).toBe(true);
    expect(answer.elapsedMs).toBeGreaterThanOrEqual(450);
    expect(answer.elapsedMs).toBeLessThan(3000);
    expect(JSON.parse(answer.body)).toEqual({
      errors: [{ message: 'The request body did not arrive within 500 ms.', extensions: { code: 'REQUEST_TIMEOUT' } }],
    });
    // The server goes on serving.
    const after = await post(running.url, JSON.parse(QUERY));
    expect(after.status).toBe(200);
    expect(after.body.errors).toBeUndefined();
  });

  it('a body that arrives in time, in pieces, is served', async () => {
    const running = await start({ bodyTimeout: 2000 });
    const head = `POST /graphql HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json\r\nContent-Length: ${QUERY.length}\r\nConnection: close\r\n\r\n`;
    const answer = await exchange(running.port, [head, QUERY.slice(0, 10), QUERY.slice(10)], { intervalMs: 50, timeoutMs: 4000 });
    expect(answer.status).toBe(200);
  });
});

describe('the hardened listener the GraphQL output exports', () => {
  it('closes a client whose request head trickles in, with a 408 problem, after headersTimeout', async () => {
    const { createHttpServer } = require(join(generated.folder, 'server.js')) as {
      createHttpServer: (listener: unknown, options?: object) => Server;
    };
    const graphql = generated.usage.server({});
    const server = createHttpServer(graphql.listener, { headersTimeout: 500 });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      // A header byte every 100 ms never ends the head.
      const parts = ['POST /graphql HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ', ...'a'.repeat(60)];
      const answer = await exchange(port, parts, { intervalMs: 100, timeoutMs: 5000 });
      expect(answer.closedByServer).toBe(true);
      expect(answer.status).toBe(408);
      expect(answer.headers['content-type']).toBe('application/problem+json');
      expect(JSON.parse(answer.body)).toMatchObject({ status: 408, title: 'Request Timeout' });
      expect(answer.elapsedMs).toBeLessThan(3000);
    } finally {
      await graphql.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

const require = createRequire(import.meta.url);
