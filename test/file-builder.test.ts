/**
 * The file builder: symbols import themselves where printed, aliased when their name is taken;
 * import and re-export blocks are derived, sorted (packages first) and formatted one way.
 */
import { describe, expect, it } from 'vitest';
import { FileBuilder, literal, symbol, typeSymbol } from '../generators/core/builder/file.js';
import { jsDoc, jsDocLines } from '../generators/core/builder/names.js';

describe('FileBuilder', () => {
  it('imports what it prints, packages first, types with `import type`', () => {
    const file = new FileBuilder('client.ts', ['createClient']);
    const task = typeSymbol('Task', './types');
    const request = symbol('request', './runtime/http');
    const options = typeSymbol('RequestOptions', './runtime/http');
    const body = file.code`export async function createClient(options: ${options}): Promise<${task}> {\n  return ${request}(${literal('/tasks')}, options) as Promise<${task}>;\n}`;
    file.use(typeSymbol('IncomingMessage', 'node:http'));
    expect(body).toBe(
      'export async function createClient(options: RequestOptions): Promise<Task> {\n  return request("/tasks", options) as Promise<Task>;\n}',
    );
    expect(file.imports()).toBe(
      [
        'import type { IncomingMessage } from "node:http";',
        'import { request, type RequestOptions } from "./runtime/http.js";',
        'import type { Task } from "./types.js";',
      ].join('\n'),
    );
  });

  it('aliases a symbol whose name the file declares or another module took', () => {
    const file = new FileBuilder('server.ts', ['Task']);
    expect(file.use(typeSymbol('Task', './types'))).toBe('TaskType');
    expect(file.use(symbol('Problem', './runtime/server'))).toBe('Problem');
    expect(file.use(symbol('Problem', './runtime/http'))).toBe('ProblemValue');
    expect(file.imports()).toContain('import type { Task as TaskType } from "./types.js";');
    expect(file.imports()).toContain('import { Problem as ProblemValue } from "./runtime/http.js";');
  });

  it('names aliases as the file asks', () => {
    const dollar = (symbol: { name: string }, taken: ReadonlySet<string>) => {
      let local = `${symbol.name}$1`;
      for (let i = 2; taken.has(local); i++) local = `${symbol.name}$${i}`;
      return local;
    };
    const file = new FileBuilder('a_pb.ts', ['Message', 'Message$1'], { alias: dollar });
    expect(file.use(typeSymbol('Message', '@bufbuild/protobuf'))).toBe('Message$2');
    expect(file.imports()).toBe('import type { Message as Message$2 } from "@bufbuild/protobuf";');
  });

  it('imports under a name the caller chose, and from a specifier printed as written', () => {
    const file = new FileBuilder('types.ts', ['Task', 'GraphQLResolveInfo']);
    const mapper = symbol('default', '../src/db.js', { type: true, verbatim: true });
    expect(file.use(mapper, 'TaskMapper')).toBe('TaskMapper');
    expect(file.use(mapper)).toBe('TaskMapper');
    expect(() => file.use(mapper, 'Other')).toThrow('imported as TaskMapper');
    file.use(typeSymbol('GraphQLResolveInfo', 'graphql'), 'GraphQLResolveInfo2');
    file.use(symbol('Shared', './shared.js', { type: true, verbatim: true }));
    expect(file.imports()).toBe(
      [
        'import type { GraphQLResolveInfo as GraphQLResolveInfo2 } from "graphql";',
        'import type { default as TaskMapper } from "../src/db.js";',
        'import type { Shared } from "./shared.js";',
      ].join('\n'),
    );
  });

  it("tells the names the file binds: its own and its imports' local names", () => {
    const file = new FileBuilder('server-validators.ts', ['TaskQuery']);
    file.use(typeSymbol('TaskQuery', './types'));
    expect([...file.names()]).toEqual(['TaskQuery', 'TaskQueryType']);
  });

  it('imports as a value a symbol used as a type first and as a value later', () => {
    const file = new FileBuilder('a.ts');
    file.use(typeSymbol('Code', './runtime/grpc-call'));
    file.use(symbol('Code', './runtime/grpc-call'));
    expect(file.imports()).toBe('import { Code } from "./runtime/grpc-call.js";');
  });

  it('names generated modules relative to the importing file', () => {
    const file = new FileBuilder('gen/tasks/v1/tasks_pb.ts');
    file.use(symbol('Timestamp', './gen/google/protobuf/timestamp_pb'));
    file.use(symbol('fail', './runtime/validation'));
    expect(file.imports()).toBe(
      ['import { Timestamp } from "../../google/protobuf/timestamp_pb.js";', 'import { fail } from "../../../runtime/validation.js";'].join(
        '\n',
      ),
    );
  });

  it('rewrites type expressions from the type emitter, and re-exports', () => {
    const file = new FileBuilder('client.ts', ['Task']);
    const known = new Map([
      ['Task', typeSymbol('Task', './types')],
      ['Problem', typeSymbol('Problem', './types')],
    ]);
    expect(file.rewrite('Array<Task> | "Task" | Problem', known)).toBe('Array<TaskType> | "Task" | Problem');
    file.reexport(symbol('ClientError', './runtime/client-common'), typeSymbol('ClientErrorKind', './runtime/client-common'));
    expect(file.exports()).toBe('export { ClientError, type ClientErrorKind } from "./runtime/client-common.js";');
  });

  it('re-exports the public API of runtime modules, each name once, from the first module that has it', () => {
    const file = new FileBuilder('server.ts');
    const added = file.reexportRuntime('server', 'server-types');
    expect(added.filter((exported) => exported.name === 'HttpProblem').map((exported) => exported.from)).toEqual(['./runtime/server']);
    expect(added.map((exported) => exported.name)).toContain('ProblemBody');
    expect(file.exports()).not.toMatch(/HttpProblem[^]*HttpProblem/);
  });

  it('aliases an import named like a re-export of another module, not the re-exported symbol itself', () => {
    const file = new FileBuilder('client.ts');
    file.reexport(symbol('ApiError', './runtime/http'));
    expect(file.use(symbol('ApiError', './runtime/http'))).toBe('ApiError');
    expect(file.use(typeSymbol('ApiError', './types'))).toBe('ApiErrorType');
  });

  it('escapes literals in one place', () => {
    const file = new FileBuilder('a.ts');
    expect(file.code`const a = ${literal('*/"\u2028')};`).toBe('const a = "*/\\"\\u2028";');
    const hostile: unknown = JSON.parse('{"__proto__": 1, "ok": [true, null]}');
    expect(file.code`const b = ${literal(hostile)};`).toBe('const b = { ["__proto__"]: 1, ok: [true, null] };');
  });

  it('gives a JSDoc block, or its inner lines for a template that writes the prose around them, escaped alike', () => {
    const text = 'A schema.\n\nIt ends a comment */ here.  ';
    expect(jsDoc([text])).toBe('/**\n * A schema.\n *\n * It ends a comment *\\/ here.\n */\n');
    expect(jsDocLines([text], '  ')).toBe('   * A schema.\n   *\n   * It ends a comment *\\/ here.\n');
    expect(jsDocLines([undefined, ' '])).toBe('');
  });
});
