/**
 * runtime/manifest.json, what generation knows of the runtime modules' exports and imports, is
 * written from the modules by the TypeScript compiler (test/support/runtime-manifest.ts): here it is
 * written again in memory and must equal the committed one.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RUNTIME_MANIFEST, runtimeClosure, runtimeExport, runtimeModules } from '../generators/core/pipeline/runtime-modules.js';
import { BUILTIN_RUNTIME } from '../generators/core/pipeline/templates.js';
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
    writeFileSync(join(folder, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, types: [] } }));
    writeFileSync(join(folder, 'a.ts'), '/**\n * The thing.\n *\n * More.\n */\nexport class Thing {}\nexport interface Shape { x: number }\nexport const value = 1;\n');
    writeFileSync(join(folder, 'b.ts'), "import type { Shape } from './a.js';\nexport type { Thing } from './a.js';\nexport { value as renamed } from './a.js';\nexport type Own = Shape;\nexport const lazy = () => import('node:fs');\n");
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
    expect(runtimeModules().get('client-common')!.exports.find((exported) => exported.name === 'ClientErrorKind')).toMatchObject({ type: true, doc: expect.stringMatching(/^Why a call failed/) });
  });

  it('tell re-exports from declarations', () => {
    expect(runtimeExport('ErrorCode', 'graphql-server').export).toMatchObject({ type: false, from: 'graphql-errors' });
    expect(runtimeExport('Code', 'grpc-server').export).toMatchObject({ type: false, from: '@connectrpc/connect' });
    expect(runtimeExport('Store', 'graphql-server').export).toMatchObject({ type: true, from: 'server-types' });
  });

  it('find the module declaring an export, or say why they cannot', () => {
    expect(runtimeExport('ErrorCode').module).toBe('graphql-errors');
    expect(() => runtimeExport('MaybePromise')).toThrow(/graphql-execution, grpc-call, server all declare MaybePromise: name the module/);
    expect(() => runtimeExport('NoSuchExport')).toThrow(/no runtime module declares an export named NoSuchExport/);
    expect(() => runtimeExport('httpClient', 'server')).toThrow(/runtime\/server.ts has no export named httpClient/);
  });

  it('close a set of modules over their imports', () => {
    expect(runtimeClosure(['http-auth'])).toEqual(['client-common', 'http', 'http-auth']);
    expect(runtimeClosure(['graphql-server'])).toContain('graphql-errors');
    expect(() => runtimeClosure(['nope'])).toThrow(/no runtime module named runtime\/nope.ts/);
  });
});
