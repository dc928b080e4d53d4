/**
 * Generated validators on a realistic API (a mirror of the components of
 * schemas/openapi/tasks.yaml) and on hostile names and values: the errors reported (path,
 * keyword, message), the request (write) shape, own-property semantics, and that the generated
 * module type-checks under strict with TypeScript 5.9 and 7.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ValidatorSchemaError, emitSchemaValidators, emitValidators, type ValidatorCode } from '../generators/core/emit/validators/emit.js';
import type { JsonSchema, NamedSchema } from '../generators/core/schema/json-schema.js';
import { readWriteNames } from '../generators/core/schema/read-write.js';
import { runtimeSpecifier } from './support/runtime.js';
import { tempDir } from './support/tmp.js';
import { COMPILERS, typecheck } from './support/typecheck.js';
import { validatorImports } from './support/validator-imports.js';

const TASKS = `
Project:
  type: object
  required: [id, name, createdAt]
  properties:
    id: { type: string, format: uuid, readOnly: true }
    name: { type: string, minLength: 1, maxLength: 120 }
    description: { type: [string, 'null'], maxLength: 2000 }
    createdAt: { type: string, format: date-time, readOnly: true }
TaskStatus:
  type: string
  enum: [todo, in_progress, done]
Label:
  type: object
  required: [name]
  additionalProperties: false
  properties:
    name: { type: string, pattern: '^[a-z][a-z0-9-]*$' }
    color: { type: string, pattern: '^#[0-9a-f]{6}$' }
Assignee:
  oneOf:
    - $ref: '#/$defs/PersonAssignee'
    - $ref: '#/$defs/TeamAssignee'
  discriminator:
    propertyName: kind
    mapping:
      person: '#/$defs/PersonAssignee'
      team: '#/$defs/TeamAssignee'
PersonAssignee:
  type: object
  required: [kind, email]
  properties:
    kind: { const: person }
    email: { type: string, format: email }
TeamAssignee:
  type: object
  required: [kind, team]
  properties:
    kind: { const: team }
    team: { type: string }
Task:
  type: object
  required: [id, title, status, createdAt]
  properties:
    id: { type: string, format: uuid, readOnly: true }
    title: { type: string, minLength: 1, maxLength: 200 }
    status: { $ref: '#/$defs/TaskStatus' }
    dueDate: { type: string, format: date }
    estimateHours: { type: number, exclusiveMinimum: 0, multipleOf: 0.25 }
    assignee: { $ref: '#/$defs/Assignee' }
    labels:
      type: array
      uniqueItems: true
      maxItems: 10
      items: { $ref: '#/$defs/Label' }
    metadata:
      type: object
      additionalProperties: { type: string }
    subtasks:
      type: array
      items: { $ref: '#/$defs/Task' }
    createdAt: { type: string, format: date-time, readOnly: true }
    updatedAt: { type: string, format: date-time, readOnly: true }
TaskPatch:
  type: object
  minProperties: 1
  properties:
    title: { type: string, minLength: 1, maxLength: 200 }
    status: { $ref: '#/$defs/TaskStatus' }
    dueDate: { type: [string, 'null'], format: date }
    assignee:
      oneOf:
        - $ref: '#/$defs/Assignee'
        - type: 'null'
`;

/** Names, keys and values that break naive code generation. */
const HOSTILE: Record<string, JsonSchema> = {
  Hostile: {
    type: 'object',
    required: ['constructor', '__proto__', 'toString', 'say "hi"', 'a/b~c', 'value', 'v1'],
    additionalProperties: false,
    properties: {
      // `as const`: TypeScript types these two keys from Object.prototype, not from the index signature.
      constructor: { type: 'string' as const },
      // Computed: a plain `__proto__:` key would set the literal's prototype instead.
      ['__proto__']: { type: 'number' },
      toString: { type: 'boolean' as const },
      'say "hi"': { enum: ['it\'s "quoted"', 'back\\slash', 'line\u2028separator', '*/ not a comment end'] },
      'a/b~c': { const: JSON.parse('{"__proto__": {"x": 1}}') as unknown },
      value: { type: 'string', pattern: '^a/b\\\\c\\d+/$' },
      v1: { type: 'integer' },
      'line\u2028break': { type: 'string', pattern: '\\u2028' },
    },
  },
  // Names of the runtime's types, used by a schema: the runtime imports are aliased.
  ValidationError: { type: 'object', properties: { path: { type: 'string' } } },
  ValidationResult: { type: 'array', items: { $ref: '#/$defs/ValidationError' } },
  ErrorCollector: { type: 'object', required: ['errors'], properties: { errors: { $ref: '#/$defs/ValidationResult' } } },
};

