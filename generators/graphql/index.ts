/**
 * GraphQL SDL (+ operation documents) → `types.ts`, `operations.ts`, `client.ts`, `query.ts`,
 * `server.ts` with `pubsub.ts` when the schema has `Subscription` fields (and, with `typedDocumentNodes`,
 * `documents.ts`); the runtime files they import come
 * with them (core/pipeline/runtime-files.ts; a graphql-codegen setup writes them with the `runtime`
 * plugin). Each file is written by one of our graphql-codegen plugins (`plugins/`), called here
 * directly with the schema and documents the loader checked: the same plugins run unchanged inside
 * a user's own graphql-codegen setup.
 */
import type { PluginFunction, Types } from '@graphql-codegen/plugin-helpers';
import type { GraphQLSchema } from 'graphql';
import type { Generated, GeneratorContext } from '../core/pipeline/generator.js';
import type { GeneratedFile } from '../core/pipeline/output.js';
import type { GraphQLPluginConfig } from './config.js';
import { loadGraphQL } from './load.js';
import { subscriptionFields } from './pubsub.js';
import { resolversScaffold } from './resolvers-scaffold.js';
import * as client from './plugins/client.js';
import * as documents from './plugins/documents.js';
import * as operations from './plugins/operations.js';
import * as pubsub from './plugins/pubsub.js';
import * as query from './plugins/query.js';
import * as server from './plugins/server.js';
import * as types from './plugins/types.js';

type Plugin = PluginFunction<GraphQLPluginConfig, string>;

export async function generateGraphQL({ api, templates }: GeneratorContext<'graphql'>): Promise<Generated> {
  const input = loadGraphQL(api.inputs, api.documents, {
    displayRoot: api.root,
    assumeValidSDL: api.options.assumeValidSDL === true,
    readRoots: api.readRoots ?? [api.root],
    maxInputBytes: api.maxInputBytes,
  });
  const config: GraphQLPluginConfig = {
    source: input.source,
    scalars: api.options.scalars,
    mappers: api.options.mappers,
    templates: api.templates,
    apiName: api.name,
    redis: api.options.redis === true,
  };
  const files: GeneratedFile[] = [];
  const emit = async (plugin: Plugin, path: string) => {
    files.push({ path, content: await call(plugin, input.schema, input.documents, config, path) });
  };
  const withOperations = input.documents.length > 0;

  await emit(types.plugin, 'types.ts');
  if (withOperations) await emit(operations.plugin, 'operations.ts');
  // For other GraphQL clients, on request: it imports a package's type our own client does not need.
  if (withOperations && api.options.typedDocumentNodes === true) await emit(documents.plugin, 'documents.ts');
  if (api.emit.includes('client') && withOperations) await emit(client.plugin, 'client.ts');
  if (api.emit.includes('query') && withOperations) await emit(query.plugin, 'query.ts');
  if (api.emit.includes('server')) await emit(server.plugin, 'server.ts');
  // The pub/sub is what subscribe resolvers return from: it comes with the server that runs them.
  if (api.emit.includes('server') && subscriptionFields(input.schema).length > 0) await emit(pubsub.plugin, 'pubsub.ts');
  const userFiles =
    api.emit.includes('server') && api.handlers ? [await resolversScaffold(input.schema, templates, api.handlers, api.output)] : [];
  return { files, userFiles, warnings: input.warnings };
}

async function call(
  plugin: Plugin,
  schema: GraphQLSchema,
  documents: Types.DocumentFile[],
  config: GraphQLPluginConfig,
  outputFile: string,
): Promise<string> {
  return plugin(schema, documents, config, { outputFile });
}
