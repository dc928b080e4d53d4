/**
 * The forgiving loader (issue 14): each document in test/fixtures/forgiving breaks the spec in one
 * way that other tools read one obvious way. Each generates, with the exact located warning saying
 * what was assumed; the model holds that reading; all of the output type-checks under strict plus
 * STRICTEST with both compilers; and `--strict` (CLI flag, config key, API option) fails each
 * document with exit 1, the same messages as errors, and writes nothing.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { load as jsYamlLoad } from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CodegenError, formatDiagnostic, generate as generateApi, type Diagnostic } from '../generators/api.js';
import type { ApiConfig } from '../generators/core/config/config.js';
import { Documents } from '../generators/core/schema/json-documents.js';
import { generate } from '../generators/core/pipeline/generate.js';
import type { ApiModel, Operation } from '../generators/openapi/model.js';
import type { SchemaObject } from '../generators/core/schema/json-schema.js';
import { applyPlan, planWrites } from '../generators/core/pipeline/writer.js';
import { loadOpenApi } from '../generators/openapi/load.js';
import { codegen, ROOT } from './support/cli.js';
import { transpileFolder, writeFiles } from './support/client-generate.js';
import { generateFiles } from './support/generate.js';
import { start, type Listener, type Running } from './support/server-module.js';
import { tempDir } from './support/tmp.js';
import { COMPILERS, STRICTEST, typecheck } from './support/typecheck.js';

const DIR = 'test/fixtures/forgiving';

/** Each fixture and the warnings it must give, exactly. */
const WARNINGS: Record<string, string[]> = {
  'docker-quoted-yaml.yaml': [
    `${DIR}/docker-quoted-yaml.yaml:33:95: warning: YAML 1.2 refuses this (Missing closing "quote); read as js-yaml reads it: a multi-line quoted string continues on a line indented no deeper than its key (2 such strings in this file)\n  hint: indent the continuation lines deeper than the key, or write the text as a block scalar (description: >-)`,
  ],
  // The real thing: Docker Engine API v1.38 as moby publishes it (docker/README.md).
  'docker/engine-api-v1.38.yaml': [
    `${DIR}/docker/engine-api-v1.38.yaml:821:78: warning: YAML 1.2 refuses this (Missing closing "quote); read as js-yaml reads it: a multi-line quoted string continues on a line indented no deeper than its key (5 such strings in this file)\n  hint: indent the continuation lines deeper than the key, or write the text as a block scalar (description: >-)`,
  ],
  'path-query.yaml': [
    `${DIR}/path-query.yaml:8:3: warning: path "/uploads?convert={convert}" has a query string, which is not part of an OpenAPI path; read as path "/uploads" with query parameter "convert"\n  hint: write the path as "/uploads" and declare the query parameters under parameters, with in: query`,
    `${DIR}/path-query.yaml:26:3: warning: path "/search?term={term}&amount={amount}&view=full" has a query string, which is not part of an OpenAPI path; read as path "/search" with query parameters "term", "amount", "view"\n  hint: write the path as "/search" and declare the query parameters under parameters, with in: query`,
  ],
  'composition-object.yaml': [
    `${DIR}/composition-object.yaml:33:9: warning: "allOf" must be a list of schemas, not an object; read as a list of this one schema\n  hint: write allOf: [ ... ] (in YAML, a "- " before the schema)`,
    `${DIR}/composition-object.yaml:37:13: warning: "oneOf" must be a list of schemas, not an object; read as a list of this one schema\n  hint: write oneOf: [ ... ] (in YAML, a "- " before the schema)`,
    `${DIR}/composition-object.yaml:40:13: warning: "anyOf" must be a list of schemas, not an object; read as a list of this one schema\n  hint: write anyOf: [ ... ] (in YAML, a "- " before the schema)`,
  ],
  'unknown-type.yaml': [
    `${DIR}/unknown-type.yaml:28:17: warning: "type: date" is not a JSON Schema type; read as a schema of any type\n  hint: write type: string with format: date`,
    `${DIR}/unknown-type.yaml:30:26: warning: "type: any" is not a JSON Schema type; read as a schema of any type\n  hint: leave "type" out: a schema without one takes any value`,
  ],
  'required-true.yaml': [
    `${DIR}/required-true.yaml:29:21: warning: "required: true" on property "name" is not JSON Schema (a Swagger 2.0 habit); read as required: [name] on its parent schema\n  hint: write required: [name] beside "properties", and remove "required" from the property`,
    `${DIR}/required-true.yaml:32:21: warning: "required: false" on property "nickname" is not JSON Schema; ignored (the property is optional)\n  hint: remove it: a property is optional unless its parent lists it under required`,
  ],
  'duplicate-operation-id.yaml': [
    `${DIR}/duplicate-operation-id.yaml:21:20: warning: duplicate operationId "getTask" (also used at ${DIR}/duplicate-operation-id.yaml:9:20); this operation is named getTask2\n  hint: every operationId must be unique in the API: rename one of them`,
  ],
};
const FIXTURES = Object.keys(WARNINGS);