function namedSchemas(schemas: Record<string, JsonSchema>): NamedSchema[] {
  return Object.entries(schemas).map(([name, schema]) => ({ name, schema, origin: 'component' as const }));
}

/** Type names as the type emitter gives them: `<Name>Input` only where the request shape differs. */
function typeNames(schemas: NamedSchema[]) {
  const readWrite = readWriteNames(schemas);
  return { typeName: (name: string, direction: 'read' | 'write') => readWrite.get(name)![direction] };
}

type Result = { ok: true; value: unknown } | { ok: false; errors: Array<{ path: string; keyword: string; message: string }> };
type Module = Record<string, (value: unknown) => unknown>;

const dir = tempDir('codegen-validators-');

/** Writes `name/` with validators.ts (importing runtime/validation.ts itself) and types.ts, and imports it. */
async function load(name: string, result: ValidatorCode): Promise<Module> {
  const folder = join(dir, name);
  mkdirSync(folder, { recursive: true });
  const types = result.typeImports.map((type) => `export interface ${type} {\n  [key: string]: unknown;\n}\n`).join('\n');
  writeFileSync(join(folder, 'types.ts'), types || 'export {};\n');
  const source = `${validatorImports(result, { types: './types.js', runtime: runtimeSpecifier(folder, 'validation') })}\n${result.code}`;
  writeFileSync(join(folder, 'validators.ts'), source);
  return (await import(pathToFileURL(join(folder, 'validators.ts')).href)) as Module;
}

function errorsOf(result: unknown): Array<{ path: string; keyword: string; message: string }> {
  const outcome = result as Result;
  if (outcome.ok) throw new Error('expected errors, the value is valid');
  return outcome.errors;
}

const tasks = parse(TASKS) as Record<string, JsonSchema>;
let tasksCode: ValidatorCode;
let api: Module;
let hostile: Module;

