/**
 * The example's data: users, projects and tasks in the memory of one process, and every change
 * published on the generated pub/sub's `taskChanged` topic (out/graphql/pubsub.ts), which reaches
 * the subscribers of every instance when main.ts gives it a `RedisFanOut`. An event carries the
 * whole changed task, so a subscriber on another instance (with its own store) needs nothing else.
 * A real service keeps the data in a database; the resolvers would not change shape.
 */
import type { PubSub } from '../../out/graphql/pubsub.js';
import type { TaskChange, TaskStatus } from '../../out/graphql/types.js';

/**
 * A task as stored: the assignee and project by id, resolved by the `Task` field resolvers.
 * Every record names its GraphQL type in `__typename`, which is how graphql-js tells the members
 * of `Node` and `SearchResult` apart.
 */
export interface TaskRecord {
  __typename: 'Task';
  id: string;
  projectId: string;
  title: string;
  status: TaskStatus;
  assigneeId: string | null;
  createdAt: string;
  internalNotes: string | null;
}

/** A project as stored; its tasks are a query of their own (`Project.tasks`). */
export interface ProjectRecord {
  __typename: 'Project';
  id: string;
  name: string;
  createdAt: string;
}

export interface UserRecord {
  __typename: 'User';
  id: string;
  name: string;
  email: string | null;
}

export class TaskStore {
  readonly users = new Map<string, UserRecord>();
  readonly projects = new Map<string, ProjectRecord>();
  readonly tasks = new Map<string, TaskRecord>();
  private sequence = 0;

  constructor(private readonly pubsub: PubSub) {
    this.users.set('u1', { __typename: 'User', id: 'u1', name: 'Ada', email: 'ada@example.com' });
    this.users.set('u2', { __typename: 'User', id: 'u2', name: 'Grace', email: 'grace@example.com' });
    this.projects.set('p1', { __typename: 'Project', id: 'p1', name: 'Launch', createdAt: '2026-11-01T09:00:00Z' });
    this.projects.set('p2', { __typename: 'Project', id: 'p2', name: 'Docs', createdAt: '2026-11-02T09:00:00Z' });
    for (let i = 1; i <= 30; i++) {
      this.add({
        projectId: i <= 25 ? 'p1' : 'p2',
        title: `Task ${i}`,
        status: i % 3 === 0 ? 'DONE' : i % 3 === 1 ? 'TODO' : 'IN_PROGRESS',
        assigneeId: i % 2 === 0 ? 'u1' : i % 5 === 0 ? null : 'u2',
        internalNotes: i === 1 ? 'Blocked on legal review' : null,
      });
    }
  }

  /** Adds a task and resolves once its change is published (so changes reach subscribers in order). */
  async insert(fields: Omit<TaskRecord, '__typename' | 'id' | 'createdAt'>): Promise<TaskRecord> {
    const task = this.add(fields);
    await this.publish('CREATED', task);
    return task;
  }

  private add(fields: Omit<TaskRecord, '__typename' | 'id' | 'createdAt'>): TaskRecord {
    this.sequence += 1;
    const task: TaskRecord = {
      __typename: 'Task',
      id: `t${this.sequence}`,
      createdAt: new Date(Date.UTC(2026, 10, 1, 10, this.sequence)).toISOString(),
      ...fields,
    };
    this.tasks.set(task.id, task);
    return task;
  }

  async update(id: string, fields: Partial<Pick<TaskRecord, 'title' | 'status' | 'assigneeId'>>): Promise<TaskRecord | undefined> {
    const task = this.tasks.get(id);
    if (!task) return undefined;
    Object.assign(task, fields);
    await this.publish('UPDATED', task);
    return task;
  }

  async delete(id: string): Promise<boolean> {
    const task = this.tasks.get(id);
    if (!task) return false;
    this.tasks.delete(id);
    await this.publish('DELETED', task);
    return true;
  }

  /** One project's tasks after `after` (a task id used as the cursor), oldest first. */
  page(projectId: string, first: number, after: string | null | undefined, status: TaskStatus | null | undefined) {
    const all = [...this.tasks.values()].filter((task) => task.projectId === projectId && (!status || task.status === status));
    const start = after ? all.findIndex((task) => task.id === after) + 1 : 0;
    const items = all.slice(start, start + first);
    return { items, total: all.length, hasNextPage: start + first < all.length };
  }

  /** The change as it is now: the payload is serialized at once, so later edits do not show. */
  private publish(kind: TaskChange['kind'], task: TaskRecord): Promise<void> {
    return this.pubsub.taskChanged.publish({ projectId: task.projectId }, { kind, task });
  }
}
