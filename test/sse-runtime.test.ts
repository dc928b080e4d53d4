/**
 * The SSE runtime (runtime/sse-*.ts): type-checked under strict with TypeScript 5.9 and 7 as an
 * output holds it, and imported itself to run on 127.0.0.1 against the `eventsource` package (a
 * WHATWG EventSource), raw node:http readers, and the generated client.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from './support/cli.js';
import { anyTypes } from './support/client-generate.js';
import type { RequestListener } from 'node:http';
import { EventSource } from 'eventsource';
import { CLOSED, CONNECTING, OPEN, SseClient, SseConnectionError, SseResponseError } from '../runtime/sse-client.js';
import { formatComment, formatEvent, formatRetry } from '../runtime/sse-format.js';
import { createSseEndpoint, SseHttpError } from '../runtime/sse-server.js';
import { MemoryEventLog } from '../runtime/sse-store.js';
import { copyRuntime } from './support/runtime.js';
import {
  type AnyEvents,
  type AnyValidator,
  type Client,
  type ClientEvent,
  type Endpoint,
  type EndpointOptions,
  SSE_CLIENT_FILES,
  SSE_FILES,
  SSE_SERVER_FILES,
} from './support/sse-runtime.js';
import { chunkServer, countingFetch, dropConnections, listen, type Listening, rawGet, until } from './support/sse-servers.js';
import { CLIENT_USAGE, SERVER_USAGE } from './support/sse-usage.js';
import { COMPILERS, typecheck } from './support/typecheck.js';

mkdirSync(join(ROOT, '.vitest-tmp'), { recursive: true });
const OUT = mkdtempSync(join(ROOT, '.vitest-tmp', 'sse-'));

let sources: Record<string, string>;

beforeAll(() => {
  sources = copyRuntime(OUT, SSE_FILES);
});

afterAll(() => {
  rmSync(OUT, { recursive: true, force: true });
});

describe('the SSE runtime files', () => {
  it('type-check under strict with TypeScript 5.9 and 7: the server for Node, the client for browsers and Node', () => {
    writeFileSync(join(OUT, 'server-usage.ts'), SERVER_USAGE);
    writeFileSync(join(OUT, 'client-usage.ts'), CLIENT_USAGE);
    const server = [...SSE_SERVER_FILES.map((name) => `runtime/${name}.ts`), 'server-usage.ts'];
    const client = [...SSE_CLIENT_FILES.map((name) => `runtime/${name}.ts`), 'client-usage.ts'];
    for (const [label, compiler] of Object.entries(COMPILERS)) {
      for (const [files, environment] of [
        [server, 'node'],
        [client, 'browser'],
        [client, 'node'],
      ] as const) {
        const result = typecheck(OUT, compiler, environment, [...files]);
        expect(result.output, `${label} ${environment}`).toBe('');
        expect(result.ok, `${label} ${environment}`).toBe(true);
      }
    }
  });

  it('use no `any`; the server imports only node: built-ins, the client only eventsource-parser', () => {
    for (const name of SSE_FILES) {
      expect(anyTypes(sources[name]), name).toEqual([]);
      const allowed = name === 'sse-client' ? /^(eventsource-parser|\.\/client-common\.js)$/ : /^(node:|\.\/)/;
      for (const [, from] of sources[name].matchAll(/^import .* from "([^"]+)";$/gm)) expect(from, name).toMatch(allowed);
    }
  });
});

const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** An endpoint served on 127.0.0.1; both are closed after the file's tests. */
async function serve(
  options: EndpointOptions = {},
  wrap?: (handle: RequestListener) => RequestListener,
): Promise<{ endpoint: Endpoint; site: Listening; url: string }> {
  const endpoint = createSseEndpoint(options);
  const site = await listen(wrap ? wrap(endpoint.handle) : endpoint.handle);
  cleanups.push(
    () => site.close(),
    () => endpoint.close(),
  );
  return { endpoint, site, url: `${site.url}/feed` };
}

/** Holds requests while closed, so a test can publish while a client is certainly disconnected. */
function gate(): { wrap: (handle: RequestListener) => RequestListener; close(): void; open(): void; held: () => number } {
  let waiting: (() => void)[] | undefined;
  return {
    wrap: (handle) => (request, response) => {
      if (waiting) waiting.push(() => handle(request, response));
      else handle(request, response);
    },
    close: () => void (waiting = []),
    open: () => {
      const held = waiting ?? [];
      waiting = undefined;
      for (const release of held) release();
    },
    held: () => waiting?.length ?? 0,
  };
}

/** Reads a client to its end, collecting events; the error it ended with, if any. */
async function drain(client: Client, into: ClientEvent[] = []): Promise<{ events: ClientEvent[]; error?: unknown }> {
  try {
    for await (const event of client) into.push(event);
    return { events: into };
  } catch (error) {
    return { events: into, error };
  }
}

const silent = () => {};

