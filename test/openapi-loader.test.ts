/**
 * The OpenAPI loader: lowering the example API, the 3.0 dialect, multi-file and recursive refs,
 * naming and pagination, every corpus document, GitHub's REST description, and bad input, where
 * each message must name the exact `file:line:col`.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isMap, isSeq, LineCounter, parseDocument } from 'yaml';
import type { Node as YamlNode } from 'yaml';
import { describe, expect, it } from 'vitest';
import { CodegenError } from '../generators/core/diagnostics.js';
import type { ApiModel, Operation } from '../generators/openapi/model.js';
import type { JsonSchema, SchemaObject } from '../generators/core/schema/json-schema.js';
import { forEachSubschema, refName } from '../generators/core/schema/json-schema.js';
import { Documents } from '../generators/core/schema/json-documents.js';
import { loadOpenApi } from '../generators/openapi/load.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const FIXTURES = join(ROOT, 'test/fixtures/openapi');
const CORPUS = join(ROOT, '..', 'shared', 'corpus', 'openapi');
const OCTOKIT = join(ROOT, 'node_modules/@octokit/openapi/generated/api.github.com.json');

const load = (file: string) => loadOpenApi(join(ROOT, file), { displayRoot: ROOT });
const fixture = (name: string) => load(`test/fixtures/openapi/${name}`);

/** The CodegenError message loading `name` gives (`strict`: what is forgiven is an error too). */
async function failure(name: string, strict = false): Promise<string> {
  try {
    await loadOpenApi(join(FIXTURES, name), { displayRoot: ROOT, strict });
  } catch (cause) {
    expect(cause).toBeInstanceOf(CodegenError);
    return (cause as CodegenError).message;
  }
  throw new Error(`${name} loaded without an error`);
}

function schemaOf(model: ApiModel, name: string): SchemaObject {
  const found = model.schemas.find((schema) => schema.name === name);
  if (!found) throw new Error(`no schema ${name} in ${model.schemas.map((schema) => schema.name).join(', ')}`);
  return found.schema as SchemaObject;
}

function operation(model: ApiModel, name: string): Operation {
  const found = model.operations.find((op) => op.name === name);
  if (!found) throw new Error(`no operation ${name}`);
  return found;
}

/** Every `$ref` anywhere in the model names a schema of the model. */
function expectRefsResolve(model: ApiModel): void {
  const names = new Set(model.schemas.map((schema) => schema.name));
  const check = (schema: JsonSchema | undefined) => {
    if (schema === undefined) return;
    forEachSubschema(schema, (node) => {
      if (typeof node === 'object' && node.$ref !== undefined) expect(names.has(refName(node.$ref) ?? '')).toBe(true);
      if (typeof node === 'object' && node.discriminator?.mapping) {
        for (const ref of Object.values(node.discriminator.mapping)) expect(names.has(refName(ref) ?? '')).toBe(true);
      }
    });
  };
  model.schemas.forEach((schema) => check(schema.schema));
  for (const op of model.operations) {
    op.parameters.forEach((parameter) => check(parameter.schema));
    op.requestBody?.contents.forEach((content) => check(content.schema));
    for (const response of op.responses) {
      response.contents.forEach((content) => check(content.schema));
      response.headers.forEach((header) => check(header.schema));
    }
  }
}

