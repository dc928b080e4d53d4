/**
 * The generated validators in out/ as users get them (issue 12, items 1 and 6): each type guard
 * agrees with the type it narrows to, through the validator module and through the generated
 * REST server and client.
 */
import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type TasksApiHandlers } from '../out/rest/server.js';
import type { UploadAttachmentBody } from '../out/rest/types.js';
import { isUploadAttachmentBody, validateUploadAttachmentBody } from '../out/rest/validators.js';
import { HELPER_NAMES } from '../generators/core/emit/validators/helpers.js';
import { generate } from '../generators/core/pipeline/generate.js';
import { ROOT } from './support/cli.js';

const TASK_ID = '2eb8aa08-aa98-11ea-b4aa-73b441d16380';

describe('binary fields are Blobs in the type and in its guard (item 1)', () => {
  it('the guard of `file: Blob` accepts a Blob and a File, and rejects a string', () => {
    const body: UploadAttachmentBody = { file: new Blob(['abc']) };
    expect(isUploadAttachmentBody(body)).toBe(true);
    expect(isUploadAttachmentBody({ file: new File(['abc'], 'a.txt'), caption: 'notes' })).toBe(true);
    expect(isUploadAttachmentBody({ file: 'abc' })).toBe(false);
    expect(validateUploadAttachmentBody({ file: 'abc' })).toEqual({
      ok: false,
      errors: [{ path: '/file', keyword: 'type', message: 'must be a file (Blob)' }],
    });
    expect(validateUploadAttachmentBody({})).toEqual({
      ok: false,
      errors: [{ path: '/file', keyword: 'required', message: 'is required' }],
    });
  });

  describe('through the generated server and client', () => {
    let server: Server;
    let url: string;
    const received: unknown[] = [];

    beforeAll(async () => {
      // Only uploadAttachment is called; the other handlers are never reached.
      const handlers = new Proxy({} as TasksApiHandlers, {
        get: (_target, name) =>
          name === 'uploadAttachment'
            ? (request: { body: UploadAttachmentBody }) => {
                received.push(request.body);
                const { file, caption } = request.body;
                const location = `/v1/tasks/${TASK_ID}/attachments/${TASK_ID}`;
                return {
                  status: 201,
                  headers: { location },
                  body: {
                    id: TASK_ID,
                    fileName: file instanceof File ? file.name : 'blob',
                    size: file.size,
                    ...(caption === undefined ? {} : { caption }),
                  },
                };
              }
            : () => {
                throw new Error(`unexpected call of ${String(name)}`);
              },
      });
      server = createHttpServer(createServer(handlers, { auth: { verify: async () => ({ id: 'u1' }) } }));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });

    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it('a multipart upload reaches the handler with a File its guard accepts', async () => {
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(10)]), 'zeros.bin');
      form.append('caption', 'zeros');
      const response = await fetch(`${url}/v1/tasks/${TASK_ID}/attachments`, {
        method: 'POST',
        body: form,
        headers: { authorization: 'Bearer t' },
      });
      expect(response.status).toBe(201);
      expect(await response.json()).toMatchObject({ fileName: 'zeros.bin', size: 10, caption: 'zeros' });
      const body = received.at(-1);
      expect(body).toMatchObject({ caption: 'zeros' });
      expect((body as { file: unknown }).file).toBeInstanceOf(Blob);
      expect(isUploadAttachmentBody(body)).toBe(true);
    });

    it('the generated client uploads a Blob the server accepts', async () => {
      const { createClient } = await import('../out/rest/client.js');
      const client = createClient({ baseUrl: `${url}/v1`, auth: { bearerAuth: 't' } });
      const stored = await client.uploadAttachment({ taskId: TASK_ID, body: { file: new Blob(['hello']), caption: 'hi' } });
      expect(stored).toMatchObject({ size: 5, caption: 'hi' });
      expect(isUploadAttachmentBody(received.at(-1))).toBe(true);
    });
  });
});

