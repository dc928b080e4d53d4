/**
 * Sample values of JSON Schemas, for mocks (`codegen mock`, `emit: [msw]`): a schema's `examples`
 * when it has some, else a value built from its keywords (types, formats, patterns, bounds, enums,
 * composition, required and additional properties, readOnly/writeOnly by direction), the same for
 * the same seed. Recursion is bounded: past a few levels only what the schema requires is built.
 * A built value is checked against the schema (`SampleCheck`) and rebuilt with other choices when
 * it fails (a `oneOf` that matched twice, a pattern a lookaround rules out); when no attempt passes
 * the schema cannot be sampled, and `sample` says why instead of returning a wrong value.
 */
import { createRequire } from 'node:module';
import { hashKey, Random } from '../mock/seeded-random.js';
import { refName, type JsonSchema, type JsonType, type NamedSchema, type SchemaObject } from './json-schema.js';

/** A response body omits `writeOnly` properties, a request body `readOnly` ones. */
export type SampleDirection = 'response' | 'request';

/** Whether a schema accepts a value, in a direction: sample-check.ts (ajv), declared here so it need not import this module's. */
export interface SampleCheck {
  accepts(schema: JsonSchema, value: unknown, direction: SampleDirection): boolean;
}

export type Sample = { ok: true; value: unknown } | { ok: false; reason: string };

/** Levels of nesting past which only required properties, minimum items and `null` are built. */
const SHALLOW_DEPTH = 4;
/** Levels of nesting at which a schema that still requires more is given up as unbounded. */
const MAX_DEPTH = 24;
/** Attempts (each with its own choices) before a schema is reported as one that cannot be sampled. */
const ATTEMPTS = 12;

// randexp is CommonJS; `require` avoids its default-export interop quirks.
const RandExp = createRequire(import.meta.url)('randexp') as typeof import('randexp').default;

class Unsamplable extends Error {}

const WORDS = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliet', 'kilo', 'lima'];

export class SampleGenerator {
  private readonly named = new Map<string, JsonSchema>();

  constructor(
    schemas: readonly NamedSchema[],
    private readonly check: SampleCheck,
  ) {
    for (const { name, schema } of schemas) this.named.set(name, schema);
  }

  /** A value `schema` accepts, from the examples given first (media type's, then the schema's own), else built. */
  sample(schema: JsonSchema, seed: number, direction: SampleDirection, examples: readonly unknown[] = []): Sample {
    for (const example of examples) if (this.check.accepts(schema, example, direction)) return { ok: true, value: example };
    let reason = 'no attempt built a value the schema accepts';
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const build = new Build(this.named, new Random(hashKey(seed, `attempt ${attempt}`)), direction, attempt > 0);
      try {
        const value = build.value(schema, 0);
        if (this.check.accepts(schema, value, direction)) return { ok: true, value };
      } catch (cause) {
        if (!(cause instanceof Unsamplable)) throw cause;
        reason = cause.message;
      }
    }
    return { ok: false, reason };
  }
}

/** One attempt at building a value: its random choices and the direction it builds for. */
class Build {
  constructor(
    private readonly named: ReadonlyMap<string, JsonSchema>,
    private readonly random: Random,
    private readonly direction: SampleDirection,
    /** Later attempts ignore schema examples, which may be what failed. */
    private readonly skipExamples: boolean,
  ) {}

  value(schema: JsonSchema, depth: number): unknown {
    if (depth > MAX_DEPTH) throw new Unsamplable(`recursion deeper than ${MAX_DEPTH} levels that every value must contain`);
    if (schema === true) return this.word();
    if (schema === false) throw new Unsamplable('the schema `false` accepts no value');
    if (schema.$ref !== undefined) {
      const { $ref, ...rest } = schema;
      const target = this.resolve($ref);
      return this.value(Object.keys(rest).length === 0 ? target : { allOf: [target, rest] }, depth + 1);
    }
    if (!this.skipExamples && schema.examples?.length) return this.random.pick(schema.examples);
    if (schema.const !== undefined) return schema.const;
    if (schema.enum?.length) return this.random.pick(schema.enum);
    if (schema.allOf?.length) {
      const { allOf, ...rest } = schema;
      return this.value(
        allOf.reduce<SchemaObject>((merged, part) => merge(merged, this.flatten(part)), rest),
        depth,
      );
    }
    const branches = schema.oneOf ?? schema.anyOf;
    if (branches?.length) return this.branch(schema, branches, depth);
    const type = this.type(schema, depth);
    switch (type) {
      case 'null':
        return null;
      case 'boolean':
        return this.random.next() < 0.5;
      case 'integer':
      case 'number':
        return this.number(schema, type === 'integer');
      case 'string':
        return this.string(schema);
      case 'array':
        return this.array(schema, depth);
      case 'object':
        return this.object(schema, depth);
    }
  }

