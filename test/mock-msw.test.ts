/**
 * `emit: [msw]` (out/rest/msw.ts): MSW's `setupServer` (msw/node) with the generated handlers
 * answers the generated REST client with the samples (`<operation>Sample`, exported), which the
 * generated validators accept; a handler's override (a body, or a resolver reading the path
 * parameters) answers instead; the overrides are typed (`@ts-expect-error` cases at the end,
 * checked by `npm run typecheck`); and importing one sample bundles nothing else. Then the other
 * answers (text, bytes, a vendor JSON type with a header, a 501 for a body that cannot be sampled)
 * from a fixture, type-checked and served.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import * as esbuild from 'esbuild';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { generate } from '../generators/core/pipeline/generate.js';
import { createClient } from '../out/rest/client.js';
import { getTaskHandler, getTaskSample, handlers, listProjectsHandler, listProjectsSample } from '../out/rest/msw.js';
import type { Task } from '../out/rest/types.js';
import { validateProjectPage, validateTask, validateTaskPage } from '../out/rest/validators.js';
import { ROOT } from './support/cli.js';
import { COMPILERS, STRICTEST, typecheck } from './support/typecheck.js';

const server = setupServer(...handlers);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const TASK = '3fa85f64-5717-4562-b3fc-2c963f66afa6';
const client = createClient({ baseUrl: 'https://api.example.test/v1', auth: { bearerAuth: 'token' }, retry: false });

describe('msw handlers (emit: [msw])', () => {
  it('answer the generated client with samples the validators accept', async () => {
    const projects = await client.listProjects();
    expect(validateProjectPage(projects).ok).toBe(true);
    expect(projects).toEqual(listProjectsSample);
    expect(projects.items.length).toBeGreaterThan(0);
    const task: Task = await client.getTask({ taskId: TASK });
    expect(validateTask(task)).toMatchObject({ ok: true });
    expect(task).toEqual(getTaskSample);
    const page = await client.listProjectTasks({ projectId: TASK });
    expect(validateTaskPage(page).ok).toBe(true);
  });

  it('take an override: a body, or a resolver', async () => {
    server.use(getTaskHandler({ ...getTaskSample, title: 'Overridden' }));
    expect((await client.getTask({ taskId: TASK })).title).toBe('Overridden');

    server.use(getTaskHandler(({ params }) => HttpResponse.json({ ...getTaskSample, id: params.taskId })));
    const other = '0f0e0d0c-0b0a-4908-8706-050403020100';
    expect((await client.getTask({ taskId: other })).id).toBe(other);

    server.use(listProjectsHandler({ items: [], page: 1, pageSize: 20, total: 0 }));
    expect((await client.listProjects()).items).toEqual([]);
  });
});

describe('msw.ts tree-shakes (esbuild, bundled and minified)', () => {
  it('an app that imports getTaskSample alone bundles no handler and no other sample', async () => {
    const result = await esbuild.build({
      stdin: {
        contents: 'import { getTaskSample } from "./msw.js"; console.log(getTaskSample);',
        resolveDir: join(ROOT, 'out', 'rest'),
        loader: 'ts',
      },
      bundle: true,
      minify: true,
      format: 'esm',
      platform: 'browser',
      external: ['msw'],
      write: false,
      logLevel: 'silent',
    });
    const bundle = result.outputFiles[0]!.text;
    expect(bundle).toContain(getTaskSample.id);
    expect(bundle).not.toContain(listProjectsSample.items[0]!.id);
    expect(bundle).not.toContain('*/v1/tasks/:taskId');
  });
});

describe('msw handlers of other answers', () => {
  it('type-check under STRICTEST and answer text, bytes, a vendor JSON type and a 501', { timeout: 180_000 }, async () => {
    const input = join(ROOT, 'test', 'fixtures', 'mock', 'msw-shapes.yaml');
    const [{ files }] = await generate([
      { name: 'shapes', style: 'openapi', inputs: [input], documents: [], output: ROOT, emit: ['types', 'msw'], options: {}, root: ROOT },
    ]);
    // Under the repository, so the generated files resolve `msw` from its node_modules.
    mkdirSync(join(ROOT, '.vitest-tmp'), { recursive: true });
    const folder = mkdtempSync(join(ROOT, '.vitest-tmp', 'msw-shapes-'));
    writeFileSync(join(folder, 'package.json'), '{ "type": "module" }\n');
    for (const file of files) writeFileSync(join(folder, file.path), file.content);
    const checked = typecheck(folder, Object.values(COMPILERS)[0]!, 'node+dom', ['msw.ts'], STRICTEST);
    expect(checked.output).toBe('');
    expect(checked.ok).toBe(true);

    const generated = (await import(join(folder, 'msw.ts'))) as { handlers: Parameters<typeof setupServer> };
    const shapes = setupServer(...generated.handlers);
    server.close();
    shapes.listen({ onUnhandledRequest: 'error' });
    try {
      const base = 'https://api.example.test/v2';
      const note = await fetch(`${base}/notes/n1`);
      expect([note.status, note.headers.get('content-type'), await note.text()]).toEqual([200, 'text/plain', 'a note']);
      const report = await fetch(`${base}/report`);
      expect([report.status, report.headers.get('content-type')]).toEqual([200, 'application/pdf']);
      const thing = await fetch(`${base}/things`, { method: 'POST' });
      expect([thing.status, thing.headers.get('content-type')]).toEqual([201, 'application/vnd.acme+json']);
      expect(thing.headers.get('location')).toBeTruthy();
      expect(await thing.json()).toMatchObject({ id: expect.any(Number), name: expect.any(String) });
      const problem = await fetch(`${base}/problem`);
      expect([problem.status, problem.headers.get('content-type')]).toEqual([501, 'application/problem+json']);
      expect(((await problem.json()) as { detail: string }).detail).toContain('pattern');
    } finally {
      shapes.close();
      server.listen({ onUnhandledRequest: 'error' });
    }
  });
});

/** Never called: `npm run typecheck` checks that the overrides are typed. */
export function overridesAreTyped(): void {
  // @ts-expect-error a title is a string
  getTaskHandler({ title: 42 });
  // @ts-expect-error the route has no projectId parameter
  getTaskHandler(({ params }) => HttpResponse.json({ id: params.projectId }));
}
