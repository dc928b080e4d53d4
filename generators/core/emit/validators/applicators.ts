/**
 * The applicators: allOf (inline), anyOf and oneOf (members as yes/no expressions, counted for
 * oneOf), not, if/then/else, and the discriminator fast path in place of oneOf/anyOf. When errors
 * are collected, a failed anyOf/oneOf reports the errors of the one member the value's type fits,
 * when there is exactly one.
 */
import type { JsonSchema, SchemaObject } from '../../schema/json-schema.js';
import { isBinarySchema } from '../../schema/binary.js';
import { Body, ERRORS, at, check, fail, type Scope } from './code.js';
import { ValidatorSchemaError, resolveRef } from './refs.js';
import { has, typeOk, type Group } from './scalars.js';
import { discriminatorCases, emitDiscriminator } from './discriminator.js';
import type { Emitter } from './emitter.js';

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
  if (live.length === 0) {
    fail(s, body, 'anyOf', 'must match at least one schema in anyOf');
    return;
  }
  body.exit();
  body.if(`!(${live.map(wrap).join(' || ')})`, (inner) =>
    explain(e, members, 'anyOf', s, inner, 'must match at least one schema in anyOf'),
  );
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
  const matched = body.local('n');
  body.exit();
  body.line(`const ${matched} = ${terms.join(' + ')};`);
  body.if(
    `${matched} === 0`,
    (inner) => explain(e, members, 'oneOf', s, inner, 'must match exactly one schema in oneOf (matched none)'),
    (inner) =>
      check(s, inner, `${matched} > 1`, 'oneOf', { expr: `"must match exactly one schema in oneOf (matched " + ${matched} + ")"` }),
  );
}

/** JSON types a schema can accept at all; undefined when it could be any. */
function admitted(e: Emitter, raw: JsonSchema, doc: JsonSchema, depth: number): Set<string> | undefined {
  if (raw === true || depth > 8) return undefined;
  if (raw === false) return new Set();
  if (typeof raw !== 'object' || raw === null) return undefined;
  const schema = raw;
  // A Blob is no JSON type: say nothing rather than `string`.
  if (isBinarySchema(schema)) return undefined;
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
 * No member matched. A yes/no pass stops here; a collecting one, when the value's JSON type fits
 * exactly one member (the usual `oneOf: [X, { type: null }]`), reports that member's errors, which
 * say more than "matched none".
 */
function explain(e: Emitter, members: JsonSchema[], keyword: string, s: Scope, body: Body, message: string): void {
  const kinds = members.map((member) => admitted(e, member, s.doc, 0));
  const known = kinds.every((kind) => kind !== undefined);
  const disjoint =
    known &&
    kinds.every((kind, i) => kinds.every((other, j) => i === j || [...(kind as Set<string>)].every((k) => !(other as Set<string>).has(k))));
  const cases: Array<{ condition: string; member: JsonSchema; index: number }> = [];
  if (disjoint) {
    members.forEach((member, i) => {
      const kind = [...(kinds[i] as Set<string>)];
      if (!kind.length) return;
      const condition = kind
        .map((type) => typeOk(type as Group, s.value))
        .map((test) => (kind.length > 1 ? `(${test})` : test))
        .join(' || ');
      cases.push({ condition, member, index: i });
    });
  }
  if (cases.length === 0) {
    fail(s, body, keyword, message);
    return;
  }
  body.line(`if (!${ERRORS}) return false;`);
  const chain = (into: Body, index: number): void => {
    const item = cases[index];
    if (!item) {
      fail(s, into, keyword, message);
      return;
    }
    into.if(
      item.condition,
      (inner) => e.emit(item.member, at(s, keyword, item.index), inner),
      (rest) => chain(rest, index + 1),
    );
  };
  chain(body, 0);
}

function emitConditional(e: Emitter, schema: SchemaObject, s: Scope, body: Body): void {
  const condition = e.test(schema.if as JsonSchema, at(s, 'if'));
  body.if(
    condition,
    (then) => {
      if (schema.then !== undefined) e.emit(schema.then, at(s, 'then'), then);
    },
    (otherwise) => {
      if (schema.else !== undefined) e.emit(schema.else, at(s, 'else'), otherwise);
    },
  );
}
