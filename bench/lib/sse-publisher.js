// The part both servers of the `sse-server` benchmark share (bench/lib/sse-ours.js, sse-raw.js): a
// node:http server whose `GET /events` is the stream under test and whose control routes let the
// harness drive the publisher, which runs inside the server process:
//
//   GET  /status           {"streams": <open /events responses>, "published": <events so far>}
//   POST /publish?count=N  publishes N events, answers when they are all written (the check run)
//   POST /run              publishes until /stop, as fast as the readers take them
//   POST /stop             stops the loop; answers {"published": ...}
//
// Pacing is the same for both: BATCH events published back to back, then a turn of the event loop
// (sockets flush), and while any reader has more than HIGH_WATER bytes queued, the publisher
// waits for it to drain. Prints `listening on http://127.0.0.1:<port>` first; stops on SIGTERM.
import { createServer } from 'node:http';

export const STREAM_PATH = '/events';
const BATCH = 50;
const HIGH_WATER = 64 * 1024;

const TITLES = ['Write the benchmark', 'Review the SSE runtime', 'Ship the WebSocket chat', 'Profile the fan-out'];

/** The payload of event `seq`: a small task update, ~130 bytes of JSON. */
export function eventPayload(seq) {
  return { seq, task: { id: `t${seq % 1000}`, title: TITLES[seq % TITLES.length], status: seq % 3 === 0 ? 'done' : 'open' }, version: seq };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

/** Resolves when `response` drained, closed, or 20 ms passed (a missed `drain` must not stall the loop). */
function drained(response) {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      response.off('drain', done);
      response.off('close', done);
      resolve();
    };
    const timer = setTimeout(done, 20);
    response.once('drain', done);
    response.once('close', done);
  });
}

/**
 * @param {{ stream: (request: import('node:http').IncomingMessage, response: import('node:http').ServerResponse) => void,
 *           publish: (seq: number) => unknown,
 *           close?: () => Promise<void> }} server
 *   `stream` serves one reader of /events; `publish` publishes event `seq` to every reader.
 */
export function runPublisherServer({ stream, publish, close }) {
  const readers = new Set();
  let published = 0;
  let running = false;

  async function pump(limit) {
    while (running && published < limit) {
      const end = Math.min(limit, published + BATCH);
      while (published < end) publish(published++);
      await turn();
      for (const response of readers) {
        while (!response.destroyed && response.writableLength > HIGH_WATER) await drained(response);
      }
    }
  }

  const json = (response, status, body) => response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (url.pathname === STREAM_PATH && request.method === 'GET') {
      readers.add(response);
      response.once('close', () => readers.delete(response));
      stream(request, response);
    } else if (url.pathname === '/status') {
      json(response, 200, { streams: readers.size, published });
    } else if (url.pathname === '/publish' && request.method === 'POST' && !running) {
      running = true;
      pump(published + Number(url.searchParams.get('count') ?? 0)).then(() => {
        running = false;
        json(response, 200, { published });
      });
    } else if (url.pathname === '/run' && request.method === 'POST' && !running) {
      running = true;
      pump(Number.MAX_SAFE_INTEGER).catch(() => {});
      json(response, 202, { published });
    } else if (url.pathname === '/stop' && request.method === 'POST') {
      running = false;
      json(response, 200, { published });
    } else {
      json(response, 404, { error: 'not found' });
    }
  });
  server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
    process.stdout.write(`listening on http://127.0.0.1:${server.address().port}\n`);
  });
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, async () => {
      running = false;
      await close?.();
      for (const response of readers) response.destroy();
      server.closeAllConnections();
      server.close(() => process.exit(0));
    });
  }
}
