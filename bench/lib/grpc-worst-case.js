// gRPC rows of the worst-case table (bench/README.md, section 11): what one client can make the
// generated gRPC server spend within its default limits (readMaxBytes 4 MiB, 100 streams per
// session), over HTTP/2 on loopback, the server in a child process (bench/lib/grpc-worst-server.js).
// Per case: server CPU, the longest event-loop block (monitorEventLoopDelay, 1 ms resolution) and
// RSS growth; the worst of RUNS runs. Needs the grpc-server section's generated server:
//
//   npm run build && node bench/lib/grpc-worst-case.js
import { fork } from 'node:child_process';
import { connect } from 'node:http2';
import { join } from 'node:path';
import { generateOurs, OURS_JS } from './grpc-server.js';
import { ROOT } from './tools.js';

const MiB = 1024 * 1024;
const RUNS = Number(process.env.BENCH_RUNS ?? 3);

function envelopeHead(length) {
  const head = Buffer.alloc(5);
  head.writeUInt32BE(length, 1);
  return head;
}

/** UpdateTaskRequest { task: { id: <n bytes> } } as a protobuf message. */
function updateTask(idBytes) {
  const field = (number, bytes) => {
    const length = [];
    for (let rest = bytes.length; ; rest = Math.floor(rest / 128)) {
      if (rest < 128) {
        length.push(rest);
        break;
      }
      length.push((rest % 128) | 0x80);
    }
    return Buffer.concat([Buffer.from([(number << 3) | 2, ...length]), bytes]);
  };
  return field(1, field(1, Buffer.alloc(idBytes, 0x61)));
}

/** One call: `message` (or `announced` bytes of filler) in `frame`-byte writes; resolves with the grpc-status. */
function call(session, { path, token, message, announced, frame }) {
  return new Promise((resolve) => {
    const headers = { ':method': 'POST', ':path': path, 'content-type': 'application/grpc', te: 'trailers' };
    if (token) headers.authorization = `Bearer ${token}`;
    const stream = session.request(headers);
    let status;
    stream.on('response', (h) => (status ??= h['grpc-status']));
    stream.on('trailers', (t) => (status ??= t['grpc-status']));
    stream.on('error', () => {});
    stream.resume();
    stream.on('close', () => resolve(status ?? `rst ${stream.rstCode}`));
    const body = message
      ? Buffer.concat([envelopeHead(message.length), message])
      : Buffer.concat([envelopeHead(announced - 5), Buffer.alloc(announced - 5, 1)]);
    let wake;
    stream.on('drain', () => wake?.());
    stream.on('close', () => wake?.());
    (async () => {
      for (let offset = 0; offset < body.length && !stream.closed && !stream.destroyed; offset += frame) {
        if (!stream.write(body.subarray(offset, offset + frame))) await new Promise((r) => (wake = r));
      }
      if (!stream.closed && !stream.destroyed) stream.end();
    })();
  });
}

const CASES = [
  {
    name: 'unauthenticated GetTask, 4 MiB in 256 B frames',
    streams: 1,
    call: { path: '/acme.tasks.v1.TaskService/GetTask', announced: 4 * MiB, frame: 256 },
    bound: 'refused from the headers; the body is never read (was 7 s CPU)',
  },
  {
    name: 'authenticated UpdateTask, 4 MiB message in 256 B frames',
    streams: 1,
    call: { path: '/acme.tasks.v1.TaskService/UpdateTask', token: 'bench', message: updateTask(4 * MiB - 64), frame: 256 },
    bound: 'readMaxBytes; linear reading, one copy, one parse',
  },
  {
    name: '100 unauthenticated streams × 4 MiB, one session',
    streams: 100,
    call: { path: '/acme.tasks.v1.TaskService/GetTask', announced: 4 * MiB, frame: 16384 },
    bound: 'refused before the body (was +564 MiB)',
  },
  {
    name: '100 authenticated streams × 4 MiB, one session',
    streams: 100,
    call: { path: '/acme.tasks.v1.TaskService/UpdateTask', token: 'bench', message: updateTask(4 * MiB - 64), frame: 16384 },
    bound: 'maxConcurrentStreams 100 × readMaxBytes',
  },
];

async function main() {
  // Generated afresh from the current templates, as the grpc-server section does.
  const why = generateOurs((line) => console.log(line));
  if (why) throw new Error(why);
  const child = fork(join(ROOT, 'bench/lib/grpc-worst-server.js'), [], { cwd: ROOT, env: { ...process.env, BENCH_GRPC_OUT: OURS_JS } });
  const next = () => new Promise((resolve) => child.once('message', resolve));
  const usage = () => {
    const answer = next();
    child.send('usage');
    return answer;
  };
  const { port } = await next();
  console.log('| layer | case | statuses | server CPU ms | longest block ms | RSS growth MiB | what bounds it |');
  console.log('|---|---|---|---:|---:|---:|---|');
  for (const item of CASES) {
    let worst = { cpu: 0, block: 0, rss: 0 };
    let statuses = '';
    for (let run = 0; run < RUNS; run++) {
      const before = await usage();
      const session = connect(`http://127.0.0.1:${port}`);
      session.on('error', () => {});
      const results = await Promise.all(Array.from({ length: item.streams }, () => call(session, item.call)));
      const after = await usage();
      session.destroy();
      statuses = [...new Set(results)].join(', ');
      worst = {
        cpu: Math.max(worst.cpu, after.cpuMs - before.cpuMs),
        block: Math.max(worst.block, after.maxBlockMs),
        rss: Math.max(worst.rss, (after.rssBytes - before.rssBytes) / MiB),
      };
    }
    console.log(
      `| gRPC | ${item.name} | ${statuses} | ${worst.cpu.toFixed(0)} | ${worst.block.toFixed(1)} | ${worst.rss.toFixed(0)} | ${item.bound} |`,
    );
  }
  child.disconnect();
}

await main();
