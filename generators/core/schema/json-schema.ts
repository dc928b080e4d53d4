/**
 * The model every input style shares: data shapes as JSON Schema 2020-12 objects. Each loader lowers
 * its own dialect into it (OpenAPI 3.0's `nullable` and draft-4 booleans, AsyncAPI payloads, GraphQL
 * input and output types, protobuf messages for the REST transcoding), so one type emitter and one
 * validator emitter serve every style. References between named schemas are always written
 * `{ "$ref": "#/$defs/<name>" }`, where `<name>` is the `name` of a `NamedSchema`.
 */
import type { SourceLocation } from '../diagnostics.js';

export type JsonSchema = boolean | SchemaObject;

/** A JSON Schema 2020-12 object, plus the OpenAPI keywords the emitters understand. */
export interface SchemaObject {
  $ref?: string;
  $defs?: Record<string, JsonSchema>;
  type?: JsonType | JsonType[];
  enum?: unknown[];
  const?: unknown;
  title?: string;
  description?: string;
  deprecated?: boolean;
  default?: unknown;
  examples?: unknown[];
  readOnly?: boolean;
  writeOnly?: boolean;
  format?: string;
  // numbers
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  multipleOf?: number;
  // strings
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  contentMediaType?: string;
  contentEncoding?: string;
  // arrays
  items?: JsonSchema;
  prefixItems?: JsonSchema[];
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  contains?: JsonSchema;
  minContains?: number;
  maxContains?: number;
  // objects
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: JsonSchema;
  patternProperties?: Record<string, JsonSchema>;
  propertyNames?: JsonSchema;
  minProperties?: number;
  maxProperties?: number;
  dependentRequired?: Record<string, string[]>;
  // composition
  allOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  not?: JsonSchema;
  if?: JsonSchema;
  then?: JsonSchema;
  else?: JsonSchema;
  /** OpenAPI discriminator, with `mapping` values already rewritten to `#/$defs/<name>`. */
  discriminator?: { propertyName: string; mapping?: Record<string, string> };
  /** Where this schema was written, for messages and for the generated header. */
  'x-location'?: SourceLocation;
}

export type JsonType = 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array' | 'null';

export interface NamedSchema {
  /** Unique, already a valid PascalCase TypeScript identifier. */
  name: string;
  schema: JsonSchema;
  /** `component` for schemas the user named; `operation` for shapes hoisted from an operation. */
  origin: 'component' | 'operation';
  /** OpenAPI: its key under the document's `components.schemas`, as written (`simple-user`). */
  componentKey?: string;
}

/** Name of the schema a `#/$defs/<name>` reference points at, or undefined for other refs. */
export function refName(ref: string): string | undefined {
  const match = /^#\/\$defs\/([^/]+)$/.exec(ref);
  return match ? decodeURIComponent(match[1].replace(/~1/g, '/').replace(/~0/g, '~')) : undefined;
}

/** Visits every subschema of `schema` (not following `$ref`). */
export function forEachSubschema(schema: JsonSchema, visit: (schema: JsonSchema) => void): void {
  if (typeof schema !== 'object') return;
  visit(schema);
  const single = [
    schema.items,
    schema.additionalProperties,
    schema.not,
    schema.if,
    schema.then,
    schema.else,
    schema.contains,
    schema.propertyNames,
  ];
  for (const child of single) if (child !== undefined) forEachSubschema(child, visit);
  for (const list of [schema.allOf, schema.anyOf, schema.oneOf, schema.prefixItems])
    list?.forEach((child) => forEachSubschema(child, visit));
  for (const map of [schema.properties, schema.patternProperties, schema.$defs]) {
    if (map) for (const child of Object.values(map)) forEachSubschema(child, visit);
  }
}
