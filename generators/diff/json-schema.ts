/**
 * Differences between two JSON Schemas of one place in an API (a body, a parameter, a payload),
 * classified by direction: what a client sends (`request`) may only accept more, what a server
 * sends (`response`) may only say less. Shared by the OpenAPI and AsyncAPI diffs.
 */
import type { SourceLocation } from '../core/diagnostics.js';
import type { JsonSchema, SchemaObject } from '../core/schema/json-schema.js';
import type { Change, ChangeClass } from './changes.js';

export type Direction = 'request' | 'response';

export interface SchemaSide {
  /** Named schemas a `#/$defs/<name>` reference points at. */
  defs: ReadonlyMap<string, JsonSchema>;
  /** Where the property at `path` (names, `[]` for items) of the named schema is written. */
  locate: (schemaName: string | undefined, path: string[]) => SourceLocation | undefined;
}

export interface SchemaPlace {
  direction: Direction;
  /** What the schema is, for messages: `POST /tasks request body`. */
  label: string;
  /** Location of the place when no finer one is known. */
  location: SourceLocation | undefined;
}

/** Compares two schemas; each named schema is compared once per direction (memo shared by a run). */
export class SchemaDiff {
  private readonly seen = new Set<string>();
  readonly changes: Change[] = [];

  constructor(
    private readonly old: SchemaSide,
    private readonly current: SchemaSide,
  ) {}

  compare(oldSchema: JsonSchema | undefined, newSchema: JsonSchema | undefined, place: SchemaPlace): void {
    this.walk(oldSchema, newSchema, place, undefined, [], 0);
  }