describe('the example API (schemas/openapi/tasks.yaml)', async () => {
  const model = await load('schemas/openapi/tasks.yaml');

  it('fills the API-level fields', () => {
    expect(model.title).toBe('Tasks API');
    expect(model.version).toBe('1.0.0');
    expect(model.description).toMatch(/^A small task tracker/);
    expect(model.source).toBe('schemas/openapi/tasks.yaml');
    expect(model.servers).toEqual([{ url: 'https://api.example.com/v1', description: 'Production' }]);
    expect(model.security).toEqual([{ bearerAuth: [] }]);
    expect(model.securitySchemes).toEqual({ bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } });
  });

  it('names every schema: components, the shared file, and hoisted bodies', () => {
    expect(model.schemas.map((schema) => `${schema.name}:${schema.origin}`)).toEqual([
      'Assignee:component',
      'Attachment:component',
      'FieldError:component',
      'Label:component',
      'PersonAssignee:component',
      'Problem:component',
      'Project:component',
      'ProjectPage:component',
      'Task:component',
      'TaskPage:component',
      'TaskPatch:component',
      'TaskStatus:component',
      'TeamAssignee:component',
      'UploadAttachmentBody:operation',
      'ValidationProblem:component',
    ]);
    expect(operation(model, 'uploadAttachment').requestBody?.contents).toEqual([
      { mediaType: 'multipart/form-data', schema: { $ref: '#/$defs/UploadAttachmentBody' } },
    ]);
    expect(schemaOf(model, 'ValidationProblem').allOf?.[0]).toEqual({ $ref: '#/$defs/Problem' });
    expect(schemaOf(model, 'Problem')['x-location']).toEqual({ file: 'schemas/openapi/problem.yaml', line: 3, column: 3 });
    expectRefsResolve(model);
  });

  it('keeps readOnly, recursion and rewrites discriminator mappings', () => {
    const task = schemaOf(model, 'Task');
    expect(task.properties?.id).toEqual({ type: 'string', format: 'uuid', readOnly: true });
    expect(task.properties?.subtasks).toMatchObject({ type: 'array', items: { $ref: '#/$defs/Task' } });
    expect(task.properties?.estimateHours).toEqual({ type: 'number', exclusiveMinimum: 0, multipleOf: 0.25 });
    expect(schemaOf(model, 'Assignee').discriminator).toEqual({
      propertyName: 'kind',
      mapping: { person: '#/$defs/PersonAssignee', team: '#/$defs/TeamAssignee' },
    });
    expect(schemaOf(model, 'Problem').properties?.type).toMatchObject({ examples: ['https://example.com/problems/not-found'] });
  });

  it('sorts operations by path, then method', () => {
    expect(model.operations.map((op) => `${op.method} ${op.path} ${op.name}`)).toEqual([
      'get /projects listProjects',
      'post /projects createProject',
      'get /projects/{projectId} getProject',
      'delete /projects/{projectId} deleteProject',
      'get /projects/{projectId}/tasks listProjectTasks',
      'post /projects/{projectId}/tasks createTask',
      'get /tasks/{taskId} getTask',
      'put /tasks/{taskId} replaceTask',
      'delete /tasks/{taskId} deleteTask',
      'patch /tasks/{taskId} updateTask',
      'post /tasks/{taskId}/attachments uploadAttachment',
    ]);
    expect(operation(model, 'listProjects').location).toEqual({ file: 'schemas/openapi/tasks.yaml', line: 20, column: 5 });
  });

  it('detects cursor and page pagination', () => {
    expect(operation(model, 'listProjectTasks').pagination).toEqual({
      kind: 'cursor',
      cursorParam: 'cursor',
      limitParam: 'limit',
      itemsProperty: 'items',
      nextCursorProperty: 'nextCursor',
    });
    expect(operation(model, 'listProjects').pagination).toEqual({
      kind: 'page',
      pageParam: 'page',
      pageSizeParam: 'pageSize',
      itemsProperty: 'items',
    });
    expect(operation(model, 'getTask').pagination).toBeUndefined();
  });

  it('merges path-level parameters and applies serialisation defaults', () => {
    const list = operation(model, 'listProjectTasks');
    expect(list.parameters.map((parameter) => `${parameter.in}:${parameter.name}`)).toEqual([
      'path:projectId',
      'query:cursor',
      'query:limit',
      'query:sort',
      'query:filter[status]',
      'query:filter[assignee]',
      'query:fields',
    ]);
    expect(list.parameters[0]).toEqual({
      name: 'projectId',
      in: 'path',
      required: true,
      schema: { type: 'string', format: 'uuid' },
      style: 'simple',
      explode: false,
    });
    expect(list.parameters.find((parameter) => parameter.name === 'filter[status]')).toMatchObject({
      schema: { $ref: '#/$defs/TaskStatus' },
      style: 'form',
      explode: true,
      required: false,
    });
    expect(list.parameters.find((parameter) => parameter.name === 'fields')).toMatchObject({ style: 'form', explode: false });
    expect(operation(model, 'createProject').parameters).toEqual([
      expect.objectContaining({ name: 'Idempotency-Key', in: 'header', style: 'simple', explode: false, required: false }),
    ]);
  });

  it('resolves shared responses and headers, sorted by status', () => {
    const create = operation(model, 'createProject');
    expect(create.responses.map((response) => response.status)).toEqual(['201', '401', '403', '422', '429', 'default']);
    expect(create.responses[0].headers).toEqual([
      { name: 'Location', required: true, description: 'URL of the new project.', schema: { type: 'string', format: 'uri-reference' } },
    ]);
    expect(create.responses[3].contents).toEqual([
      { mediaType: 'application/problem+json', schema: { $ref: '#/$defs/ValidationProblem' } },
    ]);
    expect(create.responses[4].headers[0]).toMatchObject({ name: 'Retry-After', required: true, schema: { type: 'integer' } });
    const get = operation(model, 'getProject');
    expect(get.responses[0].headers.map((header) => header.name)).toEqual(['ETag', 'Last-Modified', 'Cache-Control']);
    expect(get.responses[1]).toEqual({
      status: '304',
      description: 'Not modified since the `If-None-Match` / `If-Modified-Since` given.',
      contents: [],
      headers: [],
    });
    expect(get.security).toBeUndefined();
  });

  it('is deterministic', async () => {
    expect(JSON.stringify(await load('schemas/openapi/tasks.yaml'))).toBe(JSON.stringify(model));
  });
});

