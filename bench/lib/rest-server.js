// Section 4: requests per second of the generated REST server (the example, `node
// dist/examples/rest/main.js`, i.e. `npm run example:rest`) against a Fastify 5 server with the same
// routes, the same JSON schemas and the same in-memory handler logic (bench/lib/rest-fastify.js).
// Each server runs in its own child process, started fresh for each route; autocannon (programmatic
// API, in this process) drives it over loopback with 50 connections: a warm-up, then the measured
// run. Before measuring, both servers are checked to answer the route alike (200 + ETag and 304,
// 201 + Location, 422 Problem Details for an invalid body, 401 without credentials). The same
// example mounted in Fastify, Hono (Fetch handler on @hono/node-server), Express and Koa
// (`MOUNT=…`, examples/rest/mounts.ts) runs the same cases: req/s beside the plain listener's.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { cpuMs, startServer } from './servers.js';
import { fmtRatio, int, table } from './stats.js';
import { ROOT, versionOf } from './tools.js';

const TOKEN = 'demo-token';
/** Issue 17's goal: ours serves at least 1.1× Fastify's requests per second, GET and POST alike. */
const TARGET = 1.1;
const CONNECTIONS = 50;

/** A valid TaskInput that exercises most of the schema: formats, nested objects, a oneOf. */
export const TASK = JSON.stringify({
  title: 'Benchmark the generated server',
  status: 'in_progress',
  dueDate: '2025-06-30',
  estimateHours: 2.5,
  assignee: { kind: 'person', email: 'ana@example.com' },
  labels: [{ name: 'bench', color: '#00aa11' }, { name: 'rest' }],
  metadata: { source: 'autocannon' },
});

const MOUNT_LABELS = {
  fastify: `Fastify ${versionOf('fastify')} (fastifyPlugin, prefix /v1)`,
  hono: `Hono ${versionOf('hono')} (toFetchHandler, @hono/node-server ${versionOf('@hono/node-server')})`,
  express: `Express ${versionOf('express')} (app.use(listener))`,
  koa: `Koa ${versionOf('koa')} (koaMiddleware)`,
};

export const REST_SERVERS = [
  {
    id: 'ours',
    label: 'codegen: generated node:http server (the example)',
    args: ['dist/examples/rest/main.js'],
    // Production mode (no response validation), rate limiting off: Fastify has none.
    env: { NODE_ENV: 'production', RATE_LIMIT: '0' },
  },
  {
    id: 'fastify',
    label: `Fastify ${versionOf('fastify')} (same schemas via its ajv, same handlers)`,
    args: ['bench/lib/rest-fastify.js'],
    env: { NODE_ENV: 'production' },
  },
  {
    id: 'ours-rate-limited',
    label: 'codegen, rate-limit stage on (limit 10^9/min; information)',
    args: ['dist/examples/rest/main.js'],
    env: { NODE_ENV: 'production', RATE_LIMIT: '1000000000' },
    info: true,
  },
  ...['fastify', 'hono', 'express', 'koa'].map((mount) => ({
    id: `mount-${mount}`,
    label: `codegen mounted in ${MOUNT_LABELS[mount]}`,
    args: ['dist/examples/rest/main.js'],
    env: { NODE_ENV: 'production', RATE_LIMIT: '0', MOUNT: mount },
    mount,
  })),
];

export const REST_ROUTES = [
  { id: 'get', label: 'GET /v1/projects/{id} (ETag)', method: 'GET', path: (projectId) => `/v1/projects/${projectId}`, status: 200 },
  {
    id: 'post',
    label: 'POST /v1/projects/{id}/tasks (validated body)',
    method: 'POST',
    path: (projectId) => `/v1/projects/${projectId}/tasks`,
    body: TASK,
    status: 201,
  },
];

const auth = { authorization: `Bearer ${TOKEN}` };
const json = { ...auth, 'content-type': 'application/json' };

