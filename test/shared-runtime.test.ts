/**
 * `runtime: shared`: APIs that set it get one copy of the runtime files, in `runtime/` beside their
 * output folders, and their generated files import from there. Checked on the four example APIs
 * (in memory, then written and type-checked) and through the CLI (migration from per-API runtime
 * folders, regeneration, --check, config errors).
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig, type ApiConfig } from '../generators/core/config/config.js';
import { generate } from '../generators/core/pipeline/generate.js';
import type { OutputSet } from '../generators/core/pipeline/writer.js';
import { codegen, ROOT } from './support/cli.js';
import { tempDir } from './support/tmp.js';
import { COMPILERS, typecheck } from './support/typecheck.js';
import { WatchProcess } from './support/watch-process.js';

const bytes = (sets: OutputSet[]) =>
  sets.reduce((sum, set) => sum + set.files.reduce((n, file) => n + Buffer.byteLength(file.content), 0), 0);

/** The example APIs of codegen.config.yaml with their outputs in `folder` (GraphQL without the examples' mappers). */
async function exampleApis(folder: string, runtime?: 'shared'): Promise<ApiConfig[]> {
  return (await loadConfig(join(ROOT, 'codegen.config.yaml'))).map((api) => {
    const options: Record<string, unknown> = { ...api.options };
    delete options.mappers;
    return { ...api, output: join(folder, basename(api.output)), options, ...(runtime ? { runtime } : {}) } as ApiConfig;
  });
}

