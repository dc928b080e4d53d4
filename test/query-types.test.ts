/**
 * The types of the generated TanStack Query options (out/graphql/query.ts, out/grpc/query.ts) as a
 * strict user's project sees them through `@tanstack/query-core`'s observers: data, errors and
 * inputs, with `@ts-expect-error` where a mistake must not compile
 * (test/fixtures/query-types/usage.ts), under strict plus `exactOptionalPropertyTypes`,
 * `noUncheckedIndexedAccess` and the other settings of STRICTEST, with TypeScript 5.9 and 7.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generate } from '../generators/core/pipeline/generate.js';
import { ROOT } from './support/cli.js';
import { COMPILERS, STRICTEST, typecheck } from './support/typecheck.js';

const FOLDER = join(ROOT, 'test', 'fixtures', 'query-types');

describe('types of the TanStack Query options', () => {
  for (const [name, compiler] of Object.entries(COMPILERS)) {
    it(`data, errors and inputs check under ${name}, strict plus STRICTEST`, () => {
      const result = typecheck(FOLDER, compiler, 'node+dom', ['usage.ts'], STRICTEST);
      expect(result.output).toBe('');
      expect(result.ok).toBe(true);
    }, 120_000);
  }
});

describe('emit: [query] on a proto API', () => {
  it('brings the clients it calls, as on OpenAPI', async () => {
    const protos = join(ROOT, 'schemas', 'proto');
    const [{ files }] = await generate([
      {
        name: 'grpc',
        style: 'proto',
        inputs: [join(protos, 'acme', 'tasks', 'v1', 'tasks.proto')],
        documents: [],
        output: join(ROOT, '.vitest-tmp', 'unused'),
        emit: ['types', 'query'],
        options: { includePaths: [protos] },
        root: ROOT,
      },
    ]);
    const paths = files.map((file) => file.path);
    expect(paths).toContain('query.ts');
    expect(paths).toContain('client-web.ts');
    expect(paths).not.toContain('server.ts');
  }, 60_000);
});
