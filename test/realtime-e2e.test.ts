/**
 * The realtime example end to end, started as `npm run example:realtime` starts it (the compiled
 * dist/examples/realtime/main.js, PORT=0), driven by the generated client (out/realtime/client.ts,
 * compiled) and by third-party clients: the `eventsource` package and plain `ws`.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { EventSource } from 'eventsource';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { ROOT } from './support/cli.js';
import { importDist, startExample, type RunningExample } from './support/e2e-example.js';
import { startProxy } from './support/realtime-proxy.js';

type ClientModule = typeof import('../out/realtime/client.js');
type Events = import('../out/realtime/types.js').TasksEvents;

const MAIN = join(ROOT, 'dist', 'examples', 'realtime', 'main.js');
const TOKEN = 'demo-token';

let example: RunningExample;
let lib: ClientModule;

beforeAll(async () => {
  lib = await importDist<ClientModule>('out/realtime/client.js');
  example = await startExample({ FEED_INTERVAL_MS: '50' }, MAIN);
}, 30_000);

afterAll(async () => {
  const { code } = await example.stop();
  expect(code).toBe(0);
});

/** Reads feed events with the `eventsource` package until `until` says stop. */
function eventSourceEvents(
  url: string,
  until: (events: { id: string; event: string; data: unknown }[]) => boolean,
): Promise<{ id: string; event: string; data: unknown }[]> {
  const source = new EventSource(url);
  const events: { id: string; event: string; data: unknown }[] = [];
  return new Promise((resolve, reject) => {
    for (const name of ['task.created', 'task.updated', 'task.deleted']) {
      source.addEventListener(name, (message) => {
        events.push({ id: message.lastEventId, event: name, data: JSON.parse(message.data) });
        if (until(events)) {
          source.close();
          resolve(events);
        }
      });
    }
    source.onerror = () => {
      if (source.readyState === EventSource.CLOSED) reject(new Error('EventSource closed'));
    };
  });
}

describe('the SSE feed (GET /v1/tasks/events)', () => {
  it('the generated client receives typed events, and resumes after a dropped connection without a gap', async () => {
    const proxy = await startProxy(example.port);
    // A reference reader on the direct connection sees every event in order.
    const reference = eventSourceEvents(`${example.url}/v1/tasks/events`, (events) => events.length >= 60);
    const client = lib.createClient({ baseUrl: proxy.url });
    let reconnects = 0;
    const stream = client.tasks({ onReconnect: () => reconnects++ });
    const seen: { id: string; event: keyof Events; taskId: string }[] = [];
    try {
      for await (const message of stream) {
        // Typed by the event name: a task for created/updated, an id for deleted.
        const taskId = message.event === 'task.deleted' ? message.data.id : message.data.task.id;
        expect(taskId).toMatch(/^[0-9a-f-]{36}$/);
        seen.push({ id: message.id, event: message.event, taskId });
        if (seen.length === 3) proxy.cut();
        if (seen.length === 10) break;
      }
    } finally {
      stream.close();
      await proxy.close();
    }
    expect(stream.readyState).toBe(lib.CLOSED);
    const all = await reference;
    const start = all.findIndex((event) => event.id === seen[0].id);
    expect(start).toBeGreaterThanOrEqual(0);
    // The ten events the dropped client saw are ten consecutive events of the feed: nothing lost
    // while it was away, nothing repeated when it came back.
    expect(seen.map((event) => event.id)).toEqual(all.slice(start, start + 10).map((event) => event.id));
    expect(seen.map((event) => event.event)).toEqual(all.slice(start, start + 10).map((event) => event.event));
    expect(reconnects).toBe(1);
  }, 20_000);

  it('the eventsource package receives the same named events with ids', async () => {
    const events = await eventSourceEvents(
      `${example.url}/v1/tasks/events`,
      (list) => list.some((event) => event.event === 'task.updated') && list.length >= 3,
    );
    for (const event of events) {
      expect(event.id).toMatch(/^\d+-\d+$/);
      if (event.event !== 'task.deleted')
        expect(event.data).toMatchObject({ task: { id: expect.any(String), status: expect.any(String) } });
    }
  }, 15_000);
});

