/**
 * The strict-flags matrix: generated code must compile in projects stricter than ours, so out/
 * (out.test.ts) and every corpus output (corpus.test.ts, graphql-corpus.test.ts,
 * proto-corpus-services.test.ts, realtime-generate.test.ts) are type-checked under `strict` plus
 * STRICTEST with TypeScript 5.9 and 7, in the same tsc run that checks them under `strict`. This
 * file shows that the matrix bites: a snippet that breaks exactly one flag fails the same check.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from './support/tmp.js';
import { COMPILERS, STRICTEST, typecheck } from './support/typecheck.js';

/** Per flag: code that compiles under plain `strict` but not with the flag, and the error it gets. */
const VIOLATIONS: Record<keyof typeof STRICTEST, { code: string; error: string }> = {
  noUncheckedIndexedAccess: { code: 'const list: string[] = [];\nexport const first: string = list[0];\n', error: 'TS2322' },
  exactOptionalPropertyTypes: {
    code: 'interface Options { name?: string }\nexport const options: Options = { name: undefined };\n',
    error: 'TS2375',
  },
  noPropertyAccessFromIndexSignature: {
    code: 'const counts: Record<string, number> = {};\nexport const total = counts.total;\n',
    error: 'TS4111',
  },
  noImplicitOverride: { code: 'class Base { run(): void {} }\nexport class Derived extends Base { run(): void {} }\n', error: 'TS4114' },
  noImplicitReturns: {
    code: 'export function sign(value: number): number | undefined {\n  if (value > 0) return 1;\n}\n',
    error: 'TS7030',
  },
  noFallthroughCasesInSwitch: {
    code: 'export function next(value: number): number {\n  switch (value) {\n    case 1:\n      value++;\n    case 2:\n      return value;\n  }\n  return 0;\n}\n',
    error: 'TS7029',
  },
  useUnknownInCatchVariables: {
    code: 'export function message(run: () => void): string {\n  try {\n    run();\n    return "";\n  } catch (error) {\n    return error.message;\n  }\n}\n',
    error: 'TS18046',
  },
  verbatimModuleSyntax: { code: 'import { Shape } from "./shape.js";\nexport const shapes: Shape[] = [];\n', error: 'TS1484' },
};

describe('the strict-flags matrix (STRICTEST)', () => {
  const folder = tempDir('codegen-strict-matrix-');
  writeFileSync(join(folder, 'package.json'), '{ "type": "module" }\n');
  writeFileSync(join(folder, 'shape.ts'), 'export interface Shape { sides: number }\n');
  for (const [flag, { code }] of Object.entries(VIOLATIONS)) writeFileSync(join(folder, `${flag}.ts`), code);

  for (const [name, compiler] of Object.entries(COMPILERS)) {
    it(`${name}: each snippet compiles under strict alone and fails with its flag`, () => {
      const strict = typecheck(
        folder,
        compiler,
        'node',
        undefined,
        Object.fromEntries(Object.keys(STRICTEST).map((flag) => [flag, false])),
      );
      expect(strict.output).toBe('');
      const strictest = typecheck(folder, compiler, 'node', undefined, STRICTEST);
      expect(strictest.ok).toBe(false);
      const errors = strictest.output.split('\n').filter((line) => line.includes('error TS'));
      for (const [flag, { error }] of Object.entries(VIOLATIONS)) {
        expect(
          errors.filter((line) => line.includes(`${flag}.ts(`)).map((line) => /error (TS\d+)/.exec(line)?.[1]),
          flag,
        ).toEqual([error]);
      }
    });
  }
});
