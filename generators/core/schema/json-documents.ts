/**
 * Input files and the `$ref`s between them, shared by the OpenAPI and AsyncAPI loaders: reading,
 * parsing (JSON or YAML), source positions for any JSON pointer, and resolving a reference relative
 * to the file it is written in.
 *
 * YAML files keep the `yaml` Document, so positions come from its nodes. JSON files are parsed with
 * `JSON.parse` (yaml's parser takes ~4 s on GitHub's 13 MB description, JSON.parse ~0.1 s) and
 * positions are found only when asked, by scanning the text (see `JsonPositions`).
 */
import { dirname, relative, resolve, sep } from 'node:path';
import { isAlias, isMap, isScalar, isSeq, LineCounter, parseDocument } from 'yaml';
import type { Document, Node as YamlNode } from 'yaml';
import type { Diagnostic, SourceLocation } from '../diagnostics.js';
import { CodegenError } from '../diagnostics.js';
import { InputFiles, refusalHint, showPath } from '../pipeline/input-files.js';
import { readWithJsYaml, repairQuotedIndentation, sameData } from './lenient-yaml.js';

/** A JSON pointer as a linked list, so walking a big document allocates one cell per step. */
export interface Path {
  readonly parent: Path | undefined;
  readonly key: string;
}

export function child(path: Path | undefined, key: string | number): Path {
  return { parent: path, key: String(key) };
}

export function segments(path: Path | undefined): string[] {
  const out: string[] = [];
  for (let p = path; p; p = p.parent) out.push(p.key);
  return out.reverse();
}

export function encodePointer(parts: string[]): string {
  return parts.map((part) => `/${part.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

/** `Object.hasOwn` lookup: user keys such as `constructor` must not reach the prototype. */
export function own(value: unknown, key: string): unknown {
  if (value === null || typeof value !== 'object') return undefined;
  return Object.prototype.hasOwnProperty.call(value, key) ? (value as Record<string, unknown>)[key] : undefined;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Sets a key even when it is `__proto__` (which plain assignment would treat as the prototype). */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

export interface SourceDoc {
  /** Absolute path. */
  readonly path: string;
  /** Path for messages: relative to the display root, `/` separators. */
  readonly display: string;
  readonly data: unknown;
  /** Position of the value at `pointer` (or of its key), or of the nearest ancestor that exists. */
  locate(pointer: Path | string[] | undefined, part?: 'key' | 'value'): SourceLocation;
}

/** Something in a document: the file and the pointer to it. */
export interface Where {
  doc: SourceDoc;
  path: Path | undefined;
}

/** The place `keys` below `where`, in the same document. */
export function at(where: Where, ...keys: (string | number)[]): Where {
  let path = where.path;
  for (const key of keys) path = child(path, key);
  return { doc: where.doc, path };
}

export function locate(where: Where, part: 'key' | 'value' = 'value'): SourceLocation {
  return where.doc.locate(where.path, part);
}

/**
 * `target[key]` is `locate(where, part)`, found when first read: a position in a large JSON text
 * costs a scan of it (~0.3 s for GitHub's description), and generation never reads the positions
 * it keeps for `diff` and `lint`. Not enumerable, so copying or serializing `target` skips it.
 */
export function locateWhenRead(target: object, key: string, where: Where, part: 'key' | 'value' = 'value'): void {
  Object.defineProperty(target, key, {
    configurable: true,
    enumerable: false,
    get() {
      const location = locate(where, part);
      Object.defineProperty(target, key, { value: location, configurable: true, enumerable: false, writable: true });
      return location;
    },
  });
}

/**
 * Collects problems so one run reports many, not just the first. Warnings are what a loader
 * forgives (a reading other tools take too) when `forgive` is set; errors otherwise (`--strict`,
 * and loaders that do not report warnings).
 */
export class Problems {
  readonly list: Diagnostic[] = [];
  readonly warnings: Diagnostic[] = [];
  private readonly seen = new Set<string>();
  /** Problems reported so far, each time one is (a repeat too): a step that reported none is known to have none. */
  reported = 0;

  constructor(private readonly forgive = false) {}

  add(message: string, location: SourceLocation | undefined, hint?: string): void {
    this.push({ severity: 'error', message, location, hint });
  }

  /** Something forgivable: generation goes on with the reading `message` names, when forgiving. */
  warn(message: string, location: SourceLocation | undefined, hint?: string): void {
    this.push({ severity: this.forgive ? 'warning' : 'error', message, location, hint });
  }

  /** Adds a diagnostic once: a shared component with a problem is reached from many places. */
  push(diagnostic: Diagnostic): void {
    this.reported++;
    const where = diagnostic.location;
    const key = `${where ? `${where.file}:${where.line}:${where.column}` : ''} ${diagnostic.message}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    (diagnostic.severity === 'warning' ? this.warnings : this.list).push(diagnostic);
  }

  /** Throws every problem, in file order, so they read top to bottom. */
  throwIfAny(): void {
    if (!this.list.length) return;
    throw new CodegenError(inFileOrder(this.list));
  }

  /** The warnings in file order. */
  sortedWarnings(): Diagnostic[] {
    return inFileOrder(this.warnings);
  }
}

