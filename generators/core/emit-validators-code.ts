/**
 * Building blocks for emitting one validator function: an indented line buffer, the scope a
 * subschema is emitted in, and the two ways a failed check ends (`return false` in a boolean
 * check, an error pushed in a collecting pass).
 */
import type { JsonSchema } from './model.js';
import { stringLiteral } from './names.js';

/** `check`: boolean, stops at the first failure. `collect`: pushes every error, returns nothing. */
export type Mode = 'check' | 'collect';

/**
 * `read` (what a server sends: writeOnly properties are not required), `write` (what a client
 * sends: readOnly properties are not required) or `plain` JSON Schema.
 */
export type Direction = 'read' | 'write' | 'plain';

/** A piece of a JSON pointer into the value: fixed text (already escaped) or an expression. */
export type PathPart = { text: string } | { expr: string };

export interface Scope {
  mode: Mode;
  dir: Direction;
  /** Document the schema belongs to: where `#...` references are resolved. */
  doc: JsonSchema;
  /** Identifier holding the value being checked (type `unknown`). */
  value: string;
  /**
   * True while nothing has narrowed `value` in this function: `value === "x"` can then be written
   * plainly; afterwards TypeScript could reject the comparison as impossible, so it is cast first.
   */
  fresh: boolean;
  /** Where the value is, relative to the function's `path` parameter (collect mode only). */
  path: PathPart[];
  /** Where the schema is in its document, as unescaped segments (for names and messages). */
  pointer: string[];
}

/** Names of the generated functions' parameters. */
export const VALUE = 'value';
export const PATH = 'path';
export const ERRORS = 'errors';

/** Lines of one function body, with fresh local names shared by nested blocks. */
export class Body {
  private readonly lines: string[] = [];

  constructor(
    private depth = 1,
    private readonly counters: Map<string, number> = new Map(),
  ) {}

  /** A new local name: `v1`, `o2`, ... Module-level names never look like this. */
  local(prefix: string): string {
    const next = (this.counters.get(prefix) ?? 0) + 1;
    this.counters.set(prefix, next);
    return `${prefix}${next}`;
  }

  line(text: string): void {
    this.lines.push(`${'  '.repeat(this.depth)}${text}`);
  }

  /** `head {`, the lines `inner` writes one level deeper, `}`; nothing when `inner` writes nothing. */
  block(head: string, inner: (body: Body) => void, tail = '}'): boolean {
    const child = this.fork(1);
    inner(child);
    if (child.empty) return false;
    this.line(`${head} {`);
    this.lines.push(...child.lines);
    this.line(tail);
    return true;
  }

  /** A buffer for speculative output at this depth (+ `extra`), sharing local names. */
  fork(extra = 0): Body {
    return new Body(this.depth + extra, this.counters);
  }

  append(other: Body): void {
    this.lines.push(...other.lines);
  }

  get empty(): boolean {
    return this.lines.length === 0;
  }

  get text(): string {
    return this.lines.join('\n');
  }
}

/** Whether generated `code` uses the identifier `name` (outside string literals). */
export function references(code: string, name: string): boolean {
  return new RegExp(`\\b${name.replace(/\$/g, '\\$')}\\b`).test(code.replace(/"(?:[^"\\\n]|\\.)*"/g, '""'));
}

/** Escapes one JSON pointer segment. */
export function escapeToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

export function child(scope: Scope, value: string, part: PathPart | undefined, ...pointer: string[]): Scope {
  return {
    ...scope,
    value,
    fresh: true,
    path: part ? [...scope.path, part] : scope.path,
    pointer: [...scope.pointer, ...pointer],
  };
}

/** The same value, checked against a subschema at `segments` (an allOf member, a branch, ...). */
export function at(scope: Scope, ...segments: Array<string | number>): Scope {
  return { ...scope, fresh: false, pointer: [...scope.pointer, ...segments.map(String)] };
}

/** The pointer of `scope` (plus `extra`) as a string expression, built only when it is evaluated. */
export function pathExpr(scope: Scope, extra: PathPart[] = []): string {
  const pieces: string[] = [PATH];
  let text = '';
  for (const part of [...scope.path, ...extra]) {
    if ('text' in part) {
      text += `/${part.text}`;
    } else {
      pieces.push(stringLiteral(`${text}/`), part.expr);
      text = '';
    }
  }
  if (text) pieces.push(stringLiteral(text));
  return pieces.join(' + ');
}

/** A message: fixed text, or `{ expr }` for one computed when the error is reported. */
export type Message = string | { expr: string };

/** Ends a failed check: `return false`, or record the error and carry on. */
export function fail(scope: Scope, body: Body, keyword: string, message: Message, extra: PathPart[] = []): void {
  if (scope.mode === 'check') {
    body.line('return false;');
    return;
  }
  const text = typeof message === 'string' ? stringLiteral(message) : message.expr;
  body.line(`${ERRORS}.push({ path: ${pathExpr(scope, extra)}, keyword: ${stringLiteral(keyword)}, message: ${text} });`);
}

/** `if (failed) <fail>`, on one line in check mode. */
export function check(scope: Scope, body: Body, failed: string, keyword: string, message: Message, extra: PathPart[] = []): void {
  if (scope.mode === 'check') {
    body.line(`if (${failed}) return false;`);
    return;
  }
  body.block(`if (${failed})`, (inner) => fail(scope, inner, keyword, message, extra));
}

/**
 * A check that guards further checks (a type test before the string keywords, ...). In check
 * mode the rest follows at the same level; in collect mode it goes in an `else`.
 */
export function gate(
  scope: Scope,
  body: Body,
  failed: string,
  keyword: string,
  message: Message,
  rest: (body: Body) => void,
): void {
  if (scope.mode === 'check') {
    body.line(`if (${failed}) return false;`);
    rest(body);
    return;
  }
  const after = body.fork(1);
  rest(after);
  const report = body.fork(1);
  fail(scope, report, keyword, message);
  body.line(`if (${failed}) {`);
  body.append(report);
  if (after.empty) {
    body.line('}');
  } else {
    body.line('} else {');
    body.append(after);
    body.line('}');
  }
}

/** Whether `expression` is one parenthesised group, `(a || b)` (not `(a) || (b)`). */
function enclosed(expression: string): boolean {
  if (!expression.startsWith('(')) return false;
  let depth = 0;
  for (let i = 0; i < expression.length; i++) {
    const char = expression[i];
    if (char === '"') {
      for (i++; i < expression.length && expression[i] !== '"'; i++) if (expression[i] === '\\') i++;
    } else if (char === '(') {
      depth++;
    } else if (char === ')' && --depth === 0) {
      return i === expression.length - 1;
    }
  }
  return false;
}

/** `expression` safe as an operand of `&&`: wrapped when it has a top-level `||` or `?:`. */
export function operand(expression: string): string {
  return /\|\||\?/.test(expression) && !enclosed(expression) ? `(${expression})` : expression;
}

/** Short JSON text of a value for messages. */
export function shortJson(value: unknown, max = 80): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** `a`, `a or b`, `a, b or c`. */
export function orList(items: string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}