describe('OpenAPI 3.0 dialect', async () => {
  const model = await fixture('dialect-30.yaml');
  const pet = schemaOf(model, 'Pet');

  it('turns nullable into a null type, also in enums, and wraps refs and allOf', () => {
    expect(pet.properties?.name).toEqual({ type: ['string', 'null'], examples: ['Rex'] });
    expect(pet.properties?.color).toEqual({ type: ['string', 'null'], enum: ['black', 'white', null] });
    expect(pet.properties?.previousOwner).toEqual({
      description: 'who had it before',
      anyOf: [{ allOf: [{ $ref: '#/$defs/Owner' }] }, { type: 'null' }],
    });
  });

  it('makes boolean exclusive bounds numeric and keeps $ref siblings via allOf', () => {
    expect(pet.properties?.weight).toEqual({ type: 'number', exclusiveMinimum: 0, maximum: 100 });
    expect(pet.properties?.vet).toEqual({ description: 'sibling of a $ref', allOf: [{ $ref: '#/$defs/Owner' }] });
  });

  it('drops x- keys and rewrites bare discriminator mapping names', () => {
    expect(Object.keys(pet)).not.toContain('x-tags');
    expect(schemaOf(model, 'Kind').discriminator).toEqual({ propertyName: 'type', mapping: { cat: '#/$defs/Cat', dog: '#/$defs/Dog' } });
  });

  it('merges parameters (operation wins), ignores Accept, substitutes server variables', () => {
    const list = operation(model, 'listPets');
    expect(list.parameters.map((parameter) => parameter.name)).toEqual(['limit', 'X-Trace', 'ids']);
    expect(list.parameters[0]).toMatchObject({ description: 'overrides the path-level one', schema: { type: ['integer', 'null'] } });
    expect(list.parameters[2]).toMatchObject({ style: 'pipeDelimited', explode: false });
    expect(model.servers).toEqual([{ url: 'https://eu.example.com/v1' }]);
    expect(model.version).toBe('2.1');
  });

  it('sorts statuses: numbers, ranges, default; names hoisted responses after the operation', () => {
    const list = operation(model, 'listPets');
    expect(list.responses.map((response) => response.status)).toEqual(['200', '201', '404', '4XX', 'default']);
    expect(list.responses[0].contents[0].schema).toEqual({ $ref: '#/$defs/ListPets200Response' });
    expect(list.responses[4].contents[0].schema).toEqual({ $ref: '#/$defs/ListPetsDefaultResponse' });
    expect(schemaOf(model, 'ListPets200Response')).toMatchObject({ type: 'array', items: { $ref: '#/$defs/Pet' } });
  });
});

