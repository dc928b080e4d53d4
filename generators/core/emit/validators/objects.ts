/**
 * Object keywords: properties and required (read together, one property lookup each),
 * dependentRequired, min/maxProperties, and one loop over the keys for patternProperties,
 * additionalProperties and propertyNames.
 */
import type { JsonSchema, SchemaObject } from '../../schema/json-schema.js';
import { stringLiteral } from '../../builder/names.js';
import {
  Body,
  ERRORS,
  EXIT,
  OK,
  at,
  bounded,
  call,
  check,
  child,
  escapeToken,
  fail,
  pathExpr,
  references,
  type Bound,
  type PathPart,
  type Scope,
  type Stmt,
} from './code.js';
import { refHelper, scalarHelper } from './helpers.js';
import { requiredIn } from './refs.js';
import { has, trivial } from './scalars.js';
import type { Emitter } from './emitter.js';

/**
 * Names every object inherits (`constructor`, `toString`, `__proto__`): reading them must not
 * find Object.prototype's, so they are looked up as own properties.
 */
function inherited(name: string): boolean {
  return name in Object.prototype;
}

/** The property's value, or undefined when the object does not have it. */
export function readProperty(object: string, name: string): string {
  const key = stringLiteral(name);
  return inherited(name) ? `(hasOwn(${object}, ${key}) ? ${object}[${key}] : undefined)` : `${object}[${key}]`;
}

function missing(object: string, name: string): string {
  const key = stringLiteral(name);
  return inherited(name) ? `!hasOwn(${object}, ${key})` : `${object}[${key}] === undefined`;
}

function present(object: string, name: string): string {
  const key = stringLiteral(name);
  return inherited(name) ? `hasOwn(${object}, ${key})` : `${object}[${key}] !== undefined`;
}

function propertiesText(count: number): string {
  return `${count} ${count === 1 ? 'property' : 'properties'}`;
}

/**
 * Objects with more properties than this are checked in parts of this many, each a function of
 * its own (`checkRepositoryPart2(o1, errors)`): type-checking a function costs more than linearly
 * in its length, and identical runs of properties (variants of one large schema) share a part.
 */
export const PART_SIZE = 16;

/**
 * The property count first: the properties, their names and `required` are only looked at in an
 * object within `minProperties`/`maxProperties`.
 */
export function emitObjectKeywords(e: Emitter, schema: SchemaObject, s: Scope, body: Body, object: string): void {
  const bounds: Bound[] = [];
  const min = schema.minProperties;
  if (typeof min === 'number' && min > 0) {
    bounds.push({
      failed: `propertyCount(${object}) < ${min}`,
      keyword: 'minProperties',
      message: `must have at least ${propertiesText(min)}`,
    });
  }
  const max = schema.maxProperties;
  if (typeof max === 'number') {
    bounds.push({
      failed: `propertyCount(${object}) > ${max}`,
      keyword: 'maxProperties',
      message: `must have at most ${propertiesText(max)}`,
    });
  }
  bounded(s, body, bounds, (inner) => emitContent(e, schema, s, inner, object));
}

function emitContent(e: Emitter, schema: SchemaObject, s: Scope, body: Body, object: string): void {
  const properties = schema.properties ?? {};
  const required = [...new Set(requiredIn(s.doc, schema, s.dir))];
  const names = Object.keys(properties);
  const parts = names.length > PART_SIZE * 1.5 ? Math.ceil(names.length / PART_SIZE) : 1;
  const first = names.slice(0, parts > 1 ? PART_SIZE : names.length);
  emitProperties(e, properties, required, s, body, object, first);
  for (let index = 1; index < parts; index++) {
    const group = names.slice(index * PART_SIZE, (index + 1) * PART_SIZE);
    const part: SchemaObject = { properties: Object.fromEntries(group.map((name) => [name, properties[name]])) };
    const name = e.m.partFor(
      s.doc,
      part,
      group.filter((item) => required.includes(item)),
      s.fn,
      s.pointer,
      s.dir,
      index + 1,
    );
    call({ ...s, value: object }, body, name, e.m);
  }
  for (const name of required) {
    if (!has(properties, name)) check(s, body, missing(object, name), 'required', 'is required', [{ text: escapeToken(name) }]);
  }
  for (const [name, dependents] of Object.entries(schema.dependentRequired ?? {})) {
    if (!Array.isArray(dependents) || dependents.length === 0) continue;
    body.if(present(object, name), (inner) => {
      for (const dependent of dependents) {
        check(s, inner, missing(object, dependent), 'dependentRequired', `is required when ${JSON.stringify(name)} is present`, [
          { text: escapeToken(dependent) },
        ]);
      }
    });
  }
  // Not in the IR's SchemaObject (OpenAPI does not use it), but plain JSON Schema does.
  const dependentSchemas = (schema as { dependentSchemas?: Record<string, JsonSchema> }).dependentSchemas ?? {};
  for (const [name, dependent] of Object.entries(dependentSchemas)) {
    if (trivial(dependent)) continue;
    body.if(present(object, name), (inner) => e.emit(dependent, at(s, 'dependentSchemas', name), inner));
  }
  emitKeyLoop(e, schema, s, body, object, Object.keys(properties));
}

