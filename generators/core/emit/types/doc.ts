/**
 * JSDoc for generated types: the schema's title and description, then the facts an editor's hover
 * should show and TypeScript cannot express (format, bounds, pattern, default, examples).
 * Everything goes through `jsDoc`, so no description can end the comment early.
 */
import type { JsonSchema, SchemaObject } from '../../schema/json-schema.js';
import { jsDoc } from '../../builder/names.js';

/** Numeric and string facts shown as `@name value`, in this order. */
const FACTS = [
  'minimum',
  'exclusiveMinimum',
  'maximum',
  'exclusiveMaximum',
  'multipleOf',
  'minLength',
  'maxLength',
  'pattern',
  'minItems',
  'maxItems',
  'minProperties',
  'maxProperties',
] as const satisfies readonly (keyof SchemaObject)[];

/** Compact JSON for a tag (`@default`, `@example`); nothing for values JSON cannot write. */
function json(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined; // e.g. a cyclic value from YAML anchors
  }
}

/** The lines of a schema's documentation, without comment markers. */
export function docParts(schema: JsonSchema): string[] {
  if (typeof schema !== 'object') return [];
  const parts: string[] = [];
  const title = schema.title?.trim();
  const description = schema.description?.trim();
  const text = [title, description !== title ? description : undefined].filter((part) => part);
  if (text.length) parts.push(text.join('\n\n'));
  if (schema.deprecated) parts.push('@deprecated');
  if (typeof schema.format === 'string' && schema.format) parts.push(`@format ${schema.format}`);
  if (schema.contentMediaType) parts.push(`@contentMediaType ${schema.contentMediaType}`);
  if (schema.contentEncoding) parts.push(`@contentEncoding ${schema.contentEncoding}`);
  for (const fact of FACTS) {
    const value = schema[fact];
    if (typeof value === 'number' || (typeof value === 'string' && value !== '')) parts.push(`@${fact} ${value}`);
  }
  if (schema.default !== undefined) {
    const value = json(schema.default);
    if (value !== undefined) parts.push(`@default ${value}`);
  }
  for (const example of Array.isArray(schema.examples) ? schema.examples : []) {
    const value = json(example);
    if (value !== undefined) parts.push(`@example ${value}`);
  }
  return parts;
}

/** A `/** ... *\/` block (ending in a newline) for `schema`, or `''` when there is nothing to say. */
export function schemaDoc(schema: JsonSchema, indent = ''): string {
  return jsDoc(docParts(schema), indent);
}
