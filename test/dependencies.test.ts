/**
 * What the generated code needs: the packages derived from real generated output of every style,
 * their ranges from codegen's own package.json, the comparison with a project's package.json
 * (real files in temp folders), the message and exit code of the real CLI, and the README's table.
 */
import { cpSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { loadConfig, type ApiConfig, type EmitKind } from '../generators/core/config/config.js';
import {
  codegenPackageJson,
  installCommands,
  missingPackages,
  packageName,
  requiredPackages,
  type Requirement,
} from '../generators/core/pipeline/dependencies.js';
import { generate } from '../generators/core/pipeline/generate.js';
import { importSpecifiers } from '../generators/core/pipeline/import-specifiers.js';
import type { GeneratedFile } from '../generators/core/pipeline/output.js';
import { codegen, ROOT } from './support/cli.js';
import { tempDir } from './support/tmp.js';

const OWN = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Record<string, Record<string, string> | undefined>;
const range = (name: string) => OWN.dependencies?.[name] ?? OWN.devDependencies?.[name];

/** `name@range` for runtime packages, `-D name@range` for type-checking ones. */
const specs = (requirements: Requirement[]) => requirements.map(({ name, range: tested, dev }) => `${dev ? '-D ' : ''}${name}@${tested}`);

/** The repository's own APIs (codegen.config.yaml), generated through the real pipeline with `emit`. */
async function generated(style: ApiConfig['style'], emit?: (kinds: EmitKind[]) => EmitKind[], options: Record<string, unknown> = {}) {
  const api = (await loadConfig(join(ROOT, 'codegen.config.yaml'))).find((candidate) => candidate.style === style)!;
  const kinds = emit ? emit(api.emit) : api.emit;
  return generate([{ ...api, emit: kinds, handlers: undefined, options: { ...api.options, ...options } } as ApiConfig]);
}
/** The drop-in files are on request (out/ has them): each side's own needs are read without them. */
const WITHOUT_DROP_IN = { typedDocumentNodes: false, openapiTypescript: false };
const clientSide = (kinds: EmitKind[]) => kinds.filter((kind) => kind !== 'server' && kind !== 'query' && kind !== 'msw');
const serverSide = (kinds: EmitKind[]) => kinds.filter((kind) => kind !== 'client' && kind !== 'query' && kind !== 'msw');
/** The client with its TanStack Query options: the README's `query` row is what they add. */
const querySide = (kinds: EmitKind[]) => kinds.filter((kind) => kind !== 'server' && kind !== 'msw');
/** `emit: [msw]`: the handlers of front-end tests, with the types they answer. */
const mswSide = (kinds: EmitKind[]) => kinds.filter((kind) => kind === 'types' || kind === 'msw');

/** Every file under `folder` as a generated file, as requiredPackages reads them. */
function filesIn(folder: string, base = folder): GeneratedFile[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? filesIn(join(folder, entry.name), base)
      : [{ path: join(folder, entry.name).slice(base.length + 1), content: readFileSync(join(folder, entry.name), 'utf8') }],
  );
}

function writeJson(file: string, value: unknown): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
}

