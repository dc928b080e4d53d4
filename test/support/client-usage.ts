/**
 * TypeScript a user writes against the client generated from schemas/openapi/tasks.yaml. It is
 * put beside the generated files and type-checked: each `@ts-expect-error` must be an error, and
 * everything else must compile, so the generated types are exactly as strict as they claim.
 */
export const USAGE_SOURCE = `
import { ApiError, ClientError, createClient, createHttpClient, etagCache, getTaskOperation, listProjectsOperation, isApiError, isClientError, type Middleware, type TasksApiClient } from "./client.js";
import type { Attachment, GetTaskResponse, Problem, Project, Task, TaskPage, ValidationProblem } from "./types.js";

const logging: Middleware = async (request, next) => {
  const response = await next(request);
  console.log(request.method, request.url, response.status);
  return response;
};

const client: TasksApiClient = createClient({
  auth: { bearerAuth: async () => "token" },
  headers: () => ({ "X-Client": "usage" }),
  middleware: [logging],
  retry: { maxRetries: 3, baseDelay: 100 },
  cache: etagCache(),
  timeout: 5_000,
});

// @ts-expect-error unknown security scheme
createClient({ auth: { apiKey: "x" } });

export async function usage(signal: AbortSignal): Promise<void> {
  const task: Task = await client.getTask({ taskId: "t1" }, { signal, timeout: 1_000 });
  const response: GetTaskResponse = await client.getTask({ taskId: "t1" }).withResponse();
  const ok: 200 = response.status;
  const body: Task = response.data;
  const asPromise: Promise<Task> = client.getTask({ taskId: "t1" });
  const deleted: void = await client.deleteTask({ taskId: "t1" });

  // One operation at a time, as tree-shaking apps send them: typed as the methods are.
  const http = createHttpClient({ auth: { bearerAuth: "t" } });
  const called: Task = await http.call(getTaskOperation, { taskId: "t1" }, { signal });
  const calledResponse: GetTaskResponse = await http.call(getTaskOperation, { taskId: "t1" }).withResponse();
  const listed: Project[] = (await http.call(listProjectsOperation)).items;
  void [called, calledResponse, listed];
  // @ts-expect-error taskId is required
  await http.call(getTaskOperation, {});
  // @ts-expect-error the params object is required
  await http.call(getTaskOperation);

  // @ts-expect-error taskId is required
  await client.getTask({});
  // @ts-expect-error the params object is required
  await client.getTask();
  // @ts-expect-error the body is required
  await client.createTask({ projectId: "p1" });
  // @ts-expect-error id is read-only: not part of what a client sends
  await client.createTask({ projectId: "p1", body: { id: "x", title: "t", status: "todo" } });
  // @ts-expect-error not a TaskStatus
  await client.listProjectTasks({ projectId: "p1", filterStatus: "nope" });
  // @ts-expect-error not a field
  await client.listProjectTasks({ projectId: "p1", fields: ["nope"] });

  const created: Task = await client.createTask(
    { projectId: "p1", idempotencyKey: "k1", body: { title: "Write docs", status: "todo" } },
    { headers: { "X-Request-Id": "r1" } },
  );
  const page: TaskPage = await client.listProjectTasks({
    projectId: "p1",
    filterStatus: "in_progress",
    fields: ["id", "title"],
    sort: "-dueDate",
    limit: 10,
  });
  const patched: Task = await client.updateTask({ taskId: "t1", ifMatch: '"v1"', body: { dueDate: null } });
  const attachment: Attachment = await client.uploadAttachment({
    taskId: "t1",
    body: { file: new Blob(["hello"], { type: "text/plain" }), caption: "notes" },
  });
  const projects = await client.listProjects();
  for await (const item of client.listProjectTasksAll({ projectId: "p1" }, { signal })) {
    const each: Task = item;
    void each;
  }
  for await (const project of client.listProjectsAll({ pageSize: 50 })) {
    const each: Project = project;
    void each;
  }

  try {
    await client.createTask({ projectId: "p1", body: { title: "t", status: "todo" } });
  } catch (error) {
    if (isApiError(error, "createTask")) {
      if (error.status === 422) {
        const problem: ValidationProblem = error.data;
        void problem.errors[0]?.pointer;
      } else if (error.status === 409) {
        const problem: Problem = error.data;
        // @ts-expect-error only the 422 body lists errors
        void problem.errors;
      } else {
        const status: number = error.status;
        const problem: Problem = error.data;
        void [status, problem];
      }
    }
    if (isApiError(error)) {
      const where: string = error.operation;
      void where;
    }
    if (error instanceof ApiError) {
      const data: unknown = error.data;
      const kind: "response" = error.kind;
      void [data, kind];
    }
    // One base class for every client's errors.
    if (error instanceof ClientError && isClientError(error, "timeout")) {
      const operation: string = error.operation;
      void operation;
    }
  }
  void [task, ok, body, asPromise, deleted, created, page, patched, attachment, projects];
}
`;
