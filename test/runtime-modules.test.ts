/**
 * runtime/manifest.json, what generation knows of the runtime modules' exports and imports, is
 * written from the modules by the TypeScript compiler (test/support/runtime-manifest.ts): here it is
 * written again in memory and must equal the committed one. The runtime files an output gets are
 * derived from it (core/pipeline/runtime-files.ts).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RUNTIME_MANIFEST, runtimeClosure, runtimeExport, runtimeModules } from '../generators/core/pipeline/runtime-modules.js';
import { runtimeFilesOf, withRuntimeFiles } from '../generators/core/pipeline/runtime-files.js';
import { BUILTIN_RUNTIME, TemplateRenderer } from '../generators/core/pipeline/templates.js';
import { loadGraphQL } from '../generators/graphql/load.js';
import * as graphqlClient from '../generators/graphql/plugins/client.js';
import * as graphqlPubSub from '../generators/graphql/plugins/pubsub.js';
import * as graphqlServer from '../generators/graphql/plugins/server.js';
import { ROOT } from './support/cli.js';
import { generateGraphQLFiles } from './support/generate.js';
import { runtimeManifest, runtimeManifestText } from './support/runtime-manifest.js';
import { tempDir } from './support/tmp.js';

describe('runtime/manifest.json', () => {
  it('is what the runtime modules declare today', async () => {
    await expect(runtimeManifestText(BUILTIN_RUNTIME)).toMatchFileSnapshot(
      RUNTIME_MANIFEST,
      'runtime/manifest.json is stale: update it with `npx vitest run test/runtime-modules.test.ts -u`',
    );
  }, 30_000);

  it('reads declarations, re-exports (`export type` of a class is a type) and imports of every kind', () => {
    const folder = tempDir('codegen-runtime-manifest-');
    writeFileSync(
      join(folder, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, types: [] } }),
    );
    writeFileSync(
      join(folder, 'a.ts'),
      '/**\n * The thing.\n *\n * More.\n */\nexport class Thing {}\nexport interface Shape { x: number }\nexport const value = 1;\n',
    );
    writeFileSync(
      join(folder, 'b.ts'),
      "import type { Shape } from './a.js';\nexport type { Thing } from './a.js';\nexport { value as renamed } from './a.js';\nexport type Own = Shape;\nexport const lazy = () => import('node:fs');\n",
    );
    expect(runtimeManifest(folder).modules).toEqual({
      a: {
        exports: [
          { name: 'Shape', type: true },
          { name: 'Thing', type: false, doc: 'The thing.' },
          { name: 'value', type: false },
        ],
        imports: [],
        packages: [],
      },
      b: {
        exports: [
          { name: 'Own', type: true },
          { name: 'Thing', type: true, doc: 'The thing.', from: 'a' },
          { name: 'lazy', type: false },
          { name: 'renamed', type: false, from: 'a' },
        ],
        imports: ['a'],
        packages: ['node:fs'],
      },
    });
  });
});

describe('runtime modules', () => {
  it('know their exports, type or value, with the first paragraph of their JSDoc', () => {
    const http = runtimeModules().get('http')!;
    expect(http.exports.find((exported) => exported.name === 'httpClient')).toMatchObject({ type: false });
    expect(
      runtimeModules()
        .get('client-common')!
        .exports.find((exported) => exported.name === 'ClientErrorKind'),
    ).toMatchObject({ type: true, doc: expect.stringMatching(/^Why a call failed/) });
  });

  it('tell re-exports from declarations', () => {
    expect(runtimeExport('ErrorCode', 'graphql-server').export).toMatchObject({ type: false, from: 'graphql-errors' });
    expect(runtimeExport('Code', 'grpc-server').export).toMatchObject({ type: false, from: '@connectrpc/connect' });
    expect(runtimeExport('Store', 'graphql-server').export).toMatchObject({ type: true, from: 'server-types' });
  });

  it('know the public API: `@public` on a declaration, or on the statement that re-exports a package', () => {
    const isPublic = (module: string, name: string) => runtimeExport(name, module).export.public === true;
    expect(isPublic('grpc-client', 'GrpcError')).toBe(true);
    expect(isPublic('grpc-client', 'Code')).toBe(true); // `/** @public */ export { Code, ConnectError } from "@connectrpc/connect";`
    expect(isPublic('grpc-rest-client', 'GrpcError')).toBe(true); // re-exported from its tagged declaration
    expect(isPublic('grpc-rest-client', 'HttpRules')).toBe(false);
    expect(isPublic('grpc-client', 'serviceClient')).toBe(false);
  });

  it('find the module declaring an export, or say why they cannot', () => {
    expect(runtimeExport('ErrorCode').module).toBe('graphql-errors');
    expect(() => runtimeExport('MaybePromise')).toThrow(
      /graphql-execution, grpc-call, server-spec all declare MaybePromise: name the module/,
    );
    expect(() => runtimeExport('NoSuchExport')).toThrow(/no runtime module declares an export named NoSuchExport/);
    expect(() => runtimeExport('httpClient', 'server')).toThrow(/runtime\/server.ts has no export named httpClient/);
  });

  it('close a set of modules over their imports', () => {
    expect(runtimeClosure(['http-auth'])).toEqual(['client-common', 'http', 'http-auth', 'http-results']);
    expect(runtimeClosure(['graphql-server'])).toContain('graphql-errors');
    expect(() => runtimeClosure(['nope'])).toThrow(/no runtime module named runtime\/nope.ts/);
  });
});

