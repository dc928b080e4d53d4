import { cpSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { codegen, ROOT } from './support/cli.js';
import { tempDir } from './support/tmp.js';

/** A project with the example REST schema and the given tsconfig.json text. */
function project(tsconfig: string): string {
  const dir = tempDir('codegen-tsconfig-');
  cpSync(join(ROOT, 'schemas/openapi'), join(dir, 'schemas'), { recursive: true });
  writeFileSync(join(dir, 'package.json'), '{ "name": "app", "type": "module" }\n');
  writeFileSync(join(dir, 'tsconfig.json'), tsconfig);
  return dir;
}

const generate = (dir: string, ...extra: string[]) =>
  codegen(['generate', 'schemas/tasks.yaml', '-o', 'src/generated', '--emit', 'types,validators,client', ...extra], dir);

describe('a tsconfig that would drop the generated .js modules from its build', () => {
  it('is named with its line and column when it emits to outDir without allowJs', () => {
    const dir = project('{\n  // the build\n  "compilerOptions": {\n    "outDir": "build",\n  },\n}\n');
    const result = generate(dir);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(
      /^tsconfig\.json:4:15: warning: tsc emits to outDir without allowJs, so the build will lack .*validators\.js/m,
    );
    expect(result.stderr).toMatch(/hint: set "allowJs": true/);
    for (const include of ['"src"', '"src/**/*.ts"', '"src/generated/*.ts"'])
      expect(generate(project(`{ "compilerOptions": { "outDir": "build" }, "include": [${include}] }`)).stderr, include).toMatch(
        /without allowJs/,
      );
  });

  it('is quiet with allowJs, with noEmit, without outDir, when its include does not reach the output, and under --quiet', () => {
    for (const tsconfig of [
      '{ "compilerOptions": { "outDir": "build", "allowJs": true } }',
      '{ "compilerOptions": { "outDir": "build", "noEmit": true } }',
      '{ "compilerOptions": { "strict": true } }',
      '{ "compilerOptions": { "outDir": "build" }, "include": ["lib/**/*.ts"] }',
      '{ "compilerOptions": { "outDir": "build" }, "files": ["main.ts"] }',
    ]) {
      expect(generate(project(tsconfig)).stderr, tsconfig).not.toMatch(/allowJs/);
    }
    expect(generate(project('{ "compilerOptions": { "outDir": "build" } }'), '--quiet').stderr).not.toMatch(/allowJs/);
  });
});