async function read(name: string): Promise<{ model: ApiModel; warnings: Diagnostic[] }> {
  let warnings: Diagnostic[] = [];
  const model = await loadOpenApi(join(ROOT, DIR, name), { displayRoot: ROOT, onWarnings: (found) => (warnings = found) });
  return { model, warnings };
}

function schema(model: ApiModel, name: string): SchemaObject {
  const found = model.schemas.find((named) => named.name === name)?.schema;
  if (typeof found !== 'object') throw new Error(`no schema ${name}`);
  return found;
}

function operation(model: ApiModel, name: string): Operation {
  const found = model.operations.find((op) => op.name === name);
  if (!found) throw new Error(`no operation ${name} in ${model.operations.map((op) => op.name).join(', ')}`);
  return found;
}

const errorsOf = (warnings: string[]) => warnings.map((text) => text.replace(': warning: ', ': error: '));

describe('forgiving loader: each case reads one obvious way, with a located warning', () => {
  for (const name of FIXTURES) {
    it(`${name}: the exact warnings, in file order`, async () => {
      const { warnings } = await read(name);
      expect(warnings.map(formatDiagnostic)).toEqual(WARNINGS[name]);
    });
  }

  it('docker-quoted-yaml.yaml: `yaml` alone refuses it; the lenient read equals js-yaml and keeps every position', async () => {
    const file = join(ROOT, DIR, 'docker-quoted-yaml.yaml');
    const strict = new Documents(ROOT).open(file);
    expect(Array.isArray(strict) && strict[0] ? formatDiagnostic(strict[0]) : strict).toMatch(
      /^test\/fixtures\/forgiving\/docker-quoted-yaml\.yaml:33:95: error: invalid YAML: Missing closing "quote/,
    );
    const text = readFileSync(file, 'utf8');
    const lenient = new Documents(ROOT, undefined, { lenientYaml: true }).open(file);
    if (Array.isArray(lenient)) throw new Error(lenient.map(formatDiagnostic).join('\n'));
    expect(lenient.data).toEqual(jsYamlLoad(text));
    // Positions after (and on) the repaired lines are those of the original text.
    const lineOf = (needle: string) => text.split('\n').findIndex((line) => line.includes(needle)) + 1;
    expect(lenient.locate(['paths', '/containers/{id}/ports', 'get', 'operationId'])).toEqual({
      file: `${DIR}/docker-quoted-yaml.yaml`,
      line: lineOf('operationId: ContainerPorts'),
      column: 20,
    });
    expect(lenient.locate(['definitions', 'ContainerState', 'properties', 'Running', 'type'])).toEqual({
      file: `${DIR}/docker-quoted-yaml.yaml`,
      line: lineOf('type: boolean'),
      column: 15,
    });
    const docker = join(ROOT, DIR, 'docker/engine-api-v1.38.yaml');
    const engine = new Documents(ROOT, undefined, { lenientYaml: true }).open(docker);
    expect(Array.isArray(engine) ? engine : engine.data).toEqual(jsYamlLoad(readFileSync(docker, 'utf8')));
    const { model } = await read('docker-quoted-yaml.yaml');
    expect(schema(model, 'ContainerState').properties?.Status).toEqual({
      type: 'string',
      description:
        'String representation of the container state. Can be one of "created", "running", "paused", "restarting", "removing", "exited", or "dead".',
    });
    expect((schema(model, 'ContainerState').properties?.Running as SchemaObject).description).toBe(
      'Whether this container is running.\nNote that a running container can be _paused_.',
    );
  });

  it('the same repair for single-quoted strings, a closing quote at column 1, quoted keys and list entries', () => {
    const dir = tempDir('codegen-forgiving-');
    const file = join(dir, 'quotes.yaml');
    const text = [
      'paths:',
      '  /architectures:',
      '    get:',
      "      description: 'Get the architectures known to OBS.",
      "      It''s not this instance''s list.",
      '',
      "'",
      '      "x-quoted key": "one',
      '      two"',
      'tags:',
      '  - "first',
      '  entry"',
      '  - name: "second',
      '    entry"',
      '',
    ].join('\n');
    writeFileSync(file, text);
    const docs = new Documents(dir, undefined, { lenientYaml: true });
    const opened = docs.open(file);
    if (Array.isArray(opened)) throw new Error(opened.map(formatDiagnostic).join('\n'));
    expect(opened.data).toEqual(jsYamlLoad(text));
    expect(opened.data).toEqual({
      paths: {
        '/architectures': {
          get: { description: "Get the architectures known to OBS. It's not this instance's list.\n", 'x-quoted key': 'one two' },
        },
      },
      tags: ['first entry', { name: 'second entry' }],
    });
    expect(docs.warnings.map((warning) => formatDiagnostic(warning).split('\n')[0])).toEqual([
      "quotes.yaml:4:56: warning: YAML 1.2 refuses this (Missing closing 'quote); read as js-yaml reads it: a multi-line quoted string continues on a line indented no deeper than its key (4 such strings in this file)",
    ]);
    expect(opened.locate(['tags', '1', 'name'])).toMatchObject({ line: 13, column: 11 });
  });

  it("YAML that js-yaml refuses too is still refused, with `yaml`'s located error", () => {
    const dir = tempDir('codegen-forgiving-');
    const file = join(dir, 'bad.yaml');
    writeFileSync(file, 'a:\n  b: "never closed\n  c: 1\n');
    const opened = new Documents(dir, undefined, { lenientYaml: true }).open(file);
    expect(Array.isArray(opened) && opened.map(formatDiagnostic)[0]).toMatch(/^bad\.yaml:\d+:\d+: error: invalid YAML: /);
  });

  it('path-query.yaml: the path before "?", query parameters merged with the declared ones', async () => {
    const { model } = await read('path-query.yaml');
    const upload = operation(model, 'createUpload');
    expect([upload.method, upload.path]).toEqual(['post', '/uploads']);
    // Declared as a path parameter: moved to the query, keeping its schema.
    expect(upload.parameters).toEqual([
      { name: 'convert', in: 'query', required: true, schema: { type: 'boolean' }, style: 'form', explode: true },
    ]);
    const search = operation(model, 'search');
    expect(search.path).toBe('/search');
    expect(search.parameters).toEqual([
      { name: 'term', in: 'query', required: true, schema: { type: 'string' }, style: 'form', explode: true },
      { name: 'amount', in: 'query', required: true, schema: { type: 'string' }, style: 'form', explode: true },
      { name: 'view', in: 'query', required: true, schema: { type: 'string', enum: ['full'] }, style: 'form', explode: true },
    ]);
  });

  it('a query string in a path key that also names a path without one, same method: refused (two operations on one route)', async () => {
    const dir = tempDir('codegen-forgiving-');
    const file = join(dir, 'clash.yaml');
    writeFileSync(
      file,
      [
        'openapi: 3.0.3',
        'info: { title: t, version: "1" }',
        'paths:',
        '  /search:',
        '    get: { responses: { "200": { description: ok } } }',
        '  /search?q={q}:',
        '    get: { responses: { "200": { description: ok } } }',
        '',
      ].join('\n'),
    );
    const failure = await loadOpenApi(file, { displayRoot: dir }).catch((cause: unknown) => cause);
    expect(failure).toBeInstanceOf(CodegenError);
    expect((failure as CodegenError).message).toBe(
      'clash.yaml:7:5: error: GET /search is declared twice: under "/search" and under "/search?q={q}"\n  hint: merge the two operations into one under "/search", with the query parameters under parameters',
    );
  });

  it('composition-object.yaml: allOf/oneOf/anyOf as a list of the one schema', async () => {
    const { model } = await read('composition-object.yaml');
    const dog = schema(model, 'Dog');
    expect(dog.allOf).toEqual([{ $ref: '#/$defs/Pet' }]);
    expect(dog.properties).toEqual({ owner: { oneOf: [{ type: 'string' }] }, tag: { anyOf: [{ type: 'integer' }] } });
  });

  it('unknown-type.yaml: an unknown type is no type (any value)', async () => {
    const { model } = await read('unknown-type.yaml');
    expect(schema(model, 'Event').properties).toEqual({ id: { type: 'string' }, happenedAt: {}, payload: {} });
  });

  it('required-true.yaml: required: true makes the property required in its parent; required: false is dropped', async () => {
    const { model } = await read('required-true.yaml');
    expect(schema(model, 'NewUser').required).toEqual(['email', 'name']);
    expect(schema(model, 'NewUser').properties).toEqual({
      email: { type: 'string' },
      name: { type: 'string' },
      nickname: { type: 'string' },
    });
  });

  it('required: true on a schema that is no property says nothing: ignored, with a warning', async () => {
    const dir = tempDir('codegen-forgiving-');
    const file = join(dir, 'api.yaml');
    writeFileSync(
      file,
      'openapi: 3.0.3\ninfo: { title: t, version: "1" }\npaths: {}\ncomponents:\n  schemas:\n    Id:\n      type: string\n      required: true\n',
    );
    let warnings: Diagnostic[] = [];
    const model = await loadOpenApi(file, { displayRoot: dir, onWarnings: (found) => (warnings = found) });
    expect(warnings.map(formatDiagnostic)).toEqual([
      'api.yaml:8:17: warning: "required: true" outside "properties" says nothing about this schema; ignored\n  hint: list required properties on their object schema: required: [name]; remove this one',
    ]);
    expect(schema(model, 'Id')).toMatchObject({ type: 'string' });
    expect(schema(model, 'Id').required).toBeUndefined();
  });

  it('duplicate-operation-id.yaml: the first written keeps the name, the next is numbered', async () => {
    const { model } = await read('duplicate-operation-id.yaml');
    expect(model.operations.map((op) => [op.path, op.name])).toEqual([
      ['/archive/tasks/{taskId}', 'getTask2'],
      ['/tasks/{taskId}', 'getTask'],
    ]);
  });
});

