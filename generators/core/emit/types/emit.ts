/**
 * The TypeScript type emitter shared by every input style: named JSON Schemas in, declarations
 * that read like careful handwritten code out (interfaces for objects, unions for enums and
 * alternatives, `extends` for `allOf` of objects). Work is linear in the size of the schemas:
 * every named schema is rendered once per direction and references are looked up, never followed.
 *
 * Decisions:
 * - `additionalProperties` absent: no index signature (what openapi-typescript users expect);
 *   `true` or a schema: an index signature whose type also admits the declared properties' types
 *   (and `undefined` for optional ones), since TypeScript checks them against it.
 * - Named enums: a union of literals plus a same-named `as const` object; never a TS `enum`.
 * - `format: binary`, and strings with a non-text `contentMediaType` and no `contentEncoding`, are
 *   `Blob` in both directions (an upload's part, a downloaded file); `contentEncoding: base64` text
 *   is a `string` because that is what travels in JSON.
 * - readOnly properties are left out of the write shape and writeOnly ones out of the read shape;
 *   no `readonly` modifier: OpenAPI's readOnly means "set by the server", not "immutable", and server
 *   code updates such fields.
 * - `allOf`: `interface X extends A, B { ... }` when every named part is an interface and no
 *   property clashes; otherwise an intersection. Inline object parts are merged into one body.
 * - `discriminator`: members whose property is not already the right literal are intersected with
 *   `{ kind: "value" }`; the value is the mapping's key, else the member's name (its NamedSchema
 *   name, which the loader may have re-cased). Children that `allOf` a discriminator parent are
 *   narrowed the same way.
 * - A reference cycle TypeScript cannot express (`type A = B | string; type B = A & {...}`) is cut
 *   with `unknown`; recursion through object members and arrays is kept.
 * - Unsupported keywords (`not`, `if`/`then`/`else`, `propertyNames`, ...) add nothing to the type;
 *   what cannot be expressed is `unknown`, never `any`.
 */
import { isBinarySchema } from '../../schema/binary.js';
import { schemaDoc } from './doc.js';
import { memoized, type ScopedMemo } from '../../pipeline/run-memo.js';
import { declarationKeys } from './declaration-keys.js';
import { cyclicComponents } from './graph.js';
import {
  BLOB,
  BOOLEAN,
  NEVER,
  NULL,
  NUMBER,
  STRING,
  UNKNOWN,
  arrayOf,
  atom,
  intersection,
  literal,
  recordOf,
  tupleElement,
  typeAfter,
  union,
  type TypeText,
} from './text.js';
import type { JsonSchema, JsonType, NamedSchema, SchemaObject } from '../../schema/json-schema.js';
import { jsDoc, jsonLiteral, objectKey, propertyKey } from '../../builder/names.js';
import { refName } from '../../schema/json-schema.js';
import { readWriteNames, type Direction, type ReadWriteNames } from '../../schema/read-write.js';

export type { Direction } from '../../schema/read-write.js';

export interface TypeEmitter {
  /** All declarations for the named schemas, in stable (name-sorted) order, each with JSDoc. Both shapes where read and write differ. */
  declarations(): string;
  /** A TS type expression for a schema used inline (e.g. a parameter), in a direction. */
  typeOf(schema: JsonSchema, direction: Direction, indent?: string): string;
  /** TS type name for a named schema in a direction (from readWriteNames). */
  typeName(name: string, direction: Direction): string;
}

export interface TypeEmitterOptions {
  /** Write `export const X = { ... } as const` beside each named enum's union type. Default true. */
  enumObjects?: boolean;
  /** Write JSDoc from descriptions, titles and constraints. Default true. */
  docs?: boolean;
  /** Schemas used directly by requests; only those and what they reach get request shapes. */
  requestSchemas?: Iterable<string>;
  /** The previous run's declarations (`codegen --watch`): a schema whose key is unchanged is not declared again. */
  memo?: ScopedMemo;
}

/** How a named schema is declared. */
type Kind = 'interface' | 'extends' | 'enum' | 'alias';

/** Where a type is being written. */
interface Context {
  direction: Direction;
  /** Indentation of the line the type starts on. */
  indent: string;
  /** The named schema whose declaration is being written. */
  owner?: string;
  /**
   * True while the position is resolved eagerly by TypeScript (the top of a type alias, through
   * unions and intersections); false inside object members, arrays and index signatures, where a
   * type may refer back to itself.
   */
  eager: boolean;
}

