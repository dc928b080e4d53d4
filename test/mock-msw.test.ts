/**
 * `emit: [msw]` (out/rest/msw.ts): MSW's `setupServer` (msw/node) with the generated handlers
 * answers the generated REST client with the samples, which the generated validators accept; a
 * handler's override (a body, or a resolver reading the path parameters) answers instead; and the
 * overrides are typed (`@ts-expect-error` cases at the end, checked by `npm run typecheck`).
 */
import { HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../out/rest/client.js';
import { getTaskHandler, handlers, listProjectsHandler } from '../out/rest/msw.js';
import type { Task } from '../out/rest/types.js';
import { validateProjectPage, validateTask, validateTaskPage } from '../out/rest/validators.js';

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
    expect(projects.items.length).toBeGreaterThan(0);
    const task: Task = await client.getTask({ taskId: TASK });
    expect(validateTask(task)).toMatchObject({ ok: true });
    const page = await client.listProjectTasks({ projectId: TASK });
    expect(validateTaskPage(page).ok).toBe(true);
  });

  it('take an override: a body, or a resolver', async () => {
    const sample = await client.getTask({ taskId: TASK });
    server.use(getTaskHandler({ ...sample, title: 'Overridden' }));
    expect((await client.getTask({ taskId: TASK })).title).toBe('Overridden');

    server.use(getTaskHandler(({ params }) => HttpResponse.json({ ...sample, id: params.taskId })));
    const other = '0f0e0d0c-0b0a-4908-8706-050403020100';
    expect((await client.getTask({ taskId: other })).id).toBe(other);

    server.use(listProjectsHandler({ items: [], page: 1, pageSize: 20, total: 0 }));
    expect((await client.listProjects()).items).toEqual([]);
  });
});

/** Never called: `npm run typecheck` checks that the overrides are typed. */
export function overridesAreTyped(): void {
  // @ts-expect-error a title is a string
  getTaskHandler({ title: 42 });
  // @ts-expect-error the route has no projectId parameter
  getTaskHandler(({ params }) => HttpResponse.json({ id: params.projectId }));
}
