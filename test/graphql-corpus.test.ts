/**
 * Real GraphQL schemas written by others: ../shared/corpus/graphql (SWAPI with its example
 * queries, the How-to-GraphQL Hacker News schema) and GitHub's public schema
 * (@octokit/graphql-schema, whose SDL repeats field definitions, hence `assumeValidSDL`). Each
 * generates everything codegen can write for it, and all of it type-checks under strict with both
 * compilers.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ApiConfig } from '../generators/core/config/config.js';
import { generate } from '../generators/core/pipeline/generate.js';
import { applyPlan, planWrites } from '../generators/core/pipeline/writer.js';
import { ROOT } from './support/cli.js';
import { tempDir } from './support/tmp.js';
import { COMPILERS, STRICTEST, typecheck } from './support/typecheck.js';

const CORPUS = join(ROOT, '..', 'shared', 'corpus', 'graphql');
const GITHUB = join(ROOT, 'node_modules', '@octokit', 'graphql-schema', 'schema.graphql');

interface Case {
  name: string;
  schema: string;
  documents: string[];
  options?: Record<string, unknown>;
}

const SWAPI_QUERIES = join(CORPUS, 'swapi', 'example_queries');

const CASES: Case[] = [
  // The example queries are standalone files: 06 and 07 each define a fragment `pilotFragment`, which
  // one project cannot hold twice (that error is checked below), so 07 is left out here.
  {
    name: 'swapi',
    schema: join(CORPUS, 'swapi', 'schema.graphql'),
    documents: readdirSync(SWAPI_QUERIES)
      .filter((file) => file !== '07_fragments.graphql')
      .map((file) => join(SWAPI_QUERIES, file)),
  },
  { name: 'hackernews', schema: join(CORPUS, 'howtographql-hackernews', 'schema.graphql'), documents: [] },
  { name: 'github', schema: GITHUB, documents: [], options: { assumeValidSDL: true } },
];

function api(test: Case, output: string): ApiConfig {
  return {
    name: test.name,
    inputs: [test.schema],
    documents: test.documents,
    style: 'graphql',
    output,
    emit: ['types', 'client', 'server'],
    options: test.options ?? {},
    root: ROOT,
  };
}

describe('corpus: GraphQL schemas written by others', () => {
  it('has the schemas this test expects', () => {
    for (const test of CASES) expect(existsSync(test.schema), test.schema).toBe(true);
  });

  it('names each anonymous example query after its file, and reports a fragment defined twice where it is', async () => {
    const [swapi] = CASES;
    const files = await generate([api({ ...swapi, documents: [SWAPI_QUERIES] }, tempDir())]).catch((problem: Error) => problem);
    expect(String(files)).toMatch(
      /example_queries\/0[67]_fragments\.graphql:\d+:\d+: error: There can be only one fragment named "pilotFragment"/,
    );
    const [{ files: generated }] = await generate([api(swapi, tempDir())]);
    const operations = generated.find((file) => file.path === 'operations.ts')!.content;
    expect(operations).toContain('export interface Query01BasicQueryQuery {');
    expect(operations).toContain('export interface Query08IntrospectionQuery {');
  });

  describe('each generates, and the output type-checks', async () => {
    // Inside the repository, so the generated imports of graphql, graphql-http and graphql-ws resolve.
    mkdirSync(join(ROOT, '.vitest-tmp'), { recursive: true });
    const out = mkdtempSync(join(ROOT, '.vitest-tmp', 'graphql-corpus-'));
    const outputs = await generate(CASES.map((test) => api(test, join(out, test.name))));
    await applyPlan(await planWrites(outputs));

    for (const [index, { files }] of outputs.entries()) {
      const test = CASES[index];
      it(`${test.name}: types and a server (and its pub/sub with subscriptions), plus operations and a client when it has documents`, () => {
        const main = files.map((file) => file.path).filter((path) => !path.startsWith('runtime/'));
        const subscriptions = files.find((file) => file.path === 'types.ts')?.content.includes('export interface SubscriptionResolvers<');
        const expected = [
          'types.ts',
          'server.ts',
          ...(subscriptions ? ['pubsub.ts'] : []),
          ...(test.documents.length ? ['operations.ts', 'client.ts'] : []),
        ];
        expect(main.sort()).toEqual(expected.sort());
      });
    }
    for (const [name, compiler] of Object.entries(COMPILERS)) {
      it(`all of it type-checks under ${name}`, () => {
        const result = typecheck(out, compiler, 'node', undefined, STRICTEST);
        expect(result.output).toBe('');
        expect(result.ok).toBe(true);
      }, 180_000);
    }
  });
});