  private resolve(ref: string): JsonSchema {
    const name = refName(ref);
    const target = name === undefined ? undefined : this.named.get(name);
    if (target === undefined) throw new Unsamplable(`cannot follow the reference ${ref}`);
    return target;
  }

  /** A schema's keywords with its `$ref`s and `allOf`s merged in, for `allOf`. */
  private flatten(schema: JsonSchema): SchemaObject {
    if (schema === true) return {};
    if (schema === false) throw new Unsamplable('an `allOf` includes `false`');
    let flat: SchemaObject = {};
    const { $ref, allOf, ...rest } = schema;
    if ($ref !== undefined) flat = merge(flat, this.flatten(this.resolve($ref)));
    for (const part of allOf ?? []) flat = merge(flat, this.flatten(part));
    return merge(flat, rest);
  }

  /** One branch of a `oneOf`/`anyOf`, merged with the keywords beside it; the discriminator set. */
  private branch(schema: SchemaObject, branches: JsonSchema[], depth: number): unknown {
    const { oneOf, anyOf, discriminator, ...rest } = schema;
    // Past the shallow depth, a branch that can end the recursion (null, a scalar) is preferred.
    const index = depth >= SHALLOW_DEPTH ? this.shortest(branches) : this.random.int(0, branches.length - 1);
    const chosen = branches[index] as JsonSchema;
    const value = this.value(Object.keys(rest).length === 0 ? chosen : { allOf: [chosen, rest] }, depth + 1);
    if (discriminator && isRecord(value) && typeof chosen === 'object' && chosen.$ref !== undefined) {
      const mapped = Object.entries(discriminator.mapping ?? {}).find(([, ref]) => ref === chosen.$ref)?.[0];
      value[discriminator.propertyName] = mapped ?? refName(chosen.$ref);
    }
    return value;
  }

  private shortest(branches: JsonSchema[]): number {
    const scalar = branches.findIndex((branch) => typeof branch === 'object' && branch.$ref === undefined && !isComposite(branch));
    return scalar >= 0 ? scalar : 0;
  }

