/**
 * Worst case per validator keyword: for each, the most expensive request body we can build
 * within the generated REST server's default limits (1 MiB body, JSON nested at most 64 deep),
 * and how long one validation of it blocks the event loop. Validation is what the server runs:
 * `validateX`, one collecting pass. JSON.parse of the same body is the reference row: that much
 * every request of this size costs anyway.
 *
 *   node --import ./bench/lib/ts-register.js bench/worst-case.ts   (node bench/run.js --only=worst-case)
 *
 * Rows are { layer, case, request, limit } entries in CASES; transports add rows to the table in
 * bench/README.md the same way (layer "gRPC", "HTTP", ...). BENCH_QUICK=1 measures fewer runs.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { emitSchemaValidators } from '../generators/core/emit/validators/emit.js';
import { validatorImports } from '../test/support/validator-imports.js';
import type { JsonSchema } from '../generators/core/schema/json-schema.js';

const BODY_LIMIT = 1024 * 1024;
const QUICK = process.env.BENCH_QUICK === '1';
const RUNS = QUICK ? 3 : 7;

interface Case {
  layer: string;
  name: string;
  schema: JsonSchema;
  /** The request body (JSON text, at most BODY_LIMIT bytes). */
  body: () => string;
  /** What keeps it from being worse. */
  limit: string;
  /** A `format` case: measured on each of formatBodies(format), the slowest reported. */
  format?: string;
}

/** `[item, item, ...]` as long as fits in the body limit. */
function fill(item: (i: number) => string, open = '[', close = ']', budget = BODY_LIMIT): string {
  const parts: string[] = [];
  let size = open.length + close.length;
  for (let i = 0; ; i++) {
    const next = item(i);
    if (size + next.length + 1 > budget) break;
    parts.push(next);
    size += next.length + 1;
  }
  return open + parts.join(',') + close;
}

const bigString = (char: string, tail = '') => JSON.stringify(char.repeat(BODY_LIMIT - 2 - tail.length - 16) + tail);
const CATASTROPHIC = '^([a-z]+)+$';

/** A tree whose two branches both descend into `kids` before they can fail: depth levels of objects. */
function branchyTree(depth: number): string {
  let node = '{"leaf":true}';
  for (let i = 0; i < depth; i++) node = `{"kids":[${node}],"kind":"c"}`;
  return node;
}

const TREE: JsonSchema = {
  $defs: {
    node: {
      anyOf: [
        { type: 'object', properties: { kids: { type: 'array', items: { $ref: '#/$defs/node' } }, kind: { const: 'a' } } },
        { type: 'object', properties: { kids: { type: 'array', items: { $ref: '#/$defs/node' } }, kind: { const: 'b' } } },
      ],
    },
  },
  $ref: '#/$defs/node',
};

