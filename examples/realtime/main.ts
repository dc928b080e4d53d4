/**
 * The example realtime server: the generated server of schemas/asyncapi/tasks.asyncapi.yaml
 * (out/realtime/server.ts) with the in-memory handlers of ./handlers.ts, on 127.0.0.1.
 *
 *   npm run build && npm run example:realtime      # PORT=0 (default): any free port
 *
 * First line of stdout: `listening on http://127.0.0.1:<port>`; logs go to stderr. SIGINT and
 * SIGTERM stop it cleanly (SSE streams end, WebSockets get 1001).
 *
 * - `GET /v1/tasks/events` (SSE, public): task.created / task.updated / task.deleted. Every
 *   FEED_INTERVAL_MS a task moves on (todo → in_progress → done → deleted; a new one is created
 *   when the board is empty), and `/task <title>` said in the chat creates one.
 * - `POST /v1/tasks/{taskId}/summary` (SSE, `Authorization: Bearer demo-token`): the summary in
 *   chunks, then `data: [DONE]`.
 * - `/v1/chat` (WebSocket, subprotocol `chat.v1`): first message `{ "type": "auth", "token":
 *   "demo-token" }` within 5 s, then `join` a room (a task id) and `say` things there.
 *
 * Settings, from the environment:
 *   PORT               port to listen on; 0 = any free port (default 0)
 *   FEED_INTERVAL_MS   milliseconds between task changes on the feed (default 5000)
 *   CORS_ORIGINS       comma-separated origins browsers may call from, SSE and WebSocket
 *                      (default http://localhost:5173,http://127.0.0.1:5173)
 *   BODY_TIMEOUT_MS    how long a POST stream's body may take to arrive (default 30000; 408 after)
 *   HEADERS_TIMEOUT_MS how long the request head may take (default 20000; 408 after)
 *   REQUEST_TIMEOUT_MS how long the whole request may take (default 60000; 408 after)
 *
 * Streams per client (SSE, 100 per endpoint) and WebSockets per client (100) are limited by default.
 */
import type { AddressInfo } from 'node:net';
import { createHttpServer, createRealtimeServer } from '../../out/realtime/server.js';
import { board, handlers, type Viewer } from './handlers.js';
import { corsOrigins, listenerLimits, setting, stopOnSignals } from '../shared/process.js';

/** The demo tokens; a real server verifies a signed token or looks it up. */
const TOKENS: ReadonlyMap<string, Viewer> = new Map([
  ['demo-token', { name: 'demo' }],
  ['reader-token', { name: 'reader' }],
]);
const ANONYMOUS: Viewer = { name: 'anonymous' };

const realtime = createRealtimeServer<Viewer>(handlers, {
  cors: { origins: corsOrigins(), credentials: true, maxAge: 600 },
  sse: {
    // The feed is public; a token, when sent, must be valid. POST streams need one.
    authenticate: (_request, token) => (token === undefined ? ANONYMOUS : TOKENS.get(token)),
    authorize: (viewer, { request }) => request.method !== 'POST' || viewer !== ANONYMOUS,
    bodyTimeoutMs: setting('BODY_TIMEOUT_MS', 30_000),
  },
  websocket: {
    verifyToken: (token) => TOKENS.get(token),
    onError: (error) => console.error('example:realtime:', error),
  },
});

// Finite head, request and keep-alive timeouts and head size (node's own allow 300 s per request).
const server = createHttpServer(realtime.listener, listenerLimits());
realtime.attach(server);

const feed = setInterval(
  () => {
    const change = board.isEmpty() ? board.create(realtime.publish, 'Water the plants') : board.advance(realtime.publish);
    change.catch((error: unknown) => console.error('example:realtime: feed:', error));
  },
  setting('FEED_INTERVAL_MS', 5_000),
);

server.listen(setting('PORT', 0), '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  process.stdout.write(`listening on http://127.0.0.1:${port}\n`);
});

server.on('error', (error) => {
  console.error(`example:realtime: ${error.message}`);
  process.exit(1);
});

stopOnSignals('example:realtime', server, () => {
  clearInterval(feed);
  return realtime.close();
});
