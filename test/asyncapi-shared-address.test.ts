/**
 * AsyncAPI as people write it (issue 14, item 3): channels that share an address on a server are one
 * WebSocket connection. The Kraken example of ../shared/corpus/asyncapi, rewritten with one channel
 * per message kind at `address: /` (test/fixtures/asyncapi/kraken-channels.yaml), lowers to one
 * channel whose discriminator spans every kind, type-checks under both compilers, and its generated
 * server answers a plain `ws` client and the generated client over a real socket.
 */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { loadAsyncApi } from '../generators/asyncapi/load.js';
import { CodegenError } from '../generators/core/diagnostics.js';
import { ROOT } from './support/cli.js';
import { transpileFolder, writeFiles } from './support/client-generate.js';
import { generateRealtime } from './support/realtime-generate.js';
import { COMPILERS, STRICTEST, typecheck } from './support/typecheck.js';

/** What the test uses of the generated server.ts and client.ts (written at run time, so typed here). */
type Message = Record<string, unknown> & { subscription?: { name?: string }; pair?: string[] };
interface ServerModule {
  createRealtimeServer(handlers: { socket: Record<'subscribe' | 'unsubscribe', (message: Message) => Message> }): {
    attach(server: Server): () => void;
    publish: { socket(message: Message): Promise<void> };
    close(): Promise<void>;
  };
}
interface ClientModule {
  createClient(options: { baseUrl: string; WebSocket: unknown }): {
    socket(): {
      request(message: Message): Promise<Message>;
      on(type: string, handler: (message: Message) => void): () => void;
      close(): void;
    };
  };
}

const FIXTURE = join(ROOT, 'test', 'fixtures', 'asyncapi', 'kraken-channels.yaml');
const TMP = join(ROOT, '.vitest-tmp', 'asyncapi-shared-address');

describe('channels at one address (kraken-channels.yaml)', async () => {
  const model = await loadAsyncApi(FIXTURE, { displayRoot: ROOT });

  it('are one channel, named after the address (socket for /), with every message kind and the replies across channels', () => {
    expect(model.channels.map((channel) => `${channel.key} ${channel.address} ${channel.transport}`)).toEqual(['socket / websocket']);
    const [connection] = model.channels;
    expect(connection?.discriminator).toBe('event');
    const tags = (action: 'send' | 'receive') =>
      connection?.messages.filter((message) => message.actions.includes(action)).map((message) => message.tag);
    expect(tags('receive')).toEqual(['ping', 'subscribe', 'unsubscribe']);
    expect(tags('send')).toEqual(['pong', 'heartbeat', 'systemStatus', 'subscriptionStatus', 'currencyInfo']);
    expect(connection?.operations.map((operation) => [operation.name, operation.messages, operation.reply?.messages])).toEqual([
      ['receivePing', ['ping'], ['pong']],
      ['sendHeartbeat', ['heartbeat'], undefined],
      ['systemStatus', ['systemStatus'], undefined],
      ['receiveSubscribeRequest', ['subscribe'], ['subscriptionStatus']],
      ['receiveUnsubscribeRequest', ['unsubscribe'], ['subscriptionStatus']],
      ['sendCurrencyInfo', ['currencyInfo'], undefined],
    ]);
    expect(connection?.types).toEqual({
      send: { union: 'SocketServerMessage', map: 'SocketServerMessages' },
      receive: { union: 'SocketClientMessage', map: 'SocketClientMessages' },
    });
  });
});

describe('the generated server and client of kraken-channels.yaml', async () => {
  const folder = join(TMP, 'kraken');
  const { files } = await generateRealtime(FIXTURE);
  writeFiles(folder, files);

  it('type-check strict + STRICTEST under TypeScript 5.9 and 7 (server for Node, client for browsers)', () => {
    for (const [compiler, path] of Object.entries(COMPILERS)) {
      expect(typecheck(folder, path, 'node', ['server.ts'], STRICTEST).output, `${compiler} server`).toBe('');
      expect(typecheck(folder, path, 'browser', ['client.ts'], STRICTEST).output, `${compiler} client`).toBe('');
    }
  }, 120_000);
});

