/**
 * The generated GraphQL server over real WebSockets: a stock graphql-ws client receives
 * subscription events; Origin is checked at the upgrade (403 before any WebSocket), credentials in
 * `connection_init` are checked (4403), the legacy subprotocol is refused with a close code (4406),
 * limits and `@auth` apply to subscriptions as they do over HTTP, and the connection limits hold
 * (total and per client at the upgrade, operations per connection, messages per window, the time
 * a subscribe resolver may take). Clients are told apart by their source address (127.0.0.x).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { createClient, type Client, type FormattedExecutionResult } from 'graphql-ws';

type ExecutionResult = FormattedExecutionResult<Record<string, unknown>, unknown>;
import WebSocket from 'ws';
import { generatedServer, serve, type GeneratedServer, type Running } from './support/graphql-server-setup.js';
import { GRAPHQL_USAGE_SOURCE } from './support/graphql-server-usage.js';

let generated: GeneratedServer;
let running: Running;
const started: Running[] = [];
const clients: Client[] = [];
const sockets: WebSocket[] = [];

const wsUrl = (server: Running) => server.url.replace('http:', 'ws:');

function client(server: Running, connectionParams: Record<string, unknown> = {}, onClose?: (code: number, reason: string) => void): Client {
  const made = createClient({
    url: wsUrl(server),
    webSocketImpl: WebSocket,
    connectionParams,
    retryAttempts: 0,
    lazy: false,
    onNonLazyError: () => {},
    on: { closed: (event) => onClose?.((event as { code: number }).code, String((event as { reason: unknown }).reason)) },
  });
  clients.push(made);
  return made;
}

/** The first `count` results of a subscription (or the error that ended it). */
function take(
  target: Client,
  query: string,
  variables: Record<string, unknown>,
  count: number,
): Promise<{ results: ExecutionResult[]; error?: unknown }> {
  return new Promise((resolve) => {
    const results: ExecutionResult[] = [];
    const dispose = target.subscribe(
      { query, variables },
      {
        next: (result) => {
          results.push(result);
          if (results.length === count) {
            dispose();
            resolve({ results });
          }
        },
        error: (error) => resolve({ results, error }),
        complete: () => resolve({ results }),
      },
    );
  });
}

async function untilSubscribed(count: number): Promise<void> {
  await expect.poll(() => generated.usage.subscriberCount(), { timeout: 3000 }).toBe(count);
}

/** What a raw `ws` connection ends with: the HTTP status of a refused upgrade, or the close code. */
function connectRaw(
  url: string,
  protocols: string[],
  headers: Record<string, string> = {},
  localAddress?: string,
): Promise<{ status?: number; close?: number; reason?: string; protocol?: string }> {
  return new Promise((resolve) => {
    const socket = new WebSocket(url, protocols, { headers, localAddress });
    let protocol: string | undefined;
    socket.on('open', () => (protocol = socket.protocol));
    socket.on('unexpected-response', (_request, response) => {
      resolve({ status: response.statusCode });
      socket.terminate();
    });
    socket.on('error', () => {});
    socket.on('close', (code, reason) => resolve({ close: code, reason: reason.toString(), protocol }));
  });
}

beforeAll(async () => {
  generated = await generatedServer('graphql-subscriptions', GRAPHQL_USAGE_SOURCE);
  running = await serve(generated.usage.server());
  started.push(running);
});

afterAll(async () => {
  for (const socket of sockets) socket.terminate();
  await Promise.all(clients.map((made) => made.dispose()));
  await Promise.all(started.map((server) => server.close()));
});

beforeEach(() => {
  generated.usage.calls.length = 0;
});

const subscription = 'subscription Changes($projectId: ID!) { taskChanged(projectId: $projectId) { kind task { id title } } }';

