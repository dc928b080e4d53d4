/**
 * graphql-codegen plugin `runtime`: writes one of the runtime files the generated client and server
 * import (`config.file`, e.g. `graphql-server.ts`), so a graphql-codegen setup can place them with
 * an output entry of its own: `src/gql/runtime/graphql-server.ts: { plugins: [codegen-ts/graphql/runtime], config: { file: graphql-server.ts } }`.
 * Which files an output needs: `runtimeFiles(schema, documents)` of the client and server plugins
 * (`npx codegen` writes them itself).
 */
import type { PluginFunction, PluginValidateFn } from '@graphql-codegen/plugin-helpers';
import type { GraphQLPluginConfig } from '../config.js';
import { renderer } from '../plugin-support.js';

export const plugin: PluginFunction<GraphQLPluginConfig, string> = (_schema, _documents, config) => {
  return renderer(config).runtime((config.file ?? '').replace(/\.ts$/, ''));
};

export const validate: PluginValidateFn<GraphQLPluginConfig> = (_schema, _documents, config) => {
  if (!config.file) throw new Error('codegen runtime plugin: set `config.file`, e.g. `graphql-server.ts`');
};
