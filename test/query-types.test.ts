/**
 * The types of the generated TanStack Query options (out/graphql/query.ts, out/grpc/query.ts) as a
 * strict user's project sees them through `@tanstack/query-core`'s observers: data, errors and
 * inputs, with `@ts-expect-error` where a mistake must not compile
 * (test/fixtures/query-types/usage.ts), under strict plus `exactOptionalPropertyTypes`,
 * `noUncheckedIndexedAccess` and the other settings of STRICTEST, with TypeScript 5.9 and 7.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
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
