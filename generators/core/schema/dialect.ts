/**
 * Schema Objects as OpenAPI 3.0 and 3.1 write them (and AsyncAPI, whose payloads read as 3.1) →
 * JSON Schema 2020-12, the models' one data-shape language.
 *
 * Reads each keyword, checks its value has the right kind (a located error otherwise, and the
 * keyword is dropped so reading goes on), forgives with a warning what other tools read one obvious
 * way (an unknown `type` reads as no type, `allOf: {…}` as a list of one, `required: true` on a
 * property as its name in the parent's `required`), and rewrites the OpenAPI 3.0 dialect:
 * `nullable` becomes a `null` type, boolean `exclusiveMinimum`/`exclusiveMaximum` become numbers,
 * `example` becomes `examples`. `x-*` and unknown keywords are dropped. References are rewritten
 * by the caller's `refTo`, which names the target schema.
 */
import type { JsonSchema, JsonType, SchemaObject } from './json-schema.js';
import type { Problems, Where } from './json-documents.js';
import { at, child, closest, describe, isObject, locate, own, setOwn } from './json-documents.js';
import { multipleOfProblem, patternFlags } from './pattern-rules.js';

export interface SchemaContext {
  /** `3.0` reads `nullable` and boolean exclusive bounds; `3.1` is JSON Schema 2020-12 already. */
  dialect: '3.0' | '3.1';
  problems: Problems;
  /** `#/$defs/<Name>` for the schema `ref` (written at `where`) points to; undefined when dangling. */
  refTo(ref: string, where: Where): string | undefined;
}

const TYPES: JsonType[] = ['string', 'number', 'integer', 'boolean', 'object', 'array', 'null'];
const COMPOSITIONS = new Set(['allOf', 'anyOf', 'oneOf']);

type Kind = 'schema' | 'schemas' | 'schemaMap' | 'number' | 'count' | 'string' | 'boolean' | 'any' | 'list';

const KEYWORDS = new Map<string, Kind>(
  Object.entries({
    items: 'schema',
    additionalProperties: 'schema',
    not: 'schema',
    if: 'schema',
    then: 'schema',
    else: 'schema',
    contains: 'schema',
    propertyNames: 'schema',
    allOf: 'schemas',
    anyOf: 'schemas',
    oneOf: 'schemas',
    prefixItems: 'schemas',
    properties: 'schemaMap',
    patternProperties: 'schemaMap',
    $defs: 'schemaMap',
    minimum: 'number',
    maximum: 'number',
    multipleOf: 'number',
    minLength: 'count',
    maxLength: 'count',
    minItems: 'count',
    maxItems: 'count',
    minProperties: 'count',
    maxProperties: 'count',
    minContains: 'count',
    maxContains: 'count',
    title: 'string',
    description: 'string',
    format: 'string',
    pattern: 'string',
    contentMediaType: 'string',
    contentEncoding: 'string',
    uniqueItems: 'boolean',
    readOnly: 'boolean',
    writeOnly: 'boolean',
    deprecated: 'boolean',
    default: 'any',
    const: 'any',
    enum: 'list',
  } satisfies Record<string, Kind>),
);

const EXPECTED: Record<Kind, [string, string]> = {
  schema: ['a schema (an object, or true/false)', 'write a schema object, e.g. { type: string }'],
  schemas: ['a list of schemas', 'write a list, e.g. [{ $ref: "#/components/schemas/Pet" }, { type: "null" }]'],
  schemaMap: ['an object mapping names to schemas', 'write one key per name, e.g. { name: { type: string } }'],
  number: ['a number', 'write a number without quotes, e.g. 0'],
  count: ['a whole number of 0 or more', 'write a whole number without quotes, e.g. 10'],
  string: ['a string', 'quote the value'],
  boolean: ['true or false', 'write true or false without quotes'],
  any: ['a value', ''],
  list: ['a list of values', 'write a list, e.g. [a, b, c]'],
};

type Reader = (raw: Record<string, unknown>, where: Where, ctx: SchemaContext, out: SchemaObject) => void;

