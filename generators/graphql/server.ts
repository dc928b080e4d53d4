/**
 * What templates/graphql/server.ts.hbs prints: the imports and re-exports (placed by the template), the schema's SDL (built
 * into an executable schema once, at start-up), the `@auth` roles and field rules, and whether
 * registered operations exist. With `options.redis` it re-exports `RedisFanOut` too.
 */
import type { Types } from '@graphql-codegen/plugin-helpers';
import { Kind, printSchema, type GraphQLSchema } from 'graphql';
import { FileBuilder, symbol, typeSymbol } from '../core/builder/file.js';
import { stringLiteral } from '../core/builder/names.js';
import { typesNames } from './names.js';
import { authModel } from './server-auth.js';
import type { ServerContext } from './template-context.js';

/** Names server.ts declares. */
const SERVER_MODULE_NAMES = ['SDL', 'ROLES', 'ViewerRole', 'FIELD_ROLES', 'createGraphQLServer', 'Context', 'V'];

/**
 * The template's context (without `source`) and the file builder to render it with: the template's own
 * code names the runtime exports it uses (`{{runtime}}`), imported through `file`.
 */
export function serverContext(
  schema: GraphQLSchema,
  documents: Types.DocumentFile[],
  options: { redis?: boolean } = {},
): { context: Omit<ServerContext, 'source'>; file: FileBuilder } {
  const auth = authModel(schema);
  const persisted = documents.some((file) =>
    file.document?.definitions.some((definition) => definition.kind === Kind.OPERATION_DEFINITION),
  );
  const file = new FileBuilder('server.ts', SERVER_MODULE_NAMES);
  if (persisted) file.use(symbol('persistedOperations', './operations'), 'persistedOperations');
  const resolvers = file.use(typeSymbol(typesNames(schema).resolvers, './types'));
  // The server runtime's public API (`@public`): its entry module's, and the hardened http.Server's.
  // With options.redis, the Redis FanOut for `createPubSub` (pubsub.ts) too.
  file.reexportRuntime(
    'graphql-server',
    'http-listener',
    'mount-fastify',
    'mount-koa',
    ...(options.redis ? ['redis-pubsub', 'redis-fanout'] : []),
  );
  return {
    file,
    context: {
      resolvers,
      sdlLines: printSchema(schema).split('\n').map(stringLiteral),
      roles: (auth?.roles ?? []).map(stringLiteral),
      fieldRoles: (auth?.fields ?? []).map(({ path, role }) => ({ key: stringLiteral(path), role: stringLiteral(role) })),
      persisted,
    },
  };
}
