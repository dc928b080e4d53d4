#!/usr/bin/env node
// `npm run bench` (= `npm run build && node bench/run.js`): codegen against its peers.
//   1. generation  full generation for GitHub's REST description (ours: types + validators + client + server),
//                  vs openapi-typescript, @hey-api/openapi-ts
//   2. tsc         tsc --noEmit (TypeScript 5.9 and 7) on the generated code, ours vs openapi-typescript
//   3. validators  generated validators vs ajv (delegated to bench/validators.*, when present)
//   4. rest-server the generated REST server (the example) vs Fastify 5, req/s with autocannon
//   5. graphql-generation  GitHub's GraphQL schema, ours vs @graphql-codegen/cli (typescript + typescript-resolvers)
//   6. graphql-server      the generated GraphQL server vs Mercurius + graphql-jit and graphql-yoga, same SDL and resolvers, req/s with autocannon
//   7. grpc-messages       encode/decode throughput of the generated protobuf-es messages vs protobufjs static code (pbjs)
//   8. grpc-server         calls/s of the generated gRPC server vs plain @grpc/grpc-js (unary, server streaming), h2load as client
//   9. ws-server           messages/s through our WebSocket runtime (validate + dispatch + echo) vs a raw `ws` echo server
//  10. sse-server          events/s delivered by our SSE runtime (publish fan-out) vs a hand-written res.write loop
//  11. worst-case          per validator keyword, the blocking time of the worst request within default limits
//  12. bundle-size         one operation per style bundled for browsers with esbuild, vs hey-api, openapi-fetch, graphql-request, connect-web
//  13. lint-peers          codegen lint vs Spectral (spectral:oas) and Redocly (recommended) on the corpus's OpenAPI documents
//  14. watch               `codegen --watch` on GitHub's REST description: one-schema edits, edit-to-written latency vs a full run
//  15. pubsub              events/s and latency from one publisher to 1,000 WebSocket subscribers: 3 instances on Redis vs 1 in memory
// Every figure is printed as measured, with ratios from the same run and the load average before and
// after each section; targets are information, not assertions, and the run closes with one table of
// them (bench/lib/summary.js). The exit code is 1 when something could not be run at all or a
// section threw; a missed target never changes it.
// Options: see --help.
import { arch, cpus, loadavg, platform, release, totalmem } from 'node:os';
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { benchGeneration } from './lib/generation.js';
import { hasGnuTime } from './lib/proc.js';
import { benchTypecheck } from './lib/typecheck.js';
import { ROOT, WORK, versionOf } from './lib/tools.js';
import { benchValidators } from './lib/validators.js';
import { benchRestServer } from './lib/rest-server.js';
import { benchGraphQLGeneration } from './lib/graphql-generation.js';
import { benchGraphQLServer } from './lib/graphql-server.js';
import { benchGrpcMessages } from './lib/grpc-messages.js';
import { benchGrpcServer } from './lib/grpc-server.js';
import { benchWsServer } from './lib/ws-server.js';
import { benchSseServer } from './lib/sse-server.js';
import { benchWorstCase } from './lib/worst-case.js';
import { benchBundleSize } from './lib/bundle-size.js';
import { benchLintPeers } from './lib/lint-peers.js';
import { benchWatch } from './lib/watch.js';
import { benchPubSub } from './lib/pubsub.js';
import { printSummary, summaryRows } from './lib/summary.js';

/**
 * Every section, in the order they run: `key` names its entry in results.json, `run` measures
 * (given the options and the results so far) and returns its result, `failed` tells from that
 * result whether something could not be run at all. A section registers its closing-table rows
 * with `recordTarget` (bench/lib/summary.js); one that throws fails the run (exit code 1).
 * One line per section: add yours here.
 */
