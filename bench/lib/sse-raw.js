// The peer of the `sse-server` benchmark: the hand-written loop. GET /events answers
// `res.writeHead(200, { content-type: text/event-stream, ... })` and keeps the response; each
// published event is formatted once, `id: ${seq}\ndata: ${json}\n\n`, and `res.write`n to every
// open response. No event log, no resume, no keep-alive, no bound on slow readers. The publisher
// and its pacing are the same as ours (bench/lib/sse-publisher.js).
//
//   PORT=0 node bench/lib/sse-raw.js
import { eventPayload, runPublisherServer } from './sse-publisher.js';

const responses = new Set();

runPublisherServer({
  stream: (_request, response) => {
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    response.flushHeaders();
    responses.add(response);
    response.once('close', () => responses.delete(response));
  },
  publish: (seq) => {
    const text = `id: ${seq}\ndata: ${JSON.stringify(eventPayload(seq))}\n\n`;
    for (const response of responses) response.write(text);
  },
});
