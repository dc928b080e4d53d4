/**
 * The example gRPC server: the generated server of schemas/proto/acme/tasks/v1/tasks.proto
 * (out/grpc/server.ts) with the in-memory handlers of ./handlers.ts, on 127.0.0.1.
 *
 *   npm run build && npm run example:grpc        # PORT=0 (default): any free port
 *
 * First line of stdout: `listening on http://127.0.0.1:<port>`; logs go to stderr. SIGINT and
 * SIGTERM stop it cleanly (health turns NOT_SERVING, calls get 2 s to finish, exit code 0).
 *
 * One port, three protocols: gRPC over HTTP/2 without TLS (grpcurl -plaintext, @grpc/grpc-js),
 * gRPC-Web and Connect's JSON protocol over HTTP/1.1, e.g.
 *
 *   curl -H 'content-type: application/json' -H 'authorization: Bearer demo-token' \
 *     -d '{"id":"t1"}' http://127.0.0.1:<port>/acme.tasks.v1.TaskService/GetTask
 *
 * Credentials (metadata `authorization: Bearer <token>`): `demo-token` may do everything,
 * `reader-token` only GetTask, ListTasks and ListProjectTasks (PERMISSION_DENIED otherwise); none
 * is UNAUTHENTICATED.
 * `grpc.health.v1.Health` needs none, nor does server reflection (`grpcurl -plaintext
 * 127.0.0.1:<port> list`, grpcui, Postman), which is off when NODE_ENV=production.
 *
 * Settings, from the environment:
 *   PORT           port to listen on; 0 = any free port (default 0)
 *   CORS_ORIGINS   comma-separated origins browsers may call from
 *                  (default http://localhost:5173,http://127.0.0.1:5173)
 *   HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS   HTTP/1.1 request head and whole-request time limits
 *                  (defaults 20000 and 60000; 408 after)
 *   REDIS_URL      when set (redis://host:port), changes are published on Redis (out/grpc/pubsub.ts
 *                  over `RedisFanOut`): several instances on one Redis share them, and every SyncTasks
 *                  conversation hears the changes made on any of them; unset, in this process only
 */
import { createClient } from 'redis';
import { createPubSub } from '../../out/grpc/pubsub.js';
import { createGrpcServer, RedisFanOut } from '../../out/grpc/server.js';
import { handlers, shareChanges, type User } from './handlers.js';
import { corsOrigins, listenerLimits, setting, stopOnSignals } from '../shared/process.js';

/** The demo tokens; a real server verifies a signed token or looks it up. */
const TOKENS: ReadonlyMap<string, User> = new Map([
  ['demo-token', { id: 'demo', role: 'editor' }],
  ['reader-token', { id: 'reader', role: 'reader' }],
]);

const READS = new Set(['GetTask', 'ListTasks', 'ListProjectTasks']);

const origins = corsOrigins();

// The changes' pub/sub: on Redis when REDIS_URL is set, else in this process.
const redisUrl = process.env.REDIS_URL;
const redis = redisUrl ? createClient({ url: redisUrl, disableOfflineQueue: true }) : undefined;
redis?.on('error', (error: Error) => console.error(`example:grpc: redis: ${error.message}`));
await redis?.connect();
const fanOut = redis ? new RedisFanOut(redis, { prefix: 'grpc:' }) : undefined;
await shareChanges(createPubSub(fanOut));

const server = createGrpcServer<User>(handlers, {
  authenticate: (metadata) => {
    const token = /^Bearer (.+)$/.exec(metadata.get('authorization') ?? '')?.[1];
    return token === undefined ? undefined : TOKENS.get(token);
  },
  authorize: (user, method) => user.role === 'editor' || READS.has(method.name),
  cors: { origins, credentials: true, maxAge: 600 },
  // gRPC-Web and Connect over HTTP/1.1: how long a request head and a whole request may take.
  http1: listenerLimits(),
  shutdownGraceMs: 2000,
  onError: (error, method) => console.error(`example:grpc: ${method.parent.typeName}/${method.name} failed:`, error),
});

server.server.on('error', (error) => {
  console.error(`example:grpc: ${error.message}`);
  process.exit(1);
});

const port = await server.listen(setting('PORT', 0), '127.0.0.1');
process.stdout.write(`listening on http://127.0.0.1:${port}\n`);

stopOnSignals('example:grpc', undefined, async () => {
  await server.close();
  await fanOut?.close();
  await redis?.close();
});
