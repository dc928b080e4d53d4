/** The `options` an AsyncAPI API accepts in `codegen.config.*`; checked by `core/config.ts`. */
import type { OptionDeclarations, OptionValues } from '../core/option-types.js';
import { REDIS_OPTION } from '../core/options.js';

export const ASYNCAPI_OPTIONS = {
  redis: REDIS_OPTION,
} as const satisfies OptionDeclarations;

export type AsyncApiOptions = OptionValues<typeof ASYNCAPI_OPTIONS>;
