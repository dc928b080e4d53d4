/**
 * Real Swagger 2.0 documents written by others (every `swagger:` document under
 * ../shared/corpus/openapi, and the OpenAPI Specification's own 2.0 examples in
 * test/fixtures/swagger2/oai-v2.0, multi-file ones included): each generates types, validators, a
 * client and a server, and all of it type-checks under strict plus STRICTEST with both compilers.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
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
const EXAMPLES = join(ROOT, 'test', 'fixtures', 'swagger2', 'oai-v2.0');

function specs(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? specs(join(dir, entry.name)) : /\.(ya?ml|json)$/.test(entry.name) ? [join(dir, entry.name)] : [],
  );
}

/** Swagger 2.0 by content (a top-level `swagger` key), wherever the file lies. */
function swaggerIn(dir: string): string[] {
  return specs(dir)
    .sort()
    .filter((file) => /^\s*\{?\s*["']?swagger["']?\s*:/m.test(readFileSync(file, 'utf8').slice(0, 4096)));
}

const swagger2 = [...swaggerIn(CORPUS), ...swaggerIn(EXAMPLES)];
const rootOf = (input: string) => (input.startsWith(CORPUS) ? CORPUS : EXAMPLES);
const nameOf = (input: string) => relative(input.startsWith(CORPUS) ? CORPUS : ROOT, input);

function api(input: string, output: string): ApiConfig {
  return {
    name: nameOf(input),
    inputs: [input],
    style: 'openapi',
    documents: [],
    output,
    emit: ['types', 'validators', 'client', 'server'],
    options: {},
    root: rootOf(input),
  };
}

describe('corpus: the Swagger 2.0 documents of ../shared/corpus/openapi', async () => {
  it('has the documents this test expects', () => {
    expect(swagger2.map((file) => relative(CORPUS, file))).toContain('oai-examples/v2.0/petstore.yaml');
    // The examples: 8 YAML documents, the multi-file petstore in JSON and uber.json (not the files they refer to).
    expect(swagger2.filter((file) => file.startsWith(EXAMPLES))).toHaveLength(10);
  });

  const out = tempDir('codegen-swagger2-corpus-');
  writeFileSync(join(out, 'package.json'), '{ "type": "module" }\n');
  const outputs = await generate(swagger2.map((input) => api(input, join(out, nameOf(input).replace(/[^A-Za-z0-9]+/g, '-')))));
  await applyPlan(await planWrites(outputs));

  for (const [index, { files }] of outputs.entries()) {
    it(`${nameOf(swagger2[index])}: types, a client and a server, and validators when it has schemas; no warning`, async () => {
      let warnings: unknown[] = [];
      const model = await loadOpenApi(swagger2[index], {
        displayRoot: rootOf(swagger2[index]),
        readRoots: [rootOf(swagger2[index])],
        onWarnings: (found) => (warnings = found),
      });
      expect(warnings).toEqual([]);
      const expected = [
        'types.ts',
        'client.ts',
        'server.ts',
        'client-operations.d.ts',
        'client-operations.js',
        'server-routes.d.ts',
        'server-routes.js',
        ...(model.schemas.length ? ['validators.d.ts', 'validators.js'] : []),
      ];
      const main = files
        .map((file) => file.path)
        .filter(
          (path) => !path.startsWith('runtime/') && !path.startsWith('server-validators.') && !path.startsWith('response-validators.'),
        );
      expect(main.sort()).toEqual(expected.sort());
      expect(model.operations.length).toBeGreaterThan(0);
    });
  }
  for (const [name, compiler] of Object.entries(COMPILERS)) {
    it(`all of it type-checks under strict plus STRICTEST (${name})`, () => {
      expect(typecheck(out, compiler, 'node+dom', undefined, STRICTEST).output).toBe('');
    });
  }
});
