/** The `options` an OpenAPI API accepts in `codegen.config.*`; checked by `core/config/config.ts`. */
import type { OptionDeclarations, OptionValues } from '../core/config/option-types.js';
import { REDIS_OPTION, VALIDATORS_OPTION } from '../core/config/options.js';

export const OPENAPI_OPTIONS = {
  redis: REDIS_OPTION,
  validators: VALIDATORS_OPTION,
  openapiTypescript: {
    type: 'boolean',
    description:
      "also write `paths.ts`: the types in openapi-typescript's shape (`paths`, `components`, `operations`), for code on openapi-fetch or openapi-react-query; default false",
    example: 'openapiTypescript: true',
  },
} as const satisfies OptionDeclarations;

export type OpenApiOptions = OptionValues<typeof OPENAPI_OPTIONS>;
