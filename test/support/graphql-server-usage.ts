/**
 * User code written against the generated GraphQL server of schemas/graphql/tasks.graphql: in-memory
 * resolvers for the whole schema, a spy that records every resolver call (the limit tests prove
 * nothing ran), a few resolvers that fail, stall, hang until aborted or leak on purpose, and a feed
 * of task changes for subscriptions. Written into the generated folder as `usage.ts`, then transpiled and imported.
 *
 * Bearer tokens (HTTP `Authorization`, or `token` in `connection_init`): "member", "admin";
 * "bad" is refused (authenticate throws); none is anonymous.
 */
export const GRAPHQL_USAGE_SOURCE = `import { GraphQLError, GraphQLScalarType, Kind } from "graphql";
import { createGraphQLServer, type GraphQLRequest, type GraphQLServer, type GraphQLServerOptions, type Viewer, type ViewerRole } from "./server.js";
import type { Project, Resolvers, SearchResult, Task, TaskChange } from "./types.js";

export interface AppContext {
  viewer: Viewer<ViewerRole> | null;
  signal: AbortSignal;
}

/** Every resolver call, as "Type.field". */
export const calls: string[] = [];

interface TaskRow { id: string; title: string; status: string; assigneeId: string | null; projectId: string; createdAt: string; internalNotes: string }
interface ProjectRow { id: string; name: string; createdAt: string }
interface UserRow { id: string; name: string; email: string }

const users: UserRow[] = [{ id: "u1", name: "Ada", email: "ada@example.com" }];
const projects: ProjectRow[] = [{ id: "p1", name: "Launch", createdAt: "2026-01-01T00:00:00Z" }];
const tasks: TaskRow[] = [
  { id: "t1", title: "Write docs", status: "TODO", assigneeId: "u1", projectId: "p1", createdAt: "2026-01-02T00:00:00Z", internalNotes: "needs legal review" },
  { id: "t2", title: "Ship it", status: "DONE", assigneeId: null, projectId: "p1", createdAt: "2026-01-03T00:00:00Z", internalNotes: "late" },
];

type Change = { kind: "CREATED" | "UPDATED" | "DELETED"; task: TaskRow };
const listeners = new Set<(change: Change) => void>();

/** Sends a change to every subscriber. */
export function publish(change: Change): void {
  for (const listener of listeners) listener(change);
}

export function subscriberCount(): number {
  return listeners.size;
}

/**
 * The changes of one project. An iterator object rather than an async generator: a generator
 * waiting for the next event could not run its cleanup until that event came.
 */
function changes(projectId: string): AsyncIterableIterator<{ taskChanged: TaskChange }> {
  const queue: Change[] = [];
  let wake: (() => void) | undefined;
  const listener = (change: Change) => {
    if (change.task.projectId !== projectId) return;
    queue.push(change);
    wake?.();
  };
  listeners.add(listener);
  const iterator: AsyncIterableIterator<{ taskChanged: TaskChange }> = {
    async next() {
      while (queue.length === 0) {
        if (!listeners.has(listener)) return { done: true, value: undefined };
        await new Promise<void>((resolve) => (wake = resolve));
      }
      return { done: false, value: { taskChanged: queue.shift()! as unknown as TaskChange } };
    },
    async return() {
      listeners.delete(listener);
      wake?.();
      return { done: true, value: undefined };
    },
    [Symbol.asyncIterator]: () => iterator,
  };
  return iterator;
}

// Rows stand for GraphQL objects: the field resolvers below complete them (graphql-codegen's "mappers" would type this).
const asTask = (row: TaskRow | undefined): Task | null => (row ?? null) as unknown as Task | null;
const asProject = (row: ProjectRow | undefined): Project | null => (row ?? null) as unknown as Project | null;
const rowOf = (task: Task): TaskRow => task as unknown as TaskRow;

const spy = <T>(name: string, value: T): T => {
  calls.push(name);
  return value;
};

const DateTime = new GraphQLScalarType<string, string>({
  name: "DateTime",
  serialize: (value) => String(value),
  parseValue: (value) => {
    if (typeof value !== "string" || Number.isNaN(Date.parse(value))) throw new TypeError("not a date-time");
    return value;
  },
  parseLiteral: (node) => {
    if (node.kind !== Kind.STRING) throw new TypeError("not a date-time");
    return node.value;
  },
});

export const resolvers: Resolvers<AppContext> = {
  DateTime,
  Query: {
    viewer: (_parent, _args, context) => spy("Query.viewer", context.viewer ? (users[0] ?? null) : null),
    node: (_parent, { id }) => spy("Query.node", asTask(tasks.find((task) => task.id === id)) ?? asProject(projects.find((project) => project.id === id)) ?? users.find((user) => user.id === id) ?? null),
    project: (_parent, { id }) => spy("Query.project", asProject(projects.find((project) => project.id === id))),
    projects: (_parent, { first }) => spy("Query.projects", projects.slice(0, first ?? 20).map((row) => asProject(row)!)),
    async task(_parent, { id }, context) {
      calls.push("Query.task");
      if (id === "boom") throw new Error("connection to db://admin:hunter2@10.0.0.5 refused");
      if (id === "gone") throw new GraphQLError("Task gone was archived.", { extensions: { code: "ARCHIVED" } });
      if (id === "slow") {
        await new Promise((resolve) => setTimeout(resolve, 400));
        return spy("Query.task(slow) finished aborted=" + context.signal.aborted, asTask(tasks[0]));
      }
      if (id === "hang") {
        // Until the signal aborts (or 5 s, far beyond what the test waits).
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, 5000);
          context.signal.addEventListener("abort", () => {
            clearTimeout(timer);
            resolve();
          });
        });
        const reason: unknown = context.signal.reason;
        return spy("Query.task(hang) ended: " + (reason instanceof GraphQLError ? String(reason.extensions["code"]) : "not aborted"), asTask(tasks[0]));
      }
      return asTask(tasks.find((task) => task.id === id));
    },
    search: (_parent, { text }) => spy("Query.search", [...tasks.filter((task) => task.title.includes(text)), ...projects.filter((project) => project.name.includes(text))] as unknown as SearchResult[]),
  },
  Mutation: {
    createTask(_parent, { input }) {
      calls.push("Mutation.createTask");
      const task: TaskRow = { id: "t" + (tasks.length + 1), title: input.title, status: input.status ?? "TODO", assigneeId: input.assigneeId ?? null, projectId: input.projectId, createdAt: "2026-02-01T00:00:00Z", internalNotes: "" };
      tasks.push(task);
      publish({ kind: "CREATED", task });
      return asTask(task)!;
    },
    updateTask: (_parent, { id }) => spy("Mutation.updateTask", asTask(tasks.find((task) => task.id === id))),
    deleteTask: (_parent, { id }) => spy("Mutation.deleteTask", tasks.some((task) => task.id === id)),
  },
  Subscription: {
    taskChanged: {
      subscribe: (_parent, { projectId }) => {
        calls.push("Subscription.taskChanged");
        // "stall": the stream comes only after 1 s (for the time limit of subscribe).
        if (projectId === "stall") return new Promise<AsyncIterableIterator<{ taskChanged: TaskChange }>>((resolve) => setTimeout(() => resolve(changes(projectId)), 1000));
        return changes(projectId);
      },
    },
  },
  Task: {
    assignee: (task) => spy("Task.assignee", users.find((user) => user.id === rowOf(task).assigneeId) ?? null),
    project: (task) => spy("Task.project", asProject(projects.find((project) => project.id === rowOf(task).projectId))!),
    internalNotes: (task) => spy("Task.internalNotes", rowOf(task).internalNotes),
  },
  Project: {
    tasks: (project, { first }) => {
      calls.push("Project.tasks");
      const rows = tasks.filter((task) => task.projectId === project.id).slice(0, first ?? 20);
      return { edges: rows.map((row) => ({ cursor: row.id, node: asTask(row)! })), pageInfo: { hasNextPage: false, endCursor: rows.at(-1)?.id ?? null }, totalCount: rows.length };
    },
  },
  Node: {
    __resolveType: (value) => ("title" in (value as object) ? "Task" : "email" in (value as object) ? "User" : "Project"),
  },
  SearchResult: {
    __resolveType: (value) => ("title" in (value as object) ? "Task" : "email" in (value as object) ? "User" : "Project"),
  },
};

function viewerFrom(token: unknown): Viewer<ViewerRole> | null {
  if (token === undefined || token === null || token === "") return null;
  if (token === "admin" || token === "Bearer admin") return { role: "ADMIN" };
  if (token === "member" || token === "Bearer member") return { role: "MEMBER" };
  throw new GraphQLError("The token is not valid.", { extensions: { code: "UNAUTHENTICATED" } });
}

export const errors: unknown[] = [];

export function server(options: Partial<GraphQLServerOptions<AppContext, Viewer<ViewerRole>>> = {}): GraphQLServer {
  return createGraphQLServer<AppContext>(resolvers, {
    authenticate: (request: GraphQLRequest) => viewerFrom(request.transport === "http" ? request.headers.authorization : request.connectionParams?.["token"]),
    context: ({ viewer, signal }) => ({ viewer, signal }),
    onError: (error) => errors.push(error),
    ...options,
  });
}
`;