describe('multi-file references', async () => {
  const model = await fixture('multi/root.yaml');

  it('resolves refs relative to the file they are written in, deduplicated by target', () => {
    expect(model.schemas.map((schema) => schema.name)).toEqual([
      'ABCD',
      'LimitValue',
      'ListPets200Response',
      'Person',
      'Pet',
      'Pet2',
      'ProblemResponse',
      'Tag',
      'Tree',
      'Tree2',
      'Weird',
    ]);
    // models.yaml#/Pet is one schema, whether reached from root.yaml, ./common/models.yaml or people.json.
    expect(schemaOf(model, 'Pet')).toMatchObject({ description: 'Local alias of the shared Pet.', allOf: [{ $ref: '#/$defs/Pet2' }] });
    expect(schemaOf(model, 'Pet2').properties).toMatchObject({ tag: { $ref: '#/$defs/Tag' }, owner: { $ref: '#/$defs/Person' } });
    expect(schemaOf(model, 'Person').properties?.pets).toEqual({ type: 'array', items: { $ref: '#/$defs/Pet2' } });
    expect(operation(model, 'createPet').responses[0].contents[0].schema).toEqual({ $ref: '#/$defs/Pet2' });
    expect(schemaOf(model, 'Person')['x-location']).toEqual({
      file: 'test/fixtures/openapi/multi/common/people.json',
      line: 3,
      column: 15,
    });
    expectRefsResolve(model);
  });

  it('decodes ~0, ~1 and percent-encoding in pointers', () => {
    expect(schemaOf(model, 'Weird')).toMatchObject({ $ref: '#/$defs/ABCD' });
    expect(schemaOf(model, 'ABCD')).toMatchObject({ type: 'integer' });
  });

  it('resolves parameters, request bodies and responses from other files', () => {
    const list = operation(model, 'listPets');
    expect(list.parameters).toEqual([
      { name: 'limit', in: 'query', required: false, schema: { $ref: '#/$defs/LimitValue' }, style: 'form', explode: true },
    ]);
    expect(list.responses[1].contents).toEqual([{ mediaType: 'application/problem+json', schema: { $ref: '#/$defs/ProblemResponse' } }]);
    expect(operation(model, 'createPet').requestBody).toEqual({
      required: true,
      contents: [{ mediaType: 'application/json', schema: { $ref: '#/$defs/Pet2' } }],
    });
  });

  it('supports recursion, including a whole-file self reference', () => {
    expect(schemaOf(model, 'Tree')).toMatchObject({ $ref: '#/$defs/Tree2' });
    expect(schemaOf(model, 'Tree2').properties?.children).toEqual({ type: 'array', items: { $ref: '#/$defs/Tree2' } });
  });
});

describe('naming and pagination', async () => {
  const model = await fixture('naming.yaml');

  it('derives names from method and path, and keeps them unique', () => {
    expect(model.operations.map((op) => op.name)).toEqual([
      'getRoot',
      'getFeed',
      'getFeed2',
      'listProjectsByProjectIdTasks',
      'postProjectsByProjectIdTasks',
      'deleteTasksByTaskId',
    ]);
    expect(operation(model, 'getFeed2').operationId).toBe('get-feed');
    expect(model.schemas.map((schema) => schema.name)).toEqual([
      'EventPage',
      'GetFeed200Response',
      'GetFeed2200Response',
      'ListProjectsByProjectIdTasks200Response',
      'PostProjectsByProjectIdTasks201Response',
      'PostProjectsByProjectIdTasks4XXResponse',
      'PostProjectsByProjectIdTasksBody',
    ]);
  });

  it('detects per_page pagination and honours x-pagination', () => {
    expect(operation(model, 'listProjectsByProjectIdTasks').pagination).toEqual({
      kind: 'page',
      pageParam: 'page',
      pageSizeParam: 'per_page',
    });
    expect(operation(model, 'getFeed2').pagination).toEqual({
      kind: 'cursor',
      cursorParam: 'after',
      limitParam: 'first',
      itemsProperty: 'entries',
      nextCursorProperty: 'endCursor',
    });
    expect(operation(model, 'getFeed').pagination).toBeUndefined(); // x-pagination: false
  });
});

