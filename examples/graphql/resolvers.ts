// The resolvers of this GraphQL API: yours to edit. codegen wrote this file once; when a field is
// added to a root type (Query, Mutation, Subscription) it adds a stub for it here, and never
// changes anything else. Serve them with `createGraphQLServer(resolvers, options)` from
// "../../out/graphql/server.js"; resolvers of other types (e.g. `Task: { assignee(task) { ... } }`) are optional.
//
// The example keeps tasks as records (`TaskRecord`, holding `assigneeId` and `projectId`); the
// `mappers` option in codegen.config.yaml makes the generated resolver types use them, so the
// `Task` field resolvers below get a record as their parent and resolve the relations. Records
// carry `__typename`, so `Node` and `SearchResult` need no `__resolveType`.
import { GraphQLError } from 'graphql';
import type { PubSub } from '../../out/graphql/pubsub.js';
import type { ViewerRole } from '../../out/graphql/server.js';
import type { Resolvers } from '../../out/graphql/types.js';
import type { TaskRecord, TaskStore } from './data.js';

/** Who is asking, from their token (see main.ts). */
export interface Viewer {
  id: string;
  role: ViewerRole;
}

/** What every resolver gets as its `context`: built per request by `options.context`. */
export interface Context {
  store: TaskStore;
  /** The generated pub/sub: memory in one process, Redis across instances (see main.ts). */
  pubsub: PubSub;
  viewer: Viewer | null;
}

/** Cursor pages never return more than this, whatever `first` says (the server also rejects > 100). */
const MAX_PAGE = 100;

function notFound(what: string, id: string): GraphQLError {
  return new GraphQLError(`${what} ${id} does not exist`, { extensions: { code: 'NOT_FOUND' } });
}

function connection(
  store: TaskStore,
  projectId: string,
  first: number | null,
  after: string | null | undefined,
  status?: TaskRecord['status'] | null,
) {
  const page = store.page(projectId, Math.min(first ?? 20, MAX_PAGE), after, status);
  return {
    edges: page.items.map((task) => ({ cursor: task.id, node: task })),
    pageInfo: { hasNextPage: page.hasNextPage, endCursor: page.items.at(-1)?.id ?? null },
    totalCount: page.total,
  };
}

export const resolvers = {
  Query: {
    /** The signed-in user, or null when the request carries no token. */
    viewer(_parent, _args, { store, viewer }) {
      return viewer ? (store.users.get(viewer.id) ?? null) : null;
    },
    /** Any object by its global id. */
    node(_parent, { id }, { store }) {
      return store.tasks.get(id) ?? store.projects.get(id) ?? store.users.get(id) ?? null;
    },
    project(_parent, { id }, { store }) {
      return store.projects.get(id) ?? null;
    },
    /** Projects, a page at a time. */
    projects(_parent, { first, after }, { store }) {
      const all = [...store.projects.values()];
      const start = after ? all.findIndex((project) => project.id === after) + 1 : 0;
      return all.slice(start, start + Math.min(first ?? 20, MAX_PAGE));
    },
    task(_parent, { id }, { store }) {
      return store.tasks.get(id) ?? null;
    },
    /** Tasks and projects whose name or title contains `text`. */
    search(_parent, { text, first }, { store }) {
      const needle = text.toLowerCase();
      const tasks = [...store.tasks.values()].filter((task) => task.title.toLowerCase().includes(needle));
      const projects = [...store.projects.values()].filter((project) => project.name.toLowerCase().includes(needle));
      return [...projects, ...tasks].slice(0, Math.min(first ?? 10, MAX_PAGE));
    },
  },
  Mutation: {
    /** Create a task; only members may write. */
    createTask(_parent, { input }, { store }) {
      if (!store.projects.has(input.projectId)) throw notFound('project', input.projectId);
      return store.insert({
        projectId: input.projectId,
        title: input.title,
        status: input.status ?? 'TODO',
        assigneeId: input.assigneeId ?? null,
        internalNotes: null,
      });
    },
    async updateTask(_parent, { id, input }, { store }) {
      return (
        (await store.update(id, {
          ...(input.title != null ? { title: input.title } : {}),
          ...(input.status != null ? { status: input.status } : {}),
          ...(input.assigneeId !== undefined ? { assigneeId: input.assigneeId } : {}),
        })) ?? null
      );
    },
    /** Delete a task; answers whether it existed. */
    deleteTask(_parent, { id }, { store }) {
      return store.delete(id);
    },
  },
  Subscription: {
    /** Every change to the tasks of a project, as it happens. */
    taskChanged: {
      subscribe(_parent, args, { store, pubsub }) {
        // Checked before the stream starts, so a bad id is an error of the subscribe call itself.
        if (!store.projects.has(args.projectId)) throw notFound('project', args.projectId);
        // Resolves once subscribed: every change published after the client's subscribe arrives.
        return pubsub.taskChanged.subscribe(args);
      },
    },
  },
  Project: {
    tasks(project, { first, after, status }, { store }) {
      return connection(store, project.id, first, after, status);
    },
  },
  Task: {
    assignee(task, _args, { store }) {
      return task.assigneeId ? (store.users.get(task.assigneeId) ?? null) : null;
    },
    project(task, _args, { store }) {
      const project = store.projects.get(task.projectId);
      if (!project) throw notFound('project', task.projectId);
      return project;
    },
  },
} satisfies Resolvers<Context>;