  private walk(
    a: JsonSchema | undefined,
    b: JsonSchema | undefined,
    place: SchemaPlace,
    named: string | undefined,
    path: string[],
    depth: number,
  ): void {
    if (a === undefined || b === undefined || depth > 32) return;
    const refA = refName(a);
    const refB = refName(b);
    if (refA !== undefined && refA === refB) {
      // One comparison per named schema and direction: a change in Task is reported once, at Task.
      const key = `${place.direction}:${refA}`;
      if (this.seen.has(key)) return;
      this.seen.add(key);
      this.walk(this.old.defs.get(refA), this.current.defs.get(refB), { ...place, label: `schema ${refA}` }, refA, [], depth + 1);
      return;
    }
    const sa = this.resolve(a, this.old);
    const sb = this.resolve(b, this.current);
    if (sa === undefined || sb === undefined) return;
    const where = (side: 'old' | 'new', at: string[] = path) =>
      (side === 'old' ? this.old : this.current).locate(named, at) ?? place.location;
    const what = path.length > 0 ? `${place.label}: property "${shownPath(path)}"` : place.label;
    const add = (
      kind: string,
      cls: ChangeClass,
      message: string,
      wire: string,
      code: string,
      side: 'old' | 'new' = 'new',
      at?: string[],
    ) => {
      this.changes.push({ kind: `${place.direction}-${kind}`, class: cls, message, wire, code, location: where(side, at) });
    };
    const request = place.direction === 'request';
    // Located at the keyword that changed (`#enum` → `enum` in the pointer), in the new document.
    const at = (keyword: string) => (kind: string, cls: ChangeClass, message: string, wire: string, code: string) =>
      add(kind, cls, message, wire, code, 'new', [...path, `#${keyword}`]);

    const typesA = typesOf(sa);
    const typesB = typesOf(sb);
    if (typesA && typesB) {
      const removed = [...typesA].filter((t) => !typesB.has(t) && !(t === 'integer' && typesB.has('number')));
      const added = [...typesB].filter((t) => !typesA.has(t) && !(t === 'integer' && typesA.has('number')));
      if (removed.length > 0 && added.length > 0) {
        at('type')(
          'type-changed',
          'breaking',
          `${what}: type changed from ${[...typesA].join('|')} to ${[...typesB].join('|')}`,
          request
            ? `old clients send ${[...typesA].join('|')}; the server now rejects it`
            : `old clients receive ${[...typesB].join('|')} where they read ${[...typesA].join('|')}`,
          'the generated type changes; code using the old type no longer compiles',
        );
      } else if (removed.length > 0) {
        at('type')(
          'type-narrowed',
          request ? 'breaking' : 'safe',
          `${what}: no longer accepts ${removed.join('|')}`,
          request ? `requests with ${removed.join('|')} are now rejected (400/422)` : `the server no longer sends ${removed.join('|')}`,
          request
            ? `the generated type drops ${removed.join('|')}; callers passing it no longer compile`
            : 'the generated type is narrower; existing reads still compile',
        );
      } else if (added.length > 0) {
        at('type')(
          'type-widened',
          request ? 'safe' : 'breaking',
          `${what}: now also ${added.join('|')}`,
          request
            ? `the server also accepts ${added.join('|')}`
            : `old clients may receive ${added.join('|')} they do not expect (and their validators reject it)`,
          request
            ? 'the generated type is wider; existing calls still compile'
            : `the generated type gains ${added.join('|')}; reads must handle it`,
        );
      }
    }

    this.compareEnum(sa, sb, what, request, at('enum'));
    this.compareBounds(sa, sb, what, request, at);

    if (sa.format !== sb.format && sa.format !== undefined && sb.format !== undefined) {
      add(
        'format-changed',
        'dangerous',
        `${what}: format changed from ${sa.format} to ${sb.format}`,
        'values valid before may be refused now, or mean something else',
        'the generated validator checks the new format',
      );
    }

    this.compareValueRules(sa, sb, what, request, at);

    // Properties.
    const propsA = sa.properties ?? {};
    const propsB = sb.properties ?? {};
    const reqA = new Set(sa.required ?? []);
    const reqB = new Set(sb.required ?? []);
    // A readOnly property never travels in a request, a writeOnly one never in a response.
    // Made readOnly counts as removed from requests, made writeOnly as removed from responses.
    const travels = (props: Record<string, JsonSchema>, name: string, side: SchemaSide) => {
      if (!Object.hasOwn(props, name)) return false;
      const target = this.resolve(props[name]!, side);
      return (request ? target?.readOnly : target?.writeOnly) !== true;
    };
    const hidden = request ? 'readOnly' : 'writeOnly';
    for (const name of Object.keys(propsA)) {
      const at = [...path, name];
      if (!travels(propsA, name, this.old)) continue;
      const label = `${place.label}: property "${shownPath(at)}"`;
      if (!travels(propsB, name, this.current)) {
        const removed = Object.hasOwn(propsB, name) ? `is now ${hidden}` : 'removed';
        if (request)
          add(
            'property-removed',
            'dangerous',
            `${label} ${removed}`,
            'old clients still send it; the server ignores it, or rejects it when additional properties are closed',
            'the generated input type loses it; callers setting it no longer compile',
            'old',
            at,
          );
        else
          add(
            'property-removed',
            'breaking',
            `${label} ${removed}`,
            'old clients read it and get undefined',
            'the generated type loses it; code reading it no longer compiles',
            'old',
            at,
          );
        continue;
      }
      if (reqA.has(name) && !reqB.has(name) && !request) {
        add(
          'property-became-optional',
          'breaking',
          `${label} is no longer required`,
          'old clients may find it missing',
          'the generated type makes it optional (`?:`); reads must handle undefined',
          'new',
          at,
        );
      } else if (!reqA.has(name) && reqB.has(name) && request) {
        add(
          'property-became-required',
          'breaking',
          `${label} is now required`,
          'old clients that omit it are rejected (422)',
          'the generated input type requires it; calls without it no longer compile',
          'new',
          at,
        );
      }
      this.walk(propsA[name], propsB[name], place, named, at, depth + 1);
    }
    for (const name of Object.keys(propsB)) {
      if (travels(propsA, name, this.old) || !travels(propsB, name, this.current)) continue;
      const at = [...path, name];
      const label = `${place.label}: property "${shownPath(at)}"`;
      if (request && reqB.has(name))
        add(
          'required-property-added',
          'breaking',
          `${label} added as required`,
          'old clients do not send it and are rejected (422)',
          'the generated input type requires it; existing calls no longer compile',
          'new',
          at,
        );
      else
        add(
          'property-added',
          'safe',
          `${label} added${request ? ' (optional)' : ''}`,
          request ? 'old clients omit it' : 'old clients ignore it',
          'the generated type gains it',
          'new',
          at,
        );
    }
    this.compareAdditionalProperties(sa, sb, what, request, at('additionalProperties'));
    const valuesA = sa.additionalProperties;
    const valuesB = sb.additionalProperties;
    if (typeof valuesA === 'object' && typeof valuesB === 'object') this.walk(valuesA, valuesB, place, named, [...path, '{}'], depth + 1);

    if (sa.items !== undefined && sb.items !== undefined) this.walk(sa.items, sb.items, place, named, [...path, '[]'], depth + 1);
    this.compareTuples(sa, sb, place, named, path, depth, what, request, at('prefixItems'));

    this.compareDiscriminator(sa, sb, what, request, at('discriminator'));

    // Alternatives, by the named schema each one is (inline alternatives are compared by position).
    for (const keyword of ['oneOf', 'anyOf'] as const) {
      const listA = sa[keyword];
      const listB = sb[keyword];
      if (!listA || !listB) continue;
      const nameOf = (s: JsonSchema, i: number) => refName(s) ?? `#${i}`;
      const namesA = listA.map(nameOf);
      const namesB = listB.map(nameOf);
      for (const [i, name] of namesA.entries()) {
        const j = namesB.indexOf(name);
        if (j >= 0) {
          this.walk(listA[i], listB[j], place, named, path, depth + 1);
          continue;
        }
        at(keyword)(
          `${keyword.toLowerCase()}-variant-removed`,
          request ? 'breaking' : 'safe',
          `${what}: ${keyword} alternative ${name} removed`,
          request ? 'old clients sending it are rejected (422)' : 'the server no longer sends it',
          'the generated union loses it; code naming it no longer compiles',
        );
      }
      for (const name of namesB.filter((n) => !namesA.includes(n))) {
        at(keyword)(
          `${keyword.toLowerCase()}-variant-added`,
          request ? 'safe' : 'dangerous',
          `${what}: ${keyword} alternative ${name} added`,
          request ? 'the server accepts one more shape' : 'old clients may receive a shape they do not know (their validators reject it)',
          request ? 'the generated union gains it' : 'the generated union gains it; code narrowing it must handle the new case',
        );
      }
    }
  }

