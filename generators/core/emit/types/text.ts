/**
 * TypeScript type expressions as text, with just enough structure to combine them correctly:
 * precedence (so `A | B` gets parentheses inside `[]` or `&`), union members (so long unions can
 * be laid out one per line), and whether the text names a declared type (so it is kept out of
 * `Record<>`, which TypeScript does not defer in recursive aliases).
 */
import { jsonLiteral } from '../../builder/names.js';

/** 0: a union; 1: an intersection; 2: anything that can take a `[]` suffix as is. */
export type Precedence = 0 | 1 | 2;

export const UNION: Precedence = 0;
export const INTERSECTION: Precedence = 1;
export const ATOM: Precedence = 2;

export interface TypeText {
  readonly text: string;
  readonly prec: Precedence;
  /** The members, when the text is a union of two or more. */
  readonly members?: readonly TypeText[];
  /** Names a declared type somewhere inside. */
  readonly refs?: boolean;
  /** Comes from a bare `type` keyword only (`string`, `Record<string, unknown>`, ...): dropped beside anything more specific. */
  readonly weak?: boolean;
}

export function atom(text: string, extra: { refs?: boolean; weak?: boolean } = {}): TypeText {
  return { text, prec: ATOM, ...extra };
}

export const UNKNOWN = atom('unknown');
export const NEVER = atom('never');
export const NULL = atom('null');
export const STRING = atom('string', { weak: true });
export const NUMBER = atom('number', { weak: true });
export const BOOLEAN = atom('boolean', { weak: true });
export const BLOB = atom('Blob');

/** A literal type for a JSON value: `"a"`, `1`, `true`, `null`, `{ a: 1 }`, `[1, 2]`. */
export function literal(value: unknown): TypeText {
  if (value === undefined) return UNKNOWN;
  if (typeof value === 'number' && !Number.isFinite(value)) return NUMBER;
  try {
    return atom(jsonLiteral(value));
  } catch {
    return UNKNOWN;
  }
}

function wrap(type: TypeText, below: Precedence): string {
  return type.prec < below ? `(${type.text})` : type.text;
}

/**
 * `A | B`, flattened and de-duplicated; `never` members vanish, an `unknown` member swallows the
 * rest, and `null` goes last (`string | null` reads better than `null | string`).
 */
export function union(types: readonly TypeText[]): TypeText {
  const members: TypeText[] = [];
  const seen = new Set<string>();
  let nullable = false;
  for (const type of types) {
    for (const member of type.prec === UNION && type.members ? type.members : [type]) {
      if (member.text === 'unknown') return UNKNOWN;
      if (member.text === 'never') continue;
      if (member.text === 'null') {
        nullable = true;
        continue;
      }
      if (seen.has(member.text)) continue;
      seen.add(member.text);
      members.push(member);
    }
  }
  if (nullable) members.push(NULL);
  if (members.length === 0) return NEVER;
  if (members.length === 1) return members[0];
  return {
    // Parentheses are not needed around an intersection in a union, but they show the grouping.
    text: members.map((member) => wrap(member, ATOM)).join(' | '),
    prec: UNION,
    members,
    refs: members.some((member) => member.refs),
    weak: members.every((member) => member.weak),
  };
}

/** `A & B`, flattened and de-duplicated; `unknown` members vanish, a `never` member wins. */
export function intersection(types: readonly TypeText[]): TypeText {
  const members: TypeText[] = [];
  const seen = new Set<string>();
  for (const type of types) {
    const parts = type.prec === INTERSECTION && type.members ? type.members : [type];
    for (const member of parts) {
      if (member.text === 'never') return NEVER;
      if (member.text === 'unknown' || seen.has(member.text)) continue;
      seen.add(member.text);
      members.push(member);
    }
  }
  if (members.length === 0) return UNKNOWN;
  if (members.length === 1) return members[0];
  return {
    text: members.map((member) => wrap(member, ATOM)).join(' & '),
    prec: INTERSECTION,
    members,
    refs: members.some((member) => member.refs),
  };
}

/** `T[]`, `(A | B)[]`, or for a long union one member per line, indented from `indent`. */
export function arrayOf(item: TypeText, weak = false, indent = ''): TypeText {
  if (item.prec === UNION && item.members && item.text.length > MAX_LINE - 20 && !item.text.includes('\n')) {
    const lines = item.members.map((member) => `${indent}  | ${wrap(member, ATOM)}`);
    return atom(`(\n${lines.join('\n')}\n${indent})[]`, { refs: item.refs });
  }
  return atom(`${wrap(item, ATOM)}[]`, { refs: item.refs, weak });
}

/** A tuple element: `T`, `T?` or `...T[]`. */
export function tupleElement(type: TypeText, optional: boolean): string {
  return optional ? `${wrap(type, ATOM)}?` : type.text;
}

/**
 * `{ [key: string]: T }` when T names a declared type (a recursive alias through `Record<>` is an
 * error: "Type alias circularly references itself"), `Record<string, T>` otherwise.
 */
export function recordOf(value: TypeText): TypeText {
  if (value.refs) return atom(`{ [key: string]: ${value.text} }`, { refs: true });
  return atom(`Record<string, ${value.text}>`);
}

/** Longest `export type X = A | B;` line before the union is written one member per line. */
export const MAX_LINE = 100;

/**
 * What follows `head` (`export type Name =`, or `  name?:` for a member) up to the `;`: the type on
 * the same line, or, for a union that does not fit on the line, one member per line with a leading
 * `|` (Prettier's layout). `indent` is the indentation of the line `head` starts.
 */
export function typeAfter(head: string, type: TypeText, indent = ''): string {
  const members = type.prec === UNION ? type.members : undefined;
  const multiline = type.text.includes('\n');
  if (!members || (!multiline && `${head} ${type.text};`.length <= MAX_LINE)) return ` ${type.text}`;
  // Inside an object, a union of object types is left as it is: it already reads well.
  if (multiline && indent !== '') return ` ${type.text}`;
  const lines = members.map((member) => {
    const text = member.prec === INTERSECTION ? `(${member.text})` : member.text;
    return `${indent}  | ${text.replace(/\n/g, '\n  ')}`;
  });
  return `\n${lines.join('\n')}`;
}
