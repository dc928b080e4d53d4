/**
 * Headless Chromium (Debian's, driven by playwright-core) loads a page that uses the generated
 * browser client (`client-web.ts`) against the generated server on another origin: unary and
 * server streaming over gRPC-Web and over Connect's JSON protocol, credentials in metadata,
 * response headers, typed errors (`GrpcError` kinds: response, timeout, network), an injected
 * `fetch`, CORS for real.
 */
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser } from 'playwright-core';
import { generateGrpc, load } from './support/grpc-setup.js';
import { importMap, servePage } from './support/grpc-browser-page.js';

const CHROMIUM = '/usr/bin/chromium';

interface Usage {
  createServer(options?: object): { listen(port: number, host?: string): Promise<number>; close(): Promise<void> };
}

/** What the page does with the generated client, per protocol; results land in `window.results`. */
function page(apiUrl: string): string {
  const script = `
    import { Code, ConnectError, createClient, createConnectClient, GrpcError, isClientError } from "/app/out/client-web.js";
    const failure = (error) => error instanceof GrpcError && error.cause instanceof ConnectError ? [error.kind, Code[error.code]] : String(error);
    async function run(protocol) {
      const create = protocol === "connect" ? createConnectClient : createClient;
      let sent = 0;
      // The injected fetch gets one Request, as every generated client's.
      const fetch = (request) => (sent++, globalThis.fetch(request));
      const tasks = create({ baseUrl: ${JSON.stringify(apiUrl)}, token: () => "editor", fetch }).taskService;
      let trace = null;
      const task = await tasks.getTask({ id: "t2" }, { headers: { "x-trace-id": "browser-" + protocol }, onHeader: (h) => (trace = h.get("x-trace-id")) });
      const listed = [];
      for await (const item of tasks.listTasks({ projectId: "p1" })) listed.push(item.id);
      let missing = null;
      try { await tasks.getTask({ id: "missing" }); } catch (error) { missing = error instanceof GrpcError && isClientError(error, "response") ? [Code[error.code], error.rawMessage] : String(error); }
      const anonymous = create({ baseUrl: ${JSON.stringify(apiUrl)} }).taskService;
      let denied = null;
      try { await anonymous.getTask({ id: "t1" }); } catch (error) { denied = error instanceof GrpcError ? Code[error.code] : String(error); }
      let late = null;
      try { await create({ baseUrl: ${JSON.stringify(apiUrl)}, token: "editor", timeout: 100 }).taskService.getTask({ id: "slow" }); } catch (error) { late = failure(error); }
      let unreachable = null;
      try { await create({ baseUrl: "http://127.0.0.1:9", retry: false }).taskService.getTask({ id: "t1" }); } catch (error) { unreachable = failure(error); }
      return { title: task.title, estimate: String(task.estimateMinutes), bigint: typeof task.estimateMinutes, trace, listed, missing, denied, late, unreachable, sent };
    }
    window.results = {};
    try {
      for (const protocol of ["grpc-web", "connect"]) window.results[protocol] = await run(protocol);
    } catch (error) {
      window.results.error = String(error && error.stack || error);
    }
    window.done = true;
  `;
  return `<!doctype html><html><head><script type="importmap">${JSON.stringify({ imports: importMap() })}</script></head>
<body><script type="module">${script}</script></body></html>`;
}

describe('browser client in headless Chromium', () => {
  let browser: Browser | undefined;
  let api: ReturnType<Usage['createServer']>;
  let site: Awaited<ReturnType<typeof servePage>>;
  let apiUrl: string;

  beforeAll(async () => {
    expect(existsSync(CHROMIUM), `${CHROMIUM} is not installed (apt install chromium)`).toBe(true);
    const { folder } = await generateGrpc('grpc-browser');
    const usage = await load<Usage>(folder, 'usage.js');
    // The page's origin is only known once its server listens; CORS decides by a function.
    let pageOrigin = '';
    api = usage.createServer({
      cors: { origins: (origin: string) => origin === pageOrigin, exposeHeaders: ['x-trace-id'], allowHeaders: ['x-trace-id'] },
    });
    apiUrl = `http://127.0.0.1:${await api.listen(0, '127.0.0.1')}`;
    site = await servePage(folder, page(apiUrl));
    pageOrigin = site.url;
    // launch() gives the browser a fresh temporary profile of its own.
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
  });

  afterAll(async () => {
    await browser?.close();
    await site?.close();
    await api?.close();
  });

  it('calls unary and server streaming over gRPC-Web and Connect, cross-origin', async () => {
    const tab = await browser!.newPage();
    const problems: string[] = [];
    tab.on('pageerror', (error) => problems.push(String(error)));
    await tab.goto(site.url);
    await tab.waitForFunction(() => (window as unknown as { done?: boolean }).done === true, undefined, { timeout: 30_000 });
    const results = await tab.evaluate(() => (window as unknown as { results: unknown }).results);
    expect(problems).toEqual([]);
    for (const protocol of ['grpc-web', 'connect']) {
      expect((results as Record<string, unknown>)[protocol]).toEqual({
        title: 'Ship it',
        estimate: '9007199254740993',
        bigint: 'bigint',
        trace: `browser-${protocol}`,
        listed: ['t1', 't2'],
        missing: ['NotFound', 'task missing not found'],
        denied: 'Unauthenticated',
        late: ['timeout', 'DeadlineExceeded'],
        // fetch fails without an answer (port 9 discards); Connect reports it as UNKNOWN.
        unreachable: ['network', 'Unknown'],
        sent: 3,
      });
    }
  });
});
