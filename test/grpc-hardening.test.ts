/**
 * The generated gRPC server under attack (issue 11, F3 F4 F5 F12), over loopback: nothing expensive
 * before authentication (the body of an unauthenticated call is never read, on either call path),
 * linear message reading, concurrent streams per HTTP/2 session, idle streams and sessions, the
 * protocol sniffer's timeout, and deadlines a timer cannot hold. CPU and memory are the server's
 * own, read from its child process (support/grpc-server-process.ts); attacks use node:http2 and
 * hand-written frames (support/h2-frames.ts).
 */
import { request as httpRequest } from 'node:http';
import { connect as http2Connect, type ClientHttp2Session, type ClientHttp2Stream, type IncomingHttpHeaders } from 'node:http2';
import { connect as netConnect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateGrpc, load } from './support/grpc-setup.js';
import { startServerProcess, type ServerProcess } from './support/grpc-server-process.js';
import { envelope, ERROR, errorCode, FRAME, grpcRequest, headers, data, PREFACE, RawH2 } from './support/h2-frames.js';

interface Server {
  listen(port: number, host?: string): Promise<number>;
  close(): Promise<void>;
}
interface Usage {
  createServer(options?: object): Server;
}

const MiB = 1024 * 1024;
const GET_TASK = '/acme.tasks.v1.TaskService/GetTask';
const LIST_TASKS = '/acme.tasks.v1.TaskService/ListTasks';
const SYNC_TASKS = '/acme.tasks.v1.TaskService/SyncTasks';
const UPDATE_TASK = '/acme.tasks.v1.TaskService/UpdateTask';
/** GetTaskRequest { id: "t1" } and ListTasksRequest { project_id: "endless" }, encoded by hand. */
const GET_T1 = Buffer.from([0x0a, 0x02, 0x74, 0x31]);
const LIST_ENDLESS = Buffer.concat([Buffer.from([0x0a, 0x07]), Buffer.from('endless')]);

let folder: string;

beforeAll(async () => {
  ({ folder } = await generateGrpc('grpc-hardening'));
});

describe('F3: nothing expensive before authentication', () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await startServerProcess(folder);
  });
  afterAll(() => server?.stop());

  it('an unauthenticated 4 MiB GetTask in 256-byte frames is refused (UNAUTHENTICATED) before its body is read', async () => {
    const before = await server.usage();
    const session = http2Connect(`http://127.0.0.1:${server.port}`);
    const stream = session.request({ ':method': 'POST', ':path': GET_TASK, 'content-type': 'application/grpc', te: 'trailers' });
    const total = 4 * MiB;
    let sent = 0;
    let answeredAt: number | undefined;
    const answer = new Promise<IncomingHttpHeaders>((resolve) =>
      stream.once('response', (h) => {
        answeredAt = sent;
        resolve(h);
      }),
    );
    stream.on('error', () => {});
    stream.resume();
    const closed = new Promise<void>((resolve) => stream.once('close', resolve));
    // The envelope announces 4 MiB - 5 bytes; then 256-byte DATA frames, with backpressure.
    stream.write(envelope(Buffer.alloc(0), 0, total - 5));
    sent = 5;
    const frame = Buffer.alloc(256, 1);
    while (sent < total && !stream.closed && !stream.destroyed) {
      sent += frame.length;
      if (!stream.write(frame)) await Promise.race([new Promise((resolve) => stream.once('drain', resolve)), closed]);
    }
    const head = await answer;
    await closed;
    session.close();
    const after = await server.usage();
    expect(head['grpc-status']).toBe('16');
    expect(decodeURIComponent(String(head['grpc-message']))).toBe('missing or invalid credentials');
    // The answer came before the client had sent a quarter of the message, and the stream was reset.
    expect(answeredAt!).toBeLessThan(total / 4);
    expect(sent).toBeLessThan(total);
    // The old server read the whole message first: ~7 s of CPU. Generous for a busy machine.
    expect(after.cpuMs - before.cpuMs).toBeLessThan(1000);
  });

  it.each([
    [
      'gRPC-Web',
      'application/grpc-web+proto',
      (status: number, head: Record<string, unknown>) => status === 200 && head['grpc-status'] === '16',
    ],
    ['Connect unary', 'application/proto', (status: number) => status === 401],
    ['Connect streaming', 'application/connect+proto', (status: number) => status === 200],
  ])('%s over HTTP/1.1: an unauthenticated 4 MiB request is answered before its body is sent', async (_name, type, refused) => {
    // Answered with 64 KiB of the 4 MiB sent (http1Upload rejects if no answer comes while it waits).
    const { status, head } = await http1Upload(server.port, GET_TASK, type, 4 * MiB);
    expect(refused(status, head)).toBe(true);
  });

  it('reads a message split into many frames linearly: 4 MiB in 1 KiB frames, authenticated, costs little CPU', async () => {
    const before = await server.usage();
    const session = http2Connect(`http://127.0.0.1:${server.port}`);
    const stream = session.request({
      ':method': 'POST',
      ':path': UPDATE_TASK,
      'content-type': 'application/grpc',
      te: 'trailers',
      authorization: 'Bearer editor',
    });
    const answer = grpcAnswer(stream);
    // UpdateTaskRequest { task: { id: <~4 MiB> } }: the unknown id answers NOT_FOUND (without echoing it).
    const task = lengthDelimited(1, Buffer.alloc(4 * MiB - 64, 0x61));
    const message = envelope(lengthDelimited(1, task));
    for (let offset = 0; offset < message.length; offset += 1024) {
      if (!stream.write(message.subarray(offset, offset + 1024))) await new Promise((resolve) => stream.once('drain', resolve));
    }
    stream.end();
    const { trailers } = await answer;
    session.close();
    const after = await server.usage();
    expect(trailers['grpc-status']).toBe('5'); // NOT_FOUND: the handler got the whole message
    expect(after.cpuMs - before.cpuMs).toBeLessThan(1500);
  });
});

