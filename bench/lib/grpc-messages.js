// Section `grpc-messages`: encode and decode throughput of our generated messages against
// protobufjs static code, on the same values (bench/lib/grpc-data.js).
//
// - ours: the `_pb.ts` files codegen writes for schemas/proto/acme/tasks/v1/tasks.proto and
//   bench/fixtures/grpc/bench/v1/task_list.proto (a `TaskList { repeated Task tasks }` wrapper for the
//   100-task case), through the CLI from a config in bench/.work/grpc-messages/; transpiled to JS
//   (bench/lib/grpc-transpile.js) so that the import cost below measures the code and not the
//   transpiler; runtime @bufbuild/protobuf
//   (toBinary/fromBinary, toJsonString/fromJsonString).
// - pbjs: `pbjs -t static-module -w es6` from protobufjs-cli on the same two files, with protoc's
//   include/ for the well-known types; runtime protobufjs/minimal (encode().finish()/decode(), and
//   JSON.stringify(message) / fromObject(JSON.parse(text)) for JSON).
// The measuring happens in a fresh child (bench/lib/grpc-messages-run.js), which checks both
// directions first: each side decodes the other's bytes to the same value.
import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { transpileTree } from './grpc-transpile.js';
import { childEnv, tail, timed } from './proc.js';
import { bytes, fmtRatio, median, ms, table } from './stats.js';
import { oursBuilt, ROOT, versionOf, WORK } from './tools.js';

const TARGET = 1.0;
const DIR = join(WORK, 'grpc-messages');
const OURS_OUT = join(DIR, 'ours');
const OURS_JS = join(DIR, 'ours-js');
const PBJS_OUT = join(DIR, 'pbjs', 'tasks.js');
const PROTOS = ['schemas/proto/acme/tasks/v1/tasks.proto', 'bench/fixtures/grpc/bench/v1/task_list.proto'];
const INCLUDES = ['schemas/proto', 'bench/fixtures/grpc'];
const IMPORT_RUNS = 5;

const OPS = [
  { op: 'encode', label: 'binary encode' },
  { op: 'decode', label: 'binary decode' },
  { op: 'json-encode', label: 'JSON encode' },
  { op: 'json-decode', label: 'JSON decode' },
];

function writeConfig() {
  mkdirSync(DIR, { recursive: true });
  const rel = (path) => relative(DIR, join(ROOT, path));
  const path = join(DIR, 'codegen.config.yaml');
  writeFileSync(
    path,
    `# Written by bench/lib/grpc-messages.js: message types for the tasks example and the TaskList wrapper.
apis:
  - name: tasks
    input: [${PROTOS.map(rel).join(', ')}]
    output: ours
    emit: [types]
    options:
      includePaths: [${INCLUDES.map(rel).join(', ')}]
`,
  );
  return path;
}

/** Generates both sides; returns the commands as run, or throws with the failing tool's output. */
function generate(log) {
  const config = writeConfig();
  rmSync(OURS_OUT, { recursive: true, force: true });
  rmSync(dirname(PBJS_OUT), { recursive: true, force: true });
  mkdirSync(dirname(PBJS_OUT), { recursive: true });
  const oursArgs = [join(ROOT, 'bin/codegen.js'), '--config', config, '--quiet'];
  const pbjsArgs = [
    join(ROOT, 'node_modules/protobufjs-cli/bin/pbjs'),
    '-t',
    'static-module',
    '-w',
    'es6',
    '-p',
    'node_modules/protoc/include',
    ...INCLUDES.flatMap((path) => ['-p', path]),
    '-o',
    relative(ROOT, PBJS_OUT),
    ...PROTOS,
  ];
  for (const [id, args] of [
    ['ours', oursArgs],
    ['pbjs', pbjsArgs],
  ]) {
    const run = timed(process.execPath, args, { cwd: ROOT });
    if (!run.ok) throw new Error(`${id} generation failed (${run.error}):\n${tail(`${run.stdout}\n${run.stderr}`)}`);
    log(`   ${id}: node ${args.map((arg) => (arg.startsWith(ROOT) ? relative(ROOT, arg) : arg)).join(' ')}  (${ms(run.ms)})`);
  }
  transpileTree(OURS_OUT, OURS_JS);
}

function sizeOf(folder, suffix) {
  let total = 0;
  const walk = (path) => {
    for (const entry of readdirSync(path, { withFileTypes: true })) {
      const child = join(path, entry.name);
      if (entry.isDirectory()) walk(child);
      else if (entry.name.endsWith(suffix)) total += statSync(child).size;
    }
  };
  walk(folder);
  return total;
}