describe('hostile names load as data', async () => {
  const model = await fixture('hostile.yaml');

  it('keeps odd property names exactly, as own properties', () => {
    const proto = schemaOf(model, 'Proto');
    expect(Object.getPrototypeOf(proto.properties)).toBe(Object.prototype);
    expect(Object.keys(proto.properties ?? {})).toEqual([
      '__proto__',
      'constructor',
      `it's "quoted"`,
      'back`tick`${x}',
      '*/ alert(1) /*',
      'hasOwnProperty',
    ]);
    expect(Object.getOwnPropertyDescriptor(proto.properties, '__proto__')?.value).toEqual({ type: 'string' });
    expect(proto.properties?.hasOwnProperty).toEqual({ $ref: '#/$defs/Constructor' });
    expect(proto.required).toEqual(['__proto__', `it's "quoted"`]);
  });

  it('gives schemas safe PascalCase names', () => {
    expect(model.schemas.map((schema) => schema.name)).toEqual(['AB', 'Constructor', 'NameWithSpaces', 'Proto', 'ToString', '_123start']);
    expect(operation(model, 'getThingsByThingId').responses[0].contents[0].schema).toEqual({ $ref: '#/$defs/Proto' });
    expectRefsResolve(model);
  });
});

describe('corpus: ../shared/corpus/openapi', () => {
  const files = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? files(join(dir, entry.name)) : /\.(ya?ml|json)$/.test(entry.name) ? [join(dir, entry.name)] : [],
    );
  const all = files(CORPUS).sort();

  for (const file of all.filter((name) => !name.includes('/v2.0/'))) {
    it(`loads ${relative(CORPUS, file)}`, async () => {
      const model = await loadOpenApi(file, { displayRoot: CORPUS });
      expect(model.source).toBe(relative(CORPUS, file));
      expect(model.title).not.toBe('');
      expectRefsResolve(model);
      if (file.includes('webhook-example')) {
        expect(model.operations).toEqual([]);
        expect(model.schemas.map((schema) => schema.name)).toEqual(['Pet']);
      } else expect(model.operations.length).toBeGreaterThan(0);
      if (file.includes('ceph')) expect(model.operations.length).toBeGreaterThan(100);
    });
  }

  it("reads Swagger 2.0, with the 2.0 file's own positions", async () => {
    const swagger = all.find((name) => name.includes('/v2.0/'))!;
    const model = await loadOpenApi(swagger, { displayRoot: CORPUS });
    expect(model.servers).toEqual([{ url: 'http://petstore.swagger.io/v1' }]);
    expect(model.operations.map((op) => op.name)).toEqual(['listPets', 'createPets', 'showPetById']);
    expect(model.operations[0].location).toEqual({ file: 'oai-examples/v2.0/petstore.yaml', line: 17, column: 5 });
    expect(schemaOf(model, 'Pet')['x-location']).toEqual({ file: 'oai-examples/v2.0/petstore.yaml', line: 77, column: 5 });
    expectRefsResolve(model);
  });
});

describe("GitHub's REST description (12 MB, OpenAPI 3.0)", () => {
  it('loads', async () => {
    const model = await loadOpenApi(OCTOKIT, { displayRoot: ROOT });
    expect(model.operations.length).toBeGreaterThan(900);
    expect(new Set(model.operations.map((op) => op.name)).size).toBe(model.operations.length);
    expect(schemaOf(model, 'SimpleUser').properties?.email).toMatchObject({ type: ['string', 'null'] });
    expectRefsResolve(model);
  }, 30_000);
});

