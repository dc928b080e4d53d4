// Section 12: what one operation costs in a browser bundle. Each case is a one-call entry file
// bundled by esbuild's JS API as a browser app would be (bundle, minify, ESM, platform browser);
// the table gives the minified and gzipped bytes. Ours are the clients in out/ (`npx codegen`);
// the peers are generated (hey-api) or imported (openapi-fetch, graphql-request, graphql-ws,
// connect-web) from node_modules. openapi-fetch's types (openapi-typescript) are erased by the
// bundler, so its entry names none.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
import { ROOT, WORK, binOf, versionOf } from './tools.js';

const DIR = join(WORK, 'bundle-size');
const OUT = join(ROOT, 'out');
const TASKS_YAML = join(ROOT, 'schemas', 'openapi', 'tasks.yaml');

/** Targets of issue 12: the minified size a case must not exceed (`of` names the peer it is measured against). */
const TARGETS = {
  // createClient names all 11 operations' descriptions (and the form and pagination modules they use):
  // the one-operation figure to compare with hey-api's is the `call` row.
  'rest-ours': { of: null, note: 'all 11 operations; one operation: the call row' },
  'rest-ours-call': { of: 'rest-hey-api' },
  'rest-ours-validated': { of: null, note: 'validation on: the validators of every response' },
  'graphql-ours-query': { bytes: 8 * 1024 },
  'graphql-ours-execute': { bytes: 8 * 1024 },
};

const GET_TASK_DOCUMENT = 'query GetTask($id: ID!) { task(id: $id) { id title status } }';