describe('forgiving loader: what it generates type-checks', async () => {
  const out = tempDir('codegen-forgiving-out-');
  writeFileSync(join(out, 'package.json'), '{ "type": "module" }\n');
  const apis: ApiConfig[] = FIXTURES.map((name) => ({
    name,
    inputs: [join(ROOT, DIR, name)],
    style: 'openapi',
    documents: [],
    output: join(out, name.replace(/\.yaml$/, '')),
    emit: ['types', 'validators', 'client', 'server'],
    options: {},
    root: ROOT,
  }));
  const sets = await generate(apis);
  await applyPlan(await planWrites(sets));

  it('every fixture gives types, a client and a server (validators where it has schemas), and its warnings', () => {
    for (const [index, set] of sets.entries()) {
      const withSchemas = FIXTURES[index] !== 'duplicate-operation-id.yaml';
      expect(set.files.map((file) => file.path)).toEqual(
        expect.arrayContaining(['types.ts', 'client.ts', 'server.ts', ...(withSchemas ? ['validators.js'] : [])]),
      );
      expect((set.warnings ?? []).map(formatDiagnostic)).toEqual(WARNINGS[FIXTURES[index] as string]);
    }
  });
  for (const [name, compiler] of Object.entries(COMPILERS)) {
    it(`all of it type-checks under strict plus STRICTEST (${name})`, () => {
      expect(typecheck(out, compiler, 'node+dom', undefined, STRICTEST).output).toBe('');
    });
  }
});

