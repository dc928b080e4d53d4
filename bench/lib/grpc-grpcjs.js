// The plain @grpc/grpc-js peer of the `grpc-server` benchmark: TaskService from
// schemas/proto/acme/tasks/v1/tasks.proto loaded at run time with @grpc/proto-loader (no generated
// code), with the benchmark's one handler, GetTask on an in-memory map of 100 full tasks
// (bench/lib/grpc-data.js), NOT_FOUND for an unknown id; ListTasks streams a project's first tasks. Like the example servers it prints
// `listening on http://127.0.0.1:<port>` as its first line and stops on SIGTERM/SIGINT.
//
//   PORT=0 node bench/lib/grpc-grpcjs.js
import { join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { LIST_LENGTH, listedIndexes, taskRecord, taskRecordLoose } from './grpc-data.js';

const ROOT = join(import.meta.dirname, '..', '..');

/** How proto-loader maps messages to objects; the client in bench/lib/grpc-server.js uses the same. */
export const LOADER_OPTIONS = { longs: String, enums: String, defaults: false, oneofs: true, includeDirs: [join(ROOT, 'schemas/proto')] };

export function loadTaskService() {
  const definition = protoLoader.loadSync('acme/tasks/v1/tasks.proto', LOADER_OPTIONS);
  return grpc.loadPackageDefinition(definition).acme.tasks.v1.TaskService;
}

/** The stored tasks as proto-loader objects (int64 as decimal strings, bytes as Buffers). */
const tasks = new Map();
for (let index = 0; index < LIST_LENGTH; index++) {
  const record = taskRecordLoose(taskRecord(index));
  tasks.set(record.id, { ...record, attachment: Buffer.from(record.attachment) });
}

const handlers = {
  getTask(call, callback) {
    const task = tasks.get(call.request.id);
    if (task) callback(null, task);
    else callback({ code: grpc.status.NOT_FOUND, details: `task ${call.request.id} not found` });
  },
  listTasks(call) {
    for (const index of listedIndexes(call.request)) call.write(tasks.get(`t${index + 1}`));
    call.end();
  },
};

if (import.meta.url === `file://${process.argv[1]}`) {
  const server = new grpc.Server();
  server.addService(loadTaskService().service, handlers);
  server.bindAsync(`127.0.0.1:${Number(process.env.PORT ?? 0)}`, grpc.ServerCredentials.createInsecure(), (error, port) => {
    if (error) throw error;
    process.stdout.write(`listening on http://127.0.0.1:${port}\n`);
  });
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, () => server.tryShutdown(() => process.exit(0)));
  }
}
