/**
 * HTTP/2 frames written and read by hand, for clients that do what node:http2 will not: ignore
 * SETTINGS_MAX_CONCURRENT_STREAMS, stop in the middle of the preface, send malformed frames.
 * Header blocks are HPACK literals without indexing or Huffman coding (RFC 7541 §6.2.2), which any
 * decoder accepts; frames from the server are split but their header blocks are not decoded.
 */
import { connect, type Socket } from 'node:net';

export const PREFACE = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 'latin1');
export const FRAME = { DATA: 0, HEADERS: 1, RST_STREAM: 3, SETTINGS: 4, PING: 6, GOAWAY: 7, WINDOW_UPDATE: 8, CONTINUATION: 9 } as const;
export const FLAG = { END_STREAM: 1, ACK: 1, END_HEADERS: 4 } as const;
export const ERROR = { NO_ERROR: 0, PROTOCOL_ERROR: 1, REFUSED_STREAM: 7, CANCEL: 8 } as const;

export interface Frame {
  type: number;
  flags: number;
  streamId: number;
  payload: Buffer;
}

export function frame(type: number, flags: number, streamId: number, payload: Buffer = Buffer.alloc(0)): Buffer {
  const head = Buffer.alloc(9);
  head.writeUIntBE(payload.length, 0, 3);
  head[3] = type;
  head[4] = flags;
  head.writeUInt32BE(streamId & 0x7fffffff, 5);
  return Buffer.concat([head, payload]);
}

export function settings(entries: Array<[id: number, value: number]> = []): Buffer {
  const payload = Buffer.alloc(6 * entries.length);
  entries.forEach(([id, value], i) => {
    payload.writeUInt16BE(id, 6 * i);
    payload.writeUInt32BE(value, 6 * i + 2);
  });
  return frame(FRAME.SETTINGS, 0, 0, payload);
}

/** A HEADERS frame (END_HEADERS) with `fields` as HPACK literals. */
export function headers(streamId: number, fields: Array<[string, string]>, endStream = false): Buffer {
  const block = Buffer.concat(fields.flatMap(([name, value]) => [Buffer.from([0]), hpackString(name), hpackString(value)]));
  return frame(FRAME.HEADERS, FLAG.END_HEADERS | (endStream ? FLAG.END_STREAM : 0), streamId, block);
}

export function data(streamId: number, payload: Buffer, endStream = false): Buffer {
  return frame(FRAME.DATA, endStream ? FLAG.END_STREAM : 0, streamId, payload);
}

export function rstStream(streamId: number, code: number): Buffer {
  const payload = Buffer.alloc(4);
  payload.writeUInt32BE(code);
  return frame(FRAME.RST_STREAM, 0, streamId, payload);
}

/** The request headers of a gRPC call to `path`. */
export function grpcRequest(path: string, extra: Array<[string, string]> = []): Array<[string, string]> {
  return [
    [':method', 'POST'],
    [':scheme', 'http'],
    [':path', path],
    [':authority', 'localhost'],
    ['content-type', 'application/grpc'],
    ['te', 'trailers'],
    ...extra,
  ];
}

/** A gRPC message: flag byte, big-endian length, bytes. */
export function envelope(message: Buffer, flags = 0, length = message.length): Buffer {
  const head = Buffer.alloc(5);
  head[0] = flags;
  head.writeUInt32BE(length, 1);
  return Buffer.concat([head, message]);
}

function hpackString(text: string): Buffer {
  const bytes = Buffer.from(text, 'latin1');
  return Buffer.concat([hpackInteger(bytes.length, 7, 0), bytes]);
}

function hpackInteger(value: number, prefixBits: number, high: number): Buffer {
  const max = (1 << prefixBits) - 1;
  if (value < max) return Buffer.from([high | value]);
  const out = [high | max];
  let rest = value - max;
  while (rest >= 128) {
    out.push((rest % 128) + 128);
    rest = Math.floor(rest / 128);
  }
  out.push(rest);
  return Buffer.from(out);
}

/** A raw connection: everything the server sends, split into frames; acknowledges the server's SETTINGS. */
export class RawH2 {
  readonly socket: Socket;
  readonly frames: Frame[] = [];
  closed = false;
  private buffer = Buffer.alloc(0);
  private afterPreface = false;
  private waiters: Array<() => void> = [];

  private constructor(socket: Socket) {
    this.socket = socket;
    socket.on('data', (chunk: Buffer) => this.read(chunk));
    socket.on('error', () => {});
    socket.on('close', () => {
      this.closed = true;
      this.notify();
    });
  }

  static open(port: number): Promise<RawH2> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => resolve(new RawH2(socket)));
      socket.once('error', reject);
    });
  }

  write(...chunks: Buffer[]): void {
    if (!this.closed) this.socket.write(Buffer.concat(chunks));
  }

  /** Sends the preface and an empty SETTINGS frame. */
  start(settingsEntries: Array<[number, number]> = []): void {
    this.afterPreface = true;
    this.write(PREFACE, settings(settingsEntries));
  }

  /** Resolves when `done()` holds (checked on every frame and on close), or rejects after `ms`. */
  until(done: () => boolean, ms: number): Promise<void> {
    return new Promise((resolve, reject) => {
      const check = () => {
        if (!done()) return false;
        clearTimeout(timer);
        resolve();
        return true;
      };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        reject(
          new Error(
            `timed out after ${ms} ms; closed: ${this.closed}; frames (type/stream/flags): ${this.frames.map((f) => `${f.type}/${f.streamId}/${f.flags}`).join(' ')}`,
          ),
        );
      }, ms);
      const waiter = () => {
        if (check()) this.waiters = this.waiters.filter((w) => w !== waiter);
      };
      if (!check()) this.waiters.push(waiter);
    });
  }

  destroy(): void {
    this.socket.destroy();
  }

  private read(chunk: Buffer): void {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    while (this.buffer.length >= 9) {
      const length = this.buffer.readUIntBE(0, 3);
      if (this.buffer.length < 9 + length) break;
      const received: Frame = {
        type: this.buffer[3],
        flags: this.buffer[4],
        streamId: this.buffer.readUInt32BE(5) & 0x7fffffff,
        payload: this.buffer.subarray(9, 9 + length),
      };
      this.buffer = this.buffer.subarray(9 + length);
      this.frames.push(received);
      if (this.afterPreface && received.type === FRAME.SETTINGS && (received.flags & FLAG.ACK) === 0)
        this.write(frame(FRAME.SETTINGS, FLAG.ACK, 0));
    }
    this.notify();
  }

  private notify(): void {
    for (const waiter of [...this.waiters]) waiter();
  }
}

/** The error code of a RST_STREAM or GOAWAY frame. */
export function errorCode(received: Frame): number {
  return received.type === FRAME.GOAWAY ? received.payload.readUInt32BE(4) : received.payload.readUInt32BE(0);
}
