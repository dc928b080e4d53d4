/**
 * The TanStack Query options of the GraphQL and gRPC APIs (out/graphql/query.ts, out/grpc/query.ts)
 * in headless Chromium (Debian's, driven by playwright-core): a page built by Vite's JS API from
 * test/fixtures/query-rpc-browser/ runs plain `@tanstack/query-core` observers (`QueryObserver`,
 * `InfiniteQueryObserver`, `MutationObserver`: what every framework adapter wraps, so no framework
 * is under test) against the example servers, started as `npm run example:<style>` does, on
 * another origin. The page lists, pages through an infinite query to its end, mutates, and shows
 * the invalidated queries refetched; for gRPC also a server stream as a streamed query; and a typed
 * failure of each. The test reads what the page shows.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { build } from 'vite';
import { ROOT } from './support/cli.js';
import { GRAPHQL_EXAMPLE_MAIN, startExample, type RunningExample } from './support/e2e-example.js';
import { servePage } from './support/grpc-browser-page.js';
import { type Browser, launchChromium } from './support/sse-browser.js';

const CHROMIUM = '/usr/bin/chromium';
const PAGE_SOURCE = join(ROOT, 'test', 'fixtures', 'query-rpc-browser');

/** The list `#id` and its status line, as the page shows them. */
async function shown(tab: Page, id: string): Promise<{ items: string[]; status: string }> {
  return tab.evaluate(
    (id) => ({
      items: [...document.querySelectorAll(`#${id} li`)].map((item) => item.textContent ?? ''),
      status: document.getElementById(`${id}-status`)?.textContent ?? '',
    }),
    id,
  );
}

describe('TanStack Query options of the GraphQL and gRPC clients in headless Chromium', () => {
  let browser: Browser | undefined;
  let site: Awaited<ReturnType<typeof servePage>> | undefined;
  let built: string | undefined;
  const examples: RunningExample[] = [];
  let query = '';

  beforeAll(async () => {
    expect(existsSync(CHROMIUM), `${CHROMIUM} is not installed (apt install chromium)`).toBe(true);
    built = mkdtempSync(join(tmpdir(), 'codegen-query-browser-'));
    await build({
      root: PAGE_SOURCE,
      base: '/app/',
      configFile: false,
      logLevel: 'warn',
      build: { outDir: built, emptyOutDir: true, minify: false, target: 'es2022' },
    });
    site = await servePage(built, readFileSync(join(built, 'index.html'), 'utf8'));
    const env = { CORS_ORIGINS: site.url };
    const [graphql, grpc] = await Promise.all([
      startExample(env, GRAPHQL_EXAMPLE_MAIN),
      startExample(env, join(ROOT, 'dist', 'examples', 'grpc', 'main.js')),
    ]);
    examples.push(graphql, grpc);
    query = new URLSearchParams({ graphql: graphql.url, grpc: grpc.url }).toString();
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await site?.close();
    for (const example of examples) expect((await example.stop()).code).toBe(0);
    if (built) rmSync(built, { recursive: true, force: true });
  });

  it('lists, pages, mutates and refetches what the mutation invalidated; streams; fails with the typed errors', async () => {
    const tab = await browser!.context.newPage();
    const problems: string[] = [];
    tab.on('pageerror', (error) => problems.push(String(error)));
    await tab.goto(`${site!.url}/?${query}`);
    const finished = await tab
      .waitForFunction(() => (window as unknown as { done?: boolean }).done === true, undefined, { timeout: 60_000 })
      .then(
        () => true,
        () => false,
      );
    const steps = await tab.evaluate(() => (window as unknown as { steps?: string[] }).steps ?? []);
    if (!finished) throw new Error(`the page did not finish: ${JSON.stringify({ problems, steps })}`);
    expect(problems).toEqual([]);
    expect(steps).toEqual([
      'graphql: first page',
      'graphql: every page',
      'graphql: mutated',
      'graphql: error',
      'grpc: created',
      'grpc: every page',
      'grpc: streamed',
      'grpc: mutated',
      'grpc: error',
    ]);

    // GraphQL: project p2's five tasks, two a page, then the created one after the refetch: the
    // mutation, then the infinite query's three pages fetched again, each with the cursor the page
    // before now answers (a refetch keeps the number of pages): four requests.
    expect(await shown(tab, 'graphql-tasks')).toEqual({
      items: ['Task 26', 'Task 27', 'Task 28', 'Task 29', 'Task 30', 'Made through TanStack Query'],
      status: 'success pages=3 more=false',
    });
    expect(await shown(tab, 'graphql-mutation')).toEqual({
      items: ['Made through TanStack Query'],
      status: 'requests after the mutation: 4',
    });
    expect(await shown(tab, 'graphql-error')).toEqual({
      items: ['response', 'Task 26', 'Your role does not allow this field.'],
      status: 'GraphQLResponseError',
    });

    // gRPC: five tasks, two a page over AIP-158 page tokens; the same as a server stream; after the
    // mutation both queries show the sixth.
    const six = ['Task 1', 'Task 2', 'Task 3', 'Task 4', 'Task 5', 'Made through TanStack Query'];
    expect(await shown(tab, 'grpc-tasks')).toEqual({ items: six, status: 'success pages=3 more=false' });
    expect(await shown(tab, 'grpc-stream')).toEqual({ items: six, status: 'success idle' });
    expect((await shown(tab, 'grpc-mutation')).items).toEqual(['Made through TanStack Query']);
    expect(await shown(tab, 'grpc-error')).toEqual({ items: ['response', 'NotFound', 'task missing not found'], status: 'GrpcError' });
  }, 120_000);
});