/** An `allOf`, sorted into what can be extended, what can be merged into one object, and the rest. */
interface AllOfPlan {
  /** Named schemas, in order. */
  refs: string[];
  /** The inline object parts (and the schema's own properties) merged, with discriminator values applied. */
  object?: SchemaObject;
  /** Parts written as they are and intersected. */
  others: JsonSchema[];
  /** Discriminator property → the values that select this schema, from parents' `discriminator`. */
  tags: Map<string, string[]>;
}

const UNDEFINED = atom('undefined');
const COMPOSITION = ['$ref', 'allOf', 'anyOf', 'oneOf'] as const;
/** Keywords that give a schema a shape; the rest (description, readOnly, ...) only annotate. */
const STRUCTURE = [
  '$ref',
  'allOf',
  'anyOf',
  'oneOf',
  'type',
  'enum',
  'const',
  'properties',
  'additionalProperties',
  'patternProperties',
  'items',
  'prefixItems',
  'format',
  'contentMediaType',
] as const;

function isObject(schema: JsonSchema | undefined): schema is SchemaObject {
  return typeof schema === 'object' && schema !== null && !Array.isArray(schema);
}

function hasOwn(map: object | undefined, key: string): boolean {
  return map !== undefined && Object.prototype.hasOwnProperty.call(map, key);
}

/** Own entries of a property map (never inherited ones such as `constructor`). */
function entries(map: Record<string, JsonSchema> | undefined): [string, JsonSchema][] {
  return map ? Object.entries(map) : [];
}

function has(schema: SchemaObject, key: keyof SchemaObject): boolean {
  return hasOwn(schema, key) && schema[key] !== undefined;
}

function typesOf(schema: SchemaObject): JsonType[] | undefined {
  if (schema.type === undefined) return undefined;
  return Array.isArray(schema.type) ? schema.type : [schema.type];
}

/** Declared as an object, or not declared at all. */
function objectTyped(schema: SchemaObject): boolean {
  const types = typesOf(schema);
  return types === undefined || (types.length === 1 && types[0] === 'object');
}

/** `{ $ref }` with annotations at most. */
function refOnly(schema: JsonSchema): schema is SchemaObject & { $ref: string } {
  return isObject(schema) && typeof schema.$ref === 'string' && STRUCTURE.every((key) => key === '$ref' || !has(schema, key));
}

/** An object part that can be merged with others: declared properties only, no composition. */
function plainObject(schema: JsonSchema): schema is SchemaObject {
  if (!isObject(schema) || !objectTyped(schema)) return false;
  if (COMPOSITION.some((key) => has(schema, key))) return false;
  if (has(schema, 'enum') || has(schema, 'const') || has(schema, 'items') || has(schema, 'prefixItems')) return false;
  if (has(schema, 'patternProperties') || isObject(schema.additionalProperties)) return false;
  return true;
}

/** A named schema written as a plain `interface`: an object with declared properties and nothing else. */
function interfaceDeclared(schema: SchemaObject): boolean {
  if (!objectTyped(schema) || COMPOSITION.some((key) => has(schema, key)) || has(schema, 'enum') || has(schema, 'const')) return false;
  return Object.keys(schema.properties ?? {}).length > 0;
}

function enumDeclared(schema: SchemaObject): boolean {
  return Array.isArray(schema.enum) && !has(schema, 'const') && !COMPOSITION.some((key) => has(schema, key)) && !has(schema, 'properties');
}

/** The object keywords of a schema, as a schema of their own; undefined when it has none. */
function objectPart(schema: SchemaObject): SchemaObject | undefined {
  const keys = ['properties', 'required', 'additionalProperties', 'patternProperties'] as const;
  if (!keys.some((key) => has(schema, key))) return undefined;
  const part: SchemaObject = { type: 'object' };
  for (const key of keys) if (has(schema, key)) (part as Record<string, unknown>)[key] = schema[key];
  return part;
}

function withoutObjectKeywords(schema: SchemaObject): SchemaObject {
  const { properties: _p, required: _r, additionalProperties: _a, patternProperties: _pp, ...rest } = schema;
  if (rest.type === 'object') delete rest.type;
  return rest;
}

