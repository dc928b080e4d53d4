/**
 * What the end-to-end tests use of the generated server (`server.js`) and of the typed user code
 * run against it (`usage.js`, see server-usage.ts), and small HTTP helpers: start a listener on
 * 127.0.0.1:0, and send raw bytes for what `fetch` refuses to send (dot segments, huge headers).
 */
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import type { Listener } from '../../runtime/server.js';

export type { Listener };

/** The generated server of schemas/openapi/tasks.yaml, typed as out/rest/server.ts (its committed output). */
export type ServerModule = Pick<typeof import('../../out/rest/server.js'), 'BASE_PATHS' | 'combine' | 'createHttpServer'>;

export interface UsageModule {
  FAILING_TASK: string;
  /** The generated `createServer` with bearer auth ("good"), a quiet error log and `options`. */
  listener(options?: Record<string, unknown>, handlers?: unknown): Listener;
  createHandlers(version?: string): unknown;
}

export interface Running {
  url: string;
  port: number;
  close(): Promise<void>;
}

/** Serves `listener` (or a ready `server`) on 127.0.0.1 at a free port. */
export async function start(listener: Listener, server: Server = createServer(listener)): Promise<Running> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Sends `head` (and then `body`, if any) on a fresh connection and reads the answer until the
 * server closes the connection or `timeout` ms pass. `body` may be sent late, by `delay` ms.
 */
export function raw(port: number, head: string, options: { body?: string; timeout?: number } = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => socket.destroy(), options.timeout ?? 2000);
    socket.on('connect', () => socket.write(head + (options.body ?? '')));
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(timer);
      const text = Buffer.concat(chunks).toString('utf8');
      const end = text.indexOf('\r\n\r\n');
      if (end === -1) return reject(new Error(`no response: ${JSON.stringify(text.slice(0, 200))}`));
      const [statusLine, ...lines] = text.slice(0, end).split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: text.slice(end + 4) });
    });
  });
}