/** Creates the project the routes use, and checks that the server answers the route as the other does. */
async function prepare(url, route) {
  const created = await fetch(`${url}/v1/projects`, { method: 'POST', headers: json, body: JSON.stringify({ name: 'Bench' }) });
  if (created.status !== 201) throw new Error(`seeding a project answered ${created.status}`);
  const { id } = await created.json();
  const problems = [];
  const expect = (what, condition) => condition || problems.push(what);
  if (route.id === 'get') {
    const first = await fetch(url + route.path(id), { headers: auth });
    const etag = first.headers.get('etag');
    expect('200 with an ETag', first.status === 200 && /^"[\w-]+"$/.test(etag ?? ''));
    expect('a JSON project', (await first.json()).id === id);
    const again = await fetch(url + route.path(id), { headers: { ...auth, 'if-none-match': etag } });
    expect('304 for If-None-Match', again.status === 304);
  } else {
    const ok = await fetch(url + route.path(id), { method: 'POST', headers: json, body: route.body });
    expect('201 with Location', ok.status === 201 && /^\/v1\/tasks\//.test(ok.headers.get('location') ?? ''));
    const bad = await fetch(url + route.path(id), {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ title: '', status: 'blocked', assignee: { kind: 'robot' } }),
    });
    const problem = await bad.json();
    expect(
      '422 problem+json for an invalid body',
      bad.status === 422 && bad.headers.get('content-type')?.startsWith('application/problem+json') && Array.isArray(problem.errors),
    );
  }
  const anonymous = await fetch(url + route.path(id), {
    method: route.method,
    headers: { 'content-type': 'application/json' },
    body: route.body,
  });
  expect('401 without credentials', anonymous.status === 401);
  return { id, problems };
}

async function load(autocannon, url, route, projectId, seconds) {
  const result = await autocannon({
    url: url + route.path(projectId),
    method: route.method,
    headers: route.body ? json : auth,
    body: route.body,
    connections: CONNECTIONS,
    duration: seconds,
  });
  return {
    rps: result.requests.average,
    total: result.requests.total,
    p50: result.latency.p50,
    p99: result.latency.p99,
    expected: result.statusCodeStats?.[String(route.status)]?.count ?? null,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
  };
}

/**
 * @param {{ log: (line: string) => void, quick: boolean, seconds?: number }} options
 */
