/**
 * AsyncAPI payload schemas → named JSON Schema 2020-12 schemas.
 *
 * AsyncAPI's default schema format is a superset of JSON Schema draft-07, which the schema
 * lowering OpenAPI uses too (core/schema/dialect.ts, 3.1 mode) already reads: draft-07 tuple
 * `items` become `prefixItems`, `x-` and unknown keywords are dropped. Two AsyncAPI differences are
 * handled here before lowering: `discriminator` is a property name (a string), not an object, and a
 * payload may be a Multi Format Schema Object (`{ schemaFormat, schema }`).
 *
 * Naming: a component schema keeps its name (`components.schemas.ChatMessage` → `ChatMessage`), a
 * payload that is only a `$ref` is named after its target, and an inline payload is hoisted as
 * `<MessageName>Payload`.
 */
import type { Documents, Where } from '../core/schema/json-documents.js';
import { at, describe, isObject, locate, own, Problems, resolveRef } from '../core/schema/json-documents.js';
import type { NamedSchema } from '../core/schema/json-schema.js';
import { pascalCase } from '../core/builder/names.js';
import { refName } from '../core/schema/json-schema.js';
import { SchemaRegistry } from '../core/schema/registry.js';

const SCHEMA = ['items', 'additionalItems', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames'];
const SCHEMA_LIST = ['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items'];
const SCHEMA_MAP = ['properties', 'patternProperties', 'definitions', '$defs'];

/** Formats whose schemas are JSON Schema (draft-07 and later) or AsyncAPI's superset of it. */
const JSON_SCHEMA_FORMAT =
  /^application\/(vnd\.aai\.asyncapi(\+json|\+yaml)?;\s*version=3\.\d+\.\d+|schema\+(json|yaml);\s*version=draft-0?7)$/i;

export class PayloadSchemas {
  private readonly registry: SchemaRegistry;
  private readonly normalised = new Set<object>();

  constructor(
    private readonly docs: Documents,
    private readonly problems: Problems,
  ) {
    this.registry = new SchemaRegistry(docs, '3.1', problems);
  }

  /** Registers `components.schemas` first: their names are the ones the user chose. */
  addComponents(schemas: unknown, where: Where): void {
    if (!isObject(schemas)) return;
    for (const name of Object.keys(schemas)) {
      const unwrapped = this.unwrap(schemas[name], at(where, name));
      if (!unwrapped) continue;
      this.normalise(unwrapped.value, unwrapped.where);
      this.registry.add(SchemaRegistry.schemaName(name), unwrapped.value, unwrapped.where, 'component');
    }
  }

  /** The named schema of a message payload; undefined when it could not be read (a problem was added). */
  payload(value: unknown, where: Where, messageName: string): string | undefined {
    if (value === undefined) return this.registry.add(pascalCase(`${messageName} payload`), {}, where, 'operation');
    const unwrapped = this.unwrap(value, where);
    if (!unwrapped) return undefined;
    this.normalise(unwrapped.value, unwrapped.where);
    const schema = this.registry.body(unwrapped.value, unwrapped.where, pascalCase(`${messageName} payload`));
    return typeof schema === 'object' && typeof schema.$ref === 'string' ? refName(schema.$ref) : undefined;
  }

  /** Lowers everything registered; sorted by name. */
  finish(): NamedSchema[] {
    return this.registry.finish();
  }

  /** A Multi Format Schema Object's `schema`, when its format is JSON Schema; the value itself otherwise. */
  private unwrap(value: unknown, where: Where): { value: unknown; where: Where } | undefined {
    if (!isObject(value) || own(value, 'schemaFormat') === undefined || own(value, 'schema') === undefined) return { value, where };
    const format = value.schemaFormat;
    if (typeof format !== 'string' || !JSON_SCHEMA_FORMAT.test(format.trim())) {
      this.problems.add(
        `schemaFormat ${describe(format)} is not supported; codegen reads JSON Schema and AsyncAPI schemas`,
        locate(at(where, 'schemaFormat')),
        'write the payload as a JSON Schema (schemaFormat application/schema+json;version=draft-07, or leave schemaFormat out)',
      );
      return undefined;
    }
    return { value: value.schema, where: at(where, 'schema') };
  }

  /**
   * Rewrites AsyncAPI's `discriminator: kind` to OpenAPI's `{ propertyName: kind }` (same meaning:
   * the property's value names the schema) in the schema and everything it reaches, `$ref`s
   * included. Only schema positions are walked, so example data with a `discriminator` key stays.
   */
  private normalise(value: unknown, where: Where): void {
    if (!isObject(value) || this.normalised.has(value)) return;
    this.normalised.add(value);
    if (typeof value.$ref === 'string') {
      // Dangling references are reported once, when the schema is lowered.
      const target = resolveRef(this.docs, value.$ref, at(where, '$ref'), new Problems());
      if (target) this.normalise(target.value, target);
    }
    if (typeof value.discriminator === 'string') value.discriminator = { propertyName: value.discriminator };
    for (const key of SCHEMA) if (isObject(own(value, key))) this.normalise(value[key], at(where, key));
    for (const key of SCHEMA_LIST) {
      const list = own(value, key);
      if (Array.isArray(list)) list.forEach((item, i) => this.normalise(item, at(at(where, key), i)));
    }
    for (const key of SCHEMA_MAP) {
      const map = own(value, key);
      if (isObject(map)) for (const name of Object.keys(map)) this.normalise(map[name], at(at(where, key), name));
    }
  }
}
