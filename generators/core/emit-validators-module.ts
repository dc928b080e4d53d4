/**
 * The state of one generated validator module: which functions exist (one per schema location
 * and direction, shared by every reference to it), the module-level constants (regular
 * expressions, enum sets, const values, each built once), and the runtime helpers it imports.
 */
import type { JsonSchema, SchemaObject } from './model.js';
import { stringLiteral, uniqueName, words } from './names.js';
import { Body, ERRORS, PATH, VALUE, references, type Direction, type Mode } from './emit-validators-code.js';
import { DirectionAnalysis, ValidatorSchemaError } from './emit-validators-refs.js';
import { structuralKey } from './emit-validators-hoist.js';
import { FORMAT_CHECKS } from './emit-validators-scalars.js';

export interface CompileOptions {
  /**
   * `assert` (default): the formats in FORMAT_CHECKS are checked, as OpenAPI users expect.
   * `ignore`: `format` is only an annotation (the JSON Schema 2020-12 default).
   */
  formats?: 'assert' | 'ignore';
  /**
   * Called for keywords that are not compiled (unevaluatedProperties, $dynamicRef, ...). By default
   * they are skipped, so the validator accepts more than the schema does.
   */
  onUnsupported?: (keyword: string, pointer: string) => void;
}

/** Every value the runtime file exports (reserved, so no generated name can shadow one). */
export const RUNTIME_VALUES = [
  'pointerToken', 'hasOwn', 'propertyCount', 'codePointLength', 'deepEqual', 'deepIncludes',
  'duplicateIndex', 'divisibleBy', ...Object.values(FORMAT_CHECKS),
];

/** One function to generate. */
export interface FunctionJob {
  name: string;
  mode: Mode;
  dir: Direction;
  doc: JsonSchema;
  schema: SchemaObject;
  pointer: string[];
  /** Signature replacing the internal one (`export function isTask(value: unknown): value is Task`). */
  head?: string;
  /** Position among the exported declarations, for exported functions. */
  slot?: number;
}