describe('F4: concurrent streams and idle streams', () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await startServerProcess(folder, { streamIdleTimeoutMs: 500 });
  });
  afterAll(() => server?.stop());

  it('refuses streams beyond 100 per session (REFUSED_STREAM); half-sent streams are reset when idle, a resting bidi stream is not', async () => {
    const raw = await RawH2.open(server.port);
    raw.start();
    // A bidi stream with one complete message, resting between messages.
    raw.write(headers(1, grpcRequest(SYNC_TASKS, [['authorization', 'Bearer editor']])), data(1, envelope(Buffer.alloc(0))));
    // 149 authenticated GetTask streams, each with half a message.
    const ids: number[] = [];
    const frames: Buffer[] = [];
    for (let i = 1; i < 150; i++) {
      const id = 1 + 2 * i;
      ids.push(id);
      frames.push(headers(id, grpcRequest(GET_TASK, [['authorization', 'Bearer editor']])), data(id, envelope(Buffer.alloc(10), 0, 100)));
    }
    raw.write(...frames);
    const resets = (code: number) => raw.frames.filter((f) => f.type === FRAME.RST_STREAM && errorCode(f) === code).map((f) => f.streamId);
    await raw.until(() => resets(ERROR.REFUSED_STREAM).length >= 50, 10_000);
    expect(resets(ERROR.REFUSED_STREAM).sort((a, b) => a - b)).toEqual(ids.slice(99));
    // The 99 accepted GetTask streams go silent: each is reset (CANCEL) after the idle timeout.
    await raw.until(() => resets(ERROR.CANCEL).length >= 99, 15_000);
    expect(resets(ERROR.CANCEL).sort((a, b) => a - b)).toEqual(ids.slice(0, 99));
    // The bidi stream rests between messages, which is its right: still open, and it echoed.
    expect(raw.frames.some((f) => f.streamId === 1 && (f.type === FRAME.RST_STREAM || (f.flags & 1) === 1))).toBe(false);
    expect(raw.frames.some((f) => f.streamId === 1 && f.type === FRAME.DATA)).toBe(true);
    raw.destroy();
  });

  it("100 unauthenticated streams sending 4 MiB each leave the server's memory flat", async () => {
    const before = await server.usage();
    const session = http2Connect(`http://127.0.0.1:${server.port}`);
    const calls: Promise<string | undefined>[] = [];
    for (let i = 0; i < 100; i++) calls.push(unauthenticatedUpload(session, 4 * MiB));
    const statuses = await Promise.all(calls);
    const after = await server.usage();
    session.close();
    expect(statuses.every((status) => status === '16')).toBe(true);
    // The old server buffered every message before authenticating: +564 MiB for this.
    expect(after.rssBytes - before.rssBytes).toBeLessThan(64 * MiB);
  });
});