  private compareEnum(
    sa: SchemaObject,
    sb: SchemaObject,
    what: string,
    request: boolean,
    add: (kind: string, cls: ChangeClass, message: string, wire: string, code: string) => void,
  ): void {
    // `const` is a one-value enum.
    const valuesA = sa.enum ?? (sa.const !== undefined ? [sa.const] : undefined);
    const valuesB = sb.enum ?? (sb.const !== undefined ? [sb.const] : undefined);
    if (!valuesA || !valuesB) {
      if (!valuesA && valuesB && request)
        add(
          'enum-added',
          'breaking',
          `${what}: restricted to ${valuesB.map(show).join(', ')}`,
          'other values old clients send are now rejected',
          'the generated type becomes a union of the values',
        );
      if (valuesA && !valuesB)
        add(
          'enum-removed',
          request ? 'safe' : 'dangerous',
          `${what}: no longer restricted to ${valuesA.map(show).join(', ')}`,
          request ? 'the server accepts any value' : 'old clients may receive values outside the list they validate',
          request
            ? 'the generated type widens from the union of values'
            : 'the generated type widens from the union of values; exhaustive switches must handle any value',
        );
      return;
    }
    const inB = new Set(valuesB.map(show));
    const inA = new Set(valuesA.map(show));
    const removed = [...inA].filter((v) => !inB.has(v));
    const added = [...inB].filter((v) => !inA.has(v));
    if (removed.length > 0) {
      add(
        'enum-value-removed',
        request ? 'breaking' : 'safe',
        `${what}: enum value${removed.length > 1 ? 's' : ''} ${removed.join(', ')} removed`,
        request ? 'old clients sending it are rejected (422)' : 'the server no longer sends it',
        'the generated union loses it; code naming it no longer compiles',
      );
    }
    if (added.length > 0) {
      add(
        'enum-value-added',
        request ? 'safe' : 'dangerous',
        `${what}: enum value${added.length > 1 ? 's' : ''} ${added.join(', ')} added`,
        request ? 'the server accepts one more value' : 'old clients may receive a value they do not know (their validators reject it)',
        request ? 'the generated union gains it' : 'the generated union gains it; exhaustive switches no longer compile',
      );
    }
  }

