/**
 * What the TanStack Query options (`plugins/query.ts`) derive from the schema and the documents:
 * - which queries a mutation invalidates: those whose selection reaches a type the mutation changes
 *   (the type its root fields return, or, for a field that returns a scalar such as
 *   `deleteTask: Boolean!`, the type its name ends with: `Task`);
 * - which queries are cursor-paginated: a field reached through objects only (no list on the way)
 *   whose `after` argument is one of the operation's variables and whose type is a Relay connection
 *   with `pageInfo { hasNextPage endCursor }` selected.
 */
import {
  getNamedType,
  isAbstractType,
  isCompositeType,
  isNonNullType,
  isObjectType,
  Kind,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type OperationTypeNode,
  type SelectionSetNode,
} from 'graphql';
import { propertyAccess, words } from '../core/builder/names.js';

type Fragments = ReadonlyMap<string, FragmentDefinitionNode>;

/** A field selected at some place in an operation, with the type it is selected on. */
interface SelectedField {
  /** The name it has in the result (its alias, else its name). */
  responseKey: string;
  definition: GraphQLField<unknown, unknown>;
  selectionSet: SelectionSetNode | undefined;
}

/** The fields `selectionSet` selects on `parent`, through inline fragments and fragment spreads. */
function selectedFields(
  schema: GraphQLSchema,
  parent: GraphQLCompositeType,
  selectionSet: SelectionSetNode,
  fragments: Fragments,
): SelectedField[] {
  const found: SelectedField[] = [];
  const visit = (on: GraphQLCompositeType, set: SelectionSetNode): void => {
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) {
        const definition = 'getFields' in on ? on.getFields()[selection.name.value] : undefined;
        if (definition)
          found.push({ responseKey: selection.alias?.value ?? selection.name.value, definition, selectionSet: selection.selectionSet });
        continue;
      }
      const fragment = selection.kind === Kind.FRAGMENT_SPREAD ? fragments.get(selection.name.value) : selection;
      if (!fragment) continue;
      const condition = fragment.typeCondition ? schema.getType(fragment.typeCondition.name.value) : on;
      if (condition && isCompositeType(condition)) visit(condition, fragment.selectionSet);
    }
  };
  visit(parent, selectionSet);
  return found;
}

/** The type itself, or every type it may be at run time (an interface's or a union's). */
function concreteNames(schema: GraphQLSchema, type: GraphQLNamedType): string[] {
  return isAbstractType(type) ? [type.name, ...schema.getPossibleTypes(type).map((possible) => possible.name)] : [type.name];
}

/** Every object, interface and union type an operation's result holds, at any depth. */
export function selectedTypes(schema: GraphQLSchema, operation: OperationDefinitionNode, fragments: Fragments): Set<string> {
  const types = new Set<string>();
  const walk = (parent: GraphQLCompositeType, set: SelectionSetNode): void => {
    for (const field of selectedFields(schema, parent, set, fragments)) {
      const type = getNamedType(field.definition.type);
      if (!isCompositeType(type) || !field.selectionSet) continue;
      for (const name of concreteNames(schema, type)) types.add(name);
      walk(type, field.selectionSet);
    }
  };
  const root = schema.getRootType(operation.operation as OperationTypeNode);
  if (root) walk(root, operation.selectionSet);
  return types;
}

/** The types a mutation changes: what its root fields return, or the type a scalar field's name ends with. */
export function changedTypes(schema: GraphQLSchema, operation: OperationDefinitionNode, fragments: Fragments): Set<string> {
  const types = new Set<string>();
  const root = schema.getRootType(operation.operation as OperationTypeNode);
  if (!root) return types;
  for (const field of selectedFields(schema, root, operation.selectionSet, fragments)) {
    const type = getNamedType(field.definition.type);
    if (isCompositeType(type)) {
      for (const name of concreteNames(schema, type)) types.add(name);
      continue;
    }
    const named = typeNamedBy(schema, field.definition.name);
    if (named) types.add(named);
  }
  return types;
}

