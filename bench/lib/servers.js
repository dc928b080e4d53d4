// Server processes for the benchmarks: each server runs in its own child process, prints
// `listening on <url>` first, and is measured for CPU time from /proc.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { childEnv } from './proc.js';
import { ROOT } from './tools.js';

/** Starts a server script as a child and waits for `listening on <url>` on its first line. */
export function startServer(server) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, server.args, {
      cwd: ROOT,
      env: childEnv({ extra: { PORT: '0', ...server.env } }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${server.id} printed no URL within 15 s; stderr: ${stderr.trim()}`));
    }, 15_000);
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      const match = /^listening on (http:\/\/127\.0\.0\.1:\d+)\n/.exec(stdout);
      if (!match) return;
      clearTimeout(timer);
      resolve({
        url: match[1],
        child,
        stderr: () => stderr,
        stop: () =>
          new Promise((done) => {
            if (child.exitCode !== null) return done();
            const kill = setTimeout(() => child.kill('SIGKILL'), 5000);
            child.once('exit', () => {
              clearTimeout(kill);
              done();
            });
            child.kill('SIGTERM');
          }),
      });
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${server.id} exited (${code}) before listening; stderr: ${stderr.trim()}`));
    });
  });
}

/** CPU time (user + system) a process has used so far, in ms, from /proc (Linux); null elsewhere. */
export function cpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    // utime and stime are fields 14 and 15 of the whole line, in clock ticks (USER_HZ, 100 on Linux).
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return null;
  }
}

/**
 * Rotating rounds: in each of `rounds` rounds every server is started afresh in its own child
 * process, `measure(server, running, round)` runs against it, and it is stopped. Each round starts
 * with the next server, so drift on a shared machine hits each alike. A server whose start or
 * measure throws is not run again; `failed(server, error, running)` is told before it stops
 * (`running` is undefined when it did not start).
 */
export async function rotatingRounds(servers, rounds, { measure, failed }) {
  const down = new Set();
  for (let round = 0; round < rounds; round++) {
    for (let index = 0; index < servers.length; index++) {
      const server = servers[(index + round) % servers.length];
      if (down.has(server)) continue;
      let running;
      try {
        running = await startServer(server);
        await measure(server, running, round);
      } catch (error) {
        down.add(server);
        failed(server, error, running);
      } finally {
        await running?.stop();
      }
    }
  }
}