const CASES: Case[] = [
  {
    layer: 'validator',
    name: 'pattern, catastrophic, maxLength 16',
    limit: 'maxLength checked first; 2^15 backtracking steps',
    schema: { type: 'string', maxLength: 16, pattern: CATASTROPHIC },
    body: () => JSON.stringify(`${'a'.repeat(15)}!`),
  },
  {
    layer: 'validator',
    name: 'pattern, catastrophic, maxLength 24',
    limit: "the user's regex: 2^23 steps, doubling per character",
    schema: { type: 'string', maxLength: 24, pattern: CATASTROPHIC },
    body: () => JSON.stringify(`${'a'.repeat(23)}!`),
  },
  {
    layer: 'validator',
    name: 'pattern, catastrophic, over maxLength (1 MiB)',
    limit: 'maxLength fails: pattern not run',
    schema: { type: 'string', maxLength: 16, pattern: CATASTROPHIC },
    body: () => bigString('a', '!'),
  },
  {
    layer: 'validator',
    name: 'pattern, linear, no maxLength (1 MiB)',
    limit: 'body limit; one regex pass',
    schema: { type: 'string', pattern: '^[a-z0-9-]*$' },
    body: () => bigString('a', '!'),
  },
  {
    layer: 'validator',
    name: 'uniqueItems, distinct small objects (1 MiB)',
    limit: 'body limit; one canonical form per item',
    schema: { type: 'array', uniqueItems: true },
    body: () => fill((i) => `{"a":${i}}`),
  },
  {
    layer: 'validator',
    name: 'uniqueItems, distinct nested objects (1 MiB)',
    limit: 'body limit; keys sorted per object',
    schema: { type: 'array', uniqueItems: true },
    body: () => fill((i) => `{"z":{"y":[${i},{"x":1,"w":2}]},"b":1,"a":0}`),
  },
  {
    layer: 'validator',
    name: 'uniqueItems, distinct strings (1 MiB)',
    limit: 'body limit; a Set',
    schema: { type: 'array', uniqueItems: true },
    body: () => fill((i) => `"${i}"`),
  },
  {
    layer: 'validator',
    name: 'uniqueItems + maxItems 10, 60,000+ objects',
    limit: 'maxItems fails: uniqueItems not run',
    schema: { type: 'array', maxItems: 10, uniqueItems: true },
    body: () => fill((i) => `{"name":"l${i}"}`),
  },
  {
    layer: 'validator',
    name: 'items: object with 4 properties (1 MiB)',
    limit: 'body limit; linear',
    schema: {
      type: 'array',
      items: {
        type: 'object',
        required: ['a', 'b'],
        properties: {
          a: { type: 'integer' },
          b: { type: 'string', minLength: 1 },
          c: { type: 'boolean' },
          d: { type: 'string', format: 'date' },
        },
      },
    },
    body: () => fill((i) => `{"a":${i},"b":"x","c":true,"d":"2024-01-01"}`),
  },
  {
    layer: 'validator',
    name: 'many properties: additionalProperties + patternProperties (1 MiB)',
    limit: 'body limit; one pass over the keys',
    schema: { type: 'object', patternProperties: { '^x-': { type: 'string' } }, additionalProperties: { type: 'integer' } },
    body: () => fill((i) => `"k${i}":${i}`, '{', '}'),
  },
  {
    layer: 'validator',
    name: 'maxProperties 10, 1 MiB of properties',
    limit: 'maxProperties fails: properties not checked',
    schema: { type: 'object', maxProperties: 10, additionalProperties: { type: 'string', pattern: CATASTROPHIC } },
    body: () => fill((i) => `"k${i}":"${'a'.repeat(20)}!"`, '{', '}'),
  },
  {
    layer: 'validator',
    name: 'deep nesting: 64 levels, wide',
    limit: 'maxJsonDepth 64 (server) + body limit',
    schema: { $defs: { n: { type: 'array', items: { $ref: '#/$defs/n' } } }, $ref: '#/$defs/n' },
    body: () => {
      let inner = fill(() => '[]', '[', ']', BODY_LIMIT - 200);
      for (let i = 0; i < 62; i++) inner = `[${inner}]`;
      return inner;
    },
  },
  {
    layer: 'validator',
    name: 'anyOf, 8 object branches failing late (1 MiB)',
    limit: 'body limit × branches',
    schema: {
      type: 'array',
      items: {
        anyOf: Array.from({ length: 8 }, (_, b) => ({
          type: 'object',
          required: ['a', 'b', 'kind'],
          properties: { a: { type: 'integer' }, b: { type: 'string' }, kind: { const: `k${b}` } },
        })),
      },
    },
    body: () => fill((i) => `{"a":${i},"b":"x","kind":"none"}`),
  },
  {
    layer: 'validator',
    name: 'oneOf, 8 object branches, all checked (1 MiB)',
    limit: 'body limit × branches',
    schema: {
      type: 'array',
      items: {
        oneOf: Array.from({ length: 8 }, (_, b) => ({
          type: 'object',
          required: ['a', 'b'],
          properties: { a: { type: 'integer' }, b: { type: 'string' }, [`p${b}`]: { type: 'string' } },
        })),
      },
    },
    body: () => fill((i) => `{"a":${i},"b":"x"}`),
  },
  {
    layer: 'validator',
    name: 'recursive anyOf, 2 branches, 16 levels',
    limit: '2^depth: both branches descend before failing',
    schema: TREE,
    body: () => branchyTree(16),
  },
  {
    layer: 'validator',
    name: 'recursive anyOf, 2 branches, 20 levels',
    limit: '2^depth; maxJsonDepth 64 allows 31 levels (NOT bounded)',
    schema: TREE,
    body: () => branchyTree(20),
  },
  ...(['date-time', 'email', 'uri', 'uri-reference', 'hostname', 'ipv6', 'uuid'] as const).map(
    (format): Case => ({
      layer: 'validator',
      name: `format ${format}, no maxLength (1 MiB)`,
      limit: 'body limit; the worst of several shapes',
      schema: { type: 'string', format },
      body: () => '',
      format,
    }),
  ),
];