describe('runtime: shared', async () => {
  mkdirSync(join(ROOT, '.vitest-tmp'), { recursive: true });
  const dir = mkdtempSync(join(ROOT, '.vitest-tmp', 'shared-runtime-'));
  const perApi = await generate(await exampleApis(dir));
  const shared = await generate(await exampleApis(dir, 'shared'));

  it('writes every runtime file once, into runtime/ beside the output folders, and saves exactly the duplicates', () => {
    expect(shared.map((set) => set.folder)).toEqual([...perApi.map((set) => set.folder), join(dir, 'runtime')]);
    const runtime = shared.at(-1)!;
    for (const set of shared.slice(0, -1)) expect(set.files.filter((file) => file.path.startsWith('runtime/'))).toEqual([]);
    const copies = perApi.flatMap((set) => set.files.filter((file) => file.path.startsWith('runtime/')));
    const distinct = new Map(copies.map((file) => [file.path.slice('runtime/'.length), file.content]));
    expect(runtime.files.map((file) => file.path)).toEqual([...distinct.keys()].sort());
    for (const file of runtime.files) expect(file.content).toBe(distinct.get(file.path));
    // What sharing saves is the second, third and fourth copies: 87 KB of out/'s 592 KB of runtime files today.
    const size = (contents: string[]) => contents.reduce((sum, content) => sum + Buffer.byteLength(content), 0);
    expect(bytes([runtime])).toBe(size([...distinct.values()]));
    expect(size(copies.map((file) => file.content)) - bytes([runtime])).toBeGreaterThan(50_000);
  });

  it('points the imports at the shared folder, and the whole tree type-checks under strict with both compilers', () => {
    for (const set of shared.slice(0, -1)) {
      for (const file of set.files) expect(file.content, file.path).not.toMatch(/from "\.\/runtime\//);
    }
    expect(shared[0]!.files.find((file) => file.path === 'client.ts')!.content).toContain('from "../runtime/http.js"');
    for (const set of shared) {
      for (const file of set.files) {
        mkdirSync(dirname(join(set.folder, file.path)), { recursive: true });
        writeFileSync(join(set.folder, file.path), file.content);
      }
    }
    for (const [name, compiler] of Object.entries(COMPILERS)) {
      const result = typecheck(dir, compiler, 'node+dom');
      expect(result.output, name).toBe('');
      expect(result.ok, name).toBe(true);
    }
  }, 240_000);

  it('refuses APIs whose runtime files differ (different template overrides)', async () => {
    const templates = tempDir('codegen-shared-templates-');
    mkdirSync(join(templates, 'runtime'));
    writeFileSync(
      join(templates, 'runtime/http-listener.ts'),
      `${readFileSync(join(ROOT, 'runtime/http-listener.ts'), 'utf8')}\n// ours\n`,
    );
    const apis = (await exampleApis(tempDir(), 'shared')).map((api) => (api.name === 'graphql' ? { ...api, templates } : api));
    await expect(generate(apis)).rejects.toThrow(
      /APIs "rest" and "graphql" would write different runtime\/http-listener\.ts .*give them the same `templates`/s,
    );
  });
});

describe('runtime: shared through the CLI', () => {
  const FEED = `asyncapi: 3.0.0
info: { title: Feed, version: 1.0.0 }
servers:
  http: { host: localhost:8080, protocol: http }
channels:
  feed:
    address: /feed
    servers: [{ $ref: '#/servers/http' }]
    x-sse: {}
    messages:
      note:
        payload: { type: object, properties: { text: { type: string } } }
operations:
  sendNotes:
    action: send
    channel: { $ref: '#/channels/feed' }
`;
  function project(runtime: string): string {
    const dir = tempDir('codegen-shared-cli-');
    cpSync(join(ROOT, 'schemas/openapi'), join(dir, 'openapi'), { recursive: true });
    writeFileSync(join(dir, 'feed.asyncapi.yaml'), FEED);
    const { dependencies, devDependencies } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ private: true, dependencies, devDependencies }));
    configure(dir, runtime);
    return dir;
  }
  function configure(dir: string, runtime: string, extra = ''): void {
    writeFileSync(
      join(dir, 'codegen.config.yaml'),
      `apis:
  - { name: rest, input: openapi/tasks.yaml, output: gen/rest, emit: [types, validators, client]${runtime} }
  - { name: feed, input: feed.asyncapi.yaml, output: gen/feed, emit: [types, validators, client]${runtime} }
${extra}`,
    );
  }

  it('moves per-API runtime folders into gen/runtime, then regenerates nothing and passes --check', () => {
    const dir = project('');
    const first = codegen([], dir);
    expect(first.code, first.stderr).toBe(0);
    expect(existsSync(join(dir, 'gen/rest/runtime/validation.ts'))).toBe(true);
    expect(existsSync(join(dir, 'gen/feed/runtime/validation.ts'))).toBe(true);

    configure(dir, ', runtime: shared');
    const moved = codegen([], dir);
    expect(moved.stderr).toBe('');
    expect(moved.code).toBe(0);
    expect(moved.stdout).toContain('removed  gen/rest/runtime/validation.ts');
    expect(moved.stdout).toContain('removed  gen/feed/runtime/validation.ts');
    expect(moved.stdout).toContain('wrote    gen/runtime/validation.ts');
    expect(existsSync(join(dir, 'gen/rest/runtime'))).toBe(false);
    expect(readdirSync(join(dir, 'gen/runtime')).sort()).toEqual([
      '.codegen-manifest',
      'client-common.ts',
      'http-auth.ts',
      'http-cache.ts',
      'http-client-methods.ts',
      'http-forms.ts',
      'http-paginate.ts',
      'http-results.ts',
      'http-validation.ts',
      'http.ts',
      'sse-client.ts',
      'validation.ts',
    ]);
    expect(readFileSync(join(dir, 'gen/rest/validators.js'), 'utf8')).toContain('from "../runtime/validation.js"');

    const again = codegen([], dir);
    expect(again.stdout).toMatch(/codegen: 0 written, \d+ unchanged, 0 removed/);
    const check = codegen(['--check'], dir);
    expect(check.stderr).toBe('');
    expect(check.code).toBe(0);
  });

  // The shared folder may sit in a folder --watch watches (here the inputs' folder): creating it is codegen's own write.
  it('--watch: switching to runtime: shared creates the shared folder in one run, not a second one for that write', {
    timeout: 300_000,
  }, async () => {
    const dir = tempDir('codegen-shared-watch-');
    cpSync(join(ROOT, 'schemas/openapi'), join(dir, 'api'), { recursive: true });
    writeFileSync(join(dir, 'api/feed.asyncapi.yaml'), FEED);
    const config = (runtime: string) => `apis:
  - { name: rest, input: api/tasks.yaml, output: api/rest, emit: [types, client]${runtime} }
  - { name: feed, input: api/feed.asyncapi.yaml, output: api/feed, emit: [types, client]${runtime} }
`;
    writeFileSync(join(dir, 'codegen.config.yaml'), config(''));
    const watcher = new WatchProcess(dir);
    try {
      await watcher.waitFor('out', /codegen: watching for changes/, { out: 0, err: 0 });
      const mark = watcher.mark();
      writeFileSync(join(dir, 'codegen.config.yaml'), config(', runtime: shared'));
      await watcher.waitFor('out', /wrote {4}api\/runtime\/http\.ts[^]*codegen: \d+ written/, mark);
      expect(existsSync(join(dir, 'api/rest/runtime'))).toBe(false);
      // Long enough for a run triggered by those writes to show (the debounce is well under a second).
      await new Promise((resolve) => setTimeout(resolve, 3000));
      expect(watcher.since(mark).out.match(/codegen: \d+ written/g), watcher.transcript()).toHaveLength(1);
      watcher.child.kill('SIGINT');
      expect(await watcher.exited).toBe(0);
    } finally {
      if (watcher.alive) watcher.child.kill('SIGKILL');
    }
  });

  it('reports a wrong value and an output folder in the way, located in the config', () => {
    const dir = project(', runtime: sharde');
    const wrong = codegen([], dir);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/codegen\.config\.yaml:2:\d+: error: apis\[0\]\.runtime: expected "shared" or "per-api"/);

    configure(dir, ', runtime: shared', '  - { name: other, input: feed.asyncapi.yaml, output: gen/runtime, emit: [types] }\n');
    const clash = codegen([], dir);
    expect(clash.code).toBe(1);
    expect(clash.stderr).toMatch(
      /codegen\.config\.yaml:2:\d+: error: apis\[0\]\.runtime: the shared runtime folder \S*gen\/runtime is not free: API "other" writes its output at \S*gen\/runtime/,
    );
    expect(existsSync(join(dir, 'gen'))).toBe(false);
  });
});
