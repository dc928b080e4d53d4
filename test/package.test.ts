/**
 * codegen as a user gets it: `npm pack`, the tarball installed into an empty project, `codegen init`
 * on one schema of each style, `codegen`, the packages it says are missing installed, a strict
 * `tsc` over the project, and a program per style that starts the generated server and calls it
 * with the generated client over a real socket (test/fixtures/package/).
 *
 * npm runs with `--prefer-offline`: after `npm ci` here, every package is in npm's cache, so no
 * network is needed beyond what `npm ci` already used.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from './support/cli.js';
import { tempDir } from './support/tmp.js';

interface PackedFile {
  path: string;
  size: number;
}

/** npm's own variables from the `npm test` that runs us would leak into the project's npm. */
const ENV = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key)));
const NPM_FLAGS = ['--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'];

function run(command: string, args: string[], cwd: string): { code: number; stdout: string; stderr: string } {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', env: { ...ENV, NO_COLOR: '1' }, timeout: 300_000 });
  return { code: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}

function ok(command: string, args: string[], cwd: string): string {
  const result = run(command, args, cwd);
  if (result.code !== 0) throw new Error(`${command} ${args.join(' ')} exited ${result.code}\n${result.stdout}\n${result.stderr}`);
  return `${result.stdout}${result.stderr}`;
}

describe('the packed package in a new project', () => {
  let tarball: string;
  let files: PackedFile[];
  let packedBytes: number;

  beforeAll(() => {
    // `npm test` has just built dist/; `prepack` (checked below) builds it when publishing.
    const folder = tempDir('codegen-pack-');
    const output = execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', folder, ...NPM_FLAGS], {
      cwd: ROOT,
      encoding: 'utf8',
      env: ENV,
    });
    const [packed] = JSON.parse(output) as { filename: string; size: number; files: PackedFile[] }[];
    tarball = join(folder, packed!.filename);
    files = packed!.files;
    packedBytes = packed!.size;
  });

  it('holds the CLI, the compiled generators with types, the runtime modules and their manifest, templates, README and LICENSE, and nothing else', () => {
    const paths = files.map((file) => file.path);
    for (const path of paths)
      expect(path).toMatch(
        /^(package\.json|README\.md|LICENSE|bin\/codegen\.js|dist\/(bin|generators)\/.+\.(js|d\.ts)|runtime\/[\w-]+\.ts|runtime\/manifest\.json|templates\/.+\.hbs)$/,
      );
    expect(paths).toEqual(
      expect.arrayContaining([
        'bin/codegen.js',
        'dist/bin/cli.js',
        'dist/generators/api.js',
        'dist/generators/api.d.ts',
        'dist/generators/graphql/plugins/types.js',
        'templates/partials/header.hbs',
        'runtime/http.ts',
        'runtime/manifest.json',
        'README.md',
        'LICENSE',
      ]),
    );
    for (const folder of ['test/', 'bench/', 'out/', 'examples/', 'schemas/', 'dist/examples/', 'dist/out/', 'dist/test/'])
      expect(paths.some((path) => path.startsWith(folder))).toBe(false);
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string>; name: string };
    expect(manifest.scripts.prepack).toBe('npm run build');
    expect(manifest.name).not.toBe('codegen'); // taken on the registry by an unrelated package
    // The README states the size: it must stay true (within 15 %) as the package grows.
    const stated = /(\d+) KB packed/.exec(readFileSync(join(ROOT, 'README.md'), 'utf8'));
    expect(stated, 'README says "<n> KB packed"').not.toBeNull();
    expect(Math.abs(Number(stated![1]) * 1000 - packedBytes) / packedBytes).toBeLessThan(0.15);
  });

  it('installs, initialises, generates, names its missing packages, type-checks strict and runs every style', () => {
    const project = tempDir('codegen-user-');
    writeFileSync(
      join(project, 'package.json'),
      `${JSON.stringify({ name: 'user-project', version: '1.0.0', private: true, type: 'module' }, null, 2)}\n`,
    );
    ok('npm', ['install', '-D', tarball, ...NPM_FLAGS], project);
    expect(ok('npx', ['codegen', '--help'], project)).toContain('codegen init');

    cpSync(join(ROOT, 'schemas'), join(project, 'schemas'), { recursive: true });
    const schemas = [
      'schemas/openapi/tasks.yaml',
      'schemas/graphql/tasks.graphql',
      'schemas/graphql/operations/tasks.graphql',
      'schemas/proto/acme/tasks/v1/tasks.proto',
      'schemas/asyncapi/tasks.asyncapi.yaml',
    ];
    const init = ok('npx', ['codegen', 'init', ...schemas], project);
    expect(init).toContain('tasks-openapi (openapi), tasks-graphql (graphql), tasks-proto (proto), tasks-asyncapi (asyncapi)');

    const generated = run('npx', ['codegen'], project);
    expect(generated.code, generated.stderr).toBe(0);
    // codegen names what the output imports and the project lacks, as ready-to-paste commands.
    const printed = `${generated.stdout}\n${generated.stderr}`;
    const installs = [...printed.matchAll(/^\s*npm install (.+)$/gm)].map((match) => (match[1] as string).trim().split(/\s+/));
    const missing = installs.flat().filter((word) => word !== '-D');
    expect(missing).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^graphql@/),
        expect.stringMatching(/^@bufbuild\/protobuf@/),
        expect.stringMatching(/^ws@/),
        expect.stringMatching(/^@types\/node@/),
      ]),
    );
    const checkBefore = run('npx', ['codegen', '--check'], project);
    expect(checkBefore.code).toBe(1); // files are fine, but packages are missing

    for (const args of installs) ok('npm', ['install', ...args, ...NPM_FLAGS], project);
    const checkAfter = run('npx', ['codegen', '--check'], project);
    expect(checkAfter.code, `${checkAfter.stdout}${checkAfter.stderr}`).toBe(0);
    expect(checkAfter.stdout + checkAfter.stderr).not.toMatch(/npm install/);

    // The user's compiler, strict, ESM with NodeNext resolution, over generated code, the handler
    // scaffolds codegen wrote, and the programs below.
    ok('npm', ['install', '-D', 'typescript@5.9', ...NPM_FLAGS], project);
    cpSync(join(ROOT, 'test/fixtures/package/tsconfig.json'), join(project, 'tsconfig.json'));
    cpSync(join(ROOT, 'test/fixtures/package/smoke'), join(project, 'smoke'), { recursive: true });
    const tsc = run('npx', ['tsc', '-p', 'tsconfig.json'], project);
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.code).toBe(0);

    for (const style of ['rest', 'graphql', 'grpc', 'realtime', 'build-step']) {
      const program = run(process.execPath, [join('build', 'smoke', `${style}.js`)], project);
      expect(program.stderr).toBe('');
      expect(program.stdout.trim()).toBe(`ok ${style}`);
      expect(program.code).toBe(0);
    }
  });
});
