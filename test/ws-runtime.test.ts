/**
 * The WebSocket server runtime (runtime/ws-*.ts) over real sockets with a plain `ws`
 * client: the handshake (Origin 403, subprotocols, handshake auth 401/403), first-message auth,
 * every close code of the conventions (1001, 1003, 1008, 1009, 1011, 1013), the heartbeat that
 * drops a silent peer, typed dispatch, reply correlation, limits, broadcast and shutdown. The
 * runtime itself type-checks strict under both compilers, for Node and (the client) browsers.
 */
import { afterAll, afterEach, describe, expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import WebSocket from 'ws';
import { MemoryFanOut } from '../runtime/pubsub.js';
import { anyTypes } from './support/client-generate.js';
import { COMPILERS, typecheck } from './support/typecheck.js';
import { WS_BROWSER_CLIENT_USAGE, WS_CLIENT_USAGE, WS_NODE_CLIENT_USAGE, WS_SERVER_USAGE } from './support/ws-chat.js';
import { writeWsRuntime, wsTempFolder, type EndpointOptions } from './support/ws-runtime.js';
import { closeOf, inbox, open, openOk, silentPeer, startChat, type ChatServer } from './support/ws-server-setup.js';

const servers: ChatServer[] = [];
const sockets: WebSocket[] = [];

async function chat(overrides: Partial<EndpointOptions> = {}): Promise<ChatServer> {
  const started = await startChat(overrides);
  servers.push(started);
  return started;
}

async function client(url: string, protocols: string[] = [], options: WebSocket.ClientOptions = {}): Promise<WebSocket> {
  const socket = await openOk(url, protocols, options);
  sockets.push(socket);
  return socket;
}

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.terminate();
  await Promise.all(servers.splice(0).map((server) => server.stop()));
});

describe('the runtime files', () => {
  const folder = wsTempFolder('ws-typecheck-');
  writeWsRuntime(folder, {
    'server-usage.ts': WS_SERVER_USAGE,
    'client-usage.ts': WS_CLIENT_USAGE,
    'node-client.ts': WS_NODE_CLIENT_USAGE,
    'browser-client.ts': WS_BROWSER_CLIENT_USAGE,
  });

  test('no `any` in the runtime files', () => {
    for (const name of ['ws-protocol', 'pubsub', 'ws-handshake', 'ws-connection', 'ws-server', 'ws-client']) {
      expect(anyTypes(readFileSync(join(folder, 'runtime', `${name}.ts`), 'utf8')), name).toEqual([]);
    }
  });

  for (const [name, compiler] of Object.entries(COMPILERS)) {
    test(`server and Node client type-check strict under ${name}`, () => {
      const result = typecheck(folder, compiler, 'node', [
        'runtime/*.ts',
        'chat.ts',
        'server-usage.ts',
        'client-usage.ts',
        'node-client.ts',
      ]);
      expect(result.output).toBe('');
      expect(result.ok).toBe(true);
    });

    test(`the client type-checks for browsers (DOM, no @types/node) under ${name}`, () => {
      const files = [
        'runtime/ws-client.ts',
        'runtime/ws-protocol.ts',
        'runtime/validation.ts',
        'chat.ts',
        'client-usage.ts',
        'browser-client.ts',
      ];
      const result = typecheck(folder, compiler, 'browser', files);
      expect(result.output).toBe('');
      expect(result.ok).toBe(true);
    });
  }
});