/** @returns {Array<{ id: string, style: string, label: string, entry: string, needs?: string }>} */
function cases() {
  const rel = (path) => JSON.stringify(relative(DIR, path).split('\\').join('/'));
  return [
    {
      id: 'rest-ours',
      style: 'REST',
      label: 'codegen (ours), createClient(…).getTask (11 operations)',
      needs: join(OUT, 'rest', 'client.ts'),
      entry: `import { createClient } from ${rel(join(OUT, 'rest', 'client.ts'))};
export const task = createClient({ auth: { bearerAuth: "t" } }).getTask({ taskId: "1" });`,
    },
    {
      id: 'rest-ours-call',
      style: 'REST',
      label: 'codegen (ours), createHttpClient(…).call(getTaskOperation)',
      needs: join(OUT, 'rest', 'client.ts'),
      entry: `import { createHttpClient, getTaskOperation } from ${rel(join(OUT, 'rest', 'client.ts'))};
export const task = createHttpClient({ auth: { bearerAuth: "t" } }).call(getTaskOperation, { taskId: "1" });`,
    },
    {
      id: 'rest-ours-validated',
      style: 'REST',
      label: 'codegen (ours), getTask, response validation on',
      needs: join(OUT, 'rest', 'response-validators.js'),
      entry: `import { createClient } from ${rel(join(OUT, 'rest', 'client.ts'))};
import { responseValidators } from ${rel(join(OUT, 'rest', 'response-validators.js'))};
export const task = createClient({ auth: { bearerAuth: "t" }, validateResponses: responseValidators }).getTask({ taskId: "1" });`,
    },
    {
      id: 'rest-hey-api',
      style: 'REST',
      label: `@hey-api/openapi-ts ${versionOf('@hey-api/openapi-ts')} (client-fetch), getTask`,
      needs: join(DIR, 'hey-api', 'sdk.gen.ts'),
      entry: `import { getTask } from "./hey-api/sdk.gen.ts";
export const task = getTask({ path: { taskId: "1" }, auth: "t" });`,
    },
    {
      id: 'rest-openapi-fetch',
      style: 'REST',
      label: `openapi-fetch ${versionOf('openapi-fetch')} + openapi-typescript, GET /tasks/{taskId}`,
      entry: `import createClient from "openapi-fetch";
const client = createClient({ baseUrl: "https://api.example.com/v1", headers: { Authorization: "Bearer t" } });
export const task = client.GET("/tasks/{taskId}", { params: { path: { taskId: "1" } } });`,
    },
    {
      id: 'graphql-ours-query',
      style: 'GraphQL',
      label: 'codegen (ours), createClient(…).getTask (8 operations)',
      needs: join(OUT, 'graphql', 'client.ts'),
      entry: `import { createClient } from ${rel(join(OUT, 'graphql', 'client.ts'))};
export const task = createClient({ url: "https://api.example.com/graphql" }).getTask({ id: "1" });`,
    },
    {
      id: 'graphql-ours-execute',
      style: 'GraphQL',
      label: 'codegen (ours), GraphQLHttp.execute(GetTask)',
      needs: join(OUT, 'graphql', 'client.ts'),
      entry: `import { GraphQLHttp } from ${rel(join(OUT, 'graphql', 'client.ts'))};
import { GetTask } from ${rel(join(OUT, 'graphql', 'operations.ts'))};
export const task = new GraphQLHttp({ url: "https://api.example.com/graphql" }).execute(GetTask, { id: "1" });`,
    },
    {
      id: 'graphql-request-query',
      style: 'GraphQL',
      label: `graphql-request ${versionOf('graphql-request')}, the same query`,
      entry: `import { GraphQLClient } from "graphql-request";
export const task = new GraphQLClient("https://api.example.com/graphql").request(${JSON.stringify(GET_TASK_DOCUMENT)}, { id: "1" });`,
    },
    {
      id: 'graphql-ours-subscription',
      style: 'GraphQL',
      label: 'codegen (ours), subscription TaskChanged',
      needs: join(OUT, 'graphql', 'client.ts'),
      entry: `import { createClient, webSocketSubscriptions } from ${rel(join(OUT, 'graphql', 'client.ts'))};
const client = createClient({ url: "https://api.example.com/graphql", subscriptions: webSocketSubscriptions({ connectionParams: { token: "t" } }) });
export const changes = client.taskChanged({ projectId: "1" });`,
    },
    {
      id: 'graphql-ws-subscription',
      style: 'GraphQL',
      label: `graphql-ws ${versionOf('graphql-ws')} alone, the same subscription`,
      entry: `import { createClient } from "graphql-ws";
const client = createClient({ url: "wss://api.example.com/graphql", connectionParams: { token: "t" } });
export const changes = client.iterate({ query: "subscription TaskChanged($projectId: ID!) { taskChanged(projectId: $projectId) { kind } }", variables: { projectId: "1" } });`,
    },
    {
      id: 'grpc-ours',
      style: 'gRPC-Web',
      label: 'codegen (ours) client-web.ts + connect-web, GetTask',
      needs: join(OUT, 'grpc', 'client-web.ts'),
      entry: `import { createClient } from ${rel(join(OUT, 'grpc', 'client-web.ts'))};
export const task = createClient({ baseUrl: "https://api.example.com", token: "t" }).taskService.getTask({ id: "1" });`,
    },
    {
      id: 'grpc-connect-web',
      style: 'gRPC-Web',
      label: `connect-web ${versionOf('@connectrpc/connect-web')} + protoc-gen-es _pb.ts, GetTask`,
      needs: join(OUT, 'grpc', 'acme', 'tasks', 'v1', 'tasks_pb.ts'),
      entry: `import { createClient } from "@connectrpc/connect";
import { createGrpcWebTransport } from "@connectrpc/connect-web";
import { TaskService } from ${rel(join(OUT, 'grpc', 'acme', 'tasks', 'v1', 'tasks_pb.ts'))};
const transport = createGrpcWebTransport({ baseUrl: "https://api.example.com", interceptors: [(next) => (request) => { request.header.set("authorization", "Bearer t"); return next(request); }] });
export const task = createClient(TaskService, transport).getTask({ id: "1" });`,
    },
  ];
}

