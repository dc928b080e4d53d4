/**
 * Object keywords: properties and required (read together, one property lookup each),
 * dependentRequired, min/maxProperties, and one loop over the keys for patternProperties,
 * additionalProperties and propertyNames.
 */
import type { JsonSchema, SchemaObject } from './model.js';
import { stringLiteral } from './names.js';
import { Body, at, check, child, escapeToken, fail, references, type PathPart, type Scope } from './emit-validators-code.js';
import { requiredIn } from './emit-validators-refs.js';
import { has, trivial } from './emit-validators-scalars.js';
import type { Emitter } from './emit-validators-node.js';

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

export function emitObjectKeywords(e: Emitter, schema: SchemaObject, s: Scope, body: Body, object: string): void {
  const properties = schema.properties ?? {};
  const required = [...new Set(requiredIn(s.doc, schema, s.dir))];
  for (const name of Object.keys(properties)) {
    emitProperty(e, s, body, object, name, properties[name], required.includes(name));
  }
  for (const name of required) {
    if (!has(properties, name)) check(s, body, missing(object, name), 'required', 'is required', [{ text: escapeToken(name) }]);
  }
  for (const [name, dependents] of Object.entries(schema.dependentRequired ?? {})) {
    if (!Array.isArray(dependents) || dependents.length === 0) continue;
    body.block(`if (${present(object, name)})`, (inner) => {
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
    body.block(`if (${present(object, name)})`, (inner) => e.emit(dependent, at(s, 'dependentSchemas', name), inner));
  }
  const min = schema.minProperties;
  if (typeof min === 'number' && min > 0) {
    check(s, body, `propertyCount(${object}) < ${min}`, 'minProperties', `must have at least ${propertiesText(min)}`);
  }
  const max = schema.maxProperties;
  if (typeof max === 'number') {
    check(s, body, `propertyCount(${object}) > ${max}`, 'maxProperties', `must have at most ${propertiesText(max)}`);
  }
  emitKeyLoop(e, schema, s, body, object, Object.keys(properties));
}

/** One property: its schema, and `required` folded into the same lookup. */
function emitProperty(e: Emitter, s: Scope, body: Body, object: string, name: string, schema: JsonSchema, required: boolean): void {
  if (!required && trivial(schema)) return;
  const part: PathPart = { text: escapeToken(name) };
  const value = body.local('v');
  // Check mode returns on a missing required property, so its checks need no block.
  const flat = required && s.mode === 'check';
  const inner = body.fork(flat ? 0 : 1);
  e.emit(schema, child(s, value, part, 'properties', name), inner);
  if (inner.empty) {
    if (required) check(s, body, missing(object, name), 'required', 'is required', [part]);
    return;
  }
  body.line(`const ${value} = ${readProperty(object, name)};`);
  if (flat) {
    body.line(`if (${value} === undefined) return false;`);
    body.append(inner);
    return;
  }
  if (required) {
    const report = body.fork(1);
    fail(s, report, 'required', 'is required', [part]);
    body.line(`if (${value} === undefined) {`);
    body.append(report);
    body.line('} else {');
  } else {
    body.line(`if (${value} !== undefined) {`);
  }
  body.append(inner);
  body.line('}');
}

/** `key === "a" || key === "b"`, or a Set lookup for many names. */
function knownName(e: Emitter, s: Scope, key: string, names: string[]): string | undefined {
  if (names.length === 0) return undefined;
  if (names.length <= 8) return names.map((name) => `${key} === ${stringLiteral(name)}`).join(' || ');
  const set = e.m.constant(`names:${JSON.stringify(names)}`, s.pointer, 'PROPERTIES', `new Set<string>(${JSON.stringify(names).replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029')})`);
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
  if (additional === false && s.mode === 'check' && !checkNames && known.length === 0 && patterns.length === 0) {
    // Nothing is allowed: no need to look at the keys (and no unused loop variable).
    check(s, body, `propertyCount(${object}) !== 0`, 'additionalProperties', 'is not allowed');
    return;
  }

  const key = body.local('k');
  const value = body.local('v');
  const part: PathPart = { expr: `pointerToken(${key})` };
  const loop = body.fork(1);
  let usesValue = false;

  if (checkNames) {
    const valid = e.test(names, { ...s, value: key, fresh: false, pointer: [...s.pointer, 'propertyNames'] });
    if (valid === 'false') check(s, body, `propertyCount(${object}) !== 0`, 'propertyNames', 'must have no properties');
    else if (valid !== 'true') check(s, loop, `!(${valid})`, 'propertyNames', 'is not an allowed property name', [part]);
  }
  for (const [pattern, sub] of checkPatterns) {
    const regex = e.m.regex(pattern, [...s.pointer, 'key']);
    const used = loop.block(`if (${regex}.test(${key}))`, (inner) => e.emit(sub, child(s, value, part, 'patternProperties', pattern), inner));
    usesValue ||= used;
  }
  if (checkAdditional) {
    const matches = [knownName(e, s, key, known), ...patterns.map(([pattern]) => `${e.m.regex(pattern, [...s.pointer, 'key'])}.test(${key})`)]
      .filter((item): item is string => item !== undefined);
    const extra = loop.fork(matches.length ? 1 : 0);
    if (additional === false) {
      fail(s, extra, 'additionalProperties', 'is not allowed', [part]);
    } else {
      e.emit(additional, child(s, value, part, 'additionalProperties'), extra);
      usesValue = true;
    }
    if (matches.length) {
      loop.line(`if (!(${matches.join(' || ')})) {`);
      loop.append(extra);
      loop.line('}');
    } else {
      loop.append(extra);
    }
  }
  if (loop.empty) return;
  body.line(`for (const ${key} in ${object}) {`);
  if (usesValue && references(loop.text, value)) {
    const declaration = body.fork(1);
    declaration.line(`const ${value} = ${object}[${key}];`);
    body.append(declaration);
  }
  body.append(loop);
  body.line('}');
}
