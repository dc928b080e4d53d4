/**
 * `$ref` resolution for the validator emitter (local JSON pointers only) and the analysis of
 * which schemas validate differently for requests and responses (readOnly / writeOnly).
 */
import type { JsonSchema, SchemaObject } from '../../schema/json-schema.js';

/** A schema the emitter cannot turn into a validator (a remote `$ref`, a pointer to nothing). */
export class ValidatorSchemaError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ValidatorSchemaError';
  }
}

export interface Resolved {
  schema: JsonSchema;
  /** Unescaped pointer segments from the document root. */
  pointer: string[];
}

/** Resolves `#`, `#/a/b` (percent- and `~`-escaped) against `doc`. */
export function resolveRef(doc: JsonSchema, ref: string): Resolved {
  if (!ref.startsWith('#')) {
    throw new ValidatorSchemaError(
      `$ref ${JSON.stringify(ref)}: only local references ("#/...") can be compiled; bundle other documents first`,
    );
  }
  const fragment = ref.slice(1);
  if (fragment === '') return { schema: doc, pointer: [] };
  if (!fragment.startsWith('/')) {
    throw new ValidatorSchemaError(`$ref ${JSON.stringify(ref)}: anchors ($anchor) are not supported, only JSON pointers`);
  }
  let decoded: string;
  try {
    decoded = decodeURIComponent(fragment);
  } catch {
    throw new ValidatorSchemaError(`$ref ${JSON.stringify(ref)}: malformed percent-encoding`);
  }
  const pointer = decoded
    .slice(1)
    .split('/')
    .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'));
  let node: unknown = doc;
  for (const token of pointer) {
    if (Array.isArray(node) && /^(0|[1-9][0-9]*)$/.test(token) && Number(token) < node.length) {
      node = node[Number(token)];
    } else if (typeof node === 'object' && node !== null && !Array.isArray(node) && Object.prototype.hasOwnProperty.call(node, token)) {
      node = (node as Record<string, unknown>)[token];
    } else {
      throw new ValidatorSchemaError(`$ref ${JSON.stringify(ref)} points at nothing`);
    }
  }
  if (typeof node !== 'boolean' && (typeof node !== 'object' || node === null || Array.isArray(node))) {
    throw new ValidatorSchemaError(`$ref ${JSON.stringify(ref)} does not point at a schema`);
  }
  return { schema: node as JsonSchema, pointer };
}

/** Subschemas of `schema` in applicator keywords (not `$defs`, not through `$ref`). */
export function childSchemas(schema: SchemaObject): JsonSchema[] {
  const out: JsonSchema[] = [];
  for (const one of [
    schema.items,
    schema.additionalProperties,
    schema.not,
    schema.if,
    schema.then,
    schema.else,
    schema.contains,
    schema.propertyNames,
  ]) {
    if (one !== undefined && !Array.isArray(one)) out.push(one);
  }
  for (const list of [schema.allOf, schema.anyOf, schema.oneOf, schema.prefixItems]) if (Array.isArray(list)) out.push(...list);
  for (const map of [schema.properties, schema.patternProperties]) if (map) out.push(...Object.values(map));
  return out;
}

/** Whether a property's schema carries `flag`, itself or at the top of the schema it references. */
export function marked(doc: JsonSchema, schema: JsonSchema, flag: 'readOnly' | 'writeOnly'): boolean {
  if (typeof schema !== 'object') return false;
  if (schema[flag] === true) return true;
  if (typeof schema.$ref === 'string') {
    try {
      const target = resolveRef(doc, schema.$ref).schema;
      return typeof target === 'object' && target[flag] === true;
    } catch {
      return false;
    }
  }
  return false;
}

/** The `required` names that apply in `dir`: readOnly ones are not required of a client, and so on. */
export function requiredIn(doc: JsonSchema, schema: SchemaObject, dir: 'read' | 'write' | 'plain'): string[] {
  const required = Array.isArray(schema.required) ? schema.required : [];
  if (dir === 'plain') return required;
  const flag = dir === 'write' ? 'readOnly' : 'writeOnly';
  return required.filter((name) => {
    const property = schema.properties?.[name];
    return property === undefined || !marked(doc, property, flag);
  });
}

/**
 * Answers "does the direction change how this schema validates?": true when a required property
 * marked readOnly or writeOnly is reachable (through subschemas and references). Schemas where it
 * does not get one validator for both directions.
 */
export class DirectionAnalysis {
  private readonly memo = new Map<object, boolean>();

