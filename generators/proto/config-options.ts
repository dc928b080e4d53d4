/**
 * The `options` a proto API accepts in `codegen.config.*`; checked by `core/config/config.ts`. (Not to be
 * confused with `options.ts`, which interprets options written inside `.proto` files.)
 */
import type { OptionDeclarations, OptionValues } from '../core/config/option-types.js';
import { REDIS_OPTION } from '../core/config/options.js';

export const PROTO_OPTIONS = {
  includePaths: {
    type: 'paths',
    description: "folders imports are resolved against, like protoc's `-I`; default: the input files' folders",
    example: 'includePaths: [schemas/proto]',
  },
  jsonTypes: {
    type: 'boolean',
    description:
      "also write each message's and enum's proto3 JSON type (`TaskJson`) and type `toJson`/`fromJson` with it, as protoc-gen-es's `json_types=true`; default false",
    example: 'jsonTypes: true',
  },
  redis: REDIS_OPTION,
} as const satisfies OptionDeclarations;

export type ProtoOptions = OptionValues<typeof PROTO_OPTIONS>;
