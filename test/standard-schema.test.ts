/**
 * Every generated validator is also a Standard Schema v1 (`<X>Schema`, runtime/validation.ts
 * `standardSchema`): its type against `@standard-schema/spec`'s own `StandardSchemaV1` (tsc, in
 * both forms the `validators` option writes), its behaviour through a real consumer (Hono's
 * `sValidator` on a server listening on 127.0.0.1), and the mapping of our JSON-pointer errors to
 * issues.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { serve, type ServerType } from '@hono/node-server';
import * as esbuild from 'esbuild';
import { sValidator } from '@hono/standard-validator';
import type { StandardSchemaV1 } from '@standard-schema/spec';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from '../generators/core/pipeline/generate.js';
import { standardIssues, type ValidationError } from '../runtime/validation.js';
import { ROOT } from './support/cli.js';
import { COMPILERS, typecheck } from './support/typecheck.js';

const error = (path: string, message = 'must be a string'): ValidationError => ({ path, keyword: 'type', message });

describe('standardIssues: our errors as Standard Schema issues', () => {
  it('the root has no path, and its message says "value"', () => {
    expect(standardIssues(5, [error('', 'must be an object')])).toEqual([{ message: 'value must be an object' }]);
  });

  it('pointer tokens are unescaped (~1 → /, ~0 → ~), in that order', () => {
    const value = { metadata: { 'a/b~c': 1, '~01': 2 } };
    expect(standardIssues(value, [error('/metadata/a~1b~0c'), error('/metadata/~001')])).toEqual([
      { message: 'metadata["a/b~c"] must be a string', path: ['metadata', 'a/b~c'] },
      { message: 'metadata["~01"] must be a string', path: ['metadata', '~01'] },
    ]);
  });

  it("an array's indices are numbers; an object's key of digits stays a string", () => {
    const value = { labels: [{ name: 'a' }, { name: 'B' }], metadata: { '0': 1 } };
    expect(standardIssues(value, [error('/labels/1/name', 'must match the pattern "^[a-z]+$"'), error('/metadata/0')])).toEqual([
      { message: 'labels[1].name must match the pattern "^[a-z]+$"', path: ['labels', 1, 'name'] },
      { message: 'metadata["0"] must be a string', path: ['metadata', '0'] },
    ]);
  });

  it('a missing property (required) is named under the object that lacks it, nested arrays included', () => {
    const value = { subtasks: [{ title: 't' }, { subtasks: [{}] }] };
    expect(standardIssues(value, [error('/subtasks/1/subtasks/0/status', 'is required')])).toEqual([
      { message: 'subtasks[1].subtasks[0].status is required', path: ['subtasks', 1, 'subtasks', 0, 'status'] },
    ]);
  });

  it('a top-level array: indices from the root; an empty key is a key', () => {
    expect(standardIssues([[1, 2]], [error('/0/1')])).toEqual([{ message: '[0][1] must be a string', path: [0, 1] }]);
    expect(standardIssues({ '': 1 }, [error('/')])).toEqual([{ message: '[""] must be a string', path: [''] }]);
  });
});

// Both forms of the validator modules: `js` (out/'s default, .js + .d.ts) and `ts`.
const DIR = join(ROOT, '.vitest-tmp', `standard-schema-${process.pid}`);
const APIS = [
  { name: 'rest', input: 'schemas/openapi/tasks.yaml', style: 'openapi' },
  { name: 'realtime', input: 'schemas/asyncapi/tasks.asyncapi.yaml', style: 'asyncapi' },
] as const;

beforeAll(async () => {
  for (const language of ['js', 'ts'] as const) {
    for (const api of APIS) {
      const [{ files }] = await generate([
        {
          name: api.name,
          inputs: [join(ROOT, api.input)],
          style: api.style,
          documents: [],
          output: join(DIR, language, api.name),
          emit: ['types', 'validators'],
          options: { validators: language },
          root: ROOT,
        },
      ]);
      for (const file of files) {
        const path = join(DIR, language, api.name, file.path);
        mkdirSync(dirname(path), { recursive: true });
        writeFileSync(path, file.content);
      }
    }
  }
}, 120_000);
afterAll(() => rmSync(DIR, { recursive: true, force: true }));

/** A user's file: our schemas where `@standard-schema/spec`'s types are asked for. */
const USAGE = `import type { StandardSchemaV1 } from "@standard-schema/spec";
import type { Task, TaskInput } from "./rest/types.js";
import { TaskInputSchema, TaskSchema, validateTask } from "./rest/validators.js";
import type { SayPayload } from "./realtime/types.js";
import { SayPayloadSchema } from "./realtime/validators.js";

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

export const task: StandardSchemaV1<unknown, Task> = TaskSchema;
export const input: StandardSchemaV1<TaskInput> = TaskInputSchema;
export const say: StandardSchemaV1<unknown, SayPayload> = SayPayloadSchema;
export const output: Equal<StandardSchemaV1.InferOutput<typeof TaskSchema>, Task> = true;
export const inputOutput: Equal<StandardSchemaV1.InferOutput<typeof TaskInputSchema>, TaskInput> = true;
export const sayOutput: Equal<StandardSchemaV1.InferOutput<typeof SayPayloadSchema>, SayPayload> = true;
// @ts-expect-error: a schema of tasks is not one of strings
export const wrong: StandardSchemaV1<unknown, string> = TaskSchema;
// @ts-expect-error: the validator itself is not a Standard Schema; its \`TaskSchema\` is
export const bare: StandardSchemaV1 = validateTask;

/** What a library that accepts any Standard Schema does with one. */
export async function parse<S extends StandardSchemaV1>(schema: S, value: unknown): Promise<StandardSchemaV1.InferOutput<S>> {
  const result = await schema["~standard"].validate(value);
  if (result.issues) throw new Error(result.issues.map((issue) => issue.message).join("; "));
  return result.value;
}
export const parsed: Promise<Task> = parse(TaskSchema, {});
`;

