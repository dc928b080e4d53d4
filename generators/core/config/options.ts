/**
 * Options shared by several styles, declared once here and listed in each supporting style's
 * declaration (`generators/<style>/config-options.ts`).
 */
import type { OptionDeclaration } from './option-types.js';

/** Used by the OpenAPI and AsyncAPI servers. */
export const REDIS_OPTION = {
  type: 'boolean',
  description: 'also write the Redis implementations of the shared stores (`RedisStore`, `RedisEventLog`, `RedisFanOut`); default false',
  example: 'redis: true',
} as const satisfies OptionDeclaration;
