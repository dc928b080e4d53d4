/**
 * The WebSocket runtime with headless Chromium: the browser's own `WebSocket` against the server
 * runtime (subprotocol, typed dispatch, reply correlation, application ping, 1009, 1003, 1008,
 * first-message auth timeout, Origin 403, shutdown 1001, protocol pings answered by the browser),
 * and the client runtime running in the page on the built-in `WebSocket` (request/reply,
 * re-auth after the server drops it, a silent server detected by its application-level ping).
 */
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { WebSocketServer } from 'ws';
import { createWebSocketEndpoint } from '../runtime/ws-server.js';
import { transpileFolder } from './support/client-generate.js';
import { launchChromium, servePage, type Browser, type PageServer } from './support/ws-browser.js';
import { loadChat, writeWsRuntime, wsTempFolder, type Connection, type Endpoint, type Message } from './support/ws-runtime.js';
import { chatHandlers } from './support/ws-server-setup.js';

/** The client runtime and the chat channel as JavaScript, which the pages load from the server's origin. */
let pageFolder: string;
let browser: Browser;
let site: PageServer;
let shutdown: Endpoint;
const opened: Record<'rooms' | 'secure' | 'shutdown', Connection[]> = { rooms: [], secure: [], shutdown: [] };
const tokens: string[] = [];

/** What the page keeps of each socket it opened with the built-in WebSocket. */
interface Probe {
  protocol: string;
  opened: boolean;
  messages: Message[];
  close: { code: number; reason: string } | null;
}

/** In-page helpers on `window`, installed as a classic script so no bundler touches them. */
const PROBE_SCRIPT = `
window.probes = [];
window.openProbe = (url, protocols) => new Promise((resolve) => {
  const socket = new WebSocket(url, protocols);
  const probe = { socket, protocol: '', opened: false, messages: [], close: null };
  const id = window.probes.push(probe) - 1;
  socket.onopen = () => { probe.opened = true; probe.protocol = socket.protocol; resolve(id); };
  socket.onmessage = (event) => probe.messages.push(JSON.parse(event.data));
  socket.onclose = (event) => { probe.close = { code: event.code, reason: event.reason }; resolve(id); };
});
window.probeState = (id) => {
  const { protocol, opened, messages, close } = window.probes[id];
  return { protocol, opened, messages, close };
};
`;

/** The client runtime as a page imports it: an ES module from the server's own origin. */
const CLIENT_SCRIPT = `
import { WebSocketClient } from '/runtime/ws-client.js';
import { validateChatServerMessage } from '/chat.js';
window.runClient = (options) => {
  const record = { states: [], closes: [], said: [], errors: [] };
  let issued = 0;
  const client = new WebSocketClient({
    ...options,
    token: options.token ? async () => options.token + '-' + (++issued) : undefined,
    validate: validateChatServerMessage,
    onStateChange: (state) => record.states.push(state),
    onClose: (code, reason) => record.closes.push([code, reason]),
    onError: (error) => record.errors.push(String(error)),
  });
  client.on('said', (message) => record.said.push(message.text));
  window.clients = window.clients || [];
  window.clients.push({ client, record });
  return window.clients.length - 1;
};
window.clientState = (id) => ({ ...window.clients[id].record, readyState: window.clients[id].client.readyState });
window.clientRequest = (id, message) => window.clients[id].client.request(message);
window.clientSend = (id, message) => window.clients[id].client.send(message);
window.clientsReady = true;
`;

type PageWindow = {
  openProbe(url: string, protocols?: string[]): Promise<number>;
  probeState(id: number): Probe;
  probes: Array<{ socket: WebSocket }>;
  runClient(options: Record<string, unknown>): number;
  clientState(id: number): { states: number[]; closes: Array<[number, string]>; said: string[]; errors: string[]; readyState: number };
  clientRequest(id: number, message: Message): Promise<Message>;
  clientSend(id: number, message: Message): void;
};

const page = () => browser.page;

function openProbe(url: string, protocols: string[] = []): Promise<number> {
  return page().evaluate(([target, offered]) => (window as unknown as PageWindow).openProbe(target, offered), [url, protocols] as const);
}

function probe(id: number): Promise<Probe> {
  return page().evaluate((index) => (window as unknown as PageWindow).probeState(index), id);
}

function probeSend(id: number, data: string, binary = false): Promise<void> {
  return page().evaluate(
    ([index, text, asBinary]) => {
      const socket = (window as unknown as PageWindow).probes[index]!.socket;
      socket.send(asBinary ? new TextEncoder().encode(text) : text);
    },
    [id, data, binary] as const,
  );
}