describe('the generated <X>Schema exports', () => {
  it.each(['js', 'ts'] as const)(
    'validators: %s — assignable to @standard-schema/spec StandardSchemaV1<unknown, Task>, InferOutput is Task (TypeScript 5.9)',
    (language) => {
      writeFileSync(join(DIR, language, 'usage.ts'), USAGE);
      const result = typecheck(join(DIR, language), COMPILERS['TypeScript 5.9'], 'browser');
      expect(result.output).toBe('');
      expect(result.ok).toBe(true);
    },
    120_000,
  );

  it('are pure constants: /* @__PURE__ */ standardSchema(validateX), never a property set on the validator', async () => {
    const { readFileSync } = await import('node:fs');
    for (const file of ['out/rest/validators.js', 'out/realtime/validators.js', 'out/rest/server-validators.js']) {
      const text = readFileSync(join(ROOT, file), 'utf8');
      const consts = [...text.matchAll(/^export const (\w+) = (.*);$/gm)];
      expect(consts.length).toBeGreaterThan(0);
      for (const [, , init] of consts) expect(init).toMatch(/^\/\* @__PURE__ \*\/ standardSchema\(validate\w+\)$/);
      expect(text).not.toMatch(/^\w+\[?["'.]?~standard/m);
    }
  });
});

describe('tree-shaking (esbuild, bundled and minified for browsers)', () => {
  const bundle = async (source: string) => {
    const result = await esbuild.build({
      stdin: { contents: source, resolveDir: join(ROOT, 'out', 'rest'), loader: 'ts' },
      bundle: true,
      minify: true,
      format: 'esm',
      platform: 'browser',
      write: false,
      logLevel: 'silent',
    });
    return result.outputFiles[0]!.text;
  };

  it('an app that imports validateTask alone bundles no Standard Schema; one that imports TaskSchema does', async () => {
    const plain = await bundle('import { validateTask } from "./validators.js"; console.log(validateTask({}));');
    expect(plain).not.toContain('~standard');
    expect(plain).not.toContain('codegen');
    const standard = await bundle('import { TaskSchema } from "./validators.js"; console.log(TaskSchema["~standard"].validate({}));');
    expect(standard).toContain('~standard');
    expect(standard).toContain('"codegen"');
    // The other schemas' constants are dropped, and with them their validators (Problem's status
    // range, which no Task reaches).
    expect(standard).not.toContain('must be >= 100');
    expect(await bundle('import { ProblemSchema } from "./validators.js"; console.log(ProblemSchema);')).toContain('must be >= 100');
  });
});

describe('through a real consumer: Hono with @hono/standard-validator, served on 127.0.0.1', () => {
  for (const language of ['js', 'ts'] as const) {
    describe(`validators: ${language}`, () => {
      let server: ServerType;
      let base: string;
      beforeAll(async () => {
        const rest = (await import(join(DIR, language, 'rest', `validators.${language}`))) as typeof import('../out/rest/validators.js');
        const realtime = (await import(
          join(DIR, language, 'realtime', `validators.${language}`)
        )) as typeof import('../out/realtime/validators.js');
        const app = new Hono()
          .post('/tasks', sValidator('json', rest.TaskInputSchema), (c) => {
            const task = c.req.valid('json');
            return c.json({ title: task.title, labels: task.labels?.length ?? 0 }, 201);
          })
          .post('/say', sValidator('json', realtime.SayPayloadSchema), (c) => c.json({ said: c.req.valid('json').text }));
        base = await new Promise<string>((resolve) => {
          server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, (info: AddressInfo) =>
            resolve(`http://127.0.0.1:${info.port}`),
          );
        });
      });
      afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

      const post = async (path: string, body: unknown) => {
        const response = await fetch(`${base}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        return { status: response.status, body: (await response.json()) as { error?: StandardSchemaV1.Issue[] } & Record<string, unknown> };
      };

      it('a valid task reaches the handler, typed', async () => {
        const answer = await post('/tasks', { title: 'Write', status: 'todo', labels: [{ name: 'docs' }] });
        expect(answer).toEqual({ status: 201, body: { title: 'Write', labels: 1 } });
      });

      it('an invalid task is 400 with our issues: paths as segments (indices as numbers, keys unescaped), messages naming the field', async () => {
        const answer = await post('/tasks', {
          title: '',
          labels: [{ name: 'ok' }, { name: 'Not OK' }],
          metadata: { 'a/b~c': 5 },
          subtasks: [{ title: 't', status: 'todo' }, { title: 'u' }],
        });
        expect(answer.status).toBe(400);
        expect(answer.body['success']).toBe(false);
        expect(answer.body.error).toEqual([
          { message: 'title must have at least 1 character', path: ['title'] },
          { message: 'status is required', path: ['status'] },
          { message: 'labels[1].name must match the pattern "^[a-z][a-z0-9-]*$"', path: ['labels', 1, 'name'] },
          { message: 'metadata["a/b~c"] must be a string', path: ['metadata', 'a/b~c'] },
          { message: 'subtasks[1].status is required', path: ['subtasks', 1, 'status'] },
        ]);
      });

      it('a body that is not an object: one issue at the root, without a path', async () => {
        const answer = await post('/tasks', [1, 2]);
        expect(answer.status).toBe(400);
        expect(answer.body.error).toEqual([{ message: 'value must be an object' }]);
      });

      it('AsyncAPI: a valid "say" payload passes, an invalid one is 400 with its issues', async () => {
        const room = '0b6f4c1e-3f7a-4d2b-9c55-7a1e2d3c4b5a';
        expect(await post('/say', { type: 'say', id: 'c1', room, text: 'hello' })).toEqual({ status: 200, body: { said: 'hello' } });
        const answer = await post('/say', { type: 'shout', id: '', room: 'lobby', text: 'hello' });
        expect(answer.status).toBe(400);
        expect(answer.body.error?.map((issue) => issue.path)).toEqual([['type'], ['id'], ['room']]);
        expect(answer.body.error?.[0]?.message).toMatch(/^type must be/);
        expect(answer.body.error?.[2]?.message).toMatch(/^room must be/);
      });
    });
  }
});
