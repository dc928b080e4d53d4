/**
 * Page-numbered samples (`codegen mock`, `msw.ts`): a built page of an operation that pages by
 * number answers the first page, the page size its query parameter defaults to (within both
 * schemas' bounds, items beyond it dropped), and a total of exactly its items, a short page being
 * the last, beside the items or in an object such as `meta`; the mock's generated validators and
 * ajv accept every body; an example (the media type's or the schema's) is answered as written. For several seeds.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../bin/mock.js';
import { loadOpenApi } from '../generators/openapi/load.js';
import { ajv2020, MOCK_FIXTURES, mockFixtureApi } from './support/mock-fixture.js';

const api = mockFixtureApi('pages', 'pages.yaml');
const input = api.inputs[0]!;

const servers: RunningMock[] = [];
afterAll(async () => {
  for (const server of servers) await server.close();
});

type Page = Record<string, unknown> & { page: number };

describe('page-numbered samples', () => {
  it('number the first page consistently, within the schemas, for every seed', { timeout: 120_000 }, async () => {
    const model = await loadOpenApi(input, { displayRoot: MOCK_FIXTURES });
    const ajv = ajv2020();
    const $defs = Object.fromEntries(model.schemas.map(({ name, schema }) => [name, schema]));
    const tagsSchema = model.operations.find((operation) => operation.path === '/tags')!.responses[0]!.contents[0]!.schema;
    const validateProjects = ajv.compile({ $defs, $ref: '#/$defs/ProjectPage' });
    const validateTags = ajv.compile({ $defs, ...(tagsSchema as object) });
    const get = async (server: RunningMock, path: string) => {
      const response = await fetch(new URL(path, server.url));
      expect(response.status, path).toBe(200);
      return (await response.json()) as Page;
    };

    for (const seed of [1, 2, 3, 4]) {
      const server = await startMock(api, { seed, port: 0 });
      servers.push(server);

      const projects = (await get(server, '/projects')) as Page & { items: unknown[]; pageSize: number; total: number };
      expect(validateProjects(projects), JSON.stringify(validateProjects.errors)).toBe(true);
      expect(projects.items.length).toBeGreaterThan(0);
      expect({ page: projects.page, pageSize: projects.pageSize, total: projects.total }).toEqual({
        page: 1,
        pageSize: 25,
        total: projects.items.length,
      });

      const tags = (await get(server, '/tags')) as Page & { tags: unknown[]; per_page: number; totalCount: number };
      expect(validateTags(tags), JSON.stringify(validateTags.errors)).toBe(true);
      expect(tags).toMatchObject({ page: 1, per_page: 1, totalCount: 1 });
      expect(tags.tags).toHaveLength(1);

      const members = (await get(server, '/members')) as unknown as { data: unknown[]; meta: Record<string, number> };
      expect(members.data.length).toBeGreaterThan(0);
      expect(members.meta).toEqual({ page: 1, size: 20, totalItems: members.data.length });

      expect(await get(server, '/kept')).toEqual({ names: ['ada'], page: 2, pageSize: 1 });
      expect(await get(server, '/written')).toEqual({ items: [], page: 3, pageSize: 10, total: 20 });
    }
  });
});