beforeAll(async () => {
  const chat = await loadChat();
  pageFolder = wsTempFolder('ws-browser-');
  writeWsRuntime(pageFolder);
  transpileFolder(pageFolder);
  const endpoints: Endpoint[] = [];
  const current = (index: number) => () => endpoints[index]!;
  endpoints.push(
    createWebSocketEndpoint({
      path: '/rooms/{room}',
      validate: chat.validateChatClientMessage,
      handlers: chatHandlers(current(0), []),
      protocols: ['chat.v2', 'chat.v1'],
      maxPayload: 1024,
      heartbeatMs: 50,
      onOpen: (connection) => opened.rooms.push(connection),
    }),
    createWebSocketEndpoint({
      path: '/secure/{room}',
      validate: chat.validateChatClientMessage,
      handlers: chatHandlers(current(1), []),
      firstMessageAuth: {
        timeoutMs: 150,
        verify: (token) => {
          tokens.push(token);
          return token.startsWith('good') ? { token } : undefined;
        },
      },
      onOpen: (connection) => opened.secure.push(connection),
    }),
    (shutdown = createWebSocketEndpoint({
      path: '/shutdown/{room}',
      validate: chat.validateChatClientMessage,
      handlers: chatHandlers(current(2), []),
      onOpen: (connection) => opened.shutdown.push(connection),
    })),
  );
  site = await servePage(pageFolder, endpoints);
  browser = await launchChromium();
  await page().goto(`${site.httpUrl}/`);
  await page().addScriptTag({ content: PROBE_SCRIPT });
  await page().addScriptTag({ type: 'module', content: CLIENT_SCRIPT });
  await page().waitForFunction(() => (window as unknown as { clientsReady?: boolean }).clientsReady === true);
});

afterAll(async () => {
  await browser?.close();
  await site?.stop();
});

describe("Chromium's built-in WebSocket against the server", () => {
  test('agrees on the subprotocol; typed dispatch, reply correlation and the application ping work', async () => {
    const id = await openProbe(`${site.url}/rooms/a`, ['chat.v1']);
    expect(await probe(id)).toMatchObject({ opened: true, protocol: 'chat.v1' });
    await probeSend(id, JSON.stringify({ type: 'say', text: 'from chromium' }));
    await probeSend(id, JSON.stringify({ type: 'history', id: 'h1', room: 'a' }));
    await probeSend(id, JSON.stringify({ type: 'ping' }));
    await probeSend(id, JSON.stringify({ type: 'ping', id: 'p1' }));
    // The history reply comes from an async handler while the runtime answers pings at once: when
    // the frames arrive in one read a pong may overtake it, so the replies are compared as a set.
    await expect.poll(async () => (await probe(id)).messages.length).toBe(4);
    const { messages } = await probe(id);
    expect(messages).toHaveLength(4);
    expect(messages).toEqual(
      expect.arrayContaining([
        { type: 'said', room: 'a', text: 'from chromium' },
        { type: 'historyResult', id: 'h1', texts: ['history of a'] },
        { type: 'pong' },
        { type: 'pong', id: 'p1' },
      ]),
    );
  });

  test('answers protocol pings by itself: the heartbeat keeps a browser socket', async () => {
    const id = await openProbe(`${site.url}/rooms/b`, ['chat.v1']);
    // The endpoint pings every 50 ms and drops a socket that missed one; wait out several.
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect((await probe(id)).close).toBeNull();
    await probeSend(id, JSON.stringify({ type: 'ping' }));
    await expect.poll(async () => (await probe(id)).messages).toEqual([{ type: 'pong' }]);
  });

  test('an oversized message → 1009; a binary frame → 1003; an invalid message → 1008', async () => {
    const big = await openProbe(`${site.url}/rooms/a`, ['chat.v1']);
    await probeSend(big, JSON.stringify({ type: 'say', text: 'x'.repeat(2000) }));
    await expect.poll(async () => (await probe(big)).close?.code).toBe(1009);
    const binary = await openProbe(`${site.url}/rooms/a`, ['chat.v1']);
    await probeSend(binary, JSON.stringify({ type: 'say', text: 'hi' }), true);
    await expect.poll(async () => (await probe(binary)).close).toEqual({ code: 1003, reason: 'Binary messages are not accepted' });
    const invalid = await openProbe(`${site.url}/rooms/a`, ['chat.v1']);
    await probeSend(invalid, JSON.stringify({ type: 'say' }));
    await expect
      .poll(async () => (await probe(invalid)).close)
      .toEqual({ code: 1008, reason: 'Invalid message: / must have property text' });
  });

  test('no first message within the time limit → 1008', async () => {
    const id = await openProbe(`${site.url}/secure/a`);
    expect((await probe(id)).opened).toBe(true);
    await expect.poll(async () => (await probe(id)).close).toEqual({ code: 1008, reason: 'Authentication timed out' });
  });

  test('a page of another origin is refused with 403 in the handshake (the page sees 1006)', async () => {
    const other = await servePage(pageFolder, []);
    const foreign = await browser.context.newPage();
    try {
      const before = opened.rooms.length;
      // `localhost` is another origin than `127.0.0.1`, on another port as well.
      await foreign.goto(`${other.httpUrl.replace('127.0.0.1', 'localhost')}/`);
      await foreign.addScriptTag({ content: PROBE_SCRIPT });
      const id = await foreign.evaluate((url) => (window as unknown as PageWindow).openProbe(url, ['chat.v1']), `${site.url}/rooms/a`);
      const state = await foreign.evaluate((index) => (window as unknown as PageWindow).probeState(index), id);
      expect(state).toMatchObject({ opened: false, close: { code: 1006 } });
      expect(site.refusals).toContain('HTTP/1.1 403 Forbidden');
      expect(opened.rooms.length).toBe(before);
    } finally {
      await foreign.close();
      await other.stop();
    }
  });

  test('a subprotocol the server does not speak is refused (400; the page sees 1006)', async () => {
    const id = await openProbe(`${site.url}/rooms/a`, ['mqtt']);
    expect(await probe(id)).toMatchObject({ opened: false, close: { code: 1006 } });
    expect(site.refusals).toContain('HTTP/1.1 400 Bad Request');
  });

  test('server shutdown closes the page’s socket with 1001', async () => {
    const id = await openProbe(`${site.url}/shutdown/a`);
    expect((await probe(id)).opened).toBe(true);
    await shutdown.close();
    await expect.poll(async () => (await probe(id)).close).toEqual({ code: 1001, reason: 'Server shutting down' });
  });
});

