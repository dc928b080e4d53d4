/**
 * Options shared by several styles, declared once here and listed in each supporting style's
 * declaration (`generators/<style>/config-options.ts`).
 */
import type { OptionDeclaration } from './option-types.js';

/** Used by the OpenAPI and AsyncAPI servers. */
export const REDIS_OPTION = {
  type: 'boolean',
  description:
    'also write the Redis implementations of the shared state, re-exported by server.ts: `RedisStore` (REST), `RedisEventLog` and `RedisFanOut` (AsyncAPI), `RedisFanOut` for the pub/sub of GraphQL subscriptions and gRPC streams; default false',
  example: 'redis: true',
} as const satisfies OptionDeclaration;

/** Used by the OpenAPI and AsyncAPI styles, whose validator modules it shapes. */
export const VALIDATORS_OPTION = {
  type: 'string',
  values: ['js', 'ts'],
  description:
    "how validator modules are written: `js` (default) as `.js` + `.d.ts`, so a project's `tsc` reads only the declarations; `ts` as TypeScript. A build that compiles the output with `tsc` into another folder copies the `.js` with `allowJs`, or takes `ts`",
  example: 'validators: ts',
} as const satisfies OptionDeclaration;
