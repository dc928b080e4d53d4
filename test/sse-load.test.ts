/**
 * A bounded load test of the generated SSE server: 1,000 concurrent streams on loopback (plain
 * `http.get` readers, each on its own socket) while events are broadcast; every client must get
 * every event, in order, exactly once. Nothing is timed (bench/ measures); the test only has to
 * finish inside vitest's timeout.
 */
import { spawnSync } from 'node:child_process';
import { get, type IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { createSseEndpoint } from '../runtime/sse-server.js';
import type { AnyEvents } from './support/sse-runtime.js';
import { listen, type Listening, until } from './support/sse-servers.js';

const CLIENTS = 1000;
const MESSAGES = 500;

/** A reader that keeps only the sequence numbers it receives. */
interface Reader {
  received: number[];
  duplicates: number;
  ids: Set<string>;
  response: IncomingMessage;
}

function connect(url: string): Promise<Reader> {
  return new Promise((resolve, reject) => {
    const request = get(url, { agent: false, headers: { accept: 'text/event-stream' } }, (response) => {
      const reader: Reader = { received: [], duplicates: 0, ids: new Set(), response };
      let buffer = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) !== -1) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const id = /^id: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (id === undefined || data === undefined) continue;
          if (reader.ids.has(id)) reader.duplicates++;
          reader.ids.add(id);
          reader.received.push((JSON.parse(data) as { n: number }).n);
        }
      });
      resolve(reader);
    });
    request.on('error', reject);
  });
}

describe('SSE load', () => {
  it(`holds ${CLIENTS} concurrent streams and delivers all ${MESSAGES} broadcast events to each, in order`, async () => {
    // Each stream takes two descriptors here (client and server socket in one process).
    const limit = Number(spawnSync('sh', ['-c', 'ulimit -n'], { encoding: 'utf8' }).stdout.trim());
    expect(limit, `ulimit -n is ${limit}; this test needs at least ${2 * CLIENTS + 200} open files`).toBeGreaterThanOrEqual(
      2 * CLIENTS + 200,
    );

    // Every load client comes from 127.0.0.1: one address standing for 1000 clients.
    const endpoint = createSseEndpoint<AnyEvents>({ logger: () => {}, maxStreamsPerClient: 2000 });
    const site: Listening = await listen(endpoint.handle);
    const readers: Reader[] = [];
    try {
      // In batches, so the listen backlog is never the limit being tested.
      for (let batch = 0; batch < CLIENTS; batch += 100) {
        readers.push(...(await Promise.all(Array.from({ length: Math.min(100, CLIENTS - batch) }, () => connect(`${site.url}/feed`)))));
      }
      await until(() => endpoint.streamCount === CLIENTS, `${CLIENTS} open streams`);
      expect(readers.every((reader) => reader.response.statusCode === 200)).toBe(true);

      for (let n = 0; n < MESSAGES; n++) {
        await endpoint.publish('/feed', 'tick', { n });
        // Let sockets drain between broadcasts, as a real producer's pace would.
        if (n % 10 === 9) await new Promise((resolve) => setImmediate(resolve));
      }
      await until(() => readers.every((reader) => reader.received.length >= MESSAGES), 'every client to get every event', 25_000);

      const expected = Array.from({ length: MESSAGES }, (_, n) => n);
      const wrong = readers.filter((reader) => reader.duplicates > 0 || reader.received.join() !== expected.join());
      expect(wrong).toHaveLength(0);
      expect(endpoint.streamCount).toBe(CLIENTS);
    } finally {
      await endpoint.close();
      await site.close();
    }
  });
});
