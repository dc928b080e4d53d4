/**
 * Validators as plain TypeScript, emitted from JSON Schema: for each schema `isX(value)` (a fast
 * yes/no that stops at the first failure) and `validateX(value)` (the typed value, or every error
 * with its JSON-pointer path). Nothing is interpreted or compiled at run time; the generated
 * module imports a few helpers from the runtime file `runtime/validation.ts`.
 *
 * Both run one function per schema, `checkX(value, errors?)`, which checks and collects in the
 * same code (see code.ts). `isX` runs it without `errors` and stops at the first failure;
 * `validateX` runs it once with a collector, which builds a path only for an error it records
 * (`callAt` in the runtime), so a valid value costs about the same either way.
 *
 * The output is written to be cheap to type-check, which for a large API means short: common
 * properties are calls of small helpers (emit-validators-helpers.ts), and functions that only
 * differ in calling equivalent functions are merged (emit-validators-merge.ts).
 *
 * Not compiled (reported through `onUnsupported`, otherwise skipped): unevaluatedProperties,
 * unevaluatedItems, $dynamicRef/$dynamicAnchor, embedded `$id` resources,
 * draft-2019 `items` arrays / additionalItems / dependencies. `$ref` must be a local JSON pointer
 * (`#`, `#/$defs/X`, `#/properties/a/items`, ...): remote and `$anchor` references throw.
 */
import type { JsonSchema, NamedSchema, SchemaObject } from '../../schema/json-schema.js';
import { uniqueName } from '../../builder/names.js';
import { runtimeSymbol, symbol, typeSymbol, type FileBuilder } from '../../builder/file.js';
import { VALUE, type Direction, type Scope } from './code.js';
import { CycleCheck } from './refs.js';
import { RUNTIME_VALUES, ValidatorModule, type CompileOptions, type ExternalValidator } from './module.js';
import { createEmitter } from './node.js';
import { emitProperties } from './objects.js';

export { ValidatorSchemaError } from './refs.js';
export type { CompileOptions } from './module.js';
export { FORMAT_CHECKS } from './scalars.js';

/** Where a generated validator module's imports go. */
export interface ValidatorFileOptions {
  /**
   * The generated file the validators are printed into: the types (from `./types`), runtime
   * helpers (`./runtime/validation`) and other validators (`./validators`) they use are imported
   * through it. Its names (the types declared beside the validators) must be reserved already.
   */
  file?: FileBuilder;
}

export interface ValidatorEmitterOptions extends CompileOptions, ValidatorFileOptions {
  /** TS type name for a named schema in a direction, for the `ValidationResult<T>` return types. */
  typeName(name: string, direction: 'read' | 'write'): string;
}

export interface ValidatorCode {
  /** Constants and functions, without header or imports. */
  code: string;
  /** Type names (from the types module) the signatures use: `import type { ... }`. */
  typeImports: string[];
  /**
   * Names to import from the runtime validation module, as import specifiers: `type
   * ErrorCollector`, `deepEqual`, or `type ValidationResult as RuntimeValidationResult` when a
   * schema type already has that name.
   */
  runtimeImports: string[];
  /** Exported validators of validators.ts this module calls (`isTaskStatus`, `validateTaskStatus`). */
  validatorImports?: string[];
  /**
   * With `language: 'js'`: the exported functions' declarations, for the `.d.ts` beside the `.js`
   * (`export declare function isTask(value: unknown): value is Task;`).
   */
  declarations?: string;
}

export interface SchemaValidatorOptions extends CompileOptions, ValidatorFileOptions {
  /** Schemas validators.ts already checks: called through its exported validators, not compiled again. */
  external?: (schema: SchemaObject) => ExternalValidator | undefined;
}

/** One exported pair `isX`/`validateX`. */
interface Entry {
  doc: JsonSchema;
  schema: SchemaObject;
  pointer: string[];
  dir: Direction;
  /** `X` in `isX`, `validateX`. */
  suffix: string;
  /** Type the functions narrow to; undefined: `boolean` and `ValidationResult<unknown>`. */
  type?: string;
}

/** Boolean schemas as objects, so every root can have functions of its own. */
function rootObject(schema: JsonSchema): SchemaObject {
  if (schema === true) return {};
  if (schema === false) return { not: {} };
  return schema;
}

