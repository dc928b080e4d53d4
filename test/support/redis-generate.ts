/**
 * What a user gets with `options.redis: true`, through the real pipeline (config → generator →
 * files), written to a folder under .vitest-tmp (so `redis` and `ws` resolve from node_modules),
 * and the runtime modules copied on their own into a folder outside the repository (where
 * `redis` does not resolve, proving the runtime does not import it). Plus a small SSE reader
 * that sends `Last-Event-ID` and records ids exactly.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import type { EmitKind } from '../../generators/core/config/config.js';
import type { InputStyle } from '../../generators/core/config/input-style.js';
import { generate } from '../../generators/core/pipeline/generate.js';
import type { GeneratedFile } from '../../generators/core/pipeline/output.js';
import { ROOT } from './cli.js';
import { writeFiles } from './client-generate.js';
import { copyRuntime } from './runtime.js';
import { tempDir } from './tmp.js';

/** The Redis runtime files and the files they import. */
export const REDIS_RUNTIME_FILES = [
  'server-types',
  'redis-store',
  'sse-store',
  'pubsub',
  'redis-pubsub',
  'sse-redis',
  'redis-fanout',
] as const;
/** The Redis modules themselves (the others are what they import). */
export const REDIS_MODULES = ['redis-store', 'redis-pubsub', 'sse-redis', 'redis-fanout'] as const;

export async function generateWith(
  style: InputStyle,
  input: string,
  emit: EmitKind[],
  options: Record<string, unknown>,
): Promise<GeneratedFile[]> {
  const [{ files }] = await generate([
    {
      name: 'test',
      inputs: [isAbsolute(input) ? input : join(ROOT, input)],
      style,
      documents: [],
      output: join(ROOT, '.vitest-tmp', 'unused'),
      emit,
      options,
      root: ROOT,
    },
  ]);
  return files;
}

/** A fresh folder under .vitest-tmp holding `files`. */
export function writeGenerated(prefix: string, files: GeneratedFile[], extra: Record<string, string> = {}): string {
  mkdirSync(join(ROOT, '.vitest-tmp'), { recursive: true });
  const folder = mkdtempSync(join(ROOT, '.vitest-tmp', prefix));
  writeFiles(folder, files);
  for (const [name, source] of Object.entries(extra)) writeFileSync(join(folder, name), source);
  return folder;
}

/** Copies the Redis runtime (and what it imports) into `<folder>/runtime/`; returns the sources. */
export function copyRedisRuntime(folder: string = tempDir('codegen-redis-runtime-')): { folder: string; sources: Record<string, string> } {
  return { folder, sources: copyRuntime(folder, REDIS_RUNTIME_FILES) };
}

/**
 * Proof by compilation that node-redis v5 clients (`createClient` and `createCluster`) are accepted
 * as they are, through what server.ts re-exports: the REST server's `RedisStore`...
 */
export const REST_REDIS_USAGE = `import { createClient, createCluster } from "redis";
import { createServer, RedisStore, RedisStoreUnavailableError, type Store, type TasksApiHandlers } from "./server.js";

export async function setUp(url: string, handlers: TasksApiHandlers): Promise<Store> {
  const client = createClient({ url, disableOfflineQueue: true });
  client.on("error", () => {});
  await client.connect();
  const store = new RedisStore(client, { onError: (error) => console.error(error instanceof RedisStoreUnavailableError ? error.describe() : error) });
  createServer(handlers, { store });
  // The client as connect() resolves it.
  return new RedisStore(await createClient({ url }).connect(), { prefix: "app:" });
}

/** A Redis Cluster client, as it is. */
export async function setUpCluster(rootNodes: { socket: { host: string; port: number } }[]): Promise<Store> {
  const cluster = createCluster({ rootNodes, defaults: { disableOfflineQueue: true } });
  cluster.on("error", () => {});
  return new RedisStore(await cluster.connect(), { prefix: "app:" });
}
`;

