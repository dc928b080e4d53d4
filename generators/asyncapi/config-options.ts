/** The `options` an AsyncAPI API accepts in `codegen.config.*`; checked by `core/config/config.ts`. */
import type { OptionDeclarations, OptionValues } from '../core/config/option-types.js';
import { REDIS_OPTION, VALIDATORS_OPTION } from '../core/config/options.js';

export const ASYNCAPI_OPTIONS = {
  redis: REDIS_OPTION,
  validators: VALIDATORS_OPTION,
} as const satisfies OptionDeclarations;

export type AsyncApiOptions = OptionValues<typeof ASYNCAPI_OPTIONS>;