  private type(schema: SchemaObject, depth: number): JsonType {
    const declared = schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type];
    const types = declared.length > 0 ? declared : inferredTypes(schema);
    if (depth >= SHALLOW_DEPTH && types.includes('null')) return 'null';
    return types.find((type) => type !== 'null') ?? types[0] ?? 'string';
  }

  private number(schema: SchemaObject, integer: boolean): number {
    let low = schema.minimum ?? -Infinity;
    let high = schema.maximum ?? Infinity;
    const step = integer ? 1 : 0.01;
    if (schema.exclusiveMinimum !== undefined) low = Math.max(low, schema.exclusiveMinimum + step);
    if (schema.exclusiveMaximum !== undefined) high = Math.min(high, schema.exclusiveMaximum - step);
    if (schema.format === 'int32') [low, high] = [Math.max(low, -(2 ** 31)), Math.min(high, 2 ** 31 - 1)];
    if (low === -Infinity) low = high === Infinity ? 0 : high - 1000;
    if (high === Infinity) high = low + 1000;
    if (low > high) throw new Unsamplable(`no number lies between ${low} and ${high}`);
    const multiple = schema.multipleOf ?? (integer ? 1 : undefined);
    if (multiple !== undefined) {
      const first = Math.ceil(low / multiple);
      const last = Math.floor(high / multiple);
      if (first > last) throw new Unsamplable(`no multiple of ${multiple} lies between ${low} and ${high}`);
      return this.random.int(first, Math.min(last, first + 1000)) * multiple;
    }
    const span = Math.min(high - low, 1000);
    return Math.min(high, Math.round((low + this.random.next() * span) * 100) / 100);
  }

  private string(schema: SchemaObject): string {
    const min = schema.minLength ?? 0;
    const max = schema.maxLength ?? Infinity;
    if (schema.pattern !== undefined) return this.patterned(schema.pattern, min, max);
    const formatted = schema.format === undefined ? undefined : this.formatted(schema.format);
    if (formatted !== undefined) return formatted;
    if (schema.contentEncoding === 'base64') return Buffer.from(this.word()).toString('base64');
    let text = this.word();
    while (text.length < min) text += ` ${this.word()}`;
    return text.length > max ? text.slice(0, Math.max(min, max)) : text;
  }

  private patterned(pattern: string, min: number, max: number): string {
    let regex: RegExp;
    try {
      regex = new RegExp(pattern, 'u');
    } catch {
      throw new Unsamplable(`the pattern ${JSON.stringify(pattern)} is not an ECMAScript regular expression`);
    }
    const generator = new RandExp(pattern);
    generator.max = 8;
    generator.randInt = (a: number, b: number) => this.random.int(a, b);
    for (let attempt = 0; attempt < 20; attempt++) {
      const text = generator.gen();
      if (regex.test(text) && [...text].length >= min && [...text].length <= max) return text;
    }
    throw new Unsamplable(`no string generated for the pattern ${JSON.stringify(pattern)} matches it (lookarounds or back-references?)`);
  }

  /** A value of a format the validators check (and a few more); `undefined` for unknown formats. */
  private formatted(format: string): string | undefined {
    const n = this.random.int(1, 99);
    const pad = (value: number) => String(value).padStart(2, '0');
    const date = `20${pad(this.random.int(20, 29))}-${pad(this.random.int(1, 12))}-${pad(this.random.int(1, 28))}`;
    const time = `${pad(this.random.int(0, 23))}:${pad(this.random.int(0, 59))}:${pad(this.random.int(0, 59))}Z`;
    switch (format) {
      case 'date-time':
        return `${date}T${time}`;
      case 'date':
        return date;
      case 'time':
        return time;
      case 'duration':
        return `P${n}D`;
      case 'email':
      case 'idn-email':
        return `${this.word()}${n}@example.com`;
      case 'hostname':
      case 'idn-hostname':
        return `${this.word()}${n}.example.com`;
      case 'ipv4':
        return `192.0.2.${n}`;
      case 'ipv6':
        return `2001:db8::${n}`;
      case 'uri':
      case 'iri':
      case 'url':
        return `https://example.com/${this.word()}/${n}`;
      case 'uri-reference':
      case 'iri-reference':
        return `/${this.word()}/${n}`;
      case 'uri-template':
        return `https://example.com/${this.word()}/{id}`;
      case 'uuid':
        return this.uuid();
      case 'json-pointer':
        return `/${this.word()}/${n}`;
      case 'relative-json-pointer':
        return `0/${this.word()}`;
      case 'regex':
        return `^${this.word()}$`;
      case 'byte':
        return Buffer.from(`${this.word()} ${n}`).toString('base64');
      case 'password':
        return `secret-${this.word()}-${n}`;
      default:
        return undefined;
    }
  }

  private uuid(): string {
    const hex = Array.from({ length: 32 }, () => this.random.int(0, 15).toString(16));
    hex[12] = '4';
    hex[16] = (8 + this.random.int(0, 3)).toString(16);
    const text = hex.join('');
    return `${text.slice(0, 8)}-${text.slice(8, 12)}-${text.slice(12, 16)}-${text.slice(16, 20)}-${text.slice(20)}`;
  }

  private array(schema: SchemaObject, depth: number): unknown[] {
    const prefix = schema.prefixItems ?? [];
    const min = schema.minItems ?? 0;
    const max = schema.maxItems ?? Infinity;
    const wanted = depth >= SHALLOW_DEPTH ? min : Math.max(min, Math.min(max, this.random.int(1, 2)));
    const items: unknown[] = [];
    const seen = new Set<string>();
    for (let i = 0, tries = 0; items.length < Math.max(wanted, schema.contains ? 1 : 0); tries++) {
      if (tries > wanted * 10 + 10) throw new Unsamplable(`cannot build ${wanted} distinct items`);
      const itemSchema = i === 0 && schema.contains ? schema.contains : (prefix[i] ?? schema.items ?? true);
      const item = this.value(itemSchema, depth + 1);
      const key = JSON.stringify(item);
      if (schema.uniqueItems && seen.has(key)) continue;
      seen.add(key);
      items.push(item);
      i++;
    }
    return items;
  }

  private object(schema: SchemaObject, depth: number): Record<string, unknown> {
    const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
    const required = new Set(schema.required ?? []);
    for (const [name, needs] of Object.entries(schema.dependentRequired ?? {}))
      if (required.has(name)) for (const other of needs) required.add(other);
    const properties = schema.properties ?? {};
    const max = schema.maxProperties ?? Infinity;
    const omitted = (property: JsonSchema) =>
      typeof property === 'object' && (this.direction === 'response' ? this.flag(property, 'writeOnly') : this.flag(property, 'readOnly'));
    // A required writeOnly property is required of requests only (OpenAPI), a readOnly one of responses only.
    for (const name of required) {
      const property = properties[name];
      if (property === undefined || !omitted(property)) out[name] = this.value(property ?? this.additional(schema, name), depth + 1);
    }
    if (depth < SHALLOW_DEPTH)
      for (const [name, property] of Object.entries(properties)) {
        if (Object.keys(out).length >= max) break;
        if (name in out || omitted(property) || schema.dependentRequired?.[name]?.length) continue;
        out[name] = this.value(property, depth + 1);
      }
    // A map (no named properties) gets one entry, and an object as many more as minProperties asks.
    const extra = Math.max((schema.minProperties ?? 0) - Object.keys(out).length, !schema.properties && depth < SHALLOW_DEPTH ? 1 : 0);
    for (let i = 1; i <= extra && Object.keys(out).length < max; i++) {
      const name = `${this.word()}${i}`;
      if (!(name in out)) out[name] = this.value(this.additional(schema, name), depth + 1);
    }
    return { ...out };
  }

  /** The schema of a property not in `properties`, when the object allows one. */
  private additional(schema: SchemaObject, name: string): JsonSchema {
    const pattern = Object.entries(schema.patternProperties ?? {}).find(([regex]) => new RegExp(regex, 'u').test(name));
    if (pattern) return pattern[1];
    if (schema.additionalProperties === false) throw new Unsamplable(`the object needs property "${name}", which it does not allow`);
    return schema.additionalProperties ?? true;
  }

  /** Whether `schema` (or what it refers to) is marked `readOnly`/`writeOnly`. */
  private flag(schema: SchemaObject, flag: 'readOnly' | 'writeOnly'): boolean {
    if (schema[flag] === true) return true;
    return (
      schema.$ref !== undefined &&
      typeof this.named.get(refName(schema.$ref) ?? '') === 'object' &&
      this.flag(this.resolve(schema.$ref) as SchemaObject, flag)
    );
  }

  private word(): string {
    return this.random.pick(WORDS);
  }
}