describe('the POST stream (POST /v1/tasks/{taskId}/summary)', () => {
  it('streams chunks and ends with data: [DONE] (generated client and a raw reader)', async () => {
    // The client's token goes with every SSE request as Authorization: Bearer.
    const client = lib.createClient({ baseUrl: example.url, token: TOKEN });
    const taskId = randomUUID();
    const chunks: string[] = [];
    for await (const { event, data } of client.taskSummary({ taskId }, { style: 'brief', maxWords: 20 })) {
      expect(event).toBe('chunk');
      chunks.push(data.text);
    }
    expect(chunks.join('')).toBe(`There is no task ${taskId} (yet).`);

    const response = await fetch(`${example.url}/v1/tasks/${taskId}/summary`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json', accept: 'text/event-stream' },
      body: '{}',
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const text = await response.text();
    expect(text).toMatch(/event: chunk\ndata: \{"text":"There"\}\n\n/);
    expect(text.endsWith('data: [DONE]\n\n')).toBe(true);
  });

  it('refuses a POST stream without a token (403), and a body that fails the manifest (422)', async () => {
    const client = lib.createClient({ baseUrl: example.url });
    const failure = await (async () => {
      for await (const _ of client.taskSummary({ taskId: randomUUID() }, {})) throw new Error('no event expected');
    })().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(lib.SseResponseError);
    expect((failure as InstanceType<ClientModule['SseResponseError']>).status).toBe(403);
    expect(lib.isClientError(failure, 'response')).toBe(true);
    expect(failure).toMatchObject({ operation: 'taskSummary' });

    const response = await fetch(`${example.url}/v1/tasks/${randomUUID()}/summary`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ style: 'poetic' }),
    });
    expect(response.status).toBe(422);
    expect(await response.json()).toMatchObject({ status: 422, detail: expect.stringContaining('/style') });
  });
});