beforeAll(async () => {
  tasksCode = emitValidators(namedSchemas(tasks), typeNames(namedSchemas(tasks)));
  api = await load('tasks', tasksCode);
  hostile = await load('hostile', emitValidators(namedSchemas(HOSTILE), typeNames(namedSchemas(HOSTILE))));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

function validTask(): Record<string, unknown> {
  return {
    id: '2eb8aa08-aa98-11ea-b4aa-73b441d16380',
    title: 'Write the report',
    status: 'in_progress',
    dueDate: '2024-02-29',
    estimateHours: 2.75,
    assignee: { kind: 'person', email: 'ada@example.com' },
    labels: [{ name: 'finance', color: '#00aa55' }, { name: 'q1' }],
    metadata: { source: 'jira' },
    subtasks: [{ id: '98d80576-482e-427f-8434-7f86890ab222', title: 'Draft', status: 'done', createdAt: '2024-01-01T10:00:00Z' }],
    createdAt: '2024-01-01T09:30:00+01:00',
  };
}

describe('emitValidators on the tasks API', () => {
  it('exports is/validate pairs, with Input variants for request shapes', () => {
    const exported = [...tasksCode.code.matchAll(/^export function (\w+)/gm)].map((match) => match[1]);
    expect(exported).toEqual([
      'isProject',
      'validateProject',
      'isProjectInput',
      'validateProjectInput',
      'isTaskStatus',
      'validateTaskStatus',
      'isLabel',
      'validateLabel',
      'isAssignee',
      'validateAssignee',
      'isPersonAssignee',
      'validatePersonAssignee',
      'isTeamAssignee',
      'validateTeamAssignee',
      'isTask',
      'validateTask',
      'isTaskInput',
      'validateTaskInput',
      'isTaskPatch',
      'validateTaskPatch',
    ]);
    expect(tasksCode.typeImports).toEqual([
      'Project',
      'ProjectInput',
      'TaskStatus',
      'Label',
      'Assignee',
      'PersonAssignee',
      'TeamAssignee',
      'Task',
      'TaskInput',
      'TaskPatch',
    ]);
    expect(tasksCode.code).not.toMatch(/\bany\b|\beval\b|new Function/);
  });

  it('accepts a valid task and returns the same value', () => {
    const task = validTask();
    expect(api.isTask(task)).toBe(true);
    const result = api.validateTask(task) as Result;
    expect(result.ok).toBe(true);
    expect(result.ok && result.value).toBe(task);
  });

  it('reports every error with its JSON pointer, keyword and message', () => {
    const task = {
      ...validTask(),
      id: 'not-a-uuid',
      title: undefined,
      status: 'open',
      dueDate: '2025-02-30',
      estimateHours: 0,
      assignee: { kind: 'person', email: 'nobody' },
      labels: [{ name: 'Bad Name' }, { name: 'ok', extra: 1 }, { name: 'ok', extra: 1 }],
      metadata: { count: 1, 'x/y~z': true },
      subtasks: [{ title: '', status: 'todo', estimateHours: 1.1, createdAt: '2024-01-01T10:00:00Z' }],
      createdAt: 'yesterday',
    };
    delete (task as Record<string, unknown>).title;
    expect(api.isTask(task)).toBe(false);
    expect(errorsOf(api.validateTask(task))).toEqual([
      { path: '/id', keyword: 'format', message: 'must be a valid uuid' },
      { path: '/title', keyword: 'required', message: 'is required' },
      { path: '/status', keyword: 'enum', message: 'must be one of "todo", "in_progress", "done"' },
      { path: '/dueDate', keyword: 'format', message: 'must be a valid date' },
      { path: '/estimateHours', keyword: 'exclusiveMinimum', message: 'must be > 0' },
      { path: '/assignee/email', keyword: 'format', message: 'must be a valid email' },
      { path: '/labels/0/name', keyword: 'pattern', message: 'must match the pattern "^[a-z][a-z0-9-]*$"' },
      { path: '/labels/1/extra', keyword: 'additionalProperties', message: 'is not allowed' },
      { path: '/labels/2/extra', keyword: 'additionalProperties', message: 'is not allowed' },
      { path: '/labels/2', keyword: 'uniqueItems', message: 'must not repeat an earlier item' },
      { path: '/metadata/count', keyword: 'type', message: 'must be a string' },
      { path: '/metadata/x~1y~0z', keyword: 'type', message: 'must be a string' },
      { path: '/subtasks/0/id', keyword: 'required', message: 'is required' },
      { path: '/subtasks/0/title', keyword: 'minLength', message: 'must have at least 1 character' },
      { path: '/subtasks/0/estimateHours', keyword: 'multipleOf', message: 'must be a multiple of 0.25' },
      { path: '/createdAt', keyword: 'format', message: 'must be a valid date-time' },
    ]);
  });

  it('reports a wrong root type at the empty pointer', () => {
    expect(errorsOf(api.validateTask(null))).toEqual([{ path: '', keyword: 'type', message: 'must be an object' }]);
    expect(errorsOf(api.validateTask([]))).toEqual([{ path: '', keyword: 'type', message: 'must be an object' }]);
  });

  it('dispatches on the discriminator and reports a missing or unknown tag', () => {
    expect(api.isAssignee({ kind: 'team', team: 'platform' })).toBe(true);
    expect(api.isAssignee({ kind: 'team', email: 'ada@example.com' })).toBe(false);
    expect(errorsOf(api.validateAssignee({ kind: 'robot' }))).toEqual([
      { path: '/kind', keyword: 'discriminator', message: 'must be one of "person", "team"' },
    ]);
    expect(errorsOf(api.validateAssignee({ email: 'ada@example.com' }))).toEqual([
      { path: '/kind', keyword: 'discriminator', message: 'is required (one of "person", "team")' },
    ]);
    expect(errorsOf(api.validateAssignee('ada'))).toEqual([
      { path: '', keyword: 'discriminator', message: 'must be an object with a "kind" property' },
    ]);
    expect(errorsOf(api.validateAssignee({ kind: 'team' }))).toEqual([{ path: '/team', keyword: 'required', message: 'is required' }]);
  });

  it('does not require readOnly properties of a request body, but still checks them', () => {
    const input = { title: 'New', status: 'todo', subtasks: [{ title: 'Child', status: 'todo' }] };
    expect(api.isTaskInput(input)).toBe(true);
    expect(api.isTask(input)).toBe(false);
    expect(errorsOf(api.validateTask(input))).toEqual([
      { path: '/id', keyword: 'required', message: 'is required' },
      { path: '/subtasks/0/id', keyword: 'required', message: 'is required' },
      { path: '/subtasks/0/createdAt', keyword: 'required', message: 'is required' },
      { path: '/createdAt', keyword: 'required', message: 'is required' },
    ]);
    expect(errorsOf(api.validateTaskInput({ ...input, id: 42 }))).toEqual([{ path: '/id', keyword: 'type', message: 'must be a string' }]);
    expect(api.isProjectInput({ name: 'Apollo' })).toBe(true);
    expect(api.isProject({ name: 'Apollo' })).toBe(false);
  });

  it('explains a nullable oneOf by the member that fits the value', () => {
    expect(api.isTaskPatch({ assignee: null })).toBe(true);
    expect(errorsOf(api.validateTaskPatch({ assignee: { kind: 'person', email: 'x' } }))).toEqual([
      { path: '/assignee/email', keyword: 'format', message: 'must be a valid email' },
    ]);
    expect(errorsOf(api.validateTaskPatch({ assignee: 5 }))).toEqual([
      { path: '/assignee', keyword: 'oneOf', message: 'must match exactly one schema in oneOf (matched none)' },
    ]);
    expect(errorsOf(api.validateTaskPatch({}))).toEqual([{ path: '', keyword: 'minProperties', message: 'must have at least 1 property' }]);
  });

  it('counts string length in code points and checks multipleOf without float noise', () => {
    const emoji = '😀'.repeat(200);
    expect(api.isTask({ ...validTask(), title: emoji })).toBe(true);
    expect(errorsOf(api.validateTask({ ...validTask(), title: `${emoji}x` }))).toEqual([
      { path: '/title', keyword: 'maxLength', message: 'must have at most 200 characters' },
    ]);
    expect(api.isTask({ ...validTask(), estimateHours: 19.75 })).toBe(true);
    expect(api.isTask({ ...validTask(), estimateHours: 0.1 + 0.15 })).toBe(true);
    expect(api.isTask({ ...validTask(), estimateHours: Number.NaN })).toBe(false);
  });

  it('terminates on deep recursion and agrees with isTask', () => {
    let task: Record<string, unknown> = validTask();
    for (let depth = 0; depth < 200; depth++) task = { ...validTask(), subtasks: [task] };
    expect(api.isTask(task)).toBe(true);
    (task.subtasks as Array<Record<string, unknown>>)[0].status = 'lost';
    expect(errorsOf(api.validateTask(task))).toEqual([
      { path: '/subtasks/0/status', keyword: 'enum', message: 'must be one of "todo", "in_progress", "done"' },
    ]);
  });

  it('builds paths only when errors are collected', () => {
    const functions = [...tasksCode.code.matchAll(/^function (check\w+)\([^)]*\)[^{]*\{\n([\s\S]*?)\n\}/gm)];
    expect(functions.length).toBeGreaterThan(5);
    for (const [, name, body] of functions) {
      // Paths are built by `fail`, which only runs once a check has failed, and by `callAt` once
      // the call has failed (an index or key is passed apart); nothing else concatenates strings.
      const rest = body.replace(/\bfail(?:Type)?\(.*\);$/gm, 'FAIL;');
      expect(rest, name).not.toMatch(/" \+|\+ "|pointerToken/);
    }
  });

  it('stops a yes/no pass at the first failure, before calling further checks', () => {
    let calls = 0;
    const task = {
      ...validTask(),
      title: '',
      labels: new Proxy([{ name: 'ok' }], { get: (target, key, receiver) => ((calls += 1), Reflect.get(target, key, receiver)) }),
    };
    expect(api.isTask(task)).toBe(false);
    expect(calls).toBe(0);
    expect(errorsOf(api.validateTask(task))).toEqual([{ path: '/title', keyword: 'minLength', message: 'must have at least 1 character' }]);
    expect(calls).toBeGreaterThan(0);
  });

  it('emits the same text every time', () => {
    expect(emitValidators(namedSchemas(tasks), typeNames(namedSchemas(tasks))).code).toBe(tasksCode.code);
  });
});

describe('hostile names and values', () => {
  const valid = () =>
    JSON.parse(
      JSON.stringify({
        constructor: 'c',
        toString: true,
        'say "hi"': 'back\\slash',
        'a/b~c': { placeholder: true },
        value: 'a/b\\c12/',
        v1: 3,
        'line\u2028break': 'x\u2028y',
      })
        .replace('"placeholder":true', '"__proto__":{"x":1}')
        .replace(/^\{/, '{"__proto__": 7,'),
    ) as Record<string, unknown>;

  it('accepts own properties named like Object.prototype members', () => {
    const value = valid();
    expect(Object.prototype.hasOwnProperty.call(value, '__proto__')).toBe(true);
    expect(hostile.validateHostile(value)).toEqual({ ok: true, value });
  });

  it('checks required inherited names as own properties', () => {
    expect(errorsOf(hostile.validateHostile({}))).toEqual([
      { path: '/constructor', keyword: 'required', message: 'is required' },
      { path: '/__proto__', keyword: 'required', message: 'is required' },
      { path: '/toString', keyword: 'required', message: 'is required' },
      { path: '/say "hi"', keyword: 'required', message: 'is required' },
      { path: '/a~1b~0c', keyword: 'required', message: 'is required' },
      { path: '/value', keyword: 'required', message: 'is required' },
      { path: '/v1', keyword: 'required', message: 'is required' },
    ]);
  });

  it('validates the values of those properties', () => {
    const value = { ...valid(), v1: 1.5 };
    Object.defineProperty(value, '__proto__', { value: 'seven', enumerable: true });
    expect(errorsOf(hostile.validateHostile(value))).toEqual([
      { path: '/__proto__', keyword: 'type', message: 'must be a number' },
      { path: '/v1', keyword: 'type', message: 'must be an integer' },
    ]);
  });

  it('compares enum and const values with quotes, backslashes, U+2028 and __proto__ keys', () => {
    for (const text of ['it\'s "quoted"', 'back\\slash', 'line\u2028separator', '*/ not a comment end']) {
      expect(hostile.isHostile({ ...valid(), 'say "hi"': text }), text).toBe(true);
    }
    expect(errorsOf(hostile.validateHostile({ ...valid(), 'say "hi"': 'back\\\\slash' }))).toEqual([
      {
        path: '/say "hi"',
        keyword: 'enum',
        message: 'must be one of "it\'s \\"quoted\\"", "back\\\\slash", "line\u2028separator", "*/ not a comment end"',
      },
    ]);
    expect(errorsOf(hostile.validateHostile({ ...valid(), 'a/b~c': { x: 1 } }))[0]).toMatchObject({ path: '/a~1b~0c', keyword: 'const' });
  });

  it('compiles patterns with slashes, backslashes and U+2028', () => {
    expect(errorsOf(hostile.validateHostile({ ...valid(), value: 'a/bc1/' }))).toEqual([
      { path: '/value', keyword: 'pattern', message: 'must match the pattern "^a/b\\\\\\\\c\\\\d+/$"' },
    ]);
    expect(hostile.isHostile({ ...valid(), 'line\u2028break': 'no separator' })).toBe(false);
  });

  it('rejects properties it does not list, escaping them in the path', () => {
    expect(errorsOf(hostile.validateHostile({ ...valid(), 'x/y': 1 }))).toEqual([
      { path: '/x~1y', keyword: 'additionalProperties', message: 'is not allowed' },
    ]);
  });

  it('aliases runtime types that a schema type shadows', () => {
    expect(hostile.isValidationResult([{ path: '/a' }])).toBe(true);
    expect(errorsOf(hostile.validateValidationResult([{ path: 1 }]))).toEqual([
      { path: '/0/path', keyword: 'type', message: 'must be a string' },
    ]);
    expect(errorsOf(hostile.validateErrorCollector({ errors: [{ path: 1 }] }))).toEqual([
      { path: '/errors/0/path', keyword: 'type', message: 'must be a string' },
    ]);
  });
});

describe('standalone schemas and errors', () => {
  it('reports unsupported keywords through onUnsupported', () => {
    const seen: string[] = [];
    const schema = { properties: { a: { unevaluatedProperties: false } } } as JsonSchema;
    emitSchemaValidators([{ name: 'Open', schema }], {
      onUnsupported: (keyword, pointer) => seen.push(`${keyword} at ${pointer}`),
    });
    expect(seen).toEqual(['unevaluatedProperties at /properties/a']);
  });

  it('refuses remote and anchor references', () => {
    expect(() => emitSchemaValidators([{ name: 'Remote', schema: { $ref: 'other.json#/a' } }])).toThrow(ValidatorSchemaError);
    expect(() => emitSchemaValidators([{ name: 'Anchor', schema: { $ref: '#here' } }])).toThrow(/anchor/);
    expect(() => emitSchemaValidators([{ name: 'Missing', schema: { $ref: '#/$defs/none' } }])).toThrow(/points at nothing/);
  });

  it('refuses references that loop without descending into the value', () => {
    const loop = { $defs: { a: { $ref: '#/$defs/b' }, b: { allOf: [{ $ref: '#/$defs/a' }] } }, $ref: '#/$defs/a' } as JsonSchema;
    expect(() => emitSchemaValidators([{ name: 'Loop', schema: loop }])).toThrow(/loop without reaching a property or item/);
    const tree = { type: 'object', properties: { children: { type: 'array', items: { $ref: '#' } } } } as JsonSchema;
    expect(() => emitSchemaValidators([{ name: 'Tree', schema: tree }])).not.toThrow();
  });

  it('checks large objects in parts, keeping the order of errors, and shares identical parts', async () => {
    const names = Array.from({ length: 40 }, (_, i) => `p${i}`);
    const big = (first: JsonSchema): JsonSchema => ({
      type: 'object',
      required: names,
      properties: { ...Object.fromEntries(names.map((name) => [name, { type: 'string' }])), p0: first },
    });
    const result = emitSchemaValidators([
      { name: 'Big', schema: big({ type: 'string' }) },
      { name: 'Other', schema: big({ type: 'integer' }) },
    ]);
    // 40 properties: 16 in checkBig itself, then parts of 16 and 8, which Other reuses.
    expect(result.code.match(/^function checkBigPart\d\(/gm)).toEqual(['function checkBigPart2(', 'function checkBigPart3(']);
    expect(result.code).not.toMatch(/checkOtherPart/);
    const checks = await load('parts', result);
    const valid = Object.fromEntries(names.map((name) => [name, 'x']));
    expect(checks.isBig(valid)).toBe(true);
    expect(checks.isOther(valid)).toBe(false);
    expect(checks.isOther({ ...valid, p0: 1 })).toBe(true);
    expect(errorsOf(checks.validateBig({})).map((error) => error.path)).toEqual(names.map((name) => `/${name}`));
    expect(errorsOf(checks.validateBig({ ...valid, p3: 1, p20: 2, p39: null }))).toEqual([
      { path: '/p3', keyword: 'type', message: 'must be a string' },
      { path: '/p20', keyword: 'type', message: 'must be a string' },
      { path: '/p39', keyword: 'type', message: 'must be a string' },
    ]);
  });

  it('checks common properties through helpers, with the same errors, every property of a run reported', async () => {
    const schema: JsonSchema = {
      type: 'object',
      required: ['s', 'i', 'n', 'b', 'uri', 'when', 'ref'],
      properties: {
        s: { type: 'string' },
        i: { type: 'integer' },
        n: { type: 'number' },
        b: { type: 'boolean' },
        uri: { type: 'string', format: 'uri' },
        when: { type: ['string', 'null'], format: 'date-time' },
        ref: { $ref: '#/$defs/Point' },
        os: { type: 'string' },
        oi: { type: ['integer', 'null'] },
        oref: { $ref: '#/$defs/Point' },
      },
      $defs: { Point: { type: 'object', required: ['x'], properties: { x: { type: 'number' }, y: { type: 'number' } } } },
    };
    const result = emitSchemaValidators([{ name: 'Props', schema }]);
    // The helpers are the runtime's, imported, not declared in the module.
    expect(result.runtimeImports).toEqual(expect.arrayContaining(['reqString', 'reqDateTimeOrNull', 'reqRef', 'optRef']));
    expect(result.code).not.toMatch(/^function (req|opt|fail)/m);
    expect(result.code).toMatch(/\breqRef\(o1\["ref"\], errors, "\/ref", checkPoint\)/);
    const checks = await load('helpers', result);
    const valid = { s: 'a', i: 1, n: 1.5, b: true, uri: 'https://example.com/', when: null, ref: { x: 1 } };
    expect(checks.isProps(valid)).toBe(true);
    expect(checks.isProps({ ...valid, when: '2024-01-02T03:04:05Z', os: 'x', oi: null, oref: { x: 2, y: 3 } })).toBe(true);
    expect(errorsOf(checks.validateProps({}))).toEqual(
      ['s', 'i', 'n', 'b', 'uri', 'when', 'ref'].map((name) => ({ path: `/${name}`, keyword: 'required', message: 'is required' })),
    );
    expect(
      errorsOf(
        checks.validateProps({
          s: 1,
          i: 1.5,
          n: 'x',
          b: 0,
          uri: 'not a uri',
          when: 'yesterday',
          ref: { y: 'a' },
          os: null,
          oi: 'x',
          oref: [],
        }),
      ),
    ).toEqual([
      { path: '/s', keyword: 'type', message: 'must be a string' },
      { path: '/i', keyword: 'type', message: 'must be an integer' },
      { path: '/n', keyword: 'type', message: 'must be a number' },
      { path: '/b', keyword: 'type', message: 'must be a boolean' },
      { path: '/uri', keyword: 'format', message: 'must be a valid uri' },
      { path: '/when', keyword: 'format', message: 'must be a valid date-time' },
      { path: '/ref/x', keyword: 'required', message: 'is required' },
      { path: '/ref/y', keyword: 'type', message: 'must be a number' },
      { path: '/os', keyword: 'type', message: 'must be a string' },
      { path: '/oi', keyword: 'type', message: 'must be an integer or null' },
      { path: '/oref', keyword: 'type', message: 'must be an object' },
    ]);
    expect(checks.isProps({ ...valid, when: 5 })).toBe(false);
  });

  it('merges functions that differ only in calling equivalent functions', async () => {
    const point = { type: 'object', required: ['x'], properties: { x: { type: 'number' }, label: { type: 'string', minLength: 2 } } };
    const holder = (ref: string): JsonSchema => ({
      type: 'object',
      properties: { at: { type: 'array', items: { $ref: ref } }, name: { type: 'string', maxLength: 3 } },
    });
    const schemas: NamedSchema[] = [
      { name: 'PointA', schema: point as JsonSchema, origin: 'component' },
      { name: 'PointB', schema: { ...point, description: 'the same shape' } as JsonSchema, origin: 'component' },
      { name: 'HolderA', schema: holder('#/$defs/PointA'), origin: 'component' },
      { name: 'HolderB', schema: holder('#/$defs/PointB'), origin: 'component' },
    ];
    const result = emitValidators(schemas, { typeName: (name) => name });
    // HolderB's schema differs (its $ref), but the functions it would get are HolderA's.
    expect(result.code).not.toMatch(/^function checkHolderB/m);
    expect(result.code).toMatch(/export function isHolderB\(value: unknown\): value is HolderB \{\n {2}return checkHolderA\(value\);/);
    const checks = await load('merged', result);
    const bad = { at: [{ x: 1 }, { label: 'x' }], name: 'long' };
    expect(errorsOf(checks.validateHolderB(bad))).toEqual(errorsOf(checks.validateHolderA(bad)));
    expect(errorsOf(checks.validateHolderB(bad)).map((error) => error.path)).toEqual(['/at/1/x', '/at/1/label', '/name']);
  });

  it('checks binary strings as Blobs, as the type emitter types them (core/schema/binary.ts)', async () => {
    const checks = await load(
      'binary',
      emitSchemaValidators([
        { name: 'Binary', schema: { type: 'string', format: 'binary', maxLength: 1 } },
        { name: 'Untyped', schema: { format: 'binary' } },
        { name: 'NullableImage', schema: { type: ['string', 'null'], contentMediaType: 'image/png' } },
        { name: 'Base64', schema: { type: 'string', contentMediaType: 'image/png', contentEncoding: 'base64' } },
        { name: 'Json', schema: { type: 'string', contentMediaType: 'application/json' } },
      ]),
    );
    const blob = new Blob(['more than one character']);
    // String keywords do not apply to a Blob.
    expect([checks.isBinary(blob), checks.isBinary('a'), checks.isUntyped(blob), checks.isUntyped('a')]).toEqual([
      true,
      false,
      true,
      false,
    ]);
    expect(errorsOf(checks.validateBinary('a'))).toEqual([{ path: '', keyword: 'type', message: 'must be a file (Blob)' }]);
    expect([checks.isNullableImage(blob), checks.isNullableImage(null), checks.isNullableImage('png')]).toEqual([true, true, false]);
    expect(errorsOf(checks.validateNullableImage(1))).toEqual([{ path: '', keyword: 'type', message: 'must be a file (Blob) or null' }]);
    // Encoded content and textual media types travel as strings.
    expect([checks.isBase64('aGk='), checks.isBase64(blob), checks.isJson('{}'), checks.isJson(blob)]).toEqual([true, false, true, false]);
  });

  it('reports a wrong-typed value once, as a type error, whatever enum or const say', async () => {
    const checks = await load(
      'enum-type',
      emitSchemaValidators([
        { name: 'Mixed', schema: { type: ['string', 'null'], enum: ['a', null, 1] } },
        { name: 'Const', schema: { type: 'integer', const: 2 } },
      ]),
    );
    expect(errorsOf(checks.validateMixed(true))).toEqual([{ path: '', keyword: 'type', message: 'must be a string or null' }]);
    expect(errorsOf(checks.validateMixed('b'))).toEqual([{ path: '', keyword: 'enum', message: 'must be one of "a", null, 1' }]);
    expect(checks.isMixed(null)).toBe(true);
    expect(errorsOf(checks.validateConst('2'))).toEqual([{ path: '', keyword: 'type', message: 'must be an integer' }]);
    expect(errorsOf(checks.validateConst(3))).toEqual([{ path: '', keyword: 'const', message: 'must be equal to 2' }]);
  });

  it('treats format as an annotation when asked', async () => {
    const checks = await load('formats', emitSchemaValidators([{ name: 'Email', schema: { format: 'email' } }], { formats: 'ignore' }));
    expect(checks.isEmail('not an email')).toBe(true);
  });
});

describe('generated module type-checks', () => {
  for (const [compiler, path] of Object.entries(COMPILERS)) {
    it(`under strict ${compiler}`, () => {
      const result = typecheck(dir, path, 'node');
      expect(result.output).toBe('');
      expect(result.ok).toBe(true);
    });
  }
});
