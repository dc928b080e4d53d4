/**
 * How the resolver types print a field's TS type: the shared type emitter, passed in by the types
 * plugin. Its own module because resolvers.ts and resolver-shapes.ts (which resolvers.ts uses)
 * both take one.
 */
import type { JsonSchema } from '../core/schema/json-schema.js';

/** A TS type expression for a schema used inline, indented from `indent`. */
export type TypeOf = (schema: JsonSchema, indent?: string) => string;
