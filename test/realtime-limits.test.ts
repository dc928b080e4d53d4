/**
 * Per-client limits of what stays open (issue 11, F10 and principle 3): one client cannot take all
 * of an endpoint's streams or sockets. The runtime modules (runtime/*.ts) on 127.0.0.1; clients are told apart by their source address
 * (127.0.0.1 is one client, 127.0.0.2 another), which is the default client key.
 *
 * - SSE: one anonymous client makes 2,000 stream requests (the review's attack); past the default
 *   of 100 it is answered 429 with `Retry-After`, and another client still gets a stream even with
 *   a global `maxStreams` (150) that the attacker alone would otherwise have filled. A principal
 *   with an identity has a budget of its own, whatever its address. A POST over the limit is
 *   refused before its body is read.
 * - WebSocket: one client opens 300 upgrades; past 100 the handshake is answered 429 with
 *   `Retry-After` (no WebSocket is created), and another client still connects.
 */
import type { Socket } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createSseEndpoint } from '../runtime/sse-server.js';
import { exchange, openHead, pool } from './support/raw-socket.js';
import type { EndpointOptions as SseOptions } from './support/sse-runtime.js';
import { listen, type Listening } from './support/sse-servers.js';
import { open, startChat, type ChatServer } from './support/ws-server-setup.js';

const cleanups: (() => Promise<void> | void)[] = [];
const held: Socket[] = [];