/** Generates hey-api's fetch client for the Tasks API into bench/.work/bundle-size/hey-api. */
function generateHeyApi(log) {
  const output = join(DIR, 'hey-api');
  rmSync(output, { recursive: true, force: true });
  const result = spawnSync(
    process.execPath,
    [binOf('@hey-api/openapi-ts'), '-i', TASKS_YAML, '-o', output, '-c', '@hey-api/client-fetch', '--silent', '--no-log-file'],
    {
      cwd: DIR,
      encoding: 'utf8',
      timeout: 120_000,
    },
  );
  if (result.status !== 0)
    log(
      `   ✗ @hey-api/openapi-ts failed: ${(result.stderr || result.stdout || String(result.error)).trim().split('\n').slice(0, 5).join(' | ')}`,
    );
}

/** Bundles one entry as a browser app would; returns the minified and gzipped sizes. */
export async function bundleSize(esbuild, entryFile) {
  const result = await esbuild.build({
    entryPoints: [entryFile],
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    write: false,
    logLevel: 'silent',
    metafile: true,
  });
  const code = result.outputFiles[0].contents;
  return { minified: code.byteLength, gzipped: gzipSync(code).byteLength, code: new TextDecoder().decode(code), metafile: result.metafile };
}

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

/**
 * @param {{ log: (line: string) => void, quick: boolean }} options
 */
export async function benchBundleSize({ log }) {
  log('\n## 12. Bundle size: one operation, esbuild --bundle --minify --format=esm --platform=browser');
  let esbuild;
  try {
    esbuild = await import('esbuild');
  } catch (error) {
    log(`   ✗ esbuild is not installed (${error.message}): npm install`);
    return { ok: false, error: 'esbuild missing', rows: [] };
  }
  log(`   esbuild ${esbuild.version}; gzip: node:zlib at its default level; ours: the clients in out/ (npx codegen)`);
  mkdirSync(DIR, { recursive: true });
  generateHeyApi(log);
  const rows = [];
  let ok = true;
  for (const item of cases()) {
    if (item.needs && !existsSync(item.needs)) {
      log(`   ${item.style.padEnd(9)} ${item.label}: ✗ ${relative(ROOT, item.needs)} is missing`);
      rows.push({ id: item.id, style: item.style, label: item.label, failure: `${relative(ROOT, item.needs)} missing` });
      ok = false;
      continue;
    }
    const entryFile = join(DIR, `${item.id}.ts`);
    writeFileSync(entryFile, `${item.entry}\n`);
    try {
      const { minified, gzipped } = await bundleSize(esbuild, entryFile);
      rows.push({ id: item.id, style: item.style, label: item.label, minified, gzipped });
    } catch (error) {
      ok = false;
      rows.push({ id: item.id, style: item.style, label: item.label, failure: error.message.split('\n')[0] });
    }
  }
  const byId = Object.fromEntries(rows.map((row) => [row.id, row]));
  log('');
  log('   | style | bundle | minified | gzipped | target |');
  log('   | --- | --- | ---: | ---: | --- |');
  for (const row of rows) {
    const target = targetOf(row, byId);
    log(
      row.failure
        ? `   | ${row.style} | ${row.label} | ✗ ${row.failure} | | |`
        : `   | ${row.style} | ${row.label} | ${kb(row.minified)} | ${kb(row.gzipped)} | ${target} |`,
    );
  }
  return { ok, rows };
}

function targetOf(row, byId) {
  const target = TARGETS[row.id];
  if (!target || row.failure) return '';
  if (target.bytes !== undefined) return `≤ ${kb(target.bytes)}: ${row.minified <= target.bytes ? 'met' : 'NOT met'}`;
  if (target.of) {
    const peer = byId[target.of];
    if (!peer || peer.failure) return 'peer not measured';
    return `≤ ${peer.label.split(' ')[0]} (${kb(peer.minified)}): ${row.minified <= peer.minified ? 'met' : 'NOT met'}`;
  }
  return target.note ?? '';
}