const SECTION_LIST = [
  {
    id: 'generation',
    key: 'generation',
    run: (o) => benchGeneration({ runs: o.runs, heyRuns: o.heyRuns, warmup: o.warmup, heyWarmup: o.heyWarmup, tools: o.tools, log: o.log }),
    failed: (r) => Object.values(r.results).some((entry) => entry.failure),
  },
  {
    id: 'tsc',
    key: 'tsc',
    run: (o, results) =>
      benchTypecheck({
        runs: o.tscRuns,
        warmup: o.tscWarmup,
        subjects: o.tsc,
        log: o.log,
        regenerate: o.regenerate,
        generation: results.generation,
      }),
    failed: (r) => r.results.some((entry) => entry.failure),
  },
  { id: 'validators', key: 'validators', run: (o) => benchValidators({ log: o.log, quick: o.quick, passArgs: o.passArgs }) },
  { id: 'rest-server', key: 'restServer', run: (o) => benchRestServer({ log: o.log, quick: o.quick }) },
  {
    id: 'graphql-generation',
    key: 'graphqlGeneration',
    run: (o) => benchGraphQLGeneration({ runs: o.runs, warmup: o.warmup, log: o.log }),
    failed: (r) => Object.values(r.results).some((entry) => entry.failure),
  },
  { id: 'graphql-server', key: 'graphqlServer', run: (o) => benchGraphQLServer({ log: o.log, quick: o.quick }) },
  { id: 'grpc-messages', key: 'grpcMessages', run: (o) => benchGrpcMessages({ log: o.log, quick: o.quick }) },
  { id: 'grpc-server', key: 'grpcServer', run: (o) => benchGrpcServer({ log: o.log, quick: o.quick }) },
  { id: 'ws-server', key: 'wsServer', run: (o) => benchWsServer({ log: o.log, quick: o.quick }) },
  { id: 'sse-server', key: 'sseServer', run: (o) => benchSseServer({ log: o.log, quick: o.quick }) },
  { id: 'worst-case', key: 'worstCase', run: (o) => benchWorstCase({ log: o.log, quick: o.quick }) },
  { id: 'bundle-size', key: 'bundleSize', run: (o) => benchBundleSize({ log: o.log, quick: o.quick }) },
  { id: 'lint-peers', key: 'lintPeers', run: (o) => benchLintPeers({ log: o.log }) },
  { id: 'watch', key: 'watch', run: (o) => benchWatch({ log: o.log, quick: o.quick }) },
  { id: 'pubsub', key: 'pubsub', run: (o) => benchPubSub({ log: o.log, quick: o.quick }) },
];
const SECTIONS = SECTION_LIST.map((section) => section.id);
/** Sections `--quick` leaves out unless `--only` names them. */
const NOT_QUICK = ['lint-peers'];
const GENERATORS = ['ours', 'ours-types', 'openapi-typescript', 'hey-api'];
const TSC_SUBJECTS = ['ours', 'ours-types', 'openapi-typescript', 'hey-api'];

