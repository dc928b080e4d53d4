/**
 * Building blocks for emitting one validator function: the statements of its body (rendered with
 * `else if` chains and one-line branches where that reads well), the scope a subschema is emitted
 * in, and how a failed check ends.
 *
 * Every generated function checks and collects in one pass:
 *
 *     function checkTask(value: unknown, errors?: ErrorCollector): boolean
 *
 * A failed check runs `ok = fail(errors, "/title", "minLength", "...")`: `fail` records the error
 * when `errors` is given and returns false. Without `errors` (the yes/no answer) nothing is
 * recorded and no path is built, and the function stops at `if (!ok && !errors) return false;`,
 * which comes before every call of another function and at the top of every loop.
 */
import type { JsonSchema } from '../../schema/json-schema.js';
import { stringLiteral } from '../../builder/names.js';

/**
 * `read` (what a server sends: writeOnly properties are not required), `write` (what a client
 * sends: readOnly properties are not required) or `plain` JSON Schema.
 */
export type Direction = 'read' | 'write' | 'plain';

/**
 * A piece of a JSON pointer into the value: fixed text (already escaped), an expression (an
 * index), or the name of a variable holding a property name (escaped when the path is built).
 */
export type PathPart = { text: string } | { expr: string } | { key: string };

export interface Scope {
  /** The function being generated (parts of it are named after it). */
  fn: string;
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
  /** Where the value is, relative to the function's `errors` collector. */
  path: PathPart[];
  /** Where the schema is in its document, as unescaped segments (for names and messages). */
  pointer: string[];
}

/** Names of the generated functions' parameters and of the validity flag. */
export const VALUE = 'value';
export const ERRORS = 'errors';
export const OK = 'ok';

/** `if (!ok && !errors) return false;`: stop a yes/no pass at the first failure. */
export const EXIT = `if (!${OK} && !${ERRORS}) return false;`;

/** A statement: a simple one (its text, with the semicolon), or a compound one. */
export type Stmt = string | IfStmt | BlockStmt | SwitchStmt;

export interface IfStmt {
  kind: 'if';
  condition: string;
  then: Stmt[];
  otherwise: Stmt[];
}

/** `head { body }`: loops. */
export interface BlockStmt {
  kind: 'block';
  head: string;
  body: Stmt[];
}

export interface SwitchStmt {
  kind: 'switch';
  subject: string;
  cases: Array<{ labels: string[]; body: Stmt[] }>;
}

/** Per generated function: fresh local names, and whether a failure may be unreported to an exit. */
class FunctionState {
  readonly counters = new Map<string, number>();
  /** A failure may have been recorded, on the way to the statement being emitted, since the last `EXIT`. */
  pending = false;
}

/** Statements of one function body, with fresh local names shared by nested blocks. */
export class Body {
  readonly stmts: Stmt[] = [];

  constructor(private readonly state: FunctionState = new FunctionState()) {}

  /** A new local name: `v1`, `o2`, ... Module-level names never look like this. */
  local(prefix: string): string {
    const next = (this.state.counters.get(prefix) ?? 0) + 1;
    this.state.counters.set(prefix, next);
    return `${prefix}${next}`;
  }

  line(text: string): void {
    this.stmts.push(text);
  }

  push(stmt: Stmt): void {
    this.stmts.push(stmt);
  }

  /** `ok = <expression>` for a failed check (`fail(...)` or `false`). */
  failed(expression: string): void {
    this.stmts.push(`${OK} = ${expression};`);
    this.state.pending = true;
  }

  /** Stops a yes/no pass here if something failed before: emitted ahead of costly work. */
  exit(): void {
    if (!this.state.pending) return;
    this.stmts.push(EXIT);
    this.state.pending = false;
  }

  /**
   * `head { if (!ok && !errors) return false; ...declarations; ...inner }`: a loop that stops a yes/no
   * pass at the first failing item. `inner` returns the declarations its statements need.
   */
  loop(head: string, inner: (body: Body) => string[]): boolean {
    const child = this.fork();
    const pending = this.state.pending;
    // The exit at the top of the loop covers what failed before it.
    this.state.pending = false;
    const declarations = inner(child);
    if (child.empty) {
      this.state.pending = pending;
      return false;
    }
    this.stmts.push({ kind: 'block', head, body: [EXIT, ...declarations, ...child.stmts] });
    this.state.pending = true;
    return true;
  }

  /** `if (condition) then else otherwise`; nothing when both are empty. Returns whether it was written. */
  if(condition: string, then: (body: Body) => void, otherwise?: (body: Body) => void): boolean {
    const before = this.state.pending;
    const yes = this.fork();
    then(yes);
    const afterYes = this.state.pending;
    this.state.pending = before;
    const no = this.fork();
    otherwise?.(no);
    this.state.pending ||= afterYes;
    if (yes.empty && no.empty) return false;
    // An exit at the start of a branch can as well come before the `if`.
    const exits = [yes, no].filter((branch) => branch.stmts[0] === EXIT);
    for (const branch of exits) branch.stmts.shift();
    if (exits.length) this.stmts.push(EXIT);
    if (yes.empty && no.empty) return true;
    if (yes.empty) this.stmts.push(nested(negate(condition), no.stmts));
    else if (no.empty) this.stmts.push(nested(condition, yes.stmts));
    else this.stmts.push({ kind: 'if', condition, then: yes.stmts, otherwise: no.stmts });
    return true;
  }

