/**
 * The shared TypeScript type emitter: exact output per feature, then type-checks of emitted
 * declarations (hostile input, the example Tasks API, GitHub's REST description) under
 * TypeScript 5.9 and 7, and a runtime round-trip of hostile enum values.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { createTypeEmitter, type TypeEmitterOptions } from '../generators/core/emit/types/emit.js';
import type { JsonSchema, NamedSchema } from '../generators/core/schema/json-schema.js';
import { ROOT } from './support/cli.js';
import { tempDir } from './support/tmp.js';
import { COMPILERS, typecheck, type Environment } from './support/typecheck.js';

const ref = (name: string): JsonSchema => ({ $ref: `#/$defs/${name}` });

function named(definitions: Record<string, JsonSchema>): NamedSchema[] {
  return Object.entries(definitions).map(([name, schema]) => ({ name, schema, origin: 'component' }));
}

/** Every output `emit` produced, type-checked together by the last test. */
const emitted: string[] = [];

function emit(definitions: Record<string, JsonSchema>, options?: TypeEmitterOptions): string {
  const output = createTypeEmitter(named(definitions), options).declarations();
  emitted.push(output);
  return output;
}

/** Writes `files` to a fresh folder and type-checks them strictly with each compiler. */
function expectCompiles(files: Record<string, string>, environments: Environment[] = ['browser']): void {
  const folder = tempDir('codegen-emit-types-');
  for (const [path, content] of Object.entries(files)) writeFileSync(join(folder, path), content);
  for (const [name, compiler] of Object.entries(COMPILERS)) {
    for (const environment of environments) {
      const result = typecheck(folder, compiler, environment);
      expect(result.output, `${name}, ${environment}`).toBe('');
      expect(result.ok, `${name}, ${environment}`).toBe(true);
    }
  }
}

describe('enums', () => {
  it('names an enum as a union of literals plus a same-named const object', () => {
    expect(
      emit({ TaskStatus: { type: 'string', description: 'Where a task is in its life.', enum: ['todo', 'in_progress', 'done'] } }),
    ).toMatchInlineSnapshot(`
      "/** Where a task is in its life. */
      export type TaskStatus = "todo" | "in_progress" | "done";

      export const TaskStatus = {
        todo: "todo",
        in_progress: "in_progress",
        done: "done",
      } as const;
      "
    `);
  });

  it('quotes keys that are not identifiers, writes numbers, booleans and null as literals, keeps keys unique', () => {
    expect(
      emit({ Mixed: { enum: ['-name', 'a b', '__proto__', 'constructor', '', '1', 1, 2.5, -3, true, null, 'null_', 'todo', 'todo'] } }),
    ).toMatchInlineSnapshot(`
      "export type Mixed =
        | "-name"
        | "a b"
        | "__proto__"
        | "constructor"
        | ""
        | "1"
        | 1
        | 2.5
        | -3
        | true
        | "null_"
        | "todo"
        | null;

      export const Mixed = {
        "-name": "-name",
        "a b": "a b",
        ["__proto__"]: "__proto__",
        constructor: "constructor",
        "": "",
        "1": "1",
        "1_2": 1,
        "2.5": 2.5,
        "-3": -3,
        true: true,
        null: null,
        null_: "null_",
        todo: "todo",
      } as const;
      "
    `);
  });

  it('writes inline enums as unions, and no const object when asked not to', () => {
    expect(
      emit(
        { Sort: { type: 'object', properties: { order: { enum: ['asc', 'desc'] } } }, Level: { type: 'integer', enum: [1, 2, 3] } },
        { enumObjects: false },
      ),
    ).toMatchInlineSnapshot(`
      "export type Level = 1 | 2 | 3;

      export interface Sort {
        order?: "asc" | "desc";
      }
      "
    `);
  });

  it('adds null to a nullable enum', () => {
    expect(emit({ Color: { type: ['string', 'null'], enum: ['red', 'green'] } })).toMatchInlineSnapshot(`
      "export type Color = "red" | "green" | null;

      export const Color = {
        red: "red",
        green: "green",
      } as const;
      "
    `);
  });
});