describe('handshake', () => {
  test('an Origin that is not allowed is answered 403 before any WebSocket exists', async () => {
    const server = await chat({ cors: { origins: ['https://app.example.com'] } });
    expect((await open(`${server.url}/rooms/a`, [], { origin: 'https://evil.example.com' })).outcome).toEqual({ status: 403 });
    expect(server.opened).toHaveLength(0);
    await client(`${server.url}/rooms/a`, [], { origin: 'https://app.example.com' });
    // Not a browser: no Origin, no page to protect.
    await client(`${server.url}/rooms/a`);
    expect(server.opened).toHaveLength(2);
  });

  test('without an allow-list only the server’s own origin may connect', async () => {
    const server = await chat();
    expect((await open(`${server.url}/rooms/a`, [], { origin: 'http://localhost:1' })).outcome).toEqual({ status: 403 });
    await client(`${server.url}/rooms/a`, [], { origin: server.httpUrl });
  });

  test('the subprotocol is the server’s first choice among those offered; none acceptable → 400', async () => {
    const server = await chat({ protocols: ['chat.v2', 'chat.v1'] });
    expect((await client(`${server.url}/rooms/a`, ['chat.v1', 'chat.v2'])).protocol).toBe('chat.v2');
    expect((await client(`${server.url}/rooms/a`, ['mqtt', 'chat.v1'])).protocol).toBe('chat.v1');
    expect((await open(`${server.url}/rooms/a`, ['mqtt'])).outcome).toEqual({ status: 400 });
    expect((await open(`${server.url}/rooms/a`)).outcome).toEqual({ status: 400 });
  });

  test('a server that declares no subprotocol agrees to none (never echoes an unknown one)', async () => {
    const server = await chat();
    // `ws` fails a connection whose server picked none of the offered protocols (RFC 6455 §4.1).
    const { outcome } = await open(`${server.url}/rooms/a`, ['mqtt']);
    expect(outcome?.code).toBe(1006);
    await expect.poll(() => server.opened.map((connection) => connection.protocol)).toEqual(['']);
  });

  test('handshake auth by cookie or URL token: 401 without credentials, 403 without permission', async () => {
    const server = await chat({
      authenticate: (request) => {
        const token =
          new URL(request.url ?? '/', 'http://x').searchParams.get('token') ?? /session=(\w+)/.exec(request.headers.cookie ?? '')?.[1];
        if (!token) return { status: 401 };
        return token === 'alice' ? { context: { user: 'alice' } } : { status: 403, message: 'Not a member of this room' };
      },
    });
    expect((await open(`${server.url}/rooms/a`)).outcome).toEqual({ status: 401 });
    expect((await open(`${server.url}/rooms/a?token=mallory`)).outcome).toEqual({ status: 403 });
    const byCookie = await client(`${server.url}/rooms/a`, [], { headers: { cookie: 'session=alice' } });
    const byToken = await client(`${server.url}/rooms/a?token=alice`);
    byCookie.send(JSON.stringify({ type: 'say', text: 'cookie' }));
    byToken.send(JSON.stringify({ type: 'say', text: 'token' }));
    await expect.poll(() => server.said.length).toBe(2);
    expect(server.said.map((entry) => entry.context)).toEqual([{ user: 'alice' }, { user: 'alice' }]);
  });

  test('an authenticate hook that throws is a 500 with nothing of the error in it', async () => {
    const server = await chat({
      authenticate: () => {
        throw new Error('database password wrong');
      },
    });
    expect((await open(`${server.url}/rooms/a`)).outcome).toEqual({ status: 500 });
    expect(server.errors).toHaveLength(1);
  });

  test('a path no endpoint serves is answered 404; path parameters reach the connection', async () => {
    const server = await chat();
    expect((await open(`${server.url}/lobby`)).outcome).toEqual({ status: 404 });
    await client(`${server.url}/rooms/caf%C3%A9?x=1`);
    expect(server.opened[0]?.params).toEqual({ room: 'café' });
    expect(server.opened[0]?.channel).toBe('/rooms/caf%C3%A9');
  });
});

