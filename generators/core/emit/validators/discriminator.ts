/**
 * OpenAPI `discriminator` next to `oneOf`/`anyOf`: a `switch` on the tag property picks the one
 * member to validate, instead of trying every member. An object whose tag is missing or unknown
 * fails with the keyword `discriminator`.
 */
import type { JsonSchema, SchemaObject } from '../../schema/json-schema.js';
import { stringLiteral } from '../../builder/names.js';
import { refName } from '../../schema/json-schema.js';
import { Body, at, escapeToken, fail, gate, type Scope } from './code.js';
import { resolveRef } from './refs.js';
import { readProperty } from './objects.js';
import type { Emitter } from './emitter.js';

interface Case {
  value: string;
  /** The member: a reference, or an inline schema at `index` of the members. */
  ref?: string;
  index?: number;
}

export interface Dispatch {
  property: string;
  keyword: 'oneOf' | 'anyOf';
  cases: Case[];
}

/** Tag values a member declares for `property` with `const` or `enum` (in itself or its allOf). */
function declaredTags(schema: JsonSchema, property: string, depth = 0): string[] | undefined {
  if (typeof schema !== 'object' || depth > 2) return undefined;
  const tag = schema.properties?.[property];
  if (typeof tag === 'object') {
    if (typeof tag.const === 'string') return [tag.const];
    if (Array.isArray(tag.enum) && tag.enum.length && tag.enum.every((value) => typeof value === 'string')) return tag.enum as string[];
  }
  for (const member of schema.allOf ?? []) {
    const found = declaredTags(member, property, depth + 1);
    if (found) return found;
  }
  return undefined;
}

/**
 * The tag values and the member each selects: the explicit `mapping` first, then for the other
 * members the tag's `const`/`enum`, else (OpenAPI's implicit mapping) the referenced schema's name.
 * Undefined when there is no usable discriminator, or some member cannot be told apart.
 */
export function discriminatorCases(schema: SchemaObject, doc: JsonSchema): Dispatch | undefined {
  const property = schema.discriminator?.propertyName;
  if (typeof property !== 'string') return undefined;
  const keyword = Array.isArray(schema.oneOf) ? 'oneOf' : Array.isArray(schema.anyOf) ? 'anyOf' : undefined;
  if (!keyword) return undefined;
  const members = schema[keyword] as JsonSchema[];
  const cases: Case[] = [];
  const seen = new Set<string>();
  const mapped = new Set<string>();
  const add = (item: Case) => {
    if (seen.has(item.value)) return;
    seen.add(item.value);
    cases.push(item);
  };
  for (const [value, target] of Object.entries(schema.discriminator?.mapping ?? {})) {
    if (typeof target !== 'string') continue;
    const ref = target.startsWith('#') ? target : `#/$defs/${target}`;
    mapped.add(ref);
    add({ value, ref });
  }
  for (const [index, member] of members.entries()) {
    if (typeof member !== 'object') return undefined;
    if (typeof member.$ref === 'string') {
      if (mapped.has(member.$ref)) continue;
      let target: JsonSchema;
      try {
        target = resolveRef(doc, member.$ref).schema;
      } catch {
        return undefined;
      }
      const name = refName(member.$ref);
      const values = declaredTags(target, property) ?? (name ? [name] : undefined);
      if (!values) return undefined;
      for (const value of values) add({ value, ref: member.$ref });
    } else {
      const values = declaredTags(member, property);
      if (!values) return undefined;
      for (const value of values) add({ value, index });
    }
  }
  return cases.length ? { property, keyword, cases } : undefined;
}

/** Emits the switch; returns the applicator it replaces, or undefined when there is none. */
export function emitDiscriminator(e: Emitter, schema: SchemaObject, s: Scope, body: Body): 'oneOf' | 'anyOf' | undefined {
  const dispatch = discriminatorCases(schema, s.doc);
  if (!dispatch) return undefined;
  const { property, keyword, cases } = dispatch;
  const values = cases.map((item) => JSON.stringify(item.value)).join(', ');
  const objectFailed = `typeof ${s.value} !== "object" || ${s.value} === null || Array.isArray(${s.value})`;
  gate(s, body, objectFailed, 'discriminator', `must be an object with a ${JSON.stringify(property)} property`, (inner) => {
    const tag = inner.local('t');
    inner.exit();
    inner.line(`const ${tag} = ${readProperty(`(${s.value} as Record<string, unknown>)`, property)};`);
    // Values that select the same member share one case body.
    const groups = new Map<string, Case[]>();
    for (const item of cases) {
      const key = item.ref ?? `#${item.index}`;
      groups.set(key, [...(groups.get(key) ?? []), item]);
    }
    const members = [...groups.values()].map((group) => ({
      labels: group.map((item) => `case ${stringLiteral(item.value)}:`),
      emit: (member: Body) => {
        const first = group[0];
        if (first.ref !== undefined) e.ref(first.ref, s, member);
        else e.emit((schema[keyword] as JsonSchema[])[first.index as number], at(s, keyword, first.index as number), member);
        member.line('break;');
      },
    }));
    const message = {
      expr: `${tag} === undefined ? ${stringLiteral(`is required (one of ${values})`)} : ${stringLiteral(`must be one of ${values}`)}`,
    };
    const fallback = (into: Body) => fail(s, into, 'discriminator', message, [{ text: escapeToken(property) }]);
    inner.switch(tag, [...members, { labels: ['default:'], emit: fallback }]);
  });
  return keyword;
}