describe('primitive types, null and const', () => {
  it('maps JSON types and type arrays, null included', () => {
    expect(
      emit({
        Scalars: {
          type: 'object',
          required: ['text', 'count'],
          properties: {
            text: { type: 'string' },
            count: { type: 'integer' },
            ratio: { type: 'number' },
            flag: { type: 'boolean' },
            nothing: { type: 'null' },
            maybe: { type: ['string', 'null'] },
            either: { type: ['string', 'integer'] },
            anyValue: {},
            never: false,
            always: true,
            kind: { const: 'fixed' },
            version: { const: 2 },
            nullableRef: { anyOf: [ref('Other'), { type: 'null' }] },
            untyped: { minLength: 1 },
            not: { not: { type: 'string' } },
            conditional: { if: { type: 'string' }, then: { minLength: 1 } },
          },
        },
        Other: { type: 'string' },
      }),
    ).toMatchInlineSnapshot(`
      "export type Other = string;

      export interface Scalars {
        text: string;
        count: number;
        ratio?: number;
        flag?: boolean;
        nothing?: null;
        maybe?: string | null;
        either?: string | number;
        anyValue?: unknown;
        never?: never;
        always?: unknown;
        kind?: "fixed";
        version?: 2;
        nullableRef?: Other | null;
        /** @minLength 1 */
        untyped?: unknown;
        not?: unknown;
        conditional?: unknown;
      }
      "
    `);
  });

  it('writes any JSON value as a const literal', () => {
    expect(
      emit({ Fixed: { const: { a: [1, 'x', null], 'b-c': true } }, Nothing: { type: 'null' }, Anything: true, Impossible: false }),
    ).toMatchInlineSnapshot(`
      "export type Anything = unknown;

      export type Fixed = { a: [1, "x", null], "b-c": true };

      export type Impossible = never;

      export type Nothing = null;
      "
    `);
  });
});

describe('arrays and tuples', () => {
  it('writes item types, parenthesised when needed, and tuples from prefixItems', () => {
    expect(
      emit({
        Lists: {
          type: 'object',
          properties: {
            names: { type: 'array', items: { type: 'string' } },
            mixed: { type: 'array', items: { type: ['string', 'null'] } },
            grid: { type: 'array', items: { type: 'array', items: { type: 'number' } } },
            anything: { type: 'array' },
            point: { type: 'array', prefixItems: [{ type: 'number' }, { type: 'number' }], items: false, minItems: 2 },
            head: { type: 'array', prefixItems: [{ type: 'string' }], items: { type: 'integer' }, minItems: 1 },
            optional: { type: 'array', prefixItems: [{ type: 'string' }, { type: ['number', 'null'] }], maxItems: 2 },
            rows: { type: 'array', items: { type: 'object', required: ['id'], properties: { id: { type: 'string' } } } },
            events: {
              type: 'array',
              items: { enum: ['branch_protection_rule', 'check_run', 'check_suite', 'code_scanning_alert', 'commit_comment'] },
            },
            event: { enum: ['branch_protection_rule', 'check_run', 'check_suite', 'code_scanning_alert', 'commit_comment'] },
          },
        },
      }),
    ).toMatchInlineSnapshot(`
      "export interface Lists {
        names?: string[];
        mixed?: (string | null)[];
        grid?: number[][];
        anything?: unknown[];
        /** @minItems 2 */
        point?: [number, number];
        /** @minItems 1 */
        head?: [string, ...number[]];
        /** @maxItems 2 */
        optional?: [string?, (number | null)?];
        rows?: {
          id: string;
        }[];
        events?: (
          | "branch_protection_rule"
          | "check_run"
          | "check_suite"
          | "code_scanning_alert"
          | "commit_comment"
        )[];
        event?:
          | "branch_protection_rule"
          | "check_run"
          | "check_suite"
          | "code_scanning_alert"
          | "commit_comment";
      }
      "
    `);
  });
});

