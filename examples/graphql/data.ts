/**
 * The example's data: users, projects and tasks in memory, and a small publish/subscribe hub for
 * the `taskChanged` subscription. A real service keeps these in a database and a message broker;
 * the resolvers would not change shape.
 */
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
  private readonly listeners = new Set<(change: { kind: TaskChange['kind']; task: TaskRecord }) => void>();
  private sequence = 0;

  constructor() {
    this.users.set('u1', { __typename: 'User', id: 'u1', name: 'Ada', email: 'ada@example.com' });
    this.users.set('u2', { __typename: 'User', id: 'u2', name: 'Grace', email: 'grace@example.com' });
    this.projects.set('p1', { __typename: 'Project', id: 'p1', name: 'Launch', createdAt: '2026-11-01T09:00:00Z' });
    this.projects.set('p2', { __typename: 'Project', id: 'p2', name: 'Docs', createdAt: '2026-11-02T09:00:00Z' });
    for (let i = 1; i <= 30; i++) {
      this.insert({
        projectId: i <= 25 ? 'p1' : 'p2',
        title: `Task ${i}`,
        status: i % 3 === 0 ? 'DONE' : i % 3 === 1 ? 'TODO' : 'IN_PROGRESS',
        assigneeId: i % 2 === 0 ? 'u1' : i % 5 === 0 ? null : 'u2',
        internalNotes: i === 1 ? 'Blocked on legal review' : null,
      });
    }
  }

  insert(fields: Omit<TaskRecord, '__typename' | 'id' | 'createdAt'>): TaskRecord {
    this.sequence += 1;
    const task: TaskRecord = {
      __typename: 'Task',
      id: `t${this.sequence}`,
      createdAt: new Date(Date.UTC(2026, 10, 1, 10, this.sequence)).toISOString(),
      ...fields,
    };
    this.tasks.set(task.id, task);
    this.publish('CREATED', task);
    return task;
  }

  update(id: string, fields: Partial<Pick<TaskRecord, 'title' | 'status' | 'assigneeId'>>): TaskRecord | undefined {
    const task = this.tasks.get(id);
    if (!task) return undefined;
    Object.assign(task, fields);
    this.publish('UPDATED', task);
    return task;
  }

  delete(id: string): boolean {
    const task = this.tasks.get(id);
    if (!task) return false;
    this.tasks.delete(id);
    this.publish('DELETED', task);
    return true;
  }

  /** One project's tasks after `after` (a task id used as the cursor), oldest first. */
  page(projectId: string, first: number, after: string | null | undefined, status: TaskStatus | null | undefined) {
    const all = [...this.tasks.values()].filter((task) => task.projectId === projectId && (!status || task.status === status));
    const start = after ? all.findIndex((task) => task.id === after) + 1 : 0;
    const items = all.slice(start, start + first);
    return { items, total: all.length, hasNextPage: start + first < all.length };
  }

  /** Every change to the tasks of `projectId`, until the consumer stops iterating. */
  async *changes(projectId: string): AsyncGenerator<{ kind: TaskChange['kind']; task: TaskRecord }> {
    const queue: { kind: TaskChange['kind']; task: TaskRecord }[] = [];
    let wake: (() => void) | undefined;
    const listener = (change: { kind: TaskChange['kind']; task: TaskRecord }) => {
      if (change.task.projectId !== projectId) return;
      queue.push({ kind: change.kind, task: { ...change.task } });
      wake?.();
    };
    this.listeners.add(listener);
    try {
      for (;;) {
        while (queue.length > 0) yield queue.shift()!;
        await new Promise<void>((resolve) => (wake = resolve));
        wake = undefined;
      }
    } finally {
      this.listeners.delete(listener);
    }
  }

  private publish(kind: TaskChange['kind'], task: TaskRecord): void {
    for (const listener of this.listeners) listener({ kind, task });
  }
}
