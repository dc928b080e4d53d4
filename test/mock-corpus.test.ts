/**
 * `codegen mock` on every OpenAPI document of ../shared/corpus/openapi (Swagger 2.0 included): one
 * mock per document, started in-process with `startMock`, answers every GET operation (path
 * parameters filled from their schemas, credentials for the document's schemes) with a 2xx whose
 * body the generated response validators and ajv on the original document (draft-04 for Swagger
 * 2.0 and OpenAPI 3.0, 2020-12 for 3.1, formats from ajv-formats) both accept.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { load as parseYaml } from 'js-yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../bin/mock.js';
import type { ApiConfig } from '../generators/core/config/config.js';
import { loadOpenApi } from '../generators/openapi/load.js';
import { basePaths } from '../generators/openapi/server.js';
import { ROOT } from './support/cli.js';
import { credentials, requestPath, responseValidatorsOf } from './support/mock-requests.js';

const require = createRequire(import.meta.url);
const CORPUS = join(ROOT, '..', 'shared', 'corpus', 'openapi');

/** GET operations the test does not call, by document and operation name, with why. Keep it short and honest. */
const SKIPPED: Record<string, Record<string, string>> = {};
/** Documents without a GET operation, and what they have instead. */
const WITHOUT_GETS: Record<string, string> = {
  'oai-examples/v3.0/callback-example.yaml': 'one POST and its callback',
  'oai-examples/v3.1/webhook-example.yaml': 'webhooks only',
};

function documents(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) =>
      entry.isDirectory() ? documents(join(dir, entry.name)) : /\.(ya?ml|json)$/.test(entry.name) ? [join(dir, entry.name)] : [],
    )
    .sort();
}

/** ajv for the document's dialect, with the whole document added so its `$ref`s resolve. */
function independentValidator(document: Record<string, unknown>) {
  const addFormats = require('ajv-formats') as typeof import('ajv-formats').default;
  const v31 = typeof document.openapi === 'string' && document.openapi.startsWith('3.1');
  const Ajv = (v31 ? require('ajv/dist/2020.js') : require('ajv-draft-04')) as typeof import('ajv').default;
  const ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false, logger: false, discriminator: !v31 });
  addFormats(ajv);
  ajv.addSchema(withoutExamples(document) as object, 'document');
  return (pointer: string[]) =>
    ajv.compile({ $ref: `document#/${pointer.map((part) => part.replaceAll('~', '~0').replaceAll('/', '~1')).join('/')}` });
}

/** The document without `example`/`examples` values: draft-04 would read an `id` in them as a schema id. */
function withoutExamples(value: unknown, parent?: string): unknown {
  if (Array.isArray(value)) return value.map((item) => withoutExamples(item));
  if (typeof value !== 'object' || value === null) return value;
  const entries = Object.entries(value).filter(([key]) => parent === 'properties' || (key !== 'example' && key !== 'examples'));
  return Object.fromEntries(entries.map(([key, item]) => [key, withoutExamples(item, key)]));
}

/** Where the 2xx (or default) JSON schema of a GET lies in the original document. */
function responseSchemaPointer(document: Record<string, unknown>, path: string, status: string, contentType: string): string[] | undefined {
  const operation = (document.paths as Record<string, Record<string, { responses?: Record<string, Record<string, unknown>> }>>)[path]?.get;
  const response = operation?.responses?.[status] ?? operation?.responses?.default;
  if (!response) return undefined;
  const key = operation?.responses?.[status] ? status : 'default';
  if (document.swagger) return response.schema ? ['paths', path, 'get', 'responses', key, 'schema'] : undefined;
  const content = response.content as Record<string, { schema?: unknown }> | undefined;
  const mediaType = Object.keys(content ?? {}).find((type) => type.split(';')[0]?.trim() === contentType);
  return mediaType && content?.[mediaType]?.schema ? ['paths', path, 'get', 'responses', key, 'content', mediaType, 'schema'] : undefined;
}

const inputs = documents(CORPUS);
const running: RunningMock[] = [];
afterAll(() => Promise.all(running.map((mock) => mock.close())));

