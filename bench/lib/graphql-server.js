// Section `graphql-server`: requests per second of the generated GraphQL server (out/graphql/server.ts,
// limits on: bench/lib/graphql-ours.js) against Mercurius with its JIT (graphql-jit) on Fastify, the
// fastest Node GraphQL server (bench/lib/graphql-mercurius.js), and graphql-yoga
// (bench/lib/graphql-yoga.js), all three serving schemas/graphql/tasks.graphql with the same in-memory resolvers
// (bench/lib/graphql-resolvers.js). The query is the example's `ProjectTasks` operation: a project,
// its first 20 tasks as a Relay connection, each task's assignee (resolved per task). Each server
// runs in its own child process, started afresh in each of 3 interleaved rounds; autocannon
// (programmatic API, in this process) drives it over loopback with 50 connections: a warm-up, then
// the measured run; medians of the rounds are shown. Before measuring, every server must answer the
// query with the same `data`; whether each rejects a query 13 levels deep is shown.
// The approach is the REST section's (bench/lib/rest-server.js).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cpuMs, rotatingRounds } from './servers.js';
import { fmtRatio, int, median, table } from './stats.js';
import { recordTarget } from './summary.js';
import { ROOT, versionOf } from './tools.js';

const CONNECTIONS = 50;
const ROUNDS = 3;
/** Ours over Mercurius + JIT, req/s (the fastest peer); over Yoga the earlier target was 1.5×. */
const TARGET = 1.0;
const OURS_SOURCE = join(ROOT, 'out/graphql/server.ts');

/** schemas/graphql/operations/tasks.graphql's `ProjectTasks` with the fragment it uses. */
const QUERY = `query ProjectTasks($projectId: ID!, $first: Int = 20, $after: String, $status: TaskStatus) {
  project(id: $projectId) {
    id
    name
    tasks(first: $first, after: $after, status: $status) {
      totalCount
      pageInfo {
        hasNextPage
        endCursor
      }
      edges {
        cursor
        node {
          ...TaskFields
        }
      }
    }
  }
}

fragment TaskFields on Task {
  id
  title
  status
  createdAt
  assignee {
    id
    name
  }
}`;

const BODY = JSON.stringify({ query: QUERY, operationName: 'ProjectTasks', variables: { projectId: 'project-1', first: 20 } });

/** 13 levels deep (project → tasks → edges → node → project → …): over any usual depth limit. */
const DEEP = `{ project(id: "project-1") { tasks { edges { node { project { tasks { edges { node { project { tasks { edges { node { id } } } } } } } } } } } } }`;

/** What a GraphQL-over-HTTP client sends (the spec's recommended Accept); neither server needs the token for this query. */
const HEADERS = {
  'content-type': 'application/json',
  accept: 'application/graphql-response+json, application/json;q=0.9',
  authorization: 'Bearer demo-token',
};

export const GRAPHQL_SERVERS = [
  {
    id: 'ours',
    label: 'codegen: generated server (out/graphql/server.ts), limits on',
    args: ['--import=./bench/lib/ts-register.js', 'bench/lib/graphql-ours.js'],
    env: { NODE_ENV: 'production' },
    /** Why it cannot run yet, if so. */
    unavailable: () => {
      if (!existsSync(OURS_SOURCE)) return 'not generated yet (out/graphql/server.ts is missing)';
      if (!readFileSync(OURS_SOURCE, 'utf8').includes('createGraphQLServer'))
        return 'not generated yet (out/graphql/server.ts has no createGraphQLServer)';
      return null;
    },
  },
  {
    id: 'mercurius',
    label: `Mercurius ${versionOf('mercurius')} + graphql-jit ${versionOf('graphql-jit')} (jit: 1) on Fastify ${versionOf('fastify')}`,
    args: ['bench/lib/graphql-mercurius.js'],
    env: { NODE_ENV: 'production' },
    unavailable: () => null,
  },
  {
    id: 'yoga',
    label: `graphql-yoga ${versionOf('graphql-yoga')} (same SDL and resolvers)`,
    args: ['bench/lib/graphql-yoga.js'],
    env: { NODE_ENV: 'production' },
    unavailable: () => null,
  },
];

/** The median of every numeric figure over a server's rounds. */
function medians(taken) {
  const keys = Object.keys(taken[0]).filter((key) => taken.every((sample) => typeof sample[key] === 'number'));
  return Object.fromEntries(keys.map((key) => [key, median(taken.map((sample) => sample[key]))]));
}