/** The types a schema without `type` is about, from its keywords. */
function inferredTypes(schema: SchemaObject): JsonType[] {
  if (schema.properties || schema.required || schema.additionalProperties !== undefined || schema.patternProperties) return ['object'];
  if (schema.items !== undefined || schema.prefixItems) return ['array'];
  if (schema.minimum !== undefined || schema.maximum !== undefined || schema.multipleOf !== undefined) return ['number'];
  return ['string'];
}

function isComposite(schema: SchemaObject): boolean {
  return (
    ['object', 'array'].some(
      (type) => schema.type === type || (Array.isArray(schema.type) && schema.type.length === 1 && schema.type[0] === type),
    ) || !!schema.properties
  );
}

/** Two sets of keywords that must both hold: properties and required joined, bounds narrowed. */
function merge(a: SchemaObject, b: SchemaObject): SchemaObject {
  const out: SchemaObject = { ...a, ...b };
  if (a.properties && b.properties) {
    out.properties = { ...a.properties };
    for (const [name, schema] of Object.entries(b.properties))
      out.properties[name] = a.properties[name] === undefined ? schema : { allOf: [a.properties[name], schema] };
  }
  if (a.required && b.required) out.required = [...new Set([...a.required, ...b.required])];
  if (a.type !== undefined && b.type !== undefined) {
    const left = Array.isArray(a.type) ? a.type : [a.type];
    const right = Array.isArray(b.type) ? b.type : [b.type];
    const both = left.filter((type) => right.includes(type) || (type === 'integer' && right.includes('number')));
    out.type = both.length > 0 ? both : right.includes('integer') && left.includes('number') ? 'integer' : b.type;
  }
  for (const key of ['minimum', 'minLength', 'minItems', 'minProperties', 'exclusiveMinimum'] as const)
    if (a[key] !== undefined && b[key] !== undefined) out[key] = Math.max(a[key], b[key]);
  for (const key of ['maximum', 'maxLength', 'maxItems', 'maxProperties', 'exclusiveMaximum'] as const)
    if (a[key] !== undefined && b[key] !== undefined) out[key] = Math.min(a[key], b[key]);
  if (a.items !== undefined && b.items !== undefined) out.items = { allOf: [a.items, b.items] };
  return out;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
