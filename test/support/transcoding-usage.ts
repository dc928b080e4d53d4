/**
 * The source of `usage.ts`, written beside the code generated for Cloud Tasks
 * (googleapis google/cloud/tasks/v2/cloudtasks.proto) in grpc-transcoding.test.ts: an in-memory
 * Cloud Tasks behind the generated server, the generated REST client, and a stock Connect gRPC
 * client. It is type-checked with the generated code (strict), then transpiled and run.
 */
export const CLOUD_TASKS_USAGE = `import { create } from "@bufbuild/protobuf";
import { timestampNow } from "@bufbuild/protobuf/wkt";
import { createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { Code, ConnectError, createGrpcServer, type CloudTasksHandlers } from "./out/server.js";
import { createCloudTasksRestClient, createRestClient, type Fetch } from "./out/client-rest.js";
import { CloudTasks } from "./out/google/cloud/tasks/v2/cloudtasks_pb.js";
import { QueueSchema, Queue_State, type Queue } from "./out/google/cloud/tasks/v2/queue_pb.js";
import { TaskSchema, type Task } from "./out/google/cloud/tasks/v2/task_pb.js";
import { PolicySchema, type Policy } from "./out/google/iam/v1/policy_pb.js";

export interface Principal {
  user: string;
  admin: boolean;
}

/** Cloud Tasks in memory; \`calls\` records "method protocol" per handler run. */
export function memoryCloudTasks(): { handlers: CloudTasksHandlers<Principal>; calls: string[] } {
  const queues = new Map<string, Queue>();
  const tasks = new Map<string, Task>();
  const policies = new Map<string, Policy>();
  const calls: string[] = [];
  let next = 1; // of generated names and etags
  const queueOf = (name: string): Queue => {
    const queue = queues.get(name);
    if (queue === undefined) throw new ConnectError(\`queue \${name} does not exist\`, Code.NotFound);
    return queue;
  };
  const taskOf = (name: string): Task => {
    const task = tasks.get(name);
    if (task === undefined) throw new ConnectError(\`task \${name} does not exist\`, Code.NotFound);
    return task;
  };
  const page = <T>(items: T[], pageSize: number, pageToken: string) => {
    const start = Number(pageToken || "0");
    const end = pageSize > 0 ? start + pageSize : items.length;
    return { items: items.slice(start, end), nextPageToken: end < items.length ? String(end) : "" };
  };
  const handlers: CloudTasksHandlers<Principal> = {
    listQueues(request, context) {
      calls.push(\`listQueues \${context.protocol}\`);
      const all = [...queues.values()].filter((queue) => queue.name.startsWith(\`\${request.parent}/queues/\`) && (request.filter === "" || queue.name.includes(request.filter)));
      const { items, nextPageToken } = page(all, request.pageSize, request.pageToken);
      return { queues: items, nextPageToken };
    },
    getQueue(request, context) {
      calls.push(\`getQueue \${context.protocol}\`);
      return queueOf(request.name);
    },
    createQueue(request, context) {
      calls.push(\`createQueue \${context.protocol} \${context.principal.user}\`);
      const name = request.queue?.name || \`\${request.parent}/queues/auto\${next++}\`;
      if (queues.has(name)) throw new ConnectError(\`queue \${name} exists\`, Code.AlreadyExists);
      const queue = request.queue ?? create(QueueSchema);
      queue.name = name;
      queue.state = Queue_State.RUNNING;
      queues.set(name, queue);
      return queue;
    },
    updateQueue(request, context) {
      calls.push(\`updateQueue \${context.protocol} \${request.updateMask?.paths.join(",") ?? ""}\`);
      const queue = queueOf(request.queue?.name ?? "");
      for (const path of request.updateMask?.paths ?? []) {
        if (path === "rate_limits" && request.queue?.rateLimits) queue.rateLimits = request.queue.rateLimits;
        if (path === "retry_config" && request.queue?.retryConfig) queue.retryConfig = request.queue.retryConfig;
      }
      return queue;
    },
    deleteQueue(request, context) {
      calls.push(\`deleteQueue \${context.protocol}\`);
      queueOf(request.name);
      queues.delete(request.name);
      return {};
    },
    purgeQueue(request, context) {
      calls.push(\`purgeQueue \${context.protocol}\`);
      const queue = queueOf(request.name);
      for (const name of tasks.keys()) if (name.startsWith(\`\${request.name}/tasks/\`)) tasks.delete(name);
      queue.purgeTime = timestampNow();
      return queue;
    },
    pauseQueue(request, context) {
      calls.push(\`pauseQueue \${context.protocol}\`);
      const queue = queueOf(request.name);
      queue.state = Queue_State.PAUSED;
      return queue;
    },
    resumeQueue(request, context) {
      calls.push(\`resumeQueue \${context.protocol}\`);
      const queue = queueOf(request.name);
      queue.state = Queue_State.RUNNING;
      return queue;
    },
    getIamPolicy(request, context) {
      calls.push(\`getIamPolicy \${context.protocol}\`);
      queueOf(request.resource);
      return policies.get(request.resource) ?? create(PolicySchema, { version: 1 });
    },
    setIamPolicy(request, context) {
      calls.push(\`setIamPolicy \${context.protocol}\`);
      queueOf(request.resource);
      const policy = request.policy ?? create(PolicySchema);
      policy.etag = new TextEncoder().encode(\`v\${next++}\`);
      policies.set(request.resource, policy);
      return policy;
    },
    testIamPermissions(request, context) {
      calls.push(\`testIamPermissions \${context.protocol}\`);
      return { permissions: request.permissions.filter((permission) => permission.startsWith("cloudtasks.")) };
    },
    listTasks(request, context) {
      calls.push(\`listTasks \${context.protocol} \${request.responseView}\`);
      queueOf(request.parent);
      const all = [...tasks.values()].filter((task) => task.name.startsWith(\`\${request.parent}/tasks/\`));
      const { items, nextPageToken } = page(all, request.pageSize, request.pageToken);
      return { tasks: items, nextPageToken };
    },
    getTask(request, context) {
      calls.push(\`getTask \${context.protocol}\`);
      return taskOf(request.name);
    },
    createTask(request, context) {
      calls.push(\`createTask \${context.protocol} \${request.responseView}\`);
      queueOf(request.parent);
      const name = request.task?.name || \`\${request.parent}/tasks/t\${next++}\`;
      const task = request.task ?? create(TaskSchema);
      task.name = name;
      task.createTime = timestampNow();
      task.view = request.responseView;
      tasks.set(name, task);
      return task;
    },
    deleteTask(request, context) {
      calls.push(\`deleteTask \${context.protocol}\`);
      taskOf(request.name);
      tasks.delete(request.name);
      return {};
    },
    runTask(request, context) {
      calls.push(\`runTask \${context.protocol}\`);
      const task = taskOf(request.name);
      task.dispatchCount += 1;
      return task;
    },
  };
  return { handlers, calls };
}

/** The generated server on 127.0.0.1, port 0: bearer tokens; only "admin" may delete, purge or set policies. */
export async function start(options: { readMaxBytes?: number } = {}): Promise<{ port: number; calls: string[]; close(): Promise<void> }> {
  const { handlers, calls } = memoryCloudTasks();
  const server = createGrpcServer<Principal>({ CloudTasks: handlers }, {
    ...options,
    authenticate: (metadata) => {
      const token = /^Bearer (\\w+)$/.exec(metadata.get("authorization") ?? "")?.[1];
      return token === undefined ? undefined : { user: token, admin: token === "admin" };
    },
    authorize: (principal, method) => principal.admin || !/^(Delete|Purge|SetIamPolicy)/.test(method.name),
    shutdownGraceMs: 100,
  });
  const port = await server.listen(0, "127.0.0.1");
  return { port, calls, close: () => server.close() };
}

/** The generated REST client of Cloud Tasks. */
export function restClient(port: number, token: string | undefined, fetch?: Fetch) {
  return createCloudTasksRestClient({ baseUrl: \`http://127.0.0.1:\${port}\`, ...(token !== undefined ? { token } : {}), ...(fetch ? { fetch } : {}) });
}

/** Every service's REST client at once, as an app makes them. */
export function restClients(port: number, token: string) {
  return createRestClient({ baseUrl: \`http://127.0.0.1:\${port}\`, token, timeout: 5000 });
}

/** Connect's own gRPC client (HTTP/2) of Cloud Tasks, from the generated descriptor. */
export function grpcClient(port: number, token: string) {
  const transport = createGrpcTransport({
    baseUrl: \`http://127.0.0.1:\${port}\`,
    interceptors: [(next) => (request) => {
      request.header.set("authorization", \`Bearer \${token}\`);
      return next(request);
    }],
  });
  return createClient(CloudTasks, transport);
}
`;

