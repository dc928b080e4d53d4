/**
 * A second chance for YAML that js-yaml (what most OpenAPI tools parse with) reads but the `yaml`
 * package refuses: a multi-line quoted string whose continuation lines are indented no deeper than
 * its key, as in Docker Engine's swagger.yaml:
 *
 *     description: "The name of the thing,
 *     as the daemon reports it."
 *
 * YAML 1.2 wants those lines indented past the key; js-yaml does not. The text is repaired by
 * indenting such lines just enough, which changes no line number and no value (a quoted string's
 * line breaks fold, and the leading spaces of its continuation lines are dropped), then parsed again
 * with `yaml`, so every later error still has its line and column. The repair is kept only when the
 * result equals what js-yaml reads from the original text.
 */
import { createRequire } from 'node:module';
import { isDeepStrictEqual } from 'node:util';

/**
 * A quoted string opening on `line` as a block value (`key: "…`, `"key": '…`, `- "…`): where its
 * key (or entry) starts, and where its opening quote is. One pass over the line, no backtracking:
 * this runs on files the YAML parser has just refused, which may be hostile.
 */
function opening(line: string): { keyColumn: number; quoteAt: number } | undefined {
  let i = 0;
  while (line[i] === ' ') i++;
  while (line[i] === '-' && line[i + 1] === ' ') {
    i += 2;
    while (line[i] === ' ') i++;
  }
  const keyColumn = i;
  const first = line[i];
  if (first === '"' || first === "'") {
    const end = quotedEnd(line, i);
    if (end === undefined) return { keyColumn, quoteAt: i }; // a sequence entry that goes on
    return valueQuote(line, end, keyColumn); // a quoted key
  }
  if (first === undefined || '#{[|>&*!%@`'.includes(first)) return undefined;
  const colon = line.indexOf(': ', i);
  if (colon === -1 || line.slice(i, colon).includes(' #')) return undefined;
  return valueQuote(line, colon, keyColumn);
}

/** After a key ending at `at` (its `:`, or just past its closing quote): `: "` or `: '` opens the value. */
function valueQuote(line: string, at: number, keyColumn: number): { keyColumn: number; quoteAt: number } | undefined {
  let i = at;
  while (line[i] === ' ') i++;
  if (line[i] !== ':' || line[i + 1] !== ' ') return undefined;
  i += 2;
  while (line[i] === ' ') i++;
  const quote = line[i];
  return quote === '"' || quote === "'" ? { keyColumn, quoteAt: i } : undefined;
}

/** The index after the closing quote of the string opened at `line[start]`, if it closes on this line. */
function quotedEnd(line: string, start: number): number | undefined {
  const quote = line[start];
  for (let k = start + 1; k < line.length; k++) {
    if (quote === '"' && line[k] === '\\') k++;
    else if (line[k] === quote) {
      if (quote === "'" && line[k + 1] === "'") k++;
      else return k + 1;
    }
  }
  return undefined;
}

export interface Repair {
  /** The text with continuation lines indented past their key. */
  text: string;
  /** How many quoted strings were re-indented. */
  strings: number;
}

/** Indents the under-indented continuation lines of multi-line quoted strings; undefined if there are none. */
export function repairQuotedIndentation(text: string): Repair | undefined {
  const lines = text.split('\n');
  let strings = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const found = opening(line);
    if (!found) continue;
    const { keyColumn, quoteAt } = found;
    const end = closingLine(lines, i, quoteAt + 1, line[quoteAt] as string);
    if (end === undefined) return undefined; // never closed: nothing sensible to repair
    let repaired = false;
    for (let j = i + 1; j <= end; j++) {
      const next = lines[j] as string;
      const indent = /^ */.exec(next)?.[0].length ?? 0;
      if (next.trim() === '' || indent > keyColumn) continue;
      lines[j] = ' '.repeat(keyColumn + 1 - indent) + next;
      repaired = true;
    }
    if (repaired) strings++;
    i = end;
  }
  return strings > 0 ? { text: lines.join('\n'), strings } : undefined;
}

/** The line on which the quoted string opened at `lines[start][from - 1]` closes. */
function closingLine(lines: string[], start: number, from: number, quote: string): number | undefined {
  let column = from;
  for (let j = start; j < lines.length; j++, column = 0) {
    const line = lines[j] as string;
    for (let k = column; k < line.length; k++) {
      const char = line[k];
      if (quote === '"' && char === '\\') k++;
      else if (char === quote) {
        if (quote === "'" && line[k + 1] === "'") k++;
        else return j;
      }
    }
  }
  return undefined;
}

/** What js-yaml reads from `text` (its YAML 1.2 core schema, as `yaml` uses), or undefined when it refuses too. */
export function readWithJsYaml(text: string): { data: unknown } | undefined {
  // Loaded only when `yaml` refused a file: a run over valid files never pays for it.
  const { load, CORE_SCHEMA } = createRequire(import.meta.url)('js-yaml') as typeof import('js-yaml');
  try {
    return { data: load(text, { schema: CORE_SCHEMA }) };
  } catch {
    return undefined;
  }
}

export function sameData(a: unknown, b: unknown): boolean {
  return isDeepStrictEqual(a, b);
}