describe('subscriptions over graphql-transport-ws', () => {
  test('a graphql-ws client receives the events of its project only', async () => {
    const target = client(running, { token: 'member' });
    const received = take(target, subscription, { projectId: 'p1' }, 2);
    await untilSubscribed(1);
    generated.usage.publish({ kind: 'CREATED', task: { id: 't7', title: 'First', projectId: 'p1' } });
    generated.usage.publish({ kind: 'CREATED', task: { id: 't8', title: 'Elsewhere', projectId: 'p2' } });
    generated.usage.publish({ kind: 'UPDATED', task: { id: 't7', title: 'Renamed', projectId: 'p1' } });
    const { results } = await received;
    expect(results).toEqual([
      { data: { taskChanged: { kind: 'CREATED', task: { id: 't7', title: 'First' } } } },
      { data: { taskChanged: { kind: 'UPDATED', task: { id: 't7', title: 'Renamed' } } } },
    ]);
    await untilSubscribed(0);
  });

  test('@auth applies inside events: a member sees null and FORBIDDEN with the path', async () => {
    const target = client(running, { token: 'member' });
    const received = take(target, 'subscription { taskChanged(projectId: "p1") { task { id internalNotes } } }', {}, 1);
    await untilSubscribed(1);
    generated.usage.publish({ kind: 'CREATED', task: { id: 't9', title: 'x', projectId: 'p1', internalNotes: 'secret' } });
    const { results } = await received;
    expect(results[0].data).toEqual({ taskChanged: { task: { id: 't9', internalNotes: null } } });
    expect(results[0].errors).toEqual([
      expect.objectContaining({ path: ['taskChanged', 'task', 'internalNotes'], extensions: { code: 'FORBIDDEN' } }),
    ]);
    expect(generated.usage.calls).not.toContain('Task.internalNotes');
    await untilSubscribed(0);
  });

  test('limits apply to subscriptions: a too deep one is refused before its resolver runs', async () => {
    const deep =
      'subscription { taskChanged(projectId: "p1") { task { project { tasks(first: 1) { edges { node { project { tasks(first: 1) { edges { node { id } } } } } } } } } } }';
    const target = client(running, { token: 'member' });
    const { error } = await take(target, deep, {}, 1);
    expect(error).toEqual([expect.objectContaining({ extensions: { code: 'DEPTH_LIMIT_EXCEEDED' } })]);
    expect(generated.usage.calls).toEqual([]);
  });

  test('allow-list mode applies to subscriptions', async () => {
    const listed = await serve(generated.usage.server({ persistedOnly: true }));
    started.push(listed);
    const { error } = await take(client(listed), subscription, { projectId: 'p1' }, 1);
    expect(error).toEqual([expect.objectContaining({ extensions: { code: 'PERSISTED_QUERY_NOT_IN_LIST' } })]);
    expect(generated.usage.calls).toEqual([]);
  });

  test('credentials refused in connection_init close the socket with 4403', async () => {
    let closed: [number, string] | undefined;
    const target = client(running, { token: 'bad' }, (code, reason) => (closed ??= [code, reason]));
    const { error } = await take(target, subscription, { projectId: 'p1' }, 1);
    expect(error).toBeDefined();
    expect(closed).toEqual([4403, 'Forbidden']);
  });
});

describe('the WebSocket handshake', () => {
  test('another origin is refused with 403 before the WebSocket opens; the own origin and non-browsers pass', async () => {
    expect(await connectRaw(wsUrl(running), ['graphql-transport-ws'], { origin: 'https://evil.example' })).toEqual({ status: 403 });
    const own = await connectRawOpen(wsUrl(running), { origin: `http://127.0.0.1:${running.port}` });
    expect(own).toBe('graphql-transport-ws');
    expect(await connectRawOpen(wsUrl(running), {})).toBe('graphql-transport-ws');
  });

  test('an allow-list of origins replaces the same-origin default', async () => {
    const listed = await serve(generated.usage.server({ cors: { origins: ['https://app.example'] } }));
    started.push(listed);
    expect(await connectRawOpen(wsUrl(listed), { origin: 'https://app.example' })).toBe('graphql-transport-ws');
    expect(await connectRaw(wsUrl(listed), ['graphql-transport-ws'], { origin: `http://127.0.0.1:${listed.port}` })).toEqual({
      status: 403,
    });
  });

  test('the legacy graphql-ws subprotocol (subscriptions-transport-ws) is closed with 4406', async () => {
    expect(await connectRaw(wsUrl(running), ['graphql-ws'])).toEqual({
      close: 4406,
      reason: 'Subprotocol not acceptable',
      protocol: 'graphql-ws',
    });
    expect(await connectRaw(wsUrl(running), [])).toMatchObject({ close: 4406 });
  });

  test('another path is not upgraded', async () => {
    expect(await connectRaw(wsUrl(running).replace('/graphql', '/other'), ['graphql-transport-ws'])).toEqual({ status: 404 });
  });
});