describe('objects', () => {
  it('writes an interface with optional properties, quoted keys and JSDoc', () => {
    expect(
      emit({
        Label: {
          type: 'object',
          title: 'Label',
          description: 'A tag on a task.\n\nShown as a coloured chip.',
          required: ['name', 'content-type'],
          additionalProperties: false,
          properties: {
            name: { type: 'string', pattern: '^[a-z][a-z0-9-]*$', examples: ['bug'] },
            color: { type: 'string', pattern: '^#[0-9a-f]{6}$', default: '#ffffff', deprecated: true },
            'content-type': { type: 'string', description: 'Quoted, since it is not an identifier.' },
            when: { type: 'string', format: 'date-time', description: 'When it was made.' },
            size: { type: 'integer', minimum: 0, maximum: 10, exclusiveMaximum: 11, multipleOf: 1 },
          },
        },
      }),
    ).toMatchInlineSnapshot(`
      "/**
       * Label
       *
       * A tag on a task.
       *
       * Shown as a coloured chip.
       */
      export interface Label {
        /**
         * @pattern ^[a-z][a-z0-9-]*$
         * @example "bug"
         */
        name: string;
        /**
         * @deprecated
         * @pattern ^#[0-9a-f]{6}$
         * @default "#ffffff"
         */
        color?: string;
        /** Quoted, since it is not an identifier. */
        "content-type": string;
        /**
         * When it was made.
         * @format date-time
         */
        when?: string;
        /**
         * @minimum 0
         * @maximum 10
         * @exclusiveMaximum 11
         * @multipleOf 1
         */
        size?: number;
      }
      "
    `);
  });

  it('nests inline objects with their own indentation', () => {
    const emitter = createTypeEmitter([]);
    const schema: JsonSchema = {
      type: 'object',
      required: ['outer'],
      properties: {
        outer: {
          type: 'object',
          properties: { inner: { type: 'object', properties: { leaf: { type: 'string', description: 'A leaf.' } } } },
        },
      },
    };
    expect(emitter.typeOf(schema, 'read')).toMatchInlineSnapshot(`
      "{
        outer: {
          inner?: {
            /** A leaf. */
            leaf?: string;
          };
        };
      }"
    `);
    expect(emitter.typeOf(schema, 'read', '    ')).toMatchInlineSnapshot(`
      "{
            outer: {
              inner?: {
                /** A leaf. */
                leaf?: string;
              };
            };
          }"
    `);
  });

  it('handles additionalProperties: a schema, true, false, absent, with and without declared properties', () => {
    expect(
      emit({
        StringMap: { type: 'object', additionalProperties: { type: 'string' } },
        TaskMap: { type: 'object', additionalProperties: ref('Task') },
        Open: { type: 'object', additionalProperties: true },
        Closed: { type: 'object', additionalProperties: false },
        Bare: { type: 'object' },
        Declared: { type: 'object', properties: { id: { type: 'string' } } },
        DeclaredOpen: { type: 'object', required: ['id'], properties: { id: { type: 'string' } }, additionalProperties: true },
        Counters: {
          type: 'object',
          required: ['total'],
          properties: { total: { type: 'integer' }, label: { type: 'string' } },
          additionalProperties: { type: 'integer' },
        },
        Patterned: { type: 'object', patternProperties: { '^x-': { type: 'string' } } },
        Task: { type: 'object', properties: { title: { type: 'string' } } },
      }),
    ).toMatchInlineSnapshot(`
      "export type Bare = Record<string, unknown>;

      export type Closed = Record<string, never>;

      export interface Counters {
        total: number;
        label?: string;
        [key: string]: number | string | undefined;
      }

      export interface Declared {
        id?: string;
      }

      export interface DeclaredOpen {
        id: string;
        [key: string]: unknown;
      }

      export type Open = Record<string, unknown>;

      export type Patterned = Record<string, string>;

      export type StringMap = Record<string, string>;

      export interface Task {
        title?: string;
      }

      export type TaskMap = { [key: string]: Task };
      "
    `);
  });
});

