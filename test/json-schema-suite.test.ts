/**
 * The official JSON Schema Test Suite (draft 2020-12, and draft 4 = OpenAPI 3.0's dialect) against
 * the generated validators. Every schema of a file is emitted into one module, written to a
 * temporary .ts file (importing runtime/validation.ts itself) and imported; each case's `valid` is
 * compared with `isX` and with `validateX` (which must agree, and report at least one error when invalid).
 *
 * Cases the emitter deliberately does not support are listed in UNSUPPORTED with the reason; the
 * list is exact: a listed case that passes, or a failing case not listed, fails the test.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emitSchemaValidators, type CompileOptions } from '../generators/core/emit/validators/emit.js';
import type { JsonSchema } from '../generators/core/schema/json-schema.js';
import { runtimeSpecifier } from './support/runtime.js';
import { validatorImports } from './support/validator-imports.js';

const SUITE = fileURLToPath(new URL('../../shared/corpus/json-schema-test-suite/tests/', import.meta.url));

const KEYWORD_FILES = [
  'additionalProperties',
  'allOf',
  'anyOf',
  'boolean_schema',
  'const',
  'contains',
  'dependentRequired',
  'dependentSchemas',
  'enum',
  'exclusiveMaximum',
  'exclusiveMinimum',
  'format',
  'if-then-else',
  'infinite-loop-detection',
  'items',
  'maxContains',
  'maxItems',
  'maxLength',
  'maxProperties',
  'maximum',
  'minContains',
  'minItems',
  'minLength',
  'minProperties',
  'minimum',
  'multipleOf',
  'not',
  'oneOf',
  'pattern',
  'patternProperties',
  'prefixItems',
  'properties',
  'propertyNames',
  'ref',
  'required',
  'type',
  'uniqueItems',
];
const DRAFT4_FILES = [
  'additionalItems',
  'additionalProperties',
  'allOf',
  'anyOf',
  'dependencies',
  'enum',
  'format',
  'infinite-loop-detection',
  'items',
  'maxItems',
  'maxLength',
  'maxProperties',
  'maximum',
  'minItems',
  'minLength',
  'minProperties',
  'minimum',
  'multipleOf',
  'not',
  'oneOf',
  'pattern',
  'patternProperties',
  'properties',
  'ref',
  'required',
  'type',
  'uniqueItems',
];
const FORMATS_2020 = ['date-time', 'date', 'time', 'email', 'uuid', 'uri', 'uri-reference', 'ipv4', 'ipv6', 'hostname'];
const FORMATS_DRAFT4 = ['date-time', 'email', 'hostname', 'ipv4', 'ipv6', 'uri'];

const FILES = [
  ...KEYWORD_FILES.map((name) => `draft2020-12/${name}.json`),
  ...FORMATS_2020.map((name) => `draft2020-12/optional/format/${name}.json`),
  ...DRAFT4_FILES.map((name) => `draft4/${name}.json`),
  ...FORMATS_DRAFT4.map((name) => `draft4/optional/format/${name}.json`),
];

/** A group (`test` omitted: every case of the group) or one case that is expected to fail. */
interface Unsupported {
  file: string;
  group: string;
  test?: string;
  reason: string;
}

const REMOTE = 'remote $ref (another document) is out of scope: bundle first';
const ID = 'embedded $id / URN / relative-URI resolution is out of scope: refs are local JSON pointers';
const ANCHOR = '$anchor references are out of scope';
const UNEVALUATED = 'unevaluatedProperties/unevaluatedItems are out of scope';

const UNSUPPORTED: Unsupported[] = [
  { file: 'draft2020-12/not.json', group: "collect annotations inside a 'not', even if collection is disabled", reason: UNEVALUATED },
  { file: 'draft2020-12/ref.json', group: 'remote ref, containing refs itself', reason: REMOTE },
  { file: 'draft2020-12/ref.json', group: 'Recursive references between schemas', reason: ID },
  { file: 'draft2020-12/ref.json', group: 'ref creates new scope when adjacent to keywords', reason: UNEVALUATED },
  { file: 'draft2020-12/ref.json', group: 'refs with relative uris and defs', reason: ID },
  { file: 'draft2020-12/ref.json', group: 'relative refs with absolute uris and defs', reason: ID },
  { file: 'draft2020-12/ref.json', group: '$id must be resolved against nearest parent, not just immediate parent', reason: ID },
  { file: 'draft2020-12/ref.json', group: 'order of evaluation: $id and $ref', reason: ID },
  { file: 'draft2020-12/ref.json', group: 'order of evaluation: $id and $anchor and $ref', reason: ID },
  { file: 'draft2020-12/ref.json', group: 'order of evaluation: $id and $ref on nested schema', reason: ID },
  { file: 'draft2020-12/ref.json', group: 'simple URN base URI with $ref via the URN', reason: ID },
  { file: 'draft2020-12/ref.json', group: 'URN base URI with URN and JSON pointer ref', reason: ID },
  { file: 'draft2020-12/ref.json', group: 'URN base URI with URN and anchor ref', reason: ANCHOR },
  { file: 'draft2020-12/ref.json', group: 'URN ref with nested pointer ref', reason: ID },
  { file: 'draft2020-12/ref.json', group: 'ref to if', reason: ID },
  { file: 'draft2020-12/ref.json', group: 'ref to then', reason: ID },
  { file: 'draft2020-12/ref.json', group: 'ref to else', reason: ID },
  { file: 'draft2020-12/ref.json', group: 'ref with absolute-path-reference', reason: ID },
  { file: 'draft4/ref.json', group: 'remote ref, containing refs itself', reason: REMOTE },
  { file: 'draft4/ref.json', group: '$ref prevents a sibling id from changing the base uri', reason: ID },
  { file: 'draft4/ref.json', group: 'Recursive references between schemas', reason: ID },
  { file: 'draft4/ref.json', group: 'Location-independent identifier', reason: ID },
  { file: 'draft4/ref.json', group: 'Location-independent identifier with base URI change in subschema', reason: ID },
  { file: 'draft4/ref.json', group: 'id must be resolved against nearest parent, not just immediate parent', reason: ID },
];

