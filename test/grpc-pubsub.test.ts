/**
 * The generated pub/sub of a proto API (pubsub.ts, generators/proto/pubsub.ts and topics.ts), on
 * test/fixtures/proto-pubsub/boards.proto: two services with server- and bidi-streaming methods,
 * a shared topic, a keyed one, one left out, a well-known response type, and names that need
 * care (a message named `PubSub` and one named `Topic`, a service `__proto__`, a method
 * `Constructor`, `*\/` in comments).
 *
 * - the file is the committed snapshot (test/fixtures/proto-pubsub/pubsub.ts.snap: not .ts, so the repository's tsc leaves it alone);
 * - the whole output type-checks under strict + STRICTEST with a usage file whose
 *   `@ts-expect-error` lines must each be an error (a wrong message type, a missing key);
 * - run: what is published reaches subscribers once, a shared topic is one topic, a key narrows,
 *   a well-known type travels by reflection; over a real redis-server between two pub/subs (two
 *   instances), a 10 KB message arrives intact on the channel of its key (an int64 at its minimum,
 *   characters that need encoding), and only there;
 * - a bad `codegen:topic` line fails generation with file:line:col.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CodegenError } from '../generators/core/diagnostics.js';
import { generate } from '../generators/core/pipeline/generate.js';
import type { GeneratedFile } from '../generators/core/pipeline/output.js';
import { RedisFanOut } from '../runtime/redis-fanout.js';
import { ROOT } from './support/cli.js';
import { startRedis } from './support/redis-server.js';
import { tempDir } from './support/tmp.js';
import { COMPILERS, typecheck } from './support/typecheck.js';

const FIXTURE = join(ROOT, 'test', 'fixtures', 'proto-pubsub', 'boards.proto');

async function generateProto(input: string, options: Record<string, unknown> = {}): Promise<GeneratedFile[]> {
  const [{ files }] = await generate([
    {
      name: 'test',
      inputs: [input],
      style: 'proto',
      documents: [],
      output: join(ROOT, '.vitest-tmp', 'unused'),
      emit: ['server'],
      options,
      root: ROOT,
    },
  ]);
  return files;
}

/** The usage a user writes: every line compiles, except the ones marked, which must not. */
const USAGE = `import { create } from "@bufbuild/protobuf";
import { EmptySchema, timestampNow } from "@bufbuild/protobuf/wkt";
import { Level, PubSubSchema, TopicSchema, WatchRequestSchema } from "./boards_pb.js";
import { createPubSub, MemoryFanOut, type PubSub, type TopicSubscription } from "./pubsub.js";
import type { PubSub as Change } from "./boards_pb.js";

export async function use(pubsub: PubSub = createPubSub(new MemoryFanOut())): Promise<void> {
  const change = create(PubSubSchema, { boardId: "b1", text: "hello" });
  await pubsub.Boards.watch.publish(change);
  await pubsub.Boards.watchBoard.publish({ boardId: "b1", level: Level.HIGH, shard: 2n }, change);
  await pubsub.Proto.ticks.publish(timestampNow());
  await pubsub.Proto.constructor$.publish(create(TopicSchema, { name: "t" }));
  const changes: TopicSubscription<Change> = await pubsub.Boards.sync.subscribe({ signal: AbortSignal.timeout(10) });
  for await (const each of changes) each.text.toUpperCase();
  // A request of the method is a key: its other fields are ignored.
  await pubsub.Boards.watchBoard.subscribe(create(WatchRequestSchema, { boardId: "b1", level: Level.HIGH, shard: 2n, tags: ["x"] }));
  // @ts-expect-error a topic carries its method's response message only
  await pubsub.Boards.watch.publish(create(TopicSchema, { name: "t" }));
  // @ts-expect-error nor a plain object of the right shape
  await pubsub.Boards.watch.publish({ boardId: "b1", text: "x" });
  // @ts-expect-error a keyed topic wants its key
  await pubsub.Boards.watchBoard.publish(change);
  // @ts-expect-error every key field
  await pubsub.Boards.watchBoard.subscribe({ boardId: "b1" });
  // @ts-expect-error a method left without a topic has none
  pubsub.Boards.list;
  // @ts-expect-error nor has a unary method
  pubsub.Boards.get;
  // @ts-expect-error the well-known type is checked as any other
  await pubsub.Proto.ticks.publish(create(EmptySchema));
}
`;

let files: GeneratedFile[];
let folder: string;

