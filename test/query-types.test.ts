/**
 * The types of the generated TanStack Query options (out/rest/query.ts): typed user code
 * (test/support/query-usage.ts: query-core's observers and client, and React's hooks) compiles under
 * strict plus STRICTEST with each compiler, and each of its `@ts-expect-error` lines is an error
 * (tsc reports an unused one): data, error, key and input types, and the inference of
 * `useQuery`, `useInfiniteQuery` and `useMutation`.
 */
import { describe, expect, it } from 'vitest';
import { ROOT } from './support/cli.js';
import { COMPILERS, STRICTEST, typecheck } from './support/typecheck.js';

describe('TanStack Query options: types', () => {
  for (const [name, compiler] of Object.entries(COMPILERS)) {
    it(`type-checks the usage under ${name}, strict plus STRICTEST`, () => {
      const result = typecheck(ROOT, compiler, 'browser', ['test/support/query-usage.ts'], STRICTEST);
      expect(result.output).toBe('');
      expect(result.ok).toBe(true);
    }, 120_000);
  }
});
