/**
 * graphql-codegen plugin `query`: `query.ts`, TanStack Query options for the operations of the
 * documents, typed with `@tanstack/query-core` only (every framework adapter takes them):
 * - per query `<op>QueryKey(variables)` and `<op>Options(http, variables, init)`;
 * - per cursor-paginated query (query-model.ts) `<op>InfiniteQueryKey` and `<op>InfiniteOptions`;
 * - per mutation `<op>Mutation(http, init)` and, when it changes a type some query selects,
 *   `invalidateAfter<Op>(queryClient)`, which its options call on success.
 * Subscriptions have none: they are not a request with an answer to cache.
 *
 * Keys are `[apiName, "<Operation>", variables]`: config `apiName` (`npx codegen` passes the API's
 * name; default `graphql`), the operation's GraphQL name, and its variables when it declares any.
 */
import type { PluginFunction } from '@graphql-codegen/plugin-helpers';
import type { Types } from '@graphql-codegen/plugin-helpers';
import type { GraphQLSchema } from 'graphql';
import { FileBuilder, typeSymbol } from '../../core/builder/file.js';
import { commentText, jsDoc, objectKey, pascalCase, stringLiteral } from '../../core/builder/names.js';
import type { GraphQLPluginConfig } from '../config.js';
import { DEFAULT_SOURCE } from '../config.js';
import { operationSet, variablesOptional, type OperationInfo } from '../operation-types.js';
import { renderer } from '../plugin-support.js';
import { changedTypes, cursorPagination, selectedTypes } from '../query-model.js';
import type { InfiniteQueryContext, MutationOptionsContext, QueryFileContext, QueryOptionsContext } from '../template-context.js';

export const DEFAULT_API_NAME = 'graphql';

export const plugin: PluginFunction<GraphQLPluginConfig, string> = (schema, documents, config) => {
  const { context, file } = queryContext(schema, documents, config);
  return renderer(config).render('graphql/query.ts.hbs', context, file);
};

function queryContext(
  schema: GraphQLSchema,
  documents: Types.DocumentFile[],
  config: GraphQLPluginConfig,
): { context: QueryFileContext; file: FileBuilder } {
  const { operations, fragmentNodes } = operationSet(schema, documents);
  const queries = operations.filter((operation) => operation.kind === 'query');
  const mutations = operations.filter((operation) => operation.kind === 'mutation');
  const paginated = queries.flatMap((operation) => {
    const pagination = cursorPagination(schema, operation.node, fragmentNodes);
    return pagination ? [{ operation, pagination }] : [];
  });
  const own = [
    ...queries.flatMap((operation) => Object.values(queryNames(operation))),
    ...paginated.flatMap(({ operation }) => Object.values(infiniteNames(operation))),
    ...mutations.flatMap((operation) => Object.values(mutationNames(operation))),
  ];
  const file = new FileBuilder('query.ts', own);
  file.reexportRuntime('graphql-query');
  const apiName = config.apiName ?? DEFAULT_API_NAME;
  const queryTypes = queries.map((operation) => ({ operation, types: selectedTypes(schema, operation.node, fragmentNodes) }));

  const shared = (operation: OperationInfo) => {
    const result = file.use(typeSymbol(operation.resultType, './operations'));
    return {
      name: operation.name,
      key: stringLiteral(operation.name),
      constant: file.use({ kind: 'symbol', name: operation.constant, from: './operations', type: false }),
      result,
      error: `${file.use(typeSymbol('GraphQLQueryError', './runtime/graphql-query'))}<${result}>`,
    };
  };
  const variablesOf = (operation: OperationInfo): string | undefined =>
    (operation.node.variableDefinitions ?? []).length > 0 ? file.use(typeSymbol(operation.variablesType, './operations')) : undefined;

  const queryContexts = queries.map(
    (operation): QueryOptionsContext => ({
      ...shared(operation),
      ...queryNames(operation),
      doc: jsDoc([`Options of the query \`${operation.name}\`.`, operation.description && `\n${operation.description}`]),
      variables: variablesOf(operation),
      optional: variablesOptional(operation),
    }),
  );
  const infinite = paginated.map(
    ({ operation, pagination }): InfiniteQueryContext => ({
      ...shared(operation),
      ...infiniteNames(operation),
      variables: `Omit<${file.use(typeSymbol(operation.variablesType, './operations'))}, ${stringLiteral(pagination.variable)}>`,
      cursor: pagination.variable,
      cursorKey: objectKey(pagination.variable),
      connection: pagination.connection,
      pageInfo: pagination.pageInfo,
    }),
  );
  const mutationContexts = mutations.map((operation): MutationOptionsContext => {
    const changed = changedTypes(schema, operation.node, fragmentNodes);
    const invalidated = queryTypes.filter(({ types }) => [...changed].some((type) => types.has(type)));
    const touched = [...changed].filter((type) => invalidated.some(({ types }) => types.has(type))).sort();
    const names = mutationNames(operation);
    return {
      ...shared(operation),
      optionsFunction: names.optionsFunction,
      doc: jsDoc([`Options of the mutation \`${operation.name}\`.`, operation.description && `\n${operation.description}`]),
      variables: variablesOf(operation),
      optional: variablesOptional(operation),
      invalidateFunction: invalidated.length > 0 ? names.invalidateFunction : undefined,
      invalidated: invalidated.map(({ operation: query }) => stringLiteral(query.name)),
      invalidatedList: invalidated.map(({ operation: query }) => `\`${query.name}\``).join(', '),
      typesList: touched.map((type) => `\`${type}\``).join(', '),
    };
  });
  return {
    file,
    context: {
      source: config.source ?? DEFAULT_SOURCE,
      apiName: stringLiteral(apiName),
      apiNameDoc: commentText(stringLiteral(apiName)),
      queries: queryContexts,
      infinite,
      mutations: mutationContexts,
    },
  };
}

function queryNames(operation: OperationInfo) {
  return {
    keyType: `${pascalCase(operation.method)}QueryKey`,
    keyFunction: `${operation.method}QueryKey`,
    optionsFunction: `${operation.method}Options`,
  };
}

function infiniteNames(operation: OperationInfo) {
  return {
    keyType: `${pascalCase(operation.method)}InfiniteQueryKey`,
    keyFunction: `${operation.method}InfiniteQueryKey`,
    optionsFunction: `${operation.method}InfiniteOptions`,
  };
}

function mutationNames(operation: OperationInfo) {
  return {
    optionsFunction: `${operation.method}Mutation`,
    invalidateFunction: `invalidateAfter${pascalCase(operation.method)}`,
  };
}
