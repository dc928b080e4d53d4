/**
 * The TypeScript type of a selection set: what a server answers for it, as nested object literal
 * types. Fields are collected per concrete type the way graphql-js executes them (aliases, merged
 * response keys, fragment spreads and inline fragments that apply to the type). An abstract type
 * becomes a union with one member per possible type when `__typename` is selected (each with its
 * own literal, so `Extract<…, { __typename: "User" }>` and narrowing work, as graphql-codegen's
 * typescript-operations does); without `__typename` nothing tells members apart, so possible types
 * that answer the same shape share one member.
 */
import {
  Kind,
  SchemaMetaFieldDef,
  TypeMetaFieldDef,
  isAbstractType,
  isEnumType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  typeFromAST,
  type DirectiveNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLSchema,
  type GraphQLType,
  type SelectionNode,
  type SelectionSetNode,
  type VariableDefinitionNode,
  print,
} from 'graphql';
import { jsDoc, propertyKey, stringLiteral } from '../core/builder/names.js';

/** Built-in scalars; every other scalar, and every enum and input type, is imported from `types.ts`. */
const BUILTIN_SCALARS: Record<string, string> = { ID: 'string', String: 'string', Int: 'number', Float: 'number', Boolean: 'boolean' };

export interface ShapeContext {
  schema: GraphQLSchema;
  fragments: ReadonlyMap<string, FragmentDefinitionNode>;
  /** The local name of a schema type imported from `types.ts` (records the import). */
  named: (graphqlName: string) => string;
}

/** One response key of one concrete type: every field node that answers it, and whether it may be absent. */
interface CollectedField {
  name: string;
  definition: GraphQLField<unknown, unknown> | undefined;
  nodes: FieldNode[];
  /** Every occurrence is under `@include`/`@skip` with a variable. */
  optional: boolean;
}

/**
 * The type of `selectionSet` on `parent`, printed for a position indented by `indent`: an object
 * literal type, or a union of them for an abstract parent whose possible types answer differently.
 */
export function selectionType(
  context: ShapeContext,
  parent: GraphQLCompositeType,
  selectionSets: readonly SelectionSetNode[],
  indent: string,
): string {
  const shapes = shapesOf(context, parent, selectionSets);
  if (shapes.length === 0) return 'never';
  if (shapes.length === 1) return shapes[0](indent);
  return unionType(shapes, indent);
}

/** The members of `selectionType`, each printed for its own indent: one per possible type, or per shape without `__typename`. */
export function shapesOf(
  context: ShapeContext,
  parent: GraphQLCompositeType,
  selectionSets: readonly SelectionSetNode[],
): Array<(indent: string) => string> {
  // By name, so the output does not depend on the order types were declared or merged in.
  const types: readonly GraphQLObjectType[] = isAbstractType(parent)
    ? [...context.schema.getPossibleTypes(parent)].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    : [parent];
  // Printed once per possible type with its own `__typename` literal and without descriptions
  // (GitHub describes `id` differently on every type): types whose shapes print the same, which
  // only happens when `__typename` is not selected, share one member.
  const groups = new Map<string, GraphQLObjectType[]>();
  for (const type of types) {
    const text = objectType(context, collectFields(context, type, selectionSets), '', stringLiteral(type.name), () => undefined);
    const group = groups.get(text);
    if (group) group.push(type);
    else groups.set(text, [type]);
  }
  return [...groups.values()].map((group) => (indent: string) => {
    // A merged shape keeps the descriptions of the interface, which hold for all of its types.
    const described: GraphQLCompositeType = group.length === 1 ? group[0] : parent;
    const docOf = (name: string) => ('getFields' in described ? described.getFields()[name] : undefined);
    const fields = collectFields(context, group[0], selectionSets);
    return objectType(context, fields, indent, stringLiteral(group[0].name), docOf);
  });
}

