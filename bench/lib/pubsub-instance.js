// One server instance of the `pubsub` benchmark, in a child process forked by bench/lib/pubsub.js.
// Its `FanOut` is a `RedisFanOut` on BENCH_REDIS_URL (channels prefixed BENCH_REDIS_PREFIX), or a
// `MemoryFanOut` without it. Two kinds of subscribers (BENCH_PUBSUB_MODE):
//   - `ws` (default): the generated realtime server (createRealtimeServer from
//     schemas/asyncapi/tasks.asyncapi.yaml, generated with `options.redis: true` and transpiled
//     into BENCH_PUBSUB_OUT) on node:http; its subscribers are the harness's WebSocket clients.
//     Handlers: `join` subscribes the socket to `room:<room>` and answers `joined` once it is
//     subscribed (so the harness knows when a subscriber hears what is published); `say` is
//     unused. Options are the defaults, except `maxConnectionsPerClient` (every subscriber comes
//     from 127.0.0.1).
//   - `topic`: typed `Topic` subscribers (runtime/topic.ts, transpiled into BENCH_PUBSUB_RUNTIME),
//     what generated GraphQL subscriptions and gRPC streams consume: async iterators in this
//     process, checked and timed here like the harness checks its sockets.
//
// The parent talks over IPC, `{ id, cmd, ... }` answered by `{ id, result }` or `{ id, error }`;
// once ready this process sends `{ ready: true, port }` (port: `ws` mode). Commands:
//   publish { count, perSecond, room }  `count` lines at `perSecond`, or with 0 as a burst of BATCH
//                                       lines per turn of the event loop; → { published, failed, firstAt, lastAt }
//   subscribe { count, room }           (`topic`) opens `count` subscriptions to the room's topic
//   reset                               (`topic`) counts, expected sequence numbers, latencies back to 0
//   settle { expected, timeoutMs, latencies }  (`topic`) waits for `expected` lines on every
//                                       subscription; → { received, latencies, lastAt, problems }
// A line carries its sequence number and the time of its publish call in ms on the machine's clock
// (performance.timeOrigin + performance.now(), comparable across processes).
import { createServer } from 'node:http';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/** Lines published per turn of the event loop in a burst. */
const BATCH = 50;
const MESSAGE_ID = '00000000-0000-4000-8000-000000000000';
const mode = process.env.BENCH_PUBSUB_MODE === 'topic' ? 'topic' : 'ws';
const now = () => performance.timeOrigin + performance.now();
const load = (folder, file) => import(pathToFileURL(join(resolve(folder), file)).href);

const modules =
  mode === 'ws'
    ? await load(process.env.BENCH_PUBSUB_OUT ?? 'bench/.work/pubsub/ours-js', 'server.js')
    : {
        ...(await load(process.env.BENCH_PUBSUB_RUNTIME ?? 'bench/.work/pubsub/runtime/js', 'runtime/redis-fanout.js')),
        ...(await load(process.env.BENCH_PUBSUB_RUNTIME ?? 'bench/.work/pubsub/runtime/js', 'runtime/pubsub.js')),
        ...(await load(process.env.BENCH_PUBSUB_RUNTIME ?? 'bench/.work/pubsub/runtime/js', 'runtime/topic.js')),
      };

let client;
let fanOut = mode === 'topic' ? new modules.MemoryFanOut() : undefined;
if (process.env.BENCH_REDIS_URL) {
  const { createClient } = await import('redis');
  client = createClient({ url: process.env.BENCH_REDIS_URL, disableOfflineQueue: true });
  client.on('error', (error) => process.stderr.write(`redis: ${error.message}\n`));
  await client.connect();
  fanOut = new modules.RedisFanOut(client, { prefix: process.env.BENCH_REDIS_PREFIX ?? 'bench:' });
}

/** The instance's subscribers and how it publishes one line: `ws` or `topic`. */
const side = mode === 'ws' ? await webSocketSide() : topicSide();

async function webSocketSide() {
  const sentAt = new Date().toISOString();
  const realtime = modules.createRealtimeServer(
    {
      chat: {
        async join(message, connection) {
          await connection.subscribe(`room:${message.room}`);
          connection.send({ type: 'joined', room: message.room, user: 'bench' });
        },
        say: (message) => ({ type: 'ack', id: message.id, messageId: MESSAGE_ID }),
      },
      taskSummary: async () => {},
    },
    {
      sse: { logger: () => {} },
      websocket: {
        ...(fanOut ? { fanOut } : {}),
        verifyToken: (token) => (token === 'bench' ? 'bench' : undefined),
        maxConnectionsPerClient: 10_000,
      },
    },
  );
  const http = createServer(realtime.listener);
  realtime.attach(http);
  await new Promise((done) => http.listen(0, '127.0.0.1', done));
  return {
    port: http.address().port,
    /** A chat line whose text is `<seq> <time>`. */
    publish: (room, seq, at) =>
      realtime.publish.chat({ type: 'said', messageId: MESSAGE_ID, room, user: 'bench', text: `${seq} ${at}`, sentAt }, `room:${room}`),
    async close() {
      http.closeAllConnections();
      http.close();
      await realtime.close();
    },
  };
}

