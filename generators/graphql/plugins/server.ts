/**
 * graphql-codegen plugin `server`: `server.ts`, a hardened GraphQL server for the schema on
 * graphql-js, graphql-http (HTTP) and graphql-ws on `ws` (WebSocket). The file embeds the schema's
 * SDL, the `@auth` rules and (when operation documents exist) imports the registered operations
 * of operations.ts; the machinery is in the runtime files it imports (templates/runtime/graphql-*).
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
import { renderer } from '../plugin-support.js';
import { serverContext } from '../server.js';

/** The runtime files server.ts imports, directly or through each other. */
const RUNTIME_FILES = [
  // CORS, shared with every style's server.
  'cors-policy.ts',
  // Per-client WebSocket limits and the hardened http.Server, shared with the REST and realtime outputs.
  'client-limits.ts',
  'http-listener.ts',
  'graphql-documents.ts',
  'graphql-errors.ts',
  'graphql-execution.ts',
  'graphql-limits.ts',
  'graphql-persisted.ts',
  'graphql-rate-limit.ts',
  'graphql-schema.ts',
  'graphql-server.ts',
  'graphql-websocket.ts',
  // The REST server's `Store` and its in-memory default, shared so one Redis store serves both.
  'server-types.ts',
  'store.ts',
];

/** The files under `runtime/` that this plugin's output imports. */
export function runtimeFiles(_schema: GraphQLSchema, _documents: Types.DocumentFile[]): string[] {
  return RUNTIME_FILES;
}

export const plugin: PluginFunction<GraphQLPluginConfig, string> = (schema, documents, config) => {
  return renderer(config).render('graphql/server.ts.hbs', { source: config.source ?? DEFAULT_SOURCE, ...serverContext(schema, documents) });
};
