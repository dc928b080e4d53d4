/**
 * The generated SSE server read by headless Chromium's own `EventSource` (named events, multi-line
 * data, `retry`, a dropped connection resumed with `Last-Event-ID`), and the generated client
 * running in the same browser (GET with resume, POST with `[DONE]`). The page is served by the
 * test, from the same origin as the stream.
 */
import { readFileSync } from 'node:fs';
import type { RequestListener } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSseEndpoint } from '../runtime/sse-server.js';
import { ROOT } from './support/cli.js';
import { type Browser, launchChromium, untilInPage } from './support/sse-browser.js';
import { runtimeJavaScript } from './support/runtime.js';
import type { Endpoint, EndpointOptions } from './support/sse-runtime.js';
import { dropConnections, listen, type Listening, until } from './support/sse-servers.js';

let browser: Browser;
const cleanups: (() => Promise<void> | void)[] = [];

beforeAll(async () => {
  browser = await launchChromium();
});

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  await browser?.close();
});

const EVENTSOURCE_PAGE = `<!doctype html><meta charset="utf-8"><title>EventSource</title><script>
window.received = [];
window.states = [];
const source = new EventSource('/feed');
for (const type of ['tick', 'note', 'message']) {
  source.addEventListener(type, (event) => received.push({ type, data: event.data, id: event.lastEventId }));
}
source.onopen = () => states.push('open');
source.onerror = () => states.push(source.readyState === EventSource.CLOSED ? 'closed' : 'connecting');
</script>`;

const CLIENT_PAGE = `<!doctype html><meta charset="utf-8"><title>SseClient</title>
<script type="importmap">{ "imports": { "eventsource-parser": "/eventsource-parser.js" } }</script>
<script type="module">
import { SseClient } from '/runtime/sse-client.js';
window.clientEvents = [];
window.clientStates = [];
window.client = new SseClient('/feed', { textEvents: ['note'], onStateChange: (state) => clientStates.push(state) });
(async () => {
  for await (const event of client) clientEvents.push(event);
})();
window.post = async (body) => {
  const events = [];
  const stream = new SseClient('/feed', { method: 'POST', body, textEvents: ['note'], headers: { authorization: 'Bearer page' } });
  for await (const event of stream) events.push(event);
  return { events, readyState: stream.readyState };
};
</script>`;

/**
 * Serves the pages, the generated client (transpiled), eventsource-parser's ESM build, and the
 * endpoint on /feed; requests to /feed wait while `hold` is set.
 */
async function site(
  options: EndpointOptions,
): Promise<{ endpoint: Endpoint; listening: Listening; hold(): void; release(): void; held(): number }> {
  const endpoint = createSseEndpoint(options);
  let waiting: (() => void)[] | undefined;
  const files: Record<string, [string, string]> = {
    '/eventsource.html': ['text/html; charset=utf-8', EVENTSOURCE_PAGE],
    '/client.html': ['text/html; charset=utf-8', CLIENT_PAGE],
    '/runtime/sse-client.js': ['text/javascript', runtimeJavaScript('sse-client')],
    '/runtime/client-common.js': ['text/javascript', runtimeJavaScript('client-common')],
    '/eventsource-parser.js': ['text/javascript', readFileSync(join(ROOT, 'node_modules/eventsource-parser/dist/index.js'), 'utf8')],
  };
  const handler: RequestListener = (request, response) => {
    const path = (request.url ?? '/').split('?')[0]!;
    const file = files[path];
    if (file) {
      response.writeHead(200, { 'content-type': file[0], 'cache-control': 'no-store' }).end(file[1]);
    } else if (path === '/feed') {
      if (waiting) waiting.push(() => endpoint.handle(request, response));
      else endpoint.handle(request, response);
    } else {
      response.writeHead(404).end();
    }
  };
  const listening = await listen(handler);
  cleanups.push(
    () => listening.close(),
    () => endpoint.close(),
  );
  return {
    endpoint,
    listening,
    hold: () => void (waiting = []),
    release: () => {
      const held = waiting ?? [];
      waiting = undefined;
      for (const run of held) run();
    },
    held: () => waiting?.length ?? 0,
  };
}

