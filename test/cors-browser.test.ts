/**
 * A browser app on another origin calls every style's server (issue 11, principle 7): headless
 * Chromium (Debian's, driven by playwright-core) loads a page from one origin, and the page calls
 * the four examples — started as `npm run example:<style>` does, with `CORS_ORIGINS` set to the
 * page's origin — on theirs, with credentials:
 * - REST: a GET and a POST with `Authorization` (both preflighted); bodies and exposed headers read.
 * - GraphQL: a query, a mutation with `Authorization`, and a subscription over graphql-ws
 *   (graphql-ws's own browser client, served from node_modules).
 * - gRPC-Web and Connect: unary calls with metadata, through the generated browser client.
 * - SSE: `EventSource` with `withCredentials`, and a POST stream read with `fetch`.
 * The Node side of the same rules (refusals, exact headers) is test/cors.test.ts.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser } from 'playwright-core';
import { ROOT } from './support/cli.js';
import { GRAPHQL_EXAMPLE_MAIN, startExample, type RunningExample } from './support/e2e-example.js';
import { importMap, servePage } from './support/grpc-browser-page.js';

const CHROMIUM = '/usr/bin/chromium';

/** The page: runs each style's calls against the URLs in its query string; results land in `window.results`. */
const SCRIPT = `
import { createClient } from "/node_modules/graphql-ws/dist/client.js";
import { createClient as createGrpcClient, createConnectClient as createConnectGrpcClient } from "/app/out/grpc/client-web.js";

const api = Object.fromEntries(new URLSearchParams(location.search));
const results = (window.results = {});
const json = { "content-type": "application/json" };

async function step(name, run) {
  try {
    results[name] = await run();
  } catch (error) {
    results[name] = { error: String((error && error.stack) || error) };
  }
}

await step("rest", async () => {
  const auth = { authorization: "Bearer demo-token" };
  const list = await fetch(api.rest + "/v1/projects", { headers: auth, credentials: "include" });
  const created = await fetch(api.rest + "/v1/projects", { method: "POST", headers: { ...auth, ...json }, credentials: "include", body: JSON.stringify({ name: "From the browser" }) });
  const project = await created.json();
  const location = created.headers.get("location");
  const fetched = await fetch(api.rest + location, { headers: auth, credentials: "include" });
  return {
    list: { status: list.status, isArray: Array.isArray((await list.json()).items ?? null), traceId: list.headers.get("trace-id") !== null, rateLimit: list.headers.get("ratelimit-limit") },
    created: { status: created.status, name: project.name, location },
    fetched: { status: fetched.status, name: (await fetched.json()).name, etag: (fetched.headers.get("etag") ?? "").endsWith('"') },
  };
});

await step("graphql", async () => {
  const post = (body, token) =>
    fetch(api.graphql, { method: "POST", credentials: "include", headers: { ...json, ...(token ? { authorization: "Bearer " + token } : {}) }, body: JSON.stringify(body) }).then((response) => response.json());
  const query = await post({ query: '{ task(id: "t1") { id } }' });
  const mutation = await post({ query: 'mutation { createTask(input: { projectId: "p2", title: "From the browser" }) { title } }' }, "member-token");
  const client = createClient({ url: api.graphql.replace(/^http/, "ws"), connectionParams: { authorization: "Bearer member-token" }, retryAttempts: 0, lazy: false });
  let connected;
  const ready = new Promise((resolve) => (connected = resolve));
  client.on("connected", () => connected());
  await ready;
  const event = new Promise((resolve, reject) => {
    client.subscribe({ query: 'subscription { taskChanged(projectId: "p2") { kind task { title } } }' }, { next: resolve, error: reject, complete: () => reject(new Error("completed early")) });
  });
  // The subscription starts with the server's next turn; a change made before it is not seen, so
  // changes are made until one arrives (the first usually does).
  let received;
  event.then((value) => (received = value));
  for (let attempt = 0; received === undefined && attempt < 50; attempt++) {
    await post({ query: 'mutation { createTask(input: { projectId: "p2", title: "Seen live" }) { id } }' }, "member-token");
    await Promise.race([event, new Promise((resolve) => setTimeout(resolve, 100))]);
  }
  await client.dispose();
  return { query, mutation, subscription: received ?? null };
});

await step("grpc", async () => {
  const out = {};
  for (const protocol of ["grpc-web", "connect"]) {
    const create = protocol === "connect" ? createConnectGrpcClient : createGrpcClient;
    const tasks = create({ baseUrl: api.grpc, token: "demo-token", credentials: "include" }).taskService;
    const created = await tasks.createTask({ task: { projectId: "p1", title: "From the browser over " + protocol } });
    const task = await tasks.getTask({ id: created.id });
    out[protocol] = task.title;
  }
  return out;
});

await step("sse", async () => {
  const source = new EventSource(api.sse + "/v1/tasks/events", { withCredentials: true });
  const first = await new Promise((resolve, reject) => {
    source.addEventListener("task.created", (event) => resolve(JSON.parse(event.data).task.title));
    source.addEventListener("task.updated", (event) => resolve(JSON.parse(event.data).task.title));
    source.onerror = () => source.readyState === EventSource.CLOSED && reject(new Error("EventSource closed"));
  });
  source.close();
  const response = await fetch(api.sse + "/v1/tasks/t1/summary", { method: "POST", credentials: "include", headers: { ...json, authorization: "Bearer demo-token", accept: "text/event-stream" }, body: "{}" });
  const text = await response.text();
  return { eventSource: typeof first, status: response.status, done: text.endsWith("data: [DONE]\\n\\n"), chunks: (text.match(/event: chunk/g) ?? []).length > 0 };
});

window.done = true;
`;