describe('bad input: every message names file:line:col', () => {
  const cases: [string, RegExp][] = [
    ['broken.yaml', /^test\/fixtures\/openapi\/broken\.yaml:8:3: error: invalid YAML: /],
    ['broken.json', /^test\/fixtures\/openapi\/broken\.json:6:5: error: invalid JSON: /],
    [
      'dangling-local.yaml',
      /^test\/fixtures\/openapi\/dangling-local\.yaml:15:23: error: \$ref "#\/components\/schemas\/Pets" points to nothing.*\n  hint: did you mean "Pet"\?/,
    ],
    ['dangling.json', /^test\/fixtures\/openapi\/dangling\.json:10:96: error: \$ref "#\/components\/schemas\/Pett" points to nothing/],
    [
      'dangling-file.yaml',
      /^test\/fixtures\/openapi\/dangling-file\.yaml:12:17: error: \$ref "\.\/missing\.yaml#\/Owner" points to a file that cannot be read \(cannot read test\/fixtures\/openapi\/missing\.yaml: no such file\)/,
    ],
    [
      'wrong-types.yaml',
      /^test\/fixtures\/openapi\/wrong-types\.yaml:10:17: error: "required" must be a list of property names, not the string "name"\n/,
    ],
    [
      'swagger.json',
      /^test\/fixtures\/openapi\/swagger\.json:6:67: error: \$ref "#\/definitions\/Owner" points to nothing: .* no "Owner" under #\/definitions\n  hint: did you mean "Owners"\?\ntest\/fixtures\/openapi\/swagger\.json:7:53: error: \$ref "#\/definitions\/Owner"/,
    ],
    ['cycle.yaml', /^test\/fixtures\/openapi\/cycle\.yaml:9:13: error: \$ref cycle: A → B → A never reaches a schema/],
    [
      'param-cycle.yaml',
      /^test\/fixtures\/openapi\/param-cycle\.yaml:18:13: error: \$ref "#\/components\/parameters\/P" is part of a cycle/,
    ],
    [
      'remote-ref.yaml',
      /^test\/fixtures\/openapi\/remote-ref\.yaml:9:13: error: remote \$ref "https:\/\/example\.com\/schemas\/pet\.json" is not supported\n  hint: download the file/,
    ],
    ['version-number.yaml', /^test\/fixtures\/openapi\/version-number\.yaml:1:10: error: "openapi" must be a version string/],
    [
      'not-openapi.yaml',
      /^test\/fixtures\/openapi\/not-openapi\.yaml:1:1: error: .* is not an OpenAPI document: it has no "openapi" field/,
    ],
    ['yaml-alias-cycle.yaml', /^test\/fixtures\/openapi\/yaml-alias-cycle\.yaml:\d+:\d+: error: schema nested more than 256 levels deep/],
  ];
  for (const [name, expected] of cases) {
    it(name, async () => {
      expect(await failure(name)).toMatch(expected);
    });
  }

  it('strict: what is forgiven otherwise (test/forgiving.test.ts) is an error, in file order with the rest', async () => {
    expect(await failure('duplicate-id.yaml', true)).toMatch(
      /^test\/fixtures\/openapi\/duplicate-id\.yaml:14:20: error: duplicate operationId "listPets" \(also used at test\/fixtures\/openapi\/duplicate-id\.yaml:8:20\); this operation is named listPets2\n/,
    );
    expect((await failure('wrong-types.yaml', true)).split('\n').slice(0, 3)).toEqual([
      'test/fixtures/openapi/wrong-types.yaml:9:13: error: "type: strng" is not a JSON Schema type; read as a schema of any type',
      '  hint: did you mean "string"? "type" is one of string, number, integer, boolean, object, array, null, or leave it out for any value',
      'test/fixtures/openapi/wrong-types.yaml:10:17: error: "required" must be a list of property names, not the string "name"',
    ]);
  });

  it('reports several problems at once, in file order', async () => {
    const lines = (await failure('wrong-types.yaml')).split('\n').filter((line) => !line.startsWith('  hint'));
    expect(lines).toEqual([
      'test/fixtures/openapi/wrong-types.yaml:10:17: error: "required" must be a list of property names, not the string "name"',
      'test/fixtures/openapi/wrong-types.yaml:11:19: error: "properties" must be an object mapping names to schemas, not a list',
      'test/fixtures/openapi/wrong-types.yaml:14:16: error: "minimum" must be a number, not the string "a"',
      'test/fixtures/openapi/wrong-types.yaml:15:18: error: "maxLength" must be a whole number of 0 or more, not the number -1',
    ]);
    const dangling = await failure('dangling-file.yaml');
    expect(dangling).toContain(
      'test/fixtures/openapi/dangling-file.yaml:14:17: error: $ref "multi/common/models.yaml#/Tagg" points to nothing',
    );
  });

  it('checks path parameters against the path template', async () => {
    const message = await failure('path-params.yaml');
    expect(message).toContain(
      'test/fixtures/openapi/path-params.yaml:7:5: error: GET /pets/{petId}: path parameter "petId" is not declared',
    );
    expect(message).toContain(
      'test/fixtures/openapi/path-params.yaml:12:5: error: GET /owners/{ownerId}: path parameter "id" does not appear in the path',
    );
  });

  it('checks security requirements name declared schemes', async () => {
    const message = await failure('unknown-scheme.yaml');
    expect(message).toContain(
      'test/fixtures/openapi/unknown-scheme.yaml:6:5: error: security scheme "bearer" is not defined in components.securitySchemes\n  hint: did you mean "bearerAuth"?',
    );
    expect(message).toContain('test/fixtures/openapi/unknown-scheme.yaml:11:11: error: security scheme "apiKey" is not defined');
  });

  it('a missing input file', async () => {
    await expect(fixture('nope.yaml')).rejects.toThrow(/cannot read test\/fixtures\/openapi\/nope\.yaml: no such file/);
  });

  it('hostile nesting stops with an error, not a stack overflow', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'codegen-openapi-'));
    let schema = '{"type":"string"}';
    for (let i = 0; i < 5000; i++) schema = `{"type":"array","items":${schema}}`;
    writeFileSync(
      join(dir, 'deep.json'),
      `{"openapi":"3.1.0","info":{"title":"Deep","version":"1"},"components":{"schemas":{"Deep":${schema}}}}`,
    );
    await expect(loadOpenApi(join(dir, 'deep.json'), { displayRoot: dir })).rejects.toThrow(
      /^deep\.json:1:\d+: error: schema nested more than 256 levels deep/,
    );
  });
});