beforeAll(async () => {
  files = await generateProto(FIXTURE);
  // Inside the repository, so the generated modules resolve its node_modules when imported.
  folder = join(ROOT, '.vitest-tmp', `grpc-pubsub-${process.pid}`);
  rmSync(folder, { recursive: true, force: true });
  for (const file of files) {
    mkdirSync(dirname(join(folder, file.path)), { recursive: true });
    writeFileSync(join(folder, file.path), file.content);
  }
  writeFileSync(join(folder, 'usage.ts'), USAGE);
  writeFileSync(join(folder, 'package.json'), '{ "type": "module" }\n');
}, 60_000);

afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('pubsub.ts of a proto API', () => {
  it('is the committed snapshot', async () => {
    const pubsub = files.find((file) => file.path === 'pubsub.ts');
    await expect(pubsub?.content).toMatchFileSnapshot(join(ROOT, 'test', 'fixtures', 'proto-pubsub', 'pubsub.ts.snap'));
  });

  it('type-checks under strict + STRICTEST, and the usage errors are errors', () => {
    const result = typecheck(folder, COMPILERS['TypeScript 5.9'], 'node');
    expect(result.output).toBe('');
    expect(result.ok).toBe(true);
    // An unused @ts-expect-error fails the check: each marked line is an error indeed.
    expect(USAGE.match(/@ts-expect-error/g)).toHaveLength(7);
  }, 120_000);

  it('delivers what is published: once per subscriber, a shared topic as one, by key, well-known types too', async () => {
    const pb = await import(pathToFileURL(join(folder, 'boards_pb.ts')).href);
    const wkt = await import('@bufbuild/protobuf/wkt');
    const { create } = await import('@bufbuild/protobuf');
    const { createPubSub, MemoryFanOut } = await import(pathToFileURL(join(folder, 'pubsub.ts')).href);
    const pubsub = createPubSub(new MemoryFanOut());
    const take = async (subscription: AsyncIterator<unknown>, count: number) => {
      const taken: unknown[] = [];
      while (taken.length < count) taken.push((await subscription.next()).value);
      await subscription.return?.();
      return taken;
    };

    // A shared topic: published through one method's member, heard through the other's.
    const viaFollow = await pubsub.Boards.follow.subscribe();
    const viaSync = await pubsub.Boards.sync.subscribe();
    const change = create(pb.PubSubSchema, { boardId: 'b1', text: 'one' });
    await pubsub.Boards.sync.publish(change);
    await pubsub.Boards.follow.publish(create(pb.PubSubSchema, { boardId: 'b1', text: 'two' }));
    expect(pubsub.Boards.sync.name).toBe('board-changes');
    expect(pubsub.Boards.follow).toBe(pubsub.Boards.sync);
    for (const subscription of [viaFollow, viaSync])
      expect(((await take(subscription, 2)) as { text: string }[]).map((each) => each.text)).toEqual(['one', 'two']);

    // A key narrows: another board, level or shard is another channel.
    const key = { boardId: 'b/1', level: pb.Level.HIGH, shard: 9_007_199_254_740_993n };
    const keyed = await pubsub.Boards.watchBoard.subscribe({ ...key, tags: ['ignored'] });
    await pubsub.Boards.watchBoard.publish({ ...key, shard: 1n }, create(pb.PubSubSchema, { text: 'other shard' }));
    await pubsub.Boards.watchBoard.publish({ ...key, boardId: 'b' }, create(pb.PubSubSchema, { text: 'other board' }));
    await pubsub.Boards.watchBoard.publish(key, create(pb.PubSubSchema, { text: 'mine' }));
    expect(((await take(keyed, 1)) as { text: string }[])[0]!.text).toBe('mine');

    // A well-known type, encoded by reflection.
    const ticks = await pubsub.Proto.ticks.subscribe();
    const now = wkt.timestampNow();
    await pubsub.Proto.ticks.publish(now);
    const [tick] = (await take(ticks, 1)) as { seconds: bigint; nanos: number; $typeName: string }[];
    expect(tick).toEqual(now);
    expect(tick!.$typeName).toBe('google.protobuf.Timestamp');
  });
});

