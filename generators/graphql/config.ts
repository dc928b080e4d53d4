/**
 * The configuration every codegen GraphQL plugin takes. The same object works in `codegen.config.*`
 * (under an API's `options`) and in a graphql-codegen `codegen.yml` (as a plugin's `config`), so a
 * team can run our plugins from either tool and get the same files.
 */
import type { JsonSchema } from '../core/schema/json-schema.js';

/**
 * What a custom scalar is in TypeScript, written as JSON Schema so the one type emitter shared by
 * every style prints it: `{ type: 'string' }`, `{ type: 'integer' }`, `{}` (unknown), ... The short
 * forms `string`, `number`, `boolean` and `unknown` are accepted too.
 */
export type ScalarMapping = (typeof SCALAR_SHORT_FORMS)[number] | JsonSchema;

/** The short forms of a `ScalarMapping`. */
export const SCALAR_SHORT_FORMS = ['string', 'number', 'boolean', 'unknown'] as const;

export interface GraphQLPluginConfig {
  /** Where the schema came from, printed in each file's header line. Default: `GraphQL schema`. */
  source?: string;
  /** Custom scalars by name; unlisted ones are `unknown` (well-known names such as `DateTime` are `string`). */
  scalars?: Record<string, ScalarMapping>;
  /** A folder whose templates replace the built-in ones of the same relative path. */
  templates?: string;
  /**
   * `types` plugin: what resolvers return, and receive as parent, for an object, interface or union
   * type instead of its full schema type (graphql-codegen's `mappers`), by GraphQL type name:
   * `"<module>#<Export>"` imports a type (`<module>` as written in an import from the output folder,
   * e.g. `"../../src/db.js#TaskRecord"`), `"<module>#<Export> as <Local>"` under another name,
   * `"<module>#default"` the default export, `"<module>#<Namespace>.<Export>"` a namespace's member;
   * without `#`, a type already in scope of `types.ts` (a schema type or a global, e.g.
   * `"Omit<Task, \"project\">"`). Types that reach a mapped type through their fields get a
   * resolver-side shape in `ResolversTypes`.
   */
  mappers?: Record<string, string>;
  /** `query` plugin: the first element of every TanStack Query key. Default `graphql` (`npx codegen`: the API's name). */
  apiName?: string;
  /** `server` plugin: also re-export `RedisFanOut` (runtime/redis-fanout.ts), for `createPubSub(new RedisFanOut(client))`. */
  redis?: boolean;
  /** `runtime` plugin only: which runtime file to write, e.g. `graphql-server.ts`. */
  file?: string;
}

export const DEFAULT_SOURCE = 'GraphQL schema';
