/**
 * Property helpers: the most common property checks of real APIs (a string, an integer, a
 * `date-time`, a string or null, a reference to another schema), each one call of a small local
 * function instead of a local variable, a type test and a `fail` call written out in place.
 *
 *     if ((reqString(o1["name"], errors, "/name") & optRef(o1["owner"], errors, "/owner", checkSimpleUser)) === 0) ok = false;
 *
 * They return 1 (valid) or 0, so that a run of consecutive properties is one `&` expression
 * (evaluated in full, so a collecting pass still sees every property) and one statement.
 * The errors are the same (`required` for a missing required property, else `type`, then
 * `format`). The point is the size of the module: a property costs about half the syntax nodes,
 * and type-checking a generated module costs about its number of nodes (bench/README.md).
 * The helpers are declared in the generated module, like `fail`, so V8 inlines them and
 * TypeScript does not follow imported names through every function's control flow.
 */
import type { JsonSchema, JsonType } from './model.js';
import { isBinarySchema } from './binary.js';
import { stringLiteral } from './names.js';
import { FORMAT_CHECKS, has, typeFailed, typeMessage, validation } from './emit-validators-scalars.js';

/** A property check done by a helper: its name and its declaration. */
export interface PropertyHelper {
  name: string;
  text: (collector: string) => string;
}

const HELPER_TYPES = new Set<JsonType>(['string', 'integer', 'number', 'boolean']);

function capitalise(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
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
  if (typeof base !== 'string' || !HELPER_TYPES.has(base as JsonType)) return undefined;
  if (types.length > 2 || (types.length === 2 && types[1] !== 'null')) return undefined;
  const list = types as JsonType[];
  const nullable = list.length === 2;
  const format = base === 'string' && formats === 'assert' && typeof schema.format === 'string' ? schema.format : undefined;
  const valid = format !== undefined ? FORMAT_CHECKS[format] : undefined;
  const name = `${required ? 'req' : 'opt'}${valid ? valid.replace(/^valid/, '') : capitalise(base)}${nullable ? 'OrNull' : ''}`;
  const lines = (collector: string) => {
    const body: string[] = [];
    if (!required) body.push('  if (value === undefined) return 1;');
    body.push(`  if (${typeFailed(list, 'value')}) {`, `    failType(errors, path, value, ${stringLiteral(typeMessage(list))});`, '    return 0;', '  }');
    if (valid) {
      body.push(
        `  if (${nullable ? 'value !== null && ' : ''}!${valid}(value)) {`,
        `    fail(errors, path, "format", ${stringLiteral(`must be a valid ${format}`)});`,
        '    return 0;',
        '  }',
      );
    }
    body.push('  return 1;');
    return [`function ${name}(value: unknown, errors: ${collector} | undefined, path: string): number {`, ...body, '}'].join('\n');
  };
  return { name, text: lines };
}

/** `reqRef`/`optRef`: a property checked by another function (a `$ref`, a hoisted subschema). */
export function refHelper(required: boolean): PropertyHelper {
  const name = required ? 'reqRef' : 'optRef';
  return {
    name,
    text: (collector) =>
      [
        `function ${name}(value: unknown, errors: ${collector} | undefined, path: string, check: (value: unknown, errors?: ${collector}) => boolean): number {`,
        required ? '  if (value === undefined) return fail(errors, path, "required", "is required") ? 1 : 0;' : '  if (value === undefined) return 1;',
        '  return check(value, errors === undefined ? undefined : errors.at(path)) ? 1 : 0;',
        '}',
      ].join('\n'),
  };
}
