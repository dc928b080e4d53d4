/**
 * The TypeScript names of GraphQL things, decided in one place: `types.ts`, `operations.ts`, the
 * client and the server all refer to each other's declarations by these names.
 */
import {
  isInterfaceType,
  isIntrospectionType,
  isObjectType,
  isSpecifiedScalarType,
  isUnionType,
  type GraphQLNamedType,
  type GraphQLSchema,
} from 'graphql';
import { pascalCase, uniqueName } from '../core/builder/names.js';

/**
 * Names TypeScript reserves for its own types: a GraphQL type may be called `string` or `object`,
 * TypeScript's cannot. Such a type gets a trailing `_`.
 */
const RESERVED_TYPE_NAMES = new Set([
  'any',
  'bigint',
  'boolean',
  'never',
  'null',
  'number',
  'object',
  'string',
  'symbol',
  'undefined',
  'unknown',
  'void',
  'break',
  'case',
  'catch',
  'class',
  'const',
  'continue',
  'debugger',
  'default',
  'delete',
  'do',
  'else',
  'enum',
  'export',
  'extends',
  'false',
  'finally',
  'for',
  'function',
  'if',
  'import',
  'in',
  'instanceof',
  'new',
  'return',
  'super',
  'switch',
  'this',
  'throw',
  'true',
  'try',
  'typeof',
  'var',
  'while',
  'with',
  'implements',
  'interface',
  'let',
  'package',
  'private',
  'protected',
  'public',
  'static',
  'yield',
  'await',
  'type',
  'as',
  'is',
  'keyof',
  'infer',
  'readonly',
  'unique',
  'asserts',
  // Globals generated code refers to: a schema type of that name would shadow them.
  'Promise',
  'AsyncIterable',
  'Record',
  'Array',
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

/** The client method of an operation: `getTask`. */
export function operationFunctionName(operationName: string): string {
  const name = pascalCase(operationName);
  return name.charAt(0).toLowerCase() + name.slice(1);
}

/**
 * The names `types.ts` declares besides the schema's own types, decided once per schema so every
 * plugin refers to the same ones. Rule: schema types keep their names (`typeName`); a generated
 * name that is already taken, by a schema type or by an earlier generated name, gets the first free
 * number (`Resolvers2`, `QueryTaskArgs2`). Names are handed out in a fixed order (the `Resolvers`
 * map, helpers and imports, then arguments and per-type resolvers by type name and field order,
 * then the `Context` type parameter), so the result depends on the schema alone.
 */
export interface TypesNames {
  /** The map a server implements: `Resolvers`. */
  resolvers: string;
  /** `<Parent><Field>Args` of a field that has arguments, else undefined. */
  args(parentType: string, field: string): string | undefined;
  /** `TaskResolvers` for an object, interface or union type, else undefined. */
  typeResolvers(graphqlName: string): string | undefined;
  /** Helper types and type imports of `types.ts`. */
  maybePromise: string;
  resolver: string;
  subscriptionResolver: string;
  typeResolver: string;
  resolveInfo: string;
  scalarType: string;
  /** The context type parameter of the resolver maps (it must not shadow a schema type). */
  context: string;
  /** Resolver-side shapes of types that are mapped or reach a mapped type (config `mappers`): `ResolversTypes`. */
  resolversTypes: string;
  /** What the events of each `Subscription` field carry, in resolver form: `SubscriptionPayloads`. */
  subscriptionPayloads: string;
  /** Every name above and every schema type's TS name: what an imported mapper must not be called. */
  taken: ReadonlySet<string>;
}

const typesNamesCache = new WeakMap<GraphQLSchema, TypesNames>();

/** The schema's own types that `types.ts` declares, by GraphQL name (no built-in scalars, no introspection types). */
export function declaredTypes(schema: GraphQLSchema): GraphQLNamedType[] {
  return Object.values(schema.getTypeMap())
    .filter((type) => !isIntrospectionType(type) && !isSpecifiedScalarType(type))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

export function typesNames(schema: GraphQLSchema): TypesNames {
  const cached = typesNamesCache.get(schema);
  if (cached) return cached;
  const types = declaredTypes(schema);
  const taken = new Set(types.map((type) => typeName(type.name)));
  const resolvers = uniqueName('Resolvers', taken);
  const helpers = {
    maybePromise: uniqueName('MaybePromise', taken),
    resolver: uniqueName('Resolver', taken),
    subscriptionResolver: uniqueName('SubscriptionResolver', taken),
    typeResolver: uniqueName('TypeResolver', taken),
    resolveInfo: uniqueName('GraphQLResolveInfo', taken),
    scalarType: uniqueName('GraphQLScalarType', taken),
  };
  const args = new Map<string, Map<string, string>>();
  for (const type of types) {
    if (!isObjectType(type) && !isInterfaceType(type)) continue;
    const fields = new Map<string, string>();
    for (const field of Object.values(type.getFields())) {
      if (field.args.length > 0) fields.set(field.name, uniqueName(argsTypeName(type.name, field.name), taken));
    }
    if (fields.size > 0) args.set(type.name, fields);
  }
  const perType = new Map<string, string>();
  for (const type of types) {
    if (isObjectType(type) || isInterfaceType(type) || isUnionType(type))
      perType.set(type.name, uniqueName(resolversTypeName(type.name), taken));
  }
  const names: TypesNames = {
    resolvers,
    ...helpers,
    args: (parentType, field) => args.get(parentType)?.get(field),
    typeResolvers: (graphqlName) => perType.get(graphqlName),
    context: uniqueName('Context', taken),
    // Added after `Context`, so names chosen before them stay what they were.
    resolversTypes: uniqueName('ResolversTypes', taken),
    subscriptionPayloads: uniqueName('SubscriptionPayloads', taken),
    taken,
  };
  typesNamesCache.set(schema, names);
  return names;
}

/** The typed document constant of an operation in `operations.ts`: `GetTask`. */
export function operationConstantName(operationName: string): string {
  return pascalCase(operationName);
}
