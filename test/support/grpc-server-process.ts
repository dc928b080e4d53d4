/**
 * The generated gRPC server of a `generateGrpc` folder (its usage.js: handlers and auth hooks) in a
 * child process of its own, so a test can read the server's CPU time and memory apart from the
 * attacking client's, and see whether it crashed.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface ServerUsage {
  /** User + system CPU time of the server process so far. */
  cpuMs: number;
  /** Resident set size now. */
  rssBytes: number;
}

export interface ServerProcess {
  port: number;
  usage(): Promise<ServerUsage>;
  /** Whether the process is still running. */
  alive(): boolean;
  /** What the server wrote to stderr (its `onError` log, warnings). */
  stderr(): string;
  stop(): Promise<void>;
}

const SCRIPT = `import { createServer } from "./usage.js";
const server = createServer(JSON.parse(process.argv[2]));
const port = await server.listen(0, "127.0.0.1");
process.on("message", async (message) => {
  if (message === "usage") {
    const cpu = process.cpuUsage();
    process.send({ cpuMs: (cpu.user + cpu.system) / 1000, rssBytes: process.memoryUsage().rss });
  } else if (message === "stop") {
    await server.close();
    process.exit(0);
  }
});
process.send({ port });
`;

/** Starts `createServer(options)` of `folder`'s usage.js (options: JSON values only). */
export async function startServerProcess(folder: string, options: object = {}): Promise<ServerProcess> {
  const script = join(folder, 'server-process.mjs');
  writeFileSync(script, SCRIPT);
  const child: ChildProcess = fork(script, [JSON.stringify(options)], { stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
  let stderr = '';
  child.stderr!.on('data', (data: Buffer) => (stderr += data.toString()));
  const next = <T>() =>
    new Promise<T>((resolve, reject) => {
      const onExit = (code: number | null) => reject(new Error(`server process exited (${code}): ${stderr}`));
      child.once('exit', onExit);
      child.once('message', (message) => {
        child.off('exit', onExit);
        resolve(message as T);
      });
    });
  const { port } = await next<{ port: number }>();
  return {
    port,
    usage() {
      const answer = next<ServerUsage>();
      child.send('usage');
      return answer;
    },
    alive: () => child.exitCode === null && child.signalCode === null,
    stderr: () => stderr,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.send('stop');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}
