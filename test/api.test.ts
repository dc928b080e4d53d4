/**
 * The programmatic API as a build tool imports it: by package name, through `exports`, from the
 * compiled dist/ (with its .d.ts), doing what the CLI does without printing or exiting.
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { check, CodegenError, generate, loadConfig } from 'codegen-ts';
import { graphqlMockResolvers, grpcMockServices } from 'codegen-ts/mock';
import { buildSchema } from 'graphql';
import { ROOT } from './support/cli.js';
import { tempDir } from './support/tmp.js';

function project(): string {
  const dir = tempDir('codegen-api-');
  cpSync(join(ROOT, 'schemas/openapi'), join(dir, 'schemas'), { recursive: true });
  writeFileSync(join(dir, 'codegen.config.yaml'), 'apis:\n  - name: tasks\n    input: schemas/tasks.yaml\n    output: src/generated\n');
  return dir;
}

describe('programmatic API (import from "codegen-ts")', () => {
  it('generate writes, check compares, and a second generate changes nothing', async () => {
    const dir = project();
    const first = await generate({ cwd: dir });
    expect(first.written.map((file) => file.slice(dir.length + 1))).toContain('src/generated/client.ts');
    expect(first.deleted).toEqual([]);
    expect(await check({ cwd: dir })).toMatchObject({ upToDate: true, differences: [] });
    // A fetch client, types and validators import no package: nothing for the project to install.
    expect(first.missingPackages).toEqual({ lines: [], missing: false });
    const second = await generate({ cwd: dir });
    expect(second.written).toEqual([]);
    expect(second.unchanged.length).toBe(first.written.length);

    const client = join(dir, 'src/generated/client.ts');
    writeFileSync(client, `${readFileSync(client, 'utf8')}\n// edited\n`);
    const stale = await check({ cwd: dir });
    expect(stale.upToDate).toBe(false);
    expect(stale.differences).toEqual([{ file: client, state: 'stale' }]);
  });

  it('reports what the output imports and the project lacks, instead of printing it', async () => {
    const dir = project();
    writeFileSync(join(dir, 'package.json'), '{"name":"p","private":true}');
    writeFileSync(
      join(dir, 'codegen.config.yaml'),
      'apis:\n  - input: schemas/tasks.yaml\n    output: src/generated\n    emit: [types, server]\n    handlers: src/handlers.ts\n',
    );
    const { missingPackages } = await check({ cwd: dir });
    expect(missingPackages.missing).toBe(true);
    expect(missingPackages.lines.join('\n')).toMatch(/npm install -D @types\/node@\^\d+/);
  });

  it('loadConfig returns the resolved APIs; bad input throws CodegenError with located diagnostics', async () => {
    const dir = project();
    const [api] = await loadConfig(undefined, dir);
    expect(api).toMatchObject({ name: 'tasks', style: 'openapi', output: join(dir, 'src/generated') });
    writeFileSync(join(dir, 'codegen.config.yaml'), 'apis:\n  - input: schemas/tasks.yaml\n    outptu: x\n');
    const failure = await generate({ cwd: dir }).catch((cause: unknown) => cause);
    expect(failure).toBeInstanceOf(CodegenError);
    expect((failure as CodegenError).diagnostics[0]?.location).toMatchObject({ line: 3, column: 5 });
  });

  it('codegen-ts/mock exports the mock handlers for the generated GraphQL and gRPC servers', () => {
    const schema = buildSchema('type Query { greeting: String! }');
    const greeting = graphqlMockResolvers(schema, { seed: 1 }).Query?.greeting as (source: unknown, args: object) => unknown;
    expect(greeting(undefined, {})).toBe(greeting(undefined, {}));
    expect(typeof greeting(undefined, {})).toBe('string');
    expect(grpcMockServices([], { seed: 1 })).toEqual({});
  });
});
