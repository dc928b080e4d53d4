/**
 * Typed user code of the generated TanStack Query options (out/rest/query.ts), compiled by
 * test/query-types.test.ts under strict plus STRICTEST (exactOptionalPropertyTypes,
 * noUncheckedIndexedAccess…): it must compile, and each `@ts-expect-error` must be an error (tsc
 * reports an unused one). Framework-agnostic use through query-core's observers and client, then
 * React's hooks, which must take the options and infer the same data and error types.
 */
import { type InfiniteData, InfiniteQueryObserver, MutationObserver, QueryClient, QueryObserver } from '@tanstack/query-core';
import { useInfiniteQuery, useMutation, useQuery } from '@tanstack/react-query';
import { type ApiCallError, createHttpClient } from '../../out/rest/client.js';
import {
  createTaskMutation,
  deleteTaskMutation,
  getTaskOptions,
  getTaskQueryKey,
  invalidateAfterUpdateTask,
  listProjectsInfiniteOptions,
  listProjectsInfiniteQueryKey,
  listProjectsOptions,
  listProjectTasksInfiniteOptions,
  listProjectTasksInfiniteQueryKey,
  updateTaskMutation,
} from '../../out/rest/query.js';
import type { GetTaskError, ProjectPage, Task, TaskPage, UpdateTaskError } from '../../out/rest/types.js';

/** `true` only when `A` and `B` are the same type. */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
function expectType<T extends true>(value: T): T {
  return value;
}

const http = createHttpClient({ baseUrl: 'http://127.0.0.1:3000/v1' });
const queryClient = new QueryClient();
const taskId = '2a1c3b9e-8c2d-4f1e-9a6b-0d9a1c2b3e4f';

export async function core(): Promise<void> {
  // Data and error types flow from the options into the observer's result.
  const task = new QueryObserver(queryClient, getTaskOptions(http, { taskId })).getCurrentResult();
  expectType<Equal<typeof task.data, Task | undefined>>(true);
  expectType<Equal<typeof task.error, ApiCallError<GetTaskError> | null>>(true);
  if (task.error?.kind === 'response' && task.error.status === 404) {
    // A 404 carries the operation's Problem Details.
    const title: string = task.error.data.title;
    // @ts-expect-error a 304 has no body: data is not a Problem without narrowing the status
    const unchecked: string = (task.error as ApiCallError<GetTaskError> & { kind: 'response' }).data.title;
    console.log(title, unchecked);
  }
  // @ts-expect-error the error is not any: a network failure has no status
  if (task.error?.kind === 'network') console.log(task.error.status);

  // The key is tagged: getQueryData and setQueryData know the data type.
  const cached = queryClient.getQueryData(getTaskQueryKey({ taskId }));
  expectType<Equal<typeof cached, Task | undefined>>(true);
  // @ts-expect-error the data is a Task: its title is a string
  const wrong = cached?.title.toFixed(1);
  // @ts-expect-error the cached value must be a Task
  queryClient.setQueryData(getTaskQueryKey({ taskId }), { title: 'no id' });
  const fetched: Task = await queryClient.fetchQuery(getTaskOptions(http, { taskId }));
  const pages = queryClient.getQueryData(listProjectsInfiniteQueryKey({ pageSize: 10 }));
  expectType<Equal<typeof pages, InfiniteData<ProjectPage, number> | undefined>>(true);
  console.log(wrong, fetched);

  // Wrong inputs.
  // @ts-expect-error taskId is required
  getTaskOptions(http, {});
  // @ts-expect-error taskId is a string
  getTaskOptions(http, { taskId: 1 });
  // @ts-expect-error not a parameter of getTask
  getTaskOptions(http, { taskId, extra: true });
  // @ts-expect-error the infinite options page by cursor themselves
  listProjectTasksInfiniteOptions(http, { projectId: taskId, cursor: 'c' });
  // @ts-expect-error the key takes the operation's params
  getTaskQueryKey({ projectId: taskId });
  // Optional params may be left out.
  listProjectsOptions(http);

  // Infinite queries: pages typed, and so is the page parameter.
  const tasks = new InfiniteQueryObserver(queryClient, listProjectTasksInfiniteOptions(http, { projectId: taskId, limit: 10 }));
  const result = tasks.getCurrentResult();
  expectType<Equal<typeof result.data, InfiniteData<TaskPage, string | undefined> | undefined>>(true);
  const titles: string[] = result.data?.pages.flatMap((page) => page.items.map((item) => item.title)) ?? [];
  const key = listProjectTasksInfiniteQueryKey({ projectId: taskId });
  expectType<Equal<(typeof key)[3], 'infinite'>>(true);
  console.log(titles);

  // Mutations: variables, data and error typed.
  const update = new MutationObserver(queryClient, updateTaskMutation(http));
  const updated: Task = await update.mutate({ taskId, body: { title: 'Renamed' } });
  expectType<Equal<ReturnType<typeof update.getCurrentResult>['error'], ApiCallError<UpdateTaskError> | null>>(true);
  // @ts-expect-error the body of a PATCH is a TaskPatch: no unknown members
  await update.mutate({ taskId, body: { title: 'x', colour: 'red' } });
  // @ts-expect-error taskId is required
  await update.mutate({ body: { title: 'x' } });
  const removed: void = await new MutationObserver(queryClient, deleteTaskMutation(http)).mutate({ taskId });
  await invalidateAfterUpdateTask(queryClient, { taskId, body: {} });
  // @ts-expect-error invalidation takes the mutation's params
  await invalidateAfterUpdateTask(queryClient, { projectId: taskId });
  console.log(updated, removed);
}

/** React's hooks take the same options, inferring data and error types. */
export function ReactUsage(): string {
  const task = useQuery(getTaskOptions(http, { taskId }));
  expectType<Equal<typeof task.data, Task | undefined>>(true);
  expectType<Equal<typeof task.error, ApiCallError<GetTaskError> | null>>(true);
  // Spread to add options; `select` reshapes the data.
  const title = useQuery({ ...getTaskOptions(http, { taskId }), select: (data) => data.title, staleTime: 1_000 });
  expectType<Equal<typeof title.data, string | undefined>>(true);

  const projects = useInfiniteQuery(listProjectsInfiniteOptions(http, { pageSize: 20 }));
  expectType<Equal<typeof projects.data, InfiniteData<ProjectPage, number> | undefined>>(true);
  expectType<Equal<typeof projects.error, ApiCallError<import('../../out/rest/types.js').ListProjectsError> | null>>(true);

  const create = useMutation(createTaskMutation(http));
  expectType<Equal<typeof create.data, Task | undefined>>(true);
  // @ts-expect-error a task needs a status
  create.mutate({ projectId: taskId, body: { title: 'New' } });
  create.mutate({ projectId: taskId, body: { title: 'New', status: 'todo' } });
  const update = useMutation({
    ...updateTaskMutation(http),
    onSuccess: (data, params, _result, context) => {
      expectType<Equal<typeof data, Task>>(true);
      return invalidateAfterUpdateTask(context.client, params);
    },
  });
  expectType<Equal<typeof update.error, ApiCallError<UpdateTaskError> | null>>(true);
  return `${task.data?.title ?? ''}${title.data ?? ''}`;
}
