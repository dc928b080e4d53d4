/**
 * A real HTTP server on 127.0.0.1 (port 0) for client tests: each test installs a handler and
 * reads back what arrived (method, URL, headers, body bytes, arrival time).
 */
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  /** Path and query exactly as sent. */
  target: string;
  url: URL;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** `performance.now()` when the request arrived. */
  at: number;
}

export type Handler = (request: RecordedRequest, response: ServerResponse) => unknown;

export class TestServer {
  readonly requests: RecordedRequest[] = [];
  private handler: Handler = (_request, response) => {
    response.writeHead(500).end('no handler');
  };

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(): Promise<TestServer> {
    let instance: TestServer | undefined;
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const target = req.url ?? '/';
        const recorded: RecordedRequest = {
          method: req.method ?? 'GET',
          target,
          url: new URL(target, 'http://127.0.0.1'),
          headers: req.headers,
          body: Buffer.concat(chunks),
          at: performance.now(),
        };
        instance?.requests.push(recorded);
        Promise.resolve(instance?.handler(recorded, res)).catch((error: unknown) => {
          if (!res.headersSent) res.writeHead(500);
          res.end(String(error));
        });
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    instance = new TestServer(server, `http://127.0.0.1:${port}`);
    return instance;
  }

  /** Replaces the handler and forgets earlier requests. */
  handle(handler: Handler): void {
    this.handler = handler;
    this.requests.length = 0;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** Writes a JSON (or Problem Details) response. */
export function json(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const type = status >= 400 ? 'application/problem+json' : 'application/json';
  response.writeHead(status, { 'Content-Type': type, ...headers }).end(JSON.stringify(body));
}