function skipped(schema: JsonSchema, direction: Direction): boolean {
  if (!isObject(schema)) return false;
  return direction === 'read' ? schema.writeOnly === true : schema.readOnly === true;
}

function plainString(schema: JsonSchema | undefined): boolean {
  return (
    isObject(schema) &&
    schema.type === 'string' &&
    !has(schema, 'enum') &&
    !has(schema, 'const') &&
    schema.format !== 'binary' &&
    !has(schema, 'contentMediaType') &&
    !COMPOSITION.some((key) => has(schema, key))
  );
}

function compareNames(a: NamedSchema, b: NamedSchema): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

export function createTypeEmitter(schemas: NamedSchema[], options: TypeEmitterOptions = {}): TypeEmitter {
  const emitter = new Emitter(schemas, options);
  // Plain functions, so callers may pass `types.typeName` around on its own.
  return {
    declarations: () => emitter.declarations(),
    typeOf: (schema, direction, indent) => emitter.typeOf(schema, direction, indent),
    typeName: (name, direction) => emitter.typeName(name, direction),
  };
}

class Emitter implements TypeEmitter {
  private readonly byName = new Map<string, JsonSchema>();
  private readonly readWrite: Map<string, ReadWriteNames>;
  private readonly kinds = new Map<string, Kind>();
  private readonly plans = new Map<string, AllOfPlan>();
  private readonly properties = new Map<string, Map<string, JsonSchema>>();
  private readonly cycles: Map<string, number>;
  private readonly docs: boolean;
  private readonly enumObjects: boolean;
  private readonly memo: ScopedMemo | undefined;

  constructor(
    private readonly schemas: NamedSchema[],
    options: TypeEmitterOptions,
  ) {
    for (const { name, schema } of schemas) this.byName.set(name, schema);
    this.readWrite = readWriteNames(schemas, options.requestSchemas);
    this.docs = options.docs !== false;
    this.enumObjects = options.enumObjects !== false;
    this.memo = options.memo;
    const edges = new Map<string, string[]>();
    for (const { name } of schemas) edges.set(name, this.eagerReferences(name));
    this.cycles = cyclicComponents(edges);
  }

  typeName(name: string, direction: Direction): string {
    const names = this.readWrite.get(name);
    if (!names) throw new Error(`codegen: no schema named ${name}`);
    return names[direction];
  }

  typeOf(schema: JsonSchema, direction: Direction, indent = ''): string {
    return this.render(schema, { direction, indent, eager: false }).text;
  }

  declarations(): string {
    const blocks: string[] = [];
    const keys = this.memo ? declarationKeys(this.schemas, this.sharedKey()) : undefined;
    for (const named of [...this.schemas].sort(compareNames)) {
      const names =
        this.typeName(named.name, 'read') === this.typeName(named.name, 'write') ? (['read'] as const) : (['read', 'write'] as const);
      for (const direction of names) {
        const declare = () => this.declare(named, direction);
        blocks.push(memoized(this.memo, `type ${direction} ${named.name}`, () => keys?.get(named.name) ?? '', declare));
      }
    }
    return blocks.length ? `${blocks.join('\n\n')}\n` : '';
  }

  /** What every declaration reads besides the schemas it reaches: options, type names, cycles. */
  private sharedKey(): string {
    return JSON.stringify([this.docs, this.enumObjects, [...this.readWrite], [...this.cycles]]);
  }

  // ---- declarations ------------------------------------------------------------------------

  private declare(named: NamedSchema, direction: Direction): string {
    const { name, schema } = named;
    const typeName = this.typeName(name, direction);
    const doc = this.doc(schema, '');
    const context: Context = { direction, indent: '', owner: name, eager: true };
    const memberContext: Context = { ...context, indent: '  ' };
    switch (this.kind(name)) {
      case 'interface':
        return `${doc}export interface ${typeName}${this.body(this.members(schema as SchemaObject, memberContext).lines, '')}`;
      case 'extends': {
        const plan = this.plan(name);
        const parents = plan.refs.map((ref) => this.typeName(ref, direction));
        const heritage = parents.length ? ` extends ${parents.join(', ')}` : '';
        const object = this.completed(plan);
        const lines = object ? this.members(object, memberContext).lines : [];
        return `${doc}export interface ${typeName}${heritage}${this.body(lines, '')}`;
      }
      case 'enum': {
        const head = `export type ${typeName} =`;
        const type = this.render(schema, context);
        const alias = `${doc}${head}${typeAfter(head, type)};`;
        if (direction === 'write' || !this.enumObjects) return alias;
        const values = this.enumValues(schema as SchemaObject);
        return values ? `${alias}\n\n${this.enumObject(typeName, values, this.enumDocs(schema as SchemaObject))}` : alias;
      }
      case 'alias': {
        const head = `export type ${typeName} =`;
        const type = this.render(schema, context, name);
        return `${doc}${head}${typeAfter(head, type)};`;
      }
    }
  }