describe('first-message authentication', () => {
  const verify = (token: string): unknown => (token === 'good' ? { user: 'bob' } : undefined);

  test('no token within the time limit → 1008', async () => {
    const server = await chat({ firstMessageAuth: { verify, timeoutMs: 100 } });
    const socket = await client(`${server.url}/rooms/a`);
    expect(await closeOf(socket)).toEqual({ code: 1008, reason: 'Authentication timed out' });
    expect(server.opened).toHaveLength(0);
  });

  test('a bad token, or a first message that is not `auth` → 1008', async () => {
    const server = await chat({ firstMessageAuth: { verify } });
    const bad = await client(`${server.url}/rooms/a`);
    bad.send(JSON.stringify({ type: 'auth', token: 'bad' }));
    expect(await closeOf(bad)).toEqual({ code: 1008, reason: 'Authentication failed' });
    const other = await client(`${server.url}/rooms/a`);
    other.send(JSON.stringify({ type: 'say', text: 'hi' }));
    expect(await closeOf(other)).toMatchObject({ code: 1008, reason: expect.stringContaining('first message must be "auth"') });
    expect(server.said).toHaveLength(0);
  });

  test('messages sent right behind the token wait for it and are handled in order', async () => {
    const server = await chat({
      firstMessageAuth: { verify: (token: string) => new Promise((resolve) => setTimeout(() => resolve(verify(token)), 50)) },
    });
    const socket = await client(`${server.url}/rooms/a`);
    socket.send(JSON.stringify({ type: 'auth', token: 'good' }));
    for (let i = 0; i < 5; i++) socket.send(JSON.stringify({ type: 'say', text: `m${i}` }));
    await expect.poll(() => server.said.length).toBe(5);
    expect(server.said).toEqual([0, 1, 2, 3, 4].map((i) => ({ text: `m${i}`, context: { user: 'bob' } })));
  });
});