/**
 * The source of `usage.ts` beside the code generated for the example (schemas/proto's tasks.proto):
 * in-memory TaskService handlers (unary and server streaming) behind the generated server, and the
 * generated REST client.
 */
export const TASKS_USAGE = `import { create } from "@bufbuild/protobuf";
import { timestampNow } from "@bufbuild/protobuf/wkt";
import { createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { Code, ConnectError, createGrpcServer, type TaskServiceHandlers } from "./out/server.js";
import { createTaskServiceRestClient, type Fetch } from "./out/client-rest.js";
import { TaskSchema, TaskService, TaskStatus, type Task } from "./out/acme/tasks/v1/tasks_pb.js";

/** TaskService in memory; \`calls\` records "method protocol" per handler run. */
export function memoryTasks(): { handlers: TaskServiceHandlers; calls: string[] } {
  const tasks = new Map<string, Task>();
  const calls: string[] = [];
  let next = 1;
  const taskOf = (id: string): Task => {
    const task = tasks.get(id);
    if (task === undefined) throw new ConnectError(\`task \${id} does not exist\`, Code.NotFound);
    return task;
  };
  const handlers: TaskServiceHandlers = {
    async getTask(request, context) {
      calls.push(\`getTask \${context.protocol} \${context.timeoutMs() === undefined ? "no deadline" : "deadline"}\`);
      // "slow" answers only once the call is over (its deadline passed, or the client left).
      if (request.id === "slow") {
        await new Promise((resolve) => context.signal.addEventListener("abort", resolve, { once: true }));
        return create(TaskSchema, { id: "slow" });
      }
      context.responseHeaders.set("x-served-by", "memory");
      return taskOf(request.id);
    },
    createTask(request, context) {
      calls.push(\`createTask \${context.protocol}\`);
      const task = request.task ?? create(TaskSchema);
      if (task.title === "") throw new ConnectError("a task needs a title", Code.InvalidArgument);
      task.id = \`t\${next++}\`;
      task.createTime = timestampNow();
      if (task.status === TaskStatus.UNSPECIFIED) task.status = TaskStatus.TODO;
      tasks.set(task.id, task);
      return task;
    },
    updateTask(request, context) {
      const paths = request.updateMask?.paths ?? [];
      calls.push(\`updateTask \${context.protocol} \${paths.join(",")}\`);
      const task = taskOf(request.task?.id ?? "");
      if (paths.includes("title")) task.title = request.task?.title ?? "";
      if (paths.includes("status")) task.status = request.task?.status ?? TaskStatus.UNSPECIFIED;
      return task;
    },
    deleteTask(request, context) {
      calls.push(\`deleteTask \${context.protocol}\`);
      taskOf(request.id);
      tasks.delete(request.id);
      return {};
    },
    async *listTasks(request, context) {
      calls.push(\`listTasks \${context.protocol} \${request.status}\`);
      if (request.projectId === "missing") throw new ConnectError("no project missing", Code.NotFound);
      let sent = 0;
      for (const task of tasks.values()) {
        if (task.projectId !== request.projectId || (request.status !== TaskStatus.UNSPECIFIED && task.status !== request.status)) continue;
        if (request.pageSize > 0 && sent === request.pageSize) return;
        yield task;
        sent++;
        if (request.projectId === "flaky") throw new ConnectError("the store went away", Code.Unavailable);
      }
    },
    async listProjectTasks() {
      throw new ConnectError("not here", Code.Unimplemented);
    },
    async importTasks() {
      throw new ConnectError("not here", Code.Unimplemented);
    },
    async *syncTasks() {
      throw new ConnectError("not here", Code.Unimplemented);
    },
  };
  return { handlers, calls };
}

/** The generated server on 127.0.0.1, port 0, without auth; browsers from https://app.example may call it. */
export async function start(): Promise<{ port: number; calls: string[]; close(): Promise<void> }> {
  const { handlers, calls } = memoryTasks();
  const server = createGrpcServer({ TaskService: handlers }, { shutdownGraceMs: 100, cors: { origins: ["https://app.example"] } });
  const port = await server.listen(0, "127.0.0.1");
  return { port, calls, close: () => server.close() };
}

export function restClient(port: number, fetch?: Fetch) {
  return createTaskServiceRestClient({ baseUrl: \`http://127.0.0.1:\${port}\`, ...(fetch ? { fetch } : {}) });
}

export function grpcClient(port: number) {
  return createClient(TaskService, createGrpcTransport({ baseUrl: \`http://127.0.0.1:\${port}\` }));
}
`;

