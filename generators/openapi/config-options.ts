/** The `options` an OpenAPI API accepts in `codegen.config.*`; checked by `core/config.ts`. */
import type { OptionDeclarations, OptionValues } from '../core/option-types.js';
import { REDIS_OPTION } from '../core/options.js';

export const OPENAPI_OPTIONS = {
  redis: REDIS_OPTION,
} as const satisfies OptionDeclarations;

export type OpenApiOptions = OptionValues<typeof OPENAPI_OPTIONS>;
