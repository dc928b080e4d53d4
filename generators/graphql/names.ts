/**
 * The TypeScript names of GraphQL things, decided in one place: `types.ts`, `operations.ts`, the
 * client and the server all refer to each other's declarations by these names.
 */
import { pascalCase } from '../core/names.js';

/**
 * Names TypeScript reserves for its own types: a GraphQL type may be called `string` or `object`,
 * TypeScript's cannot. Such a type gets a trailing `_`.
 */
const RESERVED_TYPE_NAMES = new Set([
  'any', 'bigint', 'boolean', 'never', 'null', 'number', 'object', 'string', 'symbol', 'undefined', 'unknown', 'void',
  'break', 'case', 'catch', 'class', 'const', 'continue', 'debugger', 'default', 'delete', 'do', 'else', 'enum', 'export',
  'extends', 'false', 'finally', 'for', 'function', 'if', 'import', 'in', 'instanceof', 'new', 'return', 'super', 'switch',
  'this', 'throw', 'true', 'try', 'typeof', 'var', 'while', 'with', 'implements', 'interface', 'let', 'package', 'private',
  'protected', 'public', 'static', 'yield', 'await', 'type', 'as', 'is', 'keyof', 'infer', 'readonly', 'unique', 'asserts',
]);

/** The TS name of a schema type (object, input, enum, union, interface, scalar). */
export function typeName(graphqlName: string): string {
  return RESERVED_TYPE_NAMES.has(graphqlName) ? `${graphqlName}_` : graphqlName;
}

/** Arguments of a field: `QueryTaskArgs`, `ProjectTasksArgs` (graphql-codegen's names). */
export function argsTypeName(parentType: string, field: string): string {
  return `${pascalCase(parentType)}${pascalCase(field)}Args`;
}

/** Resolvers of one type: `TaskResolvers`, `QueryResolvers`. */
export function resolversTypeName(graphqlName: string): string {
  return `${pascalCase(graphqlName)}Resolvers`;
}

/** Result of an operation: `GetTaskQuery`, `CreateTaskMutation`, `TaskChangedSubscription`. */
export function operationTypeName(operationName: string, kind: 'query' | 'mutation' | 'subscription'): string {
  return `${pascalCase(operationName)}${pascalCase(kind)}`;
}

/** Variables of an operation: `GetTaskQueryVariables`. */
export function variablesTypeName(operationName: string, kind: 'query' | 'mutation' | 'subscription'): string {
  return `${operationTypeName(operationName, kind)}Variables`;
}

/** A named fragment's shape: `TaskFieldsFragment`. */
export function fragmentTypeName(fragmentName: string): string {
  return `${pascalCase(fragmentName)}Fragment`;
}

/** The client method and the typed document constant of an operation: `getTask`. */
export function operationFunctionName(operationName: string): string {
  const name = pascalCase(operationName);
  return name.charAt(0).toLowerCase() + name.slice(1);
}