  private body(lines: string[], indent: string): string {
    return lines.length ? ` {\n${lines.join('\n')}\n${indent}}` : ' {}';
  }

  /** The distinct values of a named enum, when all are primitives (so they can be an object's values). */
  private enumValues(schema: SchemaObject): Array<string | number | boolean | null> | undefined {
    const values: Array<string | number | boolean | null> = [];
    const seen = new Set<string>();
    for (const value of schema.enum ?? []) {
      if (
        value !== null &&
        typeof value !== 'string' &&
        typeof value !== 'boolean' &&
        !(typeof value === 'number' && Number.isFinite(value))
      )
        return undefined;
      const text = jsonLiteral(value);
      if (seen.has(text)) continue;
      seen.add(text);
      values.push(value);
    }
    return values.length ? values : undefined;
  }

  /** `export const X = { a: "a", "b-c": "b-c", 1: 1 } as const;` — each key the value's text, made unique. */
  private enumObject(name: string, values: Array<string | number | boolean | null>, docs: Map<string, string>): string {
    const taken = new Set<string>();
    const lines = values.map((value) => {
      const base = String(value);
      let key = base;
      for (let n = 2; taken.has(key); n++) key = `${base}_${n}`;
      taken.add(key);
      return `${jsDoc([docs.get(jsonLiteral(value))], '  ')}  ${objectKey(key)}: ${jsonLiteral(value)},`;
    });
    return `export const ${name} = {\n${lines.join('\n')}\n} as const;`;
  }

  /**
   * Per-value docs of a named enum, by the value's literal: `x-enum-descriptions`, a list beside
   * `enum` (openapi-generator's extension; GraphQL enum values' descriptions arrive the same way).
   */
  private enumDocs(schema: SchemaObject): Map<string, string> {
    const docs = new Map<string, string>();
    const descriptions = (schema as Record<string, unknown>)['x-enum-descriptions'];
    if (!this.docs || !Array.isArray(descriptions)) return docs;
    (schema.enum ?? []).forEach((value, index) => {
      const text: unknown = descriptions[index];
      const key = jsonLiteral(value);
      if (typeof text === 'string' && text.trim() && !docs.has(key)) docs.set(key, text);
    });
    return docs;
  }

  private doc(schema: JsonSchema, indent: string): string {
    return this.docs ? schemaDoc(schema, indent) : '';
  }

  // ---- analysis of named schemas -------------------------------------------------------------

  private schemaOf(name: string): JsonSchema | undefined {
    return this.byName.get(name);
  }

  private kind(name: string): Kind {
    let kind = this.kinds.get(name);
    if (kind) return kind;
    const schema = this.schemaOf(name);
    if (!isObject(schema)) kind = 'alias';
    else if (enumDeclared(schema)) kind = 'enum';
    else if (interfaceDeclared(schema)) kind = 'interface';
    else if (schema.allOf && this.extendable(name, schema)) kind = 'extends';
    else kind = 'alias';
    this.kinds.set(name, kind);
    return kind;
  }

