/**
 * What the starters of the test services (redis-server, its cluster, nginx) share: waiting until
 * a child process listens, and stopping it.
 */
import type { ChildProcess } from 'node:child_process';
import { connect } from 'node:net';

/** Resolves once `child` (called `name` in errors) accepts connections on `port`; rejects if it exits or after `timeoutMs`. */
export function waitForPort(name: string, port: number, child: ChildProcess, output: () => string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const attempt = (): void => {
      if (child.exitCode !== null) return reject(new Error(`${name} exited with ${child.exitCode}: ${output()}`));
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve();
      });
      socket.once('error', () => {
        socket.destroy();
        if (Date.now() > deadline) reject(new Error(`${name} did not listen on ${port} within ${timeoutMs} ms: ${output()}`));
        else setTimeout(attempt, 25);
      });
    };
    attempt();
  });
}

/** Stops `child` if it still runs: SIGTERM, then SIGKILL after 5 s; resolves once it exited. */
export async function stopProcess(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  await new Promise<void>((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