describe('composition', () => {
  it('writes a discriminated union, pinning members whose property is a plain string', () => {
    expect(
      emit({
        Assignee: {
          description: 'Who works on the task; a person or a team.',
          oneOf: [ref('PersonAssignee'), ref('TeamAssignee'), ref('BotAssignee'), ref('GroupAssignee')],
          discriminator: {
            propertyName: 'kind',
            mapping: {
              person: '#/$defs/PersonAssignee',
              team: '#/$defs/TeamAssignee',
              group: '#/$defs/GroupAssignee',
              crowd: '#/$defs/GroupAssignee',
            },
          },
        },
        PersonAssignee: {
          type: 'object',
          required: ['kind', 'email'],
          properties: { kind: { const: 'person' }, email: { type: 'string', format: 'email' } },
        },
        TeamAssignee: { type: 'object', required: ['kind', 'team'], properties: { kind: { type: 'string' }, team: { type: 'string' } } },
        BotAssignee: { type: 'object', required: ['kind'], properties: { kind: { type: 'string' } } },
        GroupAssignee: { type: 'object', required: ['kind'], properties: { kind: { type: 'string', enum: ['group', 'crowd'] } } },
      }),
    ).toMatchInlineSnapshot(`
      "/** Who works on the task; a person or a team. */
      export type Assignee =
        | PersonAssignee
        | (TeamAssignee & { kind: "team" })
        | (BotAssignee & { kind: "BotAssignee" })
        | GroupAssignee;

      export interface BotAssignee {
        kind: string;
      }

      export interface GroupAssignee {
        kind: "group" | "crowd";
      }

      export interface PersonAssignee {
        kind: "person";
        /** @format email */
        email: string;
      }

      export interface TeamAssignee {
        kind: string;
        team: string;
      }
      "
    `);
  });

  it('writes oneOf/anyOf without a discriminator as a union, and long unions one member per line', () => {
    expect(
      emit({
        Id: { oneOf: [{ type: 'string' }, { type: 'integer' }] },
        Event: {
          anyOf: [ref('CreatedEventWithALongName'), ref('UpdatedEventWithALongName'), ref('DeletedEventWithALongName'), { type: 'null' }],
        },
        CreatedEventWithALongName: { type: 'object', properties: { at: { type: 'string' } } },
        UpdatedEventWithALongName: { type: 'object', properties: { at: { type: 'string' } } },
        DeletedEventWithALongName: { type: 'object', properties: { at: { type: 'string' } } },
      }),
    ).toMatchInlineSnapshot(`
      "export interface CreatedEventWithALongName {
        at?: string;
      }

      export interface DeletedEventWithALongName {
        at?: string;
      }

      export type Event =
        | CreatedEventWithALongName
        | UpdatedEventWithALongName
        | DeletedEventWithALongName
        | null;

      export type Id = string | number;

      export interface UpdatedEventWithALongName {
        at?: string;
      }
      "
    `);
  });

  it('writes allOf as an interface that extends, a merged interface, or an intersection', () => {
    expect(
      emit({
        Problem: { type: 'object', required: ['title'], properties: { title: { type: 'string' }, status: { type: 'integer' } } },
        FieldError: { type: 'object', required: ['pointer'], properties: { pointer: { type: 'string' } } },
        ValidationProblem: {
          description: 'A 422 problem.',
          allOf: [
            ref('Problem'),
            { type: 'object', required: ['errors'], properties: { errors: { type: 'array', items: ref('FieldError') } } },
          ],
        },
        Merged: {
          allOf: [
            { type: 'object', required: ['a'], properties: { a: { type: 'string' } } },
            { type: 'object', properties: { b: { type: 'number' } } },
          ],
        },
        Alias: { description: 'Same as a problem.', allOf: [ref('Problem')] },
        Overlapping: { allOf: [ref('Problem'), { type: 'object', properties: { status: { const: 404 } } }] },
        WithUnion: {
          allOf: [ref('Problem'), { oneOf: [ref('FieldError'), { type: 'object', properties: { other: { type: 'boolean' } } }] }],
        },
        OwnAndAllOf: { type: 'object', properties: { extra: { type: 'string' } }, allOf: [ref('FieldError')] },
        Required: { allOf: [ref('Problem'), { required: ['status'] }] },
        Described: { allOf: [ref('Problem'), { description: 'Only words.' }] },
        Diamond: { allOf: [ref('ValidationProblem'), ref('Overlapping'), { required: ['title', 'errors'] }] },
      }),
    ).toMatchInlineSnapshot(`
      "/** Same as a problem. */
      export type Alias = Problem;

      export type Described = Problem;

      export type Diamond = ValidationProblem & Overlapping & {
        title: string;
        errors: FieldError[];
      };

      export interface FieldError {
        pointer: string;
      }

      export interface Merged {
        a: string;
        b?: number;
      }

      export type Overlapping = Problem & {
        status?: 404;
      };

      export interface OwnAndAllOf extends FieldError {
        extra?: string;
      }

      export interface Problem {
        title: string;
        status?: number;
      }

      export interface Required extends Problem {
        status: number;
      }

      /** A 422 problem. */
      export interface ValidationProblem extends Problem {
        errors: FieldError[];
      }

      export type WithUnion = Problem & (FieldError | {
        other?: boolean;
      });
      "
    `);
  });

  it('narrows children of a discriminator parent, and breaks the Pet = Cat | Dog, Cat = Pet & ... cycle', () => {
    expect(
      emit({
        Pet: {
          type: 'object',
          required: ['petType', 'name'],
          properties: { petType: { type: 'string' }, name: { type: 'string' } },
          oneOf: [ref('Cat'), ref('Dog')],
          discriminator: { propertyName: 'petType', mapping: { cat: '#/$defs/Cat' } },
        },
        Cat: { allOf: [ref('Pet'), { type: 'object', properties: { purrs: { type: 'boolean' } } }] },
        Dog: { allOf: [ref('Pet'), { type: 'object', properties: { barks: { type: 'boolean' } } }] },
        Vehicle: {
          type: 'object',
          required: ['type'],
          properties: { type: { type: 'string' }, wheels: { type: 'integer' } },
          discriminator: { propertyName: 'type' },
        },
        Car: { allOf: [ref('Vehicle'), { type: 'object', properties: { doors: { type: 'integer' } } }] },
      }),
    ).toMatchInlineSnapshot(`
      "export interface Car extends Vehicle {
        doors?: number;
        type: "Car";
      }

      export interface Cat {
        petType: "cat";
        name: string;
        purrs?: boolean;
      }

      export interface Dog {
        petType: "Dog";
        name: string;
        barks?: boolean;
      }

      export type Pet = (Cat | Dog) & {
        petType: string;
        name: string;
      };

      export interface Vehicle {
        type: string;
        wheels?: number;
      }
      "
    `);
  });
});

