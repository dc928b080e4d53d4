/**
 * The applicators: allOf (inline), anyOf and oneOf (members as yes/no expressions, counted for
 * oneOf), not, if/then/else, and the discriminator fast path in place of oneOf/anyOf. In collect
 * mode a failed anyOf/oneOf reports the errors of the one member the value's type fits, when
 * there is exactly one.
 */
import type { JsonSchema, SchemaObject } from './model.js';
import { Body, at, check, fail, type Scope } from './emit-validators-code.js';
import { ValidatorSchemaError, resolveRef } from './emit-validators-refs.js';
import { has, typeOk, type Group } from './emit-validators-scalars.js';
import { discriminatorCases, emitDiscriminator } from './emit-validators-discriminator.js';
import type { Emitter } from './emit-validators-node.js';

function list(schema: SchemaObject, keyword: 'allOf' | 'anyOf' | 'oneOf' | 'prefixItems', scope: Scope): JsonSchema[] | undefined {
  const value = schema[keyword];
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) throw new ValidatorSchemaError(`${keyword} at /${scope.pointer.join('/')} must be an array`);
  return value;
}

function wrap(expression: string): string {
  return /^[\w$.]+\([\w$]*\)$|^\w+$/.test(expression) ? expression : `(${expression})`;
}

export function emitApplicators(e: Emitter, schema: SchemaObject, s: Scope, body: Body): void {
  list(schema, 'allOf', s)?.forEach((member, i) => e.emit(member, at(s, 'allOf', i), body));
  const dispatched = emitDiscriminator(e, schema, s, body);
  const anyOf = list(schema, 'anyOf', s);
  if (anyOf && dispatched !== 'anyOf') emitAnyOf(e, anyOf, s, body);
  const oneOf = list(schema, 'oneOf', s);
  if (oneOf && dispatched !== 'oneOf') emitOneOf(e, oneOf, s, body);
  if (schema.not !== undefined) {
    const matches = e.test(schema.not, at(s, 'not'));
    if (matches !== 'false') check(s, body, matches, 'not', 'must not match the schema in "not"');
  }
  if (schema.if !== undefined && (schema.then !== undefined || schema.else !== undefined)) emitConditional(e, schema, s, body);
}

function emitAnyOf(e: Emitter, members: JsonSchema[], s: Scope, body: Body): void {
  const tests = members.map((member, i) => e.test(member, at(s, 'anyOf', i)));
  if (tests.includes('true')) return;
  const live = tests.filter((test) => test !== 'false');
  const failed = live.length ? `!(${live.map(wrap).join(' || ')})` : 'true';
  if (s.mode === 'check') {
    body.line(`if (${failed}) return false;`);
    return;
  }
  body.block(`if (${failed})`, (inner) => explain(e, members, 'anyOf', s, inner, 'must match at least one schema in anyOf'));
}

function emitOneOf(e: Emitter, members: JsonSchema[], s: Scope, body: Body): void {
  const tests = members.map((member, i) => e.test(member, at(s, 'oneOf', i)));
  const always = tests.filter((test) => test === 'true').length;
  const live = tests.filter((test) => test !== 'true' && test !== 'false');
  if (live.length === 0) {
    // Known now: a constant count would also be a comparison TypeScript rejects.
    if (always !== 1) fail(s, body, 'oneOf', `must match exactly one schema in oneOf (matched ${always})`);
    return;
  }
  const terms = [...live.map((test) => `(${test} ? 1 : 0)`), ...(always ? [String(always)] : [])];
  const count = terms.join(' + ');
  if (s.mode === 'check') {
    body.line(`if (${count} !== 1) return false;`);
    return;
  }
  const matched = body.local('n');
  body.line(`const ${matched} = ${count};`);
  body.block(`if (${matched} === 0)`, (inner) => explain(e, members, 'oneOf', s, inner, 'must match exactly one schema in oneOf (matched none)'));
  body.block(`if (${matched} > 1)`, (inner) =>
    fail(s, inner, 'oneOf', { expr: `"must match exactly one schema in oneOf (matched " + ${matched} + ")"` }));
}

