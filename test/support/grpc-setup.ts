/**
 * The generated gRPC code of schemas/proto/acme/tasks/v1/tasks.proto in `.vitest-tmp/<name>`:
 * generated through the real pipeline (`out/`, and the handler scaffold `handlers.ts`), the usage
 * module of grpc-usage.ts beside it, everything transpiled so tests can import it; plus a stock
 * `@grpc/grpc-js` client and server built at run time with `@grpc/proto-loader`.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { generate } from '../../generators/core/pipeline/generate.js';
import { ROOT } from './cli.js';
import { transpileFolder, writeFiles } from './client-generate.js';
import { GRPC_USAGE_SOURCE } from './grpc-usage.js';

export const PROTO_ROOT = join(ROOT, 'schemas/proto');
export const TASKS_PROTO = join(PROTO_ROOT, 'acme/tasks/v1/tasks.proto');
export const HEALTH_PROTO_ROOT = join(ROOT, '..', 'shared', 'corpus', 'protobuf', 'grpc-proto');

export interface GeneratedGrpc {
  folder: string;
  /** Path relative to the folder → content, as generated (before transpiling). */
  files: Map<string, string>;
}

export interface GenerateOptions {
  /** Folder holding `acme/tasks/v1/tasks.proto` (an include path); default schemas/proto. */
  protoRoot?: string;
  /** Write usage.ts and transpile (default true); false only generates and writes. */
  usage?: boolean;
  /** Keep `handlers.ts` from an earlier run (the scaffold then only adds to it). */
  keepHandlers?: boolean;
}

/** Generates into `.vitest-tmp/<name>` (output `out/`, handler file `handlers.ts`), writes `usage.ts`, transpiles. */
export async function generateGrpc(name: string, options: GenerateOptions = {}): Promise<GeneratedGrpc> {
  const folder = join(ROOT, '.vitest-tmp', name);
  const protoRoot = options.protoRoot ?? PROTO_ROOT;
  const handlers = join(folder, 'handlers.ts');
  const kept = options.keepHandlers && existsSync(handlers) ? readFileSync(handlers, 'utf8') : undefined;
  if (!kept) rmSync(handlers, { force: true });
  const [{ files, userFiles }] = await generate([
    {
      name: 'grpc',
      inputs: [join(protoRoot, 'acme/tasks/v1/tasks.proto')],
      documents: [],
      style: 'proto',
      output: join(folder, 'out'),
      emit: ['types', 'client', 'server'],
      handlers,
      options: { includePaths: [protoRoot] },
      root: protoRoot,
    },
  ]);
  writeFiles(join(folder, 'out'), files);
  for (const file of userFiles ?? []) writeFileSync(file.file, file.content);
  if (options.usage !== false) {
    writeFileSync(join(folder, 'usage.ts'), GRPC_USAGE_SOURCE);
    transpileFolder(folder);
  }
  return { folder, files: new Map(files.map((file) => [file.path, file.content])) };
}

/** Imports a transpiled module of the folder. */
export function load<T>(folder: string, path: string): Promise<T> {
  return import(pathToFileURL(join(folder, path)).href) as Promise<T>;
}

/** grpc-js's service constructors for tasks.proto and health.proto, loaded from the .proto text. */
export function grpcJsPackage() {
  const definition = protoLoader.loadSync(['acme/tasks/v1/tasks.proto', 'grpc/health/v1/health.proto'], {
    includeDirs: [PROTO_ROOT, HEALTH_PROTO_ROOT],
    longs: String,
    enums: String,
    defaults: true,
    oneofs: true,
  });
  const loaded = grpc.loadPackageDefinition(definition) as unknown as {
    acme: { tasks: { v1: { TaskService: grpc.ServiceClientConstructor } } };
    grpc: { health: { v1: { Health: grpc.ServiceClientConstructor } } };
  };
  return { TaskService: loaded.acme.tasks.v1.TaskService, Health: loaded.grpc.health.v1.Health };
}

/** A unary call of a grpc-js client as a promise (error: the grpc-js ServiceError). */
export function unary<T>(
  client: grpc.Client,
  method: string,
  request: object,
  metadata = new grpc.Metadata(),
  options: grpc.CallOptions = {},
): Promise<{ value: T; header: grpc.Metadata; trailer: grpc.Metadata }> {
  return new Promise((resolve, reject) => {
    let header = new grpc.Metadata();
    let outcome: { error: grpc.ServiceError | null; value: T } | undefined;
    const call = (client as unknown as Record<string, (...args: unknown[]) => grpc.ClientUnaryCall>)[method].call(
      client,
      request,
      metadata,
      options,
      (error: grpc.ServiceError | null, value: T) => {
        outcome = { error, value };
      },
    );
    call.on('metadata', (received: grpc.Metadata) => (header = received));
    // grpc-js calls back before it emits the status that carries the trailers.
    call.on('status', (status: grpc.StatusObject) => {
      if (outcome?.error) reject(outcome.error);
      else resolve({ value: outcome!.value, header, trailer: status.metadata });
    });
  });
}

/** `authorization: Bearer <token>` metadata, plus any other pairs. */
export function metadata(token: string | undefined, extra: Record<string, string> = {}): grpc.Metadata {
  const result = new grpc.Metadata();
  if (token !== undefined) result.set('authorization', `Bearer ${token}`);
  for (const [key, value] of Object.entries(extra)) result.set(key, value);
  return result;
}
