/**
 * `paths.ts` (option `openapiTypescript`): the types in openapi-typescript's shape, used by
 * openapi-fetch as code written on openapi-typescript's output uses them. `createClient<paths>()`
 * compiles, with typed `data` and `error` and `@ts-expect-error` cases (a wrong path, a method the
 * path lacks, missing or mistyped parameters, a wrong body), against the example's output and
 * against GitHub's REST description (@octokit/openapi), on TypeScript 5.9 and 7 under the strictest
 * settings; and openapi-fetch calls the generated REST server (the example, on 127.0.0.1 port 0).
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import createClient from 'openapi-fetch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { paths } from '../out/rest/paths.js';
import type { Task } from '../out/rest/types.js';
import { ROOT } from './support/cli.js';
import { writeFiles } from './support/client-generate.js';
import { EDITOR_TOKEN, startExample, type RunningExample } from './support/e2e-example.js';
import { generateFiles } from './support/generate.js';
import { COMPILERS, typecheck } from './support/typecheck.js';

mkdirSync(join(ROOT, '.vitest-tmp'), { recursive: true });
const SCRATCH = mkdtempSync(join(ROOT, '.vitest-tmp', 'openapi-fetch-'));
const GITHUB = join(ROOT, 'node_modules/@octokit/openapi/generated/api.github.com.json');

// Code on openapi-fetch over the example's paths.ts: must compile; each @ts-expect-error must be an error.
const TASKS_USAGE = `
import createClient from "openapi-fetch";
import type { FetchResponse } from "openapi-fetch";
import type { PathsWithMethod } from "openapi-typescript-helpers";
import type { components, operations, paths } from "./paths.js";
import type { Problem, Task, TaskPage } from "./types.js";

const client = createClient<paths>({ baseUrl: "http://127.0.0.1:4000/v1", headers: { authorization: "Bearer demo-token" } });

export async function usage(projectId: string): Promise<string | undefined> {
  const { data, error, response } = await client.GET("/tasks/{taskId}", { params: { path: { taskId: "t1" } } });
  if (error) {
    const problem: Problem = error;
    console.error(response.status, problem.title);
    return undefined;
  }
  const task: Task = data;
  const page = await client.GET("/projects/{projectId}/tasks", {
    params: { path: { projectId }, query: { limit: 10, "filter[status]": "done", fields: ["id", "title"] } },
  });
  const items: TaskPage["items"] | undefined = page.data?.items;
  const created = await client.POST("/projects/{projectId}/tasks", {
    params: { path: { projectId }, header: { "Idempotency-Key": "k1" } },
    body: { title: "New", status: "todo" },
  });
  const createdId: string | undefined = created.data?.id;
  const invalid: components["schemas"]["ValidationProblem"]["errors"] | undefined = created.error && "errors" in created.error ? created.error.errors : undefined;
  await client.PATCH("/tasks/{taskId}", { params: { path: { taskId: task.id } }, body: { status: "done" } });
  const removed = await client.DELETE("/tasks/{taskId}", { params: { path: { taskId: task.id } } });
  const nothing: undefined = removed.data;
  const projects = await client.GET("/projects");
  const total: number | undefined = projects.data?.total;
  const schema: components["schemas"]["Task"] = task;
  const gets: PathsWithMethod<paths, "get">[] = ["/projects", "/projects/{projectId}", "/tasks/{taskId}"];
  type GetTask = FetchResponse<paths["/tasks/{taskId}"]["get"], {}, "application/json">;
  const typed: GetTask["data"] = task;
  const params: operations["listProjectTasks"]["parameters"]["query"] = { cursor: "c" };

  // @ts-expect-error no such path
  await client.GET("/tasks");
  // @ts-expect-error the path has no GET
  await client.GET("/tasks/{taskId}/attachments", { params: { path: { taskId: "t1" } } });
  // @ts-expect-error the path parameter is required
  await client.GET("/tasks/{taskId}");
  // @ts-expect-error taskId is a string
  await client.GET("/tasks/{taskId}", { params: { path: { taskId: 1 } } });
  // @ts-expect-error no such query parameter
  await client.GET("/projects/{projectId}/tasks", { params: { path: { projectId }, query: { nope: 1 } } });
  // @ts-expect-error status is one of todo, in_progress, done
  await client.POST("/projects/{projectId}/tasks", { params: { path: { projectId } }, body: { title: "x", status: "later" } });
  // @ts-expect-error the body is required
  await client.POST("/projects/{projectId}/tasks", { params: { path: { projectId } } });
  // @ts-expect-error data is undefined when the call failed
  const title: string = page.data.items[0].title;
  // @ts-expect-error a task's title is a string
  const wrong: number | undefined = created.data?.title;
  // @ts-expect-error an error is a Problem, not a Task
  const notTask: Task | undefined = page.error;
  // @ts-expect-error not a path with GET
  const notGet: PathsWithMethod<paths, "get"> = "/tasks/{taskId}/attachments";
  console.log(items, createdId, invalid, nothing, total, schema, gets, typed, params, title, wrong, notTask, notGet);
  return task.title;
}
`;

// Code on openapi-fetch over GitHub's REST description.
const GITHUB_USAGE = `
import createClient from "openapi-fetch";
import type { components, paths } from "./paths.js";

const github = createClient<paths>({ baseUrl: "https://api.github.com" });

export async function usage(owner: string, repo: string): Promise<string[]> {
  const issues = await github.GET("/repos/{owner}/{repo}/issues", {
    params: { path: { owner, repo }, query: { state: "open", per_page: 10, labels: "bug" } },
  });
  const titles: string[] = issues.data?.map((issue) => issue.title) ?? [];
  const found = await github.GET("/repos/{owner}/{repo}", { params: { path: { owner, repo } } });
  if (found.error) console.error(found.error.message);
  const fullName: string | undefined = found.data?.full_name;
  const owned: components["schemas"]["simple-user"] | undefined = found.data?.owner;
  const created = await github.POST("/repos/{owner}/{repo}/issues", { params: { path: { owner, repo } }, body: { title: "Bug", labels: ["bug"] } });
  const number: number | undefined = created.data?.number;
  await github.GET("/user");

  // @ts-expect-error no such path
  await github.GET("/repos/{owner}/{repo}/nope", { params: { path: { owner, repo } } });
  // @ts-expect-error the repo path parameter is missing
  await github.GET("/repos/{owner}/{repo}", { params: { path: { owner } } });
  // @ts-expect-error state is open, closed or all
  await github.GET("/repos/{owner}/{repo}/issues", { params: { path: { owner, repo }, query: { state: "maybe" } } });
  // @ts-expect-error an issue needs a title
  await github.POST("/repos/{owner}/{repo}/issues", { params: { path: { owner, repo } }, body: { body: "text" } });
  // @ts-expect-error full_name is a string
  const wrong: number | undefined = found.data?.full_name;
  console.log(fullName, owned, number, wrong);
  return titles;
}
`;

let example: RunningExample;

beforeAll(async () => {
  example = await startExample();
}, 60_000);

afterAll(async () => {
  rmSync(SCRATCH, { recursive: true, force: true });
  const { code } = await example.stop();
  expect(code).toBe(0);
});

describe('paths.ts with openapi-fetch', () => {
  it("the example's types compile with typed code on openapi-fetch (TypeScript 5.9 and 7, strictest settings)", () => {
    const folder = join(SCRATCH, 'tasks');
    mkdirSync(folder);
    for (const file of ['types.ts', 'paths.ts']) cpSync(join(ROOT, 'out', 'rest', file), join(folder, file));
    writeFileSync(join(folder, 'usage.ts'), TASKS_USAGE);
    for (const [name, compiler] of Object.entries(COMPILERS)) {
      expect(typecheck(folder, compiler, 'browser').output, name).toBe('');
    }
  }, 120_000);

  it("GitHub's REST description compiles with typed code on openapi-fetch (TypeScript 5.9 and 7)", async () => {
    const folder = join(SCRATCH, 'github');
    writeFiles(folder, await generateFiles(GITHUB, ['types'], { openapiTypescript: true }));
    writeFileSync(join(folder, 'usage.ts'), GITHUB_USAGE);
    for (const [name, compiler] of Object.entries(COMPILERS)) {
      expect(typecheck(folder, compiler, 'browser').output, name).toBe('');
    }
  }, 600_000);

  it('keeps the names code on openapi-typescript uses: component keys as written, operationIds, "4XX" and default responses', async () => {
    const folder = join(SCRATCH, 'names');
    const spec = join(folder, 'spec.yaml');
    mkdirSync(folder);
    writeFileSync(
      spec,
      [
        'openapi: 3.1.0',
        'info: { title: Names, version: "1" }',
        'paths:',
        '  /items/{item-id}:',
        '    parameters: [{ name: item-id, in: path, required: true, schema: { type: integer } }]',
        '    get:',
        '      operationId: items/get',
        '      parameters: [{ name: X-Trace, in: header, required: true, schema: { type: string } }]',
        '      responses:',
        '        "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/simple-item" } } } }',
        '        4XX: { description: client error, content: { application/json: { schema: { $ref: "#/components/schemas/problem_details" } } } }',
        '        default: { description: other, content: { text/plain: { schema: { type: string } } } }',
        '    delete:',
        '      operationId: items/get',
        '      responses: { "204": { description: gone } }',
        'components:',
        '  schemas:',
        '    simple-item: { type: object, required: [id], properties: { id: { type: integer, readOnly: true }, name: { type: string } } }',
        '    problem_details: { type: object, required: [title], properties: { title: { type: string } } }',
      ].join('\n'),
    );
    const files = await generateFiles(spec, ['types'], { openapiTypescript: true });
    writeFiles(folder, files);
    const text = files.find((file) => file.path === 'paths.ts')!.content;
    expect(text).toContain('    problem_details: ProblemDetails;\n    "simple-item": SimpleItem;\n');
    // A shared operationId cannot key both operations: each keeps its own name.
    expect(text).toContain('get: operations["itemsGet"];');
    expect(text).toContain('delete: operations["itemsGet2"];');
    expect(text).toMatch(/ {6}"4XX": \{\n/);
    writeFileSync(
      join(folder, 'usage.ts'),
      `import createClient from "openapi-fetch";
import type { components, paths } from "./paths.js";

const client = createClient<paths>({ baseUrl: "http://127.0.0.1:4000" });

export async function usage(): Promise<number | undefined> {
  const { data, error } = await client.GET("/items/{item-id}", { params: { path: { "item-id": 1 }, header: { "X-Trace": "t" } } });
  const problem: components["schemas"]["problem_details"] | string | undefined = error;
  // @ts-expect-error the X-Trace header is required
  await client.GET("/items/{item-id}", { params: { path: { "item-id": 1 } } });
  // @ts-expect-error an error is a problem or text
  const wrong: number | undefined = error;
  console.log(problem, wrong);
  return data?.id;
}
`,
    );
    for (const [name, compiler] of Object.entries(COMPILERS)) {
      expect(typecheck(folder, compiler, 'browser', ['types.ts', 'paths.ts', 'usage.ts']).output, name).toBe('');
    }
  }, 120_000);

  it('openapi-fetch calls the generated server and gets typed results', async () => {
    const client = createClient<paths>({ baseUrl: `${example.url}/v1`, headers: { authorization: `Bearer ${EDITOR_TOKEN}` } });
    const project = await client.POST('/projects', { body: { name: 'From openapi-fetch' } });
    expect(project.response.status).toBe(201);
    const projectId = project.data!.id;

    const created = await client.POST('/projects/{projectId}/tasks', {
      params: { path: { projectId }, header: { 'Idempotency-Key': `openapi-fetch-${projectId}` } },
      body: { title: 'Typed', status: 'todo', labels: [{ name: 'drop-in' }] },
    });
    expect(created.response.status).toBe(201);
    const task: Task = created.data!;
    expect(task).toMatchObject({ title: 'Typed', status: 'todo', labels: [{ name: 'drop-in' }] });

    const got = await client.GET('/tasks/{taskId}', { params: { path: { taskId: task.id } } });
    expect(got.data).toEqual(task);
    expect(got.response.headers.get('etag')).toMatch(/^"[\w-]+"$/);

    // A merge patch is sent as its media type, as with openapi-typescript's types.
    const patched = await client.PATCH('/tasks/{taskId}', {
      params: { path: { taskId: task.id } },
      body: { status: 'done' },
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    expect(patched.data?.status).toBe('done');

    const page = await client.GET('/projects/{projectId}/tasks', {
      params: { path: { projectId }, query: { limit: 5, 'filter[status]': 'done' } },
    });
    expect(page.data?.items.map((item) => item.id)).toEqual([task.id]);

    const invalid = await client.POST('/projects/{projectId}/tasks', {
      params: { path: { projectId } },
      body: { title: '', status: 'todo' },
    });
    expect(invalid.response.status).toBe(422);
    expect(invalid.data).toBeUndefined();
    expect(invalid.error && 'errors' in invalid.error ? invalid.error.errors.map((item) => item.pointer) : []).toEqual(['/body/title']);

    const removed = await client.DELETE('/tasks/{taskId}', { params: { path: { taskId: task.id } } });
    expect(removed.response.status).toBe(204);
    const missing = await client.GET('/tasks/{taskId}', { params: { path: { taskId: task.id } } });
    expect(missing.response.status).toBe(404);
    expect(missing.error).toMatchObject({ status: 404, title: expect.any(String) });
  }, 60_000);
});
