/**
 * The example GraphQL server: the generated server of schemas/graphql/tasks.graphql
 * (out/graphql/server.ts) with the resolvers of ./resolvers.ts (data in memory; subscription events
 * through the generated pub/sub, out/graphql/pubsub.ts, in memory or on Redis), on 127.0.0.1.
 *
 *   npm run build && npm run example:graphql        # PORT=0 (default): any free port
 *
 * First line of stdout: `listening on http://127.0.0.1:<port>/graphql`; logs go to stderr.
 * SIGINT and SIGTERM stop it cleanly (WebSockets get 1001, in-flight requests finish).
 *
 * Queries and mutations: POST (or GET for queries) on /graphql. Subscriptions: WebSocket on the same
 * URL with the `graphql-transport-ws` subprotocol (graphql-ws), the token in `connection_init`'s
 * `authorization`. Credentials: `Authorization: Bearer admin-token` (role ADMIN: sees e-mails and
 * internal notes, may delete), `Bearer member-token` (MEMBER: may create and update); without a
 * token, reads work and the `@auth` fields are null with an UNAUTHENTICATED error.
 *
 * Settings, from the environment:
 *   PORT                  port to listen on; 0 = any free port (default 0)
 *   NODE_ENV=production   production mode: introspection off, internal errors masked
 *   PERSISTED_ONLY=1      allow-list mode: only the operations of schemas/graphql/operations run
 *   CORS_ORIGINS          comma-separated origins browsers may call from, over HTTP and WebSocket
 *                         (default http://localhost:5173,http://127.0.0.1:5173)
 *   RATE_LIMIT            complexity points per minute and viewer (per IP when anonymous); a
 *                         query costs its complexity, e.g. 1 + 20 × 3 for 20 tasks of 2 fields;
 *                         0 turns rate limiting off (default 20000: at least the 1000 of one
 *                         maximal query; over it the answer is 429 with Retry-After)
 *   BODY_TIMEOUT_MS       how long a request body may take to arrive (default 30000; 408 after)
 *   HEADERS_TIMEOUT_MS    how long the request head may take (default 20000; 408 after)
 *   REQUEST_TIMEOUT_MS    how long the whole request may take (default 60000; 408 after)
 *   REDIS_URL             e.g. redis://127.0.0.1:6379: subscription events go through Redis pub/sub
 *                         (`RedisFanOut`), so a mutation served by one instance reaches the
 *                         subscribers of every instance; unset, they stay in this process. Tasks
 *                         stay in each instance's memory either way. It listens once Redis
 *                         answers (node-redis retries, each failure logged).
 */
import type { AddressInfo } from 'node:net';
import { createClient } from 'redis';
import { createPubSub } from '../../out/graphql/pubsub.js';
import { createGraphQLServer, RedisFanOut, type GraphQLRequest, type ViewerRole } from '../../out/graphql/server.js';
import { TaskStore } from './data.js';
import { resolvers, type Context, type Viewer } from './resolvers.js';
import { corsOrigins, listenerLimits, setting, stopOnSignals } from '../shared/process.js';
import { mounted, mountSetting } from './mounts.js';

/** The demo tokens; a real server verifies a signed token or looks it up. */
const TOKENS: ReadonlyMap<string, Viewer> = new Map<string, Viewer>([
  ['admin-token', { id: 'u1', role: 'ADMIN' satisfies ViewerRole }],
  ['member-token', { id: 'u2', role: 'MEMBER' satisfies ViewerRole }],
]);

/** `Authorization: Bearer <token>` over HTTP; `{ authorization: "Bearer <token>" }` in `connection_init`. */
function authenticate(request: GraphQLRequest): Viewer | null {
  const header = request.transport === 'http' ? request.headers.authorization : request.connectionParams?.authorization;
  if (typeof header !== 'string' || header === '') return null;
  const viewer = /^Bearer (.+)$/.exec(header)?.[1];
  const found = viewer ? TOKENS.get(viewer) : undefined;
  if (!found) throw new Error('invalid token');
  return found;
}

/** With REDIS_URL, the pub/sub's Redis connection (and the fan-out to close on shutdown). */
async function redisFanOut(url: string) {
  // No offline queue: while Redis is down, publishing fails fast instead of piling up.
  const client = createClient({ url, disableOfflineQueue: true });
  client.on('error', (error: Error) => console.error(`example:graphql: redis: ${error.message}`));
  await client.connect();
  const fanOut = new RedisFanOut(client, { prefix: 'graphql:' });
  return {
    fanOut,
    async close() {
      await fanOut.close();
      await client.close();
    },
  };
}

const redis = process.env.REDIS_URL ? await redisFanOut(process.env.REDIS_URL) : undefined;
const pubsub = createPubSub(redis?.fanOut);
const store = new TaskStore(pubsub);
const origins = corsOrigins();
const pointsPerMinute = setting('RATE_LIMIT', 20_000);

const graphql = createGraphQLServer<Context, Viewer>(resolvers, {
  authenticate,
  context: ({ viewer }): Context => ({ store, pubsub, viewer }),
  persistedOnly: process.env.PERSISTED_ONLY === '1',
  // In one process's memory; several instances would share a Redis `Store` (`rateLimit.store`).
  ...(pointsPerMinute > 0
    ? {
        rateLimit: {
          limit: pointsPerMinute,
          windowMs: 60_000,
          cost: 'complexity' as const,
          key: (request: GraphQLRequest, viewer: Viewer | null) =>
            viewer ? `user:${viewer.id}` : `ip:${request.raw.socket.remoteAddress}`,
        },
      }
    : {}),
  // Connections, operations per connection and messages are limited by default (see WebSocketOptions).
  cors: { origins, credentials: true, maxAge: 600 },
  bodyTimeout: setting('BODY_TIMEOUT_MS', 30_000),
  websocket: { maxConnectionsPerClient: 20 },
});

// Finite head, request and keep-alive timeouts and head size (node's own allow 300 s per request).
const server = await mounted(mountSetting(), graphql.listener, listenerLimits());
// Subscriptions over WebSocket: the upgrade is the http.Server's, whichever app routes the rest.
graphql.attach(server);

server.listen(setting('PORT', 0), '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  process.stdout.write(`listening on http://127.0.0.1:${port}/graphql\n`);
});

server.on('error', (error) => {
  console.error(`example:graphql: ${error.message}`);
  process.exit(1);
});

stopOnSignals('example:graphql', server, async () => {
  await graphql.close();
  await redis?.close();
});