describe('references and recursion', () => {
  it('refers to named types in the same direction and lets types refer to themselves', () => {
    expect(
      emit({
        Node: {
          type: 'object',
          required: ['children'],
          properties: { children: { type: 'array', items: ref('Node') }, parent: { anyOf: [ref('Node'), { type: 'null' }] } },
        },
        Json: {
          anyOf: [
            { type: ['string', 'number', 'boolean', 'null'] },
            { type: 'array', items: ref('Json') },
            { type: 'object', additionalProperties: ref('Json') },
          ],
        },
        Tree: { type: 'array', items: ref('Tree') },
        Ping: { type: 'object', properties: { pong: ref('Pong') } },
        Pong: { oneOf: [ref('Ping'), { type: 'string' }] },
      }),
    ).toMatchInlineSnapshot(`
      "export type Json = string | number | boolean | Json[] | { [key: string]: Json } | null;

      export interface Node {
        children: Node[];
        parent?: Node | null;
      }

      export interface Ping {
        pong?: Pong;
      }

      export type Pong = Ping | string;

      export type Tree = Tree[];
      "
    `);
  });

  it('turns a reference cycle TypeScript cannot express (alias to alias) into unknown', () => {
    const output = emit({
      A: { anyOf: [ref('B'), { type: 'string' }] },
      B: { allOf: [ref('A'), { type: 'object', properties: { x: { type: 'string' } } }] },
      Self: { oneOf: [ref('Self'), { type: 'integer' }] },
      X: { allOf: [ref('Y'), { type: 'object', properties: { a: { type: 'string' } } }] },
      Y: { allOf: [ref('X'), { type: 'object', properties: { b: { type: 'string' } } }] },
      Fine: { type: 'object', properties: { self: ref('Fine'), a: ref('A') } },
    });
    expect(output).toMatchInlineSnapshot(`
      "export type A = unknown;

      export type B = {
        x?: string;
      };

      export interface Fine {
        self?: Fine;
        a?: A;
      }

      export type Self = unknown;

      export type X = {
        a?: string;
      };

      export type Y = {
        b?: string;
      };
      "
    `);
    expectCompiles({ 'cycles.ts': output });
  });

  it('writes unknown for references that lead nowhere', () => {
    expect(createTypeEmitter([]).typeOf({ type: 'array', items: { $ref: '#/components/schemas/Elsewhere' } }, 'read')).toBe('unknown[]');
    expect(() => createTypeEmitter([]).typeName('Missing', 'read')).toThrow(/Missing/);
  });
});

describe('read and write shapes', () => {
  const schemas = {
    Task: {
      type: 'object',
      required: ['id', 'title', 'password'],
      properties: {
        id: { type: 'string', format: 'uuid', readOnly: true },
        title: { type: 'string' },
        password: { type: 'string', writeOnly: true },
        subtasks: { type: 'array', items: ref('Task') },
      },
    },
    TaskPage: { type: 'object', required: ['items'], properties: { items: { type: 'array', items: ref('Task') } } },
    Stamp: { type: 'object', properties: { at: { type: 'string', readOnly: true } } },
    Note: { allOf: [ref('Stamp'), { type: 'object', properties: { text: { type: 'string' } } }] },
  } satisfies Record<string, JsonSchema>;

  it('omits readOnly properties from the write shape and writeOnly ones from the read shape', () => {
    expect(emit(schemas)).toMatchInlineSnapshot(`
      "export interface Note extends Stamp {
        text?: string;
      }

      export interface NoteInput extends StampInput {
        text?: string;
      }

      export interface Stamp {
        at?: string;
      }

      export interface StampInput {}

      export interface Task {
        /** @format uuid */
        id: string;
        title: string;
        subtasks?: Task[];
      }

      export interface TaskInput {
        title: string;
        password: string;
        subtasks?: TaskInput[];
      }

      export interface TaskPage {
        items: Task[];
      }

      export interface TaskPageInput {
        items: TaskInput[];
      }
      "
    `);
  });

  it('names both shapes and uses them in inline types', () => {
    const emitter = createTypeEmitter(named(schemas));
    expect([emitter.typeName('Task', 'read'), emitter.typeName('Task', 'write'), emitter.typeName('Stamp', 'write')]).toEqual([
      'Task',
      'TaskInput',
      'StampInput',
    ]);
    expect(emitter.typeOf({ type: 'array', items: ref('Task') }, 'write')).toBe('TaskInput[]');
    expect(emitter.typeOf({ type: 'array', items: ref('Task') }, 'read')).toBe('Task[]');
    const { typeName, typeOf } = emitter; // usable detached, e.g. handed to the validator emitter
    expect(typeName('Note', 'write')).toBe('NoteInput');
    expect(typeOf(ref('Note'), 'write')).toBe('NoteInput');
  });
});