/** Properties of `object` (by default all of them), in order; the `required` ones must be present. */
export function emitProperties(
  e: Emitter,
  properties: Record<string, JsonSchema>,
  required: string[],
  s: Scope,
  body: Body,
  object: string,
  names: string[] = Object.keys(properties),
): void {
  const run: string[] = [];
  const flush = () => {
    if (run.length === 0) return;
    body.if(`${run.length === 1 ? run[0] : `(${run.join(' & ')})`} === 0`, (report) => report.failed('false'));
    run.length = 0;
  };
  for (const name of names) emitProperty(e, s, body, object, name, properties[name], required.includes(name), run, flush);
  flush();
}

/** Helper calls per `&` run: longer runs would make unreadable lines for little gain. */
const RUN_LENGTH = 8;

/**
 * One property: its schema, and `required` folded into the same lookup:
 * `if (v1 === undefined) ok = fail(...required...); else <checks of v1>`.
 */
function emitProperty(
  e: Emitter,
  s: Scope,
  body: Body,
  object: string,
  name: string,
  schema: JsonSchema,
  required: boolean,
  run: string[],
  flush: () => void,
): void {
  if (!required && trivial(schema)) return;
  const part: PathPart = { text: escapeToken(name) };
  // Helpers take the path as an argument: only where it is a constant, so that a yes/no pass
  // still builds no strings.
  const path = pathExpr(s, [part]);
  const constantPath = !path.includes(' + ');
  const scalar = constantPath ? scalarHelper(schema, required, e.m.options.formats) : undefined;
  if (scalar) {
    if (run.length >= RUN_LENGTH) flush();
    run.push(`${e.m.helper(scalar)}(${readProperty(object, name)}, ${ERRORS}, ${path})`);
    return;
  }
  // Whatever comes next may stop a yes/no pass (an exit before a call) and must see the run's result.
  flush();
  const value = body.local('v');
  const inner = body.fork();
  e.emit(schema, child(s, value, part, 'properties', name), inner);
  if (inner.empty) {
    if (required) check(s, body, missing(object, name), 'required', 'is required', [part]);
    return;
  }
  // A call's exit comes before the property is read.
  if (inner.stmts[0] === EXIT) {
    inner.stmts.shift();
    body.line(EXIT);
  }
  const target = constantPath ? calledAlone(inner.stmts, value, path) : undefined;
  if (target) {
    run.push(`${e.m.helper(refHelper(required))}(${readProperty(object, name)}, ${ERRORS}, ${path}, ${target})`);
    return;
  }
  body.line(`const ${value} = ${readProperty(object, name)};`);
  const typed = required ? missingAsType(inner.stmts, value) : undefined;
  if (typed) body.push(typed);
  else if (required)
    body.if(
      `${value} === undefined`,
      (report) => fail(s, report, 'required', 'is required', [part]),
      (rest) => rest.append(inner),
    );
  else body.if(`${value} !== undefined`, (rest) => rest.append(inner));
}

/**
 * The function called when the checks of a property are one call and nothing else
 * (`if (errors ? !callAt(v1, errors, "/x", checkX) : !checkX(v1)) ok = false;`), so
 * `reqRef`/`optRef` can make it.
 */