describe('formatEvent', () => {
  it('writes id, event and one data line per line of the payload, for CR, LF and CRLF alike', () => {
    expect(formatEvent({ id: '7', event: 'note', data: 'a\nb\r\nc\rd' })).toBe(
      'id: 7\nevent: note\ndata: a\ndata: b\ndata: c\ndata: d\n\n',
    );
    expect(formatEvent({ data: '{"n":1}' })).toBe('data: {"n":1}\n\n');
    expect(formatEvent({ event: 'message', data: '' })).toBe('data: \n\n');
    expect(formatEvent({ data: ' leading space' })).toBe('data:  leading space\n\n');
    expect(formatRetry(2500)).toBe('retry: 2500\n\n');
    expect(formatComment('a\nb')).toBe(': a b\n\n');
  });

  it('refuses an id or event name that would break the framing', () => {
    expect(() => formatEvent({ id: 'a\nb', data: 'x' })).toThrow(TypeError);
    expect(() => formatEvent({ id: 'a\0b', data: 'x' })).toThrow(TypeError);
    expect(() => formatEvent({ event: 'a\rb', data: 'x' })).toThrow(TypeError);
    expect(() => formatRetry(-1)).toThrow(RangeError);
  });
});

describe('MemoryEventLog', () => {
  function fakeClock(): { now: () => number; set(ms: number): void; advance(ms: number): void } {
    let time = 1_700_000_000_000;
    return { now: () => time, set: (ms) => void (time = ms), advance: (ms) => void (time += ms) };
  }

  it('issues increasing <ms>-<seq> ids, even when the clock stands still or steps back', async () => {
    const clock = fakeClock();
    const log = new MemoryEventLog({ now: clock.now });
    const ids = [await log.append('a', { event: 'e', data: '1' }), await log.append('b', { event: 'e', data: '2' })];
    clock.advance(-500);
    ids.push(await log.append('a', { event: 'e', data: '3' }));
    clock.advance(1000);
    ids.push(await log.append('a', { event: 'e', data: '4' }));
    expect(ids).toEqual(['1700000000000-0', '1700000000000-1', '1700000000000-2', '1700000000500-0']);
  });

  it('since: what came after an id; everything retained for an id older than that; nothing for a malformed or newer id', async () => {
    const clock = fakeClock();
    const log = new MemoryEventLog({ now: clock.now, maxEvents: 3 });
    const ids: string[] = [];
    for (let i = 1; i <= 5; i++) {
      ids.push(await log.append('c', { event: 'e', data: String(i) }));
      clock.advance(1);
    }
    const data = async (id: string) => (await log.since('c', id)).map((event) => event.data);
    expect(await data(ids[3]!)).toEqual(['5']);
    expect(await data(ids[2]!)).toEqual(['4', '5']);
    // ids[0] was trimmed (maxEvents 3): resume gives what is retained, oldest first.
    expect(await data(ids[0]!)).toEqual(['3', '4', '5']);
    expect(await data('1-0')).toEqual(['3', '4', '5']);
    expect(await data(ids[4]!)).toEqual([]);
    expect(await data('9999999999999-0')).toEqual([]);
    expect(await data('not-an-id')).toEqual([]);
    expect(await log.since('other', ids[0]!)).toEqual([]);
  });

  it('trims events older than maxAgeMs', async () => {
    const clock = fakeClock();
    const log = new MemoryEventLog({ now: clock.now, maxAgeMs: 1000 });
    await log.append('c', { event: 'e', data: 'old' });
    clock.advance(600);
    await log.append('c', { event: 'e', data: 'new' });
    clock.advance(400);
    expect((await log.since('c', '0-0')).map((event) => event.data)).toEqual(['new']);
  });

  it('delivers appends to subscribers in order until they unsubscribe; a throwing listener does not stop the others', async () => {
    const log = new MemoryEventLog();
    const seen: string[] = [];
    const unsubscribe = await log.subscribe('c', (event) => seen.push(event.data));
    await log.subscribe('c', () => {
      throw new Error('listener failed');
    });
    const other: string[] = [];
    await log.subscribe('d', (event) => other.push(event.data));
    await log.append('c', { event: 'e', data: '1' });
    await log.append('c', { event: 'e', data: '2' });
    unsubscribe();
    await log.append('c', { event: 'e', data: '3' });
    expect(seen).toEqual(['1', '2']);
    expect(other).toEqual([]);
  });

  it('holds at most maxChannels channels, dropping idle ones first', async () => {
    const log = new MemoryEventLog({ maxChannels: 2 });
    await log.subscribe('busy', silent);
    await log.append('idle', { event: 'e', data: '1' });
    await log.append('new', { event: 'e', data: '2' });
    expect(log.size).toBe(2);
    expect(await log.since('idle', '0-0')).toEqual([]);
    expect((await log.since('new', '0-0')).map((event) => event.data)).toEqual(['2']);
  });
});

