/**
 * The GraphQL operations as `TypedDocumentNode`s (out/graphql/documents.ts, option
 * `typedDocumentNodes`), used without our client: urql (`@urql/core`) and graphql-request type
 * `data` and variables from them (a type test with `@ts-expect-error` cases, both compilers) and
 * run them against the generated GraphQL server (the example, on 127.0.0.1 port 0); urql with its
 * default exchanges, which rewrite the syntax tree (`__typename` added) before sending it. Each tree prints to the text
 * `operations.ts` sends, and a bundle of one document holds no other.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { cacheExchange, Client, fetchExchange } from '@urql/core';
import * as esbuild from 'esbuild';
import { parse, print } from 'graphql';
import { GraphQLClient } from 'graphql-request';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from './support/cli.js';
import { GRAPHQL_EXAMPLE_MAIN, importDist, startExample, type RunningExample } from './support/e2e-example.js';
import { COMPILERS, typecheck } from './support/typecheck.js';

type DocumentsModule = typeof import('../out/graphql/documents.js');
type OperationsModule = typeof import('../out/graphql/operations.js');

const OUT = join(ROOT, 'out', 'graphql');
mkdirSync(join(ROOT, '.vitest-tmp'), { recursive: true });
const SCRATCH = mkdtempSync(join(ROOT, '.vitest-tmp', 'typed-documents-'));

// Typed user code on urql: must compile; each @ts-expect-error must be an error.
const USAGE = `
import { Client, fetchExchange } from "@urql/core";
import type { ResultOf, VariablesOf } from "@graphql-typed-document-node/core";
import { GraphQLClient } from "graphql-request";
import { CreateTaskDocument, GetTaskDocument, ProjectTasksDocument, ViewerDocument } from "./documents.js";
import type { GetTaskQuery, GetTaskQueryVariables } from "./operations.js";

const client = new Client({ url: "http://127.0.0.1:4000/graphql", exchanges: [fetchExchange] });

export async function usage(): Promise<string | undefined> {
  const result = await client.query(GetTaskDocument, { id: "t1" }).toPromise();
  const title: string | undefined = result.data?.task?.title;
  const notes: string | null | undefined = result.data?.task?.internalNotes;
  const page = await client.query(ProjectTasksDocument, { projectId: "p1", first: 10 }).toPromise();
  const cursor: string | null | undefined = page.data?.project?.tasks.pageInfo.endCursor;
  const viewer = await client.query(ViewerDocument, {}).toPromise();
  const created = await client.mutation(CreateTaskDocument, { input: { projectId: "p1", title: "New" } }).toPromise();
  const id: string | undefined = created.data?.createTask.id;
  const same: GetTaskQuery | undefined = result.data;
  const variables: VariablesOf<typeof GetTaskDocument> = { id: "t1" } satisfies GetTaskQueryVariables;
  const data: ResultOf<typeof GetTaskDocument> | undefined = same;

  // @ts-expect-error id is a string
  await client.query(GetTaskDocument, { id: 1 }).toPromise();
  // @ts-expect-error not a variable of GetTask
  const extra: VariablesOf<typeof GetTaskDocument> = { id: "t1", extra: true };
  // @ts-expect-error the input needs a title
  await client.mutation(CreateTaskDocument, { input: { projectId: "p1" } }).toPromise();
  // @ts-expect-error data may be undefined
  const unchecked: string = result.data.task?.title;
  // @ts-expect-error no such field in the selection
  const missing = result.data?.task?.description;
  // @ts-expect-error the viewer's name is a string
  const name: number | undefined = viewer.data?.viewer?.name;
  console.log(notes, cursor, id, variables, data, extra, unchecked, missing, name);
  return title;
}

const gql = new GraphQLClient("http://127.0.0.1:4000/graphql");

export async function withGraphQLRequest(): Promise<string | undefined> {
  const result = await gql.request(GetTaskDocument, { id: "t1" });
  const same: GetTaskQuery = result;
  // @ts-expect-error id is a string
  await gql.request(GetTaskDocument, { id: 1 });
  // @ts-expect-error the task may be null
  const title: string = result.task.title;
  console.log(same, title);
  return result.task?.title;
}
`;

let documents: DocumentsModule;
let operations: OperationsModule;
let example: RunningExample;

beforeAll(async () => {
  documents = await importDist<DocumentsModule>('out/graphql/documents.js');
  operations = await importDist<OperationsModule>('out/graphql/operations.js');
  example = await startExample({}, GRAPHQL_EXAMPLE_MAIN);
}, 60_000);

afterAll(async () => {
  rmSync(SCRATCH, { recursive: true, force: true });
  const { code } = await example.stop();
  expect(code).toBe(0);
});

function urql(authorization: string): Client {
  return new Client({
    url: example.url,
    exchanges: [cacheExchange, fetchExchange],
    fetchOptions: { headers: { authorization } },
    requestPolicy: 'network-only',
  });
}

describe('documents.ts: TypedDocumentNodes', () => {
  it('each document is the syntax tree of the text operations.ts sends', () => {
    const pairs = [
      [documents.ViewerDocument, operations.Viewer],
      [documents.GetTaskDocument, operations.GetTask],
      [documents.ProjectTasksDocument, operations.ProjectTasks],
      [documents.SearchDocument, operations.Search],
      [documents.CreateTaskDocument, operations.CreateTask],
      [documents.UpdateTaskDocument, operations.UpdateTask],
      [documents.DeleteTaskDocument, operations.DeleteTask],
      [documents.TaskChangedDocument, operations.TaskChanged],
    ] as const;
    for (const [document, operation] of pairs) expect(print(document)).toBe(print(parse(operation.document)));
  });

  it('give urql and graphql-request typed data and variables (TypeScript 5.9 and 7, strictest settings)', () => {
    for (const file of ['types.ts', 'operations.ts', 'documents.ts']) cpSync(join(OUT, file), join(SCRATCH, file));
    writeFileSync(join(SCRATCH, 'usage.ts'), USAGE);
    for (const [name, compiler] of Object.entries(COMPILERS)) {
      expect(typecheck(SCRATCH, compiler, 'browser').output, name).toBe('');
    }
  }, 120_000);

  it('run through urql against the generated server', async () => {
    const read = await urql('Bearer admin-token').query(documents.GetTaskDocument, { id: 't1' }).toPromise();
    expect(read.error).toBeUndefined();
    expect(read.data?.task).toMatchObject({ id: 't1', title: 'Task 1', internalNotes: 'Blocked on legal review', project: { id: 'p1' } });

    const member = urql('Bearer member-token');
    const created = await member.mutation(documents.CreateTaskDocument, { input: { projectId: 'p1', title: 'From urql' } }).toPromise();
    expect(created.error).toBeUndefined();
    expect(created.data?.createTask).toMatchObject({ title: 'From urql', status: 'TODO' });

    const page = await member.query(documents.ProjectTasksDocument, { projectId: 'p1', first: 50 }).toPromise();
    expect(page.data?.project?.tasks.edges.map((edge) => edge.node.title)).toContain('From urql');
  }, 60_000);

  it('run through graphql-request against the generated server', async () => {
    const client = new GraphQLClient(example.url, { headers: { authorization: 'Bearer admin-token' } });
    const result = await client.request(documents.GetTaskDocument, { id: 't1' });
    expect(result.task).toMatchObject({ id: 't1', title: 'Task 1', assignee: { id: 'u2', name: 'Grace' } });
  }, 60_000);

  it('are tree-shaken: a bundle of one document holds no other', async () => {
    const entry = join(SCRATCH, 'entry.ts');
    writeFileSync(
      entry,
      `import { ViewerDocument } from ${JSON.stringify(`./${relative(SCRATCH, join(OUT, 'documents.ts'))}`)};\nconsole.log(ViewerDocument);\n`,
    );
    const result = await esbuild.build({
      entryPoints: [entry],
      bundle: true,
      minify: true,
      format: 'esm',
      write: false,
      logLevel: 'silent',
    });
    const code = result.outputFiles[0]!.text;
    expect(code).toContain('"Viewer"');
    expect(code).not.toContain('GetTask');
    expect(code).not.toContain('@graphql-typed-document-node');
  });
});
