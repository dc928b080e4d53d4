/**
 * Fuzzing the generated gRPC server over HTTP/2 on 127.0.0.1, from a fixed seed (printed): a few
 * thousand malformed calls through node:http2 (random and truncated envelopes, lengths beyond the
 * body or the limit, the compressed flag without an encoding, extra messages, bad content types and
 * encodings, bad `grpc-timeout` values, huge headers, missing or bad credentials, streams reset or
 * left half-sent), then a few hundred connections of malformed frames written by hand (unknown
 * types, wrong stream ids and lengths, garbage header blocks, bad SETTINGS, oversized frames).
 * Bounded in count and in time, whichever comes first.
 *
 * Every gRPC answer must carry a proper status (0-16) and a `grpc-message` free of stack traces,
 * file paths and error class names; no answer is a 5xx. Afterwards the server process must still
 * be running, have written nothing to stderr, and answer a stock @grpc/grpc-js client.
 */
import {
  connect as http2Connect,
  constants,
  type ClientHttp2Session,
  type IncomingHttpHeaders,
  type OutgoingHttpHeaders,
} from 'node:http2';
import * as grpc from '@grpc/grpc-js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Rng } from './support/e2e-fuzz.js';
import { fuzz, fuzzSummary } from './support/fuzz-loop.js';
import { startServerProcess, type ServerProcess } from './support/grpc-server-process.js';
import { generateGrpc, grpcJsPackage, metadata, unary } from './support/grpc-setup.js';
import { envelope, frame, FRAME, grpcRequest, headers, PREFACE, RawH2, settings } from './support/h2-frames.js';

const SEED = 0x6e9c2026;
const CALLS = 2500;
const RAW_CONNECTIONS = 300;
const TIME_LIMIT_MS = 15_000;
/** Streams in flight per session: below the server's 100, so none is refused for the count. */
const CONCURRENCY = 40;

