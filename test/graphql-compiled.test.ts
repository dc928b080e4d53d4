/**
 * The generated server runs an operation in graphql-js the first time and compiled by graphql-jit
 * from the second time on (graphql-documents.ts). Each case here is sent three times and must get
 * the same answer, byte for byte, status and body: data, partial success, error messages,
 * locations, paths and codes, masking, `@auth`, variables that do not coerce, abstract types,
 * directives, introspection.
 */
import { readFileSync } from 'node:fs';
import { buildSchema, getOperationAST, parse } from 'graphql';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { compileSerializer } from '../runtime/graphql-json.js';
import { generatedServer, serve, type GeneratedServer, type Running } from './support/graphql-server-setup.js';
import { GRAPHQL_USAGE_SOURCE } from './support/graphql-server-usage.js';

let generated: GeneratedServer;
let dev: Running;
let prod: Running;

beforeAll(async () => {
  generated = await generatedServer('graphql-compiled', GRAPHQL_USAGE_SOURCE);
  dev = await serve(generated.usage.server({ production: false }));
  prod = await serve(generated.usage.server({ production: true }));
});

afterAll(async () => {
  await Promise.all([dev.close(), prod.close()]);
});

beforeEach(() => {
  generated.usage.errors.length = 0;
});

interface Case {
  query: string;
  variables?: Record<string, unknown>;
  operationName?: string;
  token?: string;
}

const CASES: Record<string, Case> = {
  'fragments, variables, a null assignee, nested lists': {
    query: `query Tasks($id: ID!, $first: Int = 20) { project(id: $id) { id name createdAt tasks(first: $first) { totalCount pageInfo { hasNextPage endCursor } edges { cursor node { ...T } } } } }
      fragment T on Task { id title status createdAt assignee { id name } }`,
    variables: { id: 'p1', first: 2 },
  },
  'abstract types: interface and union, __typename, inline fragments': {
    query: `{ __typename node(id: "t1") { __typename id ... on Task { title } } search(text: "i") { __typename ... on Task { id status } ... on Project { id name } } }`,
  },
  'aliases, @skip and @include from variables': {
    query: `query($skip: Boolean!, $include: Boolean!) { a: task(id: "t1") { id title @skip(if: $skip) } b: task(id: "t2") { id status @include(if: $include) } }`,
    variables: { skip: true, include: false },
  },
  'a field selected twice (merged), a fragment on an interface in an object, a spread fragment visited once': {
    query: `{ task(id: "t1") { ...N assignee { id } title assignee { name } ...N t: title ... on Task { id status } }
      project(id: "p1") { tasks(first: 2) { edges { node { createdAt ...N } } } } }
      fragment N on Node { id }`,
  },
  'one of several operations, by name': {
    query: 'query A { viewer { id } } query B { projects(first: 1) { id } }',
    operationName: 'B',
  },
  'a resolver that throws by accident: masked, with its path and location': {
    query: '{ ok: task(id: "t1") { id } failed: task(id: "boom") { id } }',
  },
  'a GraphQLError with its own code': {
    query: '{ task(id: "gone") { id } }',
  },
  '@auth: anonymous, a member and an admin on an ADMIN field (partial success)': {
    query: '{ task(id: "t1") { id internalNotes assignee { name email } } }',
  },
  '@auth as a member': { query: '{ task(id: "t1") { id internalNotes } }', token: 'member' },
  '@auth as an admin': { query: '{ task(id: "t1") { id internalNotes assignee { email } } }', token: 'admin' },
  'a mutation that needs a role, anonymous': { query: 'mutation { deleteTask(id: "nope") }' },
  'a mutation as an admin': { query: 'mutation { deleteTask(id: "nope") }', token: 'admin' },
  'a variable of the wrong type': { query: 'query($first: Int) { projects(first: $first) { id } }', variables: { first: 'many' } },
  'a missing required variable': { query: 'query($id: ID!) { task(id: $id) { id } }', variables: {} },
  'an enum variable that is not a value of the enum': {
    query: 'query($status: TaskStatus) { project(id: "p1") { tasks(status: $status) { totalCount } } }',
    variables: { status: 'LOST' },
  },
  'an input object with an unknown field': {
    query: 'mutation($input: UpdateTaskInput!) { updateTask(id: "t9", input: $input) { id } }',
    variables: { input: { title: 'x', colour: 'red' } },
    token: 'member',
  },
  'introspection (development)': {
    query: '{ __schema { queryType { name } } __type(name: "TaskStatus") { enumValues { name } } }',
  },
};

async function send(url: string, body: Case): Promise<{ status: number; text: string }> {
  const { token, ...payload } = body;
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/graphql-response+json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(payload),
  });
  return { status: response.status, text: await response.text() };
}

describe.each([
  ['development', () => dev],
  ['production', () => prod],
])('%s: the compiled runs answer as the first one did', (_mode, running) => {
  test.each(Object.entries(CASES))('%s', async (_name, body) => {
    const first = await send(running().url, body);
    expect(JSON.parse(first.text)).toBeTypeOf('object');
    expect(await send(running().url, body)).toEqual(first);
    expect(await send(running().url, body)).toEqual(first);
  });
});

test('from the second run on, resolvers are called by graphql-jit', async () => {
  const query = '{ task(id: "boom") { id } }';
  const stacks: string[] = [];
  for (let run = 0; run < 2; run++) {
    generated.usage.errors.length = 0;
    await send(prod.url, { query });
    stacks.push(String((generated.usage.errors[0] as Error | undefined)?.stack));
  }
  expect(stacks[0]).not.toContain('graphql-jit');
  expect(stacks[1]).toContain('graphql-jit');
});

test('an operation whose answer has a fixed shape gets its own serializer; one with @skip or an abstract type does not', () => {
  const schema = buildSchema(readFileSync(new URL('../schemas/graphql/tasks.graphql', import.meta.url), 'utf8'));
  const serializer = (query: string) => {
    const document = parse(query);
    const operation = getOperationAST(document);
    if (!operation) throw new Error('no operation');
    return compileSerializer(schema, document, operation);
  };
  const serialize = serializer('{ task(id: "t1") { id title status createdAt assignee { id name } } }');
  const answer = {
    data: { task: { id: 't1', title: 'Say "hi"\n\ud800', status: 'TODO', createdAt: '2026-01-01T00:00:00.000Z', assignee: null } },
  };
  expect(serialize?.(answer)).toBe(JSON.stringify(answer));
  expect(serialize?.({ data: null })).toBe(JSON.stringify({ data: null }));
  expect(serializer('query($s: Boolean!) { task(id: "t1") { id @skip(if: $s) } }')).toBeUndefined();
  expect(serializer('{ node(id: "t1") { id } }')).toBeUndefined();
  expect(serializer('{ __schema { queryType { name } } }')).toBeUndefined();
});