/** Keywords whose values need more than a kind check; `$ref` and `nullable` apply last. */
const SPECIAL = new Map<string, Reader>([
  ['type', (...args) => readType(...args)],
  ['required', (...args) => readRequired(...args)],
  ['exclusiveMinimum', (...args) => readBound('exclusiveMinimum', ...args)],
  ['exclusiveMaximum', (...args) => readBound('exclusiveMaximum', ...args)],
  ['examples', (...args) => readExamples(...args)],
  ['dependentRequired', (...args) => readDependentRequired(...args)],
  ['discriminator', (...args) => readDiscriminator(...args)],
  ['pattern', (...args) => readPattern(...args)],
  ['multipleOf', (...args) => readMultipleOf(...args)],
]);

function fits(kind: Kind, value: unknown): boolean {
  switch (kind) {
    case 'schema':
      return typeof value === 'boolean' || isObject(value);
    case 'schemas':
    case 'list':
      return Array.isArray(value);
    case 'schemaMap':
      return isObject(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'count':
      return typeof value === 'number' && Number.isInteger(value) && value >= 0;
    case 'string':
      return typeof value === 'string';
    case 'boolean':
      return typeof value === 'boolean';
    case 'any':
      return true;
  }
}

/** Deeper than any real schema; stops hostile nesting (or a YAML alias cycle) before the stack does. */
const MAX_DEPTH = 256;
let depth = 0;

/** Lowers the schema `raw`, found at `where`, and everything inside it. */
export function lowerSchema(raw: unknown, where: Where, ctx: SchemaContext): JsonSchema {
  if (depth >= MAX_DEPTH) {
    ctx.problems.add(
      `schema nested more than ${MAX_DEPTH} levels deep`,
      locate(where),
      'split it into named schemas under components.schemas, referenced with $ref',
    );
    return {};
  }
  depth++;
  try {
    return lowerObject(raw, where, ctx);
  } finally {
    depth--;
  }
}

function lowerObject(raw: unknown, where: Where, ctx: SchemaContext): JsonSchema {
  if (typeof raw === 'boolean') return raw;
  if (!isObject(raw)) {
    wrong(ctx, where, 'a schema', 'must be an object (or true/false)', raw, 'write a schema object, e.g. { type: string }');
    return {};
  }
  const out: SchemaObject = {};
  const set = out as Record<string, unknown>;
  /** Properties marked `required: true` (Swagger 2.0 style): required here. */
  const flagged: string[] = [];
  // Keywords are read in the order written, so the lowered schema reads like the input.
  for (const key of Object.keys(raw)) {
    const special = SPECIAL.get(key);
    if (special) {
      special(raw, where, ctx, out);
      continue;
    }
    const kind = KEYWORDS.get(key);
    if (kind === undefined) continue; // unknown keywords and x-* are dropped
    const value = raw[key];
    const keyAt = { doc: where.doc, path: child(where.path, key) };
    if (!fits(kind, value)) {
      if (key === 'items' && Array.isArray(value)) {
        out.prefixItems = value.map((item, i) => lowerSchema(item, { doc: keyAt.doc, path: child(keyAt.path, i) }, ctx)); // draft-4 tuple
        continue;
      }
      if (COMPOSITIONS.has(key) && isObject(value)) {
        ctx.problems.warn(
          `"${key}" must be a list of schemas, not an object; read as a list of this one schema`,
          locate(keyAt),
          `write ${key}: [ ... ] (in YAML, a "- " before the schema)`,
        );
        set[key] = [lowerSchema(value, keyAt, ctx)];
        continue;
      }
      wrong(ctx, keyAt, `"${key}"`, `must be ${EXPECTED[kind][0]}`, value, EXPECTED[kind][1]);
      continue;
    }
    if (kind === 'schema') set[key] = lowerSchema(value, keyAt, ctx);
    else if (kind === 'schemas')
      set[key] = (value as unknown[]).map((item, i) => lowerSchema(item, { doc: keyAt.doc, path: child(keyAt.path, i) }, ctx));
    else if (kind === 'schemaMap') {
      const map: Record<string, unknown> = {};
      for (const name of Object.keys(value as object)) {
        if (key === 'patternProperties' && !validPattern(name, { doc: keyAt.doc, path: child(keyAt.path, name) }, 'key', ctx)) continue;
        const property = (value as Record<string, unknown>)[name];
        if (key === 'properties' && requiredFlag(property, name, { doc: keyAt.doc, path: child(keyAt.path, name) }, ctx))
          flagged.push(name);
        setOwn(map, name, lowerSchema(property, { doc: keyAt.doc, path: child(keyAt.path, name) }, ctx));
      }
      set[key] = map;
    } else set[key] = value;
  }
  if (flagged.length) out.required = [...new Set([...(out.required ?? []), ...flagged])];
  if (typeof raw.exclusiveMinimum === 'boolean' || typeof raw.exclusiveMaximum === 'boolean') booleanBounds(raw, out);
  if (raw.example !== undefined && out.examples === undefined) out.examples = [raw.example];
  let result: SchemaObject = readRef(raw, where, ctx, out);
  if (ctx.dialect === '3.0' && raw.nullable !== undefined) {
    if (typeof raw.nullable !== 'boolean')
      wrong(ctx, at(where, 'nullable'), '"nullable"', 'must be true or false', raw.nullable, 'write true or false without quotes');
    else if (raw.nullable) result = nullable(result);
  }
  return result;
}

function wrong(ctx: SchemaContext, where: Where, what: string, expected: string, value: unknown, hint: string): void {
  ctx.problems.add(`${what} ${expected}, not ${describe(value)}`, locate(where), hint || undefined);
}

/** An unknown type reads as no type at all (any value), as openapi-typescript and hey-api read it. */
function readType(raw: Record<string, unknown>, where: Where, ctx: SchemaContext, out: SchemaObject): void {
  const type = raw.type;
  const list = Array.isArray(type) ? type : [type];
  const good: JsonType[] = [];
  let unknown = false;
  list.forEach((item, i) => {
    const place = Array.isArray(type) ? { doc: where.doc, path: child(child(where.path, 'type'), i) } : at(where, 'type');
    if (typeof item === 'string' && (TYPES as string[]).includes(item)) {
      if (!good.includes(item as JsonType)) good.push(item as JsonType);
      return;
    }
    unknown = true;
    const what = typeof item === 'string' ? `"type: ${item}" is not a JSON Schema type` : `"type" must name a type, not ${describe(item)}`;
    ctx.problems.warn(`${what}; read as a schema of any type`, locate(place), typeHint(item));
  });
  if (good.length && !unknown) out.type = Array.isArray(type) ? good : good[0];
}

/** Types other languages have, and how JSON Schema says them. */
const TYPE_SPELLINGS = new Map(
  Object.entries({
    file: 'OpenAPI 3 has no file type: write type: string with format: binary (or contentMediaType in 3.1)',
    date: 'write type: string with format: date',
    'date-time': 'write type: string with format: date-time',
    datetime: 'write type: string with format: date-time',
    int: 'write type: integer',
    int32: 'write type: integer with format: int32',
    int64: 'write type: integer with format: int64',
    long: 'write type: integer with format: int64',
    float: 'write type: number with format: float',
    double: 'write type: number with format: double',
    decimal: 'write type: number',
    bool: 'write type: boolean',
    any: 'leave "type" out: a schema without one takes any value',
    dict: 'write type: object',
    map: 'write type: object',
  }),
);

function typeHint(item: unknown): string {
  const spelled = typeof item === 'string' ? TYPE_SPELLINGS.get(item.toLowerCase()) : undefined;
  if (spelled) return spelled;
  const near = typeof item === 'string' ? closest(item, TYPES) : undefined;
  return `${near ? `did you mean "${near}"? ` : ''}"type" is one of ${TYPES.join(', ')}, or leave it out for any value`;
}

const PATTERN_HINT = 'write an ECMA-262 regular expression, e.g. "^[a-z0-9-]+$" (in YAML, single quotes keep backslashes as written)';

/** Whether `pattern` compiles; a located problem otherwise (the validators could not be generated). */
function validPattern(pattern: string, where: Where, part: 'key' | 'value', ctx: SchemaContext): boolean {
  const compiled = patternFlags(pattern);
  if ('flags' in compiled) return true;
  const what = part === 'key' ? 'the "patternProperties" name' : '"pattern"';
  ctx.problems.add(
    `${what} ${JSON.stringify(pattern)} is not a valid regular expression: ${compiled.problem}`,
    locate(where, part),
    PATTERN_HINT,
  );
  return false;
}

function readPattern(raw: Record<string, unknown>, where: Where, ctx: SchemaContext, out: SchemaObject): void {
  const value = raw.pattern;
  if (typeof value !== 'string') wrong(ctx, at(where, 'pattern'), '"pattern"', 'must be a string', value, 'quote the value');
  else if (validPattern(value, at(where, 'pattern'), 'value', ctx)) out.pattern = value;
}

function readMultipleOf(raw: Record<string, unknown>, where: Where, ctx: SchemaContext, out: SchemaObject): void {
  const value = raw.multipleOf;
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    wrong(ctx, at(where, 'multipleOf'), '"multipleOf"', 'must be a number', value, 'write a number without quotes, e.g. 0.01');
    return;
  }
  const problem = multipleOfProblem(value);
  if (problem)
    ctx.problems.add(
      `"multipleOf" ${problem}`,
      locate(at(where, 'multipleOf')),
      'write a positive number, e.g. multipleOf: 0.01 (or leave it out)',
    );
  else out.multipleOf = value;
}