const HELP = `Usage: node bench/run.js [options] [-- options for bench/validators.*]

  --only=<sections>     comma-separated subset of: ${SECTIONS.join(', ')} (default: all)
  --skip=<sections>     sections to leave out
  --tools=<ids>         generators for section 1 (default: ours,ours-types,openapi-typescript,hey-api)
                        ids: ${GENERATORS.join(', ')}
  --tsc=<ids>           what section 2 type-checks (default: ours,ours-types,openapi-typescript;
                        add hey-api for @hey-api/openapi-ts's output, ~30 s more)
  --runs=<n>            measured generation runs per tool (default 5)
  --hey-api-runs=<n>    measured runs for @hey-api/openapi-ts, which takes ~30 s each (default 3)
  --warmup=<n>          warm-up runs per tool before measuring (default 1)
  --hey-api-warmup=<n>  warm-up runs for @hey-api/openapi-ts (default 0: the median of its 3 runs
                        already discards one cold start, and the spec is cached by the other tools)
  --tsc-runs=<n>        measured runs per tsc configuration (default 3)
  --tsc-warmup=<n>      warm-up runs per tsc configuration (default 0: the outputs were just written,
                        so they are in the page cache, and the median of 3 discards one cold start)
  --regenerate          section 2 alone: regenerate outputs instead of reusing bench/.work
  --quick               1 run, no warm-up, hey-api left out (a smoke test of the harness, not figures)
  --json=<file>         also write all results as JSON (always written to bench/.work/results.json)
  -h, --help

GraphQL sections:
  graphql-generation    GitHub's schema.graphql (@octokit/graphql-schema), ours vs @graphql-codegen/cli
                        with typescript + typescript-resolvers; takes --runs and --warmup
  graphql-server        out/graphql/server.ts (limits on) vs Mercurius + graphql-jit and graphql-yoga, same SDL and resolvers,
                        req/s with autocannon; --quick shortens it; prints "ours: not generated yet"
                        while out/graphql/server.ts is missing

gRPC sections:
  grpc-messages         schemas/proto/acme/tasks/v1/tasks.proto (+ bench/fixtures/grpc TaskList), our
                        generated _pb.ts (@bufbuild/protobuf) vs pbjs static-module code (protobufjs):
                        binary and JSON encode/decode, ops/s and MB/s; --quick: 3 short rounds
  grpc-server           the generated server (createGrpcServer) vs a plain @grpc/grpc-js server, unary
                        GetTask and server-streaming ListTasks, h2load (nghttp2-client) with 50 calls
                        in flight; 3 rounds, --quick 1 shorter one; prints "ours: not generated yet" while codegen writes
                        no server.ts for the example

Realtime sections (the runtime modules of runtime/, copied and transpiled):
  ws-server             createWebSocketEndpoint (runtime/ws-*.ts) with a validator and an echo handler vs a
                        raw ws echo server; 50 ws clients in the harness, 32 messages in flight each,
                        3 s warm-up + 10 s; msg/s and server CPU per message; --quick shortens it
  sse-server            createSseEndpoint (runtime/sse-*.ts, in-memory event log) publishing to 100 readers
                        vs a hand-written res.write loop to the same readers (node:http clients in the
                        harness); delivered events/s and server CPU per delivered event; --quick shortens it

Scale-out section:
  pubsub                one publisher to 1,000 subscribers: 3 instances of the generated realtime server on one
                        redis-server (RedisFanOut) vs 1 instance in memory (MemoryFanOut); subscribers are ws
                        clients in the harness, then typed Topic iterators in the instances; latency p50/p99 at
                        a fixed 20 lines/s, delivered events/s of a burst, every delivery counted; 3 rounds of
                        10 s + a 1,000-line burst, --quick 1 round of 1 s + 100 lines; skipped without redis-server

Client sections:
  bundle-size           one call per style (REST getTask, with and without response validation; GraphQL
                        one query, one subscription; gRPC-Web one unary) bundled from out/ with esbuild's
                        JS API (bundle, minify, esm, browser), minified and gzipped bytes, vs hey-api
                        (generated into bench/.work), openapi-fetch, graphql-request, graphql-ws and
                        connect-web with the same _pb.ts; a few seconds, the same with --quick

Lint section:
  lint-peers            codegen lint, Spectral (spectral:oas) and Redocly (recommended) over the OpenAPI
                        documents of ../shared/corpus (bench/lint-peers.js): findings, time, what only one
                        tool finds; 20-60 s depending on load, so --quick runs it only when --only names it

Watch section:
  watch                 codegen --watch on a copy of api.github.com.json: N one-schema edits (a description
                        changed, or a property added), time from the write to the run's summary (files in
                        place), median/p90, watch CPU per edit, files rewritten, beside a full run;
                        --quick: 3 edits and 1 full run`;