function unionType(members: ReadonlyArray<(indent: string) => string>, indent: string): string {
  return members.map((member) => `\n${indent}  | ${member(`${indent}    `)}`).join('');
}

function objectType(
  context: ShapeContext,
  fields: CollectedField[],
  indent: string,
  typename: string,
  docOf: (field: string) => GraphQLField<unknown, unknown> | undefined,
): string {
  // No field of this type is selected (e.g. a union member without an inline fragment).
  if (fields.length === 0) return '{}';
  const inner = `${indent}  `;
  const members = fields.map((field) => {
    const key = field.nodes[0].alias?.value ?? field.name;
    const optional = field.optional ? '?' : '';
    if (field.name === '__typename') return `${inner}${propertyKey(key)}${optional}: ${typename};`;
    const definition = field.definition;
    if (!definition) throw new Error(`${field.name}: no such field to type`);
    const documented = docOf(field.name);
    const doc = jsDoc(
      [documented?.description ?? undefined, documented?.deprecationReason != null && `@deprecated ${documented.deprecationReason}`],
      inner,
    );
    const selections = field.nodes.flatMap((node) => (node.selectionSet ? [node.selectionSet] : []));
    const value = outputType(context, definition.type, selections, inner);
    return `${doc}${inner}${propertyKey(key)}${optional}:${value.startsWith('\n') ? '' : ' '}${value};`;
  });
  return `{\n${members.join('\n')}\n${indent}}`;
}

function outputType(context: ShapeContext, type: GraphQLOutputType, selections: SelectionSetNode[], indent: string): string {
  if (isNonNullType(type)) return nonNullOutput(context, type.ofType, selections, indent);
  const inner = nonNullOutput(context, type, selections, indent);
  return inner.startsWith('\n') ? `${inner}\n${indent}  | null` : `${inner} | null`;
}

function nonNullOutput(context: ShapeContext, type: GraphQLOutputType, selections: SelectionSetNode[], indent: string): string {
  if (isListType(type)) {
    const item = outputType(context, type.ofType, selections, indent);
    if (item.startsWith('\n')) return `Array<${item}\n${indent}>`;
    return /^[\w.]+$/.test(item) ? `${item}[]` : `Array<${item}>`;
  }
  if (isNonNullType(type)) return nonNullOutput(context, type.ofType, selections, indent);
  if (isScalarType(type) || isEnumType(type)) return leafType(context, type);
  return selectionType(context, type as GraphQLCompositeType, selections, indent);
}

function leafType(context: ShapeContext, type: GraphQLNamedType): string {
  // Introspection enums (`__TypeKind`) are not in types.ts: their values are written out.
  if (isEnumType(type) && type.name.startsWith('__'))
    return type
      .getValues()
      .map((value) => stringLiteral(value.name))
      .join(' | ');
  return BUILTIN_SCALARS[type.name] ?? context.named(type.name);
}

/** `__schema` and `__type(name:)`, which graphql-js answers on the query root type. */
function metaField(schema: GraphQLSchema, type: GraphQLObjectType, name: string): GraphQLField<unknown, unknown> | undefined {
  if (type !== schema.getQueryType()) return undefined;
  return name === SchemaMetaFieldDef.name ? SchemaMetaFieldDef : name === TypeMetaFieldDef.name ? TypeMetaFieldDef : undefined;
}

