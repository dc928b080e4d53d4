/**
 * A real Redis Cluster for the cluster tests: three `redis-server` processes (Debian's) with
 * `--cluster-enabled yes`, each with its config file and data in one temp folder, joined by
 * `redis-cli --cluster create … --cluster-replicas 0` (three masters, the 16384 slots split
 * between them). `stop(node)` and `start(node)` take one node away and bring it back on the same
 * port with the same config file, so it rejoins with its slots; `close()` stops everything and
 * removes the folder.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { freePort, REDIS_SERVER } from './redis-server.js';
import { stopProcess, waitForPort } from './service-process.js';
import { tempDir } from './tmp.js';

/** Debian's redis-tools; test/provision.js installs it with redis-server. */
export const REDIS_CLI = '/usr/bin/redis-cli';

export interface RedisClusterNode {
  port: number;
  /** `{ host, port }`, as `createCluster({ rootNodes: [{ socket }] })` takes it. */
  socket: { host: string; port: number };
}

export interface RedisClusterServers {
  nodes: RedisClusterNode[];
  /** `rootNodes` for node-redis's `createCluster`. */
  rootNodes: { socket: { host: string; port: number } }[];
  /** The master serving `key`'s slot (or a shard channel's), as the running nodes say. */
  nodeOf(key: string): RedisClusterNode;
  /** Stops one node (SIGTERM, then SIGKILL after 5 s). */
  stop(node: RedisClusterNode): Promise<void>;
  /** Starts a stopped node again (same port, same config file) and waits for `cluster_state:ok`. */
  start(node: RedisClusterNode): Promise<void>;
  /** Stops every node for good and removes the folder. */
  close(): Promise<void>;
}

/** Runs redis-cli against `port` (raw output); returns its output or throws with it. */
export function cli(port: number, args: string[]): string {
  const result = spawnSync(REDIS_CLI, ['-h', '127.0.0.1', '-p', String(port), ...args], { encoding: 'utf8', timeout: 30_000 });
  if (result.status !== 0) throw new Error(`redis-cli ${args.join(' ')}: ${result.status} ${result.stdout}${result.stderr}`);
  return result.stdout;
}

/** Resolves once every node in `ports` reports `cluster_state:ok`. */
async function waitForClusterOk(ports: number[], timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const states = ports.map((port) => {
      try {
        return /cluster_state:(\w+)/.exec(cli(port, ['cluster', 'info']))?.[1] ?? 'unknown';
      } catch {
        return 'unreachable';
      }
    });
    if (states.every((state) => state === 'ok')) return;
    if (Date.now() > deadline) throw new Error(`cluster_state within ${timeoutMs} ms: ${states.join(', ')}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export async function startRedisCluster(size = 3): Promise<RedisClusterServers> {
  const dir = tempDir('codegen-redis-cluster-');
  const ports: number[] = [];
  // Distinct ports whose cluster bus ports (+10000) are free too.
  while (ports.length < size) {
    const port = await freePort();
    if (!ports.includes(port) && port + 10_000 <= 65_535 && (await freePort(port + 10_000)) !== 0) ports.push(port);
  }
  const nodes: RedisClusterNode[] = ports.map((port) => ({ port, socket: { host: '127.0.0.1', port } }));
  const children = new Map<number, ChildProcess>();

  const launch = async (port: number): Promise<void> => {
    const folder = join(dir, String(port));
    mkdirSync(folder, { recursive: true });
    let output = '';
    const child = spawn(
      REDIS_SERVER,
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--cluster-enabled',
        'yes',
        '--cluster-config-file',
        join(folder, 'nodes.conf'),
        // While one node is down the others keep serving their slots (the tests show both sides).
        '--cluster-require-full-coverage',
        'no',
        // A stopped node is marked failed within 2 s (no replica takes over its slots).
        '--cluster-node-timeout',
        '2000',
        '--save',
        '',
        '--appendonly',
        'no',
        '--dir',
        folder,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    children.set(port, child);
    await waitForPort('redis-server', port, child, () => output, 10_000);
  };

  const stop = async (port: number): Promise<void> => {
    const running = children.get(port);
    children.delete(port);
    await stopProcess(running);
  };

  try {
    await Promise.all(ports.map(launch));
    cli(ports[0]!, ['--cluster', 'create', ...ports.map((port) => `127.0.0.1:${port}`), '--cluster-replicas', '0', '--cluster-yes']);
    await waitForClusterOk(ports);
  } catch (error) {
    await Promise.all(ports.map(stop));
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }

  return {
    nodes,
    rootNodes: nodes.map((node) => ({ socket: node.socket })),
    nodeOf(key) {
      const port = ports.find((each) => children.has(each));
      if (port === undefined) throw new Error('no node is running');
      const slot = Number(cli(port, ['cluster', 'keyslot', key]).trim());
      // CLUSTER NODES: "<id> <host:port@bus> <flags> <master> <ping> <pong> <epoch> <link> <slot ranges…>".
      for (const line of cli(port, ['cluster', 'nodes']).trim().split('\n')) {
        const fields = line.split(' ');
        const owns = fields.slice(8).some((range) => {
          const [from, to = from] = range.split('-').map(Number);
          return from !== undefined && from <= slot && slot <= to;
        });
        const node = nodes.find((each) => fields[1]?.startsWith(`127.0.0.1:${each.port}@`));
        if (owns && node) return node;
      }
      throw new Error(`no node serves slot ${slot} of ${key}`);
    },
    stop: (node) => stop(node.port),
    async start(node) {
      await launch(node.port);
      await waitForClusterOk(ports.filter((port) => children.has(port)));
    },
    async close() {
      await Promise.all(ports.map(stop));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
