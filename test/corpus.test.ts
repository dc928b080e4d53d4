/**
 * Real API descriptions written by others (../shared/corpus/openapi): each generates, and all of
 * the output type-checks under strict with both compilers. Swagger 2.0 documents: swagger2-corpus.test.ts.
 */
import { readdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ApiConfig } from '../generators/core/config/config.js';
import { generate } from '../generators/core/pipeline/generate.js';
import { loadOpenApi } from '../generators/openapi/load.js';
import { applyPlan, planWrites } from '../generators/core/pipeline/writer.js';
import { ROOT } from './support/cli.js';
import { tempDir } from './support/tmp.js';
import { COMPILERS, STRICTEST, typecheck } from './support/typecheck.js';

const CORPUS = join(ROOT, '..', 'shared', 'corpus', 'openapi');

function specs(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? specs(join(dir, entry.name)) : /\.(ya?ml|json)$/.test(entry.name) ? [join(dir, entry.name)] : [],
  );
}

const all = specs(CORPUS).sort();
const openapi3 = all.filter((file) => !file.includes('/v2.0/'));

function api(input: string, output: string): ApiConfig {
  return {
    name: relative(CORPUS, input),
    inputs: [input],
    style: 'openapi',
    documents: [],
    output,
    emit: ['types', 'validators', 'client', 'server'],
    // paths.ts too: openapi-typescript's shape must compile for every document.
    options: { openapiTypescript: true },
    root: CORPUS,
  };
}

describe('corpus: ../shared/corpus/openapi', () => {
  it('has the documents this test expects', () => {
    expect(openapi3.length).toBeGreaterThanOrEqual(8);
  });

  describe('every OpenAPI 3 document generates and type-checks', async () => {
    const out = tempDir('codegen-corpus-');
    // Generated code is ESM: the folder is an ESM package, as a user's project must be (verbatimModuleSyntax).
    writeFileSync(join(out, 'package.json'), '{ "type": "module" }\n');
    const configs = openapi3.map((input) => api(input, join(out, relative(CORPUS, input).replace(/[^A-Za-z0-9]+/g, '-'))));
    const outputs = await generate(configs);
    await applyPlan(await planWrites(outputs));

    for (const [index, { files }] of outputs.entries()) {
      const name = relative(CORPUS, openapi3[index]);
      it(`${name}: types (and paths.ts), plus validators when it has schemas, a client and a server when it has operations`, async () => {
        const model = await loadOpenApi(openapi3[index], { displayRoot: CORPUS });
        const operations = model.operations.length > 0;
        const expected = [
          'types.ts',
          'paths.ts',
          // The client's and the server's tables: data, shipped as .js + .d.ts.
          ...(operations
            ? ['client.ts', 'server.ts', 'client-operations.d.ts', 'client-operations.js', 'server-routes.d.ts', 'server-routes.js']
            : []),
          ...(model.schemas.length ? ['validators.d.ts', 'validators.js'] : []),
        ];
        const main = files
          .map((file) => file.path)
          .filter(
            (path) => !path.startsWith('runtime/') && !path.startsWith('server-validators.') && !path.startsWith('response-validators.'),
          );
        expect(main.sort()).toEqual(expected.sort());
        // Real, valid documents need nothing forgiven (the forgiving loader: test/forgiving.test.ts).
        expect(outputs[index]?.warnings ?? []).toEqual([]);
        // The client's response validators, when some 2xx body has a named schema: only beside a client and validators.
        if (files.some((file) => file.path.startsWith('response-validators.'))) expect(operations && model.schemas.length > 0).toBe(true);
      });
    }
    for (const [name, compiler] of Object.entries(COMPILERS)) {
      it(`all of it type-checks under ${name}`, () => {
        const result = typecheck(out, compiler, 'node+dom', undefined, STRICTEST);
        expect(result.output).toBe('');
      });
    }
  });
});
