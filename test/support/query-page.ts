/**
 * The page of test/query-browser.test.ts: a React app (TanStack Query's React adapter) on the
 * generated REST client's query options (out/rest/query.ts), built by Vite and run in headless
 * Chromium against the example REST server. It lists projects and a project's tasks (infinite
 * queries, page and cursor), shows one task and a missing one (a typed 404), and adds and renames
 * tasks (mutations whose invalidation refetches the lists). The server URL and ids come from the
 * query string; `window.requests` counts the GETs sent, by path.
 */
import { QueryClient, QueryClientProvider, useInfiniteQuery, useMutation, useQuery } from '@tanstack/react-query';
import { createElement as h, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { createHttpClient } from '../../out/rest/client.js';
import {
  createTaskMutation,
  getTaskOptions,
  listProjectsInfiniteOptions,
  listProjectTasksInfiniteOptions,
  updateTaskMutation,
} from '../../out/rest/query.js';

const search = new URLSearchParams(location.search);
const setting = (name: string): string => search.get(name) ?? '';
const projectId = setting('project');
const taskId = setting('task');

const requests: Record<string, number> = {};
(window as unknown as { requests: Record<string, number> }).requests = requests;

const http = createHttpClient({
  baseUrl: `${setting('api')}/v1`,
  auth: { bearerAuth: 'demo-token' },
  fetch: (request) => {
    if (request.method === 'GET') {
      const path = new URL(request.url).pathname;
      requests[path] = (requests[path] ?? 0) + 1;
    }
    return fetch(request);
  },
});

// Nothing refetches on its own (no staleness, no retries): what changes on screen after a
// mutation was refetched because the mutation invalidated it.
const queryClient = new QueryClient({ defaultOptions: { queries: { staleTime: Number.POSITIVE_INFINITY, retry: false } } });

function Projects(): ReactNode {
  const projects = useInfiniteQuery(listProjectsInfiniteOptions(http, { pageSize: 2, sort: 'name' }));
  const names = projects.data?.pages.flatMap((page) => page.items.map((project) => project.name)) ?? [];
  return h(
    'section',
    null,
    h('ul', { id: 'projects' }, ...names.map((name) => h('li', { key: name }, name))),
    h('button', { id: 'more-projects', disabled: !projects.hasNextPage, onClick: () => projects.fetchNextPage() }, 'More projects'),
  );
}

function Tasks(): ReactNode {
  const tasks = useInfiniteQuery(listProjectTasksInfiniteOptions(http, { projectId, limit: 2, sort: 'title' }));
  const titles = tasks.data?.pages.flatMap((page) => page.items.map((task) => task.title)) ?? [];
  const create = useMutation(createTaskMutation(http));
  const rename = useMutation(updateTaskMutation(http));
  return h(
    'section',
    null,
    h('ul', { id: 'tasks', 'data-fetching': String(tasks.isFetching) }, ...titles.map((title) => h('li', { key: title }, title))),
    h('button', { id: 'more-tasks', disabled: !tasks.hasNextPage, onClick: () => tasks.fetchNextPage() }, 'More tasks'),
    h(
      'button',
      { id: 'add-task', onClick: () => create.mutate({ projectId, body: { title: 'Task 0 from the browser', status: 'todo' } }) },
      'Add task',
    ),
    h('button', { id: 'rename-task', onClick: () => rename.mutate({ taskId, body: { title: 'Task 1 renamed' } }) }, 'Rename task 1'),
    h('p', { id: 'mutations' }, `${create.status} ${rename.status}`),
  );
}

function Task({ id, testId }: { id: string; testId: string }): ReactNode {
  const task = useQuery(getTaskOptions(http, { taskId: id }));
  // The error is typed: a 404 is this operation's Problem Details.
  const error = task.error;
  const problem = error?.kind === 'response' && error.status === 404 ? `${error.status} ${error.data.title}` : error?.kind;
  return h('p', { id: testId }, task.data?.title ?? problem ?? 'loading');
}

function App(): ReactNode {
  return h(
    QueryClientProvider,
    { client: queryClient },
    h(Projects),
    h(Tasks),
    h(Task, { id: taskId, testId: 'task' }),
    h(Task, { id: '00000000-0000-4000-8000-000000000000', testId: 'missing' }),
  );
}

createRoot(document.getElementById('app')!).render(h(App));