  /** `prefixItems` by position: a new position constrains what clients send, a dropped one what they receive. */
  private compareTuples(
    sa: SchemaObject,
    sb: SchemaObject,
    place: SchemaPlace,
    named: string | undefined,
    path: string[],
    depth: number,
    what: string,
    request: boolean,
    add: (kind: string, cls: ChangeClass, message: string, wire: string, code: string) => void,
  ): void {
    const before = sa.prefixItems;
    const after = sb.prefixItems;
    if (!before || !after) return;
    for (let i = 0; i < Math.min(before.length, after.length); i++)
      this.walk(before[i], after[i], place, named, [...path, `[${i}]`], depth + 1);
    if (before.length === after.length) return;
    const longer = after.length > before.length;
    add(
      longer ? 'prefix-items-added' : 'prefix-items-removed',
      longer === request ? (request ? 'breaking' : 'dangerous') : 'safe',
      `${what}: ${before.length} → ${after.length} positional items (prefixItems)`,
      request
        ? longer
          ? 'lists old clients send are now checked at more positions and may be rejected'
          : 'the server checks fewer positions'
        : longer
          ? 'the server constrains more positions'
          : 'old clients may receive values at positions they validate as typed',
      'the generated tuple type changes; code indexing it must follow',
    );
  }

  /** The tag property of a union and which schema each tag value selects. */
  private compareDiscriminator(
    sa: SchemaObject,
    sb: SchemaObject,
    what: string,
    request: boolean,
    add: (kind: string, cls: ChangeClass, message: string, wire: string, code: string) => void,
  ): void {
    const before = sa.discriminator;
    const after = sb.discriminator;
    if (!before || !after) return;
    if (before.propertyName !== after.propertyName) {
      add(
        'discriminator-property-changed',
        'breaking',
        `${what}: discriminator property "${before.propertyName}" → "${after.propertyName}"`,
        request
          ? 'old clients tag their payloads with the old property; the server cannot tell the variants apart'
          : 'old clients look for the tag in the old property and cannot tell the variants apart',
        'the generated union narrows on the new property; code switching on the old one no longer compiles',
      );
      return;
    }
    const mappingA = before.mapping ?? {};
    const mappingB = after.mapping ?? {};
    for (const [tag, target] of Object.entries(mappingA)) {
      const now = mappingB[tag];
      if (now === target) continue;
      if (now === undefined && after.mapping === undefined) continue;
      add(
        now === undefined ? 'discriminator-value-removed' : 'discriminator-value-changed',
        now === undefined && !request ? 'safe' : 'breaking',
        `${what}: discriminator value ${show(tag)} ${now === undefined ? 'removed' : `now selects ${refTarget(now)} instead of ${refTarget(target)}`}`,
        now === undefined
          ? request
            ? 'old clients sending it are rejected (422)'
            : 'the server no longer sends it'
          : 'the same tag now means another shape: old clients and the server read it differently',
        'the generated union changes; code narrowing on the tag must follow',
      );
    }
    for (const tag of Object.keys(mappingB)) {
      if (Object.hasOwn(mappingA, tag) || before.mapping === undefined) continue;
      add(
        'discriminator-value-added',
        request ? 'safe' : 'dangerous',
        `${what}: discriminator value ${show(tag)} added (${refTarget(mappingB[tag]!)})`,
        request ? 'the server accepts one more variant' : 'old clients may receive a variant they do not know',
        'the generated union gains it; code narrowing it must handle the new case',
      );
    }
  }

