/**
 * graphql-codegen plugin `operations`: `operations.ts`, the typed operations of the documents.
 *
 * - `GetTaskQuery` / `GetTaskQueryVariables`: the result of a selection set as nested object types
 *   (aliases, `__typename` literals, fragments, `@include`/`@skip` as optional members), and the
 *   variables (optional when nullable or defaulted). Enums, custom scalars and input types are
 *   imported from `types.ts` by their names.
 * - `TaskFieldsFragment` for each named fragment.
 * - `GetTask: TypedOperation<GetTaskQuery, GetTaskQueryVariables>`: kind, name, the exact text
 *   sent and its SHA-256 id; `persistedOperations` maps each id to its text.
 */
import type { PluginFunction, Types } from '@graphql-codegen/plugin-helpers';
import { isCompositeType, parse, print, type GraphQLCompositeType, type GraphQLSchema, type OperationTypeNode } from 'graphql';
import { FileBuilder, typeSymbol } from '../../core/builder/file.js';
import { jsDoc, stringLiteral } from '../../core/builder/names.js';
import type { GraphQLPluginConfig } from '../config.js';
import { DEFAULT_SOURCE } from '../config.js';
import { typeName } from '../names.js';
import { shapesOf, variableMembers, type ShapeContext } from '../operation-shapes.js';
import { OPERATIONS_MODULE_NAMES, operationSet, type OperationInfo } from '../operation-types.js';
import { renderer } from '../plugin-support.js';
import type { OperationContext, OperationsContext } from '../template-context.js';

/** Global types the printed shapes use: an imported schema type must not hide them. */
const GLOBALS = ['Array', 'Record', 'Readonly', 'Promise'];

export const plugin: PluginFunction<GraphQLPluginConfig, string> = (schema, documents, config) => {
  return renderer(config).render('graphql/operations.ts.hbs', operationsContext(schema, documents, config));
};

function operationsContext(schema: GraphQLSchema, documents: Types.DocumentFile[], config: GraphQLPluginConfig): OperationsContext {
  const { operations, fragments, fragmentNodes } = operationSet(schema, documents);
  const file = new FileBuilder('operations.ts', [
    ...OPERATIONS_MODULE_NAMES,
    ...GLOBALS,
    ...fragments.map((fragment) => fragment.typeName),
    ...operations.flatMap((operation) => [operation.constant, operation.resultType, operation.variablesType]),
  ]);
  const context: ShapeContext = { schema, fragments: fragmentNodes, named: (name) => file.use(typeSymbol(typeName(name), './types')) };

  const fragmentContexts = fragments.map((fragment) => {
    const on = fragment.node.typeCondition.name.value;
    const type = schema.getType(on);
    if (!isCompositeType(type))
      throw new Error(`codegen operations: fragment ${fragment.name} is on ${on}, which is not an object, interface or union`);
    return {
      doc: jsDoc([`The fields of fragment \`${fragment.name}\` on \`${on}\`.`]),
      declaration: declaration(fragment.typeName, shapesOf(context, type, [fragment.node.selectionSet])),
    };
  });
  const operationContexts = operations.map((operation) => operationContext(schema, context, operation));
  const persisted = [...operations].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)).map((operation) => operation.constant);

  return {
    source: config.source ?? DEFAULT_SOURCE,
    imports: file.imports(),
    fragments: fragmentContexts,
    operations: operationContexts,
    persisted,
  };
}

function operationContext(schema: GraphQLSchema, context: ShapeContext, operation: OperationInfo): OperationContext {
  const root = schema.getRootType(operation.kind as OperationTypeNode);
  if (!root) throw new Error(`codegen operations: the schema has no ${operation.kind} type, needed by ${operation.name}`);
  const variables = variableMembers(context, operation.node.variableDefinitions ?? []);
  const what = `${operation.kind} \`${operation.name}\``;
  return {
    resultDoc: jsDoc([`The result of ${what}.`]),
    resultDeclaration: declaration(operation.resultType, shapesOf(context, root as GraphQLCompositeType, [operation.node.selectionSet])),
    variablesDoc: jsDoc([`The variables of ${what}.`]),
    variablesDeclaration: variables.members.length
      ? `export interface ${operation.variablesType} {\n${variables.members.join('\n')}\n}`
      : `export type ${operation.variablesType} = Record<string, never>;`,
    constantDoc: jsDoc([
      `The ${what}: the text a client sends (compacted) and its id.`,
      operation.description && `\n${operation.description}`,
      `\n\`\`\`graphql\n${print(parse(operation.document))}\n\`\`\``,
    ]),
    constant: operation.constant,
    resultType: operation.resultType,
    variablesType: operation.variablesType,
    kind: stringLiteral(operation.kind),
    name: stringLiteral(operation.name),
    id: stringLiteral(operation.id),
    document: documentLiteral(operation.document),
  };
}

/** An interface for one object shape; a type alias for a union of shapes (or `never`). */
function declaration(name: string, shapes: Array<(indent: string) => string>): string {
  if (shapes.length === 1) {
    const text = shapes[0]('');
    return text.startsWith('{') ? `export interface ${name} ${text}` : `export type ${name} = ${text};`;
  }
  if (shapes.length === 0) return `export type ${name} = never;`;
  return `export type ${name} =${shapes.map((shape) => `\n  | ${shape('    ')}`).join('')};`;
}

/** The document as string literals of at most 80 characters, joined with `+` (bundlers join them again). */
function documentLiteral(document: string): string {
  const pieces = document.match(/[^]{1,80}/gu) ?? [''];
  return pieces.map((piece) => `    ${stringLiteral(piece)}`).join(' +\n');
}