describe('messages and close codes', () => {
  test('typed dispatch: each kind reaches its handler, and `say` is broadcast to the channel', async () => {
    const server = await chat();
    const alice = await client(`${server.url}/rooms/a`);
    const bob = await client(`${server.url}/rooms/a`);
    const carol = await client(`${server.url}/rooms/b`);
    const [aliceInbox, bobInbox, carolInbox] = [inbox(alice), inbox(bob), inbox(carol)];
    await expect.poll(() => server.opened.length).toBe(3);
    alice.send(JSON.stringify({ type: 'say', text: 'hello room a' }));
    const expected = { type: 'said', room: 'a', text: 'hello room a' };
    expect(await aliceInbox.next()).toEqual(expected);
    expect(await bobInbox.next()).toEqual(expected);
    carol.send(JSON.stringify({ type: 'say', text: 'hello room b' }));
    expect(await carolInbox.next()).toEqual({ type: 'said', room: 'b', text: 'hello room b' });
    expect(aliceInbox.messages).toEqual([]);
  });

  test('topics joined by handlers receive what is published on them', async () => {
    const server = await chat();
    const socket = await client(`${server.url}/rooms/a`);
    const messages = inbox(socket);
    socket.send(JSON.stringify({ type: 'join', room: 'news' }));
    await expect
      .poll(async () => {
        await server.endpoint.publish('room:news', { type: 'said', room: 'news', text: 'extra' });
        return messages.messages.length > 0;
      })
      .toBe(true);
    expect(messages.messages[0]).toEqual({ type: 'said', room: 'news', text: 'extra' });
    socket.send(JSON.stringify({ type: 'leave', room: 'news' }));
    socket.send(JSON.stringify({ type: 'history', id: 'sync', room: 'a' }));
    await messages.next((message) => message.id === 'sync');
    messages.messages.length = 0;
    await server.endpoint.publish('room:news', { type: 'said', room: 'news', text: 'after leaving' });
    socket.send(JSON.stringify({ type: 'history', id: 'sync2', room: 'a' }));
    await messages.next((message) => message.id === 'sync2');
    expect(messages.messages).toEqual([]);
  });

  test('a reply carries the correlation id of its request, whatever order replies come in', async () => {
    const server = await chat();
    const socket = await client(`${server.url}/rooms/a`);
    const messages = inbox(socket);
    socket.send(JSON.stringify({ type: 'work', id: 'slow', ms: 80 }));
    socket.send(JSON.stringify({ type: 'work', id: 7, ms: 1 }));
    socket.send(JSON.stringify({ type: 'history', id: 'h', room: 'a' }));
    const replies = [await messages.next(), await messages.next(), await messages.next()];
    expect(replies).toContainEqual({ type: 'done', id: 'slow', ms: 80 });
    expect(replies).toContainEqual({ type: 'done', id: 7, ms: 1 });
    expect(replies).toContainEqual({ type: 'historyResult', id: 'h', texts: ['history of a'] });
    expect(replies[2]).toEqual({ type: 'done', id: 'slow', ms: 80 });
  });

  test('the application-level ping is answered with a pong', async () => {
    const server = await chat();
    const socket = await client(`${server.url}/rooms/a`);
    const messages = inbox(socket);
    socket.send(JSON.stringify({ type: 'ping' }));
    expect(await messages.next()).toEqual({ type: 'pong' });
  });

  test('a ping with a correlation id gets it back in its pong, even before first-message auth', async () => {
    const server = await chat({ firstMessageAuth: { verify: (token: string) => (token === 'good' ? { user: 'bob' } : undefined) } });
    const socket = await client(`${server.url}/rooms/a`);
    const messages = inbox(socket);
    socket.send(JSON.stringify({ type: 'ping', id: 'before-auth' }));
    expect(await messages.next()).toEqual({ type: 'pong', id: 'before-auth' });
    socket.send(JSON.stringify({ type: 'auth', token: 'good' }));
    socket.send(JSON.stringify({ type: 'ping', id: 7 }));
    expect(await messages.next()).toEqual({ type: 'pong', id: 7 });
    // Only a string or a number is a correlation id; anything else is not echoed.
    socket.send(JSON.stringify({ type: 'ping', id: { evil: true } }));
    expect(await messages.next()).toEqual({ type: 'pong' });
    socket.send(JSON.stringify({ type: 'say', text: 'still open' }));
    await expect.poll(() => server.said).toEqual([{ text: 'still open', context: { user: 'bob' } }]);
  });

  test('with appPing false a ping is a message like any other: validated, then its handler answers', async () => {
    const handled: unknown[] = [];
    const server = await chat({
      appPing: false,
      handlers: {
        ping: (message) => {
          handled.push(message);
          return { type: 'pong', id: message.id };
        },
      },
    });
    const socket = await client(`${server.url}/rooms/a`);
    const messages = inbox(socket);
    socket.send(JSON.stringify({ type: 'ping', id: 'by-handler' }));
    expect(await messages.next()).toEqual({ type: 'pong', id: 'by-handler' });
    expect(handled).toEqual([{ type: 'ping', id: 'by-handler' }]);
    socket.send(JSON.stringify({ type: 'ping', extra: 1 }));
    expect(await closeOf(socket)).toEqual({ code: 1008, reason: 'Invalid message: /extra is not allowed' });
  });

  test('a message larger than maxPayload → 1009', async () => {
    const server = await chat({ maxPayload: 1024 });
    const socket = await client(`${server.url}/rooms/a`);
    socket.send(JSON.stringify({ type: 'say', text: 'x'.repeat(1024) }));
    expect((await closeOf(socket)).code).toBe(1009);
    expect(server.said).toHaveLength(0);
  });

  test('a binary frame where only text is declared → 1003', async () => {
    const server = await chat();
    const socket = await client(`${server.url}/rooms/a`);
    socket.send(Buffer.from(JSON.stringify({ type: 'say', text: 'hi' })), { binary: true });
    expect(await closeOf(socket)).toEqual({ code: 1003, reason: 'Binary messages are not accepted' });
    expect(server.said).toHaveLength(0);
  });

  test('invalid JSON and invalid messages → 1008 with the first failing path as the reason', async () => {
    const server = await chat();
    const notJson = await client(`${server.url}/rooms/a`);
    notJson.send('{"type": "say", ');
    expect(await closeOf(notJson)).toEqual({ code: 1008, reason: 'Invalid message: not JSON' });
    const invalid = await client(`${server.url}/rooms/a`);
    invalid.send(JSON.stringify({ type: 'say', text: 42 }));
    expect(await closeOf(invalid)).toEqual({ code: 1008, reason: 'Invalid message: /text is invalid' });
    const unknown = await client(`${server.url}/rooms/a`);
    unknown.send(JSON.stringify({ type: 'constructor' }));
    expect((await closeOf(unknown)).code).toBe(1008);
  });

  test('with errorReply, a bad message is answered and the socket stays open', async () => {
    const server = await chat({ errorReply: (problem) => ({ type: 'error', reason: problem.reason, message: problem.message }) });
    const socket = await client(`${server.url}/rooms/a`);
    const messages = inbox(socket);
    socket.send(JSON.stringify({ type: 'history', id: 'q1', room: 5 }));
    expect(await messages.next()).toEqual({
      type: 'error',
      id: 'q1',
      reason: 'invalid-message',
      message: 'Invalid message: /room is invalid',
    });
    socket.send('nope');
    expect(await messages.next()).toEqual({ type: 'error', reason: 'invalid-json', message: 'Invalid message: not JSON' });
    socket.send(JSON.stringify({ type: 'history', id: 'q2', room: 'a' }));
    expect(await messages.next()).toMatchObject({ type: 'historyResult', id: 'q2' });
  });

  test('a long reason is cut to what a close frame holds (123 bytes), on a character boundary', async () => {
    const server = await chat();
    const socket = await client(`${server.url}/rooms/a`);
    socket.send(JSON.stringify({ type: 'say', text: 'hi', ['é'.repeat(100)]: 1 }));
    const { code, reason = '' } = await closeOf(socket);
    expect(code).toBe(1008);
    expect(reason).toMatch(/^Invalid message: \/é+\.\.\.$/);
    expect(Buffer.byteLength(reason)).toBeLessThanOrEqual(123);
  });

  test('a handler that throws or rejects → 1011 "Internal error", the error only in onError', async () => {
    const server = await chat();
    const thrower = await client(`${server.url}/rooms/a`);
    thrower.send(JSON.stringify({ type: 'crash' }));
    expect(await closeOf(thrower)).toEqual({ code: 1011, reason: 'Internal error' });
    const rejecter = await client(`${server.url}/rooms/a`);
    rejecter.send(JSON.stringify({ type: 'work', id: 1, ms: 1, fail: true }));
    expect(await closeOf(rejecter)).toEqual({ code: 1011, reason: 'Internal error' });
    expect(server.errors.map((error) => (error as Error).message)).toEqual(['secret stack detail', 'secret database detail']);
  });

  test('permessage-deflate is agreed only when opted in, and large messages pass compressed', async () => {
    const plain = await chat();
    expect((await client(`${plain.url}/rooms/a`)).extensions).toBe('');
    const compressed = await chat({ perMessageDeflate: { threshold: 256 } });
    const socket = await client(`${compressed.url}/rooms/a`);
    expect(socket.extensions).toContain('permessage-deflate');
    const messages = inbox(socket);
    const text = 'compress me '.repeat(150);
    socket.send(JSON.stringify({ type: 'say', text }));
    expect(await messages.next()).toEqual({ type: 'said', room: 'a', text });
  });
});

