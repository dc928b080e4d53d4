/**
 * Generated validators vs ajv's compiled validators, on the same schemas (the components of
 * schemas/openapi/tasks.yaml) and the same data (valid and invalid tasks). Prints operations per
 * CPU-second and the ratio ours / ajv; never asserts a timing.
 *
 *   node --import ./bench/lib/ts-register.js bench/validators.ts   (what `npm run bench` runs)
 *
 * Pairs compared:
 *   isTask(value)        vs ajv (default: stops at the first error)  → a yes/no answer
 *   validateTask(value)  vs ajv with allErrors: true                 → every error with its path
 * BENCH_QUICK=1 shortens the runs; BENCH_WORK names a folder for the generated module.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import ts from 'typescript';
import { parse } from 'yaml';
import { emitValidators } from '../generators/core/emit/validators/emit.js';
import type { JsonSchema, NamedSchema } from '../generators/core/schema/json-schema.js';
import { validatorImports } from '../test/support/validator-imports.js';

type Check = (value: unknown) => unknown;

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const QUICK = process.env.BENCH_QUICK === '1';
const ROUNDS = QUICK ? 3 : 7;
const ROUND_MS = QUICK ? 100 : 400;

// ajv-formats is CommonJS: its default export arrives as the module object or the function.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule) as unknown as (
  ajv: Ajv2020,
) => void;

/** The components, with refs rewritten to `#/$defs/<name>` as the loaders produce them. */
function taskSchemas(): Record<string, JsonSchema> {
  const document = parse(readFileSync(join(ROOT, 'schemas/openapi/tasks.yaml'), 'utf8')) as {
    components: { schemas: Record<string, JsonSchema> };
  };
  return JSON.parse(JSON.stringify(document.components.schemas).replace(/#\/components\/schemas\//g, '#/$defs/')) as Record<
    string,
    JsonSchema
  >;
}

async function loadOurs(schemas: Record<string, JsonSchema>, formats: boolean): Promise<Record<string, Check>> {
  const named: NamedSchema[] = Object.entries(schemas).map(([name, schema]) => ({ name, schema, origin: 'component' }));
  const result = emitValidators(named, {
    typeName: (name, direction) => (direction === 'write' ? `${name}Input` : name),
    formats: formats ? 'assert' : 'ignore',
  });
  const base = process.env.BENCH_WORK ? join(process.env.BENCH_WORK, 'validators') : mkdtempSync(join(tmpdir(), 'codegen-bench-'));
  const dir = join(base, formats ? 'formats' : 'no-formats');
  mkdirSync(dir, { recursive: true });
  const transpile = (code: string) =>
    ts.transpileModule(code, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
  // The runtime module itself, transpiled beside the validators: the measured code runs as plain JS.
  writeFileSync(join(dir, 'validation.mjs'), transpile(readFileSync(join(ROOT, 'runtime', 'validation.ts'), 'utf8')));
  const source = `${validatorImports(result, { types: './types.js', runtime: './validation.mjs' })}\n${result.code}`;
  writeFileSync(join(dir, 'validators.ts'), source);
  writeFileSync(join(dir, 'validators.mjs'), transpile(source));
  return (await import(pathToFileURL(join(dir, 'validators.mjs')).href)) as Record<string, Check>;
}

function loadAjv(schemas: Record<string, JsonSchema>, allErrors: boolean, formats: boolean): Check {
  // ajv's discriminator takes the tag values from each member's `const`, and rejects `mapping`.
  const defs = JSON.parse(JSON.stringify(schemas)) as Record<string, { discriminator?: { mapping?: unknown } }>;
  for (const schema of Object.values(defs)) delete schema.discriminator?.mapping;
  const ajv = new Ajv2020({ allErrors, discriminator: true, strict: false, validateFormats: formats });
  if (formats) addFormats(ajv);
  ajv.addSchema({ $id: 'https://example.com/tasks', $defs: defs });
  const validate = ajv.getSchema('https://example.com/tasks#/$defs/Task');
  if (!validate) throw new Error('ajv did not compile Task');
  return validate as Check;
}

function task(n: number, depth: number): Record<string, unknown> {
  const value: Record<string, unknown> = {
    id: `2eb8aa08-aa98-11ea-b4aa-73b441d1${String(6380 + n).padStart(4, '0')}`,
    title: `Write the quarterly report, part ${n}`,
    status: ['todo', 'in_progress', 'done'][n % 3],
    dueDate: '2025-03-31',
    estimateHours: 2.5 + (n % 4) * 0.25,
    assignee: n % 2 ? { kind: 'person', email: `ada${n}@example.com` } : { kind: 'team', team: 'platform' },
    labels: [{ name: 'finance', color: '#00aa55' }, { name: `q${(n % 4) + 1}` }],
    metadata: { source: 'jira', key: `FIN-${100 + n}` },
    createdAt: '2025-01-02T09:30:00Z',
    updatedAt: '2025-01-03T17:05:12.250+01:00',
  };
  if (depth > 0) value.subtasks = [task(n * 10 + 1, depth - 1), task(n * 10 + 2, depth - 1)];
  return value;
}

/** Valid tasks, from minimal to nested. */
function validData(): unknown[] {
  return [
    { id: '98d80576-482e-427f-8434-7f86890ab222', title: 'Minimal', status: 'todo', createdAt: '2025-01-02T09:30:00Z' },
    task(1, 0),
    task(2, 0),
    task(3, 1),
    task(4, 2),
  ];
}

/** The same tasks, each broken in one or two places. */
function invalidData(): unknown[] {
  const broken = (n: number, change: (value: Record<string, unknown>) => void) => {
    const value = task(n, 1);
    change(value);
    return value;
  };
  return [
    broken(2, (value) => delete value.title),
    broken(1, (value) => ((value.assignee as Record<string, unknown>).email = 'not an email')),
    broken(3, (value) => (value.labels = [{ name: 'Finance!' }, { name: 'ops', extra: true }])),
    broken(4, (value) => (value.labels = [{ name: 'ops' }, { name: 'ops' }])),
    broken(5, (value) => (value.estimateHours = 2.3)),
    broken(6, (value) => ((value.subtasks as Array<Record<string, unknown>>)[1].dueDate = '2025-02-30')),
    broken(7, (value) => ((value.assignee as Record<string, unknown>).kind = 'robot')),
    broken(8, (value) => (value.metadata = { retries: 3 })),
  ];
}

/**
 * The measured loop: `n` checks over `data`, counting truthy answers. Compiled anew for each
 * function measured, so each loop has its own type feedback: a shared loop would see every
 * validator at one call site and call them all through a megamorphic call (or inline the first
 * one measured and favour it).
 */
type Loop = (check: Check, data: unknown[], n: number) => number;
function loopFor(): Loop {
  return new Function(
    'check',
    'data',
    'n',
    'let sink = 0;\nfor (let i = 0; i < n; i++) if (check(data[i % data.length])) sink++;\nreturn sink;',
  ) as Loop;
}

/** CPU time of this process so far (user + system), in microseconds. */
function cpuMicros(): number {
  const usage = process.cpuUsage();
  return usage.user + usage.system;
}

/**
 * Median operations per CPU-second of `check` over `data` (one operation = one value checked).
 * CPU time, not wall time: on a shared machine the process is descheduled for whole time slices,
 * which wall time would count against whichever side happened to be running.
 */
function measure(check: Check, data: unknown[]): number {
  const loop = loopFor();
  let sink = 0;
  const rates: number[] = [];
  // Warm up so both sides run optimised code.
  sink += loop(check, data, 20_000);
  for (let round = 0; round < ROUNDS; round++) {
    let operations = 0;
    const start = cpuMicros();
    const deadline = start + ROUND_MS * 1000;
    let now = start;
    while (now < deadline) {
      sink += loop(check, data, 1000);
      operations += 1000;
      now = cpuMicros();
    }
    rates.push(operations / ((now - start) / 1e6));
  }
  if (sink === -1) console.log(sink);
  rates.sort((a, b) => a - b);
  return rates[Math.floor(rates.length / 2)];
}

function format(rate: number): string {
  return `${(rate / 1e6).toFixed(2)} M/s`.padStart(11);
}

interface Pair {
  is: Check;
  validate: Check;
  ajvFirst: Check;
  ajvAll: Check;
}

async function pair(schemas: Record<string, JsonSchema>, formats: boolean): Promise<Pair> {
  const ours = await loadOurs(schemas, formats);
  const validateTask = ours.validateTask;
  return {
    is: ours.isTask,
    // Ours returns a result object; count a valid one as truthy like ajv's boolean.
    validate: (value) => (validateTask(value) as { ok: boolean }).ok,
    ajvFirst: loadAjv(schemas, false, formats),
    ajvAll: loadAjv(schemas, true, formats),
  };
}

/** Both sides must agree with the expected answer, or the figures mean nothing. */
function agree(checks: Pair, data: unknown[], expected: boolean, label: string): void {
  for (const [index, value] of data.entries()) {
    const answers = [checks.is(value), checks.validate(value), checks.ajvFirst(value), checks.ajvAll(value)];
    if (answers.some((answer) => Boolean(answer) !== expected)) {
      throw new Error(`${label} datum ${index}: ours/validate/ajv/ajv-all answered ${answers.join('/')}, expected ${expected}`);
    }
  }
}

async function main(): Promise<void> {
  const schemas = taskSchemas();
  const valid = validData();
  const invalid = invalidData();
  console.log(
    `validators: Task from schemas/openapi/tasks.yaml; ${valid.length} valid and ${invalid.length} invalid tasks; median of ${ROUNDS} × ${ROUND_MS} ms of CPU time`,
  );
  console.log(`node ${process.version}; ajv 2020 + ajv-formats (full mode), discriminator on`);
  for (const formats of [true, false]) {
    const checks = await pair(schemas, formats);
    agree(checks, valid, true, 'valid');
    // Without formats the invalid email and date are no longer errors.
    agree(checks, formats ? invalid : invalid.filter((_, index) => index !== 1 && index !== 5), false, 'invalid');
    console.log('');
    console.log(formats ? 'formats checked (date, date-time, email, uuid):' : 'formats not checked (structure only):');
    console.log('data      ours isTask   ajv (first error)  ratio   ours validateTask  ajv allErrors  ratio');
    for (const [label, data] of [
      ['valid', valid],
      ['invalid', formats ? invalid : invalid.filter((_, index) => index !== 1 && index !== 5)],
    ] as const) {
      const oursIs = measure(checks.is, data);
      const ajvIs = measure(checks.ajvFirst, data);
      const oursAll = measure(checks.validate, data);
      const ajvErrors = measure(checks.ajvAll, data);
      console.log(
        `${label.padEnd(8)} ${format(oursIs)}   ${format(ajvIs)}       ${(oursIs / ajvIs).toFixed(2)}×   ${format(oursAll)}        ${format(ajvErrors)}    ${(oursAll / ajvErrors).toFixed(2)}×`,
      );
    }
  }
}

await main();