describe("Chromium's EventSource", () => {
  it('gets named events, multi-line data and ids, follows retry, and resumes a dropped connection with Last-Event-ID losing no event', async () => {
    const { endpoint, listening, hold, release, held } = await site({ retryMs: 150, textEvents: ['note'], logger: () => {} });
    const { page } = browser;
    await page.goto(`${listening.url}/eventsource.html`);
    await untilInPage(page, `states.includes('open')`, 'the stream to open');
    await until(() => endpoint.streamCount === 1, 'the stream on the server');
    const ids = [
      await endpoint.publish('/feed', 'tick', { n: 1 }),
      await endpoint.publish('/feed', 'note', 'first line\nsecond line\r\nthird line'),
      await endpoint.publish('/feed', 'message', { plain: 'yes' }),
    ];
    await untilInPage(page, 'received.length === 3', 'three events');

    hold();
    dropConnections(listening);
    await until(() => endpoint.streamCount === 0, 'the server to see the drop');
    ids.push(await endpoint.publish('/feed', 'tick', { n: 2 }), await endpoint.publish('/feed', 'tick', { n: 3 }));
    // Chromium waits the `retry: 150` the server sent, then reconnects with Last-Event-ID.
    await until(() => held() === 1, 'the reconnection');
    release();
    await untilInPage(page, 'received.length === 5', 'the two missed events');
    ids.push(await endpoint.publish('/feed', 'tick', { n: 4 }));
    await untilInPage(page, 'received.length === 6', 'a live event after the resume');

    expect(await page.evaluate('received')).toEqual([
      { type: 'tick', data: '{"n":1}', id: ids[0] },
      { type: 'note', data: 'first line\nsecond line\nthird line', id: ids[1] },
      { type: 'message', data: '{"plain":"yes"}', id: ids[2] },
      { type: 'tick', data: '{"n":2}', id: ids[3] },
      { type: 'tick', data: '{"n":3}', id: ids[4] },
      { type: 'tick', data: '{"n":4}', id: ids[5] },
    ]);
    const streams = listening.requests.filter((request) => request.url === '/feed');
    expect(streams).toHaveLength(2);
    expect(streams[0]!.headers.accept).toBe('text/event-stream');
    expect(streams[1]!.headers['last-event-id']).toBe(ids[2]);
    expect(await page.evaluate('states')).toEqual(['open', 'connecting', 'open']);
  });
});

describe('the generated client in Chromium', () => {
  it('reads typed GET events, resumes after a drop, and reads a POST stream to [DONE]', async () => {
    const { endpoint, listening, hold, release, held } = await site({
      retryMs: 100,
      textEvents: ['note'],
      done: true,
      authenticate: (request, token) =>
        request.method === 'POST' ? (token === 'page' ? { user: 'page' } : undefined) : { user: 'anyone' },
      post: ({ body, stream }) => {
        stream.send('note', `echo: ${(body as { say: string }).say}`);
        stream.send('tick', { n: 42 });
      },
      logger: () => {},
    });
    const { page } = browser;
    await page.goto(`${listening.url}/client.html`);
    await untilInPage(page, 'clientStates.includes(1)', 'the client to open');
    await until(() => endpoint.streamCount === 1, 'the stream on the server');
    const ids = [await endpoint.publish('/feed', 'tick', { n: 1 }), await endpoint.publish('/feed', 'note', 'a\nb')];
    await untilInPage(page, 'clientEvents.length === 2', 'two events');
    hold();
    dropConnections(listening);
    await until(() => endpoint.streamCount === 0, 'the drop');
    ids.push(await endpoint.publish('/feed', 'tick', { n: 2 }));
    await until(() => held() === 1, 'the reconnection');
    release();
    await untilInPage(page, 'clientEvents.length === 3', 'the missed event');
    expect(await page.evaluate('clientEvents')).toEqual([
      { event: 'tick', data: { n: 1 }, id: ids[0] },
      { event: 'note', data: 'a\nb', id: ids[1] },
      { event: 'tick', data: { n: 2 }, id: ids[2] },
    ]);
    const resumed = listening.requests.filter((request) => request.url === '/feed' && request.method === 'GET');
    expect(resumed[1]!.headers['last-event-id']).toBe(ids[1]);
    expect(await page.evaluate('clientStates')).toEqual([1, 0, 1]);

    const posted = await page.evaluate(`post({ say: 'hi' })`);
    expect(posted).toEqual({
      events: [
        { event: 'note', data: 'echo: hi', id: '1' },
        { event: 'tick', data: { n: 42 }, id: '2' },
      ],
      readyState: 2,
    });
    await page.evaluate('client.close()');
    expect(await page.evaluate('client.readyState')).toBe(2);
  });
});
