/**
 * User code written against the generated server of schemas/openapi/tasks.yaml: an in-memory
 * implementation of every operation (the end-to-end tests run it), and lines that must NOT
 * compile (`@ts-expect-error`: a wrong body, an undeclared status, a missing `Location`, ...).
 * It is written into the generated folder as `usage.ts`, type-checked with it, then transpiled
 * and imported.
 */
export const SERVER_USAGE_SOURCE = `import { randomUUID } from "node:crypto";
import { computeEtag, createServer, HttpProblem } from "./server.js";
import type { Credentials, Listener, RequestContext, TasksApiHandlers, TasksApiServerOptions } from "./server.js";
import type { Attachment, Problem, Project, Task, TaskPatch } from "./types.js";

export interface User {
  id: string;
}

/** Deleting this task fails the way a database driver does, message and all (the 500 tests). */
export const FAILING_TASK = "00000000-0000-4000-8000-000000000500";

/** Bearer "good" is user u1; anything else is rejected. */
export async function verify(credentials: Credentials): Promise<User | undefined> {
  return credentials.type === "bearer" && credentials.token === "good" ? { id: "u1" } : undefined;
}

function compare(a: unknown, b: unknown): number {
  const left = String(a ?? "");
  const right = String(b ?? "");
  return left < right ? -1 : left > right ? 1 : 0;
}

/** One in-memory API; "version" is echoed in an x-version header to tell handler sets apart. */
export function createHandlers(version = "v1"): TasksApiHandlers<RequestContext<User>> {
  const projects = new Map<string, Project>();
  const tasks = new Map<string, { projectId: string; task: Task }>();
  let clock = Date.parse("2024-05-01T10:00:00Z");
  const now = (): string => new Date((clock += 1000)).toISOString();
  const taskOf = (taskId: string): { projectId: string; task: Task } => {
    const entry = tasks.get(taskId);
    if (!entry) throw new HttpProblem(404, "Not Found", { detail: "No task " + taskId + "." });
    return entry;
  };

  return {
    listProjects({ page, pageSize, sort }) {
      const all = [...projects.values()];
      for (const { field, direction } of [...sort].reverse()) {
        all.sort((a, b) => compare(a[field], b[field]) * (direction === "desc" ? -1 : 1));
      }
      const items = all.slice((page - 1) * pageSize, page * pageSize);
      return { status: 200, body: { items, page, pageSize, total: all.length } };
    },
    createProject({ body }, context) {
      const project: Project = { id: randomUUID(), name: body.name, createdAt: now() };
      if (body.description !== undefined) project.description = body.description;
      projects.set(project.id, project);
      return { status: 201, body: project, headers: { "x-principal": context.principal?.id, "x-version": version } };
    },
    getProject({ projectId }, context) {
      const project = projects.get(projectId);
      if (!project) throw new HttpProblem(404, "Not Found", { detail: "No project " + projectId + "." });
      return { status: 200, body: project, headers: { "x-trace-id": context.traceId, "x-version": version } };
    },
    deleteProject({ projectId }) {
      projects.delete(projectId);
      return { status: 204 };
    },
    listProjectTasks({ projectId, cursor, limit, sort, filter }) {
      if (!projects.has(projectId)) throw new HttpProblem(404, "Not Found", { detail: "No project " + projectId + "." });
      let all = [...tasks.values()].filter((entry) => entry.projectId === projectId).map((entry) => entry.task);
      if (filter.status !== undefined) all = all.filter((task) => task.status === filter.status);
      if (filter.assignee !== undefined) all = all.filter((task) => task.assignee?.kind === "person" && task.assignee.email === filter.assignee);
      for (const { field, direction } of [...sort].reverse()) {
        all.sort((a, b) => compare(a[field], b[field]) * (direction === "desc" ? -1 : 1));
      }
      const start = cursor === undefined ? 0 : Number(cursor);
      if (!Number.isInteger(start) || start < 0) throw new HttpProblem(400, "Bad Request", { detail: "Unknown cursor." });
      const items = all.slice(start, start + limit);
      return { status: 200, body: { items, nextCursor: start + limit < all.length ? String(start + limit) : null } };
    },
    createTask({ projectId, body }) {
      if (!projects.has(projectId)) throw new HttpProblem(404, "Not Found", { detail: "No project " + projectId + "." });
      const { subtasks: _subtasks, ...fields } = body;
      const task: Task = { ...fields, id: randomUUID(), createdAt: now() };
      tasks.set(task.id, { projectId, task });
      return { status: 201, body: task, headers: { location: "/v1/tasks/" + task.id } };
    },
    getTask({ taskId }) {
      return { status: 200, body: taskOf(taskId).task };
    },
    replaceTask({ taskId, body }, context) {
      const entry = taskOf(taskId);
      context.assertIfMatch(computeEtag(JSON.stringify(entry.task)));
      const { subtasks: _subtasks, ...fields } = body;
      entry.task = { ...fields, id: taskId, createdAt: entry.task.createdAt, updatedAt: now() };
      return { status: 200, body: entry.task };
    },
    deleteTask({ taskId }) {
      if (taskId === FAILING_TASK) throw new Error("connection to postgres://admin:hunter2@db.internal:5432/tasks refused");
      tasks.delete(taskId);
      return { status: 204 };
    },
    updateTask({ taskId, body }, context) {
      const entry = taskOf(taskId);
      context.assertIfMatch(computeEtag(JSON.stringify(entry.task)));
      const task: Record<string, unknown> = { ...entry.task };
      for (const [key, value] of Object.entries(body as TaskPatch)) {
        if (value === null) delete task[key];
        else task[key] = value;
      }
      entry.task = { ...(task as unknown as Task), updatedAt: now() };
      return { status: 200, body: entry.task };
    },
    async uploadAttachment({ taskId, body }) {
      taskOf(taskId);
      const attachment: Attachment = { id: randomUUID(), fileName: "upload", size: (await body.file.arrayBuffer()).byteLength };
      if (body.caption !== undefined) attachment.caption = body.caption;
      return { status: 201, body: attachment, headers: { location: "/v1/tasks/" + taskId + "/attachments/" + attachment.id } };
    },
  };
}

/** The listener the tests start: bearer auth, quiet error log, plus the given options. */
export function listener(options: TasksApiServerOptions<User> = {}, handlers = createHandlers()): Listener {
  return createServer(handlers, { auth: { verify }, onError: () => {}, ...options });
}

// ---- a context of the application's own --------------------------------------------------------

interface AppContext {
  user: User | undefined;
  requestId: string;
}

export function withContext(handlers: TasksApiHandlers<AppContext>): Listener {
  return createServer(handlers, {
    auth: { verify },
    context: (base) => ({ user: base.principal, requestId: base.traceId }),
  });
}

// ---- what must not compile ------------------------------------------------------------------------

declare const task: Task;
declare const project: Project;
declare const problem: Problem;

export const wrongBody: TasksApiHandlers["getProject"] = () =>
  // @ts-expect-error a Task is not a Project
  ({ status: 200, body: task });

export const undeclaredStatus: TasksApiHandlers["getProject"] = () =>
  // @ts-expect-error 418 is not a declared response of getProject
  ({ status: 418, body: project });

export const missingLocation: TasksApiHandlers["createTask"] = () =>
  // @ts-expect-error the 201 of createTask declares a required Location header
  ({ status: 201, body: task });

export const bodyOn204: TasksApiHandlers["deleteTask"] = () =>
  // @ts-expect-error a 204 has no body
  ({ status: 204, body: project });

export const wrongErrorBody: TasksApiHandlers["getTask"] = () =>
  // @ts-expect-error the declared 404 body is a Problem
  ({ status: 404, body: { message: "gone" } });

export const typedRequest: TasksApiHandlers["listProjectTasks"] = (request) => {
  // @ts-expect-error limit is a number (its default applies, so it is never undefined)
  const limit: string = request.limit;
  // @ts-expect-error only title, dueDate and createdAt are sortable
  const bogus = request.sort.some((item) => item.field === "priority");
  // @ts-expect-error filter[status] is a TaskStatus
  const status: "open" | undefined = request.filter.status;
  void limit;
  void bogus;
  void status;
  return { status: 404, body: problem };
};

// @ts-expect-error every operation needs a handler
export const incomplete: TasksApiHandlers = { getTask: () => ({ status: 404, body: problem }) };
`;
