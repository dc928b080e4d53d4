/**
 * The generated TanStack Query options (`emit: [query]`, `query.ts`) beyond the browser test
 * (test/query-browser.test.ts):
 * - types: typed user code (test/support/query-usage.ts: query-core's observers and client, and
 *   React's hooks) compiles under strict plus STRICTEST with each compiler, and each of its
 *   `@ts-expect-error` lines is an error (tsc reports an unused one): data, error, key and input
 *   types, and what `useQuery`, `useInfiniteQuery` and `useMutation` infer;
 * - which queries each mutation invalidates ("the same resource", generators/openapi/query-invalidation.ts);
 * - every OpenAPI 3 document of the corpus gets a query.ts that type-checks.
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ApiConfig } from '../generators/core/config/config.js';
import { generate } from '../generators/core/pipeline/generate.js';
import { applyPlan, planWrites } from '../generators/core/pipeline/writer.js';
import { ROOT } from './support/cli.js';
import { writeFiles } from './support/client-generate.js';
import { generateFiles } from './support/generate.js';
import { COMPILERS, STRICTEST, typecheck } from './support/typecheck.js';

/** Folders this file generates into, under .vitest-tmp (inside the repository, so that the output resolves @tanstack/query-core). */
const RESOURCES_OUT = join(ROOT, '.vitest-tmp', `query-resources-${process.pid}`);
const CORPUS_OUT = join(ROOT, '.vitest-tmp', `query-corpus-${process.pid}`);
afterAll(() => {
  for (const folder of [RESOURCES_OUT, CORPUS_OUT]) rmSync(folder, { recursive: true, force: true });
});

describe('TanStack Query options: types', () => {
  for (const [name, compiler] of Object.entries(COMPILERS)) {
    it(`type-checks the usage under ${name}, strict plus STRICTEST`, () => {
      const result = typecheck(ROOT, compiler, 'browser', ['test/support/query-usage.ts'], STRICTEST);
      expect(result.output).toBe('');
      expect(result.ok).toBe(true);
    }, 120_000);
  }
});

const RESOURCES = `
openapi: 3.1.0
info: { title: Blog, version: '1' }
paths:
  /users:
    get: { operationId: listUsers, responses: { '200': { description: ok } } }
    post: { operationId: createUser, responses: { '201': { description: ok } } }
  /users/{userId}:
    parameters: [{ name: userId, in: path, required: true, schema: { type: string } }]
    get: { operationId: getUser, responses: { '200': { description: ok } } }
    patch: { operationId: updateUser, responses: { '200': { description: ok } } }
    delete: { operationId: deleteUser, responses: { '204': { description: ok } } }
  /users/{userId}/posts:
    parameters: [{ name: userId, in: path, required: true, schema: { type: string } }]
    get: { operationId: listUserPosts, responses: { '200': { description: ok } } }
    post: { operationId: createPost, responses: { '201': { description: ok } } }
  /posts/{postId}:
    parameters: [{ name: postId, in: path, required: true, schema: { type: string } }]
    get: { operationId: getPost, responses: { '200': { description: ok } } }
    put: { operationId: replacePost, responses: { '200': { description: ok } } }
  /users/{userId}/avatar:
    parameters: [{ name: userId, in: path, required: true, schema: { type: string } }]
    post: { operationId: uploadAvatar, responses: { '201': { description: ok } } }
  /health:
    post: { operationId: checkHealth, responses: { '204': { description: ok } } }
  /ping:
    get: { operationId: ping, responses: { '204': { description: ok } } }
`;

/** The query keys `invalidateAfter<Op>` invalidates, by mutation; `null` when there is no such function. */
function invalidations(source: string, mutations: string[]): Record<string, string[] | null> {
  return Object.fromEntries(
    mutations.map((name) => {
      const start = source.indexOf(`export async function invalidateAfter${name.charAt(0).toUpperCase()}${name.slice(1)}(`);
      if (start === -1) return [name, null];
      const body = source.slice(start, source.indexOf('\n}\n', start));
      return [name, [...body.matchAll(/queryKey: (\[.*?\]) \}/g)].map((match) => match[1]!)];
    }),
  );
}