function capitalise(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/** Pointer segments that say nothing about what the schema is. */
const NOISE = new Set(['$defs', 'definitions', 'properties', 'components', 'schemas']);

/** `['$defs', 'Task', 'properties', 'labels', 'items']` → `['Task', 'labels', 'items']` as words. */
function pointerWords(pointer: string[]): string[] {
  return pointer.filter((segment) => !NOISE.has(segment)).flatMap((segment) => words(segment));
}

export class ValidatorModule {
  readonly options: Required<CompileOptions>;
  readonly directions = new DirectionAnalysis();
  /** Runtime helpers used, in first-use order. */
  readonly runtime = new Set<string>();
  /** Local name of the runtime `ValidationError` type (aliased if a schema type is called that). */
  errorType = 'ValidationError';
  private readonly taken: Set<string>;
  private readonly ids = new WeakMap<object, number>();
  private nextId = 0;
  private readonly functions = new Map<string, string>();
  private readonly constants: string[] = [];
  private readonly constantNames = new Map<string, string>();
  private readonly queue: FunctionJob[] = [];
  private readonly exported: string[] = [];
  /** Per document: the first schema seen with each structure, which identical copies reuse. */
  private readonly representatives = new WeakMap<object, Map<string, SchemaObject>>();
  private readonly internal: string[] = [];

  constructor(options: CompileOptions = {}, reserved: Iterable<string> = []) {
    // Each schema is emitted in up to four functions (check/collect × direction): report once.
    const reported = new Set<string>();
    const report = options.onUnsupported ?? (() => {});
    const onUnsupported = (keyword: string, pointer: string) => {
      if (reported.has(`${keyword} ${pointer}`)) return;
      reported.add(`${keyword} ${pointer}`);
      report(keyword, pointer);
    };
    this.options = { formats: options.formats ?? 'assert', onUnsupported };
    this.taken = new Set([...RUNTIME_VALUES, VALUE, PATH, ERRORS, ...reserved]);
  }

  /** Marks a runtime helper as used and returns its name. */
  use(helper: string): string {
    this.runtime.add(helper);
    return helper;
  }

  /** Reserves an exact name (exported function names); fails if it is already used. */
  reserve(name: string): string {
    if (this.taken.has(name)) throw new ValidatorSchemaError(`generated name ${name} is used twice`);
    this.taken.add(name);
    return name;
  }

  /** `plain` when the direction cannot change how `schema` validates, else `dir`. */
  effectiveDir(doc: JsonSchema, schema: JsonSchema, dir: Direction): Direction {
    return dir === 'plain' || !this.directions.sensitive(doc, schema) ? 'plain' : dir;
  }

  private key(schema: SchemaObject, dir: Direction, mode: Mode): string {
    let id = this.ids.get(schema);
    if (id === undefined) {
      id = ++this.nextId;
      this.ids.set(schema, id);
    }
    return `${id}|${dir}|${mode}`;
  }

  /**
   * Declares a function under a chosen name (the caller reserved it): exported ones take the next
   * export position; internal ones go with the other internal functions.
   */
  declare(job: Omit<FunctionJob, 'slot'>, exported: boolean): void {
    this.representative(job.doc, job.schema);
    const dir = this.effectiveDir(job.doc, job.schema, job.dir);
    this.functions.set(this.key(job.schema, dir, job.mode), job.name);
    this.queue.push({ ...job, dir, slot: exported ? this.exported.push('') - 1 : undefined });
  }

  /** The function already declared or created for `schema` in `dir`, if any. */
  existing(doc: JsonSchema, schema: SchemaObject, dir: Direction, mode: Mode): string | undefined {
    return this.functions.get(this.key(schema, this.effectiveDir(doc, schema, dir), mode));
  }

  /** Adds hand-made text (a `validateX` wrapper) at the next export position. */
  addExported(text: string): void {
    this.exported.push(text);
  }

  /** The schema whose function `schema` uses: the first one with the same structure. */
  private representative(doc: JsonSchema, schema: SchemaObject): SchemaObject {
    if (typeof doc !== 'object' || doc === null) return schema;
    let byKey = this.representatives.get(doc);
    if (!byKey) {
      byKey = new Map();
      this.representatives.set(doc, byKey);
    }
    const key = structuralKey(schema);
    const found = byKey.get(key);
    if (found) return found;
    byKey.set(key, schema);
    return schema;
  }

  /** The function checking (or collecting errors of) `schema` in `dir`, created on first use. */
  functionFor(doc: JsonSchema, original: SchemaObject, pointer: string[], dir: Direction, mode: Mode): string {
    const schema = this.representative(doc, original);
    const effective = this.effectiveDir(doc, schema, dir);
    const key = this.key(schema, effective, mode);
    const existing = this.functions.get(key);
    if (existing) return existing;
    const suffix = pointerWords(pointer).map(capitalise).join('') || 'Root';
    const name = uniqueName(`${mode}${suffix}${effective === 'write' ? 'Input' : ''}`, this.taken);
    this.functions.set(key, name);
    this.queue.push({ name, mode, dir: effective, doc, schema, pointer });
    return name;
  }

  /** A module-level constant, shared by every use with the same `key`. */
  constant(key: string, pointer: string[], suffix: string, init: string): string {
    const existing = this.constantNames.get(key);
    if (existing) return existing;
    const base = [...pointerWords(pointer).map((word) => word.toUpperCase()), suffix].join('_');
    const name = uniqueName(/^[A-Z_]/.test(base) ? base : `C_${base}`, this.taken);
    this.constantNames.set(key, name);
    this.constants.push(`const ${name} = ${init};`);
    return name;
  }

  /** A regular expression compiled once, with the `u` flag when the pattern allows it. */
  regex(pattern: string, pointer: string[]): string {
    let flags = 'u';
    try {
      new RegExp(pattern, 'u');
    } catch {
      try {
        new RegExp(pattern);
        flags = '';
      } catch (error) {
        throw new ValidatorSchemaError(`pattern ${JSON.stringify(pattern)} at ${pointer.join('/')} is not a valid regular expression: ${(error as Error).message}`);
      }
    }
    const init = `new RegExp(${stringLiteral(pattern)}${flags ? `, ${stringLiteral(flags)}` : ''})`;
    return this.constant(`regex:${flags}:${pattern}`, pointer, 'PATTERN', init);
  }

  /** Generates every queued function (generating one may queue more). */
  drain(emit: (job: FunctionJob, body: Body) => void): void {
    for (let job = this.queue.shift(); job; job = this.queue.shift()) {
      const body = new Body(1);
      emit(job, body);
      const text = this.functionText(job, body);
      if (job.slot !== undefined) this.exported[job.slot] = text;
      else this.internal.push(text);
    }
  }

  private functionText(job: FunctionJob, body: Body): string {
    const code = body.text;
    // An unused parameter would trip noUnusedParameters in a user's tsconfig.
    const param = (name: string) => (references(code, name) ? name : `_${name}`);
    const head = job.head?.replace(`(${VALUE}:`, `(${param(VALUE)}:`);
    if (job.mode === 'check') {
      return `${head ?? `function ${job.name}(${param(VALUE)}: unknown): boolean`} {\n${code ? `${code}\n` : ''}  return true;\n}`;
    }
    const signature = `function ${job.name}(${param(VALUE)}: unknown, ${param(PATH)}: string, ${param(ERRORS)}: ${this.errorType}[]): void`;
    return `${head ?? signature} {\n${code}\n}`;
  }

  /** Constants, exported functions, then internal ones. */
  get code(): string {
    const parts: string[] = [];
    if (this.constants.length) parts.push(this.constants.join('\n'));
    parts.push(...this.exported, ...this.internal);
    return `${parts.join('\n\n')}\n`;
  }
}
