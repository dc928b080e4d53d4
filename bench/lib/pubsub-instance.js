// One server instance of the `pubsub` benchmark, in a child process forked by bench/lib/pubsub.js:
// the generated realtime server (createRealtimeServer from schemas/asyncapi/tasks.asyncapi.yaml,
// generated with `options.redis: true` and transpiled into BENCH_PUBSUB_OUT) on node:http, its
// WebSocket `fanOut` a `RedisFanOut` on BENCH_REDIS_URL, or the default `MemoryFanOut` without it.
// Handlers: `join` subscribes the socket to `room:<room>` and answers `joined` once it is
// subscribed (so the harness knows when a subscriber hears what is published); `say` is unused.
// Options are the defaults, except `maxConnectionsPerClient` (every subscriber comes from 127.0.0.1).
//
// The parent talks over IPC: this process sends `{ port }` once listening; `{ cmd: 'publish',
// count, perSecond, room }` publishes `count` chat lines to the room through `publish.chat` — at
// `perSecond` (a fixed rate) or, with `perSecond: 0`, as a burst of BATCH lines per turn of the
// event loop — and answers `{ published, failed, firstAt, lastAt }`. A line's `text` is
// `<seq> <time>`, the time of its publish call in ms on the machine's clock
// (performance.timeOrigin + performance.now(), comparable across processes).
import { createServer } from 'node:http';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const out = resolve(process.env.BENCH_PUBSUB_OUT ?? 'bench/.work/pubsub/ours-js');
const { createRealtimeServer, RedisFanOut } = await import(pathToFileURL(join(out, 'server.js')).href);

/** Lines published per turn of the event loop in a burst. */
const BATCH = 50;
const MESSAGE_ID = '00000000-0000-4000-8000-000000000000';

let fanOut;
let client;
if (process.env.BENCH_REDIS_URL) {
  const { createClient } = await import('redis');
  client = createClient({ url: process.env.BENCH_REDIS_URL, disableOfflineQueue: true });
  client.on('error', (error) => process.stderr.write(`redis: ${error.message}\n`));
  await client.connect();
  fanOut = new RedisFanOut(client, { prefix: process.env.BENCH_REDIS_PREFIX ?? 'bench:' });
}

const realtime = createRealtimeServer(
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

const now = () => performance.timeOrigin + performance.now();
const sentAt = new Date().toISOString();

/** Publishes `count` lines; resolves with what the parent reports. */
async function publish({ count, perSecond, room }) {
  const topic = `room:${room}`;
  const calls = [];
  let failed = 0;
  let firstAt = null;
  let lastAt = null;
  const send = (seq) => {
    const at = now();
    firstAt ??= at;
    lastAt = at;
    const line = { type: 'said', messageId: MESSAGE_ID, room, user: 'bench', text: `${seq} ${at}`, sentAt };
    calls.push(realtime.publish.chat(line, topic).catch(() => failed++));
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

const http = createServer(realtime.listener);
realtime.attach(http);
http.listen(0, '127.0.0.1', () => process.send({ port: http.address().port }));

process.on('message', (message) => {
  if (message?.cmd === 'publish')
    publish(message).then(
      (result) => process.send({ published: result }),
      (error) => process.send({ error: String(error?.stack ?? error) }),
    );
});
process.on('disconnect', () => {
  http.closeAllConnections();
  http.close();
  realtime
    .close()
    .then(() => fanOut?.close())
    .then(() => client?.close())
    .finally(() => process.exit(0));
});
