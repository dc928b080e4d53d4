/**
 * A test harness for the convention stages, standing in for the generated server core: a node:http
 * server on 127.0.0.1:0 that routes by exact path, builds a ServerRequest, runs the stages around a
 * fake handler, and turns a thrown HttpProblem into an `application/problem+json` response.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpProblem, type OperationMeta, type ServerRequest, type ServerResponse, type Stage } from '../../runtime/server-types.js';

export type Handler = (request: ServerRequest) => Promise<ServerResponse>;

export interface HarnessOptions {
  stages: Stage[];
  /** Operations by exact path; `allow` is filled in from the operations of the same path. */
  operations: Array<Omit<OperationMeta, 'id' | 'security' | 'allow'> & Partial<OperationMeta>>;
  handler: Handler;
}

export interface Harness {
  url: string;
  /** Every request the handler saw, in order. */
  seen: ServerRequest[];
  close(): Promise<void>;
}

export function json(status: number, value: unknown, headers: Record<string, string> = {}): ServerResponse {
  return { status, headers: { 'content-type': 'application/json', ...headers }, body: new TextEncoder().encode(JSON.stringify(value)) };
}

/** Runs `stages` in order around `handler`, as the core composes them. */
export function compose(stages: Stage[], handler: Handler): Handler {
  return (request) => {
    const run = (index: number): Promise<ServerResponse> =>
      index < stages.length ? stages[index](request, () => run(index + 1)) : handler(request);
    return run(0);
  };
}

export async function startHarness(options: HarnessOptions): Promise<Harness> {
  const operations: OperationMeta[] = options.operations.map((operation) => ({
    id: `${operation.method.toLowerCase()} ${operation.path}`,
    security: [],
    ...operation,
    allow: options.operations.filter((other) => other.path === operation.path).map((other) => other.method),
  }));
  const seen: ServerRequest[] = [];
  const pipeline = compose(options.stages, async (request) => {
    seen.push(request);
    return options.handler(request);
  });

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const method = req.method ?? 'GET';
    const lookup = method === 'HEAD' ? 'GET' : method;
    const onPath = operations.filter((operation) => operation.path === url.pathname);
    let operation = onPath.find((candidate) => candidate.method === lookup);
    if (!operation && method === 'OPTIONS' && onPath.length > 0) {
      operation = { id: `options ${url.pathname}`, method: 'OPTIONS', path: url.pathname, security: [], allow: onPath[0].allow };
    }
    if (!operation) {
      res.writeHead(onPath.length > 0 ? 405 : 404).end();
      return;
    }
    const body = await readBody(req);
    const request: ServerRequest = {
      method,
      url,
      headers: req.headers,
      ...(body.length > 0 ? { body } : {}),
      operation,
      traceId: randomUUID(),
      clientKey: String(req.headers['x-test-client'] ?? req.socket.remoteAddress),
    };
    let response: ServerResponse;
    try {
      response = await pipeline(request);
    } catch (error) {
      response = problemResponse(error, request.traceId);
    }
    res.writeHead(response.status, { ...response.headers, 'trace-id': request.traceId });
    res.end(method === 'HEAD' || response.status === 304 ? undefined : response.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function problemResponse(error: unknown, traceId: string): ServerResponse {
  // Like the real core: an unknown error is a 500 whose body says nothing about it.
  const problem = error instanceof HttpProblem ? error : new HttpProblem(500, 'Internal Server Error');
  const body = { type: 'about:blank', title: problem.message, status: problem.status, ...problem.extensions, traceId };
  return {
    status: problem.status,
    headers: { ...problem.headers, 'content-type': 'application/problem+json' },
    body: new TextEncoder().encode(JSON.stringify(body)),
  };
}

async function readBody(req: IncomingMessage): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return new Uint8Array(Buffer.concat(chunks));
}
