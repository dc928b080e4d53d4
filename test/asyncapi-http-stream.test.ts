/**
 * AsyncAPI as people write it (issue 14, item 4): an HTTP streaming channel (an `https` server, a
 * GET binding; test/fixtures/asyncapi/http-stream.yaml, after Gitter's streaming API) whose
 * messages are an object, a string ("\r\n" heartbeat), an array and a number. It generates a server
 * that writes newline-delimited JSON and a client that reads it (keep-alive lines skipped), both
 * type-checking under both compilers, and they talk over a real socket; a plain `fetch` reads it too.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { loadAsyncApi } from '../generators/asyncapi/load.js';
import { CodegenError } from '../generators/core/diagnostics.js';
import { ROOT } from './support/cli.js';
import { transpileFolder, writeFiles } from './support/client-generate.js';
import { generateRealtime } from './support/realtime-generate.js';
import { COMPILERS, STRICTEST, typecheck } from './support/typecheck.js';

/** What the test uses of the generated server.ts and client.ts (written at run time, so typed here). */
type RoomsMessage = { id: string; text: string; readBy?: number } | string | string[] | number;
interface ServerModule {
  createRealtimeServer(options?: { stream?: { keepAliveMs?: number } }): {
    listener(request: IncomingMessage, response: ServerResponse): void;
    publish: { rooms(params: { roomId: string; resource: 'chatMessages' | 'events' }, message: RoomsMessage): Promise<void> };
    close(): Promise<void>;
  };
}
interface ClientModule {
  createClient(options: { baseUrl: string }): {
    rooms(params: { roomId: string; resource: 'chatMessages' | 'events' }): AsyncIterable<RoomsMessage>;
  };
  HttpStreamError: new (...args: never[]) => Error & { kind: string };
  isClientError(error: unknown): boolean;
}

const FIXTURE = join(ROOT, 'test', 'fixtures', 'asyncapi', 'http-stream.yaml');
const TMP = join(ROOT, '.vitest-tmp', 'asyncapi-http-stream');

describe('an HTTP streaming channel (http-stream.yaml)', async () => {
  const model = await loadAsyncApi(FIXTURE, { displayRoot: ROOT });

  it('is an http-stream channel whose messages keep their own types', () => {
    expect(model.channels.map((channel) => `${channel.key} ${channel.transport} ${channel.address}`)).toEqual([
      'rooms http-stream /rooms/{roomId}/{resource}',
    ]);
  });
});

describe('the generated server and client of http-stream.yaml', async () => {
  const folder = join(TMP, 'types');
  const { files } = await generateRealtime(FIXTURE);
  writeFiles(folder, files);

  it('types the messages as one union of what they are, not of objects', () => {
    const types = files.find((file) => file.path === 'types.ts')!.content;
    expect(types).toContain('/** Messages the server sends on `rooms` (HTTP stream /rooms/{roomId}/{resource}), by message name. */');
    expect(types).toContain(
      'export type RoomsServerMessage =\n  | ChatMessagePayload\n  | HeartbeatPayload\n  | MentionsPayload\n  | UnreadPayload;',
    );
    expect(types).toContain('export type MentionsPayload = string[];');
    expect(types).toContain('export type UnreadPayload = number;');
    expect(types).toMatch(/export type HeartbeatPayload = "\\r\\n";/);
  });

  it('type-check strict + STRICTEST under TypeScript 5.9 and 7 (server for Node, client for browsers and Node)', () => {
    for (const [compiler, path] of Object.entries(COMPILERS)) {
      expect(typecheck(folder, path, 'node', ['server.ts'], STRICTEST).output, `${compiler} server`).toBe('');
      expect(typecheck(folder, path, 'browser', ['client.ts'], STRICTEST).output, `${compiler} client`).toBe('');
      expect(typecheck(folder, path, 'node', ['client.ts'], STRICTEST).output, `${compiler} client for Node`).toBe('');
    }
  }, 120_000);
});

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Reads a streamed body until `count` non-blank lines came, then cancels it. */
async function lines(response: Response, count: number): Promise<string[]> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = '';
  while (text.split('\n').filter((line) => line.trim() !== '').length < count) {
    const chunk = await reader.read();
    if (chunk.done) break;
    text += chunk.value;
  }
  await reader.cancel();
  return text.split('\n').filter((line) => line.trim() !== '');
}

