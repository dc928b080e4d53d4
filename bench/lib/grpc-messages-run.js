// The measuring child of the `grpc-messages` section (bench/lib/grpc-messages.js starts it in a
// fresh process and reads the JSON it prints as its only output line).
//
// Encodes and decodes the same values with our generated messages (protobuf-es v2 `_pb` files, the
// `_codec` files' binary codecs and the `_json` files' JSON codecs, transpiled to JS by the section;
// runtime @bufbuild/protobuf, whose reflection `toBinary`/`fromBinary`/`toJsonString`/`fromJsonString`
// is timed too, for information) and with protobufjs static code
// from pbjs. Before anything is timed, each side's bytes are decoded by the other and compared.
// Timing: every subject (case × operation × implementation) is calibrated to a batch of about
// ROUND_MS of CPU time (process.cpuUsage: a busy machine's waits for a core do not count), warmed
// up, then measured ROUNDS times in a rotating order so that drift on a busy
// machine hits every subject alike; the median ops/s is reported.
//
//   BENCH_OURS=<dir of the transpiled _pb.js> BENCH_PBJS=<pbjs module> node bench/lib/grpc-messages-run.js
import { deepStrictEqual } from 'node:assert/strict';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { create, equals, fromBinary, fromJsonString, toBinary, toJsonString } from '@bufbuild/protobuf';
import { LIST_LENGTH, SMALL_REQUEST, taskRecord, taskRecordLoose } from './grpc-data.js';
import { median } from './stats.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const ROUND_MS = Number(process.env.BENCH_ROUND_MS ?? 150);
const WARMUP_MS = Number(process.env.BENCH_WARMUP_MS ?? 300);

const ours = await import(pathToFileURL(join(process.env.BENCH_OURS, 'acme/tasks/v1/tasks_pb.js')).href);
const oursList = await import(pathToFileURL(join(process.env.BENCH_OURS, 'bench/v1/task_list_pb.js')).href);
const codecs = await import(pathToFileURL(join(process.env.BENCH_OURS, 'acme/tasks/v1/tasks_codec.js')).href);
const listCodecs = await import(pathToFileURL(join(process.env.BENCH_OURS, 'bench/v1/task_list_codec.js')).href);
const jsonCodecs = await import(pathToFileURL(join(process.env.BENCH_OURS, 'acme/tasks/v1/tasks_json.js')).href);
const listJsonCodecs = await import(pathToFileURL(join(process.env.BENCH_OURS, 'bench/v1/task_list_json.js')).href);
const pbjs = await import(pathToFileURL(process.env.BENCH_PBJS).href);
const P = { ...pbjs.acme.tasks.v1, TaskList: pbjs.bench.v1.TaskList };

/** protobuf-es init for a task record: the oneof is `{ case, value }`. */
function oursTask(record) {
  const { dueWithin, ...rest } = record;
  return create(ours.TaskSchema, { ...rest, due: { case: 'dueWithin', value: dueWithin } });
}

const records = Array.from({ length: LIST_LENGTH }, (_, index) => taskRecord(index));
const CASES = [
  {
    id: 'small',
    label: 'GetTaskRequest',
    ours: {
      schema: ours.GetTaskRequestSchema,
      codec: codecs.GetTaskRequestCodec,
      json: jsonCodecs.GetTaskRequestJsonCodec,
      message: create(ours.GetTaskRequestSchema, SMALL_REQUEST),
    },
    pbjs: { type: P.GetTaskRequest, message: P.GetTaskRequest.fromObject(SMALL_REQUEST) },
  },
  {
    id: 'task',
    label: 'Task (every field kind)',
    ours: { schema: ours.TaskSchema, codec: codecs.TaskCodec, json: jsonCodecs.TaskJsonCodec, message: oursTask(records[0]) },
    pbjs: { type: P.Task, message: P.Task.fromObject(taskRecordLoose(records[0])) },
  },
  {
    id: 'list',
    label: `TaskList (${LIST_LENGTH} tasks)`,
    ours: {
      schema: oursList.TaskListSchema,
      codec: listCodecs.TaskListCodec,
      json: listJsonCodecs.TaskListJsonCodec,
      message: create(oursList.TaskListSchema, { tasks: records.map(oursTask) }),
    },
    pbjs: { type: P.TaskList, message: P.TaskList.fromObject({ tasks: records.map(taskRecordLoose) }) },
  },
];