function parseArgs(argv) {
  const dashdash = argv.indexOf('--');
  const own = dashdash === -1 ? argv : argv.slice(0, dashdash);
  const passArgs = dashdash === -1 ? [] : argv.slice(dashdash + 1);
  const flags = new Map();
  for (const arg of own) {
    const match = /^--?([a-z-]+)(?:=(.*))?$/.exec(arg);
    if (!match) throw new Error(`unexpected argument ${arg}`);
    flags.set(match[1], match[2] ?? true);
  }
  const known = [
    'only',
    'skip',
    'tools',
    'tsc',
    'runs',
    'hey-api-runs',
    'warmup',
    'hey-api-warmup',
    'tsc-runs',
    'tsc-warmup',
    'regenerate',
    'quick',
    'json',
    'h',
    'help',
  ];
  for (const key of flags.keys()) if (!known.includes(key)) throw new Error(`unknown option --${key}\n\n${HELP}`);
  const list = (key, allowed, fallback) => {
    const value = flags.get(key);
    if (value === undefined) return fallback;
    if (value === true) throw new Error(`--${key} needs a value, e.g. --${key}=${allowed[0]}`);
    const items = value
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean);
    const bad = items.filter((item) => !allowed.includes(item));
    if (bad.length) throw new Error(`--${key}: unknown ${bad.join(', ')}; expected ${allowed.join(', ')}`);
    return items;
  };
  const count = (key, fallback, min = 0) => {
    const value = flags.get(key);
    if (value === undefined) return fallback;
    const n = Number(value);
    if (!Number.isInteger(n) || n < min) throw new Error(`--${key} expects an integer ≥ ${min}`);
    return n;
  };
  const quick = flags.has('quick');
  const only = list('only', SECTIONS, quick ? SECTIONS.filter((section) => !NOT_QUICK.includes(section)) : SECTIONS);
  const skip = list('skip', SECTIONS, []);
  return {
    help: flags.has('h') || flags.has('help'),
    sections: only.filter((section) => !skip.includes(section)),
    tools: list('tools', GENERATORS, quick ? GENERATORS.filter((id) => id !== 'hey-api') : GENERATORS),
    tsc: list(
      'tsc',
      TSC_SUBJECTS,
      TSC_SUBJECTS.filter((id) => id !== 'hey-api'),
    ),
    runs: count('runs', quick ? 1 : 5, 1),
    heyRuns: count('hey-api-runs', quick ? 1 : 3, 1),
    warmup: count('warmup', quick ? 0 : 1),
    heyWarmup: count('hey-api-warmup', 0),
    tscRuns: count('tsc-runs', quick ? 1 : 3, 1),
    tscWarmup: count('tsc-warmup', 0),
    regenerate: flags.has('regenerate'),
    quick,
    json: typeof flags.get('json') === 'string' ? flags.get('json') : null,
    passArgs,
  };
}

/** Which code was measured: the commit, and whether the generator's sources differ from it. */
function revision() {
  const git = (...args) => spawnSync('git', args, { cwd: ROOT, encoding: 'utf8' });
  const head = git('rev-parse', '--short', 'HEAD');
  if (head.status !== 0) return null;
  const dirty = git('status', '--porcelain', '--', 'bin', 'generators', 'templates').stdout.trim().split('\n').filter(Boolean).length;
  return { commit: head.stdout.trim(), uncommittedGeneratorFiles: dirty };
}

function machine() {
  const cpu = cpus();
  return {
    date: new Date().toISOString(),
    node: process.version,
    platform: `${platform()} ${release()} ${arch()}`,
    cpus: cpu.length,
    cpuModel: cpu[0]?.model?.trim() ?? 'unknown',
    memoryGb: Math.round((totalmem() / 1024 ** 3) * 10) / 10,
    revision: revision(),
    loadAtStart: loadavg().map((value) => Math.round(value * 100) / 100),
    versions: {
      typescript: versionOf('typescript'),
      typescript7: versionOf('typescript7'),
      'openapi-typescript': versionOf('openapi-typescript'),
      '@hey-api/openapi-ts': versionOf('@hey-api/openapi-ts'),
      '@octokit/openapi': versionOf('@octokit/openapi'),
      ajv: versionOf('ajv'),
    },
  };
}