/**
 * Import cost in a fresh process (median of IMPORT_RUNS): `import()` of the generated module with
 * its runtime, then the first encode + decode of a full Task (protobuf-es builds its reflection
 * lazily, protobufjs has it generated). Node's own start-up is not counted.
 */
function importCost() {
  const taskData = pathToFileURL(join(import.meta.dirname, 'grpc-data.js')).href;
  const scripts = {
    ours: `
      const t0 = performance.now();
      const m = await import(${JSON.stringify(pathToFileURL(join(OURS_JS, 'acme/tasks/v1/tasks_pb.js')).href)});
      const pb = await import('@bufbuild/protobuf');
      const t1 = performance.now();
      const { taskRecord } = await import(${JSON.stringify(taskData)});
      const { dueWithin, ...rest } = taskRecord(0);
      const t2 = performance.now();
      const task = pb.create(m.TaskSchema, { ...rest, due: { case: 'dueWithin', value: dueWithin } });
      pb.fromBinary(m.TaskSchema, pb.toBinary(m.TaskSchema, task));
      const t3 = performance.now();
      console.log(JSON.stringify({ importMs: t1 - t0, firstUseMs: t3 - t2 }));`,
    pbjs: `
      const t0 = performance.now();
      const m = await import(${JSON.stringify(pathToFileURL(PBJS_OUT).href)});
      const t1 = performance.now();
      const { taskRecord, taskRecordLoose } = await import(${JSON.stringify(taskData)});
      const record = taskRecordLoose(taskRecord(0));
      const t2 = performance.now();
      const Task = m.acme.tasks.v1.Task;
      Task.decode(Task.encode(Task.fromObject(record)).finish());
      const t3 = performance.now();
      console.log(JSON.stringify({ importMs: t1 - t0, firstUseMs: t3 - t2 }));`,
  };
  const out = {};
  for (const [id, script] of Object.entries(scripts)) {
    const samples = [];
    for (let i = 0; i < IMPORT_RUNS; i++) {
      const run = timed(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, env: childEnv() });
      if (!run.ok) throw new Error(`import cost (${id}) failed: ${tail(run.stderr)}`);
      samples.push(JSON.parse(run.stdout.trim()));
    }
    out[id] = { importMs: median(samples.map((s) => s.importMs)), firstUseMs: median(samples.map((s) => s.firstUseMs)) };
  }
  return out;
}

const rate = (value) =>
  value >= 1e6 ? `${(value / 1e6).toFixed(2)} M/s` : value >= 1e3 ? `${(value / 1e3).toFixed(1)} k/s` : `${value.toFixed(0)}/s`;

/**
 * @param {{ log: (line: string) => void, quick: boolean }} options
 */