describe('limits and liveness', () => {
  test('the message rate per socket: beyond it → 1008', async () => {
    const server = await chat({ rateLimit: { messages: 5, intervalMs: 60_000 } });
    const socket = await client(`${server.url}/rooms/a`);
    for (let i = 0; i < 6; i++) socket.send(JSON.stringify({ type: 'say', text: `m${i}` }));
    expect(await closeOf(socket)).toEqual({ code: 1008, reason: 'Rate limit exceeded' });
    expect(server.said).toHaveLength(5);
  });

  test('with onExceeded "drop", messages beyond the rate are dropped and answered by errorReply', async () => {
    const server = await chat({
      rateLimit: { messages: 3, intervalMs: 60_000, onExceeded: 'drop' },
      errorReply: (problem) => ({ type: 'error', reason: problem.reason, message: problem.message }),
    });
    const socket = await client(`${server.url}/rooms/a`);
    const messages = inbox(socket);
    for (let i = 0; i < 5; i++) socket.send(JSON.stringify({ type: 'say', text: `m${i}` }));
    const errors = [await messages.next((m) => m.type === 'error'), await messages.next((m) => m.type === 'error')];
    expect(errors).toEqual([1, 2].map(() => ({ type: 'error', reason: 'rate-limited', message: 'Rate limit exceeded' })));
    expect(server.said.map((entry) => entry.text)).toEqual(['m0', 'm1', 'm2']);
    expect(socket.readyState).toBe(WebSocket.OPEN);
  });

  test('one connection more than maxConnections is closed with 1013', async () => {
    const server = await chat({ maxConnections: 2 });
    await client(`${server.url}/rooms/a`);
    await client(`${server.url}/rooms/a`);
    const third = await client(`${server.url}/rooms/a`);
    expect(await closeOf(third)).toEqual({ code: 1013, reason: 'Too many connections' });
    expect(server.endpoint.size).toBe(2);
  });

  test('the heartbeat terminates a peer that stops answering pings, and keeps one that answers', async () => {
    const server = await chat({ heartbeatMs: 50 });
    const live = await client(`${server.url}/rooms/a`);
    let pings = 0;
    live.on('ping', () => pings++);
    const dead = await silentPeer(server.port, '/rooms/a');
    await expect.poll(() => server.endpoint.size).toBe(2);
    await expect.poll(() => dead.isClosed()).toBe(true);
    await expect.poll(() => server.closed).toEqual([{ code: 1006, reason: '' }]);
    const after = pings;
    await expect.poll(() => pings).toBeGreaterThan(after + 2);
    expect(live.readyState).toBe(WebSocket.OPEN);
    expect(server.endpoint.size).toBe(1);
  });

  test('close() sends 1001 to every socket, and later upgrades get 503', async () => {
    const server = await chat();
    const first = await client(`${server.url}/rooms/a`);
    const second = await client(`${server.url}/rooms/b`);
    const closes = Promise.all([closeOf(first), closeOf(second)]);
    await server.endpoint.close();
    expect(await closes).toEqual([
      { code: 1001, reason: 'Server shutting down' },
      { code: 1001, reason: 'Server shutting down' },
    ]);
    expect(server.endpoint.size).toBe(0);
    expect((await open(`${server.url}/rooms/a`)).outcome).toEqual({ status: 503 });
  });
});

describe('fan-out', () => {
  test('two endpoints sharing a FanOut reach each other’s sockets (as two instances would)', async () => {
    const fanOut = new MemoryFanOut();
    const one = await chat({ fanOut });
    const two = await chat({ fanOut });
    const onOne = await client(`${one.url}/rooms/a`);
    const onTwo = await client(`${two.url}/rooms/a`);
    const [inOne, inTwo] = [inbox(onOne), inbox(onTwo)];
    await expect.poll(() => one.opened.length + two.opened.length).toBe(2);
    onOne.send(JSON.stringify({ type: 'say', text: 'across instances' }));
    expect(await inTwo.next()).toEqual({ type: 'said', room: 'a', text: 'across instances' });
    expect(await inOne.next()).toEqual({ type: 'said', room: 'a', text: 'across instances' });
  });
});

afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
});