  /**
   * Whether `allOf` can be `interface X extends A, B { ... }`: every named part is itself an
   * interface without an index signature, nothing else is intersected, and no property is declared
   * twice (TypeScript rejects an interface whose parents disagree on a property), except a
   * discriminator property narrowed from a parent's plain `string`.
   */
  private extendable(name: string, schema: SchemaObject): boolean {
    if (this.cycles.has(name) || !objectTyped(schema)) return false;
    if (has(schema, '$ref') || has(schema, 'oneOf') || has(schema, 'anyOf') || has(schema, 'enum') || has(schema, 'const')) return false;
    const plan = this.plan(name);
    if (plan.others.length || (plan.refs.length === 1 && !plan.object) || (!plan.refs.length && !plan.object)) return false;
    const seen = new Map<string, JsonSchema>();
    for (const ref of plan.refs) {
      const kind = this.kind(ref);
      if (kind !== 'interface' && kind !== 'extends') return false;
      const parent = this.schemaOf(ref) as SchemaObject;
      if (parent.patternProperties || (isObject(parent.additionalProperties) && Object.keys(parent.additionalProperties).length))
        return false;
      for (const [key, property] of this.propertiesOf(ref)) {
        // The same property reached twice (a diamond) is the same type; anything else may clash.
        if (seen.has(key) && seen.get(key) !== property) return false;
        seen.set(key, property);
      }
    }
    for (const [key] of entries(plan.object?.properties)) {
      if (seen.has(key) && !(plan.tags.has(key) && plainString(seen.get(key)))) return false;
    }
    return true;
  }

  /** Declared properties of an interface-declared schema, inherited ones included. */
  private propertiesOf(name: string): Map<string, JsonSchema> {
    let result = this.properties.get(name);
    if (result) return result;
    result = new Map();
    this.properties.set(name, result);
    const schema = this.schemaOf(name);
    const kind = this.kind(name);
    if (kind === 'interface' && isObject(schema)) {
      for (const [key, property] of entries(schema.properties)) result.set(key, property);
    } else if (kind === 'extends') {
      const plan = this.plan(name);
      for (const ref of plan.refs) for (const [key, property] of this.propertiesOf(ref)) result.set(key, property);
      for (const [key, property] of entries(plan.object?.properties)) result.set(key, property);
    }
    return result;
  }

  private plan(name: string): AllOfPlan {
    let plan = this.plans.get(name);
    if (!plan) {
      plan = this.buildPlan(this.schemaOf(name) as SchemaObject, name);
      this.plans.set(name, plan);
    }
    return plan;
  }

  /**
   * Sorts `allOf` (plus the schema's own properties) into parents, mergeable object parts and the
   * rest. For a named schema, a parent with a `discriminator` also says which value of the
   * discriminator property selects this schema; a parent whose `oneOf` lists this schema is
   * inlined (its own properties only), since `Pet = Cat | Dog` and `Cat = Pet & {...}` would be
   * circular.
   */
  private buildPlan(schema: SchemaObject, self?: string): AllOfPlan {
    const parts: JsonSchema[] = [...(schema.allOf ?? [])];
    const own = objectPart(schema);
    if (own) parts.push(own);
    const plan: AllOfPlan = { refs: [], others: [], tags: new Map() };
    const objects: SchemaObject[] = [];
    const sort = (part: JsonSchema): void => {
      if (plainObject(part)) objects.push(part);
      else if (part !== true) plan.others.push(part);
    };
    const parents: SchemaObject[] = [];
    for (const part of parts) {
      if (!refOnly(part)) {
        sort(part);
        continue;
      }
      const target = refName(part.$ref);
      const parent = target === undefined ? undefined : this.schemaOf(target);
      if (target === undefined || parent === undefined) {
        plan.others.push(part);
        continue;
      }
      if (self !== undefined && isObject(parent) && parent.discriminator && !has(parent, '$ref')) {
        parents.push(parent);
        const alternatives = [...(parent.oneOf ?? []), ...(parent.anyOf ?? [])];
        if (alternatives.some((alternative) => refOnly(alternative) && refName(alternative.$ref) === self)) {
          const { oneOf: _o, anyOf: _a, discriminator: _d, ...rest } = parent;
          sort(rest);
          continue;
        }
      }
      if (!plan.refs.includes(target)) plan.refs.push(target);
    }

    const properties: Record<string, JsonSchema> = Object.create(null);
    const required = new Set<string>();
    let conflict = false;
    for (const object of objects) {
      for (const [key, property] of entries(object.properties)) {
        if (hasOwn(properties, key)) conflict = true;
        else properties[key] = property;
      }
      for (const key of object.required ?? []) required.add(key);
    }

    if (self !== undefined) {
      for (const parent of parents) {
        const property = parent.discriminator!.propertyName;
        const mapped = Object.entries(parent.discriminator!.mapping ?? {})
          .filter(([, ref]) => refName(ref) === self)
          .map(([tag]) => tag);
        if (mapped.length) plan.tags.set(property, mapped);
        else if (!this.literalsOf(properties[property]) || !required.has(property)) plan.tags.set(property, [self]);
      }
    }

    const tagged = (values: string[], base?: JsonSchema): SchemaObject => {
      const schema: SchemaObject = { enum: values };
      if (isObject(base))
        for (const key of ['title', 'description', 'deprecated', 'readOnly', 'writeOnly'] as const)
          if (has(base, key)) (schema as Record<string, unknown>)[key] = base[key];
      return schema;
    };
    if (conflict) {
      plan.others.push(...objects);
      for (const [property, values] of plan.tags) {
        plan.others.push({ type: 'object', required: [property], properties: { [property]: tagged(values) } });
      }
    } else if (Object.keys(properties).length || required.size || plan.tags.size) {
      for (const [property, values] of plan.tags) {
        properties[property] = tagged(values, hasOwn(properties, property) ? properties[property] : undefined);
        required.add(property);
      }
      plan.object = { type: 'object', properties, required: [...required] };
    }
    return plan;
  }

