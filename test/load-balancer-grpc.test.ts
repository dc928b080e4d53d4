/**
 * The gRPC example behind a real load balancer: three instances (`node dist/examples/grpc/main.js`,
 * each a child process) with REDIS_URL on one redis-server, behind nginx (test/support/nginx.ts):
 * gRPC over HTTP/2 cleartext on its `grpc_pass` port, Connect over HTTP/1.1 on its `proxy_pass`
 * port. Clients talk only to nginx: @grpc/grpc-js (a third-party client, the service loaded from
 * the .proto) and Connect's node transport; nginx's `x-upstream` header says which instance
 * answered.
 *
 * - SyncTasks conversations spread round-robin over the instances; the changes sent in each, and
 *   unary CreateTask/UpdateTask landing round-robin (gRPC and Connect), reach every conversation
 *   on every instance: none lost, none repeated, and in one order, the same for all (the topic's
 *   order: Redis delivers a channel's messages in the order it took them);
 * - an instance killed with SIGKILL ends its conversations with an error status; their clients
 *   open new ones through nginx, which land on the survivors, and hear every change published
 *   after they are subscribed again. What was published while they were away is not replayed
 *   (asserted): a gRPC stream has no resume protocol, and the pub/sub is Redis pub/sub (at most once).
 */
import * as grpc from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { ROOT } from './support/cli.js';
import { importDist, startExample, type RunningExample } from './support/e2e-example.js';
import { grpcJsPackage, metadata, unary } from './support/grpc-setup.js';
import { startNginx, type Nginx } from './support/nginx.js';
import { startRedis, type RedisServer } from './support/redis-server.js';

const GRPC_MAIN = join(ROOT, 'dist', 'examples', 'grpc', 'main.js');
const TOKEN = 'demo-token';
const PROJECT = 'p-lb';
/** How long a conversation may wait for what it expects; generous, for a loaded machine. */
const WAIT_MS = 60_000;

interface WireTask {
  id: string;
  title: string;
}
interface WireEvent {
  kind: string;
  task: WireTask | null;
}
type Duplex = grpc.ClientDuplexStream<object, WireEvent>;

/** One SyncTasks conversation through nginx, with what it heard. */
class Conversation {
  readonly heard: string[] = [];
  readonly upstream: Promise<string>;
  /** The status it ended with (an error's code, or OK). */
  readonly ended: Promise<grpc.StatusObject>;
  private readonly call: Duplex;
  private waiters = new Set<() => void>();

  /**
   * A client per conversation; grpc-js multiplexes them all on one HTTP/2 connection to nginx, as
   * one client process does. Keepalive pings, as README advises behind nginx: without them nginx
   * 1.22 leaves a shared connection's frames unsent after an upstream dies (neither the dead
   * streams' resets nor the survivors' messages) until the client sends something, and that can be
   * never; a ping every 2 s wakes it.
   */
  private readonly client: grpc.Client;

  constructor(readonly name: string) {
    this.client = new TaskService(`127.0.0.1:${nginx.grpcPort}`, grpc.credentials.createInsecure(), {
      'grpc.keepalive_time_ms': 2000,
      // Generous: only a missing ping ack counts, and a busy machine is slow to send one.
      'grpc.keepalive_timeout_ms': 20_000,
    });
    this.call = (this.client as unknown as { syncTasks(metadata: grpc.Metadata): Duplex }).syncTasks(metadata(TOKEN));
    this.upstream = new Promise((resolve) => this.call.once('metadata', (header) => resolve(String(header.get('x-upstream')[0] ?? ''))));
    this.ended = new Promise((resolve) => {
      this.call.once('status', resolve);
      // The status says how it ended; the error event is only its other face.
      this.call.on('error', () => {});
    });
    void this.ended.then(() => this.wake());
    this.call.on('data', (event: WireEvent) => {
      this.heard.push(`${event.kind} ${event.task?.title ?? ''}`);
      this.wake();
    });
  }

  /** Creates a task titled `title` in this conversation. */
  create(title: string): void {
    this.call.write({ kind: 'KIND_CREATED', task: { projectId: PROJECT, title } });
  }