async function main() {
  let options;
  try {
    options = parseArgs(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`bench: ${error.message}\n`);
    return 2;
  }
  if (options.help) {
    process.stdout.write(`${HELP}\n`);
    return 0;
  }
  mkdirSync(WORK, { recursive: true });
  const log = (line) => process.stdout.write(`${line}\n`);
  const info = machine();
  log(`# codegen benchmark — ${info.date}`);
  log(`node ${info.node} · ${info.platform} · ${info.cpus} × ${info.cpuModel} · ${info.memoryGb} GB`);
  if (info.revision)
    log(
      `codegen at ${info.revision.commit}${info.revision.uncommittedGeneratorFiles ? ` + ${info.revision.uncommittedGeneratorFiles} uncommitted file(s) under bin/ generators/ templates/` : ' (generator sources clean)'}`,
    );
  log(
    `load average at start (1/5/15 min): ${info.loadAtStart.join(' / ')}${info.loadAtStart[0] > info.cpus * 0.25 ? '  ! the machine is busy: wall times will be noisy, compare the CPU columns' : ''}`,
  );
  log(
    `sections: ${options.sections.join(', ')}${options.quick ? ' (--quick: smoke test, not figures)' : ''}${hasGnuTime ? '' : ' · /usr/bin/time missing: no peak RSS'}`,
  );

  const started = performance.now();
  const results = { machine: info, options: { ...options, passArgs: undefined }, sections: {} };
  const ran = [];
  let failed = false;
  for (const section of SECTION_LIST) {
    if (!options.sections.includes(section.id)) continue;
    const outcome = await runSection(section, { ...options, log }, results, log);
    results.sections[section.id] = outcome.timing;
    ran.push({ section: section.id, result: outcome.result, error: outcome.error });
    if (outcome.error !== undefined) failed = true;
    else {
      results[section.key] = outcome.result;
      failed ||= outcome.failed;
    }
  }
  printSummary(log, { ran });
  results.summary = summaryRows();
  results.totalMs = performance.now() - started;
  results.loadAtEnd = loadavg().map((value) => Math.round(value * 100) / 100);

  const json = `${JSON.stringify(results, null, 2)}\n`;
  writeFileSync(join(WORK, 'results.json'), json);
  if (options.json) writeFileSync(options.json, json);
  log(`\nload average at end: ${results.loadAtEnd.join(' / ')}`);
  log(
    `done in ${(results.totalMs / 1000).toFixed(0)} s · results: ${relative(ROOT, join(WORK, 'results.json'))}${options.json ? `, ${options.json}` : ''}`,
  );
  if (failed) log('some measurements could not be taken, or a section threw (✗ above): exit code 1');
  return failed ? 1 : 0;
}

const loadNow = () => loadavg().map((value) => Math.round(value * 100) / 100);

/**
 * Runs one section between two load-average lines. A section that throws is a harness failure:
 * it is reported with its stack and the run goes on to the next section, then exits 1.
 */
async function runSection(section, options, results, log) {
  const loadBefore = loadNow();
  const started = performance.now();
  let result;
  let error;
  try {
    result = await section.run(options, results);
  } catch (thrown) {
    error = thrown;
    log(`\n   ✗ section ${section.id} threw: ${thrown?.stack ?? thrown}`);
  }
  const loadAfter = loadNow();
  const ms = performance.now() - started;
  log(
    `   [${section.id}: ${(ms / 1000).toFixed(1)} s; load average (1/5/15 min) before ${loadBefore.join(' / ')}, after ${loadAfter.join(' / ')}${Math.max(loadBefore[0], loadAfter[0]) > cpus().length * 0.25 ? ' — busy machine: compare the CPU columns' : ''}]`,
  );
  const failed = error === undefined && (section.failed ? section.failed(result) : result?.ok === false);
  return { result, error, failed, timing: { ms, loadBefore, loadAfter, threw: error === undefined ? undefined : String(error) } };
}

process.exitCode = await main();
