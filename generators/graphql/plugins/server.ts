/**
 * graphql-codegen plugin `server`: `server.ts`, a hardened GraphQL server for the schema on
 * graphql-js, graphql-http (HTTP) and graphql-ws on `ws` (WebSocket). The file embeds the schema's
 * SDL, the `@auth` rules and (when operation documents exist) imports the registered operations
 * of operations.ts; the machinery is in the runtime files it imports (runtime/graphql-*).
 *
 * ```ts
 * const server = createGraphQLServer<AppContext>(resolvers, {
 *   authenticate: (request) => viewerFromToken(request.headers.authorization ?? request.connectionParams?.token),
 *   context: ({ viewer }) => ({ db, viewer }),
 * });
 * const http = createServer(server.listener);
 * server.attach(http);
 * ```
 */
import type { PluginFunction, Types } from '@graphql-codegen/plugin-helpers';
import type { GraphQLSchema } from 'graphql';
import type { GraphQLPluginConfig } from '../config.js';
import { DEFAULT_SOURCE } from '../config.js';
import { runtimeFilesOf } from '../../core/pipeline/runtime-files.js';
import { renderer } from '../plugin-support.js';
import { serverContext } from '../server.js';
import type { ServerContext } from '../template-context.js';

/**
 * The files under `runtime/` this plugin's output needs, read from its imports and the runtime
 * manifest: a graphql-codegen setup writes each with the `runtime` plugin (`npx codegen` adds them itself).
 */
export async function runtimeFiles(
  schema: GraphQLSchema,
  documents: Types.DocumentFile[],
  config: GraphQLPluginConfig = {},
): Promise<string[]> {
  return runtimeFilesOf({ path: 'server.ts', content: await plugin(schema, documents, config) });
}

export const plugin: PluginFunction<GraphQLPluginConfig, string> = (schema, documents, config) => {
  const { context: parts, file } = serverContext(schema, documents, { redis: config.redis === true });
  const context: ServerContext = { source: config.source ?? DEFAULT_SOURCE, ...parts };
  // The template's own code names the runtime exports it uses ({{runtime}}), imported through `file`.
  return renderer(config).render('graphql/server.ts.hbs', context, file);
};
