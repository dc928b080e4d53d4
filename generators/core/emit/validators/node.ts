/**
 * Emits the checks of one schema object in place: `const`/`enum`, then `type` and the keywords
 * of each kind of value, then `$ref` and the applicators. Large subschemas, references, and
 * subschemas needed as yes/no answers become calls to functions of their own.
 */
import type { JsonSchema, SchemaObject } from '../../schema/json-schema.js';
import { Body, bounded, call, check, fail, gate, references, type Scope } from './code.js';
import { ValidatorSchemaError, resolveRef } from './refs.js';
import type { ValidatorModule } from './module.js';
import {
  GROUP_KEYWORDS,
  UNSUPPORTED,
  constEnumChecks,
  groupGuard,
  groupOf,
  has,
  numberChecks,
  scalarExpression,
  stringChecks,
  trivial,
  typeFailed,
  typeList,
  typeMessage,
  validation,
  type CheckType,
  type Group,
} from './scalars.js';
import { emitObjectKeywords } from './objects.js';
import { emitArrayKeywords } from './arrays.js';
import { emitApplicators } from './applicators.js';
import { HOIST_WEIGHT, weight } from './hoist.js';
import type { Emitter } from './emitter.js';

export function location(scope: Scope): string {
  return `/${scope.pointer.join('/')}`;
}

export function createEmitter(m: ValidatorModule): Emitter {
  const emitter: Emitter = {
    m,
    emit: (schema, scope, body) => {
      // A large inline subschema is called like a reference (see emit-validators-hoist.ts).
      if (typeof schema === 'object' && schema !== null && weight(schema) >= HOIST_WEIGHT)
        emitCall(emitter, schema, scope.pointer, scope, body);
      else emitSchema(emitter, schema, scope, body);
    },
    test: (schema, scope) => testSchema(emitter, schema, scope),
    ref: (ref, scope, body) => emitRef(emitter, ref, scope, body),
    root: (schema, scope, body) => emitSchema(emitter, schema, scope, body),
  };
  return emitter;
}

export function asObject(schema: unknown, scope: Scope): SchemaObject | boolean {
  if (typeof schema === 'boolean') return schema;
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    throw new ValidatorSchemaError(`the schema at ${location(scope)} must be an object or a boolean`);
  }
  return schema as SchemaObject;
}

function reportUnsupported(m: ValidatorModule, schema: SchemaObject, scope: Scope): void {
  for (const keyword of UNSUPPORTED) if (has(schema, keyword)) m.options.onUnsupported(keyword, location(scope));
  if (Array.isArray(schema.items)) m.options.onUnsupported('items (array form)', location(scope));
  // An embedded resource would change what `#` means inside it.
  if (has(schema, '$id') && scope.pointer.length > 0) m.options.onUnsupported('$id', location(scope));
}

function emitSchema(e: Emitter, raw: JsonSchema, scope: Scope, body: Body): void {
  const schema = asObject(raw, scope);
  if (schema === true) return;
  if (schema === false) {
    fail(scope, body, 'false', 'is not allowed');
    return;
  }
  reportUnsupported(e.m, schema, scope);
  const s = scope;
  emitTyped(e, schema, s, body);
  const rest = { ...s, fresh: false };
  if (typeof schema.$ref === 'string') emitRef(e, schema.$ref, rest, body);
  emitApplicators(e, schema, rest, body);
}

/**
 * Objects and arrays are read through a local of a usable type (`typeof x === "object"` only
 * narrows to `object`, `Array.isArray` to `any[]`); strings and numbers are narrowed in place.
 */
const LOCAL_PREFIX: Record<'object' | 'array', string> = { object: 'o', array: 'a' };
const LOCAL_TYPE: Record<'object' | 'array', string> = { object: 'Record<string, unknown>', array: 'unknown[]' };

/**
 * `type`, then `const`/`enum` and the keywords of each kind of value, guarded by the kind when
 * `type` allows several. A value of the wrong type gets the `type` error only: `enum` and `const`
 * are checked once the type is right (ajv's allErrors would add "must be equal to one of the
 * allowed values", which says nothing the type error does not).
 */