function inFileOrder(list: Diagnostic[]): Diagnostic[] {
  const position = (d: Diagnostic) => d.location ?? { file: '', line: 0, column: 0 };
  return [...list].sort((a, b) => {
    const x = position(a);
    const y = position(b);
    return x.file < y.file ? -1 : x.file > y.file ? 1 : x.line - y.line || x.column - y.column;
  });
}

/** Offsets → 1-based line and column, from a table of line starts. */
class Lines {
  private starts: number[] | undefined;
  constructor(private readonly text: string) {}

  at(offset: number): { line: number; column: number } {
    if (!this.starts) {
      const starts = [0];
      for (let i = this.text.indexOf('\n'); i !== -1; i = this.text.indexOf('\n', i + 1)) starts.push(i + 1);
      this.starts = starts;
    }
    const starts = this.starts;
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - starts[lo] + 1 };
  }
}

/** Positions in a document parsed with the `yaml` package: walk its nodes along the pointer. */
class YamlDoc implements SourceDoc {
  constructor(
    readonly path: string,
    readonly display: string,
    readonly data: unknown,
    private readonly document: Document,
    private readonly lines: Lines,
  ) {}

  locate(pointer: Path | string[] | undefined, part: 'key' | 'value' = 'value'): SourceLocation {
    const parts = Array.isArray(pointer) ? pointer : segments(pointer);
    let node: unknown = this.document.contents;
    let offset = (node as YamlNode | null)?.range?.[0] ?? 0;
    for (let i = 0; i < parts.length; i++) {
      if (isAlias(node)) node = node.resolve(this.document);
      let next: unknown;
      let keyOffset: number | undefined;
      if (isMap(node)) {
        const pair = node.items.find((item) => keyText(item.key) === parts[i]);
        if (!pair) break;
        keyOffset = (pair.key as YamlNode | null)?.range?.[0];
        next = pair.value;
      } else if (isSeq(node)) {
        next = node.items[Number(parts[i])];
        if (next === undefined) break;
      } else break;
      const valueOffset = (next as YamlNode | null)?.range?.[0];
      const last = i === parts.length - 1;
      offset = last && part === 'key' && keyOffset !== undefined ? keyOffset : (valueOffset ?? keyOffset ?? offset);
      node = next;
    }
    return { file: this.display, ...this.lines.at(offset) };
  }
}

function keyText(key: unknown): string | undefined {
  if (isScalar(key)) return String(key.value);
  return key === null || key === undefined ? undefined : String(key);
}

/** Where a value lies in a JSON text: its key (members of objects), its first character and the offset after its last. */
export interface JsonSpan {
  key: number;
  value: number;
  end: number;
  /** The pointer's parts. */
  parts: string[];
}

/** The spans of the values down to some depth, by JSON pointer; a duplicate key's span is its last (the one JSON.parse keeps). */
export type JsonIndex = Map<string, JsonSpan>;

/** How deep `JsonPositions` indexes: `/paths/{path}/{method}`, `/components/schemas/{name}`. */
export const INDEXED_DEPTH = 3;

/**
 * Positions in a JSON text, found by scanning only what lies on the way to the pointer. The first
 * three levels (`/paths/{path}/{method}`, `/components/schemas/{name}`) are indexed in one pass the
 * first time they are needed (or handed over by json-reparse.ts, which keeps them across edits), so
 * many lookups in a large file stay cheap.
 */
