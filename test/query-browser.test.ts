/**
 * TanStack Query over the generated REST client, in a browser (issue 18): a React page
 * (test/support/query-page.ts, on `@tanstack/react-query`, the adapter most users have) built with
 * Vite's JS API runs in headless Chromium against the example REST server (the generated server
 * with examples/rest's handlers, on 127.0.0.1 port 0, CORS open to the page's origin). The test
 * clicks and reads what the page shows: projects paged by number and tasks by cursor (infinite
 * queries), one task and a missing one (the typed 404), then a created and a renamed task, which
 * reach the lists only because the mutations invalidate the queries of their resource.
 */
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join } from 'node:path';
import type { Page } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../out/rest/client.js';
import { ROOT } from './support/cli.js';
import { EDITOR_TOKEN, startExample, type RunningExample } from './support/e2e-example.js';
import { type Browser, launchChromium } from './support/sse-browser.js';
import { tempDir } from './support/tmp.js';

const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript' };

/** Builds the page with Vite into a temp folder: `index.html` and its bundle. */
async function buildPage(): Promise<string> {
  const outDir = tempDir('codegen-query-page-');
  await build({
    configFile: false,
    root: ROOT,
    publicDir: false,
    // Warnings only (react-query's "use client" directives, which a client bundle does not need).
    logLevel: 'error',
    build: {
      outDir,
      emptyOutDir: false,
      minify: false,
      rollupOptions: { input: join(ROOT, 'test/support/query-page.ts'), output: { entryFileNames: 'page.js' } },
    },
  });
  return outDir;
}

/** Serves the built page on 127.0.0.1, port 0. */
async function servePage(folder: string): Promise<{ url: string; server: Server }> {
  const html =
    '<!doctype html><meta charset="utf-8"><title>TanStack Query</title><div id="app"></div><script type="module" src="/page.js"></script>';
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://page').pathname;
    if (path === '/') return response.writeHead(200, { 'content-type': 'text/html' }).end(html);
    try {
      const body = readFileSync(join(folder, path.replace(/\.\.+/g, '')));
      response.writeHead(200, { 'content-type': TYPES[extname(path)] ?? 'application/octet-stream' }).end(body);
    } catch {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/** The texts of the items of list `id`. */
function items(page: Page, id: string): Promise<string[]> {
  return page.locator(`#${id} li`).allTextContents();
}

/** Waits until `read` gives `expected` (the page updates asynchronously). */
async function until<T>(read: () => Promise<T>, expected: T, what: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  let last: T | undefined;
  while (Date.now() < deadline) {
    last = await read();
    if (JSON.stringify(last) === JSON.stringify(expected)) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  expect(last, what).toEqual(expected);
}

describe('TanStack Query options (out/rest/query.ts) in headless Chromium', () => {
  let browser: Browser;
  let example: RunningExample;
  let site: { url: string; server: Server };
  let projectId: string;
  let firstTaskId: string;

  let folder: string;

  beforeAll(async () => {
    folder = await buildPage();
    site = await servePage(folder);
    example = await startExample({ CORS_ORIGINS: site.url, RATE_LIMIT: '0' });
    // The data the page reads, made through the generated client from Node.
    const client = createClient({ baseUrl: `${example.url}/v1`, auth: { bearerAuth: EDITOR_TOKEN } });
    for (const name of ['Gamma', 'Alpha', 'Beta']) {
      const project = await client.createProject({ body: { name } });
      if (name === 'Alpha') projectId = project.id;
    }
    for (const n of [3, 1, 5, 2, 4]) {
      const task = await client.createTask({ projectId, body: { title: `Task ${n}`, status: 'todo' } });
      if (n === 1) firstTaskId = task.id;
    }
    // Chromium's profile goes under .vitest-tmp.
    mkdirSync(join(ROOT, '.vitest-tmp'), { recursive: true });
    browser = await launchChromium();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await example?.stop();
    site?.server.close();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it('lists, pages, mutates, and the mutations refetch what they change', async () => {
    const page = browser.page;
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(String(error)));
    await page.goto(`${site.url}/?${new URLSearchParams({ api: example.url, project: projectId, task: firstTaskId })}`);

    // Page numbers: two projects a page, then the short last page ends it.
    await until(() => items(page, 'projects'), ['Alpha', 'Beta'], 'first page of projects');
    await page.click('#more-projects');
    await until(() => items(page, 'projects'), ['Alpha', 'Beta', 'Gamma'], 'both pages of projects');
    await until(() => page.isDisabled('#more-projects'), true, 'no page after the short one');

    // Cursors: two tasks a page, until the server sends no next cursor.
    await until(() => items(page, 'tasks'), ['Task 1', 'Task 2'], 'first page of tasks');
    await page.click('#more-tasks');
    await until(() => items(page, 'tasks'), ['Task 1', 'Task 2', 'Task 3', 'Task 4'], 'second page of tasks');
    await page.click('#more-tasks');
    await until(() => items(page, 'tasks'), ['Task 1', 'Task 2', 'Task 3', 'Task 4', 'Task 5'], 'last page of tasks');
    await until(() => page.isDisabled('#more-tasks'), true, 'no cursor after the last page');

    // One task, and the typed 404 of a missing one (status and Problem Details title).
    await until(() => page.textContent('#task'), 'Task 1', 'getTask');
    await until(() => page.textContent('#missing'), '404 Not Found', 'getTask of a missing task');
    const before = await page.evaluate(() => ({ ...(window as unknown as { requests: Record<string, number> }).requests }));
    const tasksPath = `/v1/projects/${projectId}/tasks`;
    expect(before[tasksPath]).toBe(3);
    expect(before['/v1/projects']).toBe(2);

    // Creating a task invalidates the project's task list: its three pages refetch, the new one first.
    await page.click('#add-task');
    await until(
      () => items(page, 'tasks'),
      ['Task 0 from the browser', 'Task 1', 'Task 2', 'Task 3', 'Task 4', 'Task 5'],
      'the task list after createTask',
    );
    await until(() => page.textContent('#mutations'), 'success idle', 'createTask settled');

    // Renaming invalidates the task lists and that task's getTask; the projects stay cached.
    await page.click('#rename-task');
    await until(() => page.textContent('#task'), 'Task 1 renamed', 'getTask after updateTask');
    await until(
      () => items(page, 'tasks'),
      ['Task 0 from the browser', 'Task 1 renamed', 'Task 2', 'Task 3', 'Task 4', 'Task 5'],
      'the task list after updateTask',
    );
    await until(() => page.textContent('#mutations'), 'success success', 'updateTask settled');

    const after = await page.evaluate(() => ({ ...(window as unknown as { requests: Record<string, number> }).requests }));
    // Three pages refetched per mutation; the projects were never invalidated.
    expect(after[tasksPath]).toBe(3 + 3 + 3);
    expect(after['/v1/projects']).toBe(2);
    // getTask of the renamed task refetched (narrowed by taskId); the missing one was not retried.
    expect(after[`/v1/tasks/${firstTaskId}`]).toBe(2);
    expect(after['/v1/tasks/00000000-0000-4000-8000-000000000000']).toBe(1);
    expect(errors).toEqual([]);
  }, 120_000);
});