function readRequired(raw: Record<string, unknown>, where: Where, ctx: SchemaContext, out: SchemaObject): void {
  const required = raw.required;
  if (Array.isArray(required) && required.every((name) => typeof name === 'string')) {
    out.required = [...new Set(required as string[])];
    return;
  }
  // On a property, the parent schema has read it already (requiredFlag).
  if (typeof required === 'boolean' && where.path?.parent?.key === 'properties') return;
  if (typeof required === 'boolean') {
    ctx.problems.warn(
      `"required: ${required}" outside "properties" says nothing about this schema; ignored`,
      locate(at(where, 'required')),
      'list required properties on their object schema: required: [name]; remove this one',
    );
    return;
  }
  wrong(
    ctx,
    at(where, 'required'),
    '"required"',
    'must be a list of property names',
    required,
    'write a list of property names, e.g. required: [id, name]',
  );
}

/**
 * `required: true` on a property (Swagger 2.0 habit, and parameter style): the property is required
 * in its parent, as hey-api and openapi-generator read it. Returns whether it marks the property required.
 */
function requiredFlag(property: unknown, name: string, where: Where, ctx: SchemaContext): boolean {
  const flag = own(property, 'required');
  if (typeof flag !== 'boolean') return false;
  const place = locate(at(where, 'required'));
  if (flag) {
    ctx.problems.warn(
      `"required: true" on property "${name}" is not JSON Schema (a Swagger 2.0 habit); read as required: [${name}] on its parent schema`,
      place,
      `write required: [${name}] beside "properties", and remove "required" from the property`,
    );
  } else {
    ctx.problems.warn(
      `"required: false" on property "${name}" is not JSON Schema; ignored (the property is optional)`,
      place,
      'remove it: a property is optional unless its parent lists it under required',
    );
  }
  return flag;
}