describe('the generated HTTP stream server and client on a real socket', async () => {
  const folder = join(TMP, 'run');
  const { files } = await generateRealtime(FIXTURE);
  writeFiles(folder, files);
  transpileFolder(folder);
  const serverModule = (await import(pathToFileURL(join(folder, 'server.js')).href)) as ServerModule;
  const clientModule = (await import(pathToFileURL(join(folder, 'client.js')).href)) as ClientModule;
  // Keep-alive lines every 30 ms, so the readers below meet them between messages.
  const realtime = serverModule.createRealtimeServer({ stream: { keepAliveMs: 30 } });
  const http = createServer((request, response) => realtime.listener(request, response));
  const base = await listen(http);
  afterAll(async () => {
    await realtime.close();
    await new Promise((resolve) => http.close(resolve));
  });
  const room = { roomId: 'r1', resource: 'chatMessages' } as const;

  /** Publishes until `done` settles: the stream may open after the first publish. */
  async function keepPublishing(done: Promise<unknown>): Promise<void> {
    let settled = false;
    void done.finally(() => (settled = true)).catch(() => {});
    while (!settled) {
      await realtime.publish.rooms(room, { id: '1', text: 'hello', readBy: 2 });
      await realtime.publish.rooms(room, '\r\n');
      await realtime.publish.rooms(room, ['ann', 'bob']);
      await realtime.publish.rooms(room, 3);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  it('writes each message, object, string, array or number, as one JSON line that a plain fetch reads', async () => {
    const response = await fetch(`${base}/v1/rooms/r1/chatMessages`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8');
    const read = lines(response, 4);
    await keepPublishing(read);
    const got = await read;
    expect(got.slice(0, 4).map((line) => JSON.parse(line) as unknown)).toEqual([
      { id: '1', text: 'hello', readBy: 2 },
      '\r\n',
      ['ann', 'bob'],
      3,
    ]);
  });

  it('refuses an invalid message with a TypeError, and answers other paths 404 and other methods 405', async () => {
    await expect(realtime.publish.rooms(room, -1)).rejects.toThrow(TypeError);
    await expect(realtime.publish.rooms(room, { text: 'no id' } as never)).rejects.toThrow(
      /Invalid message for \/v1\/rooms\/r1\/chatMessages/,
    );
    expect((await fetch(`${base}/v1/rooms/r1/other`)).status).toBe(404);
    expect((await fetch(`${base}/v1/rooms/r1/events`, { method: 'POST' })).status).toBe(405);
  });

  it('sends a \\r\\n keep-alive line on an idle stream', async () => {
    const response = await fetch(`${base}/v1/rooms/r2/events`);
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    while (!text.includes('\r\n\r\n')) text += (await reader.read()).value ?? '';
    await reader.cancel();
    expect(text.replace(/\r\n/g, '')).toBe('');
  });

  it('the generated client reads the typed messages of the generated server, past its keep-alive lines', async () => {
    const client = clientModule.createClient({ baseUrl: base });
    const stream = client.rooms(room);
    const received: unknown[] = [];
    const read = (async () => {
      for await (const message of stream) {
        // Typed as the union: an object, the heartbeat string, an array or a number.
        if (typeof message === 'object' && !Array.isArray(message)) received.push(message.text);
        else received.push(message);
        if (received.length === 4) break;
      }
    })();
    await keepPublishing(read);
    expect(received).toEqual(['hello', '\r\n', ['ann', 'bob'], 3]);
  });

  it('the generated client skips keep-alive lines, and ends with an HttpStreamError on an invalid line', async () => {
    const foreign = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/x-ndjson' });
      response.write('{"id":"7","text":"a"}\n\r\n\r\n');
      response.write('5\n   \n["x"]\n');
      response.end('"not a heartbeat"\n');
    });
    const url = await listen(foreign);
    try {
      const stream = clientModule.createClient({ baseUrl: url }).rooms(room);
      const received: unknown[] = [];
      const error = await (async () => {
        for await (const message of stream) received.push(message);
      })().then(
        () => undefined,
        (cause: unknown) => cause,
      );
      expect(received).toEqual([{ id: '7', text: 'a' }, 5, ['x']]);
      expect(error).toBeInstanceOf(clientModule.HttpStreamError);
      expect((error as InstanceType<ClientModule['HttpStreamError']>).kind).toBe('invalid-response');
      expect(clientModule.isClientError(error)).toBe(true);
    } finally {
      await new Promise((resolve) => foreign.close(resolve));
    }
  });
});

describe('an HTTP stream that receives (http-stream-receive.yaml, the GET binding on an operation)', () => {
  it('is refused at the operation: a GET only sends', async () => {
    const error = await loadAsyncApi(join(ROOT, 'test', 'fixtures', 'asyncapi', 'http-stream-receive.yaml'), { displayRoot: ROOT }).then(
      () => undefined,
      (cause: unknown) => cause,
    );
    expect(error).toBeInstanceOf(CodegenError);
    expect((error as CodegenError).message).toBe(
      'test/fixtures/asyncapi/http-stream-receive.yaml:26:3: error: operation "askFeed": HTTP stream channel "feed" has no replies\n' +
        '  hint: an HTTP stream (a GET binding) only sends; use a ws/wss channel for requests and replies',
    );
  });
});