describe('the chat (WebSocket /v1/chat)', () => {
  it("the client's signal closes its streams and sockets; timeout bounds a request's wait", async () => {
    const controller = new AbortController();
    const client = lib.createClient({ baseUrl: example.url, WebSocket, token: TOKEN, signal: controller.signal, timeout: 1 });
    // The client's timeout would bound opening the stream too: this stream sets its own (0, none).
    const feed = client.tasks({ timeout: 0 });
    const chat = client.chat();
    // Sent while the socket is still connecting (handshake, then first-message auth), a request
    // cannot be answered within 1 ms: the client's timeout is the request's default.
    const late = await chat.request({ type: 'ping' }).catch((error: unknown) => error);
    expect(lib.isClientError(late, 'timeout')).toBe(true);
    expect(late).toMatchObject({ operation: 'chat' });
    const reading = (async () => {
      for await (const _ of feed) void _;
    })();
    await expect.poll(() => [feed.readyState, chat.readyState]).toEqual([lib.OPEN, lib.ReadyState.OPEN]);
    controller.abort();
    await reading;
    await expect.poll(() => [feed.readyState, chat.readyState]).toEqual([lib.CLOSED, lib.ReadyState.CLOSED]);
  }, 15_000);

  it('the generated client authenticates, joins, gets typed broadcasts and a correlated reply; /task reaches the feed', async () => {
    // Alice's socket takes the client's token, Bob's its own.
    const client = lib.createClient({ baseUrl: example.url, WebSocket, token: () => TOKEN });
    const alice = client.chat();
    const bob = client.chat({ token: () => 'reader-token' });
    const room = randomUUID();
    const title = `Task ${randomUUID()}`;
    const feed = eventSourceEvents(`${example.url}/v1/tasks/events`, (events) =>
      events.some((event) => event.event === 'task.created' && (event.data as { task: { title: string } }).task.title === title),
    );
    try {
      const bobJoined = new Promise((resolve) => bob.on('joined', (message) => message.user === 'reader' && resolve(message)));
      bob.send({ type: 'join', room });
      expect(await bobJoined).toEqual({ type: 'joined', room, user: 'reader' });
      const aliceJoined = new Promise((resolve) => alice.on('joined', (message) => message.user === 'demo' && resolve(message)));
      alice.send({ type: 'join', room });
      await aliceJoined;
      expect(alice.protocol).toBe('chat.v1');

      const heard = new Promise<{ user: string; text: string; messageId: string }>((resolve) => bob.on('said', (line) => resolve(line)));
      // request() takes the message without its `id`: the client adds a correlation id of its own.
      const ack = await alice.request({ type: 'say', room, text: `/task ${title}` });
      expect(ack.type).toBe('ack');
      expect(ack.id).toMatch(/^c[0-9a-z]+-\d+$/);
      // The manifest's ping → pong, answered by the server's runtime with the ping's id.
      const pong = await alice.request({ type: 'ping' });
      expect(pong).toEqual({ type: 'pong', id: expect.stringMatching(/^c[0-9a-z]+-\d+$/) });
      const line = await heard;
      expect(line).toMatchObject({ user: 'demo', text: `/task ${title}` });
      expect(line.messageId).toBe(ack.messageId);
      await feed;
    } finally {
      alice.close();
      bob.close();
    }
  }, 15_000);

  const wsUrl = () => `${example.url.replace(/^http/, 'ws')}/v1/chat`;

  /** The HTTP status a handshake is refused with. */
  function refusedWith(socket: WebSocket): Promise<number> {
    return new Promise((resolve, reject) => {
      socket.on('unexpected-response', (_request, response) => {
        resolve(response.statusCode ?? 0);
        response.resume();
        socket.terminate();
      });
      socket.on('open', () => reject(new Error('the handshake was accepted')));
      socket.on('error', () => {});
    });
  }

  function closeOf(socket: WebSocket): Promise<{ code: number; reason: string }> {
    return new Promise((resolve) => socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() })));
  }

  it('a plain ws client with a foreign Origin is refused with 403', async () => {
    expect(await refusedWith(new WebSocket(wsUrl(), ['chat.v1'], { origin: 'https://evil.example' }))).toBe(403);
  });

  it('a subprotocol the server does not speak is refused; chat.v1 is agreed', async () => {
    expect(await refusedWith(new WebSocket(wsUrl(), ['chat.v0']))).toBe(400);
    const socket = new WebSocket(wsUrl(), ['chat.v0', 'chat.v1']);
    await new Promise((resolve) => socket.once('open', resolve));
    expect(socket.protocol).toBe('chat.v1');
    socket.terminate();
  });

  it('without first-message auth the socket is closed with 1008: a wrong first message at once, silence after the timeout', async () => {
    const early = new WebSocket(wsUrl(), ['chat.v1']);
    early.on('open', () => early.send(JSON.stringify({ type: 'join', room: randomUUID() })));
    expect((await closeOf(early)).code).toBe(1008);

    const badToken = new WebSocket(wsUrl(), ['chat.v1']);
    badToken.on('open', () => badToken.send(JSON.stringify({ type: 'auth', token: 'nope' })));
    expect(await closeOf(badToken)).toEqual({ code: 1008, reason: 'Authentication failed' });

    const silent = new WebSocket(wsUrl(), ['chat.v1']);
    expect(await closeOf(silent)).toEqual({ code: 1008, reason: 'Authentication timed out' });
  }, 15_000);

  it('SIGTERM closes open sockets with 1001 and SSE streams, and the process exits 0', async () => {
    const other = await startExample({}, MAIN);
    const socket = new WebSocket(`${other.url.replace(/^http/, 'ws')}/v1/chat`, ['chat.v1']);
    await new Promise((resolve) => socket.once('open', resolve));
    socket.send(JSON.stringify({ type: 'auth', token: TOKEN }));
    const stream = lib.createClient({ baseUrl: other.url }).tasks({ reconnect: false });
    const opened = new Promise<void>((resolve) => {
      const poll = setInterval(() => {
        if (stream.readyState === lib.OPEN) {
          clearInterval(poll);
          resolve();
        }
      }, 10);
    });
    const reading = (async () => {
      for await (const _ of stream) {
        // The stream ends when the server closes it.
      }
    })();
    await opened;
    const closed = closeOf(socket);
    const { code } = await other.stop();
    expect(await closed).toEqual({ code: 1001, reason: 'Server shutting down' });
    await reading;
    expect(stream.readyState).toBe(lib.CLOSED);
    expect(code).toBe(0);
  }, 20_000);
});