describe('TanStack Query options: what a mutation invalidates', () => {
  it('the queries of its resource, narrowed by the path parameters they share', async () => {
    const folder = RESOURCES_OUT;
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'blog.yaml'), RESOURCES);
    const files = await generateFiles(join(folder, 'blog.yaml'), ['types', 'client', 'query']);
    const query = files.find((file) => file.path === 'query.ts')!.content;
    expect(
      invalidations(query, ['createUser', 'updateUser', 'deleteUser', 'createPost', 'replacePost', 'uploadAvatar', 'checkHealth']),
    ).toEqual({
      // A POST to a collection adds a member: the other members are unchanged.
      createUser: ['["test", "listUsers"]'],
      updateUser: ['["test", "listUsers"]', '["test", "getUser", { userId: params.userId }]'],
      // A DELETE also invalidates what lives under the deleted path.
      deleteUser: [
        '["test", "listUsers"]',
        '["test", "getUser", { userId: params.userId }]',
        '["test", "listUserPosts", { userId: params.userId }]',
      ],
      // The posts of one user are listed under /users/{userId}/posts and read at /posts/{postId}: one resource.
      createPost: ['["test", "listUserPosts", { userId: params.userId }]'],
      replacePost: ['["test", "getPost", { postId: params.postId }]', '["test", "listUserPosts"]'],
      // No GET of avatars: the upload changes the user it is under.
      uploadAvatar: ['["test", "listUsers"]', '["test", "getUser", { userId: params.userId }]'],
      // Nothing to invalidate: no helper, and the mutation has no onSuccess.
      checkHealth: null,
    });
    expect(query).toContain('mutationKey: ["test", "checkHealth"],\n    mutationFn: () => http.call(checkHealthOperation),\n  };');
    // TanStack Query refuses undefined data: a GET without a body gives null.
    expect(query).toContain('queryFn: ({ signal }) => http.call(pingOperation, undefined, { signal }).then(() => null),');
    writeFiles(join(folder, 'out'), files);
    writeFileSync(join(folder, 'out', 'package.json'), '{ "type": "module" }\n');
    for (const [name, compiler] of Object.entries(COMPILERS)) {
      expect(typecheck(join(folder, 'out'), compiler, 'browser', ['query.ts'], STRICTEST).output, name).toBe('');
    }
  });
});

describe('TanStack Query options: the corpus', () => {
  const CORPUS = join(ROOT, '..', 'shared', 'corpus', 'openapi');
  const specs = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? specs(join(dir, entry.name)) : /\.(ya?ml|json)$/.test(entry.name) ? [join(dir, entry.name)] : [],
    );

  it('every OpenAPI 3 document with operations gets a query.ts that type-checks under strict plus STRICTEST', async () => {
    const out = CORPUS_OUT;
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, 'package.json'), '{ "type": "module" }\n');
    const inputs = specs(CORPUS)
      .filter((file) => !file.includes('/v2.0/'))
      .sort();
    const configs = inputs.map(
      (input): ApiConfig => ({
        name: 'corpus',
        inputs: [input],
        style: 'openapi',
        documents: [],
        output: join(out, relative(CORPUS, input).replace(/[^A-Za-z0-9]+/g, '-')),
        emit: ['types', 'client', 'query'],
        options: {},
        root: CORPUS,
      }),
    );
    const outputs = await generate(configs);
    await applyPlan(await planWrites(outputs));
    const written = outputs.filter(({ files }) => files.some((file) => file.path === 'query.ts'));
    // Every document but the webhooks-only one.
    expect(written.length).toBe(inputs.length - 1);
    for (const [name, compiler] of Object.entries(COMPILERS)) {
      const result = typecheck(out, compiler, 'browser', ['*/query.ts'], STRICTEST);
      expect(result.output, name).toBe('');
    }
  }, 300_000);
});

const CLASHING = `
openapi: 3.1.0
info: { title: Clash, version: '1' }
paths:
  /tasks:
    get:
      operationId: listTasks
      parameters:
        - { name: cursor, in: query, schema: { type: string } }
        - { name: limit, in: query, schema: { type: integer } }
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: { type: object, properties: { items: { type: array, items: { type: string } }, nextCursor: { type: string } } }
  /tasks/infinite:
    get:
      operationId: listTasksInfinite
      responses:
        '200': { description: ok, content: { application/json: { schema: { type: string } } } }
`;

describe('TanStack Query options: names two operations would share', () => {
  it('writes the first operation’s options and warns at the second, which gets none', async () => {
    const folder = join(ROOT, '.vitest-tmp', `query-clash-${process.pid}`);
    mkdirSync(folder, { recursive: true });
    const input = join(folder, 'clash.yaml');
    writeFileSync(input, CLASHING);
    try {
      const [result] = await generate([
        {
          name: 'clash',
          style: 'openapi',
          inputs: [input],
          documents: [],
          output: folder,
          emit: ['types', 'query'],
          options: {},
          root: ROOT,
        },
      ]);
      const query = result!.files.find((file) => file.path === 'query.ts')!.content;
      expect(query).toContain('export function listTasksInfiniteOptions(');
      expect(query.match(/export function listTasksInfiniteOptions\(/g)).toHaveLength(1);
      expect(query.match(/export function listTasksInfiniteQueryKey\(/g)).toHaveLength(1);
      const warning = result!.warnings!.find((each) => each.message.startsWith('query.ts: listTasksInfinite'));
      expect(warning?.message).toBe(
        "query.ts: listTasksInfinite gets no TanStack Query options: `listTasksInfiniteQueryKey` is already listTasks's",
      );
      expect(warning?.location?.line).toBe(18);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }, 60_000);
});