export async function benchGrpcMessages({ log, quick }) {
  log(
    `\n## 7. gRPC messages: generated protobuf-es v2 code (@bufbuild/protobuf ${versionOf('@bufbuild/protobuf')}) vs protobufjs ${versionOf('protobufjs')} static code (pbjs ${versionOf('protobufjs-cli')})`,
  );
  if (!oursBuilt()) {
    log('   ✗ dist/bin/cli.js is missing: `npm run build` has not produced the CLI');
    return { ok: false, failure: 'CLI not built' };
  }
  try {
    generate(log);
  } catch (error) {
    log(`   ✗ ${error.message}`);
    return { ok: false, failure: error.message };
  }
  const sizes = { ours: { ts: sizeOf(OURS_OUT, '.ts'), js: sizeOf(OURS_JS, '.js') }, pbjs: { js: statSync(PBJS_OUT).size } };
  const rounds = quick ? 3 : 7;
  const roundMs = quick ? 50 : 150;
  const warmupMs = quick ? 100 : 300;
  log(
    `   timing: per subject a batch of ~${roundMs} ms of CPU time (process.cpuUsage), ${warmupMs} ms warm-up, ${rounds} rounds in rotating order, median; rates are per CPU second (child: node bench/lib/grpc-messages-run.js)`,
  );
  const run = timed(process.execPath, [join(import.meta.dirname, 'grpc-messages-run.js')], {
    cwd: ROOT,
    env: childEnv({
      extra: {
        BENCH_OURS: OURS_JS,
        BENCH_PBJS: PBJS_OUT,
        BENCH_ROUNDS: String(rounds),
        BENCH_ROUND_MS: String(roundMs),
        BENCH_WARMUP_MS: String(warmupMs),
      },
    }),
    timeoutMs: 10 * 60_000,
  });
  if (!run.ok) {
    log(`   ✗ the measuring child failed (${run.error}):\n${tail(run.stderr, 12)}`);
    return { ok: false, failure: run.error };
  }
  const measured = JSON.parse(run.stdout.trim().split('\n').pop());
  let ok = true;
  for (const [id, check] of Object.entries(measured.checks)) {
    const facts = `binary ${check.binaryBytes.ours} B (${check.sameBytes ? 'byte-identical to pbjs' : `pbjs ${check.binaryBytes.pbjs} B, different bytes`}), JSON ${check.jsonBytes.ours} B (pbjs ${check.jsonBytes.pbjs} B)`;
    if (check.problems.length) {
      ok = false;
      log(`   ✗ ${check.label}: ${check.problems.join('; ')} — not timed`);
    } else log(`   ✓ ${check.label}: each side decodes the other's bytes to equal values; ${facts}`);
  }

  const find = (testCase, op, impl) => measured.results.find((r) => r.case === testCase && r.op === op && r.impl === impl);
  const rows = [];
  const ratios = [];
  for (const [caseId, check] of Object.entries(measured.checks)) {
    for (const { op, label } of OPS) {
      const mine = find(caseId, op, 'ours');
      const theirs = find(caseId, op, 'pbjs');
      if (!mine || !theirs) continue;
      const value = mine.opsPerSec / theirs.opsPerSec;
      ratios.push({ case: caseId, op, ratio: value });
      rows.push([
        check.label,
        label,
        rate(mine.opsPerSec),
        `${mine.mbPerSec.toFixed(1)} MB/s`,
        rate(theirs.opsPerSec),
        `${theirs.mbPerSec.toFixed(1)} MB/s`,
        fmtRatio(value),
      ]);
      const variant = find(caseId, op, 'ours-reflection');
      if (variant)
        rows.push([
          check.label,
          `${label}, protobuf-es reflection`,
          rate(variant.opsPerSec),
          `${variant.mbPerSec.toFixed(1)} MB/s`,
          '',
          '',
          fmtRatio(variant.opsPerSec / theirs.opsPerSec),
        ]);
    }
  }
  log('');
  log(
    table(['message', 'operation', 'ours', 'ours MB/s', 'pbjs', 'pbjs MB/s', 'ours/pbjs'], rows)
      .split('\n')
      .map((line) => `   ${line}`)
      .join('\n'),
  );
  const binary = ratios.filter((r) => r.op === 'encode' || r.op === 'decode').map((r) => r.ratio);
  const low = binary.length ? Math.min(...binary) : null;
  const json = ratios.filter((r) => r.op === 'json-encode' || r.op === 'json-decode').map((r) => r.ratio);
  const jsonLow = json.length ? Math.min(...json) : null;
  const verdict = (value) => (value == null ? 'not measured' : value >= TARGET ? 'within' : 'under');
  log(
    `   binary ours/pbjs from ${fmtRatio(low)} to ${fmtRatio(binary.length ? Math.max(...binary) : null)} (target ≥ ${TARGET}×: ${verdict(low)}); JSON from ${fmtRatio(jsonLow)} to ${fmtRatio(json.length ? Math.max(...json) : null)} (target ≥ ${TARGET}×: ${verdict(jsonLow)}; pbjs's JSON is not proto3 JSON — Timestamp/Duration as {seconds, nanos} objects — ours is)`,
  );

  let imports = null;
  try {
    imports = importCost();
    log(
      `   import cost (fresh process, median of ${IMPORT_RUNS}): ours ${imports.ours.importMs.toFixed(1)} ms + first Task encode/decode ${imports.ours.firstUseMs.toFixed(1)} ms; pbjs ${imports.pbjs.importMs.toFixed(1)} ms + ${imports.pbjs.firstUseMs.toFixed(1)} ms`,
    );
  } catch (error) {
    log(`   ! ${error.message}`);
  }
  log(
    `   generated code: ours ${bytes(sizes.ours.ts)} of TypeScript (${bytes(sizes.ours.js)} as JS, types erased), pbjs ${bytes(sizes.pbjs.js)} of JS; runtimes not counted (no bundler installed)`,
  );
  return {
    ok,
    checks: measured.checks,
    results: measured.results,
    rounds,
    roundMs,
    warmupMs,
    imports,
    sizes,
    ratio: { binaryMin: low, jsonMin: jsonLow, target: TARGET },
  };
}
