// The in-memory Tasks data and the resolvers of schemas/graphql/tasks.graphql, shared by every
// server of the `graphql-server` benchmark (bench/lib/graphql-ours.js, graphql-mercurius.js and
// graphql-yoga.js), so the only difference between them is the server around the resolvers. graphql-js shaped: a map of
// type name → field resolvers, `__resolveType` for the abstract types, `subscribe` for the
// subscription. Records keep ids of what they point to (`assigneeId`, `projectId`) and the
// `Task.assignee` / `Task.project` resolvers look them up, as a resolver over a store would.
//
// The data is deterministic: 10 users; 3 projects of 100 tasks each; every fifth task unassigned.
import { EventEmitter, on } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The SDL both servers serve. */
export const typeDefs = readFileSync(join(import.meta.dirname, '..', '..', 'schemas', 'graphql', 'tasks.graphql'), 'utf8');

/**
 * What resolvers read of the request: who is calling (null: nobody signed in).
 * @typedef {{ viewerId: string | null }} Context
 */

/** @typedef {{ id: string, name: string, email: string }} UserRecord */
/** @typedef {{ id: string, name: string, createdAt: string }} ProjectRecord */
/** @typedef {{ id: string, title: string, status: 'TODO' | 'IN_PROGRESS' | 'DONE', assigneeId: string | null, projectId: string, createdAt: string, internalNotes: string | null }} TaskRecord */

const STATUSES = /** @type {const} */ (['TODO', 'IN_PROGRESS', 'DONE']);
const EPOCH = Date.UTC(2026, 0, 1);
const at = (minutes) => new Date(EPOCH + minutes * 60_000).toISOString();

/** @type {Map<string, UserRecord>} */
const users = new Map();
/** @type {Map<string, ProjectRecord>} */
const projects = new Map();
/** @type {Map<string, TaskRecord>} */
const tasks = new Map();
/** Each project's task ids, oldest first (the order `Project.tasks` pages through). */
/** @type {Map<string, string[]>} */
const tasksOfProject = new Map();

for (let u = 1; u <= 10; u++) users.set(`user-${u}`, { id: `user-${u}`, name: `User ${u}`, email: `user${u}@example.com` });
let taskCount = 0;
for (let p = 1; p <= 3; p++) {
  const project = { id: `project-${p}`, name: `Project ${p}`, createdAt: at(p) };
  projects.set(project.id, project);
  tasksOfProject.set(project.id, []);
  for (let t = 0; t < 100; t++)
    addTask({
      projectId: project.id,
      title: `Task ${t + 1} of ${project.name}`,
      status: STATUSES[t % 3],
      assigneeId: t % 5 === 4 ? null : `user-${(t % 10) + 1}`,
    });
}

/** @param {{ projectId: string, title: string, status: TaskRecord['status'], assigneeId: string | null }} input */
function addTask(input) {
  taskCount++;
  const task = { id: `task-${taskCount}`, ...input, createdAt: at(1000 + taskCount), internalNotes: null };
  tasks.set(task.id, task);
  tasksOfProject.get(input.projectId)?.push(task.id);
  return task;
}

/** The GraphQL type of a record, from its id's prefix (ids are `user-…`, `project-…`, `task-…`). */
function typeOf(record) {
  if (record.id.startsWith('task-')) return 'Task';
  if (record.id.startsWith('project-')) return 'Project';
  return 'User';
}

/** A page of items after the one whose id is `after` (exclusive); ids double as cursors. */
function page(items, first, after) {
  const start = after == null ? 0 : items.findIndex((item) => item.id === after) + 1;
  const size = Math.max(0, Math.min(first ?? 20, 100));
  return { items: items.slice(start, start + size), hasNextPage: start + size < items.length };
}

const changes = new EventEmitter();
changes.setMaxListeners(0);

function publish(kind, task) {
  changes.emit('change', { kind, task });
}

/** Every change to a project's tasks, as `{ taskChanged }` payloads (the benchmark subscribes to none). */
async function* changesOf(projectId) {
  for await (const [change] of on(changes, 'change')) {
    if (change.task.projectId === projectId) yield { taskChanged: change };
  }
}

/** @param {string} id */
function anyRecord(id) {
  return tasks.get(id) ?? projects.get(id) ?? users.get(id) ?? null;
}

/**
 * The resolvers of schemas/graphql/tasks.graphql, in the shape of the generated
 * `Resolvers<Context>` (out/graphql/types.ts). Root fields take `(parent, args, context)`; object
 * fields resolve from their parent record. Not annotated with that type: its parents and results
 * are the GraphQL types (a `Task` with `assignee` and `project` objects, a `Project` with `tasks`),
 * which records holding ids do not satisfy until the types plugin lets resolvers name their own
 * record types (graphql-codegen's `mappers`).
 */
export const resolvers = {
  Query: {
    viewer: (_parent, _args, context) => (context.viewerId ? (users.get(context.viewerId) ?? null) : null),
    node: (_parent, { id }) => anyRecord(id),
    project: (_parent, { id }) => projects.get(id) ?? null,
    projects: (_parent, { first, after }) => page([...projects.values()], first, after).items,
    task: (_parent, { id }) => tasks.get(id) ?? null,
    search: (_parent, { text, first }) => {
      const needle = text.toLowerCase();
      const found = [];
      for (const project of projects.values()) if (project.name.toLowerCase().includes(needle)) found.push(project);
      for (const task of tasks.values()) if (task.title.toLowerCase().includes(needle)) found.push(task);
      return found.slice(0, Math.max(0, first ?? 10));
    },
  },
  Mutation: {
    createTask: (_parent, { input }) => {
      if (!projects.has(input.projectId)) throw new Error(`no project ${input.projectId}`);
      const task = addTask({
        projectId: input.projectId,
        title: input.title,
        status: input.status ?? 'TODO',
        assigneeId: input.assigneeId ?? null,
      });
      publish('CREATED', task);
      return task;
    },
    updateTask: (_parent, { id, input }) => {
      const task = tasks.get(id);
      if (!task) return null;
      if (input.title != null) task.title = input.title;
      if (input.status != null) task.status = input.status;
      if (input.assigneeId !== undefined) task.assigneeId = input.assigneeId;
      publish('UPDATED', task);
      return task;
    },
    deleteTask: (_parent, { id }) => {
      const task = tasks.get(id);
      if (!task) return false;
      tasks.delete(id);
      const list = tasksOfProject.get(task.projectId) ?? [];
      list.splice(list.indexOf(id), 1);
      publish('DELETED', task);
      return true;
    },
  },
  Subscription: {
    taskChanged: { subscribe: (_parent, { projectId }) => changesOf(projectId) },
  },
  Node: { __resolveType: typeOf },
  SearchResult: { __resolveType: typeOf },
  Project: {
    tasks: (parent, { first, after, status }) => {
      let list = (tasksOfProject.get(parent.id) ?? []).map((id) => tasks.get(id));
      if (status != null) list = list.filter((task) => task.status === status);
      const { items, hasNextPage } = page(list, first, after);
      return {
        edges: items.map((task) => ({ cursor: task.id, node: task })),
        pageInfo: { hasNextPage, endCursor: items.length ? items[items.length - 1].id : null },
        totalCount: list.length,
      };
    },
  },
  Task: {
    assignee: (parent) => (parent.assigneeId === null ? null : (users.get(parent.assigneeId) ?? null)),
    project: (parent) => projects.get(parent.projectId),
  },
};
