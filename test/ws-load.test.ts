/**
 * A bounded load test of the WebSocket server runtime: 1,000 plain `ws` clients on loopback hold
 * a connection to one channel while the server broadcasts to it; every client must receive every
 * message, in order. Client and server share this process, so each connection costs two file
 * descriptors: the test checks `ulimit -n` first (20 000 on the machine it was written on).
 * No timing is asserted; the run takes a few seconds.
 */
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, expect, test } from 'vitest';
import WebSocket from 'ws';
import { openOk, startChat, type ChatServer } from './support/ws-server-setup.js';

const CLIENTS = 1000;
const MESSAGES = 500;
/** Connections opened at once, so the listen backlog (511 by default) never overflows. */
const BATCH = 100;

let server: ChatServer;
const sockets: WebSocket[] = [];

beforeAll(async () => {
  // Every load client comes from 127.0.0.1: one address standing for 1000 clients.
  server = await startChat({ maxConnectionsPerClient: 2000 });
});

afterAll(async () => {
  for (const socket of sockets) socket.terminate();
  await server?.stop();
});

test('the file-descriptor limit allows two descriptors per connection', () => {
  const limit = Number(spawnSync('sh', ['-c', 'ulimit -n'], { encoding: 'utf8' }).stdout.trim());
  expect(limit, `ulimit -n is ${limit}; raise it to run ${CLIENTS} connections`).toBeGreaterThan(CLIENTS * 2 + 200);
});

test(`${CLIENTS} clients each receive all ${MESSAGES} broadcast messages, in order`, async () => {
  const received: number[][] = [];
  for (let start = 0; start < CLIENTS; start += BATCH) {
    const batch = await Promise.all(Array.from({ length: Math.min(BATCH, CLIENTS - start) }, () => openOk(`${server.url}/rooms/load`)));
    for (const socket of batch) {
      const mine: number[] = [];
      received.push(mine);
      sockets.push(socket);
      socket.on('message', (data) => mine.push(Number((JSON.parse(data.toString()) as { text: string }).text)));
    }
  }
  // Every socket has joined the channel's topic once the server has admitted it.
  await expect.poll(() => server.opened.length).toBe(CLIENTS);
  expect(server.endpoint.size).toBe(CLIENTS);

  for (let i = 0; i < MESSAGES; i++) await server.endpoint.publish('/rooms/load', { type: 'said', room: 'load', text: String(i) });

  const expected = Array.from({ length: MESSAGES }, (_, i) => i);
  await expect.poll(() => received.filter((messages) => messages.length === MESSAGES).length, { timeout: 20_000 }).toBe(CLIENTS);
  const outOfOrder = received.filter((messages) => messages.some((value, index) => value !== expected[index]));
  expect(outOfOrder).toHaveLength(0);
  expect(sockets.every((socket) => socket.readyState === WebSocket.OPEN)).toBe(true);
});
