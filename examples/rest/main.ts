/**
 * The example REST server: the generated server of schemas/openapi/tasks.yaml (out/rest/server.ts)
 * with the in-memory handlers of ./handlers.ts, on 127.0.0.1.
 *
 *   npm run build && npm run example:rest        # PORT=0 (default): any free port
 *
 * First line of stdout: `listening on http://127.0.0.1:<port>`; logs go to stderr. SIGINT and
 * SIGTERM stop it cleanly (in-flight requests finish, idle connections close, exit code 0).
 *
 * Settings, from the environment:
 *   PORT                  port to listen on; 0 = any free port (default 0)
 *   NODE_ENV=production   production mode: no internal error text in responses, no response
 *                         validation (otherwise every response is checked against its schema)
 *   RATE_LIMIT            requests per client and window (default 600); 0 turns rate limiting off
 *   RATE_LIMIT_WINDOW_MS  the window (default 60000)
 *   CORS_ORIGINS          comma-separated origins browsers may call from
 *                         (default http://localhost:5173,http://127.0.0.1:5173)
 *   BODY_TIMEOUT_MS       how long a request body may take to arrive (default 30000; 408 after)
 *   MAX_BODY_BYTES        largest request body (default 1048576; 413 above)
 *   HEADERS_TIMEOUT_MS    how long the request head may take (default 20000; 408 after)
 *   REQUEST_TIMEOUT_MS    how long the whole request may take (default 60000; 408 after)
 *   MOUNT                 listener (default), fastify, hono, express or koa: the API mounted in
 *                         that framework's app (./mounts.ts), the conventions the same
 *
 * Credentials: `Authorization: Bearer demo-token` may do everything; `Bearer reader-token` may only
 * read (its writes answer 403). `GET /healthz` (no credentials) answers 200 while the process runs.
 */
import type { AddressInfo } from 'node:net';
import type { Credentials, TasksApiServerOptions } from '../../out/rest/server.js';
import { createServer, MemoryStore } from '../../out/rest/server.js';
import { handlers } from './handlers.js';
import { mounted, mountSetting } from './mounts.js';
import { corsOrigins, listenerLimits, setting, stopOnSignals } from '../shared/process.js';

/** Who a token belongs to, and whether they may change anything. */
export interface User {
  id: string;
  role: 'editor' | 'reader';
}

/** The demo tokens; a real server verifies a signed token or looks it up. */
const TOKENS: ReadonlyMap<string, User> = new Map([
  ['demo-token', { id: 'demo', role: 'editor' }],
  ['reader-token', { id: 'reader', role: 'reader' }],
]);

const READ_ONLY = new Set(['listProjects', 'getProject', 'listProjectTasks', 'getTask']);

const port = setting('PORT', 0);
const rateLimit = setting('RATE_LIMIT', 600);
const production = process.env.NODE_ENV === 'production';
const origins = corsOrigins();

const options: TasksApiServerOptions<User> = {
  production,
  validateResponses: !production,
  auth: {
    verify: async (credentials: Credentials) => (credentials.type === 'bearer' ? TOKENS.get(credentials.token) : undefined),
    authorize: (user, request) => user.role === 'editor' || READ_ONLY.has(request.operation.id),
  },
  // Rate-limit counters and idempotency records; a Redis store would share them between processes.
  store: new MemoryStore(),
  ...(rateLimit > 0 ? { rateLimit: { limit: rateLimit, windowMs: setting('RATE_LIMIT_WINDOW_MS', 60_000) } } : {}),
  cors: { origins, credentials: true, maxAge: 600 },
  idempotency: { ttlMs: 24 * 60 * 60 * 1000 },
  limits: { bodyTimeout: setting('BODY_TIMEOUT_MS', 30_000), maxBodySize: setting('MAX_BODY_BYTES', 1024 * 1024) },
  operations: {
    getProject: { cacheControl: 'private, max-age=60' },
    getTask: { cacheControl: 'private, no-cache' },
  },
};

// The handlers do not look at the principal; `<User>` types what `verify` and `authorize` see.
const api = createServer<User>(handlers, options);

const server = await mounted(mountSetting(), api, listenerLimits());

server.listen(port, '127.0.0.1', () => {
  const { port: actual } = server.address() as AddressInfo;
  process.stdout.write(`listening on http://127.0.0.1:${actual}\n`);
});

server.on('error', (error) => {
  console.error(`example:rest: ${error.message}`);
  process.exit(1);
});

stopOnSignals('example:rest', server);