/** JSON types a schema can accept at all; undefined when it could be any. */
function admitted(e: Emitter, raw: JsonSchema, doc: JsonSchema, depth: number): Set<string> | undefined {
  if (raw === true || depth > 8) return undefined;
  if (raw === false) return new Set();
  if (typeof raw !== 'object' || raw === null) return undefined;
  const schema = raw;
  let result: Set<string> | undefined;
  const narrow = (kinds: Set<string> | undefined) => {
    if (kinds) result = result ? new Set([...result].filter((kind) => kinds.has(kind))) : kinds;
  };
  const kindOf = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);
  if (schema.type !== undefined) {
    const types = Array.isArray(schema.type) ? schema.type : [schema.type];
    narrow(new Set(types.map((type) => (type === 'integer' ? 'number' : type))));
  }
  if (has(schema, 'const')) narrow(new Set([kindOf(schema.const)]));
  if (Array.isArray(schema.enum)) narrow(new Set(schema.enum.map(kindOf)));
  if (typeof schema.$ref === 'string') {
    try {
      narrow(admitted(e, resolveRef(doc, schema.$ref).schema, doc, depth + 1));
    } catch {
      // Reported where the reference is compiled.
    }
  }
  for (const member of schema.allOf ?? []) narrow(admitted(e, member, doc, depth + 1));
  for (const members of [schema.anyOf, schema.oneOf]) {
    if (!members) continue;
    const kinds = members.map((member) => admitted(e, member, doc, depth + 1));
    if (kinds.every((kind) => kind !== undefined)) narrow(new Set(kinds.flatMap((kind) => [...(kind as Set<string>)])));
  }
  if (schema.discriminator && (schema.oneOf || schema.anyOf) && discriminatorCases(schema, doc)) narrow(new Set(['object']));
  return result;
}

/**
 * Collect mode, no member matched: when the value's JSON type fits exactly one member (the usual
 * `oneOf: [X, { type: null }]`), report that member's errors, which say more than "matched none".
 */
function explain(e: Emitter, members: JsonSchema[], keyword: string, s: Scope, body: Body, message: string): void {
  const kinds = members.map((member) => admitted(e, member, s.doc, 0));
  const known = kinds.every((kind) => kind !== undefined);
  const disjoint = known && kinds.every((kind, i) => kinds.every((other, j) => i === j || [...(kind as Set<string>)].every((k) => !(other as Set<string>).has(k))));
  let opened = false;
  if (disjoint) {
    members.forEach((member, i) => {
      const kind = [...(kinds[i] as Set<string>)];
      if (!kind.length) return;
      const condition = kind.map((type) => typeOk(type as Group, s.value)).map((test) => (kind.length > 1 ? `(${test})` : test)).join(' || ');
      const inner = body.fork(1);
      e.emit(member, at(s, keyword, i), inner);
      body.line(`${opened ? '} else if' : 'if'} (${condition}) {`);
      body.append(inner);
      opened = true;
    });
  }
  if (!opened) {
    fail(s, body, keyword, message);
    return;
  }
  body.line('} else {');
  const other = body.fork(1);
  fail(s, other, keyword, message);
  body.append(other);
  body.line('}');
}

function emitConditional(e: Emitter, schema: SchemaObject, s: Scope, body: Body): void {
  const condition = e.test(schema.if as JsonSchema, at(s, 'if'));
  const then = body.fork(1);
  if (schema.then !== undefined) e.emit(schema.then, at(s, 'then'), then);
  const otherwise = body.fork(1);
  if (schema.else !== undefined) e.emit(schema.else, at(s, 'else'), otherwise);
  if (then.empty && otherwise.empty) return;
  if (then.empty) {
    body.line(`if (!${wrap(condition)}) {`);
    body.append(otherwise);
  } else {
    body.line(`if (${condition}) {`);
    body.append(then);
    if (!otherwise.empty) {
      body.line('} else {');
      body.append(otherwise);
    }
  }
  body.line('}');
}

