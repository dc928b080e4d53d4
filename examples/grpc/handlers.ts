// The handlers of the gRPC services: yours to edit. codegen wrote this file once; when an rpc or a
// service is added to the proto it adds a stub for it here, and never changes anything else. Serve
// them with `createGrpcServer(handlers, options)` from "../../out/grpc/server.js"; to use
// `context.principal`, write `satisfies GrpcServices<YourPrincipal>` below.
//
// The example keeps tasks in memory, in a Map per instance, and publishes every change on the
// generated pub/sub (out/grpc/pubsub.ts): SyncTasks conversations subscribe to it, and each
// instance keeps its Map up to date from the changes it hears, so with `shareChanges` on Redis
// (main.ts, REDIS_URL) several instances serve the same tasks, eventually: a real server keeps
// them in a database and publishes only.
import { randomUUID } from 'node:crypto';
import { clone, create, equals } from '@bufbuild/protobuf';
import { timestampNow } from '@bufbuild/protobuf/wkt';
import {
  TaskEvent_Kind,
  TaskEventSchema,
  TaskSchema,
  TaskStatus,
  type Task,
  type TaskEvent,
} from '../../out/grpc/acme/tasks/v1/tasks_pb.js';
import { createPubSub, SubscriptionOverflowError, type PubSub } from '../../out/grpc/pubsub.js';
import { Code, ConnectError, type GrpcServices } from '../../out/grpc/server.js';

/** Who a token belongs to (see main.ts). */
export interface User {
  id: string;
  role: 'editor' | 'reader';
}

const tasks = new Map<string, Task>();
/** Ids unique across instances: this instance's prefix, then a counter. */
const instance = randomUUID().slice(0, 8);
let nextId = 1;

/** Where changes are published and heard: this process only, until `shareChanges`. */
let pubsub: PubSub = createPubSub();

/** Changes this instance published and has not heard back yet: already applied here, so skipped. */
const own: TaskEvent[] = [];

/**
 * Publishes changes on `shared` from now on (main.ts: on Redis when REDIS_URL is set) and applies
 * the changes of every instance to this one's tasks. Resolves once subscribed.
 */
export async function shareChanges(shared: PubSub): Promise<void> {
  pubsub = shared;
  const changes = await shared.TaskService.syncTasks.subscribe({ maxQueued: 100_000 });
  void (async () => {
    try {
      for await (const event of changes) heard(event);
    } catch (error) {
      console.error('example:grpc: stopped applying the changes of other instances:', error);
    }
  })();
}

/** A change heard on the pub/sub: applied, unless this instance made it (and applied it already). */
function heard(event: TaskEvent): void {
  const mine = own.findIndex((each) => equals(TaskEventSchema, each, event));
  if (mine >= 0) {
    own.splice(mine, 1);
    return;
  }
  const task = event.task;
  if (!task) return;
  if (event.kind === TaskEvent_Kind.DELETED) tasks.delete(task.id);
  else tasks.set(task.id, task);
}

async function publish(kind: TaskEvent_Kind, task: Task): Promise<void> {
  // A copy: the stored task changes with later updates, the event must not.
  const event = create(TaskEventSchema, { kind, task: clone(TaskSchema, task) });
  own.push(event);
  // Echoes lost while Redis was away must not pile up.
  if (own.length > 1000) own.shift();
  try {
    await pubsub.TaskService.syncTasks.publish(event);
  } catch (error) {
    // Redis unreachable (RedisUnavailableError): applied here, but no other instance heard of it.
    throw new ConnectError('the change was made but could not be shared; try again', Code.Unavailable, undefined, undefined, error);
  }
}

function found(id: string): Task {
  const task = tasks.get(id);
  if (!task) throw new ConnectError(`task ${id} not found`, Code.NotFound);
  return task;
}

/** A new task from what a client sent: checks what the proto cannot say, assigns id and time. */
async function createFrom(input: Task | undefined): Promise<Task> {
  if (!input) throw new ConnectError('task is required', Code.InvalidArgument);
  if (input.projectId === '') throw new ConnectError('task.project_id is required', Code.InvalidArgument);
  if (input.title.trim() === '') throw new ConnectError('task.title is required', Code.InvalidArgument);
  const task = create(TaskSchema, { ...input, id: `t${nextId++}-${instance}`, createTime: timestampNow() });
  if (task.status === TaskStatus.UNSPECIFIED) task.status = TaskStatus.TODO;
  tasks.set(task.id, task);
  await publish(TaskEvent_Kind.CREATED, task);
  return task;
}

/** Applies `changes` to the stored task: the fields named in `paths`, or every field set. */
async function update(changes: Task, paths: readonly string[]): Promise<Task> {
  const task = found(changes.id);
  const all = paths.length === 0;
  if (all ? changes.title !== '' : paths.includes('title')) task.title = changes.title;
  if (all ? changes.status !== TaskStatus.UNSPECIFIED : paths.includes('status')) task.status = changes.status;
  if (all ? changes.assigneeId !== undefined : paths.includes('assignee_id')) task.assigneeId = changes.assigneeId;
  if (all ? changes.labels.length > 0 : paths.includes('labels')) task.labels = changes.labels;
  await publish(TaskEvent_Kind.UPDATED, task);
  return task;
}

async function remove(id: string): Promise<void> {
  const task = found(id);
  tasks.delete(id);
  await publish(TaskEvent_Kind.DELETED, task);
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
      await remove(request.id);
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
      for await (const task of requests) ids.push((await createFrom(task)).id);
      return { created: ids.length, ids };
    },
    /** Send changes and receive everyone's, live (bidirectional streaming). */
    async *syncTasks(requests, context) {
      // Subscribed before the client's first change is applied, so it hears its own changes too.
      const changes = await pubsub.TaskService.syncTasks.subscribe({ signal: context.signal });
      let failed: { error: unknown } | undefined;
      // The client's changes are applied as they arrive; when it stops sending, the conversation ends.
      const receive = (async () => {
        try {
          for await (const event of requests) {
            if (event.kind === TaskEvent_Kind.CREATED) await createFrom(event.task);
            else if (event.kind === TaskEvent_Kind.UPDATED && event.task) await update(event.task, []);
            else if (event.kind === TaskEvent_Kind.DELETED && event.task) await remove(event.task.id);
          }
        } catch (error) {
          failed = { error };
        } finally {
          await changes.return();
        }
      })();
      try {
        yield* changes;
      } catch (error) {
        if (error instanceof SubscriptionOverflowError)
          throw new ConnectError('this conversation fell too far behind the changes', Code.ResourceExhausted);
        throw error;
      } finally {
        await changes.return();
      }
      await receive;
      if (failed) throw failed.error;
    },
  },
} satisfies GrpcServices<User>;
