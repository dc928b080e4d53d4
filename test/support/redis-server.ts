/**
 * A real `redis-server` (Debian's, /usr/bin/redis-server; `npm test` installs it when missing,
 * test/provision.js) for the Redis store tests: started on a free port in a temp folder with
 * persistence off, stopped (and the folder removed) after. `stop()` and `start()` again on the same port let tests take Redis away and
 * bring it back.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { stopProcess, waitForPort } from './service-process.js';
import { tempDir } from './tmp.js';

export const REDIS_SERVER = '/usr/bin/redis-server';

export interface RedisServer {
  port: number;
  url: string;
  /** Stops the server (SIGTERM, then SIGKILL after 5 s); the port stays reserved for `restart`. */
  stop(): Promise<void>;
  /** Starts it again on the same port, empty. */
  restart(): Promise<void>;
  /** Stops it for good and removes its folder. */
  close(): Promise<void>;
}

export function redisAvailable(): boolean {
  return existsSync(REDIS_SERVER);
}

/** A TCP port nothing listens on right now (`port`: whether that one is free, else 0). */
export function freePort(port = 0): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', (error: NodeJS.ErrnoException) => (port && error.code === 'EADDRINUSE' ? resolve(0) : reject(error)));
    server.listen(port, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export async function startRedis(): Promise<RedisServer> {
  const dir = tempDir('codegen-redis-');
  const port = await freePort();
  let child: ChildProcess | undefined;

  const launch = async (): Promise<void> => {
    let output = '';
    const started = spawn(REDIS_SERVER, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    started.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    started.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child = started;
    await waitForPort('redis-server', port, started, () => output, 10_000);
  };

  const stop = async (): Promise<void> => {
    const running = child;
    child = undefined;
    await stopProcess(running);
  };

  await launch();
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    stop,
    restart: launch,
    async close() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
