/**
 * User code written against the server generated from test/fixtures/swagger2/tasks.swagger.yaml
 * (Swagger 2.0): an in-memory implementation of every operation, type-checked with the generated
 * files, then transpiled and run by swagger2.test.ts.
 */
export const SWAGGER2_USAGE_SOURCE = `import { randomUUID } from "node:crypto";
import { computeEtag, createServer, HttpProblem } from "./server.js";
import type { Credentials, Listener, TasksApiHandlers, RequestContext } from "./server.js";
import type { Attachment, Comment, Project, Task } from "./types.js";

export interface User {
  id: string;
}

/** X-API-Key "good", or basic "ada:secret", is user u1; anything else is rejected. */
async function verify(credentials: Credentials): Promise<User | undefined> {
  if (credentials.type === "apiKey") return credentials.apiKey === "good" ? { id: "u1" } : undefined;
  if (credentials.type === "basic") return credentials.username === "ada" && credentials.password === "secret" ? { id: "u1" } : undefined;
  return undefined;
}

function handlers(): TasksApiHandlers<RequestContext<User>> {
  const projects = new Map<string, Project>();
  const tasks = new Map<string, { projectId: string; task: Task }>();
  let clock = Date.parse("2024-05-01T10:00:00Z");
  const now = (): string => new Date((clock += 1000)).toISOString();
  const taskOf = (taskId: string): { projectId: string; task: Task } => {
    const entry = tasks.get(taskId);
    if (!entry) throw new HttpProblem(404, "Not Found", { detail: "No task " + taskId + "." });
    return entry;
  };
  const projectOf = (projectId: string): Project => {
    const project = projects.get(projectId);
    if (!project) throw new HttpProblem(404, "Not Found", { detail: "No project " + projectId + "." });
    return project;
  };
  return {
    listProjects({ page, pageSize, sort }) {
      const all = [...projects.values()];
      for (const { field, direction } of [...sort].reverse()) {
        all.sort((a, b) => (a[field] < b[field] ? -1 : a[field] > b[field] ? 1 : 0) * (direction === "desc" ? -1 : 1));
      }
      return { status: 200, body: { items: all.slice((page - 1) * pageSize, page * pageSize), page, pageSize, total: all.length } };
    },
    createProject({ body }) {
      const project: Project = { id: randomUUID(), name: body.name, createdAt: now() };
      if (body.description !== undefined) project.description = body.description;
      projects.set(project.id, project);
      return { status: 201, body: project };
    },
    getProject({ projectId }) {
      return { status: 200, body: projectOf(projectId) };
    },
    deleteProject({ projectId }) {
      projects.delete(projectId);
      return { status: 204 };
    },
    listProjectTasks({ projectId, status, labels, assignee, fields, limit }) {
      projectOf(projectId);
      let all = [...tasks.values()].filter((entry) => entry.projectId === projectId).map((entry) => entry.task);
      if (status !== undefined) all = all.filter((task) => task.status === status);
      if (labels !== undefined) all = all.filter((task) => labels.every((name) => task.labels?.some((label) => label.name === name)));
      if (assignee !== undefined) all = all.filter((task) => task.assignee !== undefined && assignee.includes(task.assignee.kind));
      const page = all.slice(0, limit);
      if (fields === undefined) return { status: 200, body: page };
      // A sparse fieldset the handler applies itself: the 2.0 document names it "fields" but pipe-delimited.
      return { status: 200, body: page.map((task) => Object.fromEntries(Object.entries(task).filter(([key]) => fields.includes(key as never) || key === "id" || key === "title" || key === "status")) as Task) };
    },
    createTask({ projectId, body }) {
      projectOf(projectId);
      const task: Task = { ...body, id: randomUUID() };
      tasks.set(task.id, { projectId, task });
      return { status: 201, body: task, headers: { location: "/v1/tasks/" + task.id } };
    },
    getTask({ taskId }) {
      return { status: 200, body: taskOf(taskId).task };
    },
    updateTask({ taskId, body }, context) {
      const entry = taskOf(taskId);
      context.assertIfMatch(computeEtag(JSON.stringify(entry.task)));
      const task: Record<string, unknown> = { ...entry.task };
      for (const [key, value] of Object.entries(body)) {
        if (value === null) delete task[key];
        else task[key] = value;
      }
      entry.task = { ...(task as unknown as Task), updatedAt: now() };
      return { status: 200, body: entry.task };
    },
    deleteTask({ taskId }) {
      tasks.delete(taskId);
      return { status: 204 };
    },
    async uploadAttachment({ taskId, body }) {
      taskOf(taskId);
      const attachment: Attachment = { id: randomUUID(), size: (await body.file.arrayBuffer()).byteLength };
      if (body.caption !== undefined) attachment.caption = body.caption;
      return { status: 201, body: attachment };
    },
    addComment({ taskId, body }) {
      taskOf(taskId);
      const comment: Comment = { id: randomUUID(), text: body.notify ? body.text + " (notified)" : body.text };
      return { status: 201, body: comment };
    },
  };
}

/** The listener the tests start: X-API-Key or basic auth, quiet error log. */
export function listener(): Listener {
  return createServer(handlers(), { auth: { verify }, onError: () => {}, production: false, validateResponses: true });
}
`;