/** graphql-js's CollectFields for one concrete type, keeping every node of a response key. */
function collectFields(context: ShapeContext, type: GraphQLObjectType, selectionSets: readonly SelectionSetNode[]): CollectedField[] {
  const fields = new Map<string, CollectedField>();
  const visit = (selections: readonly SelectionNode[], conditional: boolean, spread: ReadonlySet<string>): void => {
    for (const selection of selections) {
      const underCondition = conditional || isConditional(selection.directives);
      if (isNeverIncluded(selection.directives)) continue;
      if (selection.kind === Kind.FIELD) {
        const key = selection.alias?.value ?? selection.name.value;
        const found = fields.get(key);
        if (found) {
          found.nodes.push(selection);
          found.optional &&= underCondition;
        } else {
          const name = selection.name.value;
          fields.set(key, {
            name,
            definition: type.getFields()[name] ?? metaField(context.schema, type, name),
            nodes: [selection],
            optional: underCondition,
          });
        }
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        if (!selection.typeCondition || applies(context.schema, selection.typeCondition.name.value, type)) {
          visit(selection.selectionSet.selections, underCondition, spread);
        }
      } else {
        const name = selection.name.value;
        const fragment = context.fragments.get(name);
        if (!fragment) throw new Error(`unknown fragment ${name}`);
        if (spread.has(name) || !applies(context.schema, fragment.typeCondition.name.value, type)) continue;
        visit(fragment.selectionSet.selections, underCondition, new Set([...spread, name]));
      }
    }
  };
  for (const set of selectionSets) visit(set.selections, false, new Set());
  return [...fields.values()];
}

function applies(schema: GraphQLSchema, condition: string, type: GraphQLObjectType): boolean {
  const conditionType = schema.getType(condition);
  if (!conditionType) return false;
  if (isObjectType(conditionType)) return conditionType === type;
  return isAbstractType(conditionType) && schema.isSubType(conditionType, type);
}

/** `@include(if: $x)` or `@skip(if: $x)`: the field may be left out of the answer. */
function isConditional(directives: readonly DirectiveNode[] | undefined): boolean {
  return (directives ?? []).some((directive) => {
    const value = conditionArgument(directive);
    if (value === undefined) return false;
    return (
      value.kind === Kind.VARIABLE ||
      (directive.name.value === 'include' ? value.kind !== Kind.BOOLEAN || !value.value : value.kind !== Kind.BOOLEAN || value.value)
    );
  });
}

/** `@include(if: false)` or `@skip(if: true)`: never in the answer. */
function isNeverIncluded(directives: readonly DirectiveNode[] | undefined): boolean {
  return (directives ?? []).some((directive) => {
    const value = conditionArgument(directive);
    if (value?.kind !== Kind.BOOLEAN) return false;
    return directive.name.value === 'include' ? !value.value : value.value;
  });
}

function conditionArgument(directive: DirectiveNode) {
  if (directive.name.value !== 'include' && directive.name.value !== 'skip') return undefined;
  return directive.arguments?.find((argument) => argument.name.value === 'if')?.value;
}

/** The members of an operation's variables type, indented by two spaces. */
export function variableMembers(
  context: ShapeContext,
  variables: readonly VariableDefinitionNode[],
): { members: string[]; allOptional: boolean } {
  const members = variables.map((variable) => {
    const type = typeFromAST(context.schema, variable.type) as GraphQLInputType | undefined;
    if (!type) throw new Error(`unknown type ${print(variable.type)} of $${variable.variable.name.value}`);
    const optional = !isNonNullType(type) || variable.defaultValue !== undefined;
    const doc = jsDoc([variable.defaultValue && `Default: \`${print(variable.defaultValue)}\`.`], '  ');
    return { text: `${doc}  ${propertyKey(variable.variable.name.value)}${optional ? '?' : ''}: ${inputType(context, type)};`, optional };
  });
  return { members: members.map((member) => member.text), allOptional: members.every((member) => member.optional) };
}

function inputType(context: ShapeContext, type: GraphQLType): string {
  if (isNonNullType(type)) return nonNullInput(context, type.ofType);
  return `${nonNullInput(context, type)} | null`;
}

function nonNullInput(context: ShapeContext, type: GraphQLType): string {
  if (isNonNullType(type)) return nonNullInput(context, type.ofType);
  if (isListType(type)) {
    const item = inputType(context, type.ofType);
    return /^[\w.]+$/.test(item) ? `${item}[]` : `Array<${item}>`;
  }
  return leafType(context, type as GraphQLNamedType);
}