  /** `head { inner }`; nothing when `inner` writes nothing. Returns whether it was written. */
  block(head: string, inner: (body: Body) => void): boolean {
    const child = this.fork();
    inner(child);
    if (child.empty) return false;
    this.stmts.push({ kind: 'block', head, body: child.stmts });
    return true;
  }

  /** `switch (subject) { case ...: ... }`, each case emitted by `emit` into its own body. */
  switch(subject: string, cases: Array<{ labels: string[]; emit: (body: Body) => void }>): void {
    const before = this.state.pending;
    let after = before;
    const emitted = cases.map((item) => {
      this.state.pending = before;
      const body = this.fork();
      item.emit(body);
      after ||= this.state.pending;
      return { labels: item.labels, body: body.stmts };
    });
    this.state.pending = after;
    this.stmts.push({ kind: 'switch', subject, cases: emitted });
  }

  /** A buffer for speculative output, sharing local names. */
  fork(): Body {
    return new Body(this.state);
  }

  append(other: Body): void {
    this.stmts.push(...other.stmts);
  }

  get empty(): boolean {
    return this.stmts.length === 0;
  }

  /** The statements as text (for `references`; indentation is not final). */
  get text(): string {
    return render(this.stmts, 0).join('\n');
  }
}

/** `if (a) { if (b) x; }` as `if (a && b) x;`. */
function nested(condition: string, then: Stmt[]): IfStmt {
  const [inner] = then;
  if (then.length === 1 && typeof inner !== 'string' && inner.kind === 'if' && inner.otherwise.length === 0) {
    return { kind: 'if', condition: `${operand(condition)} && ${operand(inner.condition)}`, then: inner.then, otherwise: [] };
  }
  return { kind: 'if', condition, then, otherwise: [] };
}

/** `!(condition)`, without double negation or needless parentheses. */
export function negate(condition: string): string {
  if (/^![\w$.]+(\([^()]*\))?$/.test(condition)) return condition.slice(1);
  if (condition.startsWith('!(') && enclosed(condition.slice(1))) return condition.slice(2, -1);
  if (/^[\w$.]+(\([^()]*\))?$/.test(condition) || enclosed(condition)) return `!${condition}`;
  return `!(${condition})`;
}

/** A statement that can stand as a one-line branch. */
function simple(stmt: Stmt | undefined): stmt is string {
  return typeof stmt === 'string' && !/^(if|for|switch|while|const|let)\b/.test(stmt);
}

/** One-line branch when it is a single simple statement, a braced block otherwise. */
function branch(stmts: Stmt[], depth: number): { inline?: string; lines?: string[] } {
  if (stmts.length === 1 && simple(stmts[0])) return { inline: stmts[0] };
  return { lines: render(stmts, depth + 1) };
}

/**
 * `if (a) x; else if (b) y; else { ... }`: a branch of a single simple statement stays on the
 * line of its condition; once one branch needs braces, those after it get them too, so a line
 * never starts with `} else x;`.
 */
function renderIf(stmt: IfStmt, depth: number, out: string[]): void {
  const indent = '  '.repeat(depth);
  let braced = false;
  let current: IfStmt | undefined = stmt;
  let prefix = 'if';
  while (current) {
    const then = braced ? { lines: render(current.then, depth + 1) } : branch(current.then, depth);
    if (then.inline !== undefined) {
      out.push(`${indent}${prefix} (${current.condition}) ${then.inline}`);
    } else {
      out.push(`${indent}${braced ? '} ' : ''}${prefix} (${current.condition}) {`, ...(then.lines ?? []));
      braced = true;
    }
    const rest: Stmt[] = current.otherwise;
    if (rest.length === 0) break;
    const next = rest.length === 1 && typeof rest[0] !== 'string' && rest[0].kind === 'if' ? rest[0] : undefined;
    if (next) {
      current = next;
      prefix = 'else if';
      continue;
    }
    const tail = braced ? { lines: render(rest, depth + 1) } : branch(rest, depth);
    if (tail.inline !== undefined) out.push(`${indent}else ${tail.inline}`);
    else {
      out.push(`${indent}${braced ? '} ' : ''}else {`, ...(tail.lines ?? []));
      braced = true;
    }
    break;
  }
  if (braced) out.push(`${indent}}`);
}