/** ...and the realtime server's `RedisEventLog` and `RedisFanOut`, sharing a subscriber or not. */
export const REALTIME_REDIS_USAGE = `import { createClient, createCluster } from "redis";
import { createRealtimeServer, RedisEventLog, RedisFanOut, RedisUnavailableError, type RealtimeHandlers } from "./server.js";

export async function setUp(url: string, handlers: RealtimeHandlers): Promise<void> {
  const client = createClient({ url, disableOfflineQueue: true });
  client.on("error", () => {});
  await client.connect();
  const subscriber = client.duplicate();
  subscriber.on("error", () => {});
  await subscriber.connect();
  const eventLog = new RedisEventLog(client, { subscriber, maxEvents: 100 });
  const fanOut = new RedisFanOut(await createClient({ url }).connect(), { subscriber, prefix: "app:" });
  const owned = new RedisFanOut(client);
  createRealtimeServer(handlers, { sse: { eventLog }, websocket: { fanOut, verifyToken: (token) => (token ? undefined : undefined) } });
  await Promise.all([eventLog.close(), fanOut.close(), owned.close()]);
  void RedisUnavailableError;
}

/** A Redis Cluster client, as it is: sharded pub/sub, subscribing on the cluster itself or on a duplicate. */
export async function setUpCluster(rootNodes: { socket: { host: string; port: number } }[], handlers: RealtimeHandlers): Promise<void> {
  const cluster = await createCluster({ rootNodes }).connect();
  const eventLog = new RedisEventLog(cluster, { subscriber: cluster, sharded: true });
  const fanOut = new RedisFanOut(cluster, { sharded: true });
  createRealtimeServer(handlers, { sse: { eventLog }, websocket: { fanOut, verifyToken: () => undefined } });
  await Promise.all([eventLog.close(), fanOut.close()]);
}
`;

export interface SseEvent {
  id: string;
  event: string;
  data: string;
}

export interface SseReader {
  /** The response's headers (behind a load balancer, which instance answered). */
  headers: Headers;
  events: SseEvent[];
  /** Resolves once `count` events have arrived (rejects after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<SseEvent[]>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  close(): void;
}

/** Opens an SSE stream with fetch, optionally resuming from `lastEventId`. */
export async function openSse(url: string, lastEventId?: string): Promise<SseReader> {
  const controller = new AbortController();
  const response = await fetch(url, {
    headers: { accept: 'text/event-stream', ...(lastEventId ? { 'last-event-id': lastEventId } : {}) },
    signal: controller.signal,
  });
  if (response.status !== 200 || !response.body) throw new Error(`SSE: ${response.status} ${await response.text()}`);
  const events: SseEvent[] = [];
  const waiting = new Set<() => void>();
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let finished = false;
  const ended = (async () => {
    let buffer = '';
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        buffer += value;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) !== -1) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event: SseEvent = { id: '', event: 'message', data: '' };
          let data: string[] | undefined;
          for (const line of block.split('\n')) {
            const colon = line.indexOf(':');
            if (colon === 0) continue;
            const field = colon === -1 ? line : line.slice(0, colon);
            const text = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
            if (field === 'id') event.id = text;
            else if (field === 'event') event.event = text;
            else if (field === 'data') (data ??= []).push(text);
          }
          if (data) {
            event.data = data.join('\n');
            events.push(event);
            for (const wake of waiting) wake();
          }
        }
      }
    } catch {
      // Aborted by close().
    } finally {
      finished = true;
      for (const wake of waiting) wake();
    }
  })();
  return {
    headers: response.headers,
    events,
    ended,
    waitFor(count, timeoutMs = 5000) {
      return new Promise((resolve, reject) => {
        const check = (): void => {
          if (events.length >= count) {
            cleanup();
            resolve(events.slice());
          } else if (finished) {
            cleanup();
            reject(new Error(`the stream ended after ${events.length} of ${count} events`));
          }
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(
            new Error(`${events.length} of ${count} events within ${timeoutMs} ms: ${JSON.stringify(events.map((event) => event.id))}`),
          );
        }, timeoutMs);
        const cleanup = (): void => {
          clearTimeout(timer);
          waiting.delete(check);
        };
        waiting.add(check);
        check();
      });
    },
    close() {
      controller.abort();
    },
  };
}
