/**
 * HTTP over raw TCP on 127.0.0.x, for what `fetch` cannot do: pick the client's source address (another
 * loopback address is another client), keep a stream open after its head, send a head or a body
 * slowly, and see whether and when the server closes the connection.
 */
import { connect, type Socket } from 'node:net';

export interface RawHead {
  status: number;
  headers: Record<string, string>;
}

export interface RawExchange extends RawHead {
  body: string;
  /** Whether the server closed the connection (rather than the timeout ending it). */
  closedByServer: boolean;
  /** Milliseconds from the connection to the server's close (or the timeout). */
  elapsedMs: number;
}

export function parseHead(text: string): RawHead {
  const [statusLine, ...lines] = text.split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status: Number(statusLine?.split(' ')[1]), headers };
}

/**
 * Sends `head` from `localAddress` and resolves once the response head came back, the socket
 * still open (a stream stays open until the caller destroys it).
 */
export function openHead(
  port: number,
  head: string | Buffer,
  localAddress = '127.0.0.1',
  timeoutMs = 10_000,
): Promise<RawHead & { socket: Socket }> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1', localAddress });
    let text = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no response head within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.on('error', () => {});
    socket.on('connect', () => socket.write(head));
    const onData = (chunk: Buffer): void => {
      text += chunk.toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      if (end === -1) return;
      socket.off('data', onData);
      socket.on('data', () => {});
      clearTimeout(timer);
      resolve({ ...parseHead(text.slice(0, end)), socket });
    };
    socket.on('data', onData);
    socket.on('close', () => {
      clearTimeout(timer);
      if (!text.includes('\r\n\r\n')) reject(new Error(`closed before a response head: ${JSON.stringify(text.slice(0, 200))}`));
    });
  });
}

/**
 * Sends `parts` one every `intervalMs` (the first at once) and reads until the server closes
 * the connection or `timeoutMs` pass.
 */
export function exchange(
  port: number,
  parts: readonly (string | Buffer)[],
  options: { intervalMs?: number; timeoutMs?: number; localAddress?: string } = {},
): Promise<RawExchange> {
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = connect({ port, host: '127.0.0.1', localAddress: options.localAddress ?? '127.0.0.1' });
    const chunks: Buffer[] = [];
    let closedByServer = true;
    let next = 0;
    let sender: ReturnType<typeof setInterval> | undefined;
    const timer = setTimeout(() => {
      closedByServer = false;
      socket.destroy();
    }, options.timeoutMs ?? 5000);
    const send = (): void => {
      if (next < parts.length && socket.writable) socket.write(parts[next++]!);
      if (next >= parts.length && sender !== undefined) clearInterval(sender);
    };
    socket.on('connect', () => {
      send();
      if (next < parts.length) sender = setInterval(send, options.intervalMs ?? 100);
    });
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(timer);
      if (sender !== undefined) clearInterval(sender);
      const bytes = Buffer.concat(chunks);
      const end = bytes.indexOf('\r\n\r\n');
      const head: RawHead = end === -1 ? { status: 0, headers: {} } : parseHead(bytes.subarray(0, end).toString('latin1'));
      const body = end === -1 ? bytes : bytes.subarray(end + 4);
      const payload = head.headers['transfer-encoding'] === 'chunked' ? unchunk(body) : body;
      resolve({ ...head, body: payload.toString('utf8'), closedByServer, elapsedMs: Date.now() - started });
    });
  });
}

/** The payload of a chunked body (as much of it as arrived). */
export function unchunk(body: Buffer): Buffer {
  const parts: Buffer[] = [];
  let rest = body;
  for (;;) {
    const line = rest.indexOf('\r\n');
    if (line === -1) break;
    const size = parseInt(rest.subarray(0, line).toString('latin1'), 16);
    if (!(size > 0)) break;
    parts.push(rest.subarray(line + 2, line + 2 + size));
    rest = rest.subarray(line + 2 + size + 2);
  }
  return Buffer.concat(parts);
}

/** Runs `task` for 0..count-1, at most `concurrency` at a time; the results in order. */
export async function pool<T>(count: number, concurrency: number, task: (index: number) => Promise<T>): Promise<T[]> {
  const results: T[] = new Array(count);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < count) {
      const index = next++;
      results[index] = await task(index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  return results;
}
