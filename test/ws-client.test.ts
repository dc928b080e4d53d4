/**
 * The WebSocket client runtime (runtime/ws-client.ts) in Node, with `ws` injected,
 * against the server runtime: typed send/on, request/reply and its timeout, the bounded queue while
 * CONNECTING, readyState, reconnect with backoff after the server drops it (re-auth and
 * re-subscribe included), and a silent server detected by the application-level ping.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { WebSocketClient, WebSocketClientError, WebSocketClosedError, WebSocketReplyError } from '../runtime/ws-client.js';
import { loadChat, type ChatModule, type Client, type ClientOptions, type Message } from './support/ws-runtime.js';
import { startChat, type ChatServer } from './support/ws-server-setup.js';

let chat: ChatModule;
const servers: ChatServer[] = [];
const clients: Client[] = [];

function connect(options: ClientOptions): Client {
  const made = new WebSocketClient({ WebSocket, ...options });
  clients.push(made);
  return made;
}

async function startServer(...args: Parameters<typeof startChat>): Promise<ChatServer> {
  const started = await startChat(...args);
  servers.push(started);
  return started;
}

const OPEN = 1;
const CLOSED = 3;

beforeAll(async () => {
  chat = await loadChat();
});

afterEach(async () => {
  for (const made of clients.splice(0)) made.close();
  await Promise.all(servers.splice(0).map((server) => server.stop()));
});

afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
});

describe('sending and receiving', () => {
  test('typed send and on, and readyState CONNECTING → OPEN → CLOSING → CLOSED', async () => {
    const server = await startServer({ protocols: ['chat.v1'] });
    const states: number[] = [];
    const client = connect({ url: `${server.url}/rooms/a`, protocols: ['chat.v1'], onStateChange: (state) => states.push(state) });
    expect(client.readyState).toBe(0);
    const said: Message[] = [];
    client.on('said', (message) => said.push(message));
    client.send({ type: 'say', text: 'queued before open' });
    await expect.poll(() => client.readyState).toBe(OPEN);
    expect(client.protocol).toBe('chat.v1');
    client.send({ type: 'say', text: 'sent when open' });
    await expect.poll(() => said.map((message) => message.text)).toEqual(['queued before open', 'sent when open']);
    client.close();
    await expect.poll(() => client.readyState).toBe(CLOSED);
    expect(states).toEqual([1, 2, 3]);
    expect(() => client.send({ type: 'say', text: 'too late' })).toThrow(WebSocketClientError);
  });

  test('request() resolves with the reply carrying its id; a reply of errorType rejects', async () => {
    const server = await startServer({ errorReply: (problem) => ({ type: 'error', reason: problem.reason, message: problem.message }) });
    const client = connect({ url: `${server.url}/rooms/a`, errorType: 'error', validate: chat.validateChatServerMessage });
    const [slow, fast, history] = await Promise.all([
      client.request({ type: 'work', ms: 60 }),
      client.request({ type: 'work', ms: 1 }),
      client.request({ type: 'history', room: 'a' }),
    ]);
    expect(slow).toMatchObject({ type: 'done', ms: 60 });
    expect(fast).toMatchObject({ type: 'done', ms: 1 });
    expect(history).toMatchObject({ type: 'historyResult', texts: ['history of a'] });
    const failure = await client.request({ type: 'history', room: 7 }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(WebSocketReplyError);
    expect(failure).toMatchObject({ kind: 'response' });
    expect((failure as { reply: Message }).reply).toMatchObject({ type: 'error', reason: 'invalid-message' });
  });

  test('request() rejects after its timeout when no reply comes', async () => {
    const server = await startServer();
    const client = connect({ url: `${server.url}/rooms/a` });
    const error = await client.request({ type: 'work', ms: 60_000 }, { timeout: 50 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(WebSocketClientError);
    expect(error).toMatchObject({ kind: 'timeout', message: 'No reply within 50 ms' });
  });

  test('request() gives up when its signal aborts; the client signal closes the client', async () => {
    const server = await startServer();
    const closing = new AbortController();
    const client = connect({ url: `${server.url}/rooms/a`, signal: closing.signal, operation: 'chat' });
    const abandoned = new AbortController();
    const pending = client.request({ type: 'work', ms: 60_000 }, { signal: abandoned.signal }).catch((caught: unknown) => caught);
    abandoned.abort(new Error('not needed'));
    expect(((await pending) as Error).message).toBe('not needed');
    await expect.poll(() => client.readyState).toBe(OPEN);
    const inFlight = client.request({ type: 'work', ms: 60_000 }).catch((caught: unknown) => caught);
    closing.abort();
    await expect.poll(() => client.readyState).toBe(CLOSED);
    expect(await inFlight).toMatchObject({ kind: 'closed', operation: 'chat' });
  });

  test('a request in flight rejects at once when the connection is lost', async () => {
    const server = await startServer();
    const client = connect({ url: `${server.url}/rooms/a`, reconnect: false });
    await expect.poll(() => server.opened.length).toBe(1);
    const pending = client.request({ type: 'work', ms: 60_000 }, { timeout: 60_000 }).catch((caught: unknown) => caught);
    await expect.poll(() => client.readyState).toBe(OPEN);
    server.opened[0]!.close(4000, 'bye');
    expect(await pending).toMatchObject({ kind: 'network', message: expect.stringContaining('closed (4000)') });
  });

  test('the queue while CONNECTING is bounded: one more message throws', async () => {
    const server = await startServer();
    const client = connect({ url: `${server.url}/rooms/a`, maxQueued: 2 });
    client.send({ type: 'say', text: 'one' });
    client.send({ type: 'say', text: 'two' });
    expect(() => client.send({ type: 'say', text: 'three' })).toThrow(/2 messages are already queued/);
    await expect.poll(() => server.said.map((entry) => entry.text)).toEqual(['one', 'two']);
  });

  test('messages() iterates one kind until the client closes', async () => {
    const server = await startServer();
    const client = connect({ url: `${server.url}/rooms/a` });
    const received: unknown[] = [];
    // Untyped messages do not narrow by kind: read them as messages of any kind.
    const said: AsyncIterable<Message> = client.messages('said');
    const done = (async () => {
      for await (const message of said) {
        received.push(message.text);
        if (received.length === 3) client.close();
      }
    })();
    for (const text of ['a', 'b', 'c']) client.send({ type: 'say', text });
    await done;
    expect(received).toEqual(['a', 'b', 'c']);
  });

  test('invalid messages from the server go to onError and reach no handler', async () => {
    const raw = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    await new Promise((resolve) => raw.once('listening', resolve));
    raw.on('connection', (socket) => {
      socket.send(JSON.stringify({ type: 'said', room: 1 }));
      socket.send('not json');
      socket.send(JSON.stringify({ type: 'said', room: 'a', text: 'fine' }));
    });
    try {
      const errors: string[] = [];
      const said: Message[] = [];
      const client = connect({
        url: `ws://127.0.0.1:${(raw.address() as AddressInfo).port}/`,
        validate: chat.validateChatServerMessage,
        onError: (error) => errors.push((error as Error).message),
      });
      client.on('said', (message) => said.push(message));
      await expect.poll(() => said).toEqual([{ type: 'said', room: 'a', text: 'fine' }]);
      expect(errors).toEqual(['The server sent an invalid message: /room is invalid', 'The server sent a message that is not JSON']);
    } finally {
      for (const socket of raw.clients) socket.terminate();
      raw.close();
    }
  });

  test('onMessage and messages() without a type get every kind, replies to request() excepted', async () => {
    const server = await startServer();
    const errors: unknown[] = [];
    const client = connect({ url: `${server.url}/rooms/a`, onError: (error) => errors.push(error) });
    const every: Message[] = [];
    client.onMessage((message) => every.push(message));
    // A listener that throws does not keep the others from the message.
    client.onMessage(() => {
      throw new Error('listener failed');
    });
    const iterated: Message[] = [];
    const done = (async () => {
      for await (const message of client.messages()) {
        iterated.push(message);
        if (iterated.length === 2) client.close();
      }
    })();
    client.send({ type: 'say', text: 'one' });
    const reply = await client.request({ type: 'history', room: 'a' });
    client.send({ type: 'say', text: 'two' });
    await done;
    const said = ['one', 'two'].map((text) => ({ type: 'said', room: 'a', text }));
    expect(iterated).toEqual(said);
    expect(every).toEqual(said);
    expect(reply).toMatchObject({ type: 'historyResult', texts: ['history of a'] });
    expect(errors).toEqual([new Error('listener failed'), new Error('listener failed')]);
  });

  test('without a discriminator (appPing false) every message reaches onMessage, a "pong" included', async () => {
    const raw = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    await new Promise((resolve) => raw.once('listening', resolve));
    const heard: unknown[] = [];
    raw.on('connection', (socket) => {
      socket.on('message', (data) => {
        heard.push(JSON.parse(String(data)));
        socket.send(JSON.stringify({ type: 'pong', reply_to: 1 }));
      });
      socket.send(JSON.stringify({ symbol: 'X', price: 1 }));
    });
    try {
      const client = connect({ url: `ws://127.0.0.1:${(raw.address() as AddressInfo).port}/`, appPing: false });
      const every: unknown[] = [];
      client.onMessage((message) => every.push(message));
      const iterated: unknown[] = [];
      const done = (async () => {
        for await (const message of client.messages()) {
          iterated.push(message);
          if (iterated.length === 2) client.close();
        }
      })();
      client.send({ side: 'buy', quantity: 1 } as unknown as Message);
      await done;
      const expected = [
        { symbol: 'X', price: 1 },
        { type: 'pong', reply_to: 1 },
      ];
      expect(iterated).toEqual(expected);
      expect(every).toEqual(expected);
      // No application-level ping went out, only what the application sent.
      expect(heard).toEqual([{ side: 'buy', quantity: 1 }]);
    } finally {
      for (const socket of raw.clients) socket.terminate();
      raw.close();
    }
  });
});

describe('reconnecting', () => {
  test('after the server drops it: backoff with full jitter and a cap, then re-auth and re-subscribe', async () => {
    const tokens: string[] = [];
    const firstMessageAuth = {
      verify: (token: string) => {
        tokens.push(token);
        return token.startsWith('token-') ? { token } : undefined;
      },
    };
    const server = await startServer({ firstMessageAuth });
    const port = server.port;
    let issued = 0;
    const delays: Array<[number, number]> = [];
    const closes: number[] = [];
    const client = connect({
      url: `${server.url}/rooms/a`,
      token: async () => `token-${++issued}`,
      reconnect: { baseDelay: 20, maxDelay: 50 },
      random: () => 0.5,
      onReconnect: (attempt, delay) => delays.push([attempt, delay]),
      onClose: (code) => closes.push(code),
    });
    const said: Message[] = [];
    client.on('said', (message) => said.push(message));
    client.subscribe({ type: 'join', room: 'news' });
    await expect.poll(() => server.opened.length).toBe(1);
    await server.endpoint.publish('room:news', { type: 'said', room: 'news', text: 'before' });
    await expect.poll(() => said.map((message) => message.text)).toEqual(['before']);

    // The server goes away (1001) and stays away for a few attempts: each one is refused.
    servers.splice(servers.indexOf(server), 1);
    await server.stop();
    await expect.poll(() => delays.length).toBeGreaterThanOrEqual(4);
    expect(closes[0]).toBe(1001);
    // delay = random() × min(maxDelay, baseDelay × 2^attempt): 10, 20, 25 (capped), 25, ...
    expect(delays.slice(0, 4)).toEqual([
      [1, 10],
      [2, 20],
      [3, 25],
      [4, 25],
    ]);
    expect(client.readyState).toBe(0);

    // Back on the same port: the client reconnects, sends a fresh token, re-joins the topic.
    const again = await startServer({ firstMessageAuth }, port);
    await expect.poll(() => again.opened.length, { timeout: 5000 }).toBe(1);
    expect(tokens).toEqual(['token-1', `token-${issued}`]);
    expect(issued).toBe(2);
    expect(again.opened[0]!.context).toEqual({ token: 'token-2' });
    await expect
      .poll(async () => {
        await again.endpoint.publish('room:news', { type: 'said', room: 'news', text: 'after' });
        return said.some((message) => message.text === 'after');
      })
      .toBe(true);
    expect(client.readyState).toBe(OPEN);
  });

  test('no reconnect after a policy close (1008), and a final CLOSED', async () => {
    const server = await startServer();
    const reconnects: number[] = [];
    const client = connect({ url: `${server.url}/rooms/a`, onReconnect: (attempt) => reconnects.push(attempt) });
    await expect.poll(() => client.readyState).toBe(OPEN);
    client.send({ type: 'say', text: 42 });
    await expect.poll(() => client.readyState).toBe(CLOSED);
    expect(reconnects).toEqual([]);
    expect(server.endpoint.size).toBe(0);
  });

  test('a refusal (1008: no first-message auth) reaches the caller as WebSocketClosedError: onError, pending requests, messages()', async () => {
    const server = await startServer({ firstMessageAuth: { verify: (token: string) => (token === 'good' ? { token } : undefined) } });
    const errors: unknown[] = [];
    const reconnects: number[] = [];
    // No token: the socket opens, the server waits for the auth message and closes with 1008.
    const client = connect({
      url: `${server.url}/rooms/a`,
      onError: (error) => errors.push(error),
      onReconnect: (attempt) => reconnects.push(attempt),
    });
    const iterating = (async () => {
      for await (const message of client.messages()) void message;
    })().catch((error: unknown) => error);
    const request = client.request({ type: 'history', room: 'a' }).catch((error: unknown) => error);
    await expect.poll(() => client.readyState).toBe(CLOSED);
    expect(errors).toHaveLength(1);
    const refusal = errors[0] as Error & { code: number; reason: string };
    expect(refusal).toBeInstanceOf(WebSocketClosedError);
    expect(refusal).toBeInstanceOf(WebSocketClientError);
    expect(refusal.code).toBe(1008);
    expect(refusal.message).toContain('1008');
    expect(await iterating).toBe(refusal);
    expect(await request).toBe(refusal);
    expect(reconnects).toEqual([]);
    // Closed by the caller: no error.
    const quiet: unknown[] = [];
    const good = connect({ url: `${server.url}/rooms/a`, token: () => 'good', onError: (error) => quiet.push(error) });
    await expect.poll(() => good.readyState).toBe(OPEN);
    good.close();
    await expect.poll(() => good.readyState).toBe(CLOSED);
    expect(quiet).toEqual([]);
  });

  test('a silent server is detected by the application-level ping and given up on', async () => {
    // A server that completes handshakes and then never sends anything (no pong).
    const http = createServer();
    const silent = new WebSocketServer({ server: http });
    let connections = 0;
    silent.on('connection', () => connections++);
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    try {
      const closes: Array<[number, string]> = [];
      connect({
        url: `ws://127.0.0.1:${(http.address() as AddressInfo).port}/`,
        pingIntervalMs: 30,
        reconnect: { baseDelay: 1, maxDelay: 1 },
        onClose: (code, reason) => closes.push([code, reason]),
      });
      await expect.poll(() => connections).toBeGreaterThanOrEqual(2);
      expect(closes[0]).toEqual([1006, 'Server not responding']);
    } finally {
      for (const socket of silent.clients) socket.terminate();
      silent.close();
      http.close();
    }
  });

  test('request() of the application ping resolves with the pong carrying its id; heartbeat pongs reach no listener', async () => {
    const server = await startServer();
    let pings = 0;
    /** `ws` counting the client's own (heartbeat) pings as they go out. */
    class CountingWebSocket extends WebSocket {
      override send(data: string): void {
        if (data === '{"type":"ping"}') pings++;
        super.send(data);
      }
    }
    const errors: unknown[] = [];
    const every: Message[] = [];
    const pongs: Message[] = [];
    const client = connect({
      url: `${server.url}/rooms/a`,
      WebSocket: CountingWebSocket,
      pingIntervalMs: 10,
      validate: chat.validateChatServerMessage,
      onError: (error) => errors.push(error),
    });
    client.onMessage((message) => every.push(message));
    client.on('pong', (message) => pongs.push(message));
    await expect.poll(() => pings).toBeGreaterThanOrEqual(3);
    // The server answers in order: once this reply is in, so are the pongs of the pings before it.
    const pong = await client.request({ type: 'ping' });
    expect(pong).toEqual({ type: 'pong', id: expect.stringMatching(/^c[0-9a-z]+-\d+$/) });
    expect(every).toEqual([]);
    expect(pongs).toEqual([]);
    expect(errors).toEqual([]);
    expect(client.readyState).toBe(OPEN);
  });

  test('a server that answers the ping keeps the connection', async () => {
    const server = await startServer();
    const closes: number[] = [];
    const client = connect({ url: `${server.url}/rooms/a`, pingIntervalMs: 20, onClose: (code) => closes.push(code) });
    await expect.poll(() => client.readyState).toBe(OPEN);
    // Ten ping intervals; each needs a pong to keep the connection.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(closes).toEqual([]);
    expect(server.opened).toHaveLength(1);
  });
});
