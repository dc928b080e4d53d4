/**
 * The codec of the generated gRPC pub/sub (out/grpc/pubsub.ts): how long one TaskEvent of the
 * example takes to encode and decode as the text a FanOut carries, binary (the generated codec,
 * then base64) against proto3 JSON (the generated JSON codec) and protobuf-es's reflection for both.
 * Figures are µs per message and ratios to the chosen codec, from the same run; nothing is asserted.
 *
 *   npm run build && node bin/codegen.js && node --import ./bench/lib/ts-register.js bench/grpc-pubsub-codec.ts
 */
import { create, fromBinary, fromJsonString, toBinary, toJsonString } from '@bufbuild/protobuf';
import { timestampNow } from '@bufbuild/protobuf/wkt';
import { TaskEventCodec } from '../out/grpc/acme/tasks/v1/tasks_codec.js';
import { TaskEventJsonCodec } from '../out/grpc/acme/tasks/v1/tasks_json.js';
import { TaskEvent_Kind, TaskEventSchema, TaskStatus, type TaskEvent } from '../out/grpc/acme/tasks/v1/tasks_pb.js';

const event = create(TaskEventSchema, {
  kind: TaskEvent_Kind.UPDATED,
  task: {
    id: 't42',
    projectId: 'p1',
    title: 'Write the release notes',
    status: TaskStatus.IN_PROGRESS,
    assigneeId: 'u7',
    labels: ['docs', 'release'],
    attributes: { priority: 'high' },
    createTime: timestampNow(),
    estimateMinutes: 90n,
  },
});

const codecs: Record<string, { encode(message: TaskEvent): string; decode(text: string): TaskEvent }> = {
  'binary, generated codec + base64': {
    encode: (message) => Buffer.from(TaskEventCodec.encode(message)).toString('base64'),
    decode: (text) => TaskEventCodec.decode(Buffer.from(text, 'base64')),
  },
  'binary, reflection + base64': {
    encode: (message) => Buffer.from(toBinary(TaskEventSchema, message)).toString('base64'),
    decode: (text) => fromBinary(TaskEventSchema, Buffer.from(text, 'base64')),
  },
  'proto3 JSON, generated codec': {
    encode: (message) => TaskEventJsonCodec.toJsonString(message),
    decode: (text) => TaskEventJsonCodec.fromJsonString(text),
  },
  'proto3 JSON, reflection': {
    encode: (message) => toJsonString(TaskEventSchema, message),
    decode: (text) => fromJsonString(TaskEventSchema, text),
  },
};

const quick = process.env.BENCH_QUICK === '1';
const rounds = quick ? 3 : 7;
const perRound = quick ? 20_000 : 100_000;
const results = new Map<string, { micros: number; bytes: number }>();
for (const [name, codec] of Object.entries(codecs)) {
  const text = codec.encode(event);
  if (codec.decode(text).task?.title !== event.task?.title) throw new Error(`${name} does not round-trip`);
  const times: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < perRound; i++) codec.decode(codec.encode(event));
    times.push(Number(process.hrtime.bigint() - start) / 1000 / perRound);
  }
  times.sort((a, b) => a - b);
  results.set(name, { micros: times[Math.floor(times.length / 2)]!, bytes: Buffer.byteLength(text) });
}
const base = results.get('binary, generated codec + base64')!.micros;
for (const [name, { micros, bytes }] of results)
  console.log(
    `${name.padEnd(36)} ${micros.toFixed(2).padStart(6)} µs encode+decode  ${String(bytes).padStart(4)} bytes  ×${(micros / base).toFixed(2)}`,
  );
