/**
 * One client shape across styles (issue 12, item 7): the generated REST, GraphQL, gRPC (Node and
 * browser) and realtime clients of out/ are built the same way (`createClient(options)`), take
 * the same `fetch`, headers, credentials and timeout options, and fail with errors that share one
 * base class, `ClientError`, even though each output folder has its own copy of the runtime.
 *
 * The type side is a program compiled under strict + STRICTEST with both compilers; the run-time
 * side calls each client against a port where nothing listens, through an injected `fetch`.
 */
import { createServer } from 'node:net';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as graphql from '../out/graphql/client.js';
import * as grpcNode from '../out/grpc/client.js';
import * as grpcWeb from '../out/grpc/client-web.js';
import * as realtime from '../out/realtime/client.js';
import * as rest from '../out/rest/client.js';
import { ROOT } from './support/cli.js';
import { COMPILERS, typecheck } from './support/typecheck.js';

/** A URL of 127.0.0.1 where nothing listens (a port that was free a moment ago). */
async function closedPort(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}`;
}

/** A `fetch` that keeps every request it is given and sends it with the global one. */
function recordingFetch(): { fetch: (request: Request) => Promise<Response>; requests: Request[] } {
  const requests: Request[] = [];
  return { requests, fetch: (request: Request) => (requests.push(request), globalThis.fetch(request)) };
}

/** What each style's call rejects with, caught. */
async function failure(call: () => Promise<unknown> | AsyncIterable<unknown>): Promise<unknown> {
  try {
    const result = call();
    if (Symbol.asyncIterator in (result as object)) for await (const _ of result as AsyncIterable<unknown>) break;
    else await result;
  } catch (error) {
    return error;
  }
  throw new Error('the call did not fail');
}

describe('one client shape across styles', () => {
  it('every style exports createClient and the same ClientError, Fetch and option types', () => {
    for (const module of [rest, graphql, grpcNode, grpcWeb, realtime]) {
      expect(typeof module.createClient).toBe('function');
      expect(typeof module.ClientError).toBe('function');
      expect(typeof module.isClientError).toBe('function');
    }
  });

  it('types: one Fetch, one options vocabulary, one error base, under strict + STRICTEST', () => {
    mkdirSync(join(ROOT, '.vitest-tmp'), { recursive: true });
    const dir = mkdtempSync(join(ROOT, '.vitest-tmp', 'client-shape-'));
    const out = relative(dir, join(ROOT, 'out'));
    writeFileSync(
      join(dir, 'shape.ts'),
      `import * as rest from "${out}/rest/client.js";
import * as graphql from "${out}/graphql/client.js";
import * as grpcNode from "${out}/grpc/client.js";
import * as grpcWeb from "${out}/grpc/client-web.js";
import * as realtime from "${out}/realtime/client.js";

/** True only when A and B are the same type. */
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const same = <A, B>(proof: Same<A, B>): Same<A, B> => proof;

same<rest.Fetch, graphql.Fetch>(true);
same<rest.Fetch, grpcNode.Fetch>(true);
same<rest.Fetch, grpcWeb.Fetch>(true);
same<rest.Fetch, realtime.Fetch>(true);
same<rest.Fetch, (request: Request) => Promise<Response>>(true);
same<rest.CommonClientOptions, graphql.CommonClientOptions>(true);
same<rest.CommonClientOptions, grpcWeb.CommonClientOptions>(true);
same<rest.CommonClientOptions, realtime.CommonClientOptions>(true);
same<rest.ClientErrorKind, graphql.ClientErrorKind>(true);
same<rest.ClientErrorKind, grpcNode.ClientErrorKind>(true);
same<rest.ClientErrorKind, realtime.ClientErrorKind>(true);
same<rest.Credential, graphql.Credential>(true);
same<rest.RetryOptions, graphql.RetryOptions>(true);

// The same common options object configures every client.
const common: rest.CommonClientOptions = {
  fetch: (request) => globalThis.fetch(request),
  headers: async () => ({ "x-request-source": "shape-test" }),
  timeout: 5_000,
  signal: new AbortController().signal,
};
const token = async () => "secret";
rest.createClient({ ...common, baseUrl: "https://api.example.com", auth: { bearerAuth: token } });
graphql.createClient({ ...common, url: "https://api.example.com/graphql", token });
grpcWeb.createClient({ ...common, baseUrl: "https://api.example.com", token });
realtime.createClient({ ...common, baseUrl: "https://api.example.com", token });
grpcNode.createClient({ timeout: 5_000, headers: { "x-request-source": "shape-test" }, baseUrl: "http://127.0.0.1:8080", token });

// Every style's errors are ClientErrors with a kind.
function handle(error: unknown): string {
  if (error instanceof rest.ClientError) return error.kind + " " + error.operation;
  return "unknown";
}
handle(new Error("x"));
`,
    );
    for (const [name, compiler] of Object.entries(COMPILERS)) {
      const result = typecheck(dir, compiler, 'node+dom', ['shape.ts']);
      expect(result.output, name).toBe('');
    }
  }, 120_000);

  it('each client sends through the injected fetch, with the common headers and its credentials, and fails with a network ClientError that every copy of ClientError recognises', async () => {
    const base = await closedPort();
    const headers = { 'x-request-source': 'shape-test' };
    const token = async () => 'secret';
    const bases = [rest.ClientError, graphql.ClientError, grpcNode.ClientError, grpcWeb.ClientError, realtime.ClientError];

    const calls: Record<string, (fetch: (request: Request) => Promise<Response>) => Promise<unknown>> = {
      rest: (fetch) =>
        failure(() =>
          rest
            .createClient({ baseUrl: base, fetch, headers, retry: false, auth: { bearerAuth: token } })
            .getTask({ taskId: '00000000-0000-4000-8000-000000000000' }),
        ),
      graphql: (fetch) => failure(() => graphql.createClient({ url: `${base}/graphql`, fetch, headers, token }).viewer()),
      grpcWeb: (fetch) =>
        failure(() => grpcWeb.createClient({ baseUrl: base, fetch, headers, token, retry: false }).taskService.getTask({ id: 'x' })),
      realtime: (fetch) => failure(() => realtime.createClient({ baseUrl: base, fetch, headers, token }).tasks({ reconnect: false })),
    };
    for (const [style, call] of Object.entries(calls)) {
      const { fetch, requests } = recordingFetch();
      const error = await call(fetch);
      expect(requests.length, style).toBeGreaterThan(0);
      const request = requests[0]!;
      expect(request, style).toBeInstanceOf(Request);
      expect(request.headers.get('x-request-source'), style).toBe('shape-test');
      expect(request.headers.get('authorization'), style).toBe('Bearer secret');
      for (const ClientError of bases) expect(error, `${style}: ${String(error)}`).toBeInstanceOf(ClientError);
      expect((error as { kind: string }).kind, style).toBe('network');
    }

    const grpcError = await failure(() => grpcNode.createClient({ baseUrl: base, token, retry: false }).taskService.getTask({ id: 'x' }));
    for (const ClientError of bases) expect(grpcError).toBeInstanceOf(ClientError);
    expect((grpcError as { kind: string }).kind).toBe('network');
  }, 60_000);
});