describe('positions in JSON, found lazily', () => {
  it('agree with the YAML parser for every value and key', () => {
    // Pretty-printed JSON of a real document, with awkward keys: both parsers must agree everywhere.
    const dir = mkdtempSync(join(tmpdir(), 'codegen-openapi-'));
    const data = parseDocument(readFileSync(join(FIXTURES, 'hostile.yaml'), 'utf8')).toJS();
    data.components.schemas['a"b\\c/d~e'] = { type: 'string', enum: ['x', 'y,"z"'] };
    const text = JSON.stringify(data, null, 2).replace(/\n {4}/g, '\n\t  ');
    writeFileSync(join(dir, 'doc.json'), text);
    const doc = new Documents(dir).open(join(dir, 'doc.json'));
    if (Array.isArray(doc)) throw new Error('did not parse');

    const lineCounter = new LineCounter();
    const yaml = parseDocument(text, { lineCounter });
    let checked = 0;
    const visit = (node: unknown, path: string[]) => {
      const position = (offset: number) => {
        const { line, col } = lineCounter.linePos(offset);
        return { file: 'doc.json', line, column: col };
      };
      if (isMap(node)) {
        for (const pair of node.items) {
          const key = String((pair.key as { value: unknown }).value);
          expect(doc.locate([...path, key], 'key')).toEqual(position((pair.key as YamlNode).range![0]));
          expect(doc.locate([...path, key])).toEqual(position((pair.value as YamlNode).range![0]));
          checked++;
          visit(pair.value, [...path, key]);
        }
      } else if (isSeq(node)) {
        node.items.forEach((item, i) => {
          expect(doc.locate([...path, String(i)])).toEqual(position((item as YamlNode).range![0]));
          visit(item, [...path, String(i)]);
        });
      }
    };
    visit(yaml.contents, []);
    expect(checked).toBeGreaterThan(50);
    // A pointer that goes nowhere gives its nearest existing ancestor.
    expect(doc.locate(['components', 'schemas', 'missing'])).toEqual(doc.locate(['components', 'schemas']));
  });
});
