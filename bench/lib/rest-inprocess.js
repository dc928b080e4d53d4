// The generated REST listener (or, with `--server=fastify`, the Fastify peer's router from
// bench/lib/rest-fastify.js; with `--server=fetch`, the same server through `toFetchHandler`, fed
// Fetch `Request`s and read back from its `Response`s) called in-process with the same stub `req`/`res` objects: the
// JavaScript of a request alone (routing, stages, parsing, validation, handler, serialisation),
// without sockets or node:http's parser, so figures are steadier than autocannon's on a busy
// machine. For A/B decisions; the `rest-server` section measures the real thing against Fastify.
//
//   npm run build && node bench/lib/rest-inprocess.js [--server=ours|fastify|fetch] [--rounds=7] [--n=20000] [--warmup=0] [--case=get|post] [--dist=dist]
//
// Instructions per request, whatever the load (the difference of two runs over the difference of
// their requests, so start-up and warm-up cancel out):
//
//   valgrind --tool=callgrind --callgrind-out-file=/dev/null node bench/lib/rest-inprocess.js --warmup=3000 --rounds=1 --n=1000 --case=get
//   (the same with --n=5000; `Collected` in valgrind's summary; (I5000 − I1000) / 4000)
//
// Prints CPU µs per request (user + system time of this process, steadier than wall time when the
// machine is busy) for the bench's two routes (GET a project with ETag, POST a valid task),
// the median of the rounds. The example's options are those `dist/examples/rest/main.js` uses with
// NODE_ENV=production RATE_LIMIT=0.
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { TASK } from './rest-server.js';

const args = Object.fromEntries(process.argv.slice(2).map((arg) => arg.replace(/^--/, '').split('=')));
const ROOT = join(import.meta.dirname, '..', '..');
const dist = resolve(ROOT, args.dist ?? 'dist');
const rounds = Number(args.rounds ?? 7);
const n = Number(args.n ?? 20000);
const warmup = Number(args.warmup ?? 0);

const { resetStore } = await import(pathToFileURL(join(dist, 'examples/rest/handlers.js')).href);
const listener =
  args.server === 'fastify' ? await fastifyListener() : args.server === 'fetch' ? await fetchListener() : await oursListener();

async function oursListener() {
  const { createServer, MemoryStore } = await import(pathToFileURL(join(dist, 'out/rest/server.js')).href);
  const { handlers } = await import(pathToFileURL(join(dist, 'examples/rest/handlers.js')).href);
  const TOKENS = new Map([['demo-token', { id: 'demo', role: 'editor' }]]);
  return createServer(handlers, {
    production: true,
    validateResponses: false,
    auth: {
      verify: async (credentials) => (credentials.type === 'bearer' ? TOKENS.get(credentials.token) : undefined),
      authorize: () => true,
    },
    store: new MemoryStore(),
    cors: { origins: ['http://localhost:5173'], credentials: true, maxAge: 600 },
    idempotency: { ttlMs: 86_400_000 },
    limits: { bodyTimeout: 30_000, maxBodySize: 1024 * 1024 },
    operations: { getProject: { cacheControl: 'private, max-age=60' }, getTask: { cacheControl: 'private, no-cache' } },
  });
}

/**
 * The same server through its Fetch handler, behind the stub `req`/`res`: each call builds the
 * `Request` (headers, body stream) and reads the `Response`'s body, as a Fetch platform does.
 */
async function fetchListener() {
  const { toFetchHandler } = await import(pathToFileURL(join(dist, 'out/rest/server.js')).href);
  const handler = toFetchHandler(await oursListener());
  return (req, res) => {
    const init = { method: req.method, headers: req.headers };
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      req.on('data', (chunk) => (init.body = chunk));
      req.on('end', () => {});
    }
    queueMicrotask(async () => {
      const response = await handler(new Request(`http://localhost${req.url}`, init), { incoming: req });
      const headers = {};
      response.headers.forEach((value, name) => (headers[name] = value));
      const body = Buffer.from(await response.arrayBuffer());
      res.writeHead(response.status, headers);
      res.end(body);
    });
  };
}

/** Fastify's own request handler (what its `http.Server` calls), after plugins and routes are ready. */
async function fastifyListener() {
  const { createFastifyApp } = await import('./rest-fastify.js');
  const app = createFastifyApp();
  await app.ready();
  return app.routing;
}

const socket = { remoteAddress: '127.0.0.1' };

/** A request as node:http hands it over: headers parsed, the body (if any) arriving on `data`/`end`. */
function request(method, url, headers, body) {
  const listeners = {};
  return {
    method,
    url,
    headers,
    socket,
    complete: true,
    readableEnded: false,
    on(event, fn) {
      listeners[event] = fn;
      if (event === 'end') queueMicrotask(() => (listeners.data(body), listeners.end()));
      return this;
    },
    off() {
      return this;
    },
    removeListener() {
      return this;
    },
    resume() {},
  };
}

/** A response that records what is written and settles `done` on `end`. */
function response(done) {
  return {
    headersSent: false,
    destroyed: false,
    writableFinished: false,
    status: 0,
    headers: undefined,
    writeHead(status, headers) {
      this.status = status;
      this.headers = headers;
      this.headersSent = true;
      return this;
    },
    end(body) {
      this.body = body;
      done(this);
    },
    once() {},
    getHeaderNames: () => [],
    removeHeader() {},
  };
}

function call(method, url, headers, body) {
  return new Promise((resolve) => listener(request(method, url, { ...headers }, body), response(resolve)));
}

const auth = { host: 'localhost', authorization: 'Bearer demo-token' };
/** A fresh store with one project: POSTs add tasks, and a store that only grows would make later rounds slower. */
async function seed() {
  resetStore();
  const created = await call(
    'POST',
    '/v1/projects',
    { ...auth, 'content-type': 'application/json', 'content-length': '16' },
    Buffer.from('{"name":"Bench"}'),
  );
  return JSON.parse(created.body.toString()).id;
}
let projectId = await seed();
const taskBody = Buffer.from(TASK);
const cases = {
  get: () => call('GET', `/v1/projects/${projectId}`, auth),
  post: () =>
    call(
      'POST',
      `/v1/projects/${projectId}/tasks`,
      { ...auth, 'content-type': 'application/json', 'content-length': String(taskBody.length) },
      taskBody,
    ),
};
for (const [id, run] of Object.entries(cases)) {
  const first = await run();
  if (first.status !== (id === 'get' ? 200 : 201)) throw new Error(`${id} answered ${first.status}: ${first.body}`);
}

const only = args.case === undefined ? Object.keys(cases) : [args.case];
// Unmeasured requests first, so that the measured ones run optimised code.
for (const id of only) {
  projectId = await seed();
  for (let i = 0; i < warmup; i++) await cases[id]();
}
const samples = Object.fromEntries(only.map((id) => [id, []]));
for (let round = 0; round < rounds; round++) {
  for (const id of only) {
    const run = cases[id];
    projectId = await seed();
    const start = process.cpuUsage();
    for (let i = 0; i < n; i++) await run();
    const used = process.cpuUsage(start);
    samples[id].push((used.user + used.system) / n);
  }
}
const median = (values) => values.toSorted((a, b) => a - b)[Math.floor(values.length / 2)];
for (const [id, values] of Object.entries(samples))
  console.log(
    `${id}: ${median(values).toFixed(2)} CPU µs/request (median of ${rounds} × ${n}; all: ${values.map((v) => v.toFixed(2)).join(' ')})`,
  );