/** `echo.proto` of grpc-transcoding.test: a request of every kind a URL can carry, answered as it came. */
export const ECHO_PROTO = `syntax = "proto3";
package echo.v1;

import "google/api/annotations.proto";
import "google/protobuf/timestamp.proto";
import "google/protobuf/wrappers.proto";

enum Colour {
  COLOUR_UNSPECIFIED = 0;
  COLOUR_RED = 1;
}
message Inner {
  int64 limit = 1;
  bool strict = 2;
}
message Filter {
  string owner = 1;
  repeated string tags = 2;
  Inner inner = 3;
}
message EchoRequest {
  string name = 1;
  Filter filter = 2;
  repeated int32 ids = 3;
  repeated Colour colours = 4;
  google.protobuf.Timestamp since = 5;
  google.protobuf.Int32Value limit = 6;
  google.protobuf.BoolValue flag = 7;
  bytes blob = 8;
  double ratio = 9;
  optional string note = 10;
  map<string, string> labels = 11;
  map<string, bool> switches = 12;
}

service Echo {
  rpc Echo(EchoRequest) returns (EchoRequest) {
    option (google.api.http) = { get: "/v1/echo/{name=rooms/*}" };
  }
  rpc Raw(EchoRequest) returns (EchoRequest) {
    option (google.api.http) = { post: "/v1/raw/{name=**}:echo" body: "filter" response_body: "filter" };
  }
}
`;

export const ECHO_USAGE = `import { createGrpcServer } from "./out/server.js";
import { createEchoRestClient, type Fetch } from "./out/client-rest.js";

export async function start(): Promise<{ port: number; calls: string[]; close(): Promise<void> }> {
  const calls: string[] = [];
  const server = createGrpcServer({ Echo: { echo: (request) => request, raw: (request) => request } }, { shutdownGraceMs: 100 });
  const port = await server.listen(0, "127.0.0.1");
  return { port, calls, close: () => server.close() };
}

export function restClient(port: number, fetch?: Fetch) {
  return createEchoRestClient({ baseUrl: \`http://127.0.0.1:\${port}\`, ...(fetch ? { fetch } : {}) });
}
`;