  /**
   * The plan's merged object, plus the parents' declarations of properties it only lists in
   * `required` (`allOf: [Base, { required: [id] }]` makes `id` required): written again, required.
   */
  private completed(plan: AllOfPlan): SchemaObject | undefined {
    const object = plan.object;
    if (!object) return undefined;
    const missing = (object.required ?? []).filter((key) => !hasOwn(object.properties, key));
    if (missing.length === 0) return object;
    const properties: Record<string, JsonSchema> = Object.assign(Object.create(null), object.properties);
    for (const key of missing) {
      for (const ref of plan.refs) {
        const property = this.propertiesOf(ref).get(key);
        if (property !== undefined) {
          properties[key] = property;
          break;
        }
      }
    }
    return { ...object, properties };
  }

  /** String values a property schema allows when it is a `const` or an `enum` of strings (following references). */
  private literalsOf(schema: JsonSchema | undefined, depth = 0): string[] | undefined {
    if (!isObject(schema) || depth > 16) return undefined;
    if (typeof schema.const === 'string') return [schema.const];
    if (Array.isArray(schema.enum)) return schema.enum.every((value) => typeof value === 'string') ? (schema.enum as string[]) : undefined;
    if (refOnly(schema)) {
      const target = refName(schema.$ref);
      return target === undefined ? undefined : this.literalsOf(this.schemaOf(target), depth + 1);
    }
    if (schema.allOf?.length === 1) return this.literalsOf(schema.allOf[0], depth + 1);
    return undefined;
  }

  /** Discriminator values a named schema already pins its `property` to (when the property is required). */
  private memberLiterals(name: string, property: string, depth = 0): string[] | undefined {
    const schema = this.schemaOf(name);
    if (!isObject(schema) || depth > 16) return undefined;
    if (schema.allOf) {
      const plan = this.plan(name);
      const tags = plan.tags.get(property);
      if (tags) return tags;
      const object = plan.object;
      if (object && hasOwn(object.properties, property) && object.required?.includes(property))
        return this.literalsOf(object.properties![property]);
      for (const ref of plan.refs) {
        const found = this.memberLiterals(ref, property, depth + 1);
        if (found) return found;
      }
      return undefined;
    }
    if (hasOwn(schema.properties, property) && schema.required?.includes(property)) return this.literalsOf(schema.properties![property]);
    return undefined;
  }

  /** Named schemas a declaration refers to in eager positions (where a cycle is an error). */
  private eagerReferences(name: string): string[] {
    const schema = this.schemaOf(name);
    if (!isObject(schema) || enumDeclared(schema) || interfaceDeclared(schema)) return [];
    const found: string[] = [];
    const walk = (node: JsonSchema, top: boolean): void => {
      if (!isObject(node)) return;
      if (typeof node.$ref === 'string') {
        const target = refName(node.$ref);
        if (target !== undefined) found.push(target);
      }
      if (node.allOf) {
        if (top) {
          const plan = this.plan(name);
          found.push(...plan.refs);
          for (const other of plan.others) walk(other, false);
        } else {
          for (const part of node.allOf) walk(part, false);
        }
      }
      for (const alternative of node.oneOf ?? []) walk(alternative, false);
      for (const alternative of node.anyOf ?? []) walk(alternative, false);
    };
    walk(schema, true);
    return found;
  }

  // ---- type expressions ------------------------------------------------------------------------

