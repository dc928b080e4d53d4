/**
 * graphql-codegen plugin `documents`: `documents.ts`, each operation of the documents as a
 * `TypedDocumentNode` (`@graphql-typed-document-node/core`), the way graphql-codegen's
 * `typed-document-node` plugin and client preset write them, so Apollo Client, urql,
 * graphql-request and every client that takes a typed document get typed `data` and variables
 * from our documents without our client.
 *
 * - `GetTaskDocument`: the operation and the fragments it uses as a syntax tree (graphql-js's
 *   `parse` of the text `operations.ts` sends, without locations), typed
 *   `TypedDocumentNode<GetTaskQuery, GetTaskQueryVariables>` from `operations.ts`. A syntax tree,
 *   not a string: Apollo Client reads the tree itself, and no client has to parse it at run time.
 * - One plain constant per operation (an object literal, no call): bundlers drop the unused ones.
 * - The type is imported with `import type`: no code of the package reaches a bundle.
 */
import type { PluginFunction, Types } from '@graphql-codegen/plugin-helpers';
import { parse, type GraphQLSchema } from 'graphql';
import { FileBuilder, typeSymbol } from '../../core/builder/file.js';
import { jsDoc, uniqueName } from '../../core/builder/names.js';
import type { GraphQLPluginConfig } from '../config.js';
import { DEFAULT_SOURCE } from '../config.js';
import { operationSet, type OperationInfo } from '../operation-types.js';
import { renderer } from '../plugin-support.js';
import type { DocumentContext, DocumentsContext } from '../template-context.js';

const TYPED_DOCUMENT_NODE = typeSymbol('TypedDocumentNode', '@graphql-typed-document-node/core');

export const plugin: PluginFunction<GraphQLPluginConfig, string> = (schema, documents, config) => {
  return renderer(config).render('graphql/documents.ts.hbs', documentsContext(schema, documents, config));
};

function documentsContext(schema: GraphQLSchema, documents: Types.DocumentFile[], config: GraphQLPluginConfig): DocumentsContext {
  const { operations } = operationSet(schema, documents);
  const taken = new Set<string>();
  const names = operations.map((operation) => uniqueName(`${operation.constant}Document`, taken));
  const file = new FileBuilder('documents.ts', names);
  const documentContexts = operations.map((operation, index) => documentContext(file, operation, names[index]!));
  return { source: config.source ?? DEFAULT_SOURCE, imports: file.imports(), documents: documentContexts };
}

function documentContext(file: FileBuilder, operation: OperationInfo, name: string): DocumentContext {
  const result = file.use(typeSymbol(operation.resultType, './operations'));
  const variables = file.use(typeSymbol(operation.variablesType, './operations'));
  return {
    doc: jsDoc([`The ${operation.kind} \`${operation.name}\` as a typed document node: \`data\` is \`${result}\`.`]),
    name,
    // The syntax tree as data, as graphql-codegen writes it: without the source positions and the
    // empty lists (no directives, no arguments), which no client needs.
    node: JSON.stringify(parse(operation.document, { noLocation: true }), (_key, value: unknown) =>
      Array.isArray(value) && value.length === 0 ? undefined : value,
    ),
    type: `${file.use(TYPED_DOCUMENT_NODE)}<${result}, ${variables}>`,
  };
}
