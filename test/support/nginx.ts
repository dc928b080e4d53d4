/**
 * A real nginx (Debian's, /usr/sbin/nginx; `npm test` installs it when missing, test/provision.js)
 * as the load balancer in front of several instances of a generated server: started in the
 * foreground as a child process on a free port, with a config written into a temp folder that
 * also holds its pid file, logs and temp paths (so it needs no root and touches nothing of the
 * system's nginx). Round-robin over the given ports, HTTP/1.1 keep-alive to the upstreams,
 * WebSocket upgrades passed through, and no response buffering so SSE events arrive as they are
 * written. Every response says which upstream answered in `X-Upstream` (nginx's `$upstream_addr`).
 *
 * With `{ grpc: true }` a second port serves gRPC: HTTP/2 over cleartext (prior knowledge, what
 * gRPC clients speak without TLS) passed on with `grpc_pass` over HTTP/2 to the same upstreams,
 * each response naming its upstream in the `x-upstream` header. A second port, because nginx
 * 1.22's `listen … http2` without TLS takes HTTP/2 only (it cannot tell HTTP/1.1 from a preface
 * on one socket before 1.25's `http2 on`): gRPC-Web and Connect over HTTP/1.1 keep the first port.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from './redis-server.js';
import { stopProcess, waitForPort } from './service-process.js';
import { tempDir } from './tmp.js';

export const NGINX = '/usr/sbin/nginx';

export interface Nginx {
  port: number;
  url: string;
  /** With `{ grpc: true }`: the HTTP/2 cleartext port passing gRPC on with `grpc_pass`. */
  grpcPort?: number;
  /** `http://127.0.0.1:<grpcPort>`. */
  grpcUrl?: string;
  /** Stops nginx (SIGTERM, SIGKILL after 5 s) and removes its folder. */
  close(): Promise<void>;
}

export function nginxAvailable(): boolean {
  return existsSync(NGINX);
}

/** The config: one upstream over `upstreamPorts`, everything under `dir`. */
export function nginxConfig(dir: string, port: number, upstreamPorts: readonly number[], grpcPort?: number): string {
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
    ...(grpcPort === undefined ? [] : grpcUpstream(upstreamPorts)),
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
    ...(grpcPort === undefined ? [] : grpcServer(grpcPort)),
    '}',
    '',
  ].join('\n');
}

/**
 * The same instances as an upstream of its own for `grpc_pass`: its kept-alive connections speak
 * HTTP/2, and one of them reused by `proxy_pass` for an HTTP/1.1 request would be garbage to both.
 */
function grpcUpstream(upstreamPorts: readonly number[]): string[] {
  return [
    '  upstream grpc_instances {',
    ...upstreamPorts.map((upstream) => `    server 127.0.0.1:${upstream};`),
    '    keepalive 16;',
    '  }',
  ];
}

/** The gRPC server block: HTTP/2 cleartext in, `grpc_pass` (HTTP/2) to the same instances, long streams allowed. */
function grpcServer(port: number): string[] {
  return [
    '  server {',
    `    listen 127.0.0.1:${port} http2;`,
    '    location / {',
    '      grpc_pass grpc://grpc_instances;',
    '      grpc_read_timeout 1h;',
    '      grpc_send_timeout 1h;',
    '      client_body_timeout 1h;',
    '      add_header X-Upstream $upstream_addr always;',
    '    }',
    '  }',
  ];
}

/** Starts nginx balancing over `upstreamPorts` (instances on 127.0.0.1). */
export async function startNginx(upstreamPorts: readonly number[], options: { grpc?: boolean } = {}): Promise<Nginx> {
  const dir = tempDir('codegen-nginx-');
  const port = await freePort();
  // Another port for sure: two server blocks on one port would share its `http2`.
  let grpcPort: number | undefined;
  while (options.grpc && (grpcPort === undefined || grpcPort === port)) grpcPort = await freePort();
  const config = join(dir, 'nginx.conf');
  writeFileSync(config, nginxConfig(dir, port, upstreamPorts, grpcPort));
  let output = '';
  const log = () => {
    const errorLog = join(dir, 'error.log');
    return `${output}${existsSync(errorLog) ? readFileSync(errorLog, 'utf8') : ''}`;
  };
  // -e: the startup error log too goes to the folder, not /var/log/nginx.
  const child = spawn(NGINX, ['-p', dir, '-c', config, '-e', join(dir, 'error.log')], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await waitForPort('nginx', port, child, log);
  if (grpcPort !== undefined) await waitForPort('nginx', grpcPort, child, log);
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    ...(grpcPort === undefined ? {} : { grpcPort, grpcUrl: `http://127.0.0.1:${grpcPort}` }),
    async close() {
      await stopProcess(child);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