function build(entries: Entry[], options: SchemaValidatorOptions, typeNames: Set<string>): Omit<ValidatorCode, 'typeImports'> {
  const m = new ValidatorModule(options, typeNames);
  m.external = options.external;
  const taken = new Set([...typeNames]);
  // The runtime's three types (ErrorCollector is a class, used here only as a type), under
  // `Runtime<Name>` when a schema type has their name.
  const runtimeType = (name: string) => {
    const local = typeNames.has(name) ? uniqueName(`Runtime${name}`, taken) : name;
    options.file?.use({ ...runtimeSymbol(name, 'validation'), type: true }, local);
    return local;
  };
  const resultType = runtimeType('ValidationResult');
  m.collectorType = runtimeType('ErrorCollector');
  const standardType = runtimeType('StandardSchemaV1');
  m.reserve(resultType);
  m.reserve(m.collectorType);
  m.reserve(standardType);
  const cycles = new CycleCheck();
  const exports: Array<{ entry: Entry; slot: number; is: string; validate: string; check: string }> = [];
  for (const entry of entries) {
    cycles.check(entry.doc, entry.schema);
    const is = m.reserve(`is${entry.suffix}`);
    const validate = m.reserve(`validate${entry.suffix}`);
    const slot = m.reserveSlot();
    const check = m.declare({ name: `check${entry.suffix}`, dir: entry.dir, doc: entry.doc, schema: entry.schema, pointer: entry.pointer });
    exports.push({ entry, slot, is, validate, check });
  }
  // Each validator as a Standard Schema, `<X>Schema`: named once every exact name is taken, so a
  // schema or type already called `TaskSchema` keeps its name and this one gets another.
  const declarations: string[] = [];
  for (const { entry, slot, is, validate, check } of exports) {
    const standard = m.unique(`${entry.suffix}Schema`);
    const type = entry.type ?? 'unknown';
    const isSignature = `${is}(${VALUE}: unknown): ${entry.type ? `${VALUE} is ${entry.type}` : 'boolean'}`;
    const validateSignature = `${validate}(${VALUE}: unknown): ${resultType}<${type}>`;
    const standardValue = `/* @__PURE__ */ ${m.use('standardSchema')}(${validate})`;
    if (m.javascript)
      declarations.push(
        `export declare function ${isSignature};`,
        `export declare function ${validateSignature};`,
        `export declare const ${standard}: ${standardType}<${type}>;`,
      );
    m.fillSlot(
      slot,
      [
        `export function ${m.javascript ? `${is}(${VALUE})` : isSignature} {`,
        `  return ${check}(${VALUE});`,
        '}',
        '',
        `export function ${m.javascript ? `${validate}(${VALUE})` : validateSignature} {`,
        `  return ${m.use('validate')}${m.javascript ? '' : `<${type}>`}(${VALUE}, ${check});`,
        '}',
        '',
        `export const ${standard}${m.javascript ? '' : `: ${standardType}<${type}>`} = ${standardValue};`,
      ].join('\n'),
    );
  }
  const emitter = createEmitter(m);
  m.drain((job, body) => {
    const scope: Scope = { fn: job.name, dir: job.dir, doc: job.doc, value: VALUE, fresh: true, path: [], pointer: job.pointer };
    if (job.part) emitProperties(emitter, job.schema.properties ?? {}, job.part, scope, body, VALUE);
    else emitter.root(job.schema, scope, body);
  });
  const code = m.code;
  const runtimeImports = [
    ...(m.javascript
      ? []
      : [
          `type ErrorCollector${m.collectorType === 'ErrorCollector' ? '' : ` as ${m.collectorType}`}`,
          `type ValidationResult${resultType === 'ValidationResult' ? '' : ` as ${resultType}`}`,
          `type StandardSchemaV1${standardType === 'StandardSchemaV1' ? '' : ` as ${standardType}`}`,
        ]),
    ...RUNTIME_VALUES.filter((name) => new RegExp(`\\b${name}[(<]`).test(code)),
  ];
  const validatorImports = [...m.externalUsed].filter((name) => new RegExp(`\\b${name}\\(`).test(code)).sort();
  // The helpers keep their names: the module reserves them all, so nothing it declares takes one.
  for (const name of runtimeImports.filter((specifier) => !specifier.startsWith('type ')))
    options.file?.use(runtimeSymbol(name, 'validation'), name);
  for (const name of validatorImports) options.file?.use(symbol(name, './validators'), name);
  return {
    code,
    runtimeImports,
    ...(validatorImports.length ? { validatorImports } : {}),
    ...(m.javascript ? { declarations: `${declarations.join('\n')}\n` } : {}),
  };
}

/**
 * Validators for the named schemas of an API. Each `#/$defs/<Name>` reference calls `<Name>`'s
 * function. A schema whose request shape differs (readOnly/writeOnly, see shapes.ts) also gets
 * `is<Name>Input`/`validate<Name>Input`: readOnly properties are then not required (but checked
 * when present), as writeOnly ones are not required in the response direction.
 */
export function emitValidators(schemas: NamedSchema[], options: ValidatorEmitterOptions): ValidatorCode {
  // A null-prototype object: a schema name can never reach Object.prototype.
  const defs = Object.create(null) as Record<string, JsonSchema>;
  for (const { name, schema } of schemas) defs[name] = schema;
  const doc: SchemaObject = { $defs: defs };
  const entries: Entry[] = [];
  const typeImports: string[] = [];
  for (const { name, schema } of schemas) {
    const base = { doc, schema: rootObject(schema), pointer: ['$defs', name] };
    const readType = options.typeName(name, 'read');
    typeImports.push(readType);
    entries.push({ ...base, dir: 'read', suffix: readType, type: readType });
    // The type emitter decided which schemas have a separate request shape; follow it.
    const writeType = options.typeName(name, 'write');
    if (writeType !== readType) {
      typeImports.push(writeType);
      entries.push({ ...base, dir: 'write', suffix: writeType, type: writeType });
    }
  }
  const unique = [...new Set(typeImports)];
  for (const name of unique) options.file?.use(typeSymbol(name, './types'), name);
  return { ...build(entries, options, new Set(unique)), typeImports: unique };
}

/**
 * Validators for standalone schemas, each its own document (`#` is the schema itself):
 * `is<name>(value): value is <type>` and `validate<name>(value): ValidationResult<type>`, where
 * `type` is the root's (`boolean` and `unknown` without one). `typeNames`: the type names the
 * module declares or imports, which the runtime's type imports must not shadow.
 */
export function emitSchemaValidators(
  roots: Array<{ name: string; schema: JsonSchema; type?: string }>,
  options: SchemaValidatorOptions = {},
  typeNames: Iterable<string> = [],
): ValidatorCode {
  const entries = roots.map(({ name, schema, type }): Entry => {
    if (!/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name)) throw new Error(`validator name ${JSON.stringify(name)} is not an identifier`);
    return { doc: schema, schema: rootObject(schema), pointer: [], dir: 'plain', suffix: name, ...(type === undefined ? {} : { type }) };
  });
  return { ...build(entries, options, new Set(typeNames)), typeImports: [] };
}