export function render(stmts: Stmt[], depth: number): string[] {
  const indent = '  '.repeat(depth);
  const out: string[] = [];
  for (const stmt of stmts) {
    if (typeof stmt === 'string') {
      out.push(`${indent}${stmt}`);
    } else if (stmt.kind === 'if') {
      renderIf(stmt, depth, out);
    } else if (stmt.kind === 'block') {
      out.push(`${indent}${stmt.head} {`, ...render(stmt.body, depth + 1), `${indent}}`);
    } else {
      out.push(`${indent}switch (${stmt.subject}) {`);
      for (const item of stmt.cases) {
        for (const label of item.labels) out.push(`${indent}  ${label}`);
        out.push(...render(item.body, depth + 2));
      }
      out.push(`${indent}}`);
    }
  }
  return out;
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

/** The pointer of `scope` (plus `extra`) relative to the collector, as a string expression. */
export function pathExpr(scope: Scope, extra: PathPart[] = []): string {
  const pieces: string[] = [];
  let text = '';
  for (const part of [...scope.path, ...extra]) {
    if ('text' in part) {
      text += `/${part.text}`;
    } else {
      pieces.push(stringLiteral(`${text}/`), 'expr' in part ? part.expr : `pointerToken(${part.key})`);
      text = '';
    }
  }
  if (text || pieces.length === 0) pieces.push(stringLiteral(text));
  return pieces.join(' + ');
}

/** A message: fixed text, or `{ expr }` for one computed when the error is reported. */
export type Message = string | { expr: string };

/** Records a failure: `ok = fail(errors, "/path", "keyword", "message");`. */
export function fail(scope: Scope, body: Body, keyword: string, message: Message, extra: PathPart[] = []): void {
  const text = typeof message === 'string' ? stringLiteral(message) : message.expr;
  body.failed(`fail(${ERRORS}, ${pathExpr(scope, extra)}, ${stringLiteral(keyword)}, ${text})`);
}

/** `if (failed) <fail>`. */
export function check(scope: Scope, body: Body, failed: string, keyword: string, message: Message, extra: PathPart[] = []): void {
  body.if(failed, (inner) => fail(scope, inner, keyword, message, extra));
}

/** A check that guards further checks (a type test before the string keywords, ...): `if (failed) <fail> else { rest }`. */
export function gate(scope: Scope, body: Body, failed: string, keyword: string, message: Message, rest: (body: Body) => void): void {
  body.if(failed, (inner) => fail(scope, inner, keyword, message), rest);
}

/** A cheap size check (`maxLength`, `maxItems`, ...) that must pass before the costly ones run. */
export interface Bound {
  failed: string;
  keyword: string;
  message: Message;
}

/**
 * `if (bound1 fails) <fail> else if (bound2 fails) <fail> else { rest }`: the work on a value's
 * content (pattern, items, uniqueItems, properties) runs only once its size is within bounds, in
 * a collecting pass too, so a request's cost stays linear in its size however it is built.
 */
export function bounded(scope: Scope, body: Body, bounds: Bound[], rest: (body: Body) => void): void {
  const [first, ...others] = bounds;
  if (!first) rest(body);
  else gate(scope, body, first.failed, first.keyword, first.message, (inner) => bounded(scope, inner, others, rest));
}

/**
 * A call of another check function: `if (!checkX(value, errors)) ok = false;` on the function's
 * own value; below it, a yes/no pass calls the function directly and a collecting one through
 * `callAt`, which moves the callee's errors under the value's path, joining an item's index or a
 * property's name only then (no path string or collector is built while the value is valid):
 * `if (errors ? !callAt(v1, errors, "/items/", checkX, i1) : !checkX(v1)) ok = false;`.
 */
export function call(scope: Scope, body: Body, name: string, m: { use(helper: string): string }): void {
  body.exit();
  if (scope.path.length === 0) {
    body.if(`!${name}(${scope.value}, ${ERRORS})`, (inner) => inner.failed('false'));
    return;
  }
  const last = scope.path[scope.path.length - 1] as PathPart;
  const before = () => pathExpr({ ...scope, path: scope.path.slice(0, -1) }, [{ text: '' }]);
  const args = 'text' in last ? `${pathExpr(scope)}, ${name}` : `${before()}, ${name}, ${'expr' in last ? last.expr : last.key}`;
  body.if(`${ERRORS} ? !${m.use('callAt')}(${scope.value}, ${ERRORS}, ${args}) : !${name}(${scope.value})`, (inner) =>
    inner.failed('false'),
  );
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

/** Whether `expression` has a `||`, `??` or `?:` outside parentheses and string literals. */
function looseOperators(expression: string): boolean {
  let depth = 0;
  for (let i = 0; i < expression.length; i++) {
    const char = expression[i];
    if (char === '"') {
      for (i++; i < expression.length && expression[i] !== '"'; i++) if (expression[i] === '\\') i++;
    } else if (char === '(' || char === '[') {
      depth++;
    } else if (char === ')' || char === ']') {
      depth--;
    } else if (depth === 0 && ((char === '|' && expression[i + 1] === '|') || (char === '?' && expression[i + 1] !== '.'))) {
      return true;
    }
  }
  return false;
}

/** `expression` safe as an operand of `&&`: wrapped when it has a top-level `||` or `?:`. */
export function operand(expression: string): string {
  return looseOperators(expression) ? `(${expression})` : expression;
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