function readBound(
  key: 'exclusiveMinimum' | 'exclusiveMaximum',
  raw: Record<string, unknown>,
  where: Where,
  ctx: SchemaContext,
  out: SchemaObject,
): void {
  const value = raw[key];
  if (typeof value === 'number' && Number.isFinite(value)) out[key] = value;
  else if (typeof value !== 'boolean')
    wrong(ctx, at(where, key), `"${key}"`, 'must be a number', value, 'write a number without quotes, e.g. 0');
}

/** 3.0 (draft 4) writes exclusive bounds as booleans beside minimum/maximum; 2020-12 as numbers. */
function booleanBounds(raw: Record<string, unknown>, out: SchemaObject): void {
  for (const [key, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (raw[key] === true && typeof out[bound] === 'number') {
      out[key] = out[bound];
      delete out[bound];
    }
  }
}

function readExamples(raw: Record<string, unknown>, where: Where, ctx: SchemaContext, out: SchemaObject): void {
  if (Array.isArray(raw.examples)) out.examples = raw.examples;
  else if (ctx.dialect === '3.1') {
    wrong(
      ctx,
      at(where, 'examples'),
      '"examples"',
      'must be a list of example values',
      raw.examples,
      'write a list, e.g. examples: [42]; or use example: 42',
    );
  }
}

function readDependentRequired(raw: Record<string, unknown>, where: Where, ctx: SchemaContext, out: SchemaObject): void {
  const value = raw.dependentRequired;
  const ok = isObject(value) && Object.values(value).every((list) => Array.isArray(list) && list.every((name) => typeof name === 'string'));
  if (!ok) {
    wrong(
      ctx,
      at(where, 'dependentRequired'),
      '"dependentRequired"',
      'must map property names to lists of property names',
      value,
      'write e.g. dependentRequired: { creditCard: [billingAddress] }',
    );
    return;
  }
  const map: Record<string, string[]> = {};
  for (const name of Object.keys(value)) setOwn(map, name, [...(value[name] as string[])]);
  out.dependentRequired = map;
}

function readDiscriminator(raw: Record<string, unknown>, where: Where, ctx: SchemaContext, out: SchemaObject): void {
  const value = raw.discriminator;
  const place = at(where, 'discriminator');
  if (!isObject(value) || typeof value.propertyName !== 'string') {
    const what = isObject(value) ? value.propertyName : value;
    wrong(
      ctx,
      isObject(value) ? at(place, 'propertyName') : place,
      '"discriminator.propertyName"',
      'must be a string',
      what,
      'write discriminator: { propertyName: kind }',
    );
    return;
  }
  const discriminator: { propertyName: string; mapping?: Record<string, string> } = { propertyName: value.propertyName };
  const mapping = value.mapping;
  if (mapping !== undefined && !isObject(mapping)) {
    wrong(
      ctx,
      at(place, 'mapping'),
      '"discriminator.mapping"',
      'must map values to schemas',
      mapping,
      'write mapping: { dog: "#/components/schemas/Dog" }',
    );
  } else if (mapping) {
    const rewritten: Record<string, string> = {};
    for (const tag of Object.keys(mapping)) {
      const target = mapping[tag];
      const entry = at(at(place, 'mapping'), tag);
      if (typeof target !== 'string') {
        wrong(
          ctx,
          entry,
          `"discriminator.mapping.${tag}"`,
          'must be a schema name or a reference',
          target,
          'write e.g. "#/components/schemas/Dog"',
        );
        continue;
      }
      // A bare name (no `#`, no path) names a schema under components.schemas.
      const ref =
        /^[^#/]+$/.test(target) && !/\.(ya?ml|json)$/i.test(target)
          ? `#/components/schemas/${target.replace(/~/g, '~0').replace(/%/g, '%25')}`
          : target;
      const name = ctx.refTo(ref, entry);
      if (name) setOwn(rewritten, tag, name);
    }
    discriminator.mapping = rewritten;
  }
  out.discriminator = discriminator;
}

/** `$ref` with sibling keywords (allowed in 3.1, common in 3.0): the siblings apply too, via allOf. */
function readRef(raw: Record<string, unknown>, where: Where, ctx: SchemaContext, out: SchemaObject): SchemaObject {
  const ref = raw.$ref;
  if (ref === undefined) return out;
  const place = at(where, '$ref');
  if (typeof ref !== 'string') {
    wrong(ctx, place, '"$ref"', 'must be a string', ref, 'write the reference as a string, e.g. "#/components/schemas/Pet"');
    return out;
  }
  const target = ctx.refTo(ref, place);
  if (target === undefined) return out;
  const node: SchemaObject = { $ref: target };
  if (Object.keys(out).length === 0) return node;
  return { ...out, allOf: [node, ...(out.allOf ?? [])] };
}

const ANNOTATIONS = ['title', 'description', 'default', 'deprecated', 'readOnly', 'writeOnly', 'examples'] as const;

/** OpenAPI 3.0 `nullable: true`: null is allowed as well as what the schema says. */
function nullable(schema: SchemaObject): SchemaObject {
  const composed = schema.$ref !== undefined || schema.allOf || schema.anyOf || schema.oneOf;
  if (!composed && schema.type !== undefined) {
    const types = Array.isArray(schema.type) ? schema.type : [schema.type];
    const result: SchemaObject = { ...schema, type: types.includes('null') ? types : [...types, 'null'] };
    if (result.enum && !result.enum.includes(null)) result.enum = [...result.enum, null];
    return result;
  }
  if (!composed) {
    if (schema.enum && !schema.enum.includes(null)) return { ...schema, enum: [...schema.enum, null] };
    return schema; // no type: null is allowed already
  }
  // Composition (or a $ref) cannot take a null type beside it: wrap, keeping annotations outside.
  const inner: SchemaObject = { ...schema };
  const outer: SchemaObject = {};
  for (const key of ANNOTATIONS) {
    if (inner[key] !== undefined) {
      (outer as Record<string, unknown>)[key] = inner[key];
      delete inner[key];
    }
  }
  outer.anyOf = [inner, { type: 'null' }];
  return outer;
}
