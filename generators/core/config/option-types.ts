/**
 * The little language styles declare their `options` in: each option's type, allowed values and a
 * one-line description. One declaration gives the config checker what to accept, the generator the
 * TypeScript type of the value it receives, and `--help`/README the text they list.
 */
import { resolve } from 'node:path';
import { closest, describe } from '../schema/json-documents.js';
import type { JsonSchema } from '../schema/json-schema.js';

/** The value of a map entry: a string (optionally one of a few), or a JSON Schema or one of a few short names. */
export type MapValueType =
  | { readonly type: 'string'; readonly values?: readonly string[] }
  | { readonly type: 'schema'; readonly names: readonly string[] };

export type OptionType =
  | { readonly type: 'boolean' }
  | { readonly type: 'string'; readonly values?: readonly string[] }
  /** A file or folder, resolved against the config's folder (absolute paths stay as they are). */
  | { readonly type: 'path' }
  /** One path or a list of them, resolved like `path`; the generator always receives a list. */
  | { readonly type: 'paths' }
  /** An object from `keys` (what the keys name, for messages) to values of one type. */
  | { readonly type: 'map'; readonly keys: string; readonly values: MapValueType };

export type OptionDeclaration = OptionType & {
  /** One line for `--help` and the README. */
  readonly description: string;
  /** A YAML example of the value, shown when the value has the wrong type. */
  readonly example?: string;
};

export type OptionDeclarations = Readonly<Record<string, OptionDeclaration>>;

type MapValue<V> = V extends { type: 'schema'; names: readonly (infer N)[] }
  ? N | JsonSchema
  : V extends { type: 'string'; values: readonly (infer S)[] }
    ? S
    : string;

/** The TypeScript type a generator receives for an option (paths already absolute). */
export type OptionValue<T> = T extends { type: 'boolean' }
  ? boolean
  : T extends { type: 'string'; values: readonly (infer S)[] }
    ? S
    : T extends { type: 'string' } | { type: 'path' }
      ? string
      : T extends { type: 'paths' }
        ? string[]
        : T extends { type: 'map'; values: infer V }
          ? Record<string, MapValue<V>>
          : never;

/** A style's checked options: every one optional, each of its declared type. */
export type OptionValues<D extends OptionDeclarations> = { [K in keyof D]?: OptionValue<D[K]> };

export type ReportAt = (path: (string | number)[], message: string, hint?: string) => void;

/**
 * Checks one option's value against its declaration; reports every problem at its path and
 * returns the value to hand to the generator (paths resolved against `root`), or undefined.
 */
export function checkOptionValue(
  value: unknown,
  declaration: OptionDeclaration,
  path: (string | number)[],
  root: string,
  reportAt: ReportAt,
): unknown {
  const report = rejecting(reportAt);
  const hint = declaration.example ? `e.g. ${declaration.example}` : undefined;
  switch (declaration.type) {
    case 'boolean':
      if (typeof value === 'boolean') return value;
      return report(path, `expected true or false, not ${describe(value)}`, hint);
    case 'string':
      return checkString(value, declaration.values, path, reportAt, hint);
    case 'path':
      if (typeof value === 'string' && value !== '') return resolve(root, value);
      return report(path, `expected a path, not ${describe(value)}`, hint);
    case 'paths': {
      const list = typeof value === 'string' ? [value] : value;
      if (!Array.isArray(list) || list.length === 0)
        return report(path, `expected a path or a list of paths, not ${describe(value)}`, hint);
      let ok = true;
      list.forEach((item: unknown, index) => {
        if (typeof item === 'string' && item !== '') return;
        ok = false;
        reportAt(typeof value === 'string' ? path : [...path, index], `expected a path, not ${describe(item)}`, hint);
      });
      return ok ? (list as string[]).map((item) => resolve(root, item)) : undefined;
    }
    case 'map': {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) {
        return report(
          path,
          `expected an object from ${declaration.keys} to ${valueText(declaration.values)}, not ${describe(value)}`,
          hint,
        );
      }
      const wrong = Object.entries(value as Record<string, unknown>).filter(
        ([key, entry]) => !checkMapValue(entry, declaration.values, [...path, key], reportAt, hint),
      );
      return wrong.length === 0 ? value : undefined;
    }
  }
}

/** `report`, returning undefined, so a check can end with `return report(...)`. */
function rejecting(report: ReportAt): (...args: Parameters<ReportAt>) => undefined {
  return (...args) => {
    report(...args);
    return undefined;
  };
}

function checkString(
  value: unknown,
  values: readonly string[] | undefined,
  path: (string | number)[],
  reportAt: ReportAt,
  hint?: string,
): string | undefined {
  const report = rejecting(reportAt);
  if (typeof value !== 'string')
    return report(path, `expected ${values ? `one of ${values.join(', ')}` : 'a string'}, not ${describe(value)}`, hint);
  if (!values || values.includes(value)) return value;
  const near = closest(value, [...values]);
  return report(path, `expected one of ${values.join(', ')}, not ${describe(value)}`, near ? `did you mean "${near}"?` : hint);
}

function checkMapValue(value: unknown, type: MapValueType, path: (string | number)[], report: ReportAt, hint?: string): boolean {
  if (type.type === 'string') return checkString(value, type.values, path, report, hint) !== undefined;
  // A JSON Schema is an object or a boolean; a string must be one of the short names.
  if (typeof value === 'string' && type.names.includes(value)) return true;
  if (typeof value === 'boolean' || (typeof value === 'object' && value !== null && !Array.isArray(value))) return true;
  const near = typeof value === 'string' ? closest(value, [...type.names]) : undefined;
  report(path, `expected ${valueText(type)}, not ${describe(value)}`, near ? `did you mean "${near}"?` : hint);
  return false;
}

function valueText(type: MapValueType): string {
  if (type.type === 'schema') return `${type.names.join(', ')} or a JSON Schema object`;
  return type.values ? `one of ${type.values.join(', ')}` : 'a string';
}

/** The option's type in a few words, for `--help` and the README: `true | false`, `path or list of paths`, ... */
export function typeText(declaration: OptionDeclaration): string {
  switch (declaration.type) {
    case 'boolean':
      return 'true | false';
    case 'string':
      return declaration.values ? declaration.values.join(' | ') : 'string';
    case 'path':
      return 'path';
    case 'paths':
      return 'path or list of paths';
    case 'map': {
      const values =
        declaration.values.type === 'schema'
          ? [...declaration.values.names, 'JSON Schema'].join(' | ')
          : (declaration.values.values?.join(' | ') ?? 'string');
      return `{ <${declaration.keys}>: ${values} }`;
    }
  }
}
