/**
 * Non-object payloads (issue 14, item 4): strings, numbers and arrays are legal payloads on every
 * transport — typed, validated, never forced into `object`. test/fixtures/asyncapi/scalar-payloads.yaml
 * has a WebSocket channel and an SSE feed whose messages are such values; their server and client
 * type-check under both compilers and exchange them over real sockets.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { ROOT } from './support/cli.js';
import { transpileFolder, writeFiles } from './support/client-generate.js';
import { generateRealtime } from './support/realtime-generate.js';
import { COMPILERS, STRICTEST, typecheck } from './support/typecheck.js';

/** What the test uses of the generated server.ts and client.ts (written at run time, so typed here). */
type Tick = number | string | number[];
interface ServerModule {
  createRealtimeServer(handlers: { ticks: { command(message: 'pause' | 'resume'): void } }): {
    listener(request: IncomingMessage, response: ServerResponse): void;
    attach(server: Server): () => void;
    publish: { ticks(message: Tick): Promise<void>; prices(event: string, data: unknown): Promise<string> };
    close(): Promise<void>;
  };
}
interface ClientModule {
  createClient(options: { baseUrl: string; WebSocket: unknown }): {
    ticks(): { onMessage(handler: (message: Tick) => void): () => void; send(message: string): void; close(): void };
    prices(): AsyncIterable<{ event: string; data: unknown }> & { close(): void };
  };
}

const FIXTURE = join(ROOT, 'test', 'fixtures', 'asyncapi', 'scalar-payloads.yaml');
const TMP = join(ROOT, '.vitest-tmp', 'asyncapi-scalar-payloads');

describe('the generated server and client of scalar-payloads.yaml', async () => {
  const folder = join(TMP, 'types');
  const { files } = await generateRealtime(FIXTURE);
  writeFiles(folder, files);

  it('type-check strict + STRICTEST under TypeScript 5.9 and 7', () => {
    for (const [compiler, path] of Object.entries(COMPILERS)) {
      expect(typecheck(folder, path, 'node', ['server.ts'], STRICTEST).output, `${compiler} server`).toBe('');
      expect(typecheck(folder, path, 'browser', ['client.ts'], STRICTEST).output, `${compiler} client`).toBe('');
    }
  }, 120_000);
});

describe('scalar payloads on real sockets', async () => {
  const folder = join(TMP, 'run');
  const { files } = await generateRealtime(FIXTURE);
  writeFiles(folder, files);
  transpileFolder(folder);
  const serverModule = (await import(pathToFileURL(join(folder, 'server.js')).href)) as ServerModule;
  const clientModule = (await import(pathToFileURL(join(folder, 'client.js')).href)) as ClientModule;
  const commands: string[] = [];
  const realtime = serverModule.createRealtimeServer({ ticks: { command: (message) => void commands.push(message) } });
  const http = createServer((request, response) => realtime.listener(request, response));
  realtime.attach(http);
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  afterAll(async () => {
    await realtime.close();
    await new Promise((resolve) => http.close(resolve));
  });

  /** Calls `step` every 20 ms until `done` settles: a stream or socket may open after the first call. */
  async function repeat(done: Promise<unknown>, step: () => Promise<unknown>): Promise<void> {
    let settled = false;
    void done.finally(() => (settled = true)).catch(() => {});
    while (!settled) {
      await step();
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  async function until(condition: () => boolean): Promise<void> {
    while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
  }

  it('WebSocket: a plain ws client gets numbers, strings and arrays, and sends a string the server validates', async () => {
    const socket = new WebSocket(`${base.replace('http', 'ws')}/ticks`);
    await once(socket, 'open');
    const received: unknown[] = [];
    const three = new Promise<void>((resolve) =>
      socket.on('message', (data) => received.push(JSON.parse(String(data))) === 3 && resolve()),
    );
    await realtime.publish.ticks(3.5);
    await realtime.publish.ticks('market open');
    await realtime.publish.ticks([1, 2]);
    await three;
    expect(received).toEqual([3.5, 'market open', [1, 2]]);
    socket.send(JSON.stringify('pause'));
    await until(() => commands.length > 0);
    expect(commands).toEqual(['pause']);
    // A string outside the enum is not a valid message: 1008.
    socket.send(JSON.stringify('stop'));
    const [code] = (await once(socket, 'close')) as [number];
    expect(code).toBe(1008);
  });

  it('WebSocket: the generated client receives them typed and sends a command', async () => {
    const ticks = clientModule.createClient({ baseUrl: base, WebSocket }).ticks();
    try {
      const received: Tick[] = [];
      let first: () => void = () => {};
      const opened = new Promise<void>((resolve) => (first = resolve));
      const last = new Promise<void>((resolve) =>
        ticks.onMessage((message) => {
          first();
          received.push(message);
          // [4] is published last.
          if (Array.isArray(message)) resolve();
        }),
      );
      // The socket opens asynchronously: 7 until it hears one.
      await repeat(opened, () => realtime.publish.ticks(7));
      await realtime.publish.ticks('hi');
      await realtime.publish.ticks([4]);
      await last;
      expect(received.slice(-2)).toEqual(['hi', [4]]);
      expect(received.every((message) => message === 7 || message === 'hi' || Array.isArray(message))).toBe(true);
      ticks.send('resume');
      await until(() => commands.includes('resume'));
    } finally {
      ticks.close();
    }
  });

  it('SSE: the generated client reads events whose data are a number, a string and an array', async () => {
    const stream = clientModule.createClient({ baseUrl: base, WebSocket }).prices();
    const events: { event: string; data: unknown }[] = [];
    const read = (async () => {
      for await (const event of stream) {
        events.push({ event: event.event, data: event.data });
        if (events.length >= 3) break;
      }
    })();
    await repeat(read, async () => {
      await realtime.publish.prices('price', 12.5);
      await realtime.publish.prices('status', 'open');
      await realtime.publish.prices('symbols', ['XBT']);
    });
    expect(events.slice(0, 3)).toEqual([
      { event: 'price', data: 12.5 },
      { event: 'status', data: 'open' },
      { event: 'symbols', data: ['XBT'] },
    ]);
    await expect(realtime.publish.prices('price', -1)).rejects.toThrow();
  });
});
