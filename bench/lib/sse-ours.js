// Our side of the `sse-server` benchmark: createSseEndpoint from the SSE runtime
// (runtime/sse-*.ts, copied and transpiled by bench/lib/sse-server.js into
// BENCH_SSE_OUT) with its defaults: the in-memory event log (MemoryEventLog, 1000 events kept per
// channel for resume), `retry: 3000` on open, a keep-alive comment every 15 s, 1 MiB per slow
// reader. Every reader of GET /events is a stream of the channel "/events" (the default: the
// path); the publisher (bench/lib/sse-publisher.js) calls `publish("/events", "message", payload)`,
// which encodes the payload once, appends it to the log (an id `<ms>-<seq>`) and fans it out.
//
//   BENCH_SSE_OUT=bench/.work/sse-server/js PORT=0 node bench/lib/sse-ours.js
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { eventPayload, runPublisherServer, STREAM_PATH } from './sse-publisher.js';

const out = resolve(process.env.BENCH_SSE_OUT ?? 'bench/.work/sse-server/js');
const { createSseEndpoint } = await import(pathToFileURL(`${out}/runtime/sse-server.js`).href);

const endpoint = createSseEndpoint();
const failed = (error) => process.stderr.write(`publish failed: ${error}\n`);

runPublisherServer({
  stream: (request, response) => endpoint.handle(request, response),
  publish: (seq) => endpoint.publish(STREAM_PATH, 'message', eventPayload(seq)).catch(failed),
  close: () => endpoint.close(),
});
