/**
 * Pagination of list operations: detected from the query parameters and the 200 body (cursor +
 * limit, or page + a page size), or written as `x-pagination`. It looks through named schemas, so
 * it runs once all of them are lowered.
 */
import type { Operation, Pagination } from './model.js';
import type { JsonSchema, NamedSchema, SchemaObject } from '../core/schema/json-schema.js';
import type { Problems, Where } from '../core/schema/json-documents.js';
import { at, describe, isObject, locate } from '../core/schema/json-documents.js';
import type { RawOperation } from './path-items.js';

/** Sets `pagination` on each operation that pages; `raw[i]` is how `operations[i]` is written. */
export function addPagination(operations: Operation[], raw: RawOperation[], schemas: NamedSchema[], problems: Problems): void {
  const byName = new Map<string, JsonSchema>(schemas.map((named) => [named.name, named.schema]));
  operations.forEach((operation, i) => {
    const override = raw[i].raw['x-pagination'];
    const pagination =
      override === undefined
        ? detectPagination(operation, byName)
        : explicitPagination(override, at(raw[i].where, 'x-pagination'), operation, byName, problems);
    if (pagination) operation.pagination = pagination;
  });
}

const PAGE_SIZE_PARAMS = ['pageSize', 'page_size', 'per_page', 'perPage', 'size'];

/** Follows `#/$defs/` refs to the schema object they name. */
export function resolve(schema: JsonSchema | undefined, byName: Map<string, JsonSchema>): SchemaObject | undefined {
  for (let depth = 0; depth < 32 && typeof schema === 'object'; depth++) {
    if (!schema.$ref) return schema;
    schema = byName.get(schema.$ref.slice('#/$defs/'.length));
  }
  return undefined;
}

/** Properties of an object schema, including those its `allOf` members add. */
export function properties(schema: SchemaObject | undefined, byName: Map<string, JsonSchema>): [string, JsonSchema][] {
  if (!schema) return [];
  const own = schema.properties ? Object.entries(schema.properties) : [];
  return [...own, ...(schema.allOf ?? []).flatMap((member) => properties(resolve(member, byName), byName))];
}

/** Whether `schema` (or one of its `anyOf`/`oneOf` members) admits values of `type`. */
export function hasType(schema: SchemaObject | undefined, type: string, byName: Map<string, JsonSchema>): boolean {
  if (!schema) return false;
  if (schema.type !== undefined) return Array.isArray(schema.type) ? schema.type.includes(type as never) : schema.type === type;
  if (type === 'array' && (schema.items !== undefined || schema.prefixItems)) return true;
  const members = schema.anyOf ?? schema.oneOf;
  return !!members && members.some((member) => hasType(resolve(member, byName), type, byName));
}

/** The 200 JSON body of `operation`, resolved. */
function okBody(operation: Operation, byName: Map<string, JsonSchema>): SchemaObject | undefined {
  const ok = operation.responses.find((response) => response.status === '200');
  const json = ok?.contents.find((content) => /^application\/(.+\+)?json$/.test(content.mediaType.split(';')[0].trim()));
  return resolve(json?.schema, byName);
}

/** What the 200 body offers for paging: its first array property and a string `…cursor…` property. */
function pageShape(operation: Operation, byName: Map<string, JsonSchema>): { itemsProperty?: string; nextCursorProperty?: string } {
  const body = okBody(operation, byName);
  const props = hasType(body, 'object', byName) || body?.properties ? properties(body, byName) : [];
  return {
    itemsProperty: props.find(([, schema]) => hasType(resolve(schema, byName), 'array', byName))?.[0],
    nextCursorProperty: props.find(([name, schema]) => /cursor/i.test(name) && hasType(resolve(schema, byName), 'string', byName))?.[0],
  };
}

/** Cursor pagination (`cursor` + `limit`), page pagination (`page` + a page size), or none. */
function detectPagination(operation: Operation, byName: Map<string, JsonSchema>): Pagination | undefined {
  if (operation.method !== 'get') return undefined;
  const query = new Set(operation.parameters.filter((parameter) => parameter.in === 'query').map((parameter) => parameter.name));
  const { itemsProperty, nextCursorProperty } = pageShape(operation, byName);
  if (query.has('cursor') && query.has('limit') && itemsProperty && nextCursorProperty) {
    return { kind: 'cursor', cursorParam: 'cursor', limitParam: 'limit', itemsProperty, nextCursorProperty };
  }
  const pageSize = PAGE_SIZE_PARAMS.find((name) => query.has(name));
  if (query.has('page') && pageSize) {
    const page: Pagination = { kind: 'page', pageParam: 'page', pageSizeParam: pageSize };
    if (itemsProperty) page.itemsProperty = itemsProperty;
    return page;
  }
  return undefined;
}

/**
 * `x-pagination` on an operation overrides detection: `false` turns it off; an object sets `kind`
 * and any of the parameter and property names (the rest are detected or conventional).
 */
function explicitPagination(
  value: unknown,
  where: Where,
  operation: Operation,
  byName: Map<string, JsonSchema>,
  problems: Problems,
): Pagination | undefined {
  if (value === false) return undefined;
  if (!isObject(value) || (value.kind !== 'cursor' && value.kind !== 'page')) {
    problems.add(
      `"x-pagination" must be false or an object with kind: cursor or kind: page, not ${describe(isObject(value) ? value.kind : value)}`,
      locate(isObject(value) ? at(where, 'kind') : where),
      'write e.g. x-pagination: { kind: cursor, cursorParam: after, limitParam: first, itemsProperty: items, nextCursorProperty: next }',
    );
    return undefined;
  }
  const shape = pageShape(operation, byName);
  const query = new Set(operation.parameters.filter((parameter) => parameter.in === 'query').map((parameter) => parameter.name));
  const fields: Record<string, string | undefined> =
    value.kind === 'cursor'
      ? { cursorParam: 'cursor', limitParam: 'limit', itemsProperty: shape.itemsProperty, nextCursorProperty: shape.nextCursorProperty }
      : {
          pageParam: 'page',
          pageSizeParam: PAGE_SIZE_PARAMS.find((name) => query.has(name)) ?? 'pageSize',
          itemsProperty: shape.itemsProperty,
        };
  const result: Record<string, unknown> = { kind: value.kind };
  const props = new Set(properties(okBody(operation, byName), byName).map(([name]) => name));
  for (const [field, fallback] of Object.entries(fields)) {
    const given = value[field];
    if (given !== undefined && typeof given !== 'string') {
      problems.add(
        `"x-pagination.${field}" must be a string, not ${describe(given)}`,
        locate(at(where, field)),
        'write the parameter or property name',
      );
      continue;
    }
    const chosen = given ?? fallback;
    if (chosen === undefined) {
      if (field !== 'itemsProperty' || value.kind === 'cursor')
        problems.add(
          `"x-pagination" needs "${field}" here: it cannot be found in the 200 response`,
          locate(where),
          `add ${field}: <property name of the 200 response body>`,
        );
      continue;
    }
    const isParam = field.endsWith('Param');
    if (isParam ? !query.has(chosen) : given !== undefined && props.size > 0 && !props.has(chosen)) {
      problems.add(
        `"x-pagination.${field}": ${isParam ? 'query parameter' : '200 response property'} "${chosen}" does not exist`,
        locate(given !== undefined ? at(where, field) : where),
        isParam ? `declare a query parameter "${chosen}", or name another` : 'name a property of the 200 response body',
      );
    }
    result[field] = chosen;
  }
  return result as unknown as Pagination;
}
