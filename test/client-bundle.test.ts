/**
 * What a browser app that calls one operation bundles (esbuild, as bench/ section 12 measures):
 * the REST client brings validators only when response validation is used, its TanStack Query
 * options only the operations the app names, a query-only GraphQL
 * app brings no graphql-ws, and a gRPC-Web app brings one of connect-web's two transports. Checked on the modules esbuild reports as bundled, so a
 * renamed or minified symbol cannot hide them.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import * as esbuild from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from './support/cli.js';
import { generateClientFiles, writeFiles } from './support/client-generate.js';
import { generateGraphQLFiles } from './support/generate.js';
import { generateGrpc } from './support/grpc-setup.js';

const OUT = mkdtempSync(join(ROOT, '.vitest-tmp', 'client-bundle-'));
const REST = join(OUT, 'rest');
const GRAPHQL = join(OUT, 'graphql');
let grpcClient: string;

/** Bundles `source` as a browser app's entry; returns the bundled modules (relative to OUT) and the size. */
async function bundle(name: string, source: string): Promise<{ modules: string[]; bytes: number; code: string }> {
  const entry = join(OUT, `${name}.ts`);
  writeFileSync(entry, source);
  const result = await esbuild.build({
    entryPoints: [entry],
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const output = Object.values(result.metafile.outputs)[0]!;
  const modules = Object.entries(output.inputs)
    .filter(([, input]) => input.bytesInOutput > 0)
    .map(([path]) => relative(OUT, join(ROOT, path)));
  return { modules, bytes: result.outputFiles[0]!.contents.byteLength, code: result.outputFiles[0]!.text };
}

beforeAll(async () => {
  writeFiles(REST, await generateClientFiles('schemas/openapi/tasks.yaml'));
  writeFiles(
    GRAPHQL,
    await generateGraphQLFiles('schemas/graphql/tasks.graphql', ['schemas/graphql/operations'], ['types', 'client'], {
      scalars: { DateTime: 'string' },
    }),
  );
  const grpc = await generateGrpc(`${relative(join(ROOT, '.vitest-tmp'), OUT)}/grpc`, { usage: false });
  grpcClient = JSON.stringify(`./${relative(OUT, join(grpc.folder, 'out', 'client-web.ts'))}`);
});

afterAll(() => rmSync(OUT, { recursive: true, force: true }));

describe('REST client bundle', () => {
  it('one operation without response validation bundles no validator code', async () => {
    const { modules } = await bundle(
      'rest-plain',
      [
        'import { createClient } from "./rest/client.js";',
        'export const task = createClient({ auth: { bearerAuth: "t" } }).getTask({ taskId: "1" });',
      ].join('\n'),
    );
    expect(modules).toContain('rest/runtime/http.ts');
    expect(modules).not.toContain('rest/validators.js');
    expect(modules).not.toContain('rest/runtime/validation.ts');
    expect(modules).not.toContain('rest/response-validators.js');
  });

  it("createHttpClient(...).call(getTaskOperation) bundles that operation's description only, and no optional feature", async () => {
    const { modules, code, bytes } = await bundle(
      'rest-call',
      [
        'import { createHttpClient, getTaskOperation } from "./rest/client.js";',
        'export const task = createHttpClient({ auth: { bearerAuth: "t" } }).call(getTaskOperation, { taskId: "1" });',
      ].join('\n'),
    );
    expect(modules).not.toContain('rest/validators.js');
    expect(code).toContain('"/tasks/{taskId}"');
    expect(code).not.toContain('"/projects/{projectId}/tasks"');
    expect(code).not.toContain('uploadAttachment');
    // getTask has neither styled parameters nor a form body, nor pages; the app passes no cache or validators.
    for (const feature of ['http-styles', 'http-forms', 'http-paginate', 'http-cache', 'http-validation']) {
      expect(modules).not.toContain(`rest/runtime/${feature}.ts`);
    }
    // Issue 12's target: no larger than hey-api 0.95.0's one-operation bundle (bench section 12: 9 774 bytes).
    expect(bytes).toBeLessThanOrEqual(9_774);
  });

  it('the optional features come with the operations and options that use them', async () => {
    const { modules } = await bundle(
      'rest-features',
      [
        'import { createClient, etagCache } from "./rest/client.js";',
        'const client = createClient({ cache: etagCache() });',
        'export const items = client.listProjectTasksAll({ projectId: "1" });',
        'export const upload = client.uploadAttachment({ taskId: "1", body: { file: new Blob([]) } });',
      ].join('\n'),
    );
    for (const feature of ['http-forms', 'http-paginate', 'http-cache']) expect(modules).toContain(`rest/runtime/${feature}.ts`);
    expect(modules).not.toContain('rest/runtime/http-validation.ts');
  });

  it('with validateResponses: responseValidators, the validators are bundled', async () => {
    const { modules } = await bundle(
      'rest-validated',
      [
        'import { createClient } from "./rest/client.js";',
        'import { responseValidators } from "./rest/response-validators.js";',
        'export const task = createClient({ validateResponses: responseValidators }).getTask({ taskId: "1" });',
      ].join('\n'),
    );
    expect(modules).toContain('rest/validators.js');
    expect(modules).toContain('rest/runtime/http-validation.ts');
    expect(modules).toContain('rest/response-validators.js');
  });
});

describe('TanStack Query options bundle (out/rest/query.ts)', () => {
  /** The import specifier of a committed out/rest module from the bundled entry. */
  const from = (file: string) => JSON.stringify(`${relative(OUT, join(ROOT, 'out', 'rest'))}/${file}`);

  it("an app's query options bring their operations' descriptions only, and paging with the infinite ones", async () => {
    const one = await bundle(
      'query-one',
      [
        `import { createHttpClient } from ${from('client.js')};`,
        `import { getTaskOptions } from ${from('query.js')};`,
        'export const options = getTaskOptions(createHttpClient(), { taskId: "1" });',
      ].join('\n'),
    );
    expect(one.code).toContain('"/tasks/{taskId}"');
    expect(one.code).not.toContain('"/projects/{projectId}/tasks"');
    expect(one.code).not.toContain('uploadAttachment');
    expect(one.modules.some((module) => module.endsWith('runtime/http-paginate.ts'))).toBe(false);
    expect(one.modules.some((module) => module.includes('@tanstack'))).toBe(false);

    const infinite = await bundle(
      'query-infinite',
      [
        `import { createHttpClient } from ${from('client.js')};`,
        `import { listProjectTasksInfiniteOptions } from ${from('query.js')};`,
        'export const options = listProjectTasksInfiniteOptions(createHttpClient(), { projectId: "1" });',
      ].join('\n'),
    );
    expect(infinite.code).toContain('"/projects/{projectId}/tasks"');
    expect(infinite.code).not.toContain('"/tasks/{taskId}"');
    expect(infinite.modules.some((module) => module.endsWith('runtime/http-paginate.ts'))).toBe(true);
  });
});

describe('GraphQL client bundle', () => {
  it('a query-only app bundles no graphql-ws, no subscriptions runtime and no persisted queries, within 8 KB minified', async () => {
    const { modules, bytes } = await bundle(
      'graphql-query',
      [
        'import { createClient } from "./graphql/client.js";',
        'export const task = createClient({ url: "/graphql" }).getTask({ id: "1" });',
      ].join('\n'),
    );
    expect(modules).toContain('graphql/runtime/graphql-client.ts');
    expect(modules.filter((path) => /graphql-ws|graphql-subscriptions|graphql-client-persisted/.test(path))).toEqual([]);
    // Issue 12's target, with the texts of all 8 operations (createClient names them all).
    expect(bytes).toBeLessThanOrEqual(8 * 1024);
  });

  it('persisted queries come with the option that uses them', async () => {
    const { modules } = await bundle(
      'graphql-apq',
      [
        'import { automaticPersistedQueries, createClient } from "./graphql/client.js";',
        'export const task = createClient({ url: "/graphql", persisted: automaticPersistedQueries() }).getTask({ id: "1" });',
      ].join('\n'),
    );
    expect(modules).toContain('graphql/runtime/graphql-client-persisted.ts');
  });

  it('GraphQLHttp.execute bundles only the document it sends, within 8 KB minified', async () => {
    const { modules, bytes, code } = await bundle(
      'graphql-execute',
      [
        'import { GraphQLHttp } from "./graphql/client.js";',
        'import { GetTask } from "./graphql/operations.js";',
        'export const task = new GraphQLHttp({ url: "/graphql" }).execute(GetTask, { id: "1" });',
      ].join('\n'),
    );
    expect(modules.filter((path) => path.includes('graphql-ws') || path.includes('graphql-subscriptions'))).toEqual([]);
    expect(code).toContain('query GetTask');
    expect(code).not.toContain('mutation CreateTask');
    expect(bytes).toBeLessThanOrEqual(8 * 1024);
  });

  it('an app that subscribes bundles graphql-ws', async () => {
    const { modules } = await bundle(
      'graphql-subscription',
      [
        'import { createClient, webSocketSubscriptions } from "./graphql/client.js";',
        'const client = createClient({ url: "/graphql", subscriptions: webSocketSubscriptions({ connectionParams: { token: "t" } }) });',
        'export const changes = client.taskChanged({ projectId: "1" });',
      ].join('\n'),
    );
    expect(modules).toContain('graphql/runtime/graphql-subscriptions.ts');
    expect(modules.some((path) => path.includes('node_modules/graphql-ws/'))).toBe(true);
  });
});

describe('gRPC-Web client bundle', () => {
  it('createClient bundles the gRPC-Web transport only, createConnectClient the Connect one only', async () => {
    const grpcWeb = await bundle(
      'grpc-web',
      [
        `import { createClient } from ${grpcClient};`,
        'export const task = createClient({ baseUrl: "https://api.example.com", token: "t" }).taskService.getTask({ id: "1" });',
      ].join('\n'),
    );
    const transports = (modules: string[]) =>
      modules.filter((path) => /connect-web\/dist\/esm\/(grpc-web|connect)-transport/.test(path)).map((path) => path.split('/').pop());
    expect(transports(grpcWeb.modules)).toEqual(['grpc-web-transport.js']);
    const connect = await bundle(
      'grpc-connect',
      [
        `import { createConnectClient } from ${grpcClient};`,
        'export const task = createConnectClient({ baseUrl: "https://api.example.com", token: "t" }).taskService.getTask({ id: "1" });',
      ].join('\n'),
    );
    expect(transports(connect.modules)).toEqual(['connect-transport.js']);
  });
});