describe('the SSE server, read by the eventsource package (WHATWG EventSource)', () => {
  it('sends named events, multi-line text data and an id on every event', async () => {
    const { endpoint, url } = await serve({ textEvents: ['note'], logger: silent });
    const source = new EventSource(url);
    cleanups.push(() => source.close());
    const received: { type: string; data: string; lastEventId: string }[] = [];
    for (const type of ['tick', 'note', 'message']) {
      source.addEventListener(type, (event) => received.push({ type, data: event.data, lastEventId: event.lastEventId }));
    }
    await new Promise((resolve) => (source.onopen = resolve));
    const ids = [
      await endpoint.publish('/feed', 'tick', { n: 1 }),
      await endpoint.publish('/feed', 'note', 'line one\nline two\r\nline three\rline four'),
      await endpoint.publish('/feed', 'message', { plain: true }),
    ];
    await until(() => received.length === 3, 'three events');
    expect(received).toEqual([
      { type: 'tick', data: '{"n":1}', lastEventId: ids[0] },
      { type: 'note', data: 'line one\nline two\nline three\nline four', lastEventId: ids[1] },
      { type: 'message', data: '{"plain":true}', lastEventId: ids[2] },
    ]);
    expect(new Set(ids).size).toBe(3);
  });

  it('resumes a dropped connection with Last-Event-ID and loses no event', async () => {
    const hold = gate();
    const { endpoint, site, url } = await serve({ retryMs: 20, logger: silent }, hold.wrap);
    const source = new EventSource(url);
    cleanups.push(() => source.close());
    const received: { n: number; id: string }[] = [];
    source.addEventListener('tick', (event) => received.push({ n: (JSON.parse(event.data) as { n: number }).n, id: event.lastEventId }));
    await new Promise((resolve) => (source.onopen = resolve));
    for (let n = 1; n <= 3; n++) await endpoint.publish('/feed', 'tick', { n });
    await until(() => received.length === 3, 'the first three events');

    hold.close();
    expect(dropConnections(site)).toBe(1);
    await until(() => endpoint.streamCount === 0, 'the server to see the drop');
    // Published while the client is certainly away: only the log can bring these back.
    for (let n = 4; n <= 6; n++) await endpoint.publish('/feed', 'tick', { n });
    await until(() => hold.held() === 1, 'the reconnection (after retry: 20)');
    hold.open();
    await until(() => received.length === 6, 'all six events');
    for (let n = 7; n <= 8; n++) await endpoint.publish('/feed', 'tick', { n });
    await until(() => received.length === 8, 'the live events after the resume');

    expect(received.map((event) => event.n)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(site.requests).toHaveLength(2);
    expect(site.requests[0]!.headers['last-event-id']).toBeUndefined();
    expect(site.requests[1]!.headers['last-event-id']).toBe(received[2]!.id);
  });

  it('authenticates EventSource by ?access_token= and fetch readers by Authorization: Bearer', async () => {
    const tokens: (string | undefined)[] = [];
    const { endpoint, url } = await serve({
      authenticate: (_request, token) => {
        tokens.push(token);
        return token === 'good' || token === 'header' ? { user: token } : undefined;
      },
      channel: ({ principal }) => `user/${(principal as { user: string }).user}`,
      logger: silent,
    });
    const byQuery = new EventSource(`${url}?access_token=good`);
    const byHeader = new EventSource(url, {
      fetch: (input, init) => fetch(input, { ...init, headers: { ...init.headers, authorization: 'Bearer header' } }),
    });
    cleanups.push(
      () => byQuery.close(),
      () => byHeader.close(),
    );
    const got: string[] = [];
    byQuery.onmessage = (event) => got.push(`query:${event.data}`);
    byHeader.onmessage = (event) => got.push(`header:${event.data}`);
    await until(() => endpoint.streamCount === 2, 'both streams');
    await endpoint.publish('user/good', 'message', 'q');
    await endpoint.publish('user/header', 'message', 'h');
    await until(() => got.length === 2, 'one event each');
    expect(got.sort()).toEqual(['header:"h"', 'query:"q"']);
    expect(tokens.sort()).toEqual(['good', 'header']);

    const refused = new EventSource(`${url}?access_token=bad`);
    await new Promise((resolve) => (refused.onerror = resolve));
    expect(refused.readyState).toBe(refused.CLOSED);
  });
});

describe('the SSE server, read raw', () => {
  it('answers with the event-stream headers, then retry, then events; keep-alive comments on an interval', async () => {
    const { endpoint, url } = await serve({ retryMs: 1234, keepAliveMs: 20, logger: silent });
    const reader = await rawGet(url);
    cleanups.push(() => reader.close());
    expect(reader.response.statusCode).toBe(200);
    expect(reader.response.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(reader.response.headers['cache-control']).toBe('no-cache');
    expect(reader.response.headers['x-accel-buffering']).toBe('no');
    expect(reader.response.headers.connection).toBe('keep-alive');
    expect(reader.response.headers['transfer-encoding']).toBe('chunked');
    await until(() => reader.text().includes(': keep-alive\n\n'), 'a keep-alive comment');
    const id = await endpoint.publish('/feed', 'tick', { n: 1 });
    await until(() => reader.events().length === 1, 'the event');
    expect(reader.text().startsWith('retry: 1234\n\n')).toBe(true);
    expect(reader.text()).toContain(`id: ${id}\nevent: tick\ndata: {"n":1}\n\n`);
  });

  it('resumes from ?lastEventId= (EventSource polyfills) and from the header, without duplicates across the replay', async () => {
    const { endpoint, url } = await serve({ retryMs: false, logger: silent });
    const ids: string[] = [];
    for (let n = 1; n <= 4; n++) ids.push(await endpoint.publish('/feed', 'tick', { n }));
    const byQuery = await rawGet(`${url}?lastEventId=${ids[1]}`);
    const byHeader = await rawGet(url, { 'last-event-id': ids[0]! });
    const fresh = await rawGet(url);
    cleanups.push(
      () => byQuery.close(),
      () => byHeader.close(),
      () => fresh.close(),
    );
    await until(() => endpoint.streamCount === 3, 'three streams');
    await endpoint.publish('/feed', 'tick', { n: 5 });
    await until(
      () => byQuery.events().length === 3 && byHeader.events().length === 4 && fresh.events().length === 1,
      'replay and live events',
    );
    const ns = (reader: typeof fresh) => reader.events().map((event) => (JSON.parse(event.data) as { n: number }).n);
    expect(ns(byQuery)).toEqual([3, 4, 5]);
    expect(ns(byHeader)).toEqual([2, 3, 4, 5]);
    expect(ns(fresh)).toEqual([5]);
    expect(fresh.text().startsWith('id: ')).toBe(true);
  });

  it('loses nothing published while a resume reads the log', async () => {
    // A log whose `since` is slow lets events arrive between subscribing and the replay.
    const memory = new MemoryEventLog();
    let release!: () => void;
    const reading = new Promise<void>((resolve) => (release = resolve));
    let entered!: () => void;
    const readStarted = new Promise<void>((resolve) => (entered = resolve));
    const slow = {
      append: memory.append.bind(memory),
      subscribe: memory.subscribe.bind(memory),
      async since(channel: string, id: string) {
        entered();
        await reading;
        return memory.since(channel, id);
      },
    };
    const { endpoint, url } = await serve({ eventLog: slow, retryMs: false, logger: silent });
    const first = await endpoint.publish('/feed', 'tick', { n: 1 });
    await endpoint.publish('/feed', 'tick', { n: 2 });
    const reader = await rawGet(url, { 'last-event-id': first });
    cleanups.push(() => reader.close());
    await readStarted;
    await endpoint.publish('/feed', 'tick', { n: 3 });
    release();
    await endpoint.publish('/feed', 'tick', { n: 4 });
    await until(() => reader.events().length >= 3, 'replay and live events');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(reader.events().map((event) => (JSON.parse(event.data) as { n: number }).n)).toEqual([2, 3, 4]);
  });

  it('skips live events the client already has when a shared log delivers them late (an instance lagging behind)', async () => {
    // The client last read event 1-2 on another instance; this one's subscription still delivers
    // 1-1 and 1-2 after the (empty) replay, then the new 1-3. Only 1-3 may reach the client.
    let listener: ((event: { id: string; event: string; data: string }) => void) | undefined;
    const lagging = {
      append: async () => '0-0',
      async subscribe(_channel: string, next: typeof listener) {
        listener = next;
        return () => undefined;
      },
      async since() {
        for (const id of ['1-1', '1-2', '1-3']) listener!({ id, event: 'tick', data: JSON.stringify({ id }) });
        return [];
      },
    };
    const { url } = await serve({ eventLog: lagging, retryMs: false, logger: silent });
    const reader = await rawGet(url, { 'last-event-id': '1-2' });
    cleanups.push(() => reader.close());
    await until(() => reader.events().length >= 1, 'the new event');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(reader.events().map((event) => event.id)).toEqual(['1-3']);
  });

  it('answers 401 with Problem Details (not a stream), 403 for a refused principal, and 404 from the channel hook', async () => {
    const { url } = await serve({
      authenticate: (_request, token) => (token === undefined || token === 'bad' ? undefined : { user: token }),
      authorize: (principal) => (principal as { user: string }).user !== 'blocked',
      channel: ({ url: target }) => {
        if (target.searchParams.has('missing')) throw new SseHttpError(404, 'Not Found', { detail: 'No such feed.' });
        return target.pathname;
      },
      logger: silent,
    });
    const none = await fetch(url, { headers: { accept: 'text/event-stream' } });
    expect(none.status).toBe(401);
    expect(none.headers.get('content-type')).toBe('application/problem+json');
    expect(none.headers.get('www-authenticate')).toBe('Bearer realm="sse"');
    expect(await none.json()).toEqual({
      type: 'about:blank',
      title: 'Unauthorized',
      status: 401,
      detail: 'Valid credentials are required.',
    });
    const bad = await fetch(url, { headers: { authorization: 'Bearer bad' } });
    expect(bad.status).toBe(401);
    expect(bad.headers.get('www-authenticate')).toContain('error="invalid_token"');
    await bad.body?.cancel();
    const blocked = await fetch(`${url}?access_token=blocked`);
    expect(blocked.status).toBe(403);
    expect(((await blocked.json()) as { status: number }).status).toBe(403);
    const missing = await fetch(`${url}?missing&access_token=ok`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ title: 'Not Found', detail: 'No such feed.' });
  });

  it('checks Origin against the allow-list, answers preflights, and refuses other methods with 405 and Allow', async () => {
    const { url } = await serve({ cors: { origins: ['https://app.example.com'], credentials: true }, post: silent, logger: silent });
    const foreign = await fetch(url, { headers: { origin: 'https://evil.example.com' } });
    expect(foreign.status).toBe(403);
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
    await foreign.body?.cancel();
    const preflight = await fetch(url, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://app.example.com',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type, last-event-id, x-unknown',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
    expect(preflight.headers.get('access-control-allow-credentials')).toBe('true');
    expect(preflight.headers.get('access-control-allow-methods')).toContain('POST');
    // The requested headers the endpoint accepts, and only those.
    expect(preflight.headers.get('access-control-allow-headers')).toBe('authorization, content-type, last-event-id');
    const allowed = await rawGet(url, { origin: 'https://app.example.com' });
    expect(allowed.response.statusCode).toBe(200);
    expect(allowed.response.headers['access-control-allow-origin']).toBe('https://app.example.com');
    expect(allowed.response.headers.vary).toBe('Origin');
    allowed.close();
    const put = await fetch(url, { method: 'PUT' });
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET, HEAD, POST, OPTIONS');
    await put.body?.cancel();
    const head = await fetch(url, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(() => createSseEndpoint({ cors: { origins: ['https://app.example.com/path'] } })).toThrow(TypeError);
  });

  it('limits concurrent streams with 503 and Retry-After', async () => {
    const { endpoint, url } = await serve({ maxStreams: 2, logger: silent });
    const open = [await rawGet(url), await rawGet(url)];
    cleanups.push(() => open.forEach((reader) => reader.close()));
    const third = await fetch(url);
    expect(third.status).toBe(503);
    expect(third.headers.get('retry-after')).toBe('5');
    await third.body?.cancel();
    open[0]!.close();
    await until(() => endpoint.streamCount === 1, 'a slot to free');
    const again = await rawGet(url);
    expect(again.response.statusCode).toBe(200);
    again.close();
  });

  it('drops a client that stops reading once maxBufferedBytes are waiting, without slowing the others', async () => {
    const drops: Record<string, unknown>[] = [];
    const limit = 64 * 1024;
    const { endpoint, site, url } = await serve({
      maxBufferedBytes: limit,
      retryMs: false,
      keepAliveMs: false,
      logger: (_message, fields) => drops.push(fields),
    });
    // A client that sends its request and never reads a byte of the answer.
    const { connect } = await import('node:net');
    const stalled = connect(Number(new URL(site.url).port), '127.0.0.1');
    cleanups.push(() => void stalled.destroy());
    stalled.on('error', silent);
    stalled.write('GET /feed HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    stalled.pause();
    const healthy = await rawGet(url);
    cleanups.push(() => healthy.close());
    await until(() => endpoint.streamCount === 2, 'both streams');
    const payload = 'x'.repeat(16 * 1024);
    let published = 0;
    // Kernel socket buffers take the first few megabytes; after that only our bound remains.
    while (drops.length === 0 && published < 5000) {
      await endpoint.publish('/feed', 'message', { n: published++, payload });
      // The healthy reader lives in this process too: let it read.
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(drops, JSON.stringify(drops)).toHaveLength(1);
    expect(drops[0]!.maxBufferedBytes).toBe(limit);
    // Bounded: at most the limit plus the one event that crossed it.
    expect(drops[0]!.bufferedBytes as number).toBeLessThanOrEqual(limit + payload.length + 200);
    await until(() => endpoint.streamCount === 1, 'the slow client to be gone');
    await until(() => healthy.events().length === published, 'every event at the healthy client', 20_000);
    expect(healthy.events().map((event) => (JSON.parse(event.data) as { n: number }).n)).toEqual(
      Array.from({ length: published }, (_, n) => n),
    );
  });

  it('close() ends every stream, stops the timers and answers later requests 503', async () => {
    const { endpoint, url } = await serve({ keepAliveMs: 10, logger: silent });
    const readers = [await rawGet(url), await rawGet(url)];
    await until(() => endpoint.streamCount === 2, 'two streams');
    await endpoint.close();
    await Promise.all(readers.map((reader) => reader.ended));
    expect(endpoint.streamCount).toBe(0);
    const later = await fetch(url);
    expect(later.status).toBe(503);
    await later.body?.cancel();
  });
});

describe('the generated client: parser vectors over a raw server writing chosen byte chunks', () => {
  const bytes = (text: string) => new TextEncoder().encode(text);
  const join = (...parts: Uint8Array[]) => Uint8Array.from(parts.flatMap((part) => [...part]));

  /** Reads `chunks` through the whole client path; every event is plain text. */
  async function read(
    chunks: Uint8Array[],
    options: { retryMs?: number } = {},
  ): Promise<{ events: { event: string; data: unknown; id: string }[]; client: Client; reads: number }> {
    const site = await chunkServer(chunks);
    cleanups.push(() => site.close());
    const counting = countingFetch();
    const client = new SseClient(site.url, { reconnect: false, textEvents: ['message', 'tick'], fetch: counting.fetch, ...options });
    const { events, error } = await drain(client);
    expect(error).toBeUndefined();
    expect(client.readyState).toBe(CLOSED);
    return { events: events.map(({ event, data, id }) => ({ event, data, id })), client, reads: counting.reads() };
  }

  it('strips a BOM at the start, even split across chunks, and only there', async () => {
    const bom = Uint8Array.of(0xef, 0xbb, 0xbf);
    const whole = await read([join(bom, bytes('data: a\n\n'), bom, bytes('data: b\n\n'), bytes('data: c\n\n'))]);
    // The second BOM is part of a field name ("\uFEFFdata"), which is unknown and ignored.
    expect(whole.events.map((event) => event.data)).toEqual(['a', 'c']);
    const split = await read([bom.subarray(0, 1), join(bom.subarray(1), bytes('data: a\n\n'))]);
    expect(split.reads).toBe(2);
    expect(split.events.map((event) => event.data)).toEqual(['a']);
  });

  it('accepts CR, LF and CRLF line ends, with a CRLF split between chunks counted once', async () => {
    const { events, reads } = await read([
      bytes('data: a\rdata: b\r'),
      bytes('\r'),
      bytes('data: c\r'),
      bytes('\ndata: d\r\n'),
      bytes('\r\ndata: e\n\n'),
    ]);
    expect(reads).toBe(5);
    expect(events.map((event) => event.data)).toEqual(['a\nb', 'c\nd', 'e']);
  });

  it('ignores comments and unknown fields; a bare "data" line is an empty line of data', async () => {
    const { events } = await read([bytes(': hello\ndata: a\n: between\nbogus: x\ndata\ndata:b\n\n'), bytes(':\n\n')]);
    expect(events.map((event) => event.data)).toEqual(['a\n\nb']);
  });

  it('ignores an invalid retry; a retry-only event sets the delay without dispatching', async () => {
    const { events, client } = await read(
      [bytes('retry: 12x\ndata: a\n\n'), bytes('retry: 1500\n\n'), bytes('retry: -5\n\nretry\n\n'), bytes('data: b\n\n')],
      { retryMs: 777 },
    );
    expect(events.map((event) => event.data)).toEqual(['a', 'b']);
    expect(client.retryMs).toBe(1500);
  });

  it('ignores an id containing NUL; ids persist until replaced; an empty id resets', async () => {
    const { events, client } = await read([
      bytes('id: 1\ndata: a\n\n'),
      bytes('id: 2\0x\ndata: b\n\n'),
      bytes('data: c\n\nid: 3\nevent: tick\ndata: d\n\n'),
      bytes('id\ndata: e\n\n'),
    ]);
    expect(events).toEqual([
      { event: 'message', data: 'a', id: '1' },
      { event: 'message', data: 'b', id: '1' },
      { event: 'message', data: 'c', id: '1' },
      { event: 'tick', data: 'd', id: '3' },
      { event: 'message', data: 'e', id: '' },
    ]);
    expect(client.lastEventId).toBe('');
  });

  it('decodes multibyte UTF-8 split anywhere across chunks', async () => {
    const text = bytes('data: ü€😀 – ok\n\n');
    // Cut inside ü (2 bytes), € (3 bytes) and 😀 (4 bytes).
    const cuts = [7, 9, 11, 14, 16];
    const chunks = [0, ...cuts].map((start, index) => text.subarray(start, cuts[index] ?? text.length));
    const { events, reads } = await read(chunks);
    expect(reads).toBe(chunks.length);
    expect(events.map((event) => event.data)).toEqual(['ü€😀 – ok']);
  });
});

describe('the generated client against the generated server', () => {
  const tickValidator: AnyValidator = (value) =>
    typeof value === 'object' && value !== null && typeof (value as { n?: unknown }).n === 'number'
      ? { ok: true, value }
      : { ok: false, errors: [{ path: '/n', message: 'must be a number' }] };

  it('GET: typed events with ids; a dropped connection reconnects after retry and resumes with Last-Event-ID', async () => {
    const hold = gate();
    const { endpoint, site, url } = await serve({ retryMs: 30, logger: silent }, hold.wrap);
    const states: number[] = [];
    const reconnects: { attempt: number; lastEventId: string }[] = [];
    const client = new SseClient(url, {
      onStateChange: (state) => states.push(state),
      onReconnect: ({ attempt, lastEventId }) => reconnects.push({ attempt, lastEventId }),
    });
    expect(client.readyState).toBe(CONNECTING);
    const events: ClientEvent[] = [];
    const reading = drain(client, events);
    await until(() => client.readyState === OPEN && endpoint.streamCount === 1, 'OPEN');
    const ids = [await endpoint.publish('/feed', 'tick', { n: 1 }), await endpoint.publish('/feed', 'tick', { n: 2 })];
    await until(() => events.length === 2, 'two events');
    expect(client.retryMs).toBe(30);

    hold.close();
    dropConnections(site);
    await until(() => endpoint.streamCount === 0, 'the drop');
    ids.push(await endpoint.publish('/feed', 'tick', { n: 3 }));
    await until(() => hold.held() === 1, 'the reconnection');
    expect(client.readyState).toBe(CONNECTING);
    hold.open();
    await until(() => events.length === 3, 'the missed event');
    ids.push(await endpoint.publish('/feed', 'tick', { n: 4 }));
    await until(() => events.length === 4, 'the live event');
    client.close();
    expect(await reading).toEqual({ events });

    expect(events).toEqual(ids.map((id, index) => ({ event: 'tick', data: { n: index + 1 }, id })));
    expect(site.requests[1]!.headers['last-event-id']).toBe(ids[1]);
    expect(reconnects).toEqual([{ attempt: 1, lastEventId: ids[1] }]);
    // Seed 3.1: CONNECTING → OPEN; interruption → CONNECTING → OPEN; close() → CLOSED.
    expect(states).toEqual([OPEN, CONNECTING, OPEN, CLOSED]);
  });

  it('POST: a JSON body and a bearer header in, events out, CLOSED after [DONE] without reconnecting', async () => {
    const bodies: unknown[] = [];
    const { site, url } = await serve({
      authenticate: (request, token) => (token === 'secret' ? { user: 'ada' } : undefined),
      validateBody: (value) =>
        typeof value === 'object' && value !== null && typeof (value as { prompt?: unknown }).prompt === 'string'
          ? { ok: true, value }
          : { ok: false, errors: [{ path: '/prompt', message: 'must be a string' }] },
      textEvents: ['token'],
      done: true,
      post: async ({ body, principal, stream }) => {
        bodies.push({ body, principal });
        for (const word of ['Hello', ', ', 'world']) stream.send('token', word);
        stream.send('usage', { tokens: 3 }, { id: 'final' });
      },
      logger: silent,
    });
    const states: number[] = [];
    const client = new SseClient(url, {
      method: 'POST',
      body: { prompt: 'hi' },
      headers: async () => ({ authorization: 'Bearer secret' }),
      textEvents: ['token'],
      onStateChange: (state) => states.push(state),
    });
    const { events, error } = await drain(client);
    expect(error).toBeUndefined();
    expect(events).toEqual([
      { event: 'token', data: 'Hello', id: '1' },
      { event: 'token', data: ', ', id: '2' },
      { event: 'token', data: 'world', id: '3' },
      { event: 'usage', data: { tokens: 3 }, id: 'final' },
    ]);
    expect(bodies).toEqual([{ body: { prompt: 'hi' }, principal: { user: 'ada' } }]);
    expect(states).toEqual([OPEN, CLOSED]);
    expect(site.requests).toHaveLength(1);
    expect(site.requests[0]!.headers['content-type']).toBe('application/json');

    const invalid = new SseClient(url, { method: 'POST', body: { prompt: 1 }, headers: { authorization: 'Bearer secret' } });
    const refused = await drain(invalid);
    expect(refused.error).toBeInstanceOf(SseResponseError);
    expect((refused.error as { status: number }).status).toBe(422);
    expect(JSON.parse((refused.error as { body: string }).body)).toMatchObject({ status: 422, detail: '/prompt: must be a string' });
  });

  it('POST: 415 for a body that is not JSON, 400 for malformed JSON, 413 past maxBodyBytes; a failing producer cuts the stream', async () => {
    const { url } = await serve({
      maxBodyBytes: 100,
      post: async ({ body, stream }) => {
        stream.send('tick', { n: 1 });
        if ((body as { fail?: boolean }).fail) throw new Error('database password is hunter2');
      },
      logger: silent,
    });
    const post = (body: string, type = 'application/json') => fetch(url, { method: 'POST', headers: { 'content-type': type }, body });
    expect((await post('{}', 'text/plain')).status).toBe(415);
    expect((await post('{')).status).toBe(400);
    expect((await post(JSON.stringify({ big: 'x'.repeat(200) }))).status).toBe(413);
    const client = new SseClient(url, { method: 'POST', body: { fail: true } });
    const { events, error } = await drain(client);
    expect(events.map((event) => event.data)).toEqual([{ n: 1 }]);
    expect(error).toBeInstanceOf(SseConnectionError);
    expect(String((error as Error).cause)).not.toContain('hunter2');
    expect(client.readyState).toBe(CLOSED);
  });

  it('goes CLOSED without reconnecting on 401, 404 and a wrong content type, with a typed error', async () => {
    const { url } = await serve({ authenticate: () => undefined, logger: silent });
    const site = await listen((request, response) => {
      if (request.url === '/html') response.writeHead(200, { 'content-type': 'text/html' }).end('<p>hi</p>');
      else response.writeHead(404, { 'content-type': 'application/problem+json' }).end('{"status":404}');
    });
    cleanups.push(() => site.close());
    for (const [target, status, contentType] of [
      [url, 401, 'application/problem+json'],
      [`${site.url}/missing`, 404, 'application/problem+json'],
      [`${site.url}/html`, 200, 'text/html'],
    ] as const) {
      const states: number[] = [];
      const reconnects: unknown[] = [];
      const client = new SseClient(target, {
        reconnect: { baseDelay: 1 },
        onStateChange: (state) => states.push(state),
        onReconnect: (info) => reconnects.push(info),
      });
      const { error } = await drain(client);
      expect(error, target).toBeInstanceOf(SseResponseError);
      expect(error).toMatchObject({ status, contentType, kind: status === 200 ? 'invalid-response' : 'response', operation: target });
      expect(states, target).toEqual([CLOSED]);
      expect(reconnects, target).toEqual([]);
    }
    expect(site.requests).toHaveLength(2);
  });

  it('backs off exponentially with jitter up to maxDelay while the server cannot be reached, then gives up after maxRetries', async () => {
    const site = await listen((request) => request.socket.destroy());
    cleanups.push(() => site.close());
    const delays: { attempt: number; delayMs: number }[] = [];
    const client = new SseClient(site.url, {
      reconnect: { baseDelay: 4, maxDelay: 20, maxRetries: 6 },
      onReconnect: ({ attempt, delayMs }) => delays.push({ attempt, delayMs }),
    });
    const { error } = await drain(client);
    expect(error).toBeInstanceOf(SseConnectionError);
    expect(error).toMatchObject({ kind: 'network' });
    expect(client.readyState).toBe(CLOSED);
    expect(site.requests).toHaveLength(7);
    expect(delays.map((delay) => delay.attempt)).toEqual([1, 2, 3, 4, 5, 6]);
    const bases = [4, 8, 16, 20, 20, 20];
    delays.forEach(({ delayMs }, index) => {
      expect(delayMs).toBeGreaterThanOrEqual(bases[index]!);
      expect(delayMs).toBeLessThanOrEqual(Math.round(bases[index]! * 1.2));
    });
  });

  it('validates payloads: an invalid or undeclared event is skipped and reported, the stream goes on', async () => {
    const { endpoint, url } = await serve({ logger: silent });
    const invalid: { event: string; data: string; errors: readonly unknown[] }[] = [];
    const client = new SseClient(url, {
      validators: { tick: tickValidator },
      onInvalid: (error) => invalid.push({ event: error.event, data: error.data, errors: error.errors }),
    });
    const events: ClientEvent[] = [];
    const reading = drain(client, events);
    await until(() => endpoint.streamCount === 1, 'the stream');
    await endpoint.publish('/feed', 'tick', { n: 'one' });
    await endpoint.publish('/feed', 'surprise', {});
    const last = await endpoint.publish('/feed', 'tick', { n: 2 });
    await until(() => events.length === 1, 'the valid event');
    client.close();
    await reading;
    expect(events).toEqual([{ event: 'tick', data: { n: 2 }, id: last }]);
    expect(invalid).toEqual([
      { event: 'tick', data: '{"n":"one"}', errors: [{ path: '/n', message: 'must be a number' }] },
      { event: 'surprise', data: '{}', errors: [] },
    ]);
  });

  it('server validators refuse an invalid payload at publish and send time', async () => {
    const endpoint = createSseEndpoint<AnyEvents>({ validators: { tick: tickValidator }, textEvents: ['note'], logger: silent });
    cleanups.push(() => endpoint.close());
    await expect(endpoint.publish('c', 'tick', { n: 'x' })).rejects.toThrow(/\/n: must be a number/);
    await expect(endpoint.publish('c', 'note', 5)).rejects.toThrow(TypeError);
    await expect(endpoint.publish('c', 'tick', { n: 1 })).resolves.toMatch(/^\d+-\d+$/);
  });

  it('an AbortSignal closes the stream; a stream iterates only once', async () => {
    const { endpoint, url } = await serve({ logger: silent });
    const controller = new AbortController();
    const client = new SseClient(url, { signal: controller.signal });
    const reading = drain(client);
    await until(() => endpoint.streamCount === 1, 'the stream');
    expect(() => client[Symbol.asyncIterator]()).toThrow(/only once/);
    controller.abort();
    expect(await reading).toEqual({ events: [] });
    expect(client.readyState).toBe(CLOSED);
    await until(() => endpoint.streamCount === 0, 'the server to see the close');
  });

  it('the client options every generated client shares: one Request to fetch, client headers then its own, a token, the client signal', async () => {
    const { endpoint, url } = await serve({ logger: silent });
    const sent: Request[] = [];
    const clientSignal = new AbortController();
    const client = new SseClient(url, {
      fetch: (request) => (sent.push(request), fetch(request)),
      clientHeaders: async () => ({ 'x-tenant': 'acme', 'x-trace': 'client' }),
      headers: { 'x-trace': 'stream' },
      token: async () => 'secret',
      clientSignal: clientSignal.signal,
    });
    const reading = drain(client);
    await until(() => endpoint.streamCount === 1, 'the stream');
    expect(sent).toHaveLength(1);
    expect(sent[0]).toBeInstanceOf(Request);
    expect(['x-tenant', 'x-trace', 'authorization'].map((name) => sent[0]!.headers.get(name))).toEqual(['acme', 'stream', 'Bearer secret']);
    clientSignal.abort();
    expect(await reading).toEqual({ events: [] });
    expect(client.readyState).toBe(CLOSED);
  });

  it('timeout bounds getting an answer: an attempt without one fails with kind timeout', async () => {
    const silentSite = await listen(() => {});
    cleanups.push(() => silentSite.close());
    const client = new SseClient(silentSite.url, { timeout: 100, reconnect: false, operation: 'feed' });
    const { error } = await drain(client);
    expect(error).toBeInstanceOf(SseConnectionError);
    expect(error).toMatchObject({ kind: 'timeout', operation: 'feed' });
    expect(client.readyState).toBe(CLOSED);
  });
});
