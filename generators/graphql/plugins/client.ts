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
import { Imports } from '../../core/builder/imports.js';
import { jsDoc } from '../../core/builder/names.js';
import type { GraphQLPluginConfig } from '../config.js';
import { DEFAULT_SOURCE } from '../config.js';
import { operationSet, type OperationInfo } from '../operation-types.js';
import { runtimeFilesOf } from '../../core/pipeline/runtime-files.js';
import { renderer } from '../plugin-support.js';

/** Names client.ts declares or imports from the runtime: imports from operations.ts avoid them. */
const CLIENT_MODULE_NAMES = [
  'Client', 'ClientOptions', 'createClient', 'GraphQLHttp', 'GraphQLResult', 'HttpOptions', 'RequestOptions',
  'ClientError', 'isClientError', 'persistedQueryIds', 'automaticPersistedQueries', 'PersistedQueries', 'ClientErrorKind', 'CommonClientOptions', 'Credential', 'Fetch', 'HeaderValues', 'HeadersOption', 'RetryOptions',
  'GraphQLSubscriptions', 'SubscribeOptions', 'SubscriptionOptions', 'SubscriptionTransport', 'webSocketSubscriptions',
  'opened', 'subscriptions', 'Promise', 'AsyncIterableIterator',
];

/**
 * The files under `runtime/` this plugin's output needs, read from its imports and the runtime
 * manifest: a graphql-codegen setup writes each with the `runtime` plugin (`npx codegen` adds them itself).
 */
export async function runtimeFiles(schema: GraphQLSchema, documents: Types.DocumentFile[], config: GraphQLPluginConfig = {}): Promise<string[]> {
  return runtimeFilesOf({ path: 'client.ts', content: await plugin(schema, documents, config) });
}

function hasSubscriptions(documents: readonly Types.DocumentFile[]): boolean {
  return documents.some((file) =>
    (file.document?.definitions ?? []).some((definition) => definition.kind === Kind.OPERATION_DEFINITION && definition.operation === 'subscription'),
  );
}

export const plugin: PluginFunction<GraphQLPluginConfig, string> = (schema, documents, config) => {
  const { operations } = operationSet(schema, documents);
  const subscriptions = hasSubscriptions(documents);
  const values = new Imports(CLIENT_MODULE_NAMES);
  const types = new Imports(CLIENT_MODULE_NAMES);
  const methods: string[] = [];
  const implementations: string[] = [];
  for (const operation of operations) {
    const constant = values.use(operation.constant);
    types.reserve(constant);
    const result = types.use(operation.resultType);
    const variables = types.use(operation.variablesType);
    values.reserve(result);
    values.reserve(variables);
    const optional = variablesOptional(operation);
    const parameter = `variables${optional ? '?' : ''}: ${variables}`;
    const doc = jsDoc([`Sends the ${operation.kind} \`${operation.name}\`.`, operation.description && `\n${operation.description}`], '  ');
    if (operation.kind === 'subscription') {
      methods.push(`${doc}  ${operation.method}(${parameter}, init?: SubscribeOptions): AsyncIterableIterator<GraphQLResult<${result}>>;`);
      implementations.push(`    ${operation.method}: (variables${optional ? ' = {}' : ''}, init) => subscriptions().subscribe(${constant}, variables, init),`);
    } else {
      methods.push(`${doc}  ${operation.method}(${parameter}, init?: RequestOptions): Promise<GraphQLResult<${result}>>;`);
      implementations.push(`    ${operation.method}: (variables${optional ? ' = {}' : ''}, init) => http.execute(${constant}, variables, init),`);
    }
  }
  const example = operations.find((operation) => operation.kind === 'query') ?? operations[0];
  return renderer(config).render('graphql/client.ts.hbs', {
    source: config.source ?? DEFAULT_SOURCE,
    subscriptions,
    imports: { values: values.specifiers(), types: types.specifiers() },
    methods,
    implementations,
    createDoc: createDoc(example, subscriptions),
  });
};

/** Every variable is nullable or has a default (or there are none): the argument may be left out. */
function variablesOptional(operation: OperationInfo): boolean {
  return (operation.node.variableDefinitions ?? []).every((variable) => variable.type.kind !== Kind.NON_NULL_TYPE || variable.defaultValue !== undefined);
}

function createDoc(example: OperationInfo | undefined, subscriptions: boolean): string {
  const lines = ['A client of the operations in the documents.'];
  if (example) {
    const args = variablesOptional(example) ? '' : '{ /* variables */ }';
    lines.push(
      '',
      '@example',
      'const client = createClient({',
      '  url: "https://api.example.com/graphql",',
      '  token: () => session.token(),',
      // The token goes in connection_init too, as { authorization: "Bearer <token>" }.
      ...(subscriptions ? ['  subscriptions: webSocketSubscriptions(),'] : []),
      '});',
      `const { data, errors } = await client.${example.method}(${args});`,
    );
  }
  return jsDoc([lines.join('\n')]).trimEnd();
}