async function post(url, body) {
  const response = await fetch(`${url}/graphql`, { method: 'POST', headers: HEADERS, body });
  const text = await response.text();
  let json = null;
  try {
    json = JSON.parse(text);
  } catch {
    // reported below as "not JSON"
  }
  return { status: response.status, text, json };
}

/**
 * Checks that a server answers the benchmarked query (200, 20 edges with assignees, no errors) and
 * asks it a 13-level query, to show whether a depth limit is on.
 * @returns {Promise<{ data: string | null, problems: string[], deep: string }>}
 */
async function prepare(url) {
  const problems = [];
  const answer = await post(url, BODY);
  const edges = answer.json?.data?.project?.tasks?.edges;
  if (answer.status !== 200) problems.push(`status ${answer.status}`);
  if (!answer.json) problems.push(`not JSON: ${answer.text.slice(0, 200)}`);
  else if (answer.json.errors) problems.push(`errors: ${JSON.stringify(answer.json.errors).slice(0, 300)}`);
  else if (!Array.isArray(edges) || edges.length !== 20 || !edges[0]?.node?.assignee) problems.push('no page of 20 tasks with assignees');
  const deep = await post(url, JSON.stringify({ query: DEEP }));
  const rejected = deep.json && deep.json.data == null && Array.isArray(deep.json.errors);
  const message = deep.json?.errors?.[0]?.message;
  return {
    data: answer.json?.data ? JSON.stringify(answer.json.data) : null,
    problems,
    deep: rejected ? `rejected (${deep.status}${message ? `: ${message.slice(0, 80)}` : ''})` : `executed (${deep.status})`,
  };
}

async function load(autocannon, url, seconds) {
  const result = await autocannon({
    url: `${url}/graphql`,
    method: 'POST',
    headers: HEADERS,
    body: BODY,
    connections: CONNECTIONS,
    duration: seconds,
  });
  return {
    rps: result.requests.average,
    total: result.requests.total,
    p50: result.latency.p50,
    p99: result.latency.p99,
    ok200: result.statusCodeStats?.['200']?.count ?? null,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
  };
}

/**
 * @param {{ log: (line: string) => void, quick: boolean, seconds?: number }} options
 */