interface SuiteCase {
  description: string;
  data: unknown;
  valid: boolean;
}

interface SuiteGroup {
  description: string;
  schema: JsonSchema;
  tests: SuiteCase[];
}

/**
 * Draft 4 → 2020-12, as the OpenAPI 3.0 loader does it: boolean exclusiveMaximum/Minimum become
 * numbers, `items` arrays become prefixItems, array-valued `dependencies` become
 * dependentRequired, `$ref` overrides its siblings, `id` is `$id`.
 */
function fromDraft4(input: unknown): unknown {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return input;
  const schema = input as Record<string, unknown>;
  const map = (value: unknown) =>
    Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([key, item]) => [key, fromDraft4(item)]));
  const refs = (value: unknown): unknown => (typeof value === 'string' ? value.replace(/\/items\/(\d+)/g, '/prefixItems/$1') : value);
  if (typeof schema.$ref === 'string') {
    return { $ref: refs(schema.$ref), ...(schema.definitions ? { definitions: map(schema.definitions) } : {}) };
  }
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    switch (key) {
      case 'properties':
      case 'patternProperties':
      case 'definitions':
        out[key] = map(value);
        break;
      case 'additionalProperties':
      case 'not':
        out[key] = fromDraft4(value);
        break;
      case 'allOf':
      case 'anyOf':
      case 'oneOf':
        out[key] = (value as unknown[]).map(fromDraft4);
        break;
      case 'items':
        if (Array.isArray(value)) {
          out.prefixItems = value.map(fromDraft4);
          if (schema.additionalItems !== undefined) out.items = fromDraft4(schema.additionalItems);
        } else {
          out.items = fromDraft4(value);
        }
        break;
      case 'additionalItems':
        break;
      case 'dependencies': {
        const entries = Object.entries(value as Record<string, unknown>);
        const required = entries.filter(([, item]) => Array.isArray(item));
        const schemas = entries.filter(([, item]) => !Array.isArray(item));
        if (required.length) out.dependentRequired = Object.fromEntries(required);
        if (schemas.length) out.dependentSchemas = Object.fromEntries(schemas.map(([name, item]) => [name, fromDraft4(item)]));
        break;
      }
      case 'exclusiveMaximum':
      case 'exclusiveMinimum':
        break;
      case 'id':
        if (typeof value === 'string') out.$id = value;
        break;
      default:
        out[key] = value;
    }
  }
  for (const [exclusive, bound] of [
    ['exclusiveMaximum', 'maximum'],
    ['exclusiveMinimum', 'minimum'],
  ] as const) {
    if (schema[exclusive] === true && typeof schema[bound] === 'number') {
      out[exclusive] = schema[bound];
      delete out[bound];
    }
  }
  return out;
}

function compileOptions(file: string): CompileOptions {
  return {
    // format.json checks the 2020-12 default (an annotation); optional/format/*.json the assertion.
    formats: file.endsWith('/format.json') ? 'ignore' : 'assert',
    onUnsupported: (keyword, pointer) => {
      throw new Error(`unsupported ${keyword} at ${pointer}`);
    },
  };
}

interface Outcome {
  file: string;
  group: string;
  test: string;
  /** Why it failed, or undefined when it passed. */
  failure?: string;
}