  sensitive(doc: JsonSchema, schema: JsonSchema): boolean {
    if (typeof schema !== 'object') return false;
    const cached = this.memo.get(schema);
    if (cached !== undefined) return cached;
    const seen = new Set<object>();
    const stack: SchemaObject[] = [schema];
    let found = false;
    while (stack.length && !found) {
      const node = stack.pop() as SchemaObject;
      if (seen.has(node)) continue;
      seen.add(node);
      const known = this.memo.get(node);
      // A node known insensitive reaches only insensitive schemas: nothing to find below it.
      if (known === false) continue;
      if (known === true || this.direct(doc, node)) found = true;
      const next = childSchemas(node);
      if (typeof node.$ref === 'string') {
        try {
          next.push(resolveRef(doc, node.$ref).schema);
        } catch {
          // Reported when the reference is compiled.
        }
      }
      if (node.discriminator?.mapping) {
        for (const ref of Object.values(node.discriminator.mapping)) {
          try {
            next.push(resolveRef(doc, ref).schema);
          } catch {
            // Reported when the mapping is compiled.
          }
        }
      }
      for (const item of next) if (typeof item === 'object' && item !== null) stack.push(item);
    }
    // A negative answer walked everything `schema` reaches, so it holds for every node visited
    // (each reaches a part of that); a positive one is known only for `schema`.
    if (found) this.memo.set(schema, true);
    else for (const node of seen) this.memo.set(node, false);
    return found;
  }

  private direct(doc: JsonSchema, node: SchemaObject): boolean {
    if (!Array.isArray(node.required) || !node.properties) return false;
    return node.required.some((name) => {
      const property = node.properties?.[name];
      return property !== undefined && (marked(doc, property, 'readOnly') || marked(doc, property, 'writeOnly'));
    });
  }
}

/** Subschemas applied to the same value as `node` (with a label for messages). */
function inPlace(doc: JsonSchema, node: SchemaObject): Array<[string, JsonSchema]> {
  const out: Array<[string, JsonSchema]> = [];
  for (const keyword of ['allOf', 'anyOf', 'oneOf'] as const) {
    const members = node[keyword];
    if (Array.isArray(members)) members.forEach((member, i) => out.push([`${keyword}/${i}`, member]));
  }
  for (const keyword of ['not', 'if', 'then', 'else'] as const) {
    const member = node[keyword];
    if (member !== undefined) out.push([keyword, member]);
  }
  const dependent = (node as { dependentSchemas?: Record<string, JsonSchema> }).dependentSchemas;
  if (dependent && typeof dependent === 'object')
    for (const [name, member] of Object.entries(dependent)) out.push([`dependentSchemas/${name}`, member]);
  const refs = [node.$ref, ...Object.values(node.discriminator?.mapping ?? {})].filter((ref): ref is string => typeof ref === 'string');
  for (const ref of refs) {
    try {
      out.push([ref, resolveRef(doc, ref).schema]);
    } catch {
      // Reported when the reference is compiled.
    }
  }
  return out;
}

/**
 * Rejects schemas whose references loop without ever descending into a property or an item
 * (`a: {$ref: b}`, `b: {allOf: [{$ref: a}]}`): their validator would recurse forever on any value.
 */
export class CycleCheck {
  private readonly state = new Map<object, 'active' | 'done'>();
  private readonly explored = new Set<object>();

  check(doc: JsonSchema, schema: JsonSchema): void {
    const queue: JsonSchema[] = [schema];
    while (queue.length) {
      const node = queue.pop() as JsonSchema;
      if (typeof node !== 'object' || node === null || this.explored.has(node)) continue;
      this.explored.add(node);
      // Its in-place members (references resolved) serve both the loop check and the queue.
      const members = inPlace(doc, node);
      this.visit(doc, node, [], members);
      queue.push(...childSchemas(node), ...members.map(([, member]) => member));
    }
  }

  /** `trail`: the labels from the walk's start to `node` (pushed and popped, read only for the error). */
  private visit(doc: JsonSchema, node: SchemaObject, trail: string[], members?: Array<[string, JsonSchema]>): void {
    const state = this.state.get(node);
    if (state === 'done') return;
    if (state === 'active') {
      throw new ValidatorSchemaError(`schema references loop without reaching a property or item: ${trail.join(' → ')}`);
    }
    this.state.set(node, 'active');
    for (const [label, member] of members ?? inPlace(doc, node)) {
      if (typeof member !== 'object' || member === null) continue;
      trail.push(label);
      this.visit(doc, member, trail);
      trail.pop();
    }
    this.state.set(node, 'done');
  }
}