describe('binary data', () => {
  it('writes Blob for format: binary and raw non-text content, string for encoded or textual content', () => {
    const emitter = createTypeEmitter([]);
    const upload: JsonSchema = {
      type: 'object',
      required: ['file'],
      properties: {
        file: { type: 'string', contentMediaType: 'application/octet-stream', description: "The file's bytes." },
        legacy: { type: 'string', format: 'binary' },
        image: { type: 'string', contentMediaType: 'image/png' },
        base64: { type: 'string', contentEncoding: 'base64', contentMediaType: 'image/png' },
        json: { type: 'string', contentMediaType: 'application/json' },
        note: { type: 'string', contentMediaType: 'text/plain' },
        maybe: { type: ['string', 'null'], format: 'binary' },
      },
    };
    expect(emitter.typeOf(upload, 'write')).toMatchInlineSnapshot(`
      "{
        /**
         * The file's bytes.
         * @contentMediaType application/octet-stream
         */
        file: Blob;
        /** @format binary */
        legacy?: Blob;
        /** @contentMediaType image/png */
        image?: Blob;
        /**
         * @contentMediaType image/png
         * @contentEncoding base64
         */
        base64?: string;
        /** @contentMediaType application/json */
        json?: string;
        /** @contentMediaType text/plain */
        note?: string;
        /** @format binary */
        maybe?: Blob | null;
      }"
    `);
    expect(emitter.typeOf(upload, 'read')).toBe(emitter.typeOf(upload, 'write'));
    // Blob is a global both in browsers (DOM) and in Node (@types/node).
    expectCompiles(
      {
        'upload.ts': `export type Upload = ${emitter.typeOf(upload, 'write')};\nexport const upload: Upload = { file: new Blob(['x']) };\n`,
      },
      ['browser', 'node'],
    );
  });
});

describe('documentation', () => {
  it('escapes comment terminators and keeps the rest of the text', () => {
    expect(
      emit({
        Doc: {
          type: 'string',
          title: 'T */ x',
          description: 'ends */ here\r\nnext `code` ${x}',
          default: '*/',
          examples: ['a*/b'],
          pattern: '^a*/$',
          format: 'date',
        },
      }),
    ).toMatchInlineSnapshot(`
      "/**
       * T *\\/ x
       *
       * ends *\\/ here
       * next \`code\` \${x}
       * @format date
       * @pattern ^a*\\/$
       * @default "*\\/"
       * @example "a*\\/b"
       */
      export type Doc = string;
      "
    `);
  });

  it('leaves JSDoc out when asked', () => {
    expect(
      emit(
        { Doc: { type: 'object', description: 'Gone.', properties: { a: { type: 'string', description: 'Gone too.' } } } },
        { docs: false },
      ),
    ).toMatchInlineSnapshot(`
      "export interface Doc {
        a?: string;
      }
      "
    `);
  });
});

describe('output', () => {
  it('is sorted by name and byte-identical across runs', () => {
    const definitions = { Zeta: { type: 'string' }, Alpha: { type: 'integer' }, Mid: { enum: ['b', 'a'] } } satisfies Record<
      string,
      JsonSchema
    >;
    const first = emit(definitions);
    expect(first).toBe(emit(Object.fromEntries(Object.entries(definitions).reverse())));
    expect(first.indexOf('Alpha')).toBeLessThan(first.indexOf('Mid'));
    expect(first.indexOf('Mid')).toBeLessThan(first.indexOf('Zeta'));
    expect(emit({})).toBe('');
  });
});

// ---- type-checks ------------------------------------------------------------------------------

/** Strings that try to break out of every position the emitter writes text into. */
const HOSTILE_VALUES = [
  'plain',
  'with "double" and \'single\' quotes',
  'back\\slash\\',
  'line\u2028separator\u2029paragraph',
  'new\nline\r\ntab\t',
  '*/ close comment',
  '`${process.exit(1)}`',
  '__proto__',
  'constructor',
  'toString',
  '',
  '1',
];