describe('path-query.yaml: the generated server and client agree on the reading, over a real socket', () => {
  mkdirSync(join(ROOT, '.vitest-tmp'), { recursive: true });
  const out = mkdtempSync(join(ROOT, '.vitest-tmp', 'forgiving-'));
  let server: Running;

  beforeAll(async () => {
    writeFiles(out, await generateFiles(`${DIR}/path-query.yaml`, ['types', 'validators', 'client', 'server']));
    writeFileSync(
      join(out, 'usage.ts'),
      [
        'import { createServer } from "./server.js";',
        'export function listener() {',
        '  return createServer({',
        '    search: (request) => ({ status: 200, body: [request.term, request.amount, request.view] }),',
        '    createUpload: (request) => ({ status: 201, headers: { "x-convert": String(request.convert) } }),',
        '  });',
        '}',
        '',
      ].join('\n'),
    );
    writeFileSync(join(out, 'package.json'), '{ "type": "module" }\n');
    for (const [name, compiler] of Object.entries(COMPILERS)) {
      expect(typecheck(out, compiler, 'node', undefined, STRICTEST).output, name).toBe('');
    }
    transpileFolder(out);
    const usage = (await import(pathToFileURL(join(out, 'usage.js')).href)) as { listener(): Listener };
    server = await start(usage.listener());
  }, 120_000);

  afterAll(async () => {
    await server?.close();
    rmSync(out, { recursive: true, force: true });
  });

  it('the server routes /search and /uploads and reads the query parameters the path keys named', async () => {
    const found = await fetch(`${server.url}/search?term=a%20b&amount=3&view=full`);
    expect(found.status).toBe(200);
    expect(await found.json()).toEqual(['a b', '3', 'full']);
    // A value that breaks the schema is 422, one that cannot be parsed 400, each naming the parameter.
    const other = await fetch(`${server.url}/search?term=a&amount=3&view=other`);
    expect([other.status, JSON.stringify(await other.json())]).toEqual([422, expect.stringContaining('view')]);
    const missing = await fetch(`${server.url}/search?term=a&view=full`);
    expect([missing.status, JSON.stringify(await missing.json())]).toEqual([422, expect.stringContaining('amount')]);
    const upload = await fetch(`${server.url}/uploads?convert=true`, {
      method: 'POST',
      body: new Uint8Array([1, 2]),
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect([upload.status, upload.headers.get('x-convert')]).toEqual([201, 'true']);
    const wrong = await fetch(`${server.url}/uploads?convert=maybe`, {
      method: 'POST',
      body: new Uint8Array([1]),
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect([wrong.status, JSON.stringify(await wrong.json())]).toEqual([400, expect.stringContaining('/query/convert')]);
  });

  it('the generated client sends them', async () => {
    type Call = (params?: unknown) => Promise<unknown>;
    const lib = (await import(pathToFileURL(join(out, 'client.js')).href)) as {
      createClient(options: Record<string, unknown>): Record<string, Call>;
    };
    const client = lib.createClient({ baseUrl: server.url, retry: false });
    expect(await client.search!({ term: 'x&y', amount: '7', view: 'full' })).toEqual(['x&y', '7', 'full']);
    await expect(client.createUpload!({ convert: false, body: new Uint8Array([1]) })).resolves.toBeUndefined();
  });
});

describe('--strict: every forgiven case fails, through the real CLI', () => {
  for (const name of FIXTURES) {
    it(`${name}: exit 1, the warnings as errors, nothing written; without --strict: exit 0 and the warnings`, () => {
      const out = join(tempDir('codegen-forgiving-cli-'), 'out');
      const failed = codegen(['generate', `${DIR}/${name}`, '-o', out, '--strict']);
      expect(failed.code).toBe(1);
      expect(failed.stderr.trimEnd()).toBe(errorsOf(WARNINGS[name] as string[]).join('\n'));
      expect(existsSync(out)).toBe(false);
      const passed = codegen(['generate', `${DIR}/${name}`, '-o', out]);
      expect(passed.code).toBe(0);
      expect(passed.stderr).toContain(`${(WARNINGS[name] as string[]).join('\n')}\n`);
      expect(existsSync(join(out, 'types.ts'))).toBe(true);
    });
  }

  it('`strict: true` in the config, and `strict` in the programmatic API, do the same', async () => {
    const dir = tempDir('codegen-forgiving-config-');
    writeFileSync(join(dir, 'api.yaml'), readFileSync(join(ROOT, DIR, 'required-true.yaml')));
    writeFileSync(join(dir, 'codegen.config.yaml'), 'apis:\n  - input: api.yaml\n    output: out\n    strict: true\n');
    const viaConfig = codegen([], dir);
    expect(viaConfig.code).toBe(1);
    expect(viaConfig.stderr).toContain('api.yaml:29:21: error: "required: true" on property "name" is not JSON Schema');
    expect(existsSync(join(dir, 'out'))).toBe(false);

    writeFileSync(join(dir, 'codegen.config.yaml'), 'apis:\n  - input: api.yaml\n    output: out\n');
    await expect(generateApi({ cwd: dir, strict: true })).rejects.toThrow(/api\.yaml:29:21: error: "required: true" on property "name"/);
    expect(existsSync(join(dir, 'out'))).toBe(false);
    const result = await generateApi({ cwd: dir });
    expect(result.warnings.map((warning) => warning.severity)).toEqual(['warning', 'warning']);
    expect(existsSync(join(dir, 'out', 'types.ts'))).toBe(true);

    writeFileSync(join(dir, 'codegen.config.yaml'), 'apis:\n  - input: api.yaml\n    output: out\n    strict: "yes"\n');
    const wrong = codegen([], dir);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/codegen\.config\.yaml:4:13: error: apis\[0\]\.strict: expected true or false/);
  });
});
