/**
 * Schema lint: conventions a GraphQL schema should follow that graphql-js does not check. Findings
 * are warnings (printed, never fatal), each at the field's `file:line:col`.
 *
 * - Unbounded lists (seed §8): a field returning a list of objects without a pagination argument
 *   lets one query ask for every row. Lists inside a page type are bounded by the arguments of the
 *   field that returns the page, so they pass: a connection (a type with `pageInfo`), or any type
 *   that only ever comes from fields with a page-size argument (`feed(take:)` → `Feed.links`).
 */
import {
  getNamedType,
  getNullableType,
  isListType,
  isObjectType,
  isInterfaceType,
  isAbstractType,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLSchema,
} from 'graphql';
import type { Diagnostic } from '../core/diagnostics.js';

/** Argument names that bound how many items a list field returns (the generated server's default too: runtime/graphql-limits.ts). */
export const PAGE_SIZE_ARGUMENTS = ['first', 'last', 'limit', 'pageSize', 'take', 'top'];

export function lintSchema(schema: GraphQLSchema): Diagnostic[] {
  return unboundedListFields(schema).map(({ type, field }) => ({
    severity: 'warning',
    message: `${type}.${field.name} returns an unbounded list`,
    hint: `add a page-size argument (${PAGE_SIZE_ARGUMENTS.slice(0, 2).join('/')}, with a default) or return a connection; the generated server enforces a maximum on declared page sizes`,
    location: locationOf(field),
  }));
}

/** Fields returning a list of objects without a page-size argument, outside page types (also the lint rule `graphql/paginate-lists`). */
export function unboundedListFields(schema: GraphQLSchema): { type: string; field: GraphQLField<unknown, unknown> }[] {
  const found: { type: string; field: GraphQLField<unknown, unknown> }[] = [];
  const pages = pageTypes(schema);
  for (const type of Object.values(schema.getTypeMap())) {
    if (type.name.startsWith('__') || !(isObjectType(type) || isInterfaceType(type)) || pages.has(type.name)) continue;
    for (const field of Object.values(type.getFields())) {
      if (returnsObjectList(field) && !isPaginated(field)) found.push({ type: type.name, field });
    }
  }
  return found;
}

function isPaginated(field: GraphQLField<unknown, unknown>): boolean {
  return field.args.some((arg) => PAGE_SIZE_ARGUMENTS.includes(arg.name));
}

/** Types whose lists are bounded from outside: connections, and types only paginated fields return. */
function pageTypes(schema: GraphQLSchema): Set<string> {
  const incoming = new Map<string, boolean>();
  for (const type of Object.values(schema.getTypeMap())) {
    if (!(isObjectType(type) || isInterfaceType(type))) continue;
    for (const field of Object.values(type.getFields())) {
      const target = getNamedType(field.type).name;
      const paged = isPaginated(field) && !isListType(getNullableType(field.type));
      incoming.set(target, (incoming.get(target) ?? true) && paged);
    }
  }
  const pages = new Set<string>();
  for (const type of Object.values(schema.getTypeMap())) {
    if (!(isObjectType(type) || isInterfaceType(type))) continue;
    if ('pageInfo' in type.getFields() || incoming.get(type.name) === true) pages.add(type.name);
  }
  return pages;
}

function returnsObjectList(field: GraphQLField<unknown, unknown>): boolean {
  const type = getNullableType(field.type);
  if (!isListType(type)) return false;
  const item: GraphQLNamedType = getNamedType(type);
  return isObjectType(item) || isAbstractType(item);
}

function locationOf(field: GraphQLField<unknown, unknown>): Diagnostic['location'] {
  const loc = field.astNode?.loc;
  if (!loc) return undefined;
  const { source, start } = loc;
  const before = source.body.slice(0, start);
  const line = before.split('\n').length;
  return { file: source.name, line, column: start - before.lastIndexOf('\n') };
}
