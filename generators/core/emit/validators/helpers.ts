/**
 * Property helpers: the most common property checks of real APIs (a string, an integer, a
 * `date-time`, a string or null, a reference to another schema), each one call of a small
 * function of the validation runtime (`runtime/validation.ts`) instead of a local
 * variable, a type test and a `fail` call written out in place.
 *
 *     if ((reqString(o1["name"], errors, "/name") & optRef(o1["owner"], errors, "/owner", checkSimpleUser)) === 0) ok = false;
 *
 * They return 1 (valid) or 0, so that a run of consecutive properties is one `&` expression
 * (evaluated in full, so a collecting pass still sees every property) and one statement.
 * The errors are the same (`required` for a missing required property, else `type`, then
 * `format`). The point is the size of the module: a property costs about half the syntax nodes,
 * and type-checking a generated module costs about its number of nodes (bench/README.md).
 * They live once in the runtime, not in each module (issue 12): this file only names them, and
 * `HELPER_NAMES` is the list the runtime must export (test/validators-output.test.ts checks it).
 */
import type { JsonSchema, JsonType } from '../../schema/json-schema.js';
import { isBinarySchema } from '../../schema/binary.js';
import { FORMAT_CHECKS, has, validation } from './scalars.js';

/** A property check done by a runtime helper: its name. */
export interface PropertyHelper {
  name: string;
}

const HELPER_TYPES: readonly JsonType[] = ['string', 'integer', 'number', 'boolean'];

function capitalise(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

function helperName(required: boolean, base: string, nullable: boolean): string {
  return `${required ? 'req' : 'opt'}${base}${nullable ? 'OrNull' : ''}`;
}

/**
 * The helper checking a property of `schema` (`{ type: "string", format: "uri" }`, `{ type:
 * ["integer", "null"] }`, ...), or undefined when the schema has other keywords.
 */
export function scalarHelper(schema: JsonSchema, required: boolean, formats: 'assert' | 'ignore'): PropertyHelper | undefined {
  // A binary string is a Blob, checked in place (emit-validators-scalars.ts `typeList`).
  if (typeof schema !== 'object' || schema === null || has(schema, '$id') || isBinarySchema(schema)) return undefined;
  const keywords = Object.keys(schema).filter(validation);
  if (!keywords.includes('type') || !keywords.every((keyword) => keyword === 'type' || keyword === 'format')) return undefined;
  const types: unknown[] = Array.isArray(schema.type) ? schema.type : [schema.type];
  const [base] = types;
  if (typeof base !== 'string' || !HELPER_TYPES.includes(base as JsonType)) return undefined;
  if (types.length > 2 || (types.length === 2 && types[1] !== 'null')) return undefined;
  const nullable = types.length === 2;
  const format = base === 'string' && formats === 'assert' && typeof schema.format === 'string' ? schema.format : undefined;
  const valid = format !== undefined ? FORMAT_CHECKS[format] : undefined;
  return { name: helperName(required, valid ? valid.replace(/^valid/, '') : capitalise(base), nullable) };
}

/** `reqRef`/`optRef`: a property checked by another function (a `$ref`, a hoisted subschema). */
export function refHelper(required: boolean): PropertyHelper {
  return { name: required ? 'reqRef' : 'optRef' };
}

/** Every helper name the emitter can use; the runtime exports each. */
export const HELPER_NAMES: readonly string[] = [
  'fail',
  'failType',
  'reqRef',
  'optRef',
  ...[...HELPER_TYPES.map(capitalise), ...Object.values(FORMAT_CHECKS).map((check) => check.replace(/^valid/, ''))].flatMap((base) =>
    [true, false].flatMap((required) => [false, true].map((nullable) => helperName(required, base, nullable))),
  ),
];