describe('pubsub.ts over Redis', () => {
  it('carries messages between two instances, by key, every field intact', async () => {
    const redis = await startRedis();
    const clients = [createClient({ url: redis.url }), createClient({ url: redis.url })];
    const fanOuts: RedisFanOut[] = [];
    try {
      for (const client of clients) await client.connect();
      for (const client of clients) fanOuts.push(new RedisFanOut(client, { prefix: 'grpc:' }));
      const pb = await import(pathToFileURL(join(folder, 'boards_pb.ts')).href);
      const { create } = await import('@bufbuild/protobuf');
      const { createPubSub } = await import(pathToFileURL(join(folder, 'pubsub.ts')).href);
      const [a, b] = fanOuts.map((fanOut) => createPubSub(fanOut));
      const key = { boardId: 'board: one/ü', level: pb.Level.HIGH, shard: -(2n ** 63n) };
      const mine = await b.Boards.watchBoard.subscribe(key);
      const everyone = await b.Boards.watch.subscribe();
      const sent = create(pb.PubSubSchema, { boardId: key.boardId, text: 'x'.repeat(10_000) });
      await a.Boards.watchBoard.publish({ ...key, level: pb.Level.UNSPECIFIED }, create(pb.PubSubSchema, { text: 'not mine' }));
      await a.Boards.watchBoard.publish(key, sent);
      await a.Boards.watch.publish(sent);
      expect((await mine.next()).value).toEqual(sent);
      expect((await everyone.next()).value).toEqual(sent);
      await mine.return();
      await everyone.return();
    } finally {
      for (const fanOut of fanOuts) await fanOut.close();
      for (const client of clients) if (client.isOpen) await client.close();
      await redis.close();
    }
  }, 60_000);
});

describe('codegen:topic lines', () => {
  const scratch = tempDir('codegen-pubsub-');
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  /** Generates a proto whose service is `rpcs`; resolves with the error's text. */
  async function failure(rpcs: string): Promise<string> {
    const file = join(scratch, `bad-${Math.random().toString(36).slice(2)}.proto`);
    writeFileSync(
      file,
      `syntax = "proto3";
package bad.v1;
message Req { string id = 1; optional string cursor = 2; repeated string tags = 3; Req child = 4; bytes raw = 5; }
message Res { string id = 1; }
message Other { string id = 1; }
service Svc {
${rpcs}
}
`,
    );
    const error = await generateProto(file).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(CodegenError);
    return (error as Error).message.replaceAll(scratch, '<dir>').replace(/bad-\w+\.proto/g, 'bad.proto');
  }

  it('an unknown directive is an error at its line and column', async () => {
    expect(await failure('  // Watch.\n  // codegen:topics x\n  rpc W(Req) returns (stream Res);')).toMatch(
      /^.*bad\.proto:8:6: error: unknown directive codegen:topics\n  hint: codegen reads/,
    );
  });

  it('a directive after the rpc, where it is not read, is an error at the rpc', async () => {
    expect(await failure('  rpc W(Req) returns (stream Res); // codegen:topic x')).toMatch(
      /bad\.proto:7:3: error: a codegen: line after W is not read/,
    );
  });

  it('every problem at once, each located: name, key fields, sharing, call mode', async () => {
    const message = await failure(
      [
        '  // codegen:topic a key=nope',
        '  rpc A(Req) returns (stream Res);',
        '  // codegen:topic b key=cursor,tags',
        '  rpc B(Req) returns (stream Res);',
        '  // codegen:topic c key=child,raw',
        '  rpc C(Req) returns (stream Res);',
        '  // codegen:topic shared',
        '  rpc D(Req) returns (stream Res);',
        '  // codegen:topic shared',
        '  rpc E(Req) returns (stream Other);',
        '  // codegen:topic shared key=id',
        '  rpc F(Req) returns (stream Res);',
        '  // codegen:topic x',
        '  rpc G(Req) returns (Res);',
        '  // codegen:topic bad:name',
        '  rpc H(Req) returns (stream Res);',
        '  // codegen:topic none key=id',
        '  rpc I(Req) returns (stream Res);',
      ].join('\n'),
    );
    const lines = message.split('\n').filter((line) => !line.startsWith('  hint:'));
    expect(lines).toEqual([
      expect.stringMatching(/bad\.proto:7:22: error: bad\.v1\.Req has no field "nope" for the key of A$/),
      expect.stringMatching(/bad\.proto:9:22: error: bad\.v1\.Req\.cursor cannot be a key: it has explicit presence/),
      expect.stringMatching(/bad\.proto:9:22: error: bad\.v1\.Req\.tags cannot be a key: it is a repeated field$/),
      expect.stringMatching(/bad\.proto:11:22: error: bad\.v1\.Req\.child cannot be a key: it is a message$/),
      expect.stringMatching(/bad\.proto:11:22: error: bad\.v1\.Req\.raw cannot be a key: it is bytes$/),
      expect.stringMatching(/bad\.proto:15:6: error: topic "shared" carries bad\.v1\.Res \(Svc\.D\), not bad\.v1\.Other$/),
      expect.stringMatching(/bad\.proto:17:6: error: topic "shared" has key \(\) at Svc\.D, not \(id: STRING\)$/),
      expect.stringMatching(/bad\.proto:19:6: error: codegen:topic on G, a unary method/),
      expect.stringMatching(/bad\.proto:21:20: error: codegen:topic cannot read "bad:name"/),
      expect.stringMatching(/bad\.proto:23:25: error: codegen:topic none takes no key/),
    ]);
  });
});