  /** `multipleOf`, `uniqueItems` and, for what clients send, `default`. */
  private compareValueRules(
    sa: SchemaObject,
    sb: SchemaObject,
    what: string,
    request: boolean,
    at: (keyword: string) => (kind: string, cls: ChangeClass, message: string, wire: string, code: string) => void,
  ): void {
    if (sa.multipleOf !== sb.multipleOf) {
      // A new step that divides the old one accepts every old value: wider. Otherwise narrower.
      const wider = sb.multipleOf === undefined || (sa.multipleOf !== undefined && isMultiple(sa.multipleOf, sb.multipleOf));
      at('multipleOf')(
        wider ? 'multiple-of-widened' : 'multiple-of-narrowed',
        wider === request ? 'safe' : request ? 'breaking' : 'dangerous',
        `${what}: multipleOf ${sa.multipleOf ?? 'none'} → ${sb.multipleOf ?? 'none'}`,
        request
          ? wider
            ? 'the server accepts more values'
            : 'values old clients send may now be rejected (422)'
          : wider
            ? 'old clients may receive values off the step they validate'
            : 'the server sends fewer values',
        'the generated validator checks the new step',
      );
    }
    if ((sa.uniqueItems === true) !== (sb.uniqueItems === true)) {
      const narrower = sb.uniqueItems === true;
      at('uniqueItems')(
        narrower ? 'unique-items-added' : 'unique-items-removed',
        narrower ? (request ? 'breaking' : 'safe') : request ? 'safe' : 'dangerous',
        `${what}: uniqueItems ${sa.uniqueItems === true} → ${sb.uniqueItems === true}`,
        request
          ? narrower
            ? 'lists with duplicates old clients send are now rejected (422)'
            : 'the server accepts duplicates'
          : narrower
            ? 'the server no longer sends duplicates'
            : 'old clients may receive duplicates they do not expect',
        'the generated validator checks the new rule',
      );
    }
    if (request && show(sa.default) !== show(sb.default)) {
      at('default')(
        'default-changed',
        'dangerous',
        `${what}: default ${sa.default === undefined ? 'none' : show(sa.default)} → ${sb.default === undefined ? 'none' : show(sb.default)}`,
        'old clients that omit it get another behaviour than they did',
        'the generated documentation shows the new default; calls still compile',
      );
    }
  }

  /** Closed (`false`) < a map of one value schema < open (absent, `true`, `{}`): requests may only open, responses only close. */
  private compareAdditionalProperties(
    sa: SchemaObject,
    sb: SchemaObject,
    what: string,
    request: boolean,
    add: (kind: string, cls: ChangeClass, message: string, wire: string, code: string) => void,
  ): void {
    const before = openness(sa.additionalProperties);
    const after = openness(sb.additionalProperties);
    if (before === after) return;
    const narrower = OPENNESS.indexOf(after) < OPENNESS.indexOf(before);
    const kind = after === 'closed' ? 'closed' : after === 'open' ? 'opened' : before === 'closed' ? 'opened' : 'typed';
    const words = { closed: 'not allowed', typed: 'allowed with a value schema', open: 'allowed with any value' };
    if (narrower)
      add(
        `additional-properties-${kind}`,
        request ? 'breaking' : 'safe',
        `${what}: additional properties ${words[before]} → ${words[after]}`,
        request ? 'requests with the extra keys old clients send may now be rejected (422)' : 'the server sends fewer kinds of extra keys',
        request
          ? 'the generated input type and validator accept fewer extra keys; callers setting them no longer compile'
          : 'the generated type is narrower; existing reads still compile',
      );
    else
      add(
        `additional-properties-${kind}`,
        request ? 'safe' : 'dangerous',
        `${what}: additional properties ${words[before]} → ${words[after]}`,
        request ? 'the server accepts more extra keys' : 'old clients may receive extra keys or values their validators reject',
        request
          ? 'the generated input type accepts more keys'
          : 'the generated type gains an index signature; reads of it must handle the new values',
      );
  }

