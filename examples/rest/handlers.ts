// The handlers of Tasks API: yours to edit. codegen wrote this file once; when an operation
// is added to the schema it adds a stub for it here, and never changes anything else.
//
// This is the example's implementation: every operation of schemas/openapi/tasks.yaml, on an
// in-memory store (lost on restart). The generated server has already parsed and validated the
// parameters and the body when a handler runs, and it turns the returned result (or a thrown
// `HttpProblem`) into the response: ETags and 304s, `Location`, `Link`, sparse fieldsets and
// Problem Details are its business, not this file's. `examples/rest/main.ts` starts it.
import { randomUUID } from 'node:crypto';
import { computeEtag, HttpProblem, type TasksApiHandlers } from '../../out/rest/server.js';
import type { Assignee, Attachment, Project, Task, TaskInput, TaskPatch } from '../../out/rest/types.js';
import { validateTask } from '../../out/rest/validators.js';

// ---- the in-memory store ------------------------------------------------------------------------

interface TaskEntry {
  projectId: string;
  task: Task;
  /** Strong ETag of the task's JSON, as `GET /tasks/{taskId}` sends it: what `If-Match` compares. */
  etag: string;
}

const projects = new Map<string, Project>();
const tasks = new Map<string, TaskEntry>();
/** Task ids per project, in creation order (the default order of the task list). */
const tasksByProject = new Map<string, Set<string>>();
const attachments = new Map<string, { taskId: string; attachment: Attachment }>();

/** Largest attachment the example keeps (the server's own body limit, 1 MiB, comes first). */
export const MAX_ATTACHMENT_BYTES = 256 * 1024;

/** Forgets everything: for tests and benchmarks that reuse one process. */
export function resetStore(): void {
  projects.clear();
  tasks.clear();
  tasksByProject.clear();
  attachments.clear();
}

function now(): string {
  return new Date().toISOString();
}

function notFound(what: string, id: string): HttpProblem {
  return new HttpProblem(404, 'Not Found', { detail: `No ${what} ${id}.` });
}

function projectOf(projectId: string): Project {
  const project = projects.get(projectId);
  if (!project) throw notFound('project', projectId);
  return project;
}

function entryOf(taskId: string): TaskEntry {
  const entry = tasks.get(taskId);
  if (!entry) throw notFound('task', taskId);
  return entry;
}

function save(entry: Omit<TaskEntry, 'etag'>): TaskEntry {
  const saved = { ...entry, etag: computeEtag(JSON.stringify(entry.task)) };
  tasks.set(entry.task.id, saved);
  return saved;
}

/**
 * A task from a request body: only the fields a client may set (so `id`, `createdAt` or anything
 * undeclared that was sent is dropped), subtasks made into tasks of their own.
 */
function taskFrom(input: TaskInput, id: string, createdAt: string, updatedAt?: string): Task {
  checkLabels(input);
  const task: Task = { id, title: input.title, status: input.status, createdAt };
  if (input.dueDate !== undefined) task.dueDate = input.dueDate;
  if (input.estimateHours !== undefined) task.estimateHours = input.estimateHours;
  if (input.assignee !== undefined) task.assignee = assigneeFrom(input.assignee);
  if (input.labels !== undefined)
    task.labels = input.labels.map((label) =>
      label.color === undefined ? { name: label.name } : { name: label.name, color: label.color },
    );
  if (input.metadata !== undefined) task.metadata = Object.fromEntries(Object.entries(input.metadata));
  if (input.subtasks !== undefined) task.subtasks = input.subtasks.map((subtask) => taskFrom(subtask, randomUUID(), createdAt));
  if (updatedAt !== undefined) task.updatedAt = updatedAt;
  return task;
}

function assigneeFrom(assignee: Assignee): Assignee {
  return assignee.kind === 'person' ? { kind: 'person', email: assignee.email } : { kind: 'team', team: assignee.team };
}