function topicSide() {
  // Key `{ room }`, payload `{ seq, at }` as JSON (the default codec).
  const lines = new modules.Topic('bench.lines', (key) => [key.room]);
  const subscriptions = [];
  let latencies = [];
  let lastAt = 0;
  const consume = async (state) => {
    try {
      for await (const line of state.iterator) {
        const at = now();
        if (line.seq !== state.nextSeq) state.problem ??= `line ${line.seq} arrived when ${state.nextSeq} was expected`;
        state.nextSeq = line.seq + 1;
        state.received++;
        latencies.push(at - line.at);
        lastAt = at;
      }
      state.ended = 'ended';
    } catch (error) {
      state.ended = error.message;
    }
  };
  return {
    publish: (room, seq, at) => lines.publish(fanOut, { room }, { seq, at }),
    async subscribe({ count, room }) {
      for (let i = 0; i < count; i++) {
        const state = { iterator: await lines.subscribe(fanOut, { room }), received: 0, nextSeq: 0, problem: null, ended: null };
        subscriptions.push(state);
        consume(state);
      }
      return subscriptions.length;
    },
    reset() {
      for (const state of subscriptions) state.received = state.nextSeq = 0;
      latencies = [];
      lastAt = 0;
    },
    async settle({ expected, timeoutMs, latencies: withLatencies }) {
      const deadline = Date.now() + timeoutMs;
      const done = () => subscriptions.every((s) => s.received >= expected || s.problem || s.ended);
      while (!done() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
      // A little longer, so that a copy of the last line arriving right behind it counts as one too many.
      await new Promise((resolve) => setTimeout(resolve, 50));
      const wrong = subscriptions.filter((s) => s.received !== expected || s.problem || s.ended);
      const problems = wrong
        .slice(0, 3)
        .map(
          (s) =>
            `subscription ${subscriptions.indexOf(s)}: ${s.received} of ${expected} lines${s.problem ? `, ${s.problem}` : ''}${s.ended ? `, ${s.ended}` : ''}`,
        );
      const received = subscriptions.reduce((sum, s) => sum + s.received, 0);
      return { received, latencies: withLatencies ? latencies : [], lastAt, problems, wrong: wrong.length };
    },
    async close() {
      await Promise.all(subscriptions.map((state) => state.iterator.return()));
    },
  };
}

/** Publishes `count` lines; resolves with what the parent reports. */
async function publish({ count, perSecond, room }) {
  const calls = [];
  let failed = 0;
  let firstAt = null;
  let lastAt = null;
  const send = (seq) => {
    const at = now();
    firstAt ??= at;
    lastAt = at;
    calls.push(side.publish(room, seq, at).catch(() => failed++));
  };
  if (perSecond > 0) {
    const start = now();
    let seq = 0;
    while (seq < count) {
      // Every line whose time has come (a late timer publishes the ones it owes at once).
      while (seq < count && now() >= start + (seq * 1000) / perSecond) send(seq++);
      if (seq < count) await new Promise((done) => setTimeout(done, Math.max(0, start + (seq * 1000) / perSecond - now())));
    }
  } else {
    for (let seq = 0; seq < count; ) {
      for (const end = Math.min(count, seq + BATCH); seq < end; ) send(seq++);
      await Promise.all(calls.splice(0));
      // Let the sockets write (a MemoryFanOut delivers within `publish`, no I/O in between).
      await new Promise((done) => setImmediate(done));
    }
  }
  await Promise.all(calls);
  return { published: count - failed, failed, firstAt, lastAt };
}

const commands = {
  publish,
  subscribe: (message) => side.subscribe(message),
  reset: () => side.reset(),
  settle: (message) => side.settle(message),
};

process.on('message', (message) => {
  const command = commands[message?.cmd];
  Promise.resolve()
    .then(() => {
      if (!command || (mode === 'ws' && message.cmd !== 'publish')) throw new Error(`no command ${message?.cmd} in ${mode} mode`);
      return command(message);
    })
    .then(
      (result) => process.send({ id: message.id, result }),
      (error) => process.send({ id: message.id, error: String(error?.stack ?? error) }),
    );
});
process.on('disconnect', () => {
  side
    .close()
    .then(() => fanOut?.close?.())
    .then(() => client?.close())
    .finally(() => process.exit(0));
});
process.send({ ready: true, port: side.port });