function calledAlone(stmts: Stmt[], value: string, path: string): string | undefined {
  const [only] = stmts;
  if (stmts.length !== 1 || typeof only === 'string' || only.kind !== 'if' || only.otherwise.length !== 0) return undefined;
  if (only.then.length !== 1 || only.then[0] !== `${OK} = false;`) return undefined;
  const match = /^errors \? !callAt\((\w+), errors, (".*"), (\w+)\) : !(\w+)\((\w+)\)$/.exec(only.condition);
  return match && match[1] === value && match[2] === path && match[3] === match[4] && match[5] === value ? match[3] : undefined;
}

/**
 * When all a required property's checks hang off its type test (`if (typeof v1 !== "string") ...
 * else ...`), a missing value fails that test too: `failType` reports it as `required`, and no
 * separate `v1 === undefined` test is needed.
 */
function missingAsType(stmts: Stmt[], value: string): Stmt | undefined {
  const [gate] = stmts;
  if (stmts.length !== 1 || typeof gate === 'string' || gate.kind !== 'if' || gate.then.length !== 1) return undefined;
  const failure = /^ok = fail\(errors, (.*), "type", (.*)\);$/.exec(String(gate.then[0]));
  if (!failure) return undefined;
  return { ...gate, then: [`ok = failType(errors, ${failure[1]}, ${value}, ${failure[2]});`] };
}

/** `key === "a" || key === "b"`, or a Set lookup for many names. */
function knownName(e: Emitter, s: Scope, key: string, names: string[]): string | undefined {
  if (names.length === 0) return undefined;
  if (names.length <= 8) return names.map((name) => `${key} === ${stringLiteral(name)}`).join(' || ');
  const set = e.m.constant(
    `names:${JSON.stringify(names)}`,
    s.pointer,
    'PROPERTIES',
    `new Set<string>(${JSON.stringify(names)
      .replace(/\u2028/g, '\\u2028')
      .replace(/\u2029/g, '\\u2029')})`,
  );
  return `${set}.has(${key})`;
}

function emitKeyLoop(e: Emitter, schema: SchemaObject, s: Scope, body: Body, object: string, known: string[]): void {
  const patterns = Object.entries(schema.patternProperties ?? {});
  const additional = schema.additionalProperties;
  const names = schema.propertyNames;
  const checkAdditional = additional !== undefined && !trivial(additional);
  const checkNames = names !== undefined && !trivial(names);
  const checkPatterns = patterns.filter(([, sub]) => !trivial(sub));
  if (!checkAdditional && !checkNames && checkPatterns.length === 0) return;

  const key = body.local('k');
  const value = body.local('v');
  const part: PathPart = { key };
  const validName = checkNames ? e.test(names, { ...s, value: key, fresh: false, pointer: [...s.pointer, 'propertyNames'] }) : 'true';
  if (validName === 'false') check(s, body, `propertyCount(${object}) !== 0`, 'propertyNames', 'must have no properties');
  body.loop(`for (const ${key} in ${object})`, (loop) => {
    if (validName !== 'false' && validName !== 'true')
      check(s, loop, `!(${validName})`, 'propertyNames', 'is not an allowed property name', [part]);
    for (const [pattern, sub] of checkPatterns) {
      loop.if(e.m.matches(pattern, [...s.pointer, 'key'], key), (inner) =>
        e.emit(sub, child(s, value, part, 'patternProperties', pattern), inner),
      );
    }
    if (checkAdditional) {
      const matches = [
        knownName(e, s, key, known),
        ...patterns.map(([pattern]) => e.m.matches(pattern, [...s.pointer, 'key'], key)),
      ].filter((item): item is string => item !== undefined);
      const extra = (into: Body) => {
        if (additional === false) fail(s, into, 'additionalProperties', 'is not allowed', [part]);
        else e.emit(additional, child(s, value, part, 'additionalProperties'), into);
      };
      if (matches.length) loop.if(`!(${matches.join(' || ')})`, extra);
      else extra(loop);
    }
    return references(loop.text, value) ? [`const ${value} = ${object}[${key}];`] : [];
  });
}
