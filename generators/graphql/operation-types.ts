/**
 * The operations and fragments of an API's documents, described once for `operations.ts` and the
 * client: their TypeScript names, the exact text sent for each operation and its id.
 *
 * The text of an operation is the operation printed by graphql-js, then every fragment it uses
 * (transitively) in name order, separated by blank lines. Its id is the SHA-256 of that text in
 * hex, which is both the persisted-query id and the APQ hash, so server and client agree on it.
 */
import { createHash } from 'node:crypto';
import type { Types } from '@graphql-codegen/plugin-helpers';
import {
  Kind,
  print,
  stripIgnoredCharacters,
  visit,
  type FragmentDefinitionNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type OperationTypeNode,
} from 'graphql';
import { uniqueName } from '../core/builder/names.js';
import { fragmentTypeName, operationConstantName, operationFunctionName, operationTypeName, variablesTypeName } from './names.js';

export type OperationKind = 'query' | 'mutation' | 'subscription';

export interface OperationInfo {
  /** The GraphQL name, e.g. `GetTask`. */
  name: string;
  kind: OperationKind;
  node: OperationDefinitionNode;
  /** The typed document constant in `operations.ts`, e.g. `GetTask`. */
  constant: string;
  /** `GetTaskQuery`. */
  resultType: string;
  /** `GetTaskQueryVariables`. */
  variablesType: string;
  /** The client method, e.g. `getTask`. */
  method: string;
  /** What the client sends: the operation and the fragments it uses. */
  document: string;
  /** SHA-256 of `document`, hex. */
  id: string;
  /** The description of the root field when the operation selects exactly one. */
  description: string | undefined;
}

export interface FragmentInfo {
  name: string;
  node: FragmentDefinitionNode;
  /** `TaskFieldsFragment`. */
  typeName: string;
}

export interface OperationSet {
  operations: OperationInfo[];
  fragments: FragmentInfo[];
  fragmentNodes: ReadonlyMap<string, FragmentDefinitionNode>;
}

/** Names `operations.ts` declares besides those of operations and fragments. */
export const OPERATIONS_MODULE_NAMES = ['TypedOperation', 'persistedOperations', 'textById'];

/** Client methods besides the operations'. */
const CLIENT_METHODS = ['close'];

/** Operations and fragments of `documents`, in document order, with unique TypeScript names. */
export function operationSet(schema: GraphQLSchema, documents: readonly Types.DocumentFile[]): OperationSet {
  const definitions = documents.flatMap((file) => file.document?.definitions ?? []);
  const fragmentNodes = new Map<string, FragmentDefinitionNode>();
  for (const definition of definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragmentNodes.set(definition.name.value, definition);
  }
  // Different GraphQL names may give the same TypeScript name (`get_task`, `getTask`): later ones get a number.
  const taken = new Set(OPERATIONS_MODULE_NAMES);
  const methods = new Set(CLIENT_METHODS);
  const fragments = [...fragmentNodes.values()].map(
    (node): FragmentInfo => ({
      name: node.name.value,
      node,
      typeName: uniqueName(fragmentTypeName(node.name.value), taken),
    }),
  );
  const operations = definitions
    .filter((definition): definition is OperationDefinitionNode => definition.kind === Kind.OPERATION_DEFINITION)
    .map((node): OperationInfo => {
      const name = node.name?.value;
      if (!name) throw new Error('codegen operations: every operation needs a name (it becomes a typed constant and a client method)');
      const kind = node.operation as OperationKind;
      const document = operationDocument(node, fragmentNodes);
      return {
        name,
        kind,
        node,
        constant: uniqueName(operationConstantName(name), taken),
        resultType: uniqueName(operationTypeName(name, kind), taken),
        variablesType: uniqueName(variablesTypeName(name, kind), taken),
        method: uniqueName(operationFunctionName(name), methods),
        document,
        id: createHash('sha256').update(document).digest('hex'),
        description: rootFieldDescription(schema, node),
      };
    });
  return { operations, fragments, fragmentNodes };
}

/**
 * The text a client sends: the operation, then each fragment it uses (directly or through other
 * fragments) in name order, without the characters GraphQL ignores (indentation, line breaks,
 * most spaces): what a bundle carries is a third smaller, and it is the same operation.
 */
export function operationDocument(operation: OperationDefinitionNode, fragments: ReadonlyMap<string, FragmentDefinitionNode>): string {
  const used = new Set<string>();
  const pending: Array<OperationDefinitionNode | FragmentDefinitionNode> = [operation];
  while (pending.length > 0) {
    visit(pending.pop()!, {
      FragmentSpread(spread) {
        const name = spread.name.value;
        const fragment = fragments.get(name);
        if (used.has(name) || !fragment) return;
        used.add(name);
        pending.push(fragment);
      },
    });
  }
  const names = [...used].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return stripIgnoredCharacters([print(operation), ...names.map((name) => print(fragments.get(name)!))].join('\n'));
}

function rootFieldDescription(schema: GraphQLSchema, node: OperationDefinitionNode): string | undefined {
  const fields = node.selectionSet.selections;
  const [only] = fields;
  if (fields.length !== 1 || only.kind !== Kind.FIELD) return undefined;
  const root = schema.getRootType(node.operation as OperationTypeNode);
  return root?.getFields()[only.name.value]?.description ?? undefined;
}

/** Every variable is nullable or has a default (or there are none): the argument may be left out. */
export function variablesOptional(operation: OperationInfo): boolean {
  return (operation.node.variableDefinitions ?? []).every(
    (variable) => variable.type.kind !== Kind.NON_NULL_TYPE || variable.defaultValue !== undefined,
  );
}
