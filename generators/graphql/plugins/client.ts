/**
 * graphql-codegen plugin `client`: `client.ts`, `createClient(options)` with one method per
 * operation of the documents (names.ts `operationFunctionName`), over the runtime files
 * `runtime/graphql-client.ts` (fetch) and, when a document has a subscription,
 * `runtime/graphql-subscriptions.ts` (graphql-ws): only then does client.ts name it, and only its
 * types: the WebSocket code is reached through `webSocketSubscriptions`, which the user passes as
 * `subscriptions`, so a query-only app bundles no graphql-ws.
 *
 * - queries and mutations: `getTask(variables, { signal, headers, timeout })` →
 *   `Promise<GraphQLResult<GetTaskQuery>>`; the variables argument is optional when every variable is.
 * - subscriptions: `taskChanged(variables, { signal })` → an async iterator of results;
 *   `close()` closes the WebSocket.
 */
import type { PluginFunction, Types } from '@graphql-codegen/plugin-helpers';
import { Kind, type GraphQLSchema } from 'graphql';
import { FileBuilder, publicRuntimeSymbols, symbol, typeSymbol, type ImportSymbol } from '../../core/builder/file.js';
import { jsDoc, uniqueName } from '../../core/builder/names.js';
import type { GraphQLPluginConfig } from '../config.js';
import { DEFAULT_SOURCE } from '../config.js';
import { operationSet, variablesOptional } from '../operation-types.js';
import { runtimeFilesOf } from '../../core/pipeline/runtime-files.js';
import { renderer } from '../plugin-support.js';
import type { ClientContext, ClientMethodContext } from '../template-context.js';

/** Names client.ts declares, its code's locals and the globals it names: imports from operations.ts avoid them. */
const CLIENT_MODULE_NAMES = [
  'Client',
  'ClientOptions',
  'createClient',
  'http',
  'opened',
  'subscriptions',
  'Promise',
  'AsyncIterableIterator',
];

/**
 * The files under `runtime/` this plugin's output needs, read from its imports and the runtime
 * manifest: a graphql-codegen setup writes each with the `runtime` plugin (`npx codegen` adds them itself).
 */
export async function runtimeFiles(
  schema: GraphQLSchema,
  documents: Types.DocumentFile[],
  config: GraphQLPluginConfig = {},
): Promise<string[]> {
  return runtimeFilesOf({ path: 'client.ts', content: await plugin(schema, documents, config) });
}

function hasSubscriptions(documents: readonly Types.DocumentFile[]): boolean {
  return documents.some((file) =>
    (file.document?.definitions ?? []).some(
      (definition) => definition.kind === Kind.OPERATION_DEFINITION && definition.operation === 'subscription',
    ),
  );
}

export const plugin: PluginFunction<GraphQLPluginConfig, string> = (schema, documents, config) => {
  const { context, file } = clientContext(schema, documents, config);
  // The template's own code names the runtime exports it uses ({{runtime}}), imported through `file`.
  return renderer(config).render('graphql/client.ts.hbs', context, file);
};

function clientContext(
  schema: GraphQLSchema,
  documents: Types.DocumentFile[],
  config: GraphQLPluginConfig,
): { context: ClientContext; file: FileBuilder } {
  const { operations } = operationSet(schema, documents);
  const subscriptions = hasSubscriptions(documents);
  const reexported = clientReexports(subscriptions);
  const reexportedNames = reexported.map((exported) => exported.name);
  // A re-exported name is not bound in client.ts, but an import of the same name would read as the
  // same thing: the builder aliases an operations.ts import that has one, and aliases avoid them too.
  // The runtime names the template prints ({{runtime}}) are the re-exported ones themselves and keep
  // their names, so they are not reserved.
  const file = new FileBuilder('client.ts', CLIENT_MODULE_NAMES, {
    alias: (symbol, taken) => uniqueName(`${symbol.name}${symbol.type ? 'Type' : 'Value'}`, new Set([...taken, ...reexportedNames])),
  });
  file.reexport(...reexported);
  const methods = operations.map(
    (operation): ClientMethodContext => ({
      doc: jsDoc([`Sends the ${operation.kind} \`${operation.name}\`.`, operation.description && `\n${operation.description}`], '  '),
      method: operation.method,
      constant: file.use(symbol(operation.constant, './operations')),
      result: file.use(typeSymbol(operation.resultType, './operations')),
      variables: file.use(typeSymbol(operation.variablesType, './operations')),
      optional: variablesOptional(operation),
      subscription: operation.kind === 'subscription',
    }),
  );
  const example = operations.find((operation) => operation.kind === 'query') ?? operations[0];
  return {
    file,
    context: {
      source: config.source ?? DEFAULT_SOURCE,
      subscriptions,
      methods,
      example: example && { method: example.method, optional: variablesOptional(example) },
    },
  };
}

/**
 * The public API (`@public`) of the client runtime's modules, which client.ts re-exports: the
 * HTTP client and what every style's client shares, the persisted-query modes (which only apps that
 * pass `persisted` bundle) and, with subscriptions, the WebSocket transport.
 */
function clientReexports(subscriptions: boolean): ImportSymbol[] {
  const modules = ['client-common', 'graphql-client', 'graphql-client-persisted', ...(subscriptions ? ['graphql-subscriptions'] : [])];
  return modules.flatMap((module) => publicRuntimeSymbols(module));
}
