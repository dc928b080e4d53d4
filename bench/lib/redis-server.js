// A redis-server for the `pubsub` benchmark: Debian's /usr/bin/redis-server on a free loopback
// port, persistence off, in a temporary folder removed on `close()`. The bench has its own starter
// (it does not import from test/); CI runs the bench before `npm test` provisions redis-server,
// so `redisServerPath()` tells the section whether it can run at all.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const REDIS_SERVER = '/usr/bin/redis-server';

/** The redis-server executable, or null when it is not installed. */
export function redisServerPath() {
  return existsSync(REDIS_SERVER) ? REDIS_SERVER : null;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Resolves once `port` accepts a connection; rejects when the child exits or after `timeoutMs`. */
function listening(port, child, output, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const attempt = () => {
      if (child.exitCode !== null) return reject(new Error(`redis-server exited with ${child.exitCode}: ${output()}`));
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve();
      });
      socket.once('error', () => {
        socket.destroy();
        if (Date.now() > deadline) reject(new Error(`redis-server did not listen on ${port} within ${timeoutMs / 1000} s: ${output()}`));
        else setTimeout(attempt, 25);
      });
    };
    attempt();
  });
}

/** Starts redis-server; resolves with its `url`, `pid` and `close()` (SIGTERM, SIGKILL after 5 s). */
export async function startRedisServer() {
  const dir = mkdtempSync(join(tmpdir(), 'codegen-bench-redis-'));
  const port = await freePort();
  let output = '';
  const child = spawn(REDIS_SERVER, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const close = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      await new Promise((resolve) => {
        const kill = setTimeout(() => child.kill('SIGKILL'), 5000);
        child.once('exit', () => {
          clearTimeout(kill);
          resolve();
        });
        child.kill('SIGTERM');
      });
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await listening(port, child, () => output);
  } catch (error) {
    await close();
    throw error;
  }
  return { url: `redis://127.0.0.1:${port}`, pid: child.pid, close };
}