/** A business rule the schema cannot say: label names are unique within a task (colors aside). */
function checkLabels(input: TaskInput): void {
  const seen = new Set<string>();
  const errors = (input.labels ?? []).flatMap((label, index) => {
    if (!seen.has(label.name)) {
      seen.add(label.name);
      return [];
    }
    return [{ pointer: `/body/labels/${index}/name`, keyword: 'unique', message: `label ${JSON.stringify(label.name)} is given twice` }];
  });
  if (errors.length > 0) {
    throw new HttpProblem(422, 'Unprocessable Content', { detail: `${errors[0].pointer} ${errors[0].message}.`, extensions: { errors } });
  }
}

/** Compares by one field; absent values sort last whichever the direction. */
function byFields<T extends object>(fields: readonly { field: string; direction: 'asc' | 'desc' }[]): (a: T, b: T) => number {
  return (a, b) => {
    for (const { field, direction } of fields) {
      const left = (a as Record<string, unknown>)[field];
      const right = (b as Record<string, unknown>)[field];
      if (left === right) continue;
      if (left === undefined || left === null) return 1;
      if (right === undefined || right === null) return -1;
      const order = String(left) < String(right) ? -1 : String(left) > String(right) ? 1 : 0;
      if (order !== 0) return direction === 'desc' ? -order : order;
    }
    return 0;
  };
}

/** Cursors are opaque to clients: the offset of the next page, base64url-encoded. */
function encodeCursor(offset: number): string {
  return Buffer.from(`o:${offset}`).toString('base64url');
}

function decodeCursor(cursor: string): number {
  const match = /^o:(\d{1,9})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match) throw new HttpProblem(400, 'Bad Request', { detail: 'The cursor is not one this server issued.' });
  return Number(match[1]);
}

/** RFC 7396 JSON merge patch: `null` removes a member, objects merge, anything else replaces. */
function mergePatch(target: unknown, patch: unknown): unknown {
  if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) return patch;
  const result: Record<string, unknown> =
    typeof target === 'object' && target !== null && !Array.isArray(target) ? { ...(target as Record<string, unknown>) } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete result[key];
    else
      Object.defineProperty(result, key, { value: mergePatch(result[key], value), enumerable: true, writable: true, configurable: true });
  }
  return result;
}

// ---- the handlers ------------------------------------------------------------------------------

