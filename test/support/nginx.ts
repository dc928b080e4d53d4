/**
 * A real nginx (Debian's, /usr/sbin/nginx; `npm test` installs it when missing, test/provision.js)
 * as the load balancer in front of several instances of a generated server: started in the
 * foreground as a child process on a free port, with a config written into a temp folder that
 * also holds its pid file, logs and temp paths (so it needs no root and touches nothing of the
 * system's nginx). Round-robin over the given ports, HTTP/1.1 keep-alive to the upstreams,
 * WebSocket upgrades passed through, and no response buffering so SSE events arrive as they are
 * written. Every response says which upstream answered in `X-Upstream` (nginx's `$upstream_addr`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { freePort } from './redis-server.js';
import { tempDir } from './tmp.js';

export const NGINX = '/usr/sbin/nginx';

export interface Nginx {
  port: number;
  url: string;
  /** Stops nginx (SIGTERM, SIGKILL after 5 s) and removes its folder. */
  close(): Promise<void>;
}

export function nginxAvailable(): boolean {
  return existsSync(NGINX);
}

/** The config: one upstream over `upstreamPorts`, everything under `dir`. */
export function nginxConfig(dir: string, port: number, upstreamPorts: readonly number[]): string {
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((kind) => `  ${kind}_temp_path ${join(dir, kind)};`);
  return [
    'daemon off;',
    // One process: no user switch for workers, so it runs the same as root or not.
    'master_process off;',
    `pid ${join(dir, 'nginx.pid')};`,
    `error_log ${join(dir, 'error.log')} warn;`,
    'events { worker_connections 1024; }',
    'http {',
    `  access_log ${join(dir, 'access.log')};`,
    ...temp,
    '  upstream instances {',
    ...upstreamPorts.map((upstream) => `    server 127.0.0.1:${upstream};`),
    '    keepalive 16;',
    '  }',
    // A WebSocket upgrade is passed on as one; any other request keeps the upstream connection alive.
    '  map $http_upgrade $connection_upgrade {',
    '    default upgrade;',
    "    '' '';",
    '  }',
    '  server {',
    `    listen 127.0.0.1:${port};`,
    '    location / {',
    '      proxy_pass http://instances;',
    '      proxy_http_version 1.1;',
    '      proxy_set_header Host $http_host;',
    '      proxy_set_header Upgrade $http_upgrade;',
    '      proxy_set_header Connection $connection_upgrade;',
    '      proxy_buffering off;',
    '      proxy_read_timeout 1h;',
    '      add_header X-Upstream $upstream_addr always;',
    '    }',
    '  }',
    '}',
    '',
  ].join('\n');
}

function waitForPort(port: number, child: ChildProcess, output: () => string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const attempt = (): void => {
      if (child.exitCode !== null) return reject(new Error(`nginx exited with ${child.exitCode}: ${output()}`));
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve();
      });
      socket.once('error', () => {
        socket.destroy();
        if (Date.now() > deadline) reject(new Error(`nginx did not listen on ${port} within ${timeoutMs} ms: ${output()}`));
        else setTimeout(attempt, 25);
      });
    };
    attempt();
  });
}

/** Starts nginx balancing over `upstreamPorts` (instances on 127.0.0.1). */
export async function startNginx(upstreamPorts: readonly number[]): Promise<Nginx> {
  const dir = tempDir('codegen-nginx-');
  const port = await freePort();
  const config = join(dir, 'nginx.conf');
  writeFileSync(config, nginxConfig(dir, port, upstreamPorts));
  let output = '';
  const log = () => {
    const errorLog = join(dir, 'error.log');
    return `${output}${existsSync(errorLog) ? readFileSync(errorLog, 'utf8') : ''}`;
  };
  // -e: the startup error log too goes to the folder, not /var/log/nginx.
  const child = spawn(NGINX, ['-p', dir, '-c', config, '-e', join(dir, 'error.log')], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await waitForPort(port, child, log);
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    async close() {
      if (child.exitCode === null && child.signalCode === null) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
          child.once('exit', () => {
            clearTimeout(timer);
            resolve();
          });
          child.kill('SIGTERM');
        });
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