describe('the runtime files of an output', () => {
  const paths = (files: { path: string }[]) => files.map((file) => file.path).sort();

  it('are the modules its files import, from any folder, and the modules those import', () => {
    const files = [
      {
        path: 'client.ts',
        content: 'import { httpClient } from "./runtime/http.js";\nimport type { Fetch } from "./runtime/client-common.js";\n',
      },
      { path: 'nested/rules.ts', content: 'export type { HttpRule } from "../runtime/grpc-transcoding-path.js";\n' },
      { path: 'types.ts', content: 'export type Id = string;\n' },
    ];
    const output = withRuntimeFiles(files, new TemplateRenderer());
    expect(paths(output)).toEqual([
      'client.ts',
      'nested/rules.ts',
      'runtime/client-common.ts',
      'runtime/grpc-transcoding-path.ts',
      'runtime/http-results.ts',
      'runtime/http.ts',
      'types.ts',
    ]);
    const http = output.find((file) => file.path === 'runtime/http.ts')!;
    expect(http.content).toBe(new TemplateRenderer().runtime('http'));
    expect(withRuntimeFiles([files[2]!], new TemplateRenderer())).toEqual([files[2]]);
  });

  it("follow a user's override of a module, which may import modules the built-in one does not", () => {
    const templates = tempDir('codegen-runtime-override-');
    mkdirSync(join(templates, 'runtime'));
    writeFileSync(
      join(templates, 'runtime/http-auth.ts'),
      `${readFileSync(join(BUILTIN_RUNTIME, 'http-auth.ts'), 'utf8')}\nexport { computeEtag } from "./conditional.js";\n`,
    );
    const output = withRuntimeFiles(
      [{ path: 'client.ts', content: 'import { bearer } from "./runtime/http-auth.js";\n' }],
      new TemplateRenderer(templates),
    );
    expect(paths(output)).toEqual([
      'client.ts',
      'runtime/client-common.ts',
      'runtime/conditional.ts',
      'runtime/http-auth.ts',
      'runtime/http-results.ts',
      'runtime/http.ts',
      'runtime/server-stage.ts',
      'runtime/server-types.ts',
    ]);
    expect(output.find((file) => file.path === 'runtime/http-auth.ts')!.content).toContain('./conditional.js');
  });

  it('say which file is missing when a file imports a runtime module that does not exist', () => {
    expect(() => withRuntimeFiles([{ path: 'a.ts', content: 'import "./runtime/nope.js";\n' }], new TemplateRenderer())).toThrow(
      /no runtime module named runtime\/nope\.ts/,
    );
  });

  it('are, for a graphql-codegen setup, what the GraphQL plugins list: the files npx codegen writes', async () => {
    const [schema, operations] = ['schemas/graphql/tasks.graphql', 'schemas/graphql/operations'];
    const config = { scalars: { DateTime: 'string' } } as const;
    const written = (await generateGraphQLFiles(schema, [operations], ['types', 'client', 'server'], config))
      .map((file) => file.path)
      .filter((path) => path.startsWith('runtime/'));
    const input = loadGraphQL([join(ROOT, schema)], [join(ROOT, operations)], { displayRoot: ROOT });
    const listed = [
      ...(await graphqlClient.runtimeFiles(input.schema, input.documents, config)),
      ...(await graphqlServer.runtimeFiles(input.schema, input.documents, config)),
      ...(await graphqlPubSub.runtimeFiles(input.schema, input.documents, config)),
    ];
    expect([...new Set(listed)].map((file) => `runtime/${file}`).sort()).toEqual(written.sort());
    expect(listed).toContain('graphql-subscriptions.ts');
  });

  it('are listed for a graphql-codegen setup as file names', () => {
    expect(
      runtimeFilesOf({ path: 'client.ts', content: 'import { webSocketSubscriptions } from "./runtime/graphql-subscriptions.js";\n' }),
    ).toEqual(['client-common.ts', 'graphql-client.ts', 'graphql-subscriptions.ts']);
  });
});
