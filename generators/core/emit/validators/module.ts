/**
 * The state of one generated validator module: which functions exist (one per schema location
 * and direction, shared by every reference to it), the module-level constants (regular
 * expressions, enum sets, const values, each built once), and the runtime helpers it imports.
 */
import type { JsonSchema, SchemaObject } from '../../schema/json-schema.js';
import { stringLiteral, uniqueName, words } from '../../builder/names.js';
import { Body, ERRORS, EXIT, OK, VALUE, negate, references, render, type Direction, type Stmt } from './code.js';
import { DirectionAnalysis, ValidatorSchemaError } from './refs.js';
import { structuralKey } from './hoist.js';
import { patternFlags } from '../../schema/pattern-rules.js';
import type { PropertyHelper } from './helpers.js';
import { runtimeModules } from '../../pipeline/runtime-modules.js';
import { mergeEquivalent } from './merge.js';
import { eraseTypes } from './javascript.js';
import { type Atom, scannableAtoms, scanStatements } from './pattern-scan.js';

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
  /**
   * `ts` (default): TypeScript. `js`: the same code as JavaScript (javascript.ts), with the
   * exported signatures as declarations (`ValidatorCode.declarations`) for a `.d.ts` beside it.
   */
  language?: 'ts' | 'js';
}

/**
 * Every value `runtime/validation.ts` exports (reserved, so no generated name can shadow one): the
 * checks, `fail`/`failType` and the property helpers (helpers.ts), as its manifest lists them.
 * `ErrorCollector` is a class the validators name only as a type, under `collectorType`.
 */
export const RUNTIME_VALUES = runtimeModules()
  .get('validation')!
  .exports.filter((exported) => !exported.type && exported.name !== 'ErrorCollector')
  .map((exported) => exported.name);

/** The exported validators of a schema another module already checks (`isTask`, `validateTask`). */
export interface ExternalValidator {
  is: string;
  validate: string;
}

/** One function to generate. */
export interface FunctionJob {
  name: string;
  dir: Direction;
  doc: JsonSchema;
  schema: SchemaObject;
  pointer: string[];
  /** Position among the exported declarations, for the functions of exported schemas. */
  slot?: number;
  /**
   * A part of a large object's properties (`schema.properties`), checked on an object already
   * known to be one; these names of them are required.
   */
  part?: string[];
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
  /** Local name of the runtime `ErrorCollector` type (aliased if a schema type is called that). */
  collectorType = 'ErrorCollector';
  /** Schemas checked by another module's exported validators, called instead of compiled again. */
  external: ((schema: SchemaObject) => ExternalValidator | undefined) | undefined;
  /** The other module's validators called, to import. */
  readonly externalUsed = new Set<string>();
  private readonly taken: Set<string>;
  private readonly ids = new WeakMap<object, number>();
  private nextId = 0;
  private readonly functions = new Map<string, string>();
  private readonly parts = new Map<string, string>();
  private readonly constants: string[] = [];
  /** The functions matching patterns without a regular expression (pattern-scan.ts). */
  private readonly scans: string[] = [];
  private readonly constantNames = new Map<string, string>();
  private readonly queue: FunctionJob[] = [];
  private readonly exported: string[] = [];
  /** Per document: the first schema seen with each structure, which identical copies reuse. */
  private readonly representatives = new WeakMap<object, Map<string, SchemaObject>>();
  private readonly internal: string[] = [];

