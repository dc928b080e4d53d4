/**
 * User code written against the generated gRPC server of schemas/proto/acme/tasks/v1/tasks.proto:
 * in-memory handlers for every call mode, with a few that fail, stall or echo on purpose, and the
 * auth hooks. Written into the generated folder as `usage.ts`, type-checked with the output, then
 * transpiled and imported.
 *
 * Tokens (`authorization: Bearer <token>`): "editor" may do everything, "reader" only GetTask and
 * ListTasks (PERMISSION_DENIED otherwise); none or another is UNAUTHENTICATED.
 * GetTask ids: "" → INVALID_ARGUMENT, "missing" → NOT_FOUND, "boom" → an Error with a secret (INTERNAL),
 * "slow" → waits for its signal (deadline tests). ListTasks of project "endless" streams until
 * cancelled. Metadata: `x-trace-id` comes back as a response header, `x-served-by` as a trailer.
 */
export const GRPC_USAGE_SOURCE = `import { Code, ConnectError, createGrpcServer, type GrpcServer, type GrpcServerOptions, type GrpcServices } from "./out/server.js";
import { TaskEvent_Kind, TaskStatus } from "./out/acme/tasks/v1/tasks_pb.js";

export interface User {
  id: string;
  role: "editor" | "reader";
}

const TOKENS = new Map<string, User>([
  ["editor", { id: "u1", role: "editor" }],
  ["reader", { id: "u2", role: "reader" }],
]);
const READS = new Set(["GetTask", "ListTasks"]);

/** What the handlers saw: aborted calls, errors logged by the server. */
export const seen = { aborted: [] as string[], logged: [] as unknown[], principals: [] as string[] };

const tasks = new Map<string, { id: string; projectId: string; title: string; status: TaskStatus; estimateMinutes: bigint; labels: string[] }>([
  ["t1", { id: "t1", projectId: "p1", title: "Write docs", status: TaskStatus.TODO, estimateMinutes: 90n, labels: ["docs"] }],
  ["t2", { id: "t2", projectId: "p1", title: "Ship it", status: TaskStatus.DONE, estimateMinutes: 9007199254740993n, labels: [] }],
]);
let nextId = 3;

function untilAborted(signal: AbortSignal, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => { clearTimeout(timer); resolve(); }, { once: true });
  });
}

export const handlers = {
  TaskService: {
    async getTask(request, context) {
      seen.principals.push(context.principal.id);
      if (request.id === "") throw new ConnectError("id is required", Code.InvalidArgument);
      if (request.id === "boom") throw new Error("connection to db://admin:secret@10.0.0.1 refused");
      if (request.id === "slow") {
        await untilAborted(context.signal, 5000);
        if (context.signal.aborted) seen.aborted.push("getTask");
        return { id: "slow" };
      }
      const trace = context.metadata.get("x-trace-id");
      if (trace !== null) context.responseHeaders.set("x-trace-id", trace);
      context.responseTrailers.set("x-served-by", "usage");
      const task = tasks.get(request.id);
      if (!task) throw new ConnectError(\`task \${request.id} not found\`, Code.NotFound);
      return task;
    },
    // Plain values, not promises: a handler may return either.
    createTask(request) {
      if (!request.task || request.task.title === "") throw new ConnectError("task.title is required", Code.InvalidArgument);
      const task = { ...request.task, id: \`t\${nextId++}\` };
      return task;
    },
    async updateTask(request) {
      const task = request.task && tasks.get(request.task.id);
      if (!task) throw new ConnectError("task not found", Code.NotFound);
      return { ...task, title: request.task?.title || task.title };
    },
    deleteTask(request) {
      if (!tasks.has(request.id)) throw new ConnectError("task not found", Code.NotFound);
      return {};
    },
    async *listTasks(request, context) {
      if (request.projectId === "endless") {
        try {
          for (let i = 0; ; i++) {
            yield { id: \`e\${i}\`, projectId: "endless" };
            await untilAborted(context.signal, 20);
            if (context.signal.aborted) return;
          }
        } finally {
          if (context.signal.aborted) seen.aborted.push("listTasks");
        }
      }
      const limit = request.pageSize || 50;
      let sent = 0;
      for (const task of tasks.values()) {
        if (task.projectId !== request.projectId) continue;
        if (request.status !== TaskStatus.UNSPECIFIED && task.status !== request.status) continue;
        if (sent++ >= limit) break;
        yield task;
      }
    },
    listProjectTasks(request) {
      const all = [...tasks.values()].filter((task) => task.projectId === request.projectId);
      const start = Number(request.pageToken || 0);
      const end = start + (request.pageSize || 50);
      return { tasks: all.slice(start, end), nextPageToken: end < all.length ? String(end) : "" };
    },
    async importTasks(requests) {
      const ids: string[] = [];
      for await (const task of requests) {
        if (task.title === "") throw new ConnectError("every task needs a title", Code.InvalidArgument);
        ids.push(\`t\${nextId++}\`);
      }
      return { created: ids.length, ids };
    },
    async *syncTasks(requests) {
      for await (const event of requests) {
        const task = { id: event.task?.id ?? "", title: \`\${event.task?.title ?? ""} (seen)\` };
        yield { kind: event.kind === TaskEvent_Kind.UNSPECIFIED ? TaskEvent_Kind.UPDATED : event.kind, task };
      }
    },
  },
} satisfies GrpcServices<User>;

/** The generated server with these handlers and the auth hooks; \`options\` adds or overrides. */
export function createServer(options: GrpcServerOptions<User> = {}): GrpcServer {
  return createGrpcServer<User>(handlers, {
    authenticate: (metadata) => TOKENS.get(metadata.get("authorization")?.replace(/^Bearer /, "") ?? ""),
    authorize: (user, method) => user.role === "editor" || READS.has(method.name),
    onError: (error) => seen.logged.push(error),
    shutdownGraceMs: 200,
    ...options,
  });
}
`;