describe('F5: a connection that says nothing is closed', () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await startServerProcess(folder, { sniffTimeoutMs: 300, sessionIdleTimeoutMs: 400 });
  });
  afterAll(() => server?.stop());

  it('a silent TCP connection and a half-sent preface are closed after the sniff timeout', async () => {
    const silent = closedWithin(server.port, [], 5000);
    const halfPreface = closedWithin(server.port, [PREFACE.subarray(0, 10)], 5000);
    expect(await silent).toBe(true);
    expect(await halfPreface).toBe(true);
  });

  it('an HTTP/2 session without streams is closed (GOAWAY) after the session idle timeout, also after a call', async () => {
    const idle = http2Connect(`http://127.0.0.1:${server.port}`);
    idle.on('error', () => {});
    const goaway = new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), 5000);
      idle.once('goaway', () => (clearTimeout(timer), resolve(true)));
    });
    expect(await goaway).toBe(true);
    idle.destroy();

    const used = http2Connect(`http://127.0.0.1:${server.port}`);
    used.on('error', () => {});
    const stream = used.request({
      ':method': 'POST',
      ':path': GET_TASK,
      'content-type': 'application/grpc',
      te: 'trailers',
      authorization: 'Bearer editor',
    });
    const answer = grpcAnswer(stream);
    stream.end(envelope(GET_T1));
    expect((await answer).trailers['grpc-status']).toBe('0');
    const closed = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), 5000);
      used.once('close', () => (clearTimeout(timer), resolve(true)));
    });
    expect(closed).toBe(true);
  });
});

describe('F12: deadlines', () => {
  let server: Server;
  let port: number;
  beforeAll(async () => {
    const usage = await load<Usage>(folder, 'usage.js');
    server = usage.createServer();
    port = await server.listen(0, '127.0.0.1');
  });
  afterAll(() => server?.close());

  it('grpc-timeout: 99999999H (longer than a timer holds) is no deadline, on the HTTP/2 gRPC path', async () => {
    const session = http2Connect(`http://127.0.0.1:${port}`);
    const stream = session.request({
      ':method': 'POST',
      ':path': LIST_TASKS,
      'content-type': 'application/grpc',
      te: 'trailers',
      authorization: 'Bearer editor',
      'grpc-timeout': '99999999H',
    });
    stream.end(envelope(LIST_ENDLESS));
    const messages = await countMessages(stream, 5);
    session.destroy();
    expect(messages).toBe(5); // ~100 ms of streaming; the old server failed after ~1 ms
  });

  it.each([
    ['gRPC-Web', { 'content-type': 'application/grpc-web+proto', 'grpc-timeout': '99999999H' }, envelope(LIST_ENDLESS)],
    ['Connect', { 'content-type': 'application/connect+proto', 'connect-timeout-ms': '9999999999' }, envelope(LIST_ENDLESS)],
  ])('%s over HTTP/1.1: a deadline longer than a timer holds is no deadline', async (_name, head, body) => {
    const response = await fetch(`http://127.0.0.1:${port}${LIST_TASKS}`, {
      method: 'POST',
      headers: { ...head, authorization: 'Bearer editor' },
      body: new Uint8Array(body),
    });
    const reader = response.body!.getReader();
    let bytes = 0;
    while (bytes < 5 * 10) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.length;
    }
    await reader.cancel();
    expect(response.headers.get('grpc-status')).toBeNull();
    expect(bytes).toBeGreaterThanOrEqual(50); // several tasks streamed: no early DEADLINE_EXCEEDED
  });

  it.each([
    ['1n', '4'],
    ['1u', '4'],
    ['1m', '4'],
    ['1X', '3'],
    ['123456789S', '3'],
    ['-1S', '3'],
    ['1.5S', '3'],
    ['S', '3'],
    ['1 S', '3'],
  ])('grpc-timeout %j answers status %s (tiny: DEADLINE_EXCEEDED; malformed: INVALID_ARGUMENT)', async (timeout, status) => {
    const session = http2Connect(`http://127.0.0.1:${port}`);
    const stream = session.request({
      ':method': 'POST',
      ':path': GET_TASK,
      'content-type': 'application/grpc',
      te: 'trailers',
      authorization: 'Bearer editor',
      'grpc-timeout': timeout,
    });
    const answer = grpcAnswer(stream);
    stream.end(envelope(Buffer.concat([Buffer.from([0x0a, 0x04]), Buffer.from('slow')])));
    const { trailers } = await answer;
    session.close();
    expect(trailers['grpc-status']).toBe(status);
  });

  it('maxTimeoutMs caps deadlines (INVALID_ARGUMENT above) and must fit a timer', async () => {
    const usage = await load<Usage>(folder, 'usage.js');
    expect(() => usage.createServer({ maxTimeoutMs: 2 ** 31 })).toThrow(/options\.maxTimeoutMs must be an integer from 1 to 2147483647/);
    expect(() => usage.createServer({ maxConcurrentStreams: 0 })).toThrow(/options\.maxConcurrentStreams/);
    const capped = usage.createServer({ maxTimeoutMs: 1000 });
    const cappedPort = await capped.listen(0, '127.0.0.1');
    const session = http2Connect(`http://127.0.0.1:${cappedPort}`);
    const stream = session.request({
      ':method': 'POST',
      ':path': GET_TASK,
      'content-type': 'application/grpc',
      te: 'trailers',
      authorization: 'Bearer editor',
      'grpc-timeout': '2S',
    });
    const answer = grpcAnswer(stream);
    stream.end(envelope(GET_T1));
    const { trailers } = await answer;
    session.close();
    await capped.close();
    expect(trailers['grpc-status']).toBe('3');
  });
});

