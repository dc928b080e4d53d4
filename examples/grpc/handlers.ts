// The handlers of the gRPC services: yours to edit. codegen wrote this file once; when an rpc or a
// service is added to the proto it adds a stub for it here, and never changes anything else. Serve
// them with `createGrpcServer(handlers, options)` from "../../out/grpc/server.js"; to use
// `context.principal`, write `satisfies GrpcServices<YourPrincipal>` below.
//
// The example keeps tasks in memory: a Map, and a list of listeners for SyncTasks.
import { create } from '@bufbuild/protobuf';
import { timestampNow } from '@bufbuild/protobuf/wkt';
import {
  TaskEvent_Kind,
  TaskEventSchema,
  TaskSchema,
  TaskStatus,
  type Task,
  type TaskEvent,
} from '../../out/grpc/acme/tasks/v1/tasks_pb.js';
import { Code, ConnectError, type GrpcServices } from '../../out/grpc/server.js';

/** Who a token belongs to (see main.ts). */
export interface User {
  id: string;
  role: 'editor' | 'reader';
}

const tasks = new Map<string, Task>();
let nextId = 1;

/** Every SyncTasks conversation hears every change. */
const listeners = new Set<(event: TaskEvent) => void>();

function publish(kind: TaskEvent_Kind, task: Task): void {
  const event = create(TaskEventSchema, { kind, task });
  for (const listener of listeners) listener(event);
}

function found(id: string): Task {
  const task = tasks.get(id);
  if (!task) throw new ConnectError(`task ${id} not found`, Code.NotFound);
  return task;
}

/** A new task from what a client sent: checks what the proto cannot say, assigns id and time. */
function createFrom(input: Task | undefined): Task {
  if (!input) throw new ConnectError('task is required', Code.InvalidArgument);
  if (input.projectId === '') throw new ConnectError('task.project_id is required', Code.InvalidArgument);
  if (input.title.trim() === '') throw new ConnectError('task.title is required', Code.InvalidArgument);
  const task = create(TaskSchema, { ...input, id: `t${nextId++}`, createTime: timestampNow() });
  if (task.status === TaskStatus.UNSPECIFIED) task.status = TaskStatus.TODO;
  tasks.set(task.id, task);
  publish(TaskEvent_Kind.CREATED, task);
  return task;
}

/** Applies `changes` to the stored task: the fields named in `paths`, or every field set. */
function update(changes: Task, paths: readonly string[]): Task {
  const task = found(changes.id);
  const all = paths.length === 0;
  if (all ? changes.title !== '' : paths.includes('title')) task.title = changes.title;
  if (all ? changes.status !== TaskStatus.UNSPECIFIED : paths.includes('status')) task.status = changes.status;
  if (all ? changes.assigneeId !== undefined : paths.includes('assignee_id')) task.assigneeId = changes.assigneeId;
  if (all ? changes.labels.length > 0 : paths.includes('labels')) task.labels = changes.labels;
  publish(TaskEvent_Kind.UPDATED, task);
  return task;
}

function remove(id: string): void {
  const task = found(id);
  tasks.delete(id);
  publish(TaskEvent_Kind.DELETED, task);
}

export const handlers = {
  /** `acme.tasks.v1.TaskService` */
  TaskService: {
    /** One task by id (unary). A handler may answer with a plain value or a promise. */
    getTask(request) {
      if (request.id === '') throw new ConnectError('id is required', Code.InvalidArgument);
      return found(request.id);
    },
    /** Create a task (unary). */
    async createTask(request) {
      return createFrom(request.task);
    },
    /** Change some fields of a task (unary). */
    async updateTask(request) {
      if (!request.task) throw new ConnectError('task is required', Code.InvalidArgument);
      return update(request.task, request.updateMask?.paths ?? []);
    },
    /** Delete a task (unary). */
    async deleteTask(request) {
      remove(request.id);
      return {};
    },
    /** The tasks of a project, streamed one by one (server streaming). */
    async *listTasks(request) {
      if (request.projectId === '') throw new ConnectError('project_id is required', Code.InvalidArgument);
      const limit = request.pageSize > 0 ? request.pageSize : 50;
      let sent = 0;
      for (const task of tasks.values()) {
        if (sent === limit) return;
        if (task.projectId !== request.projectId) continue;
        if (request.status !== TaskStatus.UNSPECIFIED && task.status !== request.status) continue;
        sent++;
        yield task;
      }
    },
    /** The tasks of a project, a page at a time (unary, AIP-158 pagination). */
    async listProjectTasks(request) {
      if (request.projectId === '') throw new ConnectError('project_id is required', Code.InvalidArgument);
      // The token is the offset of the page; clients treat it as opaque.
      const start = request.pageToken === '' ? 0 : Number(request.pageToken);
      if (!Number.isSafeInteger(start) || start < 0) throw new ConnectError('page_token is not one this server gave', Code.InvalidArgument);
      const size = request.pageSize > 0 ? Math.min(request.pageSize, 100) : 50;
      const all = [...tasks.values()].filter((task) => task.projectId === request.projectId);
      const end = start + size;
      return { tasks: all.slice(start, end), nextPageToken: end < all.length ? String(end) : '' };
    },
    /** Create many tasks from a stream; one answer at the end (client streaming). */
    async importTasks(requests) {
      const ids: string[] = [];
      for await (const task of requests) ids.push(createFrom(task).id);
      return { created: ids.length, ids };
    },
    /** Send changes and receive everyone's, live (bidirectional streaming). */
    async *syncTasks(requests, context) {
      // Everyone's changes queue here while this generator waits; the client's own are applied as they arrive.
      const queue: TaskEvent[] = [];
      let wake: (() => void) | undefined;
      const listener = (event: TaskEvent) => {
        queue.push(event);
        wake?.();
      };
      listeners.add(listener);
      let sending = true;
      const receive = (async () => {
        try {
          for await (const event of requests) {
            if (event.kind === TaskEvent_Kind.CREATED) createFrom(event.task);
            else if (event.kind === TaskEvent_Kind.UPDATED && event.task) update(event.task, []);
            else if (event.kind === TaskEvent_Kind.DELETED && event.task) remove(event.task.id);
          }
        } finally {
          sending = false;
          wake?.();
        }
      })();
      try {
        while (!context.signal.aborted) {
          const event = queue.shift();
          if (event) {
            yield event;
            continue;
          }
          if (!sending) break;
          await new Promise<void>((resolve) => (wake = resolve));
        }
        await receive;
      } finally {
        listeners.delete(listener);
      }
    },
  },
} satisfies GrpcServices<User>;
