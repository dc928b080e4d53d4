/**
 * Whether a sample value is one its schema accepts, with ajv (JSON Schema 2020-12, formats from
 * ajv-formats): the sample generator (samples.ts) builds values from keywords one at a time, and
 * this is how it learns that a combination failed (a `oneOf` matched twice) and tries other choices.
 * The named schemas are compiled once, as the `$defs` of one document; a schema that is a bare
 * reference to one of them reuses its compiled validator.
 */
import { createRequire } from 'node:module';
import type { ValidateFunction } from 'ajv';
import type { JsonSchema, NamedSchema } from './json-schema.js';

const require = createRequire(import.meta.url);
const DOCUMENT = 'urn:codegen:samples';

export class SampleCheck {
  private readonly ajv: import('ajv').default;
  private readonly compiled = new Map<JsonSchema, ValidateFunction | undefined>();

  constructor(schemas: readonly NamedSchema[]) {
    // ajv and ajv-formats are CommonJS; `require` avoids their default-export interop quirks.
    const Ajv = require('ajv/dist/2020.js') as typeof import('ajv').default;
    const addFormats = require('ajv-formats') as typeof import('ajv-formats').default;
    this.ajv = new Ajv({ strict: false, allowUnionTypes: true, logger: false, validateSchema: false });
    addFormats(this.ajv);
    const $defs = Object.fromEntries(schemas.map(({ name, schema }) => [name, schema]));
    this.ajv.addSchema({ $id: DOCUMENT, $defs } as object);
  }

  /** Whether `schema` accepts `value`; a schema ajv cannot compile accepts nothing. */
  accepts(schema: JsonSchema, value: unknown): boolean {
    if (!this.compiled.has(schema)) this.compiled.set(schema, this.compile(schema));
    return this.compiled.get(schema)?.(value) === true;
  }

  private compile(schema: JsonSchema): ValidateFunction | undefined {
    try {
      if (typeof schema === 'object' && schema.$ref !== undefined && Object.keys(schema).length === 1)
        return this.ajv.getSchema(`${DOCUMENT}${schema.$ref}`);
      const inDocument = JSON.parse(JSON.stringify(schema).replaceAll('"#/$defs/', `"${DOCUMENT}#/$defs/`)) as object;
      return this.ajv.compile(inDocument);
    } catch {
      return undefined;
    }
  }
}
