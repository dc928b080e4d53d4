/**
 * Whether a sample value is one its schema accepts, with ajv (JSON Schema 2020-12, formats from
 * ajv-formats): the sample generator (samples.ts) builds values from keywords one at a time, and
 * this is how it learns that a combination failed (a `oneOf` matched twice) and tries other choices.
 * The named schemas are compiled once per direction, as the `$defs` of one document; a schema that
 * is a bare reference to one of them reuses its compiled validator. As OpenAPI says, a required
 * `writeOnly` property is not required of a response, nor a required `readOnly` one of a request.
 */
import { createRequire } from 'node:module';
import type { ValidateFunction } from 'ajv';
import type { JsonSchema, NamedSchema } from './json-schema.js';
import type { SampleCheck as Check, SampleDirection } from './samples.js';

const require = createRequire(import.meta.url);
const DOCUMENT = 'urn:codegen:samples';

export class SampleCheck implements Check {
  private readonly ajv: import('ajv').default;
  private readonly compiled = new Map<string, Map<JsonSchema, ValidateFunction | undefined>>();

  constructor(private readonly schemas: readonly NamedSchema[]) {
    // ajv and ajv-formats are CommonJS; `require` avoids their default-export interop quirks.
    const Ajv = require('ajv/dist/2020.js') as typeof import('ajv').default;
    const addFormats = require('ajv-formats') as typeof import('ajv-formats').default;
    this.ajv = new Ajv({ strict: false, allowUnionTypes: true, logger: false, validateSchema: false });
    addFormats(this.ajv);
  }

  /** Whether `schema` accepts `value` in `direction`; a schema ajv cannot compile accepts nothing. */
  accepts(schema: JsonSchema, value: unknown, direction: SampleDirection): boolean {
    let compiled = this.compiled.get(direction);
    if (!compiled) {
      const $defs = Object.fromEntries(this.schemas.map(({ name, schema }) => [name, forDirection(schema, direction)]));
      this.ajv.addSchema({ $id: `${DOCUMENT}:${direction}`, $defs } as object);
      this.compiled.set(direction, (compiled = new Map()));
    }
    if (!compiled.has(schema)) compiled.set(schema, this.compile(schema, direction));
    return compiled.get(schema)?.(value) === true;
  }

  private compile(schema: JsonSchema, direction: SampleDirection): ValidateFunction | undefined {
    const document = `${DOCUMENT}:${direction}`;
    try {
      if (typeof schema === 'object' && schema.$ref !== undefined && Object.keys(schema).length === 1)
        return this.ajv.getSchema(`${document}${schema.$ref}`);
      const inDocument = JSON.stringify(forDirection(schema, direction)).replaceAll('"#/$defs/', `"${document}#/$defs/`);
      return this.ajv.compile(JSON.parse(inDocument) as object);
    } catch {
      return undefined;
    }
  }
}

/** A copy of `schema` whose `required` lists leave out the properties the direction omits. */
function forDirection(schema: JsonSchema, direction: SampleDirection): JsonSchema {
  const flag = direction === 'response' ? 'writeOnly' : 'readOnly';
  return JSON.parse(JSON.stringify(schema), (_key, value: unknown) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
    const object = value as { required?: unknown; properties?: Record<string, unknown> };
    if (!Array.isArray(object.required) || !object.properties) return value;
    const properties = object.properties;
    const required = object.required.filter((name) => {
      const property = properties[name as string];
      return !(typeof property === 'object' && property !== null && (property as Record<string, unknown>)[flag] === true);
    });
    return { ...object, required };
  }) as JsonSchema;
}