export async function benchGraphQLServer({ log, quick, seconds = quick ? 3 : 10 }) {
  log('\n## 6. GraphQL server: the generated server vs Mercurius + graphql-jit and graphql-yoga, same SDL and resolvers');
  const { default: autocannon } = await import('autocannon');
  const warmup = quick ? 1 : 3;
  const rounds = quick ? 1 : ROUNDS;
  log(
    `   query: ProjectTasks (project → tasks(first: 20) → edges → node { … assignee { id name } }), POST /graphql, ${Buffer.byteLength(BODY)} B body`,
  );
  log(
    `   autocannon ${versionOf('autocannon')} (programmatic), ${CONNECTIONS} connections, ${warmup} s warm-up + ${seconds} s measured; each server its own child process, started afresh for each of ${rounds} round(s), interleaved; medians shown`,
  );
  log(
    `   servers: ${GRAPHQL_SERVERS.map(
      (server) =>
        `${server.id} = node ${server.args.join(' ')} ${Object.entries(server.env)
          .map(([k, v]) => `${k}=${v}`)
          .join(' ')}`,
    ).join('; ')}`,
  );

  const active = GRAPHQL_SERVERS.filter((server) => {
    const reason = server.unavailable();
    // Not a failure: the generator has not produced this server yet.
    if (reason) log(`   ${server.id}: ${reason}`);
    return !reason;
  });
  const results = GRAPHQL_SERVERS.map((server) => ({ server: server.id, label: server.label, skipped: server.unavailable() ?? undefined }));
  /** @type {Map<string, object[]>} */
  const samples = new Map(active.map((server) => [server.id, []]));
  let ok = true;
  let reference = null;
  await rotatingRounds(active, rounds, {
    async measure(server, running) {
      const entry = results.find((result) => result.server === server.id);
      const { data, problems, deep } = await prepare(running.url);
      entry.deepQuery = deep;
      if (data && reference && data !== reference.data) problems.push(`its data differs from ${reference.id}'s`);
      if (problems.length) throw new Error(`does not answer the query as expected: ${problems.join('; ')}`);
      reference ??= { id: server.id, data };
      await load(autocannon, running.url, warmup);
      const cpuBefore = cpuMs(running.child.pid);
      const sample = await load(autocannon, running.url, seconds);
      const cpuAfter = cpuMs(running.child.pid);
      sample.cpuUsPerRequest =
        cpuBefore === null || cpuAfter === null || !sample.total ? null : ((cpuAfter - cpuBefore) * 1000) / sample.total;
      samples.get(server.id).push(sample);
      if (sample.errors || sample.timeouts || sample.non2xx)
        log(`   ! ${server.id}: ${sample.non2xx} non-2xx, ${sample.errors} errors, ${sample.timeouts} timeouts`);
    },
    failed(server, error) {
      results.find((result) => result.server === server.id).failure = error.message;
      ok = false;
      log(`   ✗ ${server.id}: ${error.message}`);
    },
  });
  for (const entry of results) {
    const taken = samples.get(entry.server) ?? [];
    if (entry.failure || !taken.length) continue;
    Object.assign(entry, medians(taken), {
      samples: taken,
      rpsRange: [Math.min(...taken.map((sample) => sample.rps)), Math.max(...taken.map((sample) => sample.rps))],
    });
  }

  const of = (id) => results.find((entry) => entry.server === id);
  const ours = of('ours');
  /** Ours over `peer`: req/s, and the peer's CPU per request over ours (both > 1 when ours is faster). */
  const against = (peer) => ({
    rps: ours?.rps && peer?.rps ? ours.rps / peer.rps : null,
    cpu: ours?.cpuUsPerRequest && peer?.cpuUsPerRequest ? peer.cpuUsPerRequest / ours.cpuUsPerRequest : null,
  });
  const mercurius = against(of('mercurius'));
  const yoga = against(of('yoga'));
  const measured = (entry) => entry.rps != null;
  const rows = results.map((entry) => [
    entry.label,
    measured(entry) ? int(Math.round(entry.rps)) : entry.skipped ? 'not run' : '✗',
    measured(entry) && entry.samples.length > 1 ? `${int(Math.round(entry.rpsRange[0]))} – ${int(Math.round(entry.rpsRange[1]))}` : '—',
    measured(entry) ? `${entry.p50} ms` : '—',
    measured(entry) ? `${entry.p99} ms` : '—',
    measured(entry) ? int(entry.total) : '—',
    entry.cpuUsPerRequest == null ? '—' : `${entry.cpuUsPerRequest.toFixed(0)} µs`,
    entry.deepQuery ?? '—',
  ]);
  log('');
  log(
    table(['server', 'req/s', 'min – max', 'p50', 'p99', 'requests', 'server CPU/req', '13-level query'], rows)
      .split('\n')
      .map((line) => `   ${line}`)
      .join('\n'),
  );
  const verdict = mercurius.rps == null ? 'not measured' : mercurius.rps >= TARGET ? 'within' : 'under';
  log(
    `   ours / mercurius = ${fmtRatio(mercurius.rps)} req/s, ${fmtRatio(mercurius.cpu)} by CPU per request (its CPU/req over ours) (target ≥ ${TARGET}×: ${verdict})`,
  );
  log(`   ours / yoga = ${fmtRatio(yoga.rps)} req/s, ${fmtRatio(yoga.cpu)} by CPU per request`);
  const figure = (entry) =>
    entry && measured(entry) ? `${int(Math.round(entry.rps))} req/s, ${entry.cpuUsPerRequest?.toFixed(0)} µs/req` : undefined;
  recordTarget({
    section: 'graphql-server',
    id: 'graphql',
    what: 'GraphQL nested query req/s (limits on)',
    ours: figure(ours),
    peer: `Mercurius + graphql-jit ${figure(of('mercurius')) ?? ''}`.trim(),
    ratio: mercurius.rps,
    cpuRatio: mercurius.cpu,
  });
  recordTarget({
    section: 'graphql-server',
    id: 'graphql',
    what: 'GraphQL nested query req/s, vs graphql-yoga (information)',
    ours: figure(ours),
    peer: `graphql-yoga ${figure(of('yoga')) ?? ''}`.trim(),
    ratio: yoga.rps,
    cpuRatio: yoga.cpu,
    target: null,
  });
  return {
    ok,
    query: 'ProjectTasks',
    connections: CONNECTIONS,
    seconds,
    warmup,
    rounds,
    results,
    ratio: { mercurius, yoga, target: TARGET },
  };
}