let dir: string;
const sources: string[] = [];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'codegen-json-schema-suite-'));
  // An ESM project, as a user's: the modules import the runtime, an ES module, with `import`.
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function runFile(file: string): Promise<Outcome[]> {
  const groups = JSON.parse(readFileSync(join(SUITE, file), 'utf8')) as SuiteGroup[];
  const draft4 = file.startsWith('draft4/');
  const options = compileOptions(file);
  const roots: Array<{ name: string; schema: JsonSchema }> = [];
  const compileErrors = new Map<number, string>();
  groups.forEach((group, index) => {
    const schema = (draft4 ? fromDraft4(group.schema) : group.schema) as JsonSchema;
    try {
      emitSchemaValidators([{ name: `Schema${index}`, schema }], options);
      roots.push({ name: `Schema${index}`, schema });
    } catch (error) {
      compileErrors.set(index, `cannot compile: ${(error as Error).message}`);
    }
  });
  const result = emitSchemaValidators(roots, options);
  const source = `${validatorImports(result, { types: './types.js', runtime: runtimeSpecifier(dir, 'validation') })}\n${result.code}`;
  const moduleFile = join(dir, `${file.replace(/[^A-Za-z0-9]+/g, '_')}.ts`);
  writeFileSync(moduleFile, source);
  sources.push(moduleFile);
  const compiled = (await import(pathToFileURL(moduleFile).href)) as Record<string, (value: unknown) => unknown>;
  // The `.js` form (`validators: js`, the default) must answer exactly as the TypeScript one.
  const js = emitSchemaValidators(roots, { ...options, language: 'js' });
  const jsFile = moduleFile.replace(/\.ts$/, '.js');
  writeFileSync(jsFile, `${validatorImports(js, { types: './types.js', runtime: runtimeSpecifier(dir, 'validation') })}\n${js.code}`);
  const javascript = (await import(pathToFileURL(jsFile).href)) as typeof compiled;

  const outcomes: Outcome[] = [];
  groups.forEach((group, index) => {
    for (const test of group.tests) {
      const outcome: Outcome = { file, group: group.description, test: test.description };
      outcomes.push(outcome);
      const compileError = compileErrors.get(index);
      if (compileError) {
        outcome.failure = compileError;
        continue;
      }
      const is = compiled[`isSchema${index}`](test.data);
      const validated = compiled[`validateSchema${index}`](test.data) as { ok: boolean; errors?: unknown[] };
      if (is !== test.valid) outcome.failure = `isSchema returned ${String(is)}`;
      else if (validated.ok !== test.valid) outcome.failure = `validateSchema returned ok: ${validated.ok}`;
      else if (!validated.ok && !validated.errors?.length) outcome.failure = 'validateSchema reported no errors';
      else if (javascript[`isSchema${index}`](test.data) !== is) outcome.failure = 'the .js isSchema disagrees';
      else if (JSON.stringify(javascript[`validateSchema${index}`](test.data)) !== JSON.stringify(validated))
        outcome.failure = 'the .js validateSchema disagrees';
    }
  });
  return outcomes;
}

function expectedToFail(outcome: Outcome): boolean {
  return UNSUPPORTED.some(
    (entry) => entry.file === outcome.file && entry.group === outcome.group && (entry.test === undefined || entry.test === outcome.test),
  );
}

const totals = { passed: 0, unsupported: 0 };

describe('JSON Schema Test Suite', () => {
  for (const file of FILES) {
    it(file, async () => {
      const outcomes = await runFile(file);
      const unexpected = outcomes
        .filter((outcome) => (outcome.failure !== undefined) !== expectedToFail(outcome))
        .map((outcome) => `${outcome.group} / ${outcome.test}: ${outcome.failure ?? 'passes but is listed as unsupported'}`);
      expect(unexpected).toEqual([]);
      totals.passed += outcomes.filter((outcome) => !outcome.failure).length;
      totals.unsupported += outcomes.filter((outcome) => outcome.failure).length;
    });
  }

  it('lists only groups of the files it runs', () => {
    for (const entry of UNSUPPORTED) expect(FILES).toContain(entry.file);
  });

  it('generates modules that type-check under strict', () => {
    const program = ts.createProgram(sources, {
      strict: true,
      noUnusedLocals: true,
      noUnusedParameters: true,
      noImplicitReturns: true,
      noUncheckedIndexedAccess: true,
      noPropertyAccessFromIndexSignature: true,
      exactOptionalPropertyTypes: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      types: [],
      skipLibCheck: true,
    });
    const diagnostics = ts.getPreEmitDiagnostics(program).map((diagnostic) => {
      const where =
        diagnostic.file && diagnostic.start !== undefined ? diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start) : undefined;
      const line = where && diagnostic.file ? diagnostic.file.text.split('\n')[where.line].trim() : '';
      return `${diagnostic.file?.fileName.split('/').pop()}:${where ? where.line + 1 : '?'}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')} | ${line}`;
    });
    expect(diagnostics.slice(0, 20)).toEqual([]);
    // Printed so the pass counts show in the test log.
    console.log(`JSON Schema Test Suite: ${totals.passed} cases pass, ${totals.unsupported} deliberately unsupported`);
  });
});
