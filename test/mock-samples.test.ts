/**
 * The sample generator behind `codegen mock` on schemas that exercise each keyword (formats,
 * patterns, bounds, enums, oneOf with a discriminator, allOf, uniqueItems, additionalProperties,
 * readOnly/writeOnly, recursion), through a real mock: every body passes the generated validators
 * (the mock validates its responses) and ajv; a pattern nothing can match gives a located warning
 * and a 501 Problem Details from its route, not a crash.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../bin/mock.js';
import { loadOpenApi } from '../generators/openapi/load.js';
import { ajv2020, MOCK_FIXTURES, mockFixtureApi } from './support/mock-fixture.js';

const api = mockFixtureApi('hard', 'hard.yaml');
const input = api.inputs[0]!;

let server: RunningMock | undefined;
afterAll(() => server?.close());

describe('mock samples', () => {
  it('builds values the validators accept, and says which schema it cannot sample', { timeout: 120_000 }, async () => {
    server = await startMock(api, { seed: 5, port: 0 });
    const model = await loadOpenApi(input, { displayRoot: MOCK_FIXTURES });
    const ajv = ajv2020();
    // OpenAPI: a required writeOnly property is required of requests only; plain JSON Schema does not know it.
    const $defs = Object.fromEntries(model.schemas.map(({ name, schema }) => [name, schema]));
    const everything = $defs.Everything as { required: string[] };
    $defs.Everything = { ...everything, required: everything.required.filter((name) => name !== 'secret') };

    for (const [path, schema] of [
      ['/shapes', 'Everything'],
      ['/tree', 'Node'],
    ] as const) {
      const response = await fetch(new URL(path, server.url));
      expect(response.status, path).toBe(200);
      const body = (await response.json()) as Record<string, unknown>;
      const validate = ajv.compile({ $defs, $ref: `#/$defs/${schema}` });
      expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
      if (schema === 'Everything') {
        // readOnly stays in a response, writeOnly does not.
        expect(body).toHaveProperty('id');
        expect(body).not.toHaveProperty('secret');
        expect((body.shapes as { kind: string }[]).every((shape) => ['circle', 'square'].includes(shape.kind))).toBe(true);
      }
    }

    const example = await fetch(new URL('/example', server.url));
    expect(await example.json()).toEqual({ word: 'from-the-example' });

    const warning = server.warnings.find((found) => found.message.includes('getLookahead'));
    expect(warning?.message).toMatch(/pattern "\^\(\?!a\)a\$"/);
    expect(warning?.location).toMatchObject({ file: expect.stringContaining('hard.yaml'), line: 41 });
    const lookahead = await fetch(new URL('/lookahead', server.url));
    expect(lookahead.status).toBe(501);
    expect(lookahead.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(((await lookahead.json()) as { detail: string }).detail).toContain('pattern');
  });
});