/** `deleteTask` → `Task`, `archiveProjectTasks` → `ProjectTasks` or `Tasks`: the longest ending that names a composite type. */
function typeNamedBy(schema: GraphQLSchema, fieldName: string): string | undefined {
  const parts = words(fieldName);
  for (let start = 1; start < parts.length; start++) {
    const name = parts
      .slice(start)
      .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
      .join('');
    const type = schema.getType(name);
    if (type && isCompositeType(type) && !name.startsWith('__')) return name;
  }
  return undefined;
}

/** A query whose pages are reached by a cursor variable. */
export interface CursorPagination {
  /** The variable given as `after`, e.g. `after`. */
  variable: string;
  /** The paginated field's place in the result, for the docs: `project.tasks`. */
  connection: string;
  /** The expression after `page` that reads its `pageInfo`: `.project?.tasks.pageInfo`. */
  pageInfo: string;
}

/** The one cursor-paginated connection of `operation`, if it has exactly one. */
export function cursorPagination(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  fragments: Fragments,
): CursorPagination | undefined {
  const found: CursorPagination[] = [];
  const walk = (parent: GraphQLCompositeType, set: SelectionSetNode, place: string[], access: string): void => {
    for (const field of selectedFields(schema, parent, set, fragments)) {
      const type = field.definition.type;
      const named = getNamedType(type);
      // A list on the way would make as many cursors as items.
      if (!field.selectionSet || !isObjectType(named) || unwrapNonNull(type) !== named) continue;
      const here = propertyAccess(access, field.responseKey);
      const optional = isNonNullType(type) ? '' : '?';
      const after = cursorVariable(operation, field, set);
      const pageInfo = after && pageInfoKey(schema, named, field.selectionSet, fragments);
      if (after && pageInfo) {
        found.push({
          variable: after,
          connection: [...place, field.responseKey].join('.'),
          pageInfo: `${here}${optional}${propertyAccess('', pageInfo)}`,
        });
        continue;
      }
      walk(named, field.selectionSet, [...place, field.responseKey], `${here}${optional}`);
    }
  };
  const root = schema.getRootType(operation.operation as OperationTypeNode);
  if (root) walk(root, operation.selectionSet, [], '');
  return found.length === 1 ? found[0] : undefined;
}

function unwrapNonNull(type: GraphQLField<unknown, unknown>['type']): GraphQLField<unknown, unknown>['type'] {
  return isNonNullType(type) ? type.ofType : type;
}

/** The variable the field's `after` argument is, at the field's place in `set`. */
function cursorVariable(operation: OperationDefinitionNode, field: SelectedField, set: SelectionSetNode): string | undefined {
  if (!field.definition.args.some((arg) => arg.name === 'after')) return undefined;
  const node = set.selections.find(
    (selection) => selection.kind === Kind.FIELD && (selection.alias?.value ?? selection.name.value) === field.responseKey,
  );
  if (node?.kind !== Kind.FIELD) return undefined;
  const value = node.arguments?.find((argument) => argument.name.value === 'after')?.value;
  if (value?.kind !== Kind.VARIABLE) return undefined;
  const declared = operation.variableDefinitions?.some((definition) => definition.variable.name.value === value.name.value);
  return declared ? value.name.value : undefined;
}

/** The response key of `pageInfo` when the connection selects `hasNextPage` and `endCursor` in it. */
function pageInfoKey(
  schema: GraphQLSchema,
  connection: GraphQLCompositeType,
  set: SelectionSetNode,
  fragments: Fragments,
): string | undefined {
  const pageInfo = selectedFields(schema, connection, set, fragments).find(
    (field) => field.responseKey === 'pageInfo' && field.definition.name === 'pageInfo',
  );
  const type = pageInfo && getNamedType(pageInfo.definition.type);
  if (!pageInfo?.selectionSet || !type || !isObjectType(type)) return undefined;
  const keys = new Set(
    selectedFields(schema, type, pageInfo.selectionSet, fragments)
      .filter((field) => field.responseKey === field.definition.name)
      .map((field) => field.responseKey),
  );
  return keys.has('hasNextPage') && keys.has('endCursor') ? 'pageInfo' : undefined;
}