/** A protobuf length-delimited field: tag, varint length, bytes. */
function lengthDelimited(field: number, bytes: Buffer): Buffer {
  const length: number[] = [];
  for (let rest = bytes.length; ; rest = Math.floor(rest / 128)) {
    if (rest < 128) {
      length.push(rest);
      break;
    }
    length.push((rest % 128) | 0x80);
  }
  return Buffer.concat([Buffer.from([(field << 3) | 2, ...length]), bytes]);
}

/** Status and trailers of a gRPC call on `stream` (Trailers-Only answers carry them in the headers). */
function grpcAnswer(stream: ClientHttp2Stream): Promise<{ headers: IncomingHttpHeaders; trailers: IncomingHttpHeaders; rstCode: number }> {
  return new Promise((resolve) => {
    let head: IncomingHttpHeaders = {};
    let trailers: IncomingHttpHeaders = {};
    stream.on('response', (h) => (head = h));
    stream.on('trailers', (t) => (trailers = t));
    stream.on('data', () => {});
    stream.on('error', () => {});
    stream.on('close', () =>
      resolve({ headers: head, trailers: head['grpc-status'] !== undefined ? head : trailers, rstCode: stream.rstCode ?? 0 }),
    );
  });
}

/** Reads until `wanted` messages have arrived (or the stream ends); returns how many did. */
function countMessages(stream: ClientHttp2Stream, wanted: number): Promise<number> {
  return new Promise((resolve) => {
    let bytes = Buffer.alloc(0);
    let count = 0;
    stream.on('error', () => {});
    stream.on('data', (chunk: Buffer) => {
      bytes = Buffer.concat([bytes, chunk]);
      while (bytes.length >= 5 && bytes.length >= 5 + bytes.readUInt32BE(1)) {
        bytes = bytes.subarray(5 + bytes.readUInt32BE(1));
        if (++count === wanted) resolve(count);
      }
    });
    stream.on('close', () => resolve(count));
  });
}

/** An unauthenticated GetTask with a `size`-byte message, sent in 16 KiB writes until answered; its grpc-status. */
function unauthenticatedUpload(session: ClientHttp2Session, size: number): Promise<string | undefined> {
  const stream = session.request({ ':method': 'POST', ':path': GET_TASK, 'content-type': 'application/grpc', te: 'trailers' });
  const answer = grpcAnswer(stream);
  const chunk = Buffer.alloc(16 * 1024, 1);
  void (async () => {
    stream.write(envelope(Buffer.alloc(0), 0, size - 5));
    for (let sent = 5; sent < size && !stream.closed && !stream.destroyed; sent += chunk.length) {
      if (!stream.write(chunk)) await new Promise((resolve) => (stream.once('drain', resolve), stream.once('close', resolve)));
    }
    if (!stream.closed) stream.end();
  })();
  return answer.then(({ trailers }) => trailers['grpc-status'] as string | undefined);
}

/** An HTTP/1.1 POST of `size` bytes in 64 KiB writes, stopping when the answer arrives. */
function http1Upload(port: number, path: string, type: string, size: number): Promise<{ status: number; head: Record<string, unknown> }> {
  // Declares `size` bytes but sends only the first 64 KiB, then waits: a server that reads the body
  // before authenticating never answers (or answers 408). Counting bytes handed to the socket while
  // sending everything is no measure: loopback buffers can take all of them before a busy server reads.
  const firstChunk = 64 * 1024;
  return new Promise((resolve, reject) => {
    let answered = false;
    const request = httpRequest({
      host: '127.0.0.1',
      port,
      path,
      method: 'POST',
      headers: { 'content-type': type, 'content-length': String(size) },
    });
    const timer = setTimeout(() => {
      request.destroy();
      reject(new Error(`no answer within 10 s with ${firstChunk} of ${size} bytes sent`));
    }, 10_000);
    request.on('response', (response) => {
      answered = true;
      clearTimeout(timer);
      response.resume();
      resolve({ status: response.statusCode ?? 0, head: response.headers });
      request.destroy();
    });
    request.on('error', (error) => (answered ? undefined : reject(error)));
    request.write(Buffer.alloc(firstChunk, 1));
  });
}

/** Connects, writes `chunks`, and reports whether the server closed the connection within `ms`. */
function closedWithin(port: number, chunks: Buffer[], ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = netConnect(port, '127.0.0.1', () => {
      for (const chunk of chunks) socket.write(chunk);
    });
    const timer = setTimeout(() => {
      socket.destroy();
      resolve(false);
    }, ms);
    socket.on('error', () => {});
    socket.on('data', () => {});
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}