const LEAKS: RegExp[] = [
  /\n\s*at\s+\S/,
  /\bat [\w$.<>[\]]+ \(/,
  /\b(?:file:\/\/|node:internal|node_modules\/)\S*/,
  /\/(?:work|home|usr|tmp|opt|root|var|srv)\/[\w./-]+/,
  /[\w-]+\.(?:js|ts|mjs|cjs):\d+/,
  /\b(?:TypeError|ReferenceError|RangeError|SyntaxError)\b/,
];

const PATHS = [
  '/acme.tasks.v1.TaskService/GetTask',
  '/acme.tasks.v1.TaskService/CreateTask',
  '/acme.tasks.v1.TaskService/UpdateTask',
  '/acme.tasks.v1.TaskService/DeleteTask',
  '/acme.tasks.v1.TaskService/ListTasks',
  '/acme.tasks.v1.TaskService/ImportTasks',
  '/acme.tasks.v1.TaskService/SyncTasks',
  '/grpc.health.v1.Health/Check',
  '/acme.tasks.v1.TaskService/Nope',
  '/nope',
  '/',
];
const CONTENT_TYPES = [
  'application/grpc',
  'application/grpc',
  'application/grpc',
  'application/grpc+proto',
  'application/grpc+json',
  'application/grpc-web',
  'application/grpc-web-text',
  'application/connect+proto',
  'application/connect+json',
  'application/json',
  'application/proto',
  'text/plain',
  'application/grpc+xml',
  'application/grpc; charset=utf-8',
  '',
];
const TIMEOUTS = ['1S', '100m', '99999999H', '1n', '0n', '123456789S', '1X', '-1S', '1.5S', 'S', '9'.repeat(40) + 'H', 'H1', '1 S'];
const ENCODINGS = ['identity', 'gzip', 'deflate', 'br', 'zstd', 'bogus'];
const AUTH = ['Bearer editor', 'Bearer reader', 'Bearer nobody', 'Basic eA==', 'Bearer ' + 'x'.repeat(300)];

interface Call {
  path: string;
  head: OutgoingHttpHeaders;
  chunks: Buffer[];
  /** After the chunks: end the request, reset it (CANCEL), or leave it half-sent. */
  then: 'end' | 'reset' | 'hang';
}

let server: ServerProcess;

beforeAll(async () => {
  const { folder } = await generateGrpc('grpc-fuzz');
  server = await startServerProcess(folder, { streamIdleTimeoutMs: 300, sessionIdleTimeoutMs: 2000 });
});

afterAll(async () => {
  if (server && !server.alive()) console.error(`the server process died; its stderr:\n${server.stderr()}`);
  await server?.stop();
});

it(`survives ${CALLS} malformed gRPC calls and ${RAW_CONNECTIONS} connections of malformed frames (seed 0x${SEED.toString(16)})`, async () => {
  const started = Date.now();
  let session: ClientHttp2Session | undefined;
  const sessionFor = () => {
    if (session === undefined || session.closed || session.destroyed) {
      session = http2Connect(`http://127.0.0.1:${server.port}`);
      session.on('error', () => {});
    }
    return session;
  };
  const calls = await fuzz({
    seed: SEED,
    target: CALLS,
    timeLimitMs: TIME_LIMIT_MS,
    concurrency: CONCURRENCY,
    next: randomCall,
    run: async (call, fail) => {
      const result = await send(sessionFor(), call);
      const problem = judge(call, result);
      if (problem) fail(`${call.path} ${String(call.head['content-type'])}: ${problem}`);
      return result.status ?? `rst:${result.rstCode}`;
    },
  });
  session?.destroy();
  console.log(fuzzSummary('grpc fuzz (calls)', SEED, calls, 'calls'));
  const problems = calls.failures;
  const done = calls.sent;

  // Then connections of malformed frames, from their own seeded sequence.
  const rng = new Rng(SEED + 1);
  const rawStarted = Date.now();
  let rawDone = 0;
  for (let i = 0; i < RAW_CONNECTIONS && Date.now() - started < TIME_LIMIT_MS * 1.5; i += 30) {
    await Promise.all(Array.from({ length: Math.min(30, RAW_CONNECTIONS - i) }, () => rawCase(server.port, rng)));
    rawDone += Math.min(30, RAW_CONNECTIONS - i);
  }
  console.log(
    `grpc fuzz (raw frames): seed 0x${(SEED + 1).toString(16)}, ${rawDone} connections in ${((Date.now() - rawStarted) / 1000).toFixed(1)} s`,
  );
  expect(problems.slice(0, 20)).toEqual([]);
  expect(done).toBeGreaterThanOrEqual(1000);
  expect(rawDone).toBeGreaterThanOrEqual(100);
  expect(server.alive()).toBe(true);
  expect(server.stderr()).toBe('');

  // A good call afterwards, from a stock client.
  const { TaskService } = grpcJsPackage();
  const client = new TaskService(`127.0.0.1:${server.port}`, grpc.credentials.createInsecure());
  try {
    const { value } = await unary<{ title: string }>(client, 'getTask', { id: 't1' }, metadata('editor'));
    expect(value.title).toBe('Write docs');
  } finally {
    client.close();
  }
});

function randomCall(rng: Rng): Call {
  const path = rng.pick(PATHS);
  const head: OutgoingHttpHeaders = {
    ':method': rng.chance(0.95) ? 'POST' : rng.pick(['GET', 'PUT', 'OPTIONS']),
    ':path': path,
    te: 'trailers',
  };
  const type = rng.pick(CONTENT_TYPES);
  if (type !== '' || rng.chance(0.5)) head['content-type'] = type;
  if (rng.chance(0.7)) head.authorization = rng.pick(AUTH);
  if (rng.chance(0.25)) head['grpc-timeout'] = rng.pick(TIMEOUTS);
  if (rng.chance(0.1)) head['grpc-encoding'] = rng.pick(ENCODINGS);
  if (rng.chance(0.03)) head['x-huge'] = 'h'.repeat(rng.int(8_000, 60_000));
  if (rng.chance(0.05)) head['connect-timeout-ms'] = rng.pick(['1', '9999999999', '-1', 'abc']);
  const body = randomBody(rng);
  const chunks: Buffer[] = [];
  for (let offset = 0; offset < body.length; ) {
    const size = rng.int(1, 64);
    chunks.push(body.subarray(offset, offset + size));
    offset += size;
  }
  const roll = rng.next();
  return { path, head, chunks, then: roll < 0.85 ? 'end' : roll < 0.95 ? 'reset' : 'hang' };
}

function randomBody(rng: Rng): Buffer {
  const message = rng.pick([Buffer.from([0x0a, 0x02, 0x74, 0x31]), Buffer.alloc(0), rng.bytes(rng.int(1, 40))]);
  switch (rng.int(0, 8)) {
    case 0:
      return envelope(message);
    case 1:
      return rng.bytes(rng.int(0, 200)); // no envelope at all
    case 2:
      return envelope(message, 1); // compressed flag, no grpc-encoding
    case 3:
      return envelope(message, 0, message.length + rng.int(1, 1000)); // length beyond the body
    case 4:
      return envelope(message, 0, rng.pick([4 * 1024 * 1024 + 1, 0xffffffff, 2 ** 31])); // beyond the limit
    case 5:
      return Buffer.concat([envelope(message), envelope(message), envelope(message)]); // extra messages
    case 6:
      return envelope(message).subarray(0, rng.int(0, 4 + message.length)); // truncated
    case 7:
      return envelope(message, rng.pick([0x02, 0x80, 0xff, 0x7e])); // unknown flags
    default:
      return Buffer.alloc(0);
  }
}

interface Outcome {
  status: string | undefined;
  httpStatus: number | undefined;
  message: string | undefined;
  body: string;
  rstCode: number;
  error: string | undefined;
}

/** Sends `call`; resolves with what came back once the stream closed (or after 3 s). */
function send(session: ClientHttp2Session, call: Call): Promise<Outcome> {
  return new Promise((resolve) => {
    let head: IncomingHttpHeaders = {};
    let trailers: IncomingHttpHeaders = {};
    let body = '';
    let error: string | undefined;
    let stream;
    try {
      stream = session.request(call.head);
    } catch (cause) {
      resolve({ status: undefined, httpStatus: undefined, message: undefined, body: '', rstCode: -1, error: (cause as Error).message });
      return;
    }
    const finish = () => {
      clearTimeout(timer);
      const source = head['grpc-status'] !== undefined ? head : trailers;
      resolve({
        status: source['grpc-status'] as string | undefined,
        httpStatus: head[':status'] as number | undefined,
        message: source['grpc-message'] as string | undefined,
        body,
        rstCode: stream.rstCode ?? 0,
        error,
      });
    };
    const timer = setTimeout(() => {
      stream.close(constants.NGHTTP2_CANCEL);
    }, 3000);
    stream.on('response', (h) => (head = h));
    stream.on('trailers', (t) => (trailers = t));
    stream.on('data', (chunk: Buffer) => {
      if (body.length < 10_000) body += chunk.toString('latin1');
    });
    stream.on('error', (cause: Error) => (error = cause.message));
    stream.on('close', finish);
    for (const chunk of call.chunks) if (!stream.destroyed) stream.write(chunk);
    if (call.then === 'end') stream.end();
    else if (call.then === 'reset') setImmediate(() => stream.close(constants.NGHTTP2_CANCEL));
  });
}

/** What is wrong with `outcome`, if anything. */
function judge(call: Call, outcome: Outcome): string | undefined {
  // Connect's unary protocol maps codes to HTTP statuses (a malformed message is INTERNAL, 500, as in
  // gRPC); any 5xx must be such a Connect error, never an unexpected failure.
  if (outcome.httpStatus !== undefined && outcome.httpStatus >= 500 && !isConnectError(outcome.body))
    return `HTTP ${outcome.httpStatus}: ${outcome.body.slice(0, 200)}`;
  const text = `${outcome.message === undefined ? '' : safeDecode(outcome.message)}\n${outcome.body}`;
  for (const leak of LEAKS) if (leak.test(text)) return `leaks ${leak}: ${text.slice(0, 300)}`;
  if (outcome.status !== undefined && !/^(?:[0-9]|1[0-6])$/.test(outcome.status)) return `grpc-status ${outcome.status}`;
  // A gRPC answer (not one we reset, nor a stream the server reset) has a status.
  const grpcAnswer =
    outcome.httpStatus === 200 &&
    String(call.head['content-type'] ?? '').startsWith('application/grpc') &&
    !String(call.head['content-type']).startsWith('application/grpc-web');
  if (grpcAnswer && call.then === 'end' && outcome.rstCode === 0 && outcome.status === undefined)
    return 'a gRPC answer without grpc-status';
  return undefined;
}

const CONNECT_CODES = new Set([
  'canceled',
  'unknown',
  'invalid_argument',
  'deadline_exceeded',
  'not_found',
  'already_exists',
  'permission_denied',
  'resource_exhausted',
  'failed_precondition',
  'aborted',
  'out_of_range',
  'unimplemented',
  'internal',
  'unavailable',
  'data_loss',
  'unauthenticated',
]);

function isConnectError(body: string): boolean {
  try {
    const parsed = JSON.parse(body) as { code?: unknown; message?: unknown };
    return (
      typeof parsed.code === 'string' &&
      CONNECT_CODES.has(parsed.code) &&
      (parsed.code !== 'internal' || /^(?:parse binary|protocol error|internal error)/.test(String(parsed.message)))
    );
  } catch {
    return false;
  }
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** One connection of hand-written frames, some malformed; resolves when the server has answered or closed, or after 0.5 s. */
async function rawCase(port: number, rng: Rng): Promise<void> {
  const raw = await RawH2.open(port);
  const frames: Buffer[] = [];
  const shape = rng.int(0, 9);
  if (shape === 0)
    frames.push(PREFACE.subarray(0, rng.int(1, 23)), rng.bytes(rng.int(0, 40))); // broken preface
  else {
    frames.push(PREFACE, settings());
    for (let i = rng.int(1, 6); i > 0; i--) frames.push(randomFrame(rng));
  }
  raw.write(...frames);
  await raw
    .until(
      () => raw.closed || raw.frames.some((f) => f.type === FRAME.GOAWAY || f.type === FRAME.RST_STREAM || f.type === FRAME.HEADERS),
      500,
    )
    .catch(() => {});
  raw.destroy();
}

function randomFrame(rng: Rng): Buffer {
  const stream = rng.pick([0, 1, 2, 3, 5, 0x7fffffff, rng.int(1, 1000)]);
  switch (rng.int(0, 11)) {
    case 0:
      return frame(rng.int(0, 255), rng.int(0, 255), stream, rng.bytes(rng.int(0, 64))); // anything
    case 1:
      return frame(FRAME.HEADERS, 4 | rng.int(0, 1), stream, rng.bytes(rng.int(0, 64))); // garbage HPACK
    case 2:
      return frame(FRAME.DATA, rng.int(0, 1), stream, rng.bytes(rng.int(0, 64))); // DATA on an idle stream
    case 3:
      return settings([[rng.int(0, 8), rng.pick([0, 1, 2, 0x7fffffff, 0xffffffff, 16383, 16777216])]]);
    case 4:
      return frame(FRAME.PING, 0, stream, rng.bytes(rng.pick([0, 7, 8, 9]))); // wrong length or stream
    case 5:
      return frame(FRAME.WINDOW_UPDATE, 0, stream, Buffer.from([0, 0, 0, rng.pick([0, 1])])); // zero increment
    case 6:
      return frame(FRAME.CONTINUATION, 4, stream, rng.bytes(8)); // without HEADERS
    case 7:
      return frame(FRAME.DATA, 0, 1, Buffer.alloc(rng.pick([16385, 70000]))); // beyond the frame size
    case 8:
      return headers(1, grpcRequest(rng.pick(PATHS), [['authorization', 'Bearer editor']]), rng.chance(0.5)); // a good one
    case 9:
      return Buffer.concat([
        headers(1, grpcRequest(PATHS[0])),
        frame(FRAME.RST_STREAM, 0, 1, Buffer.from([0, 0, 0, 8])),
        frame(FRAME.DATA, 0, 1, envelope(Buffer.alloc(4))),
      ]);
    case 10:
      return frame(FRAME.GOAWAY, 0, 0, rng.bytes(rng.int(0, 12)));
    default:
      return headers(rng.pick([1, 3]), [
        [':method', 'POST'],
        [':path', rng.pick(PATHS)],
        ['content-type', 'application/grpc'],
        ['x', rng.bytes(20).toString('latin1')],
      ]);
  }
}