afterAll(async () => {
  for (const socket of held.splice(0)) socket.destroy();
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function serveSse(options: SseOptions): Promise<{ site: Listening; port: number; streamCount: () => number }> {
  const endpoint = createSseEndpoint({ keepAliveMs: false, logger: () => {}, ...options });
  const site = await listen(endpoint.handle);
  cleanups.push(
    () => site.close(),
    () => endpoint.close(),
  );
  return { site, port: Number(new URL(site.url).port), streamCount: () => endpoint.streamCount };
}

const streamRequest = (path = '/feed', headers = ''): string =>
  `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n${headers}\r\n`;

/** Opens a stream from `from`; a 200 stays open (held), anything else is closed. */
async function openStream(port: number, from: string, headers = ''): Promise<{ status: number; retryAfter?: string }> {
  const answer = await openHead(port, streamRequest('/feed', headers), from);
  if (answer.status === 200) held.push(answer.socket);
  else answer.socket.destroy();
  return { status: answer.status, retryAfter: answer.headers['retry-after'] };
}

function tally(statuses: readonly number[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const status of statuses) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

describe('SSE streams per client (F10)', () => {
  it('one client making 2,000 stream requests gets 100 streams and 429s; another client still gets a stream', async () => {
    const { port, streamCount } = await serveSse({ maxStreams: 150 });
    const answers = await pool(2000, 50, () => openStream(port, '127.0.0.1'));
    expect(tally(answers.map((answer) => answer.status))).toEqual({ 200: 100, 429: 1900 });
    expect(answers.find((answer) => answer.status === 429)?.retryAfter).toMatch(/^\d+$/);
    expect(streamCount()).toBe(100);
    // The attacker could not reach the global limit: a second client is served.
    expect((await openStream(port, '127.0.0.2')).status).toBe(200);
  }, 60_000);

  it('a principal with an identity has its own budget, whatever its address; anonymous clients are counted by address', async () => {
    const { port } = await serveSse({
      maxStreamsPerClient: 2,
      authenticate: (_request, token) => (token === undefined ? { name: 'anonymous' } : { id: token }),
    });
    const as = (token: string) => `Authorization: Bearer ${token}\r\n`;
    expect((await openStream(port, '127.0.0.3', as('ada'))).status).toBe(200);
    expect((await openStream(port, '127.0.0.3', as('ada'))).status).toBe(200);
    // The same user from another address spends the same budget.
    expect((await openStream(port, '127.0.0.4', as('ada'))).status).toBe(429);
    // Another user behind the same address (a NAT) has a budget of its own.
    expect((await openStream(port, '127.0.0.3', as('grace'))).status).toBe(200);
    // No identity (no `id`/`sub`): the address is the client.
    expect((await openStream(port, '127.0.0.5')).status).toBe(200);
    expect((await openStream(port, '127.0.0.5')).status).toBe(200);
    expect((await openStream(port, '127.0.0.5')).status).toBe(429);
  });

  it('a POST stream over the limit is refused before its body is read', async () => {
    let posts = 0;
    const { port } = await serveSse({
      maxStreamsPerClient: 1,
      post: async ({ stream, signal }) => {
        posts++;
        stream.send('note', 'x');
        await new Promise((resolve) => signal.addEventListener('abort', resolve));
      },
    });
    expect((await openStream(port, '127.0.0.6')).status).toBe(200);
    // Declares 1000 bytes and sends none: a 429 must not wait for them.
    const refused = await exchange(
      port,
      ['POST /feed HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n'],
      { localAddress: '127.0.0.6', timeoutMs: 3000 },
    );
    expect(refused.status).toBe(429);
    expect(refused.closedByServer).toBe(true);
    expect(refused.elapsedMs).toBeLessThan(2500);
    expect(posts).toBe(0);
  });

  it('a stream closed gives its slot back', async () => {
    const { port, streamCount } = await serveSse({ maxStreamsPerClient: 1 });
    const first = await openHead(port, streamRequest(), '127.0.0.7');
    expect(first.status).toBe(200);
    expect((await openStream(port, '127.0.0.7')).status).toBe(429);
    first.socket.destroy();
    const deadline = Date.now() + 5000;
    while (streamCount() > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    expect((await openStream(port, '127.0.0.7')).status).toBe(200);
  });

  it('refuses a per-client limit that is not a positive integer at setup', () => {
    expect(() => createSseEndpoint({ maxStreamsPerClient: 0 })).toThrow(RangeError);
  });
});

describe('WebSocket connections per client', () => {
  let chat: ChatServer;
  const sockets: WebSocket[] = [];

  afterAll(async () => {
    for (const socket of sockets.splice(0)) socket.terminate();
    await chat?.stop();
  });

  it('one client opening 300 sockets gets 100 and HTTP 429s with Retry-After; another client still connects', async () => {
    chat = await startChat({ maxConnections: 150 });
    const url = `${chat.url}/rooms/a`;
    const statuses = await pool(300, 25, async () => {
      const { socket, outcome } = await open(url, [], { localAddress: '127.0.0.1' });
      if (socket) {
        sockets.push(socket);
        return 101;
      }
      return outcome?.status ?? outcome?.code ?? 0;
    });
    expect(tally(statuses)).toEqual({ 101: 100, 429: 200 });
    expect(chat.endpoint.size).toBe(100);
    const refused = await openHead(
      chat.port,
      'GET /rooms/a HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n',
    );
    refused.socket.destroy();
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toMatch(/^\d+$/);
    const other = await open(url, [], { localAddress: '127.0.0.2' });
    expect(other.outcome).toBeUndefined();
    sockets.push(other.socket!);
  }, 60_000);

  it('a socket closed gives its slot back', async () => {
    const small = await startChat({ maxConnectionsPerClient: 1 });
    cleanups.push(() => small.stop());
    const url = `${small.url}/rooms/b`;
    const first = await open(url, [], { localAddress: '127.0.0.8' });
    expect(first.socket).toBeDefined();
    expect((await open(url, [], { localAddress: '127.0.0.8' })).outcome).toEqual({ status: 429 });
    const closed = new Promise((resolve) => first.socket!.once('close', resolve));
    first.socket!.close();
    await closed;
    const deadline = Date.now() + 5000;
    while (small.endpoint.size > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    let again = await open(url, [], { localAddress: '127.0.0.8' });
    // The server side may see the TCP close a moment after the client.
    for (let attempt = 0; again.outcome?.status === 429 && attempt < 50; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      again = await open(url, [], { localAddress: '127.0.0.8' });
    }
    expect(again.outcome).toBeUndefined();
    again.socket!.terminate();
  });
});