describe('validator code: one error per fault, typed results (item 6)', () => {
  it('a value of the wrong type gets the type error only, not the enum error too', async () => {
    const { validateTaskStatus } = await import('../out/rest/validators.js');
    expect(validateTaskStatus(5)).toEqual({ ok: false, errors: [{ path: '', keyword: 'type', message: 'must be a string' }] });
    expect(validateTaskStatus('later')).toEqual({
      ok: false,
      errors: [{ path: '', keyword: 'enum', message: 'must be one of "todo", "in_progress", "done"' }],
    });
    const { validateListProjectTasksQuery } = await import('../out/rest/server-validators.js');
    expect(validateListProjectTasksQuery({ 'filter[status]': 1 })).toEqual({
      ok: false,
      errors: [{ path: '/filter[status]', keyword: 'type', message: 'must be a string' }],
    });
  });

  it('a missing required reference is one `required` error', async () => {
    const { validateTask } = await import('../out/rest/validators.js');
    const errors = (validateTask({}) as { errors: Array<{ path: string; keyword: string }> }).errors;
    expect(errors.filter((error) => error.path === '/status')).toEqual([{ path: '/status', keyword: 'required', message: 'is required' }]);
  });

  it('the helpers live once, in runtime/validation.ts: generated modules import them', () => {
    const declared = (file: string) =>
      [...readFileSync(join(ROOT, file), 'utf8').matchAll(/^(?:export )?function (\w+)\(/gm)].map((match) => match[1]!);
    for (const file of ['out/rest/validators.js', 'out/rest/server-validators.js', 'out/realtime/validators.js']) {
      expect(declared(file).filter((name) => HELPER_NAMES.includes(name))).toEqual([]);
    }
    const runtime = declared('runtime/validation.ts');
    expect(HELPER_NAMES.filter((name) => !runtime.includes(name))).toEqual([]);
  });

  it('server-validators calls the checks of validators instead of compiling the schemas again', () => {
    const text = (file: string) => readFileSync(join(ROOT, file), 'utf8');
    const server = text('out/rest/server-validators.js');
    const shared = new Set([...text('out/rest/validators.js').matchAll(/^function (check\w+)\(/gm)].map((match) => match[1]!));
    const copies = [...server.matchAll(/^function (check\w+)\([^)]*\) \{\n(.*)\n/gm)]
      .filter(
        (match) =>
          shared.has(match[1]!) &&
          !/^ {2}return errors === undefined \? is\w+\(value\) : collected\(validate\w+\(value\), errors\);$/.test(match[2]!),
      )
      .map((match) => match[1]);
    expect(copies).toEqual([]);
    expect(server).toMatch(/^function checkTaskStatus\(/m);
  });

  describe('read by the type checker', () => {
    // The TypeScript form (`validators: ts`) of out/'s APIs: out/ holds the default, `.js` + `.d.ts`.
    const dir = join(ROOT, '.vitest-tmp', `validators-ts-${process.pid}`);
    const files = ['rest/validators.ts', 'rest/server-validators.ts', 'realtime/validators.ts'].map((file) => join(dir, file));
    let program: ts.Program;
    let checker: ts.TypeChecker;
    beforeAll(async () => {
      const apis = [
        { name: 'rest', input: 'schemas/openapi/tasks.yaml', style: 'openapi' },
        { name: 'realtime', input: 'schemas/asyncapi/tasks.asyncapi.yaml', style: 'asyncapi' },
      ] as const;
      for (const api of apis) {
        const [{ files: generated }] = await generate([
          {
            name: api.name,
            inputs: [join(ROOT, api.input)],
            style: api.style,
            documents: [],
            output: join(dir, api.name),
            emit: ['types', 'validators', 'server'],
            options: { validators: 'ts' },
            root: ROOT,
          },
        ]);
        for (const file of generated) {
          mkdirSync(dirname(join(dir, api.name, file.path)), { recursive: true });
          writeFileSync(join(dir, api.name, file.path), file.content);
        }
      }
      program = ts.createProgram(files, {
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.NodeNext,
        moduleResolution: ts.ModuleResolutionKind.NodeNext,
        lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
        types: [],
      });
      checker = program.getTypeChecker();
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    /** Every node of the validator modules and of the runtime they import. */
    function* nodes(): Generator<ts.Node> {
      const sources = program.getSourceFiles().filter((source) => source.fileName.startsWith(dir));
      expect(sources.length).toBeGreaterThanOrEqual(4);
      for (const source of sources) {
        const stack: ts.Node[] = [source];
        while (stack.length) {
          const node = stack.pop()!;
          yield node;
          node.forEachChild((child) => void stack.push(child));
        }
      }
    }

    it('no condition is constant by its type (`fail(…) ? 1 : 0`, where fail returns `false`)', () => {
      const constant: string[] = [];
      for (const node of nodes()) {
        const condition =
          ts.isConditionalExpression(node) || ts.isIfStatement(node)
            ? ts.isIfStatement(node)
              ? node.expression
              : node.condition
            : undefined;
        if (!condition) continue;
        const type = checker.getTypeAtLocation(condition);
        if (type.flags & ts.TypeFlags.BooleanLiteral) constant.push(`${node.getSourceFile().fileName}: ${condition.getText()}`);
      }
      expect(constant).toEqual([]);
    });

    it('every exported validator narrows to a type: `value is X`, `ValidationResult<X>`, never `unknown`', () => {
      const untyped: string[] = [];
      for (const file of files) {
        const source = program.getSourceFile(file)!;
        for (const statement of source.statements) {
          if (
            !ts.isFunctionDeclaration(statement) ||
            !statement.name ||
            !statement.modifiers?.some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword)
          )
            continue;
          const returned = statement.type?.getText() ?? '';
          const name = statement.name.text;
          if (/^is/.test(name) ? !/^value is \w+$/.test(returned) : /^validate/.test(name) && !/^ValidationResult<\w+>$/.test(returned))
            untyped.push(`${file}: ${name}(): ${returned}`);
        }
      }
      expect(untyped).toEqual([]);
      const server = program.getSourceFile(files[1]!)!;
      const query = server.statements.find(
        (statement) => ts.isFunctionDeclaration(statement) && statement.name?.text === 'validateListProjectsQuery',
      ) as ts.FunctionDeclaration;
      expect(query.type?.getText()).toBe('ValidationResult<ListProjectsQuery>');
      const declared = checker.getTypeAtLocation(
        server.statements.find((statement) => ts.isTypeAliasDeclaration(statement) && statement.name.text === 'ListProjectsQuery')!,
      );
      expect(checker.getPropertiesOfType(declared).map((property) => property.name)).toEqual(['page', 'pageSize', 'sort']);
    });

    it("out/'s .d.ts files declare what the TypeScript form exports, signature for signature", () => {
      const signatures = (file: string) =>
        [...readFileSync(file, 'utf8').matchAll(/^export (?:declare )?function (\w+\(value: unknown\): [^{;\n]+?) ?[{;]$/gm)].map(
          (match) => match[1],
        );
      for (const file of ['rest/validators', 'rest/server-validators', 'realtime/validators']) {
        const declared = signatures(join(ROOT, 'out', `${file}.d.ts`));
        expect(declared.length).toBeGreaterThan(0);
        expect(declared).toEqual(signatures(join(dir, `${file}.ts`)));
      }
    });
  });
});