describe('the generated server of kraken-channels.yaml on a real socket', async () => {
  const folder = join(TMP, 'kraken-run');
  const { files } = await generateRealtime(FIXTURE);
  writeFiles(folder, files);
  transpileFolder(folder);
  const serverModule = (await import(pathToFileURL(join(folder, 'server.js')).href)) as ServerModule;
  const clientModule = (await import(pathToFileURL(join(folder, 'client.js')).href)) as ClientModule;

  const subscriptions: unknown[] = [];
  const realtime = serverModule.createRealtimeServer({
    socket: {
      subscribe: (message) => {
        subscriptions.push(message);
        return {
          event: 'subscriptionStatus',
          status: 'online',
          channelID: 7,
          channelName: `${message.subscription?.name}-5`,
          pair: message.pair ?? [],
        };
      },
      unsubscribe: (message) => ({
        event: 'subscriptionStatus',
        status: 'online',
        errorMessage: `not subscribed to ${message.subscription?.name}`,
      }),
    },
  });
  const http = createServer((_request, response) => response.writeHead(404).end());
  realtime.attach(http);
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const port = (http.address() as AddressInfo).port;
  afterAll(async () => {
    await realtime.close();
    await new Promise((resolve) => http.close(resolve));
  });

  /** A plain `ws` socket that records what the server sends. */
  async function plainSocket(): Promise<{ socket: WebSocket; next: () => Promise<Record<string, unknown>> }> {
    const socket = new WebSocket(`ws://127.0.0.1:${port}/`);
    const received: Record<string, unknown>[] = [];
    const waiting: ((message: Record<string, unknown>) => void)[] = [];
    socket.on('message', (data) => {
      const message = JSON.parse(String(data)) as Record<string, unknown>;
      const waiter = waiting.shift();
      if (waiter) waiter(message);
      else received.push(message);
    });
    await once(socket, 'open');
    return { socket, next: () => new Promise((resolve) => (received.length ? resolve(received.shift()!) : waiting.push(resolve))) };
  }

  it('answers a plain ws client: each kind the channels receive, replies from the reply channels, broadcasts of the send channels', async () => {
    const { socket, next } = await plainSocket();
    socket.send(JSON.stringify({ event: 'ping', reqid: 1 }));
    expect(await next()).toEqual({ event: 'pong', reqid: 1 });
    socket.send(JSON.stringify({ event: 'subscribe', reqid: 2, pair: ['XBT/EUR'], subscription: { name: 'ohlc', interval: 5 } }));
    expect(await next()).toEqual({
      event: 'subscriptionStatus',
      status: 'online',
      channelID: 7,
      channelName: 'ohlc-5',
      pair: ['XBT/EUR'],
      reqid: 2,
    });
    socket.send(JSON.stringify({ event: 'unsubscribe', reqid: 3, subscription: { name: 'book' } }));
    expect(await next()).toEqual({ event: 'subscriptionStatus', status: 'online', errorMessage: 'not subscribed to book', reqid: 3 });
    await realtime.publish.socket({ event: 'heartbeat' });
    expect(await next()).toEqual({ event: 'heartbeat' });
    await realtime.publish.socket({ event: 'systemStatus', connectionID: 1, status: 'online', version: '1.8.0' });
    expect(await next()).toEqual({ event: 'systemStatus', connectionID: 1, status: 'online', version: '1.8.0' });
    await realtime.publish.socket({ event: 'currencyInfo', data: { XBT: 1 } });
    expect(await next()).toEqual({ event: 'currencyInfo', data: { XBT: 1 } });
    expect(subscriptions).toHaveLength(1);
    // A kind the server only sends is not one the connection receives: refused with 1008.
    socket.send(JSON.stringify({ event: 'heartbeat' }));
    const [code] = (await once(socket, 'close')) as [number];
    expect(code).toBe(1008);
  });

  it('interoperates with the generated client: typed requests and replies, and messages by kind', async () => {
    const client = clientModule.createClient({ baseUrl: `http://127.0.0.1:${port}`, WebSocket: WebSocket as never });
    const socket = client.socket();
    try {
      const status = await socket.request({ event: 'subscribe', pair: ['XBT/USD'], subscription: { name: 'ticker' } });
      expect(status).toMatchObject({ event: 'subscriptionStatus', channelID: 7, channelName: 'ticker-5', pair: ['XBT/USD'] });
      const unsubscribed = await socket.request({ event: 'unsubscribe', subscription: { name: 'ticker' } });
      expect(unsubscribed).toMatchObject({ event: 'subscriptionStatus', errorMessage: 'not subscribed to ticker' });
      const heartbeat = new Promise((resolve) => socket.on('heartbeat', resolve));
      await realtime.publish.socket({ event: 'heartbeat' });
      expect(await heartbeat).toEqual({ event: 'heartbeat' });
    } finally {
      socket.close();
    }
  });
});

describe('a reply on a channel of another address', () => {
  it('is refused at the reply channel, naming the address the reply must share', async () => {
    const error = await loadAsyncApi(join(ROOT, 'test', 'fixtures', 'asyncapi', 'reply-other-address.yaml'), { displayRoot: ROOT }).then(
      () => undefined,
      (cause: unknown) => cause,
    );
    expect(error).toBeInstanceOf(CodegenError);
    expect((error as CodegenError).message).toBe(
      'test/fixtures/asyncapi/reply-other-address.yaml:29:9: error: the reply travels on channel "pong", not on the connection of the operation\'s channel "ping"; codegen answers on the same connection\n' +
        '  hint: reply on a channel with the same address and servers as "ping" (/ping), or leave channel out',
    );
  });
});

describe('channels at one address with different WebSocket settings (connection-settings.yaml)', () => {
  it("are refused at the second one: the connection has the first channel's settings", async () => {
    const error = await loadAsyncApi(join(ROOT, 'test', 'fixtures', 'asyncapi', 'connection-settings.yaml'), { displayRoot: ROOT }).then(
      () => undefined,
      (cause: unknown) => cause,
    );
    expect(error).toBeInstanceOf(CodegenError);
    expect((error as CodegenError).message).toBe(
      'test/fixtures/asyncapi/connection-settings.yaml:18:5: error: "x-heartbeat" of channel "pong" differs from channel "ping"\'s, and both are the one connection at /\n' +
        '  hint: write "x-heartbeat" on "ping", the first channel at that address, and remove it here',
    );
  });
});