export async function benchRestServer({ log, quick, seconds = quick ? 3 : 10 }) {
  log('\n## 4. REST server: the generated server (the example) vs Fastify 5, same routes, schemas and handlers');
  const missing = ['dist/examples/rest/main.js', 'dist/examples/rest/handlers.js'].filter((path) => !existsSync(join(ROOT, path)));
  if (missing.length) {
    log(`   not measured: ${missing.join(', ')} missing (npm run build)`);
    return { ok: false, skipped: `missing ${missing.join(', ')}` };
  }
  const { default: autocannon } = await import('autocannon');
  const warmup = quick ? 1 : 3;
  log(
    `   autocannon ${versionOf('autocannon')} (programmatic), ${CONNECTIONS} connections, ${warmup} s warm-up + ${seconds} s measured per case; each server a fresh child process per route`,
  );
  log(
    `   servers: ${REST_SERVERS.map(
      (server) =>
        `${server.id} = node ${server.args.join(' ')} ${Object.entries(server.env)
          .map(([k, v]) => `${k}=${v}`)
          .join(' ')}`,
    ).join('; ')}`,
  );

  const results = [];
  let ok = true;
  for (const route of REST_ROUTES) {
    for (const server of REST_SERVERS) {
      const entry = { route: route.id, server: server.id };
      let running;
      try {
        running = await startServer(server);
        const { id, problems } = await prepare(running.url, route);
        if (problems.length) throw new Error(`does not answer like the other server: ${problems.join(', ')} failed`);
        await load(autocannon, running.url, route, id, warmup);
        const cpuBefore = cpuMs(running.child.pid);
        Object.assign(entry, await load(autocannon, running.url, route, id, seconds));
        const cpuAfter = cpuMs(running.child.pid);
        entry.cpuUsPerRequest =
          cpuBefore === null || cpuAfter === null || !entry.total ? null : ((cpuAfter - cpuBefore) * 1000) / entry.total;
        if (entry.errors || entry.timeouts || entry.non2xx)
          log(`   ! ${server.id} ${route.id}: ${entry.non2xx} non-2xx, ${entry.errors} errors, ${entry.timeouts} timeouts`);
      } catch (error) {
        entry.failure = error.message;
        ok = false;
        log(`   ✗ ${server.id} ${route.label}: ${error.message}`);
      } finally {
        await running?.stop();
      }
      results.push(entry);
    }
  }

  const rows = [];
  const ratios = {};
  /** Per route, each mount's req/s and CPU per request against the plain listener's (`ours`). */
  const mounts = {};
  for (const route of REST_ROUTES) {
    const of = (id) => results.find((entry) => entry.route === route.id && entry.server === id);
    const fastify = of('fastify');
    for (const server of REST_SERVERS) {
      const entry = of(server.id);
      const ratio = entry?.rps && fastify?.rps ? entry.rps / fastify.rps : null;
      const cpuRatio = entry?.cpuUsPerRequest && fastify?.cpuUsPerRequest ? fastify.cpuUsPerRequest / entry.cpuUsPerRequest : null;
      if (server.id === 'ours') ratios[route.id] = { rps: ratio, cpu: cpuRatio };
      const ours = of('ours');
      const vsListener = server.mount && entry?.rps && ours?.rps ? entry.rps / ours.rps : null;
      const cpuVsListener =
        server.mount && entry?.cpuUsPerRequest && ours?.cpuUsPerRequest ? ours.cpuUsPerRequest / entry.cpuUsPerRequest : null;
      if (server.mount) (mounts[route.id] ??= {})[server.mount] = { rps: vsListener, cpu: cpuVsListener };
      rows.push([
        route.label,
        server.label,
        entry?.failure ? '✗' : int(Math.round(entry?.rps ?? 0)),
        entry?.failure ? '—' : `${entry.p50} ms`,
        entry?.failure ? '—' : `${entry.p99} ms`,
        entry?.failure ? '—' : int(entry.total),
        entry?.cpuUsPerRequest == null ? '—' : `${entry.cpuUsPerRequest.toFixed(0)} µs`,
        server.id === 'fastify' ? '1.00×' : fmtRatio(ratio),
        server.id === 'fastify' ? '1.00×' : fmtRatio(cpuRatio),
        server.id === 'ours' ? '1.00×' : server.mount ? fmtRatio(vsListener) : '',
      ]);
    }
  }
  log('');
  log(
    table(
      [
        'route',
        'server',
        'req/s',
        'p50',
        'p99',
        'requests',
        'server CPU/req',
        'req/s vs fastify',
        'CPU/req vs fastify',
        'req/s vs listener',
      ],
      rows,
    )
      .split('\n')
      .map((line) => `   ${line}`)
      .join('\n'),
  );
  log("   (CPU/req vs fastify: Fastify's server CPU time per request divided by ours; above 1.0× we use less)");
  for (const route of REST_ROUTES) {
    const ratio = ratios[route.id]?.rps;
    log(
      `   ${route.label}: ours / fastify = ${fmtRatio(ratio)} req/s, ${fmtRatio(ratios[route.id]?.cpu)} by CPU per request (target ≥ ${TARGET.toFixed(1)}×: ${ratio == null ? 'not measured' : ratio >= TARGET ? 'within' : 'under'})`,
    );
  }
  for (const route of REST_ROUTES) {
    const line = Object.entries(mounts[route.id] ?? {})
      .map(([mount, ratio]) => `${mount} ${fmtRatio(ratio.rps)} (CPU ${fmtRatio(ratio.cpu)})`)
      .join(', ');
    log(`   ${route.label}, mounted / plain listener req/s: ${line}`);
  }
  return { ok, connections: CONNECTIONS, seconds, warmup, results, ratios, mounts };
}