const PAGE = `<!doctype html><html><head><meta charset="utf-8"><script type="importmap">${JSON.stringify({ imports: importMap() })}</script></head>
<body><script type="module">${SCRIPT}</script></body></html>`;

describe('a page of another origin calls every style, with credentials', () => {
  let browser: Browser | undefined;
  let site: Awaited<ReturnType<typeof servePage>>;
  const examples: RunningExample[] = [];
  let query = '';

  beforeAll(async () => {
    expect(existsSync(CHROMIUM), `${CHROMIUM} is not installed (apt install chromium)`).toBe(true);
    // `/app/*` is dist/: the compiled out/grpc browser client and what it imports.
    site = await servePage(join(ROOT, 'dist'), PAGE);
    const env = { CORS_ORIGINS: site.url, FEED_INTERVAL_MS: '100' };
    const [rest, graphql, grpc, sse] = await Promise.all([
      startExample(env),
      startExample(env, GRAPHQL_EXAMPLE_MAIN),
      startExample(env, join(ROOT, 'dist', 'examples', 'grpc', 'main.js')),
      startExample(env, join(ROOT, 'dist', 'examples', 'realtime', 'main.js')),
    ]);
    examples.push(rest, graphql, grpc, sse);
    query = new URLSearchParams({ rest: rest.url, graphql: graphql.url, grpc: grpc.url, sse: sse.url }).toString();
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await site?.close();
    for (const example of examples) expect((await example.stop()).code).toBe(0);
  });

  it('REST, GraphQL (query, mutation, subscription), gRPC-Web/Connect and SSE all answer the page', async () => {
    const tab = await browser!.newPage();
    const problems: string[] = [];
    tab.on('pageerror', (error) => problems.push(String(error)));
    tab.on('console', (message) => {
      // The browser's own favicon request is no call of the page's.
      if (message.type() === 'error' && !message.location().url.endsWith('/favicon.ico'))
        problems.push(`${message.text()} (${message.location().url})`);
    });
    await tab.goto(`${site.url}/?${query}`);
    const finished = await tab
      .waitForFunction(() => (window as unknown as { done?: boolean }).done === true, undefined, { timeout: 45_000 })
      .then(
        () => true,
        () => false,
      );
    const results = (await tab.evaluate(() => (window as unknown as { results?: unknown }).results ?? {})) as Record<string, unknown>;
    // Which step hung, and what the others did, when the page did not finish.
    if (!finished) throw new Error(`the page did not finish: ${JSON.stringify({ problems, results })}`);
    expect(problems).toEqual([]);
    expect(results.rest).toEqual({
      list: { status: 200, isArray: true, traceId: true, rateLimit: '600' },
      created: { status: 201, name: 'From the browser', location: expect.stringMatching(/^\/v1\/projects\/[^/]+$/) },
      fetched: { status: 200, name: 'From the browser', etag: true },
    });
    expect(results.graphql).toEqual({
      query: { data: { task: { id: 't1' } } },
      mutation: { data: { createTask: { title: 'From the browser' } } },
      subscription: { data: { taskChanged: { kind: 'CREATED', task: { title: 'Seen live' } } } },
    });
    expect(results.grpc).toEqual({ 'grpc-web': 'From the browser over grpc-web', connect: 'From the browser over connect' });
    expect(results.sse).toEqual({ eventSource: 'string', status: 200, done: true, chunks: true });
  }, 60_000);
});