const hostileSchemas: Record<string, JsonSchema> = {
  Hostile: {
    type: 'object',
    title: 'Title */ with `backticks` and ${template}',
    description: 'Ends the comment */ early; `${globalThis.pwned = true}`\u2028and a line separator',
    required: ['"quoted"', '__proto__', 'new\nline'],
    // Computed keys: a quoted `'__proto__': x` in an object literal would set the prototype instead.
    properties: {
      '"quoted"': { type: 'string', description: '*/ console.log("pwned") /*' },
      ['__proto__']: { type: 'string' },
      constructor: { type: 'integer' as const },
      'new\nline': { type: 'boolean' },
      'back\\slash': { type: 'string', default: '*/ ${x} `y`', examples: ['*/'] },
      '`${x}`': { type: 'string', pattern: '^*/$' },
      '\u2028': { type: 'string' },
      kind: { enum: HOSTILE_VALUES },
      nested: { type: 'object', additionalProperties: { const: '*/"\'`' } },
    },
  },
  HostileEnum: { description: 'Values */ that bite', enum: [...HOSTILE_VALUES, 1, true, null] },
  HostileUnion: {
    oneOf: [ref('Hostile'), ref('HostileOther')],
    discriminator: { propertyName: 'odd "key"\n', mapping: { '*/ "tag"\u2028': '#/$defs/Hostile', '`${y}`': '#/$defs/HostileOther' } },
  },
  HostileOther: { type: 'object', properties: { 'odd "key"\n': { type: 'string' } } },
};

describe('type-checks', () => {
  it('compiles every output shown above', () => {
    expect(emitted.length).toBeGreaterThan(10);
    expectCompiles(Object.fromEntries(emitted.map((output, index) => [`emitted${index}.ts`, `${output}export {};\n`])));
  });

  it('compiles declarations for hostile names, descriptions and enum values, and keeps the values exact at run time', async () => {
    const output = emit(hostileSchemas);
    expect(output).not.toContain('*/ console');
    expectCompiles({ 'hostile.ts': output });

    const js = ts.transpileModule(output, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
    const folder = tempDir('codegen-emit-types-js-');
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'hostile.mjs'), js);
    const module = (await import(pathToFileURL(join(folder, 'hostile.mjs')).href)) as { HostileEnum: Record<string, unknown> };
    // Same values (integer-like keys such as "1" come first in a JavaScript object, so order differs).
    const values = Object.values(module.HostileEnum);
    expect(values).toHaveLength(HOSTILE_VALUES.length + 3);
    expect(values).toEqual(expect.arrayContaining([...HOSTILE_VALUES, 1, true, null]));
    expect(Object.getPrototypeOf(module.HostileEnum)).toBe(Object.prototype);
    expect(Object.keys(module.HostileEnum)).toContain('__proto__');
    expect(module.HostileEnum['1_2']).toBe(1);
    expect((globalThis as { pwned?: unknown }).pwned).toBeUndefined();
  });

  it('compiles the Tasks API components, and the shapes are usable as intended', () => {
    const emitter = createTypeEmitter(named(TASKS));
    const usage = `import type { Assignee, Task, TaskInput, TaskPage, TaskPatch, Project, ProjectInput } from './types.js';
import { TaskStatus } from './types.js';

export const input: TaskInput = { title: 'Write tests', status: TaskStatus.todo, metadata: { source: 'ci' }, subtasks: [{ title: 'Sub', status: 'done' }] };
export const task: Task = { ...input, id: '1', status: 'in_progress', createdAt: 'now', subtasks: [], labels: [{ name: 'bug' }] };
export const page: TaskPage = { items: [task], nextCursor: null };
export const patch: TaskPatch = { assignee: null, dueDate: null };
export const project: ProjectInput = { name: 'P', description: null };
export const created: Project = { ...project, id: '1', createdAt: 'now' };
export function who(assignee: Assignee): string {
  switch (assignee.kind) {
    case 'person': return assignee.email;
    case 'team': return assignee.team;
  }
}
// @ts-expect-error readOnly properties are not part of the write shape
export const wrong: TaskInput = { title: 'x', id: '1' };
`;
    expectCompiles({ 'types.ts': emitter.declarations(), 'usage.ts': usage });
  });

  it("compiles the declarations for every schema of GitHub's REST description", async () => {
    const { loadOpenApi } = await import('../generators/openapi/load.js');
    const model = await loadOpenApi(join(ROOT, 'node_modules/@octokit/openapi/generated/api.github.com.json'));
    expect(model.schemas.length).toBeGreaterThan(900);
    const output = createTypeEmitter(model.schemas).declarations();
    // Never `any`: outside comments and string literals the word does not occur.
    const code = output.replace(/\/\*\*[\s\S]*?\*\//g, '').replace(/"(?:[^"\\\n]|\\.)*"/g, '""');
    expect(code).not.toMatch(/\bany\b/);
    expectCompiles({ 'github.ts': output });
  }, 120_000);
});

