/**
 * For the mock tests: queries written from a schema (every field of a root type, to a depth) and
 * a check that an answer fits the schema, by graphql-js itself: the answer is executed again
 * against the schema with resolvers that read it back, so every non-null, list, enum, scalar and
 * `__typename` rule of `execute` applies to it.
 */
import {
  execute,
  getNamedType,
  getNullableType,
  isAbstractType,
  isEnumType,
  isInputObjectType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  parse,
  type DocumentNode,
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLNamedType,
  type GraphQLSchema,
  type GraphQLObjectType,
} from 'graphql';

/** A literal for a required input of `type` (optional inputs are left out). */
function inputLiteral(type: GraphQLInputType): string {
  const nullable = getNullableType(type);
  if (isListType(nullable)) return `[${inputLiteral(nullable.ofType)}]`;
  if (isEnumType(nullable)) return nullable.getValues()[0]?.name ?? 'null';
  if (isInputObjectType(nullable)) {
    const fields = Object.values(nullable.getFields()).filter((field) => isNonNullType(field.type) && field.defaultValue === undefined);
    return `{${fields.map((field) => `${field.name}: ${inputLiteral(field.type)}`).join(', ')}}`;
  }
  if (isScalarType(nullable)) {
    if (nullable.name === 'Int' || nullable.name === 'Float') return '2';
    if (nullable.name === 'Boolean') return 'true';
    return '"1"';
  }
  return 'null';
}

/** Page-size arguments (the server's complexity limit multiplies by them): 2 items a page. */
const PAGE_SIZES = new Set(['first', 'last', 'limit', 'pageSize', 'take', 'top']);

/** Required arguments, and a page size of 2 where a field takes one. */
function argumentsText(args: readonly GraphQLArgument[]): string {
  const given = args
    .map((arg) => {
      if (PAGE_SIZES.has(arg.name) && getNamedType(arg.type).name === 'Int') return `${arg.name}: 2`;
      return isNonNullType(arg.type) && arg.defaultValue === undefined ? `${arg.name}: ${inputLiteral(arg.type)}` : undefined;
    })
    .filter((text) => text !== undefined);
  return given.length === 0 ? '' : `(${given.join(', ')})`;
}

/** How far queries go: object levels, and inline fragments per abstract type (GitHub's `Node` has hundreds). */
export interface QueryShape {
  depth: number;
  fragments?: number;
}

function selection(schema: GraphQLSchema, type: GraphQLNamedType, shape: QueryShape): string {
  const { depth } = shape;
  if (isLeafType(type)) return '';
  const possible = isAbstractType(type) ? schema.getPossibleTypes(type).slice(0, shape.fragments) : [];
  const objects: readonly GraphQLObjectType[] = isAbstractType(type) ? possible : isObjectType(type) ? [type] : [];
  // Fields of one name but different types in two fragments conflict (GitHub's `email: String` and
  // `email: String!`): those are aliased by their object type.
  const typesByName = new Map<string, Set<string>>();
  for (const object of objects)
    for (const field of Object.values(object.getFields()))
      typesByName.set(field.name, (typesByName.get(field.name) ?? new Set()).add(String(field.type)));
  const fieldsOf = (object: GraphQLObjectType) =>
    Object.values(object.getFields())
      .filter((field) => isLeafType(getNamedType(field.type)) || depth > 1)
      .map((field) => {
        const alias = (typesByName.get(field.name)?.size ?? 0) > 1 ? `${object.name}_${field.name}: ` : '';
        return alias + fieldText(schema, field, { ...shape, depth: depth - 1 });
      })
      .join(' ');
  if (isAbstractType(type)) return `{ __typename ${objects.map((object) => `... on ${object.name} { ${fieldsOf(object)} }`).join(' ')} }`;
  return `{ __typename ${fieldsOf(objects[0]!)} }`;
}

function fieldText(schema: GraphQLSchema, field: GraphQLField<unknown, unknown>, shape: QueryShape): string {
  return `${field.name}${argumentsText(field.args)} ${selection(schema, getNamedType(field.type), shape)}`.trim();
}

/**
 * One query per field of `root`, each selecting to `shape.depth` levels of objects (leaves at every
 * level, `__typename` everywhere; abstract types with a fragment for each of their first
 * `shape.fragments` object types, all by default).
 */
export function queriesForEveryField(
  schema: GraphQLSchema,
  root: GraphQLObjectType,
  shape: QueryShape,
  keyword = 'query',
): Map<string, string> {
  const queries = new Map<string, string>();
  for (const field of Object.values(root.getFields())) queries.set(field.name, `${keyword} { ${fieldText(schema, field, shape)} }`);
  return queries;
}

/**
 * The errors graphql-js finds when it executes `document` again over `data`: non-null fields that are
 * null, values that are not lists where lists are, enum values and scalars its serializers refuse,
 * `__typename`s that are not a possible type. Also: the re-executed data must equal `data`.
 */
export async function schemaErrors(
  schema: GraphQLSchema,
  document: DocumentNode | string,
  data: unknown,
  variables?: Record<string, unknown>,
  operationName?: string,
): Promise<{ errors: string[]; replayed: unknown }> {
  const result = await execute({
    schema,
    document: typeof document === 'string' ? parse(document) : document,
    rootValue: data,
    variableValues: variables,
    operationName,
    fieldResolver: (source, _args, _context, info) => (source as Record<string, unknown>)[String(info.path.key)],
    typeResolver: (value) => (value as { __typename?: string }).__typename,
  });
  return { errors: (result.errors ?? []).map((error) => `${error.path?.join('.')}: ${error.message}`), replayed: result.data };
}