/** Strings meant to make each format's check slow: long runs of what its grammar repeats. */
function formatBodies(format: string): string[] {
  const n = BODY_LIMIT - 64;
  const shapes: Record<string, string[]> = {
    'date-time': ['2024-01-01T00:00:00.' + '1'.repeat(n), '2024-01-01T00:00:00.' + '1'.repeat(n) + 'x'],
    email: ['a.'.repeat(n / 2) + 'a', 'a'.repeat(n) + '@', 'a@' + 'a.'.repeat(n / 2 - 2) + '-', '"' + ' '.repeat(n) + '@'],
    uri: [
      'a:' + '/'.repeat(n),
      'a://' + 'a'.repeat(n) + '@',
      'a://' + '%aa'.repeat(n / 3) + '\u0000',
      'a:' + 'a/'.repeat(n / 2) + '\u0000',
      'a://' + ':'.repeat(n) + '\u0000',
    ],
    'uri-reference': [
      '/'.repeat(n) + '\u0000',
      'a'.repeat(n) + '\u0000',
      '//' + 'a'.repeat(n) + '@\u0000',
      '//' + ':'.repeat(n) + '\u0000',
      'a/'.repeat(n / 2) + '\u0000',
    ],
    hostname: ['a.'.repeat(n / 2) + '-', 'xn--' + 'a'.repeat(n)],
    ipv6: ['1:'.repeat(n / 2), '::' + '1:'.repeat(n / 2)],
    uuid: ['0'.repeat(n)],
  };
  return (shapes[format] ?? []).map((text) => JSON.stringify(text.slice(0, n)));
}

type Module = Record<string, (value: unknown) => unknown>;

async function compile(): Promise<Module> {
  const result = emitSchemaValidators(CASES.map((item, i) => ({ name: `Case${i}`, schema: item.schema })));
  const dir = mkdtempSync(join(tmpdir(), 'codegen-worst-'));
  const transpile = (code: string) =>
    ts.transpileModule(code, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
  // The runtime module itself, transpiled beside the validators: the measured code runs as plain JS.
  writeFileSync(join(dir, 'validation.mjs'), transpile(readFileSync(new URL('../runtime/validation.ts', import.meta.url), 'utf8')));
  writeFileSync(
    join(dir, 'validators.mjs'),
    transpile(`${validatorImports(result, { types: './types.js', runtime: './validation.mjs' })}\n${result.code}`),
  );
  return (await import(pathToFileURL(join(dir, 'validators.mjs')).href)) as Module;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** Blocking time of `run`: the median of RUNS, after one warm-up. */
function measure(run: () => void): number {
  run();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    run();
    times.push(performance.now() - started);
  }
  return median(times);
}

const ms = (value: number) => (value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2));

async function main(): Promise<void> {
  const checks = await compile();
  console.log(`worst case per validator keyword: one request within the default limits (body ${BODY_LIMIT} bytes, JSON depth 64)`);
  console.log(`node ${process.version}; blocking time of validateX (one collecting pass), median of ${RUNS}\n`);
  const rows: string[][] = [['layer', 'case', 'body', 'JSON.parse ms', 'validate ms', 'what bounds it']];
  CASES.forEach((item, i) => {
    const validate = checks[`validateCase${i}`]!;
    const bodies = item.format ? formatBodies(item.format) : [item.body()];
    let worst = { parse: 0, validate: -1, size: 0 };
    for (const body of bodies) {
      if (Buffer.byteLength(body) > BODY_LIMIT) throw new Error(`${item.name}: body over the limit`);
      const value = JSON.parse(body) as unknown;
      const time = measure(() => validate(value));
      if (time > worst.validate) worst = { parse: measure(() => JSON.parse(body)), validate: time, size: body.length };
    }
    const size = worst.size >= 1024 ? `${(worst.size / 1024).toFixed(0)} KiB` : `${worst.size} B`;
    rows.push([item.layer, item.name, size, ms(worst.parse), ms(worst.validate), item.limit]);
  });
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  for (const row of rows)
    console.log(
      row
        .map((cell, column) => (column >= 2 && column <= 4 ? cell.padStart(widths[column]!) : cell.padEnd(widths[column]!)))
        .join('  ')
        .trimEnd(),
    );
}

await main();