/** Both directions, before timing: equal values, and which bytes/JSON each side produces. */
function check(testCase) {
  const { schema, codec, json, message } = testCase.ours;
  const { type, message: pbjsMessage } = testCase.pbjs;
  const oursBytes = codec.encode(message);
  const pbjsBytes = type.encode(pbjsMessage).finish();
  const problems = [];
  if (Buffer.compare(Buffer.from(oursBytes), Buffer.from(toBinary(schema, message))) !== 0)
    problems.push("the codec's bytes differ from toBinary's");
  if (!equals(schema, codec.decode(pbjsBytes), message)) problems.push("ours decodes pbjs's bytes to a different value");
  if (!equals(schema, codec.decode(oursBytes), message)) problems.push('ours does not round-trip its own bytes');
  try {
    deepStrictEqual(codec.decode(oursBytes), fromBinary(schema, oursBytes));
  } catch {
    problems.push("the codec's decoded value differs from fromBinary's");
  }
  try {
    deepStrictEqual(type.decode(oursBytes).toJSON(), pbjsMessage.toJSON());
  } catch {
    problems.push('pbjs decodes our bytes to a different value');
  }
  const oursJson = json.toJsonString(message);
  const pbjsJson = JSON.stringify(pbjsMessage);
  if (oursJson !== toJsonString(schema, message)) problems.push("the JSON codec's text differs from toJsonString's");
  if (!equals(schema, json.fromJsonString(oursJson), message)) problems.push('ours does not round-trip its JSON');
  try {
    deepStrictEqual(json.fromJsonString(oursJson), fromJsonString(schema, oursJson));
  } catch {
    problems.push("the JSON codec's value differs from fromJsonString's");
  }
  if (Buffer.compare(type.encode(type.fromObject(JSON.parse(pbjsJson))).finish(), pbjsBytes) !== 0)
    problems.push('pbjs does not round-trip its JSON');
  return {
    problems,
    binaryBytes: { ours: oursBytes.length, pbjs: pbjsBytes.length },
    sameBytes: Buffer.compare(Buffer.from(oursBytes), Buffer.from(pbjsBytes)) === 0,
    jsonBytes: { ours: Buffer.byteLength(oursJson), pbjs: Buffer.byteLength(pbjsJson) },
    sameJson: oursJson === pbjsJson,
    oursBytes,
    pbjsBytes,
    oursJson,
    pbjsJson,
  };
}

let sink = 0;

/** The operations timed per case; `bytes` is the payload one operation handles (for MB/s). */
function subjects(testCase, checked) {
  const { schema, codec, json, message } = testCase.ours;
  const { type, message: pbjsMessage } = testCase.pbjs;
  const { oursBytes, pbjsBytes, oursJson, pbjsJson } = checked;
  const row = (op, impl, bytes, fn) => ({ case: testCase.id, op, impl, bytes, fn });
  return [
    row('encode', 'ours', oursBytes.length, () => (sink += codec.encode(message).length)),
    row('encode', 'pbjs', pbjsBytes.length, () => (sink += type.encode(pbjsMessage).finish().length)),
    row('decode', 'ours', oursBytes.length, () => (sink += codec.decode(oursBytes) === null ? 1 : 0)),
    row('decode', 'pbjs', pbjsBytes.length, () => (sink += type.decode(pbjsBytes) === null ? 1 : 0)),
    // Information: protobuf-es's reflection on the same messages (what the codecs replace).
    row('encode', 'ours-reflection', oursBytes.length, () => (sink += toBinary(schema, message).length)),
    row('decode', 'ours-reflection', oursBytes.length, () => (sink += fromBinary(schema, oursBytes) === null ? 1 : 0)),
    row('json-encode', 'ours', Buffer.byteLength(oursJson), () => (sink += json.toJsonString(message).length)),
    row('json-encode', 'pbjs', Buffer.byteLength(pbjsJson), () => (sink += JSON.stringify(pbjsMessage).length)),
    row('json-decode', 'ours', Buffer.byteLength(oursJson), () => (sink += json.fromJsonString(oursJson) === null ? 1 : 0)),
    row('json-decode', 'pbjs', Buffer.byteLength(pbjsJson), () => (sink += type.fromObject(JSON.parse(pbjsJson)) === null ? 1 : 0)),
    row('json-encode', 'ours-reflection', Buffer.byteLength(oursJson), () => (sink += toJsonString(schema, message).length)),
    row('json-decode', 'ours-reflection', Buffer.byteLength(oursJson), () => (sink += fromJsonString(schema, oursJson) === null ? 1 : 0)),
  ];
}

/**
 * Milliseconds of this process's CPU time (user + system) for `iterations` calls: on a machine
 * shared with other work, wall time counts the waits for a core too, CPU time only the work.
 */
function runBatch(fn, iterations) {
  const start = process.cpuUsage();
  for (let i = 0; i < iterations; i++) fn();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

/** Iterations that take about `ms`, found by doubling. */
function calibrate(fn, ms) {
  let iterations = 1;
  for (;;) {
    const took = runBatch(fn, iterations);
    if (took >= 20) return Math.max(1, Math.round((iterations * ms) / took));
    iterations *= 2;
  }
}

const checks = {};
const all = [];
for (const testCase of CASES) {
  const checked = check(testCase);
  checks[testCase.id] = {
    label: testCase.label,
    problems: checked.problems,
    binaryBytes: checked.binaryBytes,
    sameBytes: checked.sameBytes,
    jsonBytes: checked.jsonBytes,
    sameJson: checked.sameJson,
  };
  if (!checked.problems.length) all.push(...subjects(testCase, checked));
}

for (const subject of all) {
  subject.iterations = calibrate(subject.fn, ROUND_MS);
  runBatch(subject.fn, Math.max(1, Math.round((subject.iterations * WARMUP_MS) / ROUND_MS)));
  subject.samples = [];
}
for (let round = 0; round < ROUNDS; round++) {
  // Rotate the order each round: no subject always runs first or right after the same neighbour.
  for (let k = 0; k < all.length; k++) {
    const subject = all[(k + round * 5) % all.length];
    subject.samples.push((subject.iterations * 1000) / runBatch(subject.fn, subject.iterations));
  }
}

const results = all.map(({ fn, samples, ...rest }) => ({
  ...rest,
  opsPerSec: median(samples),
  min: Math.min(...samples),
  max: Math.max(...samples),
  mbPerSec: (median(samples) * rest.bytes) / 1e6,
}));
process.stdout.write(`${JSON.stringify({ rounds: ROUNDS, roundMs: ROUND_MS, warmupMs: WARMUP_MS, checks, results, sink: sink > 0 })}\n`);