function emitTyped(e: Emitter, schema: SchemaObject, s: Scope, body: Body): void {
  const types = typeList(schema, s.pointer);
  const groups = (Object.keys(GROUP_KEYWORDS) as Group[]).filter((group) => GROUP_KEYWORDS[group].some((keyword) => has(schema, keyword)));
  const guarded = (group: Group, into: Body) => into.if(groupGuard(group, s.value), (inner) => emitGroup(e, schema, group, s, inner));
  if (!types) {
    for (const item of constEnumChecks(e.m, schema, s)) check(s, body, item.failed, item.keyword, item.message);
    for (const group of groups) guarded(group, body);
    return;
  }
  gate(s, body, typeFailed(types, s.value), 'type', typeMessage(types), (inner) => {
    // The type test narrowed the value: literals of another type are compared through `unknown`.
    const narrowed = s.fresh && literalsFit(schema, types) ? s : { ...s, fresh: false };
    for (const item of constEnumChecks(e.m, schema, narrowed)) check(s, inner, item.failed, item.keyword, item.message);
    for (const group of groups) {
      if (!types.some((type) => groupOf(type) === group)) continue;
      if (types.every((type) => groupOf(type) === group)) emitGroup(e, schema, group, s, inner);
      else guarded(group, inner);
    }
  });
}

/** Whether every primitive of `const`/`enum` is of one of `types` (so comparing it type-checks). */
function literalsFit(schema: SchemaObject, types: CheckType[]): boolean {
  const values = [...(has(schema, 'const') ? [schema.const] : []), ...(Array.isArray(schema.enum) ? schema.enum : [])];
  return values.every((value) => {
    if (value === null) return types.includes('null');
    if (typeof value === 'string') return types.includes('string');
    if (typeof value === 'boolean') return types.includes('boolean');
    if (typeof value === 'number') return types.includes('number') || (types.includes('integer') && Number.isInteger(value));
    return true;
  });
}

/** The keywords of one kind of value, where the value is known to be of that kind. */
function emitGroup(e: Emitter, schema: SchemaObject, group: Group, s: Scope, body: Body): void {
  const scope = { ...s, fresh: false };
  if (group === 'string' || group === 'number') {
    // An enclosing condition may already have narrowed the value (to `never`, in a contradictory schema).
    const subject = s.fresh ? s.value : `(${s.value} as ${group})`;
    const checks = group === 'string' ? stringChecks(e.m, schema, subject, s.pointer) : numberChecks(e.m, schema, subject, s.pointer);
    bounded(
      scope,
      body,
      checks.filter((item) => item.bound),
      (inner) => {
        for (const item of checks) if (!item.bound) check(scope, inner, item.failed, item.keyword, item.message);
      },
    );
    return;
  }
  const local = body.local(LOCAL_PREFIX[group]);
  const inner = body.fork();
  if (group === 'object') emitObjectKeywords(e, schema, scope, inner, local);
  else emitArrayKeywords(e, schema, scope, inner, local);
  if (inner.empty) return;
  if (references(inner.text, local)) body.line(`const ${local} = ${s.value} as ${LOCAL_TYPE[group]};`);
  body.append(inner);
}

/** A reference: a call to the target's function. */
function emitRef(e: Emitter, ref: string, s: Scope, body: Body): void {
  const target = resolveRef(s.doc, ref);
  const schema = asObject(target.schema, s);
  if (schema === true || trivial(schema)) return;
  if (schema === false) {
    fail(s, body, 'false', 'is not allowed');
    return;
  }
  emitCall(e, schema, target.pointer, s, body);
}

/** A call to the function of `schema` (at `pointer` in the document). */
function emitCall(e: Emitter, schema: SchemaObject, pointer: string[], s: Scope, body: Body): void {
  call(s, body, e.m.functionFor(s.doc, schema, pointer, s.dir), e.m);
}

function testSchema(e: Emitter, raw: JsonSchema, scope: Scope): string {
  const schema = asObject(raw, scope);
  if (typeof schema === 'boolean') return String(schema);
  if (trivial(schema)) return 'true';
  const scalar = scalarExpression(e.m, schema, scope);
  if (scalar !== undefined) return scalar;
  const keywords = Object.keys(schema).filter(validation);
  if (keywords.length === 1 && typeof schema.$ref === 'string') {
    // A bare reference: call the target directly instead of a function that calls it.
    const target = resolveRef(scope.doc, schema.$ref);
    const resolved = asObject(target.schema, scope);
    if (typeof resolved === 'boolean') return String(resolved);
    if (trivial(resolved)) return 'true';
    return `${e.m.functionFor(scope.doc, resolved, target.pointer, scope.dir)}(${scope.value})`;
  }
  return `${e.m.functionFor(scope.doc, schema, scope.pointer, scope.dir)}(${scope.value})`;
}