  /** Resolves once it heard `line`; rejects if the call ends first or after WAIT_MS. */
  async hears(line: string): Promise<void> {
    let ended: grpc.StatusObject | undefined;
    void this.ended.then((status) => (ended = status));
    const deadline = Date.now() + WAIT_MS;
    while (!this.heard.includes(line)) {
      if (ended)
        throw new Error(`${this.name} ended (${ended.code} ${ended.details}) before hearing "${line}"; heard ${this.heard.length}`);
      if (Date.now() > deadline) throw new Error(`${this.name} did not hear "${line}" within ${WAIT_MS} ms; heard ${this.heard.length}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 1000);
        this.waiters.add(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** What it heard from the line `from` on (inclusive). */
  since(from: string): string[] {
    const start = this.heard.indexOf(from);
    return start < 0 ? [] : this.heard.slice(start);
  }

  /** Opens the conversation for sure: it creates its own task and waits to hear it (it subscribes before applying it). */
  async ready(): Promise<void> {
    const title = `ready ${this.name}`;
    this.create(title);
    await this.hears(`KIND_CREATED ${title}`);
  }

  end(): void {
    this.call.end();
  }

  close(): void {
    this.client.close();
  }

  private wake(): void {
    const waiters = [...this.waiters];
    this.waiters.clear();
    for (const waiter of waiters) waiter();
  }
}

let redis: RedisServer;
let instances: RunningExample[];
let nginx: Nginx;
let client: grpc.Client;
let TaskService: grpc.ServiceClientConstructor;
const closing: Conversation[] = [];
let connectClient: { createTask(request: object, options?: object): Promise<{ id: string }> };
const byPort = new Map<string, RunningExample>();

beforeAll(async () => {
  redis = await startRedis();
  instances = await Promise.all([0, 1, 2].map(() => startExample({ REDIS_URL: redis.url }, GRPC_MAIN)));
  for (const instance of instances) byPort.set(`127.0.0.1:${instance.port}`, instance);
  nginx = await startNginx(
    instances.map((instance) => instance.port),
    { grpc: true },
  );
  ({ TaskService } = grpcJsPackage());
  client = new TaskService(`127.0.0.1:${nginx.grpcPort}`, grpc.credentials.createInsecure());
  // Connect's JSON protocol over HTTP/1.1, through nginx's proxy_pass port.
  const { createClient } = await import('@connectrpc/connect');
  const { createConnectTransport } = await import('@connectrpc/connect-node');
  const pb = await importDist<typeof import('../out/grpc/acme/tasks/v1/tasks_pb.js')>('out/grpc/acme/tasks/v1/tasks_pb.js');
  connectClient = createClient(pb.TaskService, createConnectTransport({ baseUrl: nginx.url, httpVersion: '1.1' })) as never;
}, 120_000);

afterAll(async () => {
  client?.close();
  for (const conversation of closing) conversation.close();
  await nginx?.close();
  await Promise.all((instances ?? []).map((instance) => instance.stop()));
  await redis?.close();
}, 60_000);

/** Unary CreateTask over gRPC through nginx; the instance that answered comes from `x-upstream`. */
async function createTask(title: string): Promise<{ id: string; upstream: string }> {
  const { value, header } = await unary<WireTask>(client, 'createTask', { task: { projectId: PROJECT, title } }, metadata(TOKEN));
  return { id: value.id, upstream: String(header.get('x-upstream')[0]) };
}

async function renameTask(id: string, title: string): Promise<string> {
  const { header } = await unary<WireTask>(
    client,
    'updateTask',
    { task: { id, title }, updateMask: { paths: ['title'] } },
    metadata(TOKEN),
  );
  return String(header.get('x-upstream')[0]);
}

/** Opens `count` conversations one after the other (so round-robin spreads them) and waits until each is subscribed. */
async function open(count: number, prefix: string): Promise<Conversation[]> {
  const opened: Conversation[] = [];
  for (let i = 0; i < count; i++) {
    const conversation = new Conversation(`${prefix}${i}`);
    closing.push(conversation);
    opened.push(conversation);
    await conversation.ready();
  }
  return opened;
}

/**
 * Every conversation of `listeners` hears exactly `expected` (as a set) from `start` up to and
 * including `marker`, in one order common to all; the order of each sender's own lines is kept.
 */
async function expectHeardByAll(listeners: Conversation[], start: string, marker: string, senders: string[][]): Promise<string[]> {
  await Promise.all(listeners.map((conversation) => conversation.hears(marker)));
  const slices = listeners.map((conversation) => {
    const from = conversation.since(start);
    return from.slice(0, from.indexOf(marker) + 1);
  });
  const expected = new Set([start, ...senders.flat(), marker]);
  for (const [index, slice] of slices.entries()) {
    expect(slice.length, `${listeners[index]!.name} heard ${slice.length} lines`).toBe(expected.size);
    expect(new Set(slice), `${listeners[index]!.name} heard every change once`).toEqual(expected);
    // In order per topic: all heard the same sequence...
    expect(slice, `${listeners[index]!.name} heard the changes in the topic's order`).toEqual(slices[0]);
  }
  // ... in which each sender's changes come in the order it sent them.
  for (const sent of senders) expect(slices[0]!.filter((line) => sent.includes(line))).toEqual(sent);
  return slices[0]!;
}

describe('three gRPC example instances behind nginx (grpc_pass), one Redis', () => {
  let conversations: Conversation[];

  it('spreads SyncTasks conversations round-robin over the instances', async () => {
    conversations = await open(6, 'c');
    const upstreams = await Promise.all(conversations.map((conversation) => conversation.upstream));
    const counts = new Map<string, number>();
    for (const upstream of upstreams) counts.set(upstream, (counts.get(upstream) ?? 0) + 1);
    expect([...counts.keys()].sort()).toEqual([...byPort.keys()].sort());
    expect([...counts.values()]).toEqual([2, 2, 2]);
  }, 120_000);

  it('changes from conversations on every instance and unary calls reach every conversation: none lost, none repeated, in order', async () => {
    const start = 'KIND_CREATED start';
    conversations[0]!.create('start');
    await Promise.all(conversations.map((conversation) => conversation.hears(start)));

    // Five changes sent in each conversation, interleaved across the six.
    const sent = conversations.map((conversation) => Array.from({ length: 5 }, (_, k) => `KIND_CREATED ${conversation.name}-${k}`));
    for (let k = 0; k < 5; k++) for (const conversation of conversations) conversation.create(`${conversation.name}-${k}`);

    // Unary calls through nginx land round-robin: three creates over gRPC, three over Connect (HTTP/1.1).
    const unaryUpstreams = new Set<string>();
    const created: { id: string; title: string }[] = [];
    for (let k = 0; k < 3; k++) {
      const { id, upstream } = await createTask(`grpc-${k}`);
      unaryUpstreams.add(upstream);
      created.push({ id, title: `grpc-${k}` });
    }
    const connectUpstreams = new Set<string>();
    for (let k = 0; k < 3; k++) {
      const task = await connectClient.createTask(
        { task: { projectId: PROJECT, title: `connect-${k}` } },
        {
          headers: { authorization: `Bearer ${TOKEN}` },
          onHeader: (header: Headers) => connectUpstreams.add(header.get('x-upstream') ?? ''),
        },
      );
      created.push({ id: task.id, title: `connect-${k}` });
    }
    expect(unaryUpstreams.size).toBeGreaterThan(1);
    expect(connectUpstreams.size).toBeGreaterThan(1);
    const unaryCreated = created.map(({ title }) => `KIND_CREATED ${title}`);
    // Once every conversation heard a creation, every instance knows the task: renaming it works wherever it lands.
    await Promise.all(conversations.map((conversation) => Promise.all(unaryCreated.map((line) => conversation.hears(line)))));
    const renamed: string[] = [];
    const renameUpstreams = new Set<string>();
    for (const { id, title } of created) {
      renameUpstreams.add(await renameTask(id, `${title} renamed`));
      renamed.push(`KIND_UPDATED ${title} renamed`);
    }
    expect(renameUpstreams.size).toBeGreaterThan(1);

    conversations[5]!.create('end');
    const order = await expectHeardByAll(conversations, start, 'KIND_CREATED end', [...sent, unaryCreated, renamed]);
    expect(order).toHaveLength(2 + 6 * 5 + 6 + 6);
  }, 180_000);

  it('an instance killed with SIGKILL ends its conversations; reopened through nginx, they hear every change published after', async () => {
    const upstreams = await Promise.all(conversations.map((conversation) => conversation.upstream));
    const victimAddress = upstreams[0]!;
    const victim = byPort.get(victimAddress)!;
    const onVictim = conversations.filter((_, index) => upstreams[index] === victimAddress);
    const survivors = conversations.filter((_, index) => upstreams[index] !== victimAddress);
    expect(onVictim).toHaveLength(2);

    victim.child.kill('SIGKILL');
    const statuses = await Promise.all(onVictim.map((conversation) => conversation.ended));
    for (const status of statuses) expect([grpc.status.UNAVAILABLE, grpc.status.INTERNAL]).toContain(status.code);
    // A change made while their clients are away: the survivors hear it, the reopened never will.
    survivors[0]!.create('while away');
    await Promise.all(survivors.map((conversation) => conversation.hears('KIND_CREATED while away')));

    // Their clients open new conversations through nginx: they land on the instances still up.
    const reopened = await open(onVictim.length, 'r');
    for (const upstream of await Promise.all(reopened.map((conversation) => conversation.upstream))) {
      // `$upstream_addr` lists each upstream tried: nginx may try the dead one first, then the next.
      const answered = upstream.split(', ').at(-1)!;
      expect(answered).not.toBe(victimAddress);
      expect(byPort.has(answered)).toBe(true);
    }

    const listeners = [...survivors, ...reopened];
    const start = 'KIND_CREATED after';
    survivors[0]!.create('after');
    await Promise.all(listeners.map((conversation) => conversation.hears(start)));
    const sent = listeners.map((conversation) => Array.from({ length: 3 }, (_, k) => `KIND_CREATED ${conversation.name}-after-${k}`));
    for (let k = 0; k < 3; k++) for (const conversation of listeners) conversation.create(`${conversation.name}-after-${k}`);
    const unaryCreated: string[] = [];
    for (let k = 0; k < 4; k++) {
      await createTask(`after-grpc-${k}`);
      unaryCreated.push(`KIND_CREATED after-grpc-${k}`);
    }
    reopened[0]!.create('after end');
    await expectHeardByAll(listeners, start, 'KIND_CREATED after end', [...sent, unaryCreated]);
    // Not kept: what was published before a conversation subscribed (no resume in gRPC streams).
    for (const conversation of reopened) {
      const before = conversation.heard.slice(0, conversation.heard.indexOf(start));
      expect(
        before.every((line) => line.startsWith('KIND_CREATED ready r')),
        `${conversation.name} heard ${before.join(', ')}`,
      ).toBe(true);
    }
    for (const conversation of listeners) conversation.end();
    for (const status of await Promise.all(listeners.map((conversation) => conversation.ended))) expect(status.code).toBe(grpc.status.OK);
  }, 180_000);
});
