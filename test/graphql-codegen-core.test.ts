/**
 * Our GraphQL generators are graphql-codegen plugins. Here they run inside a plain
 * `@graphql-codegen/core` `codegen()` call — the way a team's existing graphql-codegen setup runs
 * them, with the schema given as SDL and merged by graphql-codegen itself — and must write exactly
 * the files `npx codegen` writes for the same schema and documents.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { generate as graphqlCodegenCli } from '@graphql-codegen/cli';
import { codegen } from '@graphql-codegen/core';
import type { CodegenPlugin, Types } from '@graphql-codegen/plugin-helpers';
import { parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import type { GraphQLPluginConfig } from '../generators/graphql/config.js';
import { loadGraphQL } from '../generators/graphql/load.js';
import * as client from '../generators/graphql/plugins/client.js';
import * as documentsPlugin from '../generators/graphql/plugins/documents.js';
import * as operations from '../generators/graphql/plugins/operations.js';
import * as pubsub from '../generators/graphql/plugins/pubsub.js';
import * as runtime from '../generators/graphql/plugins/runtime.js';
import * as server from '../generators/graphql/plugins/server.js';
import * as types from '../generators/graphql/plugins/types.js';
import { ROOT } from './support/cli.js';
import { generateGraphQLFiles } from './support/generate.js';

const SCHEMA = 'schemas/graphql/tasks.graphql';
const DOCUMENTS = 'schemas/graphql/operations';
const OPTIONS = { scalars: { DateTime: 'string' } };
/** What `npx codegen` is told to write besides: documents.ts (the `documents` plugin). */
const DROP_IN = { typedDocumentNodes: true };

/** Which plugin (and extra config) writes each generated file. */
function pluginFor(path: string): { name: string; module: CodegenPlugin<GraphQLPluginConfig>; config?: Partial<GraphQLPluginConfig> } {
  if (path.startsWith('runtime/')) return { name: 'runtime', module: runtime, config: { file: path.slice('runtime/'.length) } };
  const modules: Record<string, CodegenPlugin<GraphQLPluginConfig>> = {
    'types.ts': types,
    'operations.ts': operations,
    'documents.ts': documentsPlugin,
    'client.ts': client,
    'server.ts': server,
    'pubsub.ts': pubsub,
  };
  const module = modules[path];
  if (!module) throw new Error(`no plugin writes ${path}`);
  return { name: path.replace(/\.ts$/, ''), module };
}

describe('the GraphQL plugins inside @graphql-codegen/core', () => {
  it('write the same files as npx codegen', async () => {
    const ours = await generateGraphQLFiles(SCHEMA, [DOCUMENTS], ['types', 'client', 'server'], { ...OPTIONS, ...DROP_IN });
    expect(ours.map((file) => file.path)).toEqual(
      expect.arrayContaining(['types.ts', 'operations.ts', 'documents.ts', 'client.ts', 'server.ts', 'pubsub.ts']),
    );

    // What a graphql-codegen user hands to codegen(): the SDL as a DocumentNode, documents as files.
    const { documents, source } = loadGraphQL([join(ROOT, SCHEMA)], [join(ROOT, DOCUMENTS)], { displayRoot: ROOT });
    const schema = parse(readFileSync(join(ROOT, SCHEMA), 'utf8'));
    for (const file of ours) {
      const { name, module, config } = pluginFor(file.path);
      const options: Types.GenerateOptions = {
        filename: file.path,
        schema,
        documents,
        plugins: [{ [name]: { ...config } }],
        pluginMap: { [name]: module },
        config: { source, ...OPTIONS },
      };
      expect(await codegen(options), file.path).toBe(file.content);
    }
  });

  it('run from a graphql-codegen config by package name (codegen-ts/graphql/*), as a user of both tools writes it', async () => {
    const ours = await generateGraphQLFiles(SCHEMA, [DOCUMENTS], ['types', 'client'], { ...OPTIONS, ...DROP_IN });
    const config = { source: SCHEMA, ...OPTIONS };
    const generates = Object.fromEntries(
      ours.map((file) => {
        const { name, config: extra } = pluginFor(file.path);
        return [
          join(ROOT, '.vitest-tmp', 'graphql-codegen-cli', file.path),
          { plugins: [`codegen-ts/graphql/${name}`], config: { ...config, ...extra } },
        ];
      }),
    );
    const written = await graphqlCodegenCli(
      // The package's `exports` map `codegen-ts/graphql/<plugin>` to the compiled plugins in dist/.
      // `sort: false`: graphql-codegen sorts the schema's fields by name unless told not to; codegen keeps
      // the order they are declared in.
      { schema: join(ROOT, SCHEMA), documents: join(ROOT, DOCUMENTS, '*.graphql'), silent: true, config: { sort: false }, generates },
      false,
    );
    expect(written).toHaveLength(ours.length);
    for (const file of written) {
      const path = file.filename.slice(join(ROOT, '.vitest-tmp', 'graphql-codegen-cli').length + 1);
      expect(file.content, path).toBe(ours.find((candidate) => candidate.path === path)?.content);
    }
  });
});