  private compareBounds(
    sa: SchemaObject,
    sb: SchemaObject,
    what: string,
    request: boolean,
    at: (keyword: string) => (kind: string, cls: ChangeClass, message: string, wire: string, code: string) => void,
  ): void {
    const kebab = (key: string) => key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
    const upper = ['maxLength', 'maximum', 'exclusiveMaximum', 'maxItems', 'maxProperties'] as const;
    const lower = ['minLength', 'minimum', 'exclusiveMinimum', 'minItems', 'minProperties'] as const;
    const check = (key: string, before: number | undefined, after: number | undefined, narrower: boolean) => {
      if (before === after) return;
      const words = `${key} ${before ?? 'none'} → ${after ?? 'none'}`;
      if (narrower) {
        at(key)(
          `${kebab(key)}-narrowed`,
          request ? 'breaking' : 'safe',
          `${what}: ${words}`,
          request ? 'values old clients send may now be rejected (422)' : 'the server sends a narrower range',
          'the generated validator checks the new bound',
        );
      } else {
        at(key)(
          `${kebab(key)}-widened`,
          request ? 'safe' : 'dangerous',
          `${what}: ${words}`,
          request ? 'the server accepts more' : 'old clients may receive values outside the range they validate',
          'the generated validator checks the new bound',
        );
      }
    };
    for (const key of upper) {
      const before = sa[key];
      const after = sb[key];
      check(key, before, after, after !== undefined && (before === undefined || after < before));
    }
    for (const key of lower) {
      const before = sa[key];
      const after = sb[key];
      check(key, before, after, after !== undefined && (before === undefined || after > before));
    }
    if (sa.pattern !== sb.pattern && sb.pattern !== undefined) {
      at('pattern')(
        'pattern-changed',
        request ? 'dangerous' : 'safe',
        `${what}: pattern ${sa.pattern ?? 'none'} → ${sb.pattern}`,
        request ? 'values old clients send may no longer match' : 'the server sends values of the new pattern',
        'the generated validator checks the new pattern',
      );
    }
  }

  /**
   * The schema itself, or the named schema a reference points at, with `allOf` members merged in
   * (properties, required, type): `allOf: [NewPet, { id }]` is compared as the object it describes.
   */
  private resolve(schema: JsonSchema, side: SchemaSide, depth = 0): SchemaObject | undefined {
    const name = refName(schema);
    const target = name === undefined ? schema : side.defs.get(name);
    if (typeof target !== 'object') return undefined;
    if (!target.allOf || depth > 8) return target;
    const merged: SchemaObject = { ...target, properties: { ...target.properties }, required: [...(target.required ?? [])] };
    delete merged.allOf;
    for (const member of target.allOf) {
      const part = this.resolve(member, side, depth + 1);
      if (!part) continue;
      Object.assign(merged.properties!, part.properties);
      merged.required!.push(...(part.required ?? []).filter((key) => !merged.required!.includes(key)));
      if (merged.type === undefined && part.type !== undefined) merged.type = part.type;
    }
    return merged;
  }
}

function refTarget(ref: string): string {
  return /^#\/\$defs\/(.+)$/.exec(ref)?.[1] ?? ref;
}

export function refName(schema: JsonSchema): string | undefined {
  if (typeof schema !== 'object' || schema.$ref === undefined) return undefined;
  const match = /^#\/\$defs\/(.+)$/.exec(schema.$ref);
  return match?.[1];
}

/** `['labels', '{}']` → `labels.<value>`: a map's values have no name of their own. */
function shownPath(path: string[]): string {
  // A tuple position joins without a dot: `pair[0]`.
  return path
    .map((step) => (step === '{}' ? '<value>' : step))
    .join('.')
    .replace(/\.(\[\d+\])/g, '$1');
}

const OPENNESS = ['closed', 'typed', 'open'] as const;

function openness(values: JsonSchema | undefined): (typeof OPENNESS)[number] {
  if (values === false) return 'closed';
  if (values === undefined || values === true || (typeof values === 'object' && Object.keys(values).every((key) => key.startsWith('x-'))))
    return 'open';
  return 'typed';
}

/** `step` divides `value` (within floating-point noise): every multiple of `value` is one of `step`. */
function isMultiple(value: number, step: number): boolean {
  const ratio = value / step;
  return Math.abs(ratio - Math.round(ratio)) < 1e-9;
}

function typesOf(schema: SchemaObject): Set<string> | undefined {
  if (schema.type === undefined) return undefined;
  return new Set(Array.isArray(schema.type) ? schema.type : [schema.type]);
}

function show(value: unknown): string {
  return JSON.stringify(value);
}