describe('the client runtime in Chromium (built-in WebSocket)', () => {
  const run = (options: Record<string, unknown>) => page().evaluate((given) => (window as unknown as PageWindow).runClient(given), options);
  const state = (id: number) => page().evaluate((index) => (window as unknown as PageWindow).clientState(index), id);

  test('first-message auth, request/reply, typed on; re-auth after the server drops it', async () => {
    const id = await run({ url: `${site.url}/secure/a`, token: 'good', pingIntervalMs: 50, reconnect: { baseDelay: 10, maxDelay: 20 } });
    await expect.poll(async () => (await state(id)).readyState).toBe(1);
    const reply = await page().evaluate(
      (index) => (window as unknown as PageWindow).clientRequest(index, { type: 'history', room: 'a' }),
      id,
    );
    expect(reply).toMatchObject({ type: 'historyResult', texts: ['history of a'] });
    const pong = await page().evaluate((index) => (window as unknown as PageWindow).clientRequest(index, { type: 'ping' }), id);
    expect(pong).toEqual({ type: 'pong', id: expect.stringMatching(/^c[0-9a-z]+-\d+$/) });
    await page().evaluate((index) => (window as unknown as PageWindow).clientSend(index, { type: 'say', text: 'hello' }), id);
    await expect.poll(async () => (await state(id)).said).toEqual(['hello']);
    expect(tokens).toEqual(['good-1']);

    opened.secure.at(-1)!.close(4001, 'kicked');
    await expect.poll(() => opened.secure.length).toBe(2);
    expect(tokens).toEqual(['good-1', 'good-2']);
    await expect.poll(async () => (await state(id)).readyState).toBe(1);
    const after = await state(id);
    expect(after.closes).toEqual([[4001, 'kicked']]);
    expect(after.states).toEqual([1, 0, 1]);
    expect(after.errors).toEqual([]);
  });

  test('a silent server (no pong to the application ping) is given up on', async () => {
    const http = createServer();
    const silent = new WebSocketServer({ server: http });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    try {
      const url = `ws://127.0.0.1:${(http.address() as AddressInfo).port}/`;
      const id = await run({ url, pingIntervalMs: 50, reconnect: false });
      await expect.poll(async () => (await state(id)).closes).toEqual([[1006, 'Server not responding']]);
      expect((await state(id)).readyState).toBe(3);
    } finally {
      for (const socket of silent.clients) socket.terminate();
      silent.close();
      http.close();
    }
  });
});
