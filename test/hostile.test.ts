/**
 * A document whose names, descriptions and enum values try to break out of the generated code:
 * `*\/` to close comments, quotes and backticks to close strings, `${}` for template literals,
 * `__proto__` as a schema, property and enum name. The output must type-check, and loading it
 * must run none of the text as code.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { generate } from '../generators/core/pipeline/generate.js';
import { applyPlan, planWrites } from '../generators/core/pipeline/writer.js';
import { ROOT } from './support/cli.js';
import { tempDir } from './support/tmp.js';
import { COMPILERS, STRICTEST, typecheck } from './support/typecheck.js';
import { writeFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { pathToFileURL } from 'node:url';

describe('hostile input', async () => {
  const out = tempDir('codegen-hostile-');
  writeFileSync(join(out, 'package.json'), '{ "type": "module" }\n'); // ESM, as generated code needs (verbatimModuleSyntax)
  const input = join(ROOT, 'test/fixtures/hostile/api.yaml');
  const outputs = await generate([
    {
      name: 'hostile',
      inputs: [input],
      style: 'openapi',
      documents: [],
      output: out,
      emit: ['types', 'validators', 'client', 'server'],
      options: {},
      root: ROOT,
    },
  ]);
  await applyPlan(await planWrites(outputs));

  for (const [name, compiler] of Object.entries(COMPILERS)) {
    it(`output type-checks under ${name}, strict plus STRICTEST`, () => {
      expect(typecheck(out, compiler, 'node+dom', undefined, STRICTEST).output).toBe('');
    });
  }

  it('runs none of the schema text as code, and keeps enum values exact', async () => {
    // Transpile each generated module to JavaScript and import it; `pwned` must stay unset.
    const js = tempDir('codegen-hostile-js-');
    for (const file of outputs[0].files) {
      const output = ts.transpileModule(file.content, {
        compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
      }).outputText;
      const target = join(js, file.path.replace(/\.ts$/, '.js'));
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, output);
    }
    const types = await import(pathToFileURL(join(js, 'types.js')).href);
    await import(pathToFileURL(join(js, 'validators.js')).href);
    await import(pathToFileURL(join(js, 'client.js')).href);
    await import(pathToFileURL(join(js, 'server.js')).href);
    expect((globalThis as { pwned?: number }).pwned).toBeUndefined();
    const values = Object.values(types.Kind as Record<string, string>).sort();
    expect(values).toEqual(
      ['', '${globalThis.pwned = 10}', '*/', '__proto__', 'a"b', 'back\\slash', 'constructor', 'line\u2028separator'].sort(),
    );
    expect(Object.getPrototypeOf(types.Kind)).toBe(Object.prototype);
  });

  it('keeps every comment closed: no `*/` inside any JSDoc block', () => {
    for (const file of outputs[0].files) {
      const text = readFileSync(join(out, file.path), 'utf8');
      for (const block of text.match(/\/\*\*[\s\S]*?\*\//g) ?? []) {
        expect(block.slice(3, -2)).not.toContain('*/');
      }
    }
  });
});