export const handlers: TasksApiHandlers = {
  /** `GET /projects`: List projects, a page at a time. */
  async listProjects({ page, pageSize, sort }) {
    const all = [...projects.values()];
    if (sort.length > 0) all.sort(byFields<Project>(sort));
    const items = all.slice((page - 1) * pageSize, page * pageSize);
    return { status: 200, body: { items, page, pageSize, total: all.length } };
  },
  /** `POST /projects`: Create a project. */
  async createProject({ body }) {
    const project: Project = { id: randomUUID(), name: body.name, createdAt: now() };
    if (body.description !== undefined) project.description = body.description;
    projects.set(project.id, project);
    tasksByProject.set(project.id, new Set());
    // `Location` is filled in by the server: the member route with the new `id`.
    return { status: 201, body: project };
  },
  /** `GET /projects/{projectId}`: Fetch one project. */
  async getProject({ projectId }) {
    const project = projectOf(projectId);
    // The ETag is computed from the body by the server; projects never change once created.
    return { status: 200, body: project, headers: { 'last-modified': new Date(project.createdAt).toUTCString() } };
  },
  /** `DELETE /projects/{projectId}`: Delete a project and its tasks. */
  async deleteProject({ projectId }) {
    for (const taskId of tasksByProject.get(projectId) ?? []) {
      tasks.delete(taskId);
      for (const [id, stored] of attachments) if (stored.taskId === taskId) attachments.delete(id);
    }
    tasksByProject.delete(projectId);
    projects.delete(projectId);
    return { status: 204 };
  },
  /** `GET /projects/{projectId}/tasks`: List the tasks of a project, by cursor. */
  async listProjectTasks({ projectId, cursor, limit, sort, filter }) {
    projectOf(projectId);
    let all: Task[] = [];
    for (const taskId of tasksByProject.get(projectId) ?? []) {
      const entry = tasks.get(taskId);
      if (entry) all.push(entry.task);
    }
    if (filter.status !== undefined) all = all.filter((task) => task.status === filter.status);
    if (filter.assignee !== undefined) {
      const who = filter.assignee;
      all = all.filter((task) => (task.assignee?.kind === 'person' ? task.assignee.email === who : task.assignee?.team === who));
    }
    if (sort.length > 0) all.sort(byFields<Task>(sort));
    const start = cursor === undefined ? 0 : decodeCursor(cursor);
    const items = all.slice(start, start + limit);
    const more = start + limit < all.length;
    // The server applies `fields` (sparse fieldsets) and writes the `Link: rel="next"` header.
    return { status: 200, body: { items, nextCursor: more ? encodeCursor(start + limit) : null } };
  },
  /** `POST /projects/{projectId}/tasks`: Add a task to a project. */
  async createTask({ projectId, body }, context) {
    projectOf(projectId);
    const task = taskFrom(body, randomUUID(), now());
    const entry = save({ projectId, task });
    tasksByProject.get(projectId)?.add(task.id);
    // The new task lives at another route than the one posted to: say where.
    return { status: 201, body: task, headers: { location: `${context.basePath}/tasks/${task.id}`, etag: entry.etag } };
  },
  /** `GET /tasks/{taskId}` */
  async getTask({ taskId }) {
    const entry = entryOf(taskId);
    // `If-None-Match` is answered by the server (304) from this ETag.
    return { status: 200, body: entry.task, headers: { etag: entry.etag } };
  },
  /** `PUT /tasks/{taskId}`: Replace a task. */
  async replaceTask({ taskId, body }, context) {
    const entry = entryOf(taskId);
    // 412 when If-Match names another version; without If-Match the replace is unconditional.
    context.assertIfMatch(entry.etag);
    const task = taskFrom(body, taskId, entry.task.createdAt, now());
    const saved = save({ projectId: entry.projectId, task });
    return { status: 200, body: task, headers: { etag: saved.etag } };
  },
  /** `DELETE /tasks/{taskId}` */
  async deleteTask({ taskId }) {
    const entry = tasks.get(taskId);
    if (entry) {
      tasks.delete(taskId);
      tasksByProject.get(entry.projectId)?.delete(taskId);
      for (const [id, stored] of attachments) if (stored.taskId === taskId) attachments.delete(id);
    }
    return { status: 204 };
  },
  /** `PATCH /tasks/{taskId}`: Change some fields of a task. */
  async updateTask({ taskId, body }, context) {
    const entry = entryOf(taskId);
    context.assertIfMatch(entry.etag);
    const patch: TaskPatch = body;
    let base: Task = entry.task;
    // A different kind of assignee replaces the old one rather than merging into it.
    if (patch.assignee && base.assignee && patch.assignee.kind !== base.assignee.kind) {
      const { assignee: _replaced, ...rest } = base;
      base = rest;
    }
    const merged = mergePatch(base, patch) as Record<string, unknown>;
    merged.updatedAt = now();
    const checked = validateTask(merged);
    if (!checked.ok) {
      const errors = checked.errors.map((error) => ({ pointer: `/body${error.path}`, keyword: error.keyword, message: error.message }));
      throw new HttpProblem(422, 'Unprocessable Content', { detail: 'The patched task would not be valid.', extensions: { errors } });
    }
    const saved = save({ projectId: entry.projectId, task: checked.value });
    return { status: 200, body: checked.value, headers: { etag: saved.etag } };
  },
  /** `POST /tasks/{taskId}/attachments`: Attach a file to a task. */
  async uploadAttachment({ taskId, body }, context) {
    entryOf(taskId);
    if (body.file.size > MAX_ATTACHMENT_BYTES) {
      throw new HttpProblem(413, 'Content Too Large', { detail: `Attachments are limited to ${MAX_ATTACHMENT_BYTES} bytes.` });
    }
    const fileName = body.file instanceof File && body.file.name !== '' ? body.file.name : 'upload';
    const attachment: Attachment = { id: randomUUID(), fileName, size: body.file.size };
    if (body.caption !== undefined) attachment.caption = body.caption;
    attachments.set(attachment.id, { taskId, attachment });
    return { status: 201, body: attachment, headers: { location: `${context.basePath}/tasks/${taskId}/attachments/${attachment.id}` } };
  },
};
