// The server side of bench/lib/grpc-worst-case.js: the generated `createGrpcServer` (transpiled to
// bench/.work/grpc-server/ours-js by the grpc-server section), default limits, `authenticate`
// accepting `Bearer bench`, GetTask and UpdateTask answering NOT_FOUND. Answers `usage` over IPC
// with its CPU time, RSS and the longest event-loop block since the last `usage`.
import { resolve } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';

const out = resolve(process.env.BENCH_GRPC_OUT ?? 'bench/.work/grpc-server/ours-js');
const { Code, ConnectError, createGrpcServer } = await import(pathToFileURL(`${out}/server.js`).href);

const notFound = () => {
  throw new ConnectError('not found', Code.NotFound);
};
const server = createGrpcServer(
  { TaskService: { getTask: notFound, updateTask: notFound } },
  { authenticate: (metadata) => (metadata.get('authorization') === 'Bearer bench' ? { id: 'bench' } : undefined) },
);
const port = await server.listen(0, '127.0.0.1');
const delay = monitorEventLoopDelay({ resolution: 1 });
delay.enable();
process.on('message', (message) => {
  if (message !== 'usage') return;
  const cpu = process.cpuUsage();
  process.send({ cpuMs: (cpu.user + cpu.system) / 1000, rssBytes: process.memoryUsage().rss, maxBlockMs: delay.max / 1e6 });
  delay.reset();
});
process.on('disconnect', () => server.close().then(() => process.exit(0)));
process.send({ port });