/** The components of schemas/openapi/tasks.yaml (and problem.yaml), as the loader lowers them. */
const TASKS: Record<string, JsonSchema> = {
  Project: {
    type: 'object',
    required: ['id', 'name', 'createdAt'],
    properties: {
      id: { type: 'string', format: 'uuid', readOnly: true },
      name: { type: 'string', minLength: 1, maxLength: 120 },
      description: { type: ['string', 'null'], maxLength: 2000 },
      createdAt: { type: 'string', format: 'date-time', readOnly: true },
    },
  },
  ProjectPage: {
    type: 'object',
    required: ['items', 'page', 'pageSize', 'total'],
    properties: {
      items: { type: 'array', items: ref('Project') },
      page: { type: 'integer', minimum: 1 },
      pageSize: { type: 'integer' },
      total: { type: 'integer', minimum: 0 },
    },
  },
  TaskStatus: { type: 'string', description: 'Where a task is in its life.', enum: ['todo', 'in_progress', 'done'] },
  Label: {
    type: 'object',
    required: ['name'],
    additionalProperties: false,
    properties: { name: { type: 'string', pattern: '^[a-z][a-z0-9-]*$' }, color: { type: 'string', pattern: '^#[0-9a-f]{6}$' } },
  },
  Assignee: {
    description: 'Who works on the task; a person or a team.',
    oneOf: [ref('PersonAssignee'), ref('TeamAssignee')],
    discriminator: { propertyName: 'kind', mapping: { person: '#/$defs/PersonAssignee', team: '#/$defs/TeamAssignee' } },
  },
  PersonAssignee: {
    type: 'object',
    required: ['kind', 'email'],
    properties: { kind: { const: 'person' }, email: { type: 'string', format: 'email' } },
  },
  TeamAssignee: { type: 'object', required: ['kind', 'team'], properties: { kind: { const: 'team' }, team: { type: 'string' } } },
  Task: {
    type: 'object',
    required: ['id', 'title', 'status', 'createdAt'],
    properties: {
      id: { type: 'string', format: 'uuid', readOnly: true },
      title: { type: 'string', minLength: 1, maxLength: 200 },
      status: ref('TaskStatus'),
      dueDate: { type: 'string', format: 'date' },
      estimateHours: { type: 'number', exclusiveMinimum: 0, multipleOf: 0.25 },
      assignee: ref('Assignee'),
      labels: { type: 'array', uniqueItems: true, maxItems: 10, items: ref('Label') },
      metadata: { type: 'object', description: 'Free-form string values set by integrations.', additionalProperties: { type: 'string' } },
      subtasks: { type: 'array', description: 'Tasks nested under this one (recursive).', items: ref('Task') },
      createdAt: { type: 'string', format: 'date-time', readOnly: true },
      updatedAt: { type: 'string', format: 'date-time', readOnly: true },
    },
  },
  TaskPatch: {
    type: 'object',
    description: 'A JSON merge patch of a task; `null` clears a field.',
    minProperties: 1,
    properties: {
      title: { type: 'string', minLength: 1, maxLength: 200 },
      status: ref('TaskStatus'),
      dueDate: { type: ['string', 'null'], format: 'date' },
      assignee: { oneOf: [ref('Assignee'), { type: 'null' }] },
    },
  },
  TaskPage: {
    type: 'object',
    required: ['items'],
    properties: {
      items: { type: 'array', items: ref('Task') },
      nextCursor: { type: ['string', 'null'], description: 'Cursor of the next page; absent or null on the last page.' },
    },
  },
  Attachment: {
    type: 'object',
    required: ['id', 'fileName', 'size'],
    properties: {
      id: { type: 'string', format: 'uuid' },
      fileName: { type: 'string' },
      size: { type: 'integer', minimum: 0 },
      caption: { type: 'string' },
    },
  },
  Problem: {
    type: 'object',
    description: 'An error, as RFC 9457 (formerly RFC 7807) Problem Details.',
    required: ['type', 'title', 'status'],
    properties: {
      type: {
        type: 'string',
        format: 'uri-reference',
        description: 'Identifies the kind of problem; `about:blank` when only the status says it.',
        examples: ['https://example.com/problems/not-found'],
      },
      title: { type: 'string', description: 'Short, human-readable summary of the kind of problem.' },
      status: { type: 'integer', minimum: 100, maximum: 599, description: 'The HTTP status code of this response.' },
      detail: { type: 'string', description: 'Explanation specific to this occurrence.' },
      instance: { type: 'string', description: 'Path of the resource the problem concerns.' },
      traceId: { type: 'string', description: 'Correlates this response with server logs; also sent as the `Trace-Id` header.' },
    },
  },
  ValidationProblem: {
    description: 'A 422 problem listing each input that failed validation.',
    allOf: [ref('Problem'), { type: 'object', required: ['errors'], properties: { errors: { type: 'array', items: ref('FieldError') } } }],
  },
  FieldError: {
    type: 'object',
    required: ['pointer', 'message'],
    properties: {
      pointer: { type: 'string', description: 'JSON pointer to the failing value in the request (e.g. `/title`).' },
      keyword: { type: 'string', description: 'The schema rule that failed (e.g. `maxLength`).' },
      message: { type: 'string' },
    },
  },
};
