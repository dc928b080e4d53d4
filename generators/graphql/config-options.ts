/**
 * The `options` a GraphQL API accepts in `codegen.config.*`; checked by `core/config/config.ts`. `scalars`
 * and `mappers` are also the graphql-codegen plugins' `config` (`config.ts`), with the same meaning.
 */
import type { OptionDeclarations, OptionValues } from '../core/config/option-types.js';
import { REDIS_OPTION } from '../core/config/options.js';
import { SCALAR_SHORT_FORMS } from './config.js';

export const GRAPHQL_OPTIONS = {
  scalars: {
    type: 'map',
    keys: 'scalar',
    values: { type: 'schema', names: SCALAR_SHORT_FORMS },
    description:
      'the TypeScript type of each custom scalar; unlisted ones are `unknown` (well-known names such as `DateTime` are `string`)',
    example: 'scalars: { DateTime: string, Money: { type: number } }',
  },
  mappers: {
    type: 'map',
    keys: 'type',
    values: { type: 'string' },
    description:
      'what resolvers return for an object, interface or union type: `"<module>#<Export>"` (module relative to the output folder) or a type in scope',
    example: 'mappers: { Task: "../../src/db.js#TaskRecord" }',
  },
  assumeValidSDL: {
    type: 'boolean',
    description: "skip graphql-js's schema validation, for a schema you cannot fix (GitHub's repeats fields); default false",
    example: 'assumeValidSDL: true',
  },
  typedDocumentNodes: {
    type: 'boolean',
    description:
      "also write `documents.ts`: each operation as a `TypedDocumentNode` (`GetTaskDocument`), as graphql-codegen's client preset writes them, for Apollo Client, urql and graphql-request; default false",
    example: 'typedDocumentNodes: true',
  },
  redis: REDIS_OPTION,
} as const satisfies OptionDeclarations;

export type GraphQLOptions = OptionValues<typeof GRAPHQL_OPTIONS>;