  private render(schema: JsonSchema, context: Context, self?: string): TypeText {
    if (schema === true) return UNKNOWN;
    if (schema === false) return NEVER;
    if (!isObject(schema)) return UNKNOWN;
    const declared = typesOf(schema);
    const nullable = declared?.includes('null') ?? false;
    const types = declared?.filter((type) => type !== 'null');

    const parts: TypeText[] = [];
    let rest = schema;
    if (typeof schema.$ref === 'string') parts.push(this.reference(schema.$ref, context));
    if (schema.allOf) {
      parts.push(this.renderPlan(self !== undefined ? this.plan(self) : this.buildPlan(schema), context));
      rest = withoutObjectKeywords(schema);
    }
    if (schema.oneOf) parts.push(this.alternatives(schema.oneOf, schema.discriminator, context));
    if (schema.anyOf) parts.push(this.alternatives(schema.anyOf, schema.discriminator, context));
    const own = this.ownType(rest, types, context);

    let result: TypeText;
    if (parts.length === 0) {
      result = own ?? (types !== undefined && types.length === 0 && nullable ? NULL : UNKNOWN);
    } else {
      result = intersection(own && !own.weak ? [...parts, own] : parts);
      if (result === UNKNOWN && own) result = own;
    }
    return nullable ? union([result, NULL]) : result;
  }

  private reference(ref: string, context: Context): TypeText {
    const target = refName(ref);
    if (target === undefined || !this.readWrite.has(target)) return UNKNOWN;
    return this.named(target, context);
  }

  private named(target: string, context: Context): TypeText {
    if (context.eager && context.owner !== undefined) {
      // `type A = B | string; type B = A & {...}` is an error; such a nonsensical cycle becomes `unknown`.
      const component = this.cycles.get(context.owner);
      if (component !== undefined && this.cycles.get(target) === component) return UNKNOWN;
    }
    return atom(this.typeName(target, context.direction), { refs: true });
  }

  private renderPlan(plan: AllOfPlan, context: Context): TypeText {
    const parts = plan.refs.map((ref) => this.named(ref, context));
    const object = this.completed(plan);
    if (object) parts.push(this.objectType(object, context, true));
    for (const other of plan.others) parts.push(this.render(other, context));
    return intersection(parts);
  }

  /** `oneOf`/`anyOf`: a union; with a discriminator, each member pinned to its discriminator value. */
  private alternatives(members: JsonSchema[], discriminator: SchemaObject['discriminator'], context: Context): TypeText {
    if (!discriminator || typeof discriminator.propertyName !== 'string')
      return union(members.map((member) => this.render(member, context)));
    const property = discriminator.propertyName;
    const mapped = new Map<string, string[]>();
    for (const [tag, ref] of Object.entries(discriminator.mapping ?? {})) {
      const target = refName(ref);
      if (target === undefined) continue;
      const tags = mapped.get(target) ?? [];
      tags.push(tag);
      mapped.set(target, tags);
    }
    return union(
      members.map((member) => {
        const type = this.render(member, context);
        const target = refOnly(member) ? refName(member.$ref) : undefined;
        if (target === undefined || !this.readWrite.has(target) || type === UNKNOWN) return type;
        const pinned = this.memberLiterals(target, property);
        let tags = mapped.get(target);
        if (!tags) {
          if (pinned) return type;
          tags = [target];
        } else if (pinned && pinned.every((value) => tags!.includes(value))) {
          return type;
        }
        const value = union(tags.map(literal));
        return intersection([type, atom(`{ ${propertyKey(property)}: ${value.text} }`)]);
      }),
    );
  }

  /** What `type`, `enum`, `const` and the object/array/string keywords say, or undefined when nothing. */
  private ownType(schema: SchemaObject, types: JsonType[] | undefined, context: Context): TypeText | undefined {
    if (hasOwn(schema, 'const') && schema.const !== undefined) return literal(schema.const);
    if (Array.isArray(schema.enum)) return union(schema.enum.map(literal));
    let list = types;
    if (list === undefined) {
      if (has(schema, 'properties') || has(schema, 'additionalProperties') || has(schema, 'patternProperties')) list = ['object'];
      else if (has(schema, 'items') || has(schema, 'prefixItems')) list = ['array'];
      else if (schema.format === 'binary' || has(schema, 'contentMediaType')) list = ['string'];
      else return undefined;
    }
    if (list.length === 0) return undefined;
    return union(
      list.map((type): TypeText => {
        switch (type) {
          case 'string':
            return this.stringType(schema);
          case 'number':
          case 'integer':
            return NUMBER;
          case 'boolean':
            return BOOLEAN;
          case 'object':
            return this.objectType(schema, context, false);
          case 'array':
            return this.arrayType(schema, context);
          default:
            return UNKNOWN;
        }
      }),
    );
  }