describe('connection limits', () => {
  test('WebSockets per client are refused with 429 and in all with 503 at the upgrade; a closed one frees its slot', async () => {
    const limited = await serve(generated.usage.server({ websocket: { maxConnections: 3, maxConnectionsPerClient: 2 } }));
    started.push(limited);
    const url = wsUrl(limited);
    const a1 = await openSocket(url, '127.0.0.2');
    await openSocket(url, '127.0.0.2');
    expect(await connectRaw(url, ['graphql-transport-ws'], {}, '127.0.0.2')).toEqual({ status: 429 });
    await openSocket(url, '127.0.0.3');
    expect(await connectRaw(url, ['graphql-transport-ws'], {}, '127.0.0.4')).toEqual({ status: 503 });
    a1.close();
    await expect
      .poll(
        async () => {
          const socket = await openSocket(url, '127.0.0.4').catch(() => undefined);
          socket?.close();
          return socket !== undefined;
        },
        { timeout: 3000 },
      )
      .toBe(true);
  });

  test('one operation over maxOperations gets OPERATION_LIMIT_EXCEEDED; the connection and the others go on', async () => {
    const limited = await serve(generated.usage.server({ websocket: { maxOperations: 2 } }));
    started.push(limited);
    const target = client(limited, { token: 'member' });
    const first = take(target, subscription, { projectId: 'p1' }, 1);
    const second = take(target, subscription, { projectId: 'p1' }, 1);
    await untilSubscribed(2);
    const { error } = await take(target, subscription, { projectId: 'p1' }, 1);
    expect(error).toEqual([expect.objectContaining({ extensions: { code: 'OPERATION_LIMIT_EXCEEDED' } })]);
    generated.usage.publish({ kind: 'CREATED', task: { id: 't10', title: 'Both', projectId: 'p1' } });
    const expected = { results: [{ data: { taskChanged: { kind: 'CREATED', task: { id: 't10', title: 'Both' } } } }] };
    expect(await first).toEqual(expected);
    expect(await second).toEqual(expected);
    await untilSubscribed(0);
    // Their slots are free again.
    const third = take(target, subscription, { projectId: 'p1' }, 1);
    await untilSubscribed(1);
    generated.usage.publish({ kind: 'UPDATED', task: { id: 't10', title: 'Again', projectId: 'p1' } });
    expect((await third).results).toHaveLength(1);
    await untilSubscribed(0);
  });

  test('a connection sending more messages than messageRate allows is closed with 1008', async () => {
    const limited = await serve(generated.usage.server({ websocket: { messageRate: { limit: 5, windowMs: 60_000 } } }));
    started.push(limited);
    const received: string[] = [];
    const closed = await new Promise<{ code: number; reason: string }>((resolve) => {
      const socket = new WebSocket(wsUrl(limited), ['graphql-transport-ws']);
      // connection_init, then a ping per answer: the five allowed messages are answered, the sixth closes.
      socket.on('message', (data) => {
        received.push((JSON.parse(String(data)) as { type: string }).type);
        socket.send(JSON.stringify({ type: 'ping' }));
      });
      socket.on('open', () => socket.send(JSON.stringify({ type: 'connection_init' })));
      socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() }));
    });
    expect(closed).toEqual({ code: 1008, reason: 'Too many messages' });
    expect(received).toEqual(['connection_ack', 'pong', 'pong', 'pong', 'pong']);
  });

  test('a subscribe resolver that does not return its stream within the time limit gets TIMEOUT', async () => {
    const quick = await serve(generated.usage.server({ timeout: 50 }));
    started.push(quick);
    const { results } = await take(client(quick, { token: 'member' }), subscription, { projectId: 'stall' }, 1);
    expect(results).toEqual([{ errors: [expect.objectContaining({ extensions: { code: 'TIMEOUT' } })] }]);
    expect(generated.usage.calls).toContain('Subscription.taskChanged');
  });
});

/** Opens a raw socket from `localAddress` with the current protocol and keeps it open. */
function openSocket(url: string, localAddress: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, ['graphql-transport-ws'], { localAddress });
    socket.on('open', () => resolve(socket));
    socket.on('unexpected-response', (_request, response) => reject(new Error(`refused: ${response.statusCode}`)));
    socket.on('error', () => {});
    sockets.push(socket);
  });
}

/** Opens a raw socket with the current protocol, answers nothing, and reports the agreed protocol. */
function connectRawOpen(url: string, headers: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, ['graphql-transport-ws'], { headers });
    socket.on('open', () => {
      resolve(socket.protocol);
      socket.close();
    });
    socket.on('unexpected-response', (_request, response) => reject(new Error(`refused: ${response.statusCode}`)));
    socket.on('error', () => {});
  });
}
