/**
 * Which inline subschemas become functions of their own. Large ones do, so that functions stay
 * short, and so that identical copies (dereferenced specs repeat the same inline object dozens of
 * times) share one function instead of each being emitted in place.
 */
import type { JsonSchema } from '../../schema/json-schema.js';
import { validation } from './scalars.js';

/** Validation keywords in a subtree at or above which an inline subschema gets its own function. */
export const HOIST_WEIGHT = 10;

const SCHEMA_MAPS = new Set(['properties', 'patternProperties', 'dependentSchemas', '$defs', 'definitions']);
const SCHEMA_LISTS = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);
const SCHEMA_ONES = new Set(['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames']);

const weights = new WeakMap<object, number>();

/** Number of validation keywords in `schema` and its inline subschemas (references count once). */
export function weight(schema: JsonSchema): number {
  if (typeof schema !== 'object' || schema === null) return 0;
  const cached = weights.get(schema);
  if (cached !== undefined) return cached;
  let total = 0;
  for (const [keyword, value] of Object.entries(schema)) {
    if (SCHEMA_MAPS.has(keyword) && value && typeof value === 'object') {
      if (keyword !== '$defs' && keyword !== 'definitions') {
        for (const child of Object.values(value as Record<string, JsonSchema>)) total += 1 + weight(child);
      }
    } else if (SCHEMA_LISTS.has(keyword) && Array.isArray(value)) {
      for (const child of value as JsonSchema[]) total += 1 + weight(child);
    } else if (SCHEMA_ONES.has(keyword)) {
      total += 1 + weight(value as JsonSchema);
    } else if (validation(keyword)) {
      total += 1;
    }
  }
  weights.set(schema, total);
  return total;
}

const ANNOTATIONS = new Set([
  'title',
  'description',
  'examples',
  'example',
  'default',
  'deprecated',
  '$comment',
  'x-location',
  'externalDocs',
  'xml',
]);
const keys = new WeakMap<object, string>();
/** Each distinct key's short stand-in, so a parent's key names its children instead of embedding their keys. */
const interned = new Map<string, string>();

/**
 * A text equal for two schemas exactly when they validate alike: the schema without its
 * annotations (descriptions, examples, ...), walked by keyword so that a property *named*
 * "description" is kept. Subschemas appear by an interned id of their own key, so keys stay
 * linear in the schema's size (embedding whole child keys made them grow with every level).
 */
export function structuralKey(schema: JsonSchema): string {
  if (typeof schema !== 'object' || schema === null) return JSON.stringify(schema);
  const cached = keys.get(schema);
  if (cached !== undefined) return cached;
  const parts: string[] = [];
  for (const [keyword, value] of Object.entries(schema)) {
    if (ANNOTATIONS.has(keyword) || keyword.startsWith('x-')) continue;
    let text: string;
    if (SCHEMA_MAPS.has(keyword) && value && typeof value === 'object' && !Array.isArray(value)) {
      text = mapKey(value as Record<string, JsonSchema>);
    } else if (SCHEMA_LISTS.has(keyword) && Array.isArray(value)) {
      text = `[${(value as JsonSchema[]).map(childKey).join(',')}]`;
    } else if (SCHEMA_ONES.has(keyword) && !Array.isArray(value)) {
      text = childKey(value as JsonSchema);
    } else {
      text = JSON.stringify(value) ?? 'undefined';
    }
    parts.push(`${JSON.stringify(keyword)}:${text}`);
  }
  const key = `{${parts.join(',')}}`;
  keys.set(schema, key);
  return key;
}

const mapKeys = new WeakMap<object, string>();

/**
 * A map of subschemas (`properties`, `$defs`, ...) inside its parent's key, by interned id and
 * cached per map object: the server's parameter documents all share the API's `$defs` (~1,000
 * schemas on GitHub's API), which would otherwise be spelled out again in each document's key.
 */
function mapKey(map: Record<string, JsonSchema>): string {
  const cached = mapKeys.get(map);
  if (cached !== undefined) return cached;
  const text = `{${Object.entries(map)
    .map(([name, child]) => `${JSON.stringify(name)}:${childKey(child)}`)
    .join(',')}}`;
  const id = intern(text);
  mapKeys.set(map, id);
  return id;
}

function intern(key: string): string {
  let id = interned.get(key);
  if (id === undefined) {
    id = `#${interned.size}`;
    interned.set(key, id);
  }
  return id;
}

/** A subschema inside its parent's key: booleans as themselves, objects by interned id. */
function childKey(schema: JsonSchema): string {
  if (typeof schema !== 'object' || schema === null) return JSON.stringify(schema);
  return intern(structuralKey(schema));
}