  private stringType(schema: SchemaObject): TypeText {
    return isBinarySchema(schema) ? BLOB : STRING;
  }

  private arrayType(schema: SchemaObject, context: Context): TypeText {
    const inner: Context = { ...context, eager: false };
    const prefix = schema.prefixItems ?? [];
    if (prefix.length === 0) {
      if (schema.items === false) return atom('[]');
      if (schema.items === undefined || schema.items === true) return arrayOf(UNKNOWN, true);
      return arrayOf(this.render(schema.items, inner), false, context.indent);
    }
    const minimum = schema.minItems ?? 0;
    const types = prefix.map((item) => this.render(item, inner));
    const elements = types.map((type, index) => tupleElement(type, index >= minimum));
    const closed =
      schema.items === false || (schema.items === undefined && schema.maxItems !== undefined && schema.maxItems <= prefix.length);
    if (!closed) {
      const rest = schema.items === undefined ? UNKNOWN : this.render(schema.items, inner);
      types.push(rest);
      elements.push(`...${arrayOf(rest).text}`);
    }
    return atom(`[${elements.join(', ')}]`, { refs: types.some((type) => type.refs) });
  }

  /**
   * An object type: `{ ... }` with one member per line, `Record<string, T>` with no declared
   * properties. `part` marks an `allOf` part, which is `unknown` (left out) when it adds nothing.
   */
  private objectType(schema: SchemaObject, context: Context, part: boolean): TypeText {
    const { lines, types } = this.members(schema, { ...context, indent: `${context.indent}  ` });
    if (lines.length) {
      return atom(`{\n${lines.join('\n')}\n${context.indent}}`, { refs: types.some((type) => type.refs) });
    }
    const index = this.indexType(schema, { ...context, eager: false });
    if (index) return recordOf(index);
    if (part) return UNKNOWN;
    const declared = Object.keys(schema.properties ?? {}).length > 0;
    if (schema.additionalProperties === false || declared) return atom('Record<string, never>');
    return atom('Record<string, unknown>', { weak: true });
  }

  /** Member lines of an object (properties, then the index signature), indented by `context.indent`. */
  private members(schema: SchemaObject, context: Context): { lines: string[]; types: TypeText[] } {
    const inner: Context = { ...context, eager: false };
    const required = new Set(schema.required ?? []);
    const lines: string[] = [];
    const types: TypeText[] = [];
    let optional = false;
    for (const [key, property] of entries(schema.properties)) {
      if (skipped(property, context.direction)) continue;
      const type = this.render(property, inner);
      const isRequired = required.has(key);
      if (!isRequired) optional = true;
      types.push(type);
      const head = `${context.indent}${propertyKey(key)}${isRequired ? '' : '?'}:`;
      lines.push(`${this.doc(property, context.indent)}${head}${typeAfter(head, type, context.indent)};`);
    }
    if (lines.length === 0) return { lines, types };
    const index = this.indexType(schema, inner);
    if (index) {
      // Every declared property must fit the index signature, so its type admits theirs too.
      let type = union([index, ...types, optional ? UNDEFINED : NEVER]);
      if (type.text.includes('\n') || type.text.length > 80) type = UNKNOWN;
      types.push(type);
      lines.push(`${context.indent}[key: string]: ${type.text};`);
    }
    return { lines, types };
  }

  /** The type of undeclared properties: `additionalProperties` (`true` is `unknown`) and `patternProperties`. */
  private indexType(schema: SchemaObject, context: Context): TypeText | undefined {
    const types: TypeText[] = [];
    const additional = schema.additionalProperties;
    if (additional === true) types.push(UNKNOWN);
    else if (isObject(additional)) types.push(this.render(additional, context));
    for (const [, pattern] of entries(schema.patternProperties)) types.push(this.render(pattern, context));
    return types.length ? union(types) : undefined;
  }
}