describe('import specifiers', () => {
  it('finds every import form, and nothing in comments, strings, templates or regular expressions', () => {
    const source = [
      'import { a } from "pkg-a";',
      "import type { B } from 'pkg-b/sub/path';",
      'import "pkg-side-effect";',
      'export { c } from "@scope/pkg-c/deep";',
      'export type { D } from "pkg-d";',
      'export * from "pkg-e";',
      'import type, { f } from "pkg-f";', // a default import named `type`: not type-only
      'import { type G, h } from "pkg-g";',
      'const lazy = await import("pkg-lazy");',
      'type T = import("pkg-type-query").T;',
      'const text = Buffer.from("import x from \'not-a\'");',
      '// import y from "not-b";',
      '/* export * from "not-c"; */',
      'const t = `import z from "not-d" ${`nested ${"x"}`} from "not-e"`;',
      'const re = /from "not-f"/g, half = 1 / 2, other = /[/"]import "not-g"/;',
      'const obj = { from: "not-h", import: "not-i" };',
      'x.import("not-j"); y.from "not-k";',
    ].join('\n');
    expect(importSpecifiers(source)).toEqual([
      { specifier: 'pkg-a', typeOnly: false },
      { specifier: 'pkg-b/sub/path', typeOnly: true },
      { specifier: 'pkg-side-effect', typeOnly: false },
      { specifier: '@scope/pkg-c/deep', typeOnly: false },
      { specifier: 'pkg-d', typeOnly: true },
      { specifier: 'pkg-e', typeOnly: false },
      { specifier: 'pkg-f', typeOnly: false },
      { specifier: 'pkg-g', typeOnly: false },
      { specifier: 'pkg-lazy', typeOnly: false },
      { specifier: 'pkg-type-query', typeOnly: false },
    ]);
  });

  it('agrees with TypeScript’s own pre-processor on every file of out/ and of codegen itself', () => {
    const folders = ['out', 'generators', 'bin', 'runtime'].map((folder) => join(ROOT, folder));
    let compared = 0;
    for (const folder of folders) {
      for (const file of filesIn(folder)) {
        if (!file.path.endsWith('.ts')) continue;
        const ours = [...new Set(importSpecifiers(file.content).map(({ specifier }) => specifier))].sort();
        const theirs = [...new Set(ts.preProcessFile(file.content, true, true).importedFiles.map(({ fileName }) => fileName))].sort();
        expect(ours, `${folder}/${file.path}`).toEqual(theirs);
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(150);
  });

  it('maps specifiers to package names', () => {
    expect(packageName('graphql-ws/use/ws')).toBe('graphql-ws');
    expect(packageName('graphql-http/lib/use/http')).toBe('graphql-http');
    expect(packageName('@connectrpc/connect-node')).toBe('@connectrpc/connect-node');
    expect(packageName('@bufbuild/protobuf/wkt')).toBe('@bufbuild/protobuf');
    expect(packageName('node:http2')).toBe('node');
    expect(packageName('fs/promises')).toBe('node');
    for (const local of ['./runtime/http.js', '../x.js', '/abs/x.js', '#internal', 'https://example.com/x.js', 'data:text/javascript,'])
      expect(packageName(local)).toBeUndefined();
  });
});

describe('requiredPackages: derived from real generated output', () => {
  it('GraphQL: the server needs fast-json-stringify, graphql, graphql-http, graphql-jit, graphql-ws and ws (with @types/ws); the client graphql-ws, and graphql for types', async () => {
    expect(specs(requiredPackages(await generated('graphql', serverSide, WITHOUT_DROP_IN)))).toEqual([
      `-D @types/node@${range('@types/node')}`,
      `-D @types/ws@${range('@types/ws')}`,
      `fast-json-stringify@${range('fast-json-stringify')}`,
      `graphql@${range('graphql')}`,
      `graphql-http@${range('graphql-http')}`,
      `graphql-jit@${range('graphql-jit')}`,
      `graphql-ws@${range('graphql-ws')}`,
      `ws@${range('ws')}`,
    ]);
    expect(specs(requiredPackages(await generated('graphql', clientSide, WITHOUT_DROP_IN)))).toEqual([
      `-D graphql@${range('graphql')}`,
      `graphql-ws@${range('graphql-ws')}`,
    ]);
  });

  it('the drop-in files: typedDocumentNodes adds @graphql-typed-document-node/core for types only; openapiTypescript adds nothing', async () => {
    expect(specs(requiredPackages(await generated('graphql', clientSide, { typedDocumentNodes: true })))).toEqual([
      `-D @graphql-typed-document-node/core@${range('@graphql-typed-document-node/core')}`,
      `-D graphql@${range('graphql')}`,
      `graphql-ws@${range('graphql-ws')}`,
    ]);
    expect(requiredPackages(await generated('openapi', clientSide, { openapiTypescript: true }))).toEqual([]);
  });

  it('proto: protobuf-es and Connect (connect-web for the browser client), at the ranges codegen pins', async () => {
    expect(specs(requiredPackages(await generated('proto')))).toEqual([
      `@bufbuild/protobuf@${range('@bufbuild/protobuf')}`,
      `@connectrpc/connect@${range('@connectrpc/connect')}`,
      `@connectrpc/connect-node@${range('@connectrpc/connect-node')}`,
      `@connectrpc/connect-web@${range('@connectrpc/connect-web')}`,
      `@tanstack/query-core@${range('@tanstack/query-core')}`,
      `-D @types/node@${range('@types/node')}`,
    ]);
    // Connect 2.2 needs Node 22: the tilde range keeps users on what runs on Node 20.
    expect(range('@connectrpc/connect-node')).toMatch(/^~2\.1\./);
  });

  it('AsyncAPI: ws for the server, eventsource-parser for the client', async () => {
    expect(specs(requiredPackages(await generated('asyncapi', serverSide)))).toEqual([
      `-D @types/node@${range('@types/node')}`,
      `-D @types/ws@${range('@types/ws')}`,
      `ws@${range('ws')}`,
    ]);
    expect(specs(requiredPackages(await generated('asyncapi', clientSide)))).toEqual([`eventsource-parser@${range('eventsource-parser')}`]);
  });

  it('OpenAPI: nothing but Node’s types for the server; the client needs nothing', async () => {
    expect(specs(requiredPackages(await generated('openapi', serverSide)))).toEqual([`-D @types/node@${range('@types/node')}`]);
    expect(requiredPackages(await generated('openapi', clientSide))).toEqual([]);
  });

  it('options.redis adds no package: the Redis stores are typed structurally', async () => {
    for (const style of ['openapi', 'asyncapi'] as const) {
      const [withRedis, without] = [await generated(style, undefined, { redis: true }), await generated(style)];
      expect(
        withRedis[0].files.some((file) => /redis/.test(file.path)),
        style,
      ).toBe(true);
      expect(requiredPackages(withRedis), style).toEqual(requiredPackages(without));
    }
  });

  it('every package any output imports has a tested range in codegen’s package.json (a missing one is a bug in codegen)', async () => {
    const sets = [
      ...(await generate(
        (await loadConfig(join(ROOT, 'codegen.config.yaml'))).map((api) => ({ ...api, handlers: undefined }) as ApiConfig),
      )),
      ...(await generated('openapi', undefined, { redis: true })),
      ...(await generated('asyncapi', undefined, { redis: true })),
    ];
    const requirements = requiredPackages(sets);
    expect(requirements.length).toBeGreaterThan(5);
    expect(requirements.filter((requirement) => requirement.range === undefined).map(({ name }) => name)).toEqual([]);
  });

  it('takes ranges from codegen’s package.json at run time, found from the module’s own location', () => {
    expect(codegenPackageJson()).toEqual(OWN);
    // A package codegen does not list (a user's mapper module, say) is still required, without a range.
    const [requirement] = requiredPackages([{ files: [{ path: 'types.ts', content: 'import type { Row } from "my-db/rows";\n' }] }]);
    expect(requirement).toEqual({ name: 'my-db', range: undefined, dev: true });
  });
});

describe('missingPackages: compared with the project’s package.json', () => {
  const graphqlServer: Requirement[] = [
    { name: '@types/ws', range: '^8.18.2', dev: true },
    { name: 'graphql', range: '^16.15.0', dev: false },
    { name: 'graphql-http', range: '^1.23.1', dev: false },
    { name: 'ws', range: '^8.23.0', dev: false },
  ];
  const names = (requirements: Requirement[]) => requirements.map(({ name }) => name);

  it('lists what the nearest package.json lacks; every declaration field counts', () => {
    const project = tempDir('codegen-deps-');
    writeJson(join(project, 'package.json'), {
      dependencies: { graphql: '^16.0.0' },
      devDependencies: { ws: '^8.0.0' },
      peerDependencies: { 'graphql-http': '*' },
    });
    const missing = missingPackages(graphqlServer, join(project, 'src/generated/api'));
    expect(missing.packageJson).toBe(join(project, 'package.json'));
    expect(names(missing.dependencies)).toEqual([]);
    expect(names(missing.devDependencies)).toEqual(['@types/ws']);

    writeJson(join(project, 'package.json'), { name: 'empty' });
    const all = missingPackages(graphqlServer, join(project, 'src/generated/api'));
    expect(names(all.dependencies)).toEqual(['graphql', 'graphql-http', 'ws']);
    expect(installCommands(all)).toEqual([
      'npm install graphql@^16.15.0 graphql-http@^1.23.1 ws@^8.23.0',
      'npm install -D @types/ws@^8.18.2',
    ]);

    writeJson(join(project, 'package.json'), {
      optionalDependencies: { graphql: '16' },
      devDependencies: { 'graphql-http': '1', ws: '8', '@types/ws': '8' },
    });
    const none = missingPackages(graphqlServer, join(project, 'src/generated/api'));
    expect(installCommands(none)).toEqual([]);
  });

  it('counts the package.json files up to a workspace root, and only in a workspace', () => {
    const root = tempDir('codegen-deps-');
    writeJson(join(root, 'package.json'), {
      private: true,
      workspaces: ['packages/*'],
      devDependencies: { '@types/ws': '^8.0.0', ws: '^8.0.0' },
    });
    writeJson(join(root, 'packages/api/package.json'), { name: 'api', dependencies: { graphql: '^16.0.0' } });
    const member = missingPackages(graphqlServer, join(root, 'packages/api/src/generated'));
    expect(member.packageJson).toBe(join(root, 'packages/api/package.json'));
    expect(member.declaredIn).toEqual([join(root, 'packages/api/package.json'), join(root, 'package.json')]);
    expect(names([...member.dependencies, ...member.devDependencies])).toEqual(['graphql-http']);

    // pnpm marks its root with pnpm-workspace.yaml instead.
    writeJson(join(root, 'package.json'), { private: true, devDependencies: { '@types/ws': '^8.0.0', ws: '^8.0.0' } });
    writeFileSync(join(root, 'pnpm-workspace.yaml'), 'packages: [packages/*]\n');
    writeFileSync(join(root, 'pnpm-lock.yaml'), 'lockfileVersion: "9.0"\n');
    const pnpm = missingPackages(graphqlServer, join(root, 'packages/api/src/generated'));
    expect(names([...pnpm.dependencies, ...pnpm.devDependencies])).toEqual(['graphql-http']);
    expect(installCommands(pnpm)).toEqual(['pnpm add graphql-http@^1.23.1']);

    // Not a workspace: a package.json further up (a home folder's) declares nothing for this project.
    const home = tempDir('codegen-deps-');
    writeJson(join(home, 'package.json'), { dependencies: { ws: '^8.0.0', 'graphql-http': '^1.0.0' } });
    writeJson(join(home, 'project/package.json'), { dependencies: { graphql: '^16.0.0' } });
    const alone = missingPackages(graphqlServer, join(home, 'project/out'));
    expect(alone.declaredIn).toEqual([join(home, 'project/package.json')]);
    expect(names(alone.dependencies)).toEqual(['graphql-http', 'ws']);
  });

  it('uses the project’s package manager, from `packageManager` or a lockfile', () => {
    const managers: [Record<string, string>, string, string][] = [
      [{}, 'package-lock.json', 'npm install'],
      [{}, 'yarn.lock', 'yarn add'],
      [{}, 'bun.lock', 'bun add'],
      [{ packageManager: 'pnpm@9.12.0' }, 'package-lock.json', 'pnpm add'],
      [{}, '', 'npm install'],
    ];
    for (const [fields, lockfile, command] of managers) {
      const project = tempDir('codegen-deps-');
      writeJson(join(project, 'package.json'), fields);
      if (lockfile) writeFileSync(join(project, lockfile), '');
      const [runtime, dev] = installCommands(missingPackages(graphqlServer, join(project, 'out')));
      expect(runtime).toBe(`${command} graphql@^16.15.0 graphql-http@^1.23.1 ws@^8.23.0`);
      expect(dev).toBe(`${command} -D @types/ws@^8.18.2`);
    }
  });

  it('with no package.json above the output, everything is missing and there is no project to name', () => {
    // tmpdir has no package.json above it on the machines this runs on; check instead of assuming.
    const outside = tempDir('codegen-deps-');
    const missing = missingPackages(graphqlServer, join(outside, 'out'));
    expect(missing.packageJson).toBeUndefined();
    expect(names([...missing.dependencies, ...missing.devDependencies])).toEqual(['graphql', 'graphql-http', 'ws', '@types/ws']);
  });
});

describe('the CLI', () => {
  const GRAPHQL_SERVER_LINES = [
    'codegen: the generated code imports packages this project does not list; install them with:',
    `  npm install fast-json-stringify@${range('fast-json-stringify')} graphql@${range('graphql')} graphql-http@${range('graphql-http')} graphql-jit@${range('graphql-jit')} graphql-ws@${range('graphql-ws')} ws@${range('ws')}`,
    `  npm install -D @types/node@${range('@types/node')} @types/ws@${range('@types/ws')}`,
  ].join('\n');

  /** A temp project: the GraphQL example schema and a package.json with `fields`. */
  function project(fields: Record<string, unknown>): string {
    const dir = tempDir('codegen-deps-cli-');
    cpSync(join(ROOT, 'schemas/graphql/tasks.graphql'), join(dir, 'tasks.graphql'));
    writeJson(join(dir, 'package.json'), { name: 'app', private: true, type: 'module', ...fields });
    return dir;
  }
  const generateServer = (dir: string, ...flags: string[]) =>
    codegen(['generate', 'tasks.graphql', '-o', 'src/generated', '--emit', 'types,server', ...flags], dir);

  it('prints one install line for what the project lacks, after the summary, and still exits 0', () => {
    const dir = project({ dependencies: {} });
    const result = generateServer(dir);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/codegen: \d+ written/);
    expect(result.stderr.trim()).toBe(GRAPHQL_SERVER_LINES);
    // --quiet keeps it: it is not progress but something to act on (the output cannot compile without it).
    const quiet = generateServer(dir, '--quiet');
    expect(quiet.stdout).toBe('');
    expect(quiet.stderr.trim()).toBe(GRAPHQL_SERVER_LINES);
  });

  it('prints nothing when the project lists everything (dependencies or devDependencies)', () => {
    const dir = project({
      dependencies: { 'fast-json-stringify': '^7.3.10', graphql: '^16.15.0', 'graphql-http': '^1.23.1', 'graphql-jit': '^0.8.9' },
      devDependencies: { 'graphql-ws': '^6.4.2', ws: '^8.23.0', '@types/ws': '^8.18.2', '@types/node': '^20.19.43' },
    });
    const result = generateServer(dir);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    const check = generateServer(dir, '--check');
    expect(check.code).toBe(0);
    expect(check.stderr).toBe('');
  });

  it('--check exits 1 for missing packages, with the same line, even when every file is up to date', () => {
    const dir = project({ dependencies: { graphql: '^16.15.0' }, devDependencies: { ws: '^8.23.0' } });
    writeFileSync(join(dir, 'yarn.lock'), '');
    generateServer(dir);
    const check = generateServer(dir, '--check');
    expect(check.code).toBe(1);
    expect(check.stdout).toMatch(/files up to date/);
    expect(check.stderr.trim()).toBe(
      [
        'codegen: the generated code imports packages this project does not list; install them with:',
        `  yarn add fast-json-stringify@${range('fast-json-stringify')} graphql-http@${range('graphql-http')} graphql-jit@${range('graphql-jit')} graphql-ws@${range('graphql-ws')}`,
        `  yarn add -D @types/node@${range('@types/node')} @types/ws@${range('@types/ws')}`,
      ].join('\n'),
    );
  });

  it('names the package.json and its folder when the project is not the working directory', () => {
    const dir = project({});
    writeJson(join(dir, 'packages/api/package.json'), {
      name: 'api',
      dependencies: {
        'fast-json-stringify': '^7.3.10',
        graphql: '^16.15.0',
        'graphql-http': '^1.23.1',
        'graphql-jit': '^0.8.9',
        'graphql-ws': '^6.4.2',
        ws: '^8.23.0',
      },
    });
    const result = codegen(['generate', 'tasks.graphql', '-o', 'packages/api/src/generated', '--emit', 'types,server'], dir);
    expect(result.stderr.trim()).toBe(
      [
        'codegen: the generated code imports packages packages/api/package.json does not list; install them in packages/api with:',
        `  npm install -D @types/node@${range('@types/node')} @types/ws@${range('@types/ws')}`,
      ].join('\n'),
    );
  });

  it('without any package.json says so once, prints the line, and --check does not fail for it', () => {
    const dir = tempDir('codegen-deps-cli-');
    cpSync(join(ROOT, 'schemas/openapi'), join(dir, 'schemas'), { recursive: true });
    writeFileSync(
      join(dir, 'codegen.config.yaml'),
      'apis:\n  - { name: a, input: schemas/tasks.yaml, output: out/a, emit: [server] }\n  - { name: b, input: schemas/tasks.yaml, output: out/b, emit: [server] }\n',
    );
    const result = codegen([], dir);
    expect(result.code).toBe(0);
    expect(result.stderr.trim()).toBe(
      [
        'codegen: no package.json above out/a, out/b; the generated code imports these packages, install them with:',
        `  npm install -D @types/node@${range('@types/node')}`,
      ].join('\n'),
    );
    expect(codegen(['--check'], dir).code).toBe(0);
  });
});

describe('README: what the generated code needs', () => {
  const STYLE_NAMES: Record<ApiConfig['style'], string> = {
    openapi: 'OpenAPI (REST)',
    graphql: 'GraphQL',
    proto: 'proto3 (gRPC)',
    asyncapi: 'AsyncAPI (SSE, WebSocket)',
  };
  const cell = (requirements: Requirement[]) =>
    requirements.length ? `\`${requirements.map(({ name, range: tested }) => `${name}@${tested}`).join(' ')}\`` : '—';

  it('lists per style and side the packages derived from the output, and out/ needs exactly their union', async () => {
    const rows = ['| style | output | dependencies | devDependencies |', '|---|---|---|---|'];
    for (const api of await loadConfig(join(ROOT, 'codegen.config.yaml'))) {
      const sides: Requirement[][] = [];
      const kinds: [side: string, emit: (kinds: EmitKind[]) => EmitKind[]][] = [
        ['client', clientSide],
        ['server', serverSide],
      ];
      if (api.emit.includes('query')) kinds.push(['query', querySide]);
      if (api.emit.includes('msw')) kinds.push(['msw', mswSide]);
      for (const [side, emit] of kinds) {
        const client = new Set(side === 'query' ? sides[0]!.map(({ name }) => name) : []);
        const requirements = requiredPackages(await generated(api.style, emit, WITHOUT_DROP_IN)).filter(({ name }) => !client.has(name));
        sides.push(requirements);
        rows.push(
          `| ${STYLE_NAMES[api.style]} | ${side} | ${cell(requirements.filter((r) => !r.dev))} | ${cell(requirements.filter((r) => r.dev))} |`,
        );
      }
      // The committed out/ folder (client and server together) needs the union of both rows, and
      // what the drop-in files the config asks for add.
      const dropIn = requiredPackages(await generated(api.style, clientSide, {}));
      const union = new Map([...sides.flat(), ...dropIn].map((requirement) => [requirement.name, requirement]));
      const committed = requiredPackages([{ files: filesIn(api.output) }]);
      expect(
        committed.map(({ name }) => name),
        api.name,
      ).toEqual([...union.keys()].sort());
    }
    const table = rows.join('\n');
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    expect(readme.includes(table), `README.md should hold this table under "What the generated code needs":\n\n${table}\n`).toBe(true);
  });
});
