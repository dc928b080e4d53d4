// Information row of the `grpc-server` benchmark: the same handler on Connect's node adapter alone
// (`connectNodeAdapter` on a plain `http2.createServer`, gRPC only), with the generated messages
// and service descriptor but without the generated server's runtime (one-port HTTP/1.1 + HTTP/2
// dispatch, auth and error wrapping, health). It shows how much of the generated server's cost is
// Connect's. Prints `listening on http://127.0.0.1:<port>` first and stops on SIGTERM/SIGINT.
//
//   BENCH_GRPC_OUT=bench/.work/grpc-server/ours-js PORT=0 node bench/lib/grpc-connect.js
import { createServer } from 'node:http2';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { create } from '@bufbuild/protobuf';
import { Code, ConnectError } from '@connectrpc/connect';
import { connectNodeAdapter } from '@connectrpc/connect-node';
import { LIST_LENGTH, listedIndexes, taskRecord } from './grpc-data.js';

const out = resolve(process.env.BENCH_GRPC_OUT ?? 'bench/.work/grpc-server/ours-js');
const { TaskSchema, TaskService } = await import(pathToFileURL(`${out}/acme/tasks/v1/tasks_pb.js`).href);

const tasks = new Map();
for (let index = 0; index < LIST_LENGTH; index++) {
  const { dueWithin, ...rest } = taskRecord(index);
  tasks.set(rest.id, create(TaskSchema, { ...rest, due: { case: 'dueWithin', value: dueWithin } }));
}

const adapter = connectNodeAdapter({
  grpc: true,
  grpcWeb: false,
  connect: false,
  routes(router) {
    router.service(TaskService, {
      getTask(request) {
        const task = tasks.get(request.id);
        if (!task) throw new ConnectError(`task ${request.id} not found`, Code.NotFound);
        return task;
      },
      async *listTasks(request) {
        for (const index of listedIndexes(request)) yield tasks.get(`t${index + 1}`);
      },
    });
  },
});

const server = createServer(adapter);
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  process.stdout.write(`listening on http://127.0.0.1:${server.address().port}\n`);
});
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    server.close(() => process.exit(0));
    setTimeout(() => process.exit(0), 1000).unref();
  });
}