  constructor(options: CompileOptions = {}, reserved: Iterable<string> = []) {
    // A schema can be emitted in several functions (one per direction): report once.
    const reported = new Set<string>();
    const report = options.onUnsupported ?? (() => {});
    const onUnsupported = (keyword: string, pointer: string) => {
      if (reported.has(`${keyword} ${pointer}`)) return;
      reported.add(`${keyword} ${pointer}`);
      report(keyword, pointer);
    };
    this.options = { formats: options.formats ?? 'assert', onUnsupported, language: options.language ?? 'ts' };
    this.taken = new Set([...RUNTIME_VALUES, VALUE, ERRORS, OK, ...reserved]);
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

  /** Reserves `base`, or `base2`, `base3`… when it is taken (names nothing else must have exactly). */
  unique(base: string): string {
    return uniqueName(base, this.taken);
  }

  /** `plain` when the direction cannot change how `schema` validates, else `dir`. */
  effectiveDir(doc: JsonSchema, schema: JsonSchema, dir: Direction): Direction {
    return dir === 'plain' || !this.directions.sensitive(doc, schema) ? 'plain' : dir;
  }

  private key(schema: SchemaObject, dir: Direction): string {
    let id = this.ids.get(schema);
    if (id === undefined) {
      id = ++this.nextId;
      this.ids.set(schema, id);
    }
    return `${id}|${dir}`;
  }

  /**
   * The check function of an exported schema: the one of an identical schema declared before (an
   * alias such as `ReposGet200Response` of `Repository`), or `name`, declared now at the next
   * export position.
   */
  declare(job: Omit<FunctionJob, 'slot'>): string {
    const schema = this.representative(job.doc, job.schema);
    const dir = this.effectiveDir(job.doc, schema, job.dir);
    const key = this.key(schema, dir);
    const existing = this.functions.get(key);
    if (existing) return existing;
    this.reserve(job.name);
    this.functions.set(key, job.name);
    this.queue.push({ ...job, schema, dir, slot: this.reserveSlot() });
    return job.name;
  }

  /** The next export position, for hand-made text (the `isX`/`validateX` wrappers). */
  reserveSlot(): number {
    return this.exported.push('') - 1;
  }

  fillSlot(slot: number, text: string): void {
    this.exported[slot] = text;
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

  /** The function checking `schema` in `dir`, created on first use. */
  functionFor(doc: JsonSchema, original: SchemaObject, pointer: string[], dir: Direction): string {
    const schema = this.representative(doc, original);
    const effective = this.effectiveDir(doc, schema, dir);
    const key = this.key(schema, effective);
    const existing = this.functions.get(key);
    if (existing) return existing;
    const suffix = pointerWords(pointer).map(capitalise).join('') || 'Root';
    const outside = this.external?.(original);
    if (outside) {
      // An adapter to the other module's pair: its yes/no pass, or its errors under this path.
      const name = uniqueName(`check${suffix}`, this.taken);
      this.functions.set(key, name);
      this.externalUsed.add(outside.is).add(outside.validate);
      this.internal.push(
        `function ${name}${this.signature(VALUE, 'unknown', ERRORS)} {\n` +
          `  return ${ERRORS} === undefined ? ${outside.is}(${VALUE}) : ${this.use('collected')}(${outside.validate}(${VALUE}), ${ERRORS});\n}`,
      );
      return name;
    }
    const name = uniqueName(`check${suffix}${effective === 'write' ? 'Input' : ''}`, this.taken);
    this.functions.set(key, name);
    this.queue.push({ name, dir: effective, doc, schema, pointer });
    return name;
  }

  /**
   * The function checking some properties of an object (`{ properties }`, with `required` of
   * them) at `pointer`, part `index` of function `of`; shared by every object with the same
   * properties in the same direction.
   */
  partFor(doc: JsonSchema, part: SchemaObject, required: string[], of: string, pointer: string[], dir: Direction, index: number): string {
    const key = `part|${dir}|${required.join('|')}|${structuralKey(part)}`;
    const existing = this.parts.get(key);
    if (existing) return existing;
    const name = uniqueName(`${of}Part${index}`, this.taken);
    this.parts.set(key, name);
    this.queue.push({ name, dir, doc, schema: part, pointer, part: required });
    return name;
  }

  /** A property helper of the runtime (its name is reserved, like every runtime export). */
  helper(helper: PropertyHelper): string {
    return this.use(helper.name);
  }

  /** A module-level constant, shared by every use with the same `key`. */
  constant(key: string, pointer: string[], suffix: string, init: string): string {
    const existing = this.constantNames.get(key);
    if (existing) return existing;
    const base = [...pointerWords(pointer).map((word) => word.toUpperCase()), suffix].join('_');
    const name = uniqueName(/^[A-Z_]/.test(base) ? base : `C_${base}`, this.taken);
    this.constantNames.set(key, name);
    this.constants.push(`const ${name} = ${this.javascript ? eraseTypes(init) : init};`);
    return name;
  }

  /**
   * Whether `text` (an expression of type string) matches `pattern`: a scan of its characters
   * when the pattern allows one (pattern-scan.ts), else a regular expression compiled once, with
   * the `u` flag when the pattern allows it.
   */
  matches(pattern: string, pointer: string[], text: string): string {
    const compiled = patternFlags(pattern);
    if ('problem' in compiled) {
      throw new ValidatorSchemaError(
        `pattern ${JSON.stringify(pattern)} at ${pointer.join('/')} is not a valid regular expression: ${compiled.problem}`,
      );
    }
    const atoms = scannableAtoms(pattern);
    if (atoms) return `${this.scan(pattern, atoms, pointer)}(${text})`;
    const flags = compiled.flags;
    const init = `new RegExp(${stringLiteral(pattern)}${flags ? `, ${stringLiteral(flags)}` : ''})`;
    return `${this.constant(`regex:${flags}:${pattern}`, pointer, 'PATTERN', init)}.test(${text})`;
  }

  /** The module-level function scanning for `pattern`, shared by every use of the pattern. */
  private scan(pattern: string, atoms: Atom[], pointer: string[]): string {
    const key = `scan:${pattern}`;
    const existing = this.constantNames.get(key);
    if (existing) return existing;
    const name = uniqueName(`matches${pointerWords(pointer).map(capitalise).join('')}Pattern`, this.taken);
    this.constantNames.set(key, name);
    const signature = this.javascript ? '(text)' : '(text: string): boolean';
    const body = scanStatements(atoms).map((line) => `  ${line}`);
    // `*/` inside the pattern would end the comment.
    const shown = pattern.replace(/\*\//g, '*\\/');
    this.scans.push(
      [
        `/** Whether \`text\` matches \`${shown}\`, scanned without a regular expression. */`,
        `function ${name}${signature} {`,
        ...body,
        '}',
      ].join('\n'),
    );
    return name;
  }

  /** Generates every queued function (generating one may queue more). */
  drain(emit: (job: FunctionJob, body: Body) => void): void {
    for (let job = this.queue.shift(); job; job = this.queue.shift()) {
      const body = new Body();
      emit(job, body);
      const text = this.functionText(job, body.stmts);
      if (job.slot !== undefined) this.exported[job.slot] = text;
      else this.internal.push(text);
    }
  }

  private functionText(job: FunctionJob, emitted: Stmt[]): string {
    const stmts = finish(emitted);
    const uses = (stmt: Stmt) => references(render([stmt], 0).join('\n'), OK);
    const first = stmts.findIndex(uses);
    if (first !== -1) {
      // Before the declarations that lead up to its first use.
      let at = first;
      while (at > 0 && /^const /.test(String(stmts[at - 1]))) at--;
      stmts.splice(at, 0, `let ${OK} = true;`);
    }
    const end = stmts[stmts.length - 1];
    if (typeof end !== 'string' || !end.startsWith('return ')) stmts.push(first === -1 ? 'return true;' : `return ${OK};`);
    const code = render(stmts, 1).join('\n');
    // An unused parameter would trip noUnusedParameters in a user's tsconfig.
    const param = (name: string) => (references(code, name) ? name : `_${name}`);
    const valueType = job.part ? 'Record<string, unknown>' : 'unknown';
    const signature = this.signature(param(VALUE), valueType, param(ERRORS));
    return `function ${job.name}${signature} {\n${this.javascript ? eraseTypes(code) : code}\n}`;
  }

  /** Whether the module is printed as JavaScript (`language: 'js'`). */
  get javascript(): boolean {
    return this.options.language === 'js';
  }

  /** `(value: unknown, errors?: ErrorCollector): boolean`, or `(value, errors)` in JavaScript. */
  private signature(value: string, valueType: string, errors: string): string {
    return this.javascript ? `(${value}, ${errors})` : `(${value}: ${valueType}, ${errors}?: ${this.collectorType}): boolean`;
  }

  /** Constants, exported functions, then internal ones. */
  get code(): string {
    const functions = mergeEquivalent([...this.exported, ...this.internal]);
    const parts: string[] = [];
    if (this.constants.length) parts.push(this.constants.join('\n'));
    parts.push(...this.scans);
    parts.push(...functions);
    return `${parts.join('\n\n')}\n`;
  }
}

function usesOk(stmts: Stmt[]): boolean {
  return stmts.some((stmt) => references(render([stmt], 0).join('\n'), OK));
}

/**
 * The last touches on a function body: no exit right before the end, and when nothing before the
 * last statement can fail, that statement returns (`if (c) return fail(...);` then what its `else`
 * held, or `return checkX(value, errors);`) instead of setting `ok`.
 */
function finish(emitted: Stmt[]): Stmt[] {
  const stmts = [...emitted];
  while (stmts[stmts.length - 1] === EXIT) stmts.pop();
  const last = stmts[stmts.length - 1];
  if (last === undefined || typeof last === 'string' || last.kind !== 'if' || usesOk(stmts.slice(0, -1))) return stmts;
  const [then] = last.then;
  if (last.then.length !== 1 || typeof then !== 'string') return stmts;
  const failure = /^ok = ((?:fail|failType)\(.*\));$/.exec(then);
  if (failure) {
    stmts.splice(
      -1,
      1,
      { kind: 'if', condition: last.condition, then: [`return ${failure[1]};`], otherwise: [] },
      ...finish(last.otherwise),
    );
    return stmts;
  }
  if (then === `${OK} = false;` && last.otherwise.length === 0) {
    stmts.splice(-1, 1, `return ${negate(last.condition)};`);
  }
  return stmts;
}