export class JsonPositions {
  constructor(
    private readonly text: string,
    private index?: JsonIndex,
  ) {}

  /** The index of the first levels, built on first use. */
  spans(): JsonIndex {
    this.index ??= this.indexed(this.skipSpace(0), [], new Map());
    return this.index;
  }

  find(parts: string[]): { key?: number; value: number } {
    const index = this.spans();
    // Start from the deepest indexed ancestor, then scan the rest of the way.
    let depth = Math.min(parts.length, INDEXED_DEPTH);
    let start: { key?: number; value: number } = { value: this.skipSpace(0) };
    for (; depth > 0; depth--) {
      const hit = index.get(encodePointer(parts.slice(0, depth)));
      if (hit) {
        start = hit;
        break;
      }
    }
    let found = start;
    for (let i = depth; i < parts.length; i++) {
      const next = this.member(found.value, parts[i]);
      if (!next) break;
      found = next;
    }
    return found;
  }

  /** Adds to `index` the spans below the value at `at` (pointer `parts`) down to the indexed depth. */
  indexed(at: number, parts: string[], index: JsonIndex): JsonIndex {
    // Returns where the value at `at` ends, so no part of the text is scanned twice.
    const walk = (at: number, parts: string[], pointer: string): number => {
      if (parts.length >= INDEXED_DEPTH) return this.skipValue(at);
      return this.forEachMember(at, (name, key, value) => {
        const p = `${pointer}/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;
        const span: JsonSpan = { key, value, end: value, parts: [...parts, name] };
        index.set(p, span);
        span.end = walk(value, span.parts, p);
        return span.end;
      });
    };
    walk(at, parts, encodePointer(parts));
    return index;
  }

  /**
   * Calls `visit` for each member of the object or array starting at `at`; `visit` stops the walk
   * with `true`, or returns where the value ends when it scanned it. Returns where the walk ended.
   */
  private forEachMember(at: number, visit: (name: string, key: number, value: number) => boolean | number | void): number {
    const text = this.text;
    const open = text.charCodeAt(at);
    if (open !== 0x7b /* { */ && open !== 0x5b /* [ */) return this.skipValue(at);
    let i = this.skipSpace(at + 1);
    for (let n = 0; i < text.length && text.charCodeAt(i) !== open + 2; n++) {
      let name = String(n);
      const key = i;
      if (open === 0x7b) {
        const end = this.skipString(i);
        const raw = text.slice(i + 1, end - 1);
        name = raw.includes('\\') ? (JSON.parse(text.slice(i, end)) as string) : raw;
        i = this.skipSpace(this.skipSpace(end) + 1); // past ':'
      }
      const seen = visit(name, key, i);
      if (seen === true) return i;
      i = this.skipSpace(typeof seen === 'number' ? seen : this.skipValue(i));
      if (text.charCodeAt(i) === 0x2c /* , */) i = this.skipSpace(i + 1);
    }
    return i + 1;
  }

  private member(at: number, part: string): { key: number; value: number } | undefined {
    let found: { key: number; value: number } | undefined;
    this.forEachMember(at, (name, key, value) => {
      if (name !== part) return false;
      found = { key, value };
      return true;
    });
    return found;
  }

  private skipSpace(i: number): number {
    const text = this.text;
    for (let c = text.charCodeAt(i); c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09; c = text.charCodeAt(++i));
    return i;
  }

  /** `i` is at the opening quote; returns the offset after the closing one. */
  private skipString(i: number): number {
    const text = this.text;
    for (let j = i + 1; ; j++) {
      j = text.indexOf('"', j);
      if (j === -1) return text.length;
      let backslashes = 0;
      while (text.charCodeAt(j - 1 - backslashes) === 0x5c) backslashes++;
      if (backslashes % 2 === 0) return j + 1;
    }
  }

  private skipValue(i: number): number {
    const text = this.text;
    const c = text.charCodeAt(i);
    if (c === 0x22) return this.skipString(i);
    if (c === 0x7b || c === 0x5b) {
      // Jump from one structural character to the next; strings are skipped whole.
      const structural = /["{}[\]]/g;
      let depth = 0;
      structural.lastIndex = i;
      for (let match = structural.exec(text); match; match = structural.exec(text)) {
        const d = text.charCodeAt(match.index);
        if (d === 0x22) structural.lastIndex = this.skipString(match.index);
        else if (d === 0x7b || d === 0x5b) depth++;
        else if (--depth === 0) return match.index + 1;
      }
      return text.length;
    }
    for (; i < text.length; i++) {
      const d = text.charCodeAt(i);
      if (d === 0x2c || d === 0x7d || d === 0x5d || d === 0x20 || d === 0x0a || d === 0x0d || d === 0x09) return i;
    }
    return i;
  }
}

class JsonDoc implements SourceDoc {
  constructor(
    readonly path: string,
    readonly display: string,
    readonly data: unknown,
    private readonly positions: JsonPositions,
    private readonly lines: Lines,
  ) {}

  locate(pointer: Path | string[] | undefined, part: 'key' | 'value' = 'value'): SourceLocation {
    const parts = Array.isArray(pointer) ? pointer : segments(pointer);
    const found = this.positions.find(parts);
    const offset = part === 'key' && found.key !== undefined ? found.key : found.value;
    return { file: this.display, ...this.lines.at(offset) };
  }
}

/**
 * Parses of JSON files kept from one run to the next (`JsonReparse` in json-reparse.ts, which
 * builds on this module, so the type is declared here by what the documents call).
 */
export interface JsonParses {
  /** `text` parsed (throws as `JSON.parse` does), and its positions. */
  parse(path: string, text: string): { data: unknown; positions: JsonPositions };
}

/**
 * Reads and parses files once each; keeps the problems of files that would not parse. The input
 * itself is read wherever it is; files reached by `$ref` only inside `files`' allowed folders
 * (default: the display root).
 */
export class Documents {
  private readonly cache = new Map<string, SourceDoc | Diagnostic[]>();
  readonly files: InputFiles;
  /** What `lenientYaml` forgave, one warning per file. */
  readonly warnings: Diagnostic[] = [];

  /**
   * `lenientYaml`: YAML that js-yaml reads but `yaml` refuses (under-indented continuation lines of
   * quoted strings, see lenient-yaml.ts) is read as js-yaml reads it, with a warning. `reparse`:
   * the previous runs' parses of JSON files (`codegen --watch`), which an edit's parse starts from.
   */
  constructor(
    readonly displayRoot: string,
    files?: InputFiles,
    private readonly options: { lenientYaml?: boolean; reparse?: JsonParses } = {},
  ) {
    this.files = files ?? new InputFiles({ roots: [displayRoot] });
  }

  display(path: string): string {
    const rel = relative(this.displayRoot, path) || path;
    return rel.split(sep).join('/');
  }

  /**
   * The parsed file, or the diagnostics saying why it could not be read or parsed. `reached`: the
   * file was named by a `$ref`, not by the user, so it must lie inside the allowed folders.
   */
  open(absolutePath: string, reached = false): SourceDoc | Diagnostic[] {
    let doc = this.cache.get(absolutePath);
    if (!doc) {
      doc = this.parse(absolutePath, reached);
      // A refusal is not cached: the same file may be the user's own input elsewhere.
      if (!reached || !Array.isArray(doc)) this.cache.set(absolutePath, doc);
    }
    return doc;
  }

  private parse(path: string, reached: boolean): SourceDoc | Diagnostic[] {
    const display = this.display(path);
    const read = reached ? this.files.readReached(path) : this.files.readNamed(path);
    if (!read.ok) {
      // Said by its path only: nothing of a refused file is ever quoted.
      const show = (p: string) => showPath(this.displayRoot, p);
      const hint = read.refused ? refusalHint(read.refused, this.files, path, show) : undefined;
      return [{ severity: 'error', message: `cannot read ${show(path)}: ${read.why}`, hint }];
    }
    let text = read.text;
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    const lines = new Lines(text);
    // JSON first when it looks like JSON: much faster, and positions are found lazily.
    if (/^\s*[{[]/.test(text)) {
      try {
        const { data, positions } = this.options.reparse?.parse(path, text) ?? {
          data: JSON.parse(text),
          positions: new JsonPositions(text),
        };
        return new JsonDoc(path, display, data, positions, lines);
      } catch {
        // Not strict JSON: the YAML parser accepts more (and explains what it does not).
      }
    }
    let lineCounter = new LineCounter();
    let document: Document = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
    const lenient =
      document.errors.length && this.options.lenientYaml ? this.lenientParse(text, display, lineCounter, document) : undefined;
    if (lenient) ({ lineCounter, document } = lenient);
    if (document.errors.length) {
      // A truncated file makes the parser report a cascade at one spot; the first says what is wrong.
      const spots = new Set<number>();
      const firstPerSpot = document.errors.filter((problem) => !spots.has(problem.pos[0]) && spots.add(problem.pos[0]));
      return firstPerSpot.map((problem) => {
        const { line, col } = lineCounter.linePos(Math.max(0, problem.pos[0]));
        return {
          severity: 'error' as const,
          message: `invalid ${path.endsWith('.json') ? 'JSON' : 'YAML'}: ${problem.message.replace(/\s+/g, ' ').trim()}`,
          location: { file: display, line, column: col },
          hint: problem.code === 'DUPLICATE_KEY' ? 'remove or rename one of the two keys' : 'fix the syntax at this position',
        };
      });
    }
    let data: unknown;
    try {
      data = document.toJS({ maxAliasCount: 1000 });
    } catch (cause) {
      return [
        {
          severity: 'error',
          message: `cannot read ${display}: ${(cause as Error).message}`,
          location: { file: display, line: 1, column: 1 },
        },
      ];
    }
    return new YamlDoc(path, display, data, document, lenient ? new Lines(lenient.text) : lines);
  }

  /** The repaired text's document when the repair reads as js-yaml reads `text`; a warning where `yaml` stopped. */
  private lenientParse(
    text: string,
    display: string,
    counter: LineCounter,
    refused: Document,
  ): { text: string; lineCounter: LineCounter; document: Document } | undefined {
    const repair = repairQuotedIndentation(text);
    if (!repair) return undefined;
    const lineCounter = new LineCounter();
    const document = parseDocument(repair.text, { lineCounter, prettyErrors: false, uniqueKeys: true });
    if (document.errors.length) return undefined;
    const jsYaml = readWithJsYaml(text);
    if (!jsYaml || !sameData(document.toJS({ maxAliasCount: 1000 }), jsYaml.data)) return undefined;
    const { line, col } = counter.linePos(Math.max(0, refused.errors[0]?.pos[0] ?? 0));
    const said = (refused.errors[0]?.message ?? '')
      .split('\n')[0]
      ?.replace(/ at line \d+, column \d+:?$/, '')
      .trim();
    const more = repair.strings > 1 ? ` (${repair.strings} such strings in this file)` : '';
    this.warnings.push({
      severity: 'warning',
      message: `YAML 1.2 refuses this (${said}); read as js-yaml reads it: a multi-line quoted string continues on a line indented no deeper than its key${more}`,
      location: { file: display, line, column: col },
      hint: 'indent the continuation lines deeper than the key, or write the text as a block scalar (description: >-)',
    });
    return { text: repair.text, lineCounter, document };
  }
}

/** A reference resolved to its file and pointer. */
export interface Target extends Where {
  value: unknown;
  /** `file#/pointer`, the same for every spelling of the same target. */
  key: string;
}

/**
 * Resolves `ref` written at `from` (the `$ref` value's location). Reports a located problem and
 * returns undefined when the file or the pointer does not exist.
 */
export function resolveRef(docs: Documents, ref: string, from: Where, problems: Problems): Target | undefined {
  const at = () => locate(from); // only on error: finding a position in JSON costs a scan
  if (/^[a-z][a-z0-9+.-]*:/i.test(ref) || ref.startsWith('//')) {
    problems.add(
      `remote $ref "${ref}" is not supported`,
      at(),
      'download the file and refer to it by a relative path, e.g. ./schemas/pet.yaml#/Pet',
    );
    return undefined;
  }
  const hash = ref.indexOf('#');
  const filePart = hash === -1 ? ref : ref.slice(0, hash);
  const fragment = hash === -1 ? '' : ref.slice(hash + 1);
  let doc = from.doc;
  if (filePart !== '') {
    let file: string;
    try {
      file = decodeURIComponent(filePart);
    } catch {
      problems.add(`$ref "${ref}" has a badly percent-encoded file name`, at(), 'write %25 for a literal %');
      return undefined;
    }
    const opened = docs.open(resolve(dirname(doc.path), file), true);
    if (Array.isArray(opened)) {
      if (!opened[0]?.location) {
        problems.add(
          `$ref "${ref}" points to a file that cannot be read (${opened[0]?.message ?? 'unknown error'})`,
          at(),
          opened[0]?.hint ?? `the path is relative to ${from.doc.display}`,
        );
      } else opened.forEach((d) => problems.push(d));
      return undefined;
    }
    doc = opened;
  }
  if (fragment !== '' && !fragment.startsWith('/')) {
    problems.add(
      `$ref "${ref}" uses a plain-name fragment; only JSON pointers are supported`,
      at(),
      'write the fragment as a JSON pointer, e.g. #/components/schemas/Pet',
    );
    return undefined;
  }
  let parts: string[];
  try {
    parts =
      fragment === ''
        ? []
        : fragment
            .slice(1)
            .split('/')
            .map((part) => decodeURIComponent(part).replace(/~1/g, '/').replace(/~0/g, '~'));
  } catch {
    problems.add(`$ref "${ref}" has a badly percent-encoded pointer`, at(), 'write %25 for a literal %');
    return undefined;
  }
  let value: unknown = doc.data;
  let path: Path | undefined;
  for (const part of parts) {
    const next = Array.isArray(value) ? (/^(0|[1-9][0-9]*)$/.test(part) ? value[Number(part)] : undefined) : own(value, part);
    if (next === undefined) {
      const where = encodePointer(segments(path)) || '/';
      const near = isObject(value) ? closest(part, Object.keys(value)) : undefined;
      problems.add(
        `$ref "${ref}" points to nothing: ${doc.display} has no "${part}" under #${where === '/' ? '' : where}`,
        at(),
        near ? `did you mean "${near}"?` : `check the pointer; it must name an existing key in ${doc.display}`,
      );
      return undefined;
    }
    value = next;
    path = child(path, part);
  }
  return { doc, path, value, key: `${doc.path}#${encodePointer(parts)}` };
}

/**
 * Follows a chain of `$ref`-only objects (parameters, responses, ...) to the object they name.
 * Reports dangling references and cycles; returns undefined then.
 */
export function deref(
  docs: Documents,
  value: unknown,
  where: Where,
  problems: Problems,
): { value: unknown; where: Where; key?: string } | undefined {
  const seen = new Set<string>();
  let key: string | undefined;
  for (;;) {
    const ref = own(value, '$ref');
    if (ref === undefined) return { value, where, key };
    const refWhere = { doc: where.doc, path: child(where.path, '$ref') };
    if (typeof ref !== 'string') {
      problems.add('$ref must be a string', locate(refWhere), 'write the reference as a string, e.g. "#/components/parameters/Page"');
      return undefined;
    }
    const target = resolveRef(docs, ref, refWhere, problems);
    if (!target) return undefined;
    if (seen.has(target.key)) {
      problems.add(
        `$ref "${ref}" is part of a cycle of references that never reaches a definition`,
        locate(refWhere),
        'make one of the references point at an actual definition',
      );
      return undefined;
    }
    seen.add(target.key);
    key = target.key;
    value = target.value;
    where = target;
  }
}

/** Describes a wrong value for a message: `the string "a"`, `a list`, ... */
export function describe(value: unknown): string {
  if (value === undefined) return 'missing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'string') return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  if (typeof value === 'object') return 'an object';
  return `${typeof value === 'number' ? 'the number' : 'the value'} ${String(value)}`;
}

/** The candidate nearest to `word` by edit distance, when near enough to be a likely typo. */
export function closest(word: string, candidates: string[]): string | undefined {
  const lower = word.toLowerCase();
  const containing = candidates.find(
    (candidate) => candidate !== '' && (candidate.toLowerCase().startsWith(lower) || lower.startsWith(candidate.toLowerCase())),
  );
  if (containing && word.length >= 3) return containing;
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(word.length / 3)) + 1;
  for (const candidate of candidates.slice(0, 5000)) {
    const d = distance(word.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) {
      bestDistance = d;
      best = candidate;
    }
  }
  return best;
}

function distance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 3) return 99;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[b.length];
}
