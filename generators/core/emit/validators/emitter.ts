/**
 * The keyword emitters' way back into the schema emitter: node.ts emits a schema's keywords
 * through objects.ts, arrays.ts and applicators.ts, which emit their subschemas through this
 * object, so none of them imports node.ts.
 */
import type { JsonSchema } from '../../schema/json-schema.js';
import type { Body, Scope } from './code.js';
import type { ValidatorModule } from './module.js';

/** What the keyword emitters need from each other, without importing each other. */
export interface Emitter {
  m: ValidatorModule;
  /** Statements checking `scope.value` against `schema`. */
  emit(schema: JsonSchema, scope: Scope, body: Body): void;
  /** A boolean expression: does `scope.value` match `schema`? */
  test(schema: JsonSchema, scope: Scope): string;
  /** Statements checking `scope.value` against the target of a `$ref`. */
  ref(ref: string, scope: Scope, body: Body): void;
  /** Statements for the schema a function is generated for (never replaced by a call to itself). */
  root(schema: JsonSchema, scope: Scope, body: Body): void;
}