describe('codegen mock on the OpenAPI corpus', () => {
  it('has the documents this test expects', () => {
    expect(inputs.map((file) => relative(CORPUS, file))).toEqual(
      expect.arrayContaining(['ceph/openapi.yaml', 'oai-examples/v2.0/petstore.yaml', 'oai-examples/v3.1/webhook-example.yaml']),
    );
  });

  for (const input of inputs) {
    const name = relative(CORPUS, input);
    it(`${name}: every GET answers a body both validators accept`, { timeout: 300_000 }, async () => {
      const api: ApiConfig = {
        name,
        inputs: [input],
        style: 'openapi',
        documents: [],
        output: join(CORPUS, 'unused'),
        emit: ['types', 'validators', 'server'],
        options: {},
        root: CORPUS,
      };
      const model = await loadOpenApi(input, { displayRoot: CORPUS, readRoots: [CORPUS] });
      const gets = model.operations.filter((operation) => operation.method === 'get');
      expect(gets.length === 0).toBe(name in WITHOUT_GETS);
      if (gets.length === 0) return;
      const mock = await startMock(api, { seed: 1, port: 0 });
      running.push(mock);
      const { routes } = (await import(pathToFileURL(join(mock.folder, 'server-routes.js')).href)) as {
        routes: Parameters<typeof responseValidatorsOf>[0];
      };
      const generated = responseValidatorsOf(routes);
      const document = parseYaml(readFileSync(input, 'utf8')) as Record<string, unknown>;
      const ajvAt = independentValidator(document);
      const auth = credentials(model);
      const base = basePaths(model.servers)[0] ?? '';
      const failures: string[] = [];
      // Every operation answers (no 501 for a schema that could not be sampled).
      expect(mock.warnings.map((warning) => warning.message).filter((message) => message.startsWith('mock:'))).toEqual([]);
      let checked = 0;
      let byBoth = 0;
      let schemaless = 0;
      for (const operation of gets) {
        if (SKIPPED[name]?.[operation.name]) continue;
        const url = new URL(requestPath(model, operation, base), mock.url);
        for (const [key, value] of Object.entries(auth.query)) url.searchParams.set(key, value);
        const response = await fetch(url, { headers: { accept: '*/*', ...auth.headers } });
        const text = await response.text();
        const where = `${operation.name} (GET ${url.pathname}${url.search})`;
        if (!response.ok) {
          failures.push(`${where}: ${response.status} ${text.slice(0, 300)}`);
          continue;
        }
        const contentType = response.headers.get('content-type')?.split(';')[0]?.trim() ?? '';
        if (!/[/+]json$/.test(contentType)) {
          // Text or binary: nothing for a JSON Schema validator to read.
          checked++;
          continue;
        }
        const body: unknown = JSON.parse(text);
        const spec = generated.get(operation.name)?.[String(response.status)] ?? generated.get(operation.name)?.default;
        const ours = spec?.validate?.(body);
        const pointer = responseSchemaPointer(document, operation.path, String(response.status), contentType);
        checked++;
        // A media type without a schema takes any JSON: then neither side has a validator.
        if (!ours && !pointer) {
          schemaless++;
          continue;
        }
        if (!ours || !pointer)
          failures.push(`${where}: ${ours ? 'no schema in the document' : 'no generated validator'} for ${response.status}`);
        else if (!ours.ok) failures.push(`${where}: the generated validator rejects it: ${JSON.stringify(ours.errors)}`);
        else {
          const validate = ajvAt(pointer);
          if (validate(body)) byBoth++;
          else failures.push(`${where}: ajv rejects it: ${JSON.stringify(validate.errors?.slice(0, 3))}`);
        }
      }
      console.log(
        `${name}: ${gets.length} GET operations answered, ${byBoth} JSON bodies accepted by both validators, ${schemaless} without a schema`,
      );
      expect(failures).toEqual([]);
      expect(checked).toBe(gets.filter((operation) => !SKIPPED[name]?.[operation.name]).length);
    });
  }
});
