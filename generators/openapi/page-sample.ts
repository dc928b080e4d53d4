/**
 * A page-numbered sample body made consistent. Built one by one, a page's numbers contradict each
 * other (`page: 746, pageSize: 557, total: 553`); where the operation pages by number
 * (pagination.ts) and its 200 body (or an object in it, such as `meta`) carries the page, the page
 * size and a total, they are set to what a server answers the first request: the first page, the
 * page size the query parameter defaults to (within the bounds of both schemas, and at least the
 * items sampled; items beyond the greatest allowed size are dropped), and a total of exactly the
 * items so far, since a page shorter than its size is the last one (the generated client stops
 * there too).
 */
import type { JsonSchema, SchemaObject } from '../core/schema/json-schema.js';
import type { Operation, PagePagination } from './model.js';
import { hasType, properties, resolve } from './pagination.js';

/** The page size a sample takes when neither the query parameter nor the body gives a default. */
const DEFAULT_PAGE_SIZE = 20;

/** `body` with its page numbers made consistent, or `undefined` when it has none to set. */
export function consistentPage(
  body: unknown,
  bodySchema: JsonSchema | undefined,
  operation: Operation,
  pagination: PagePagination,
  byName: Map<string, JsonSchema>,
): Record<string, unknown> | undefined {
  if (!isRecord(body)) return undefined;
  const top = propertySchemas(bodySchema, byName);
  // The numbers stand beside the items, or in an object property of the body (`meta`, `pagination`).
  const nested = numberNames(top, pagination, byName)
    ? undefined
    : [...top].find(([name, schema]) => isRecord(body[name]) && numberNames(propertySchemas(schema, byName), pagination, byName));
  const props = nested === undefined ? top : propertySchemas(nested[1], byName);
  const names = numberNames(props, pagination, byName);
  if (names === undefined) return undefined;

  const page = { ...body };
  const list = pagination.itemsProperty === undefined ? undefined : page[pagination.itemsProperty];
  const items = Array.isArray(list) ? list : [];
  const sizeParam = resolve(operation.parameters.find((p) => p.in === 'query' && p.name === pagination.pageSizeParam)?.schema, byName);
  const sizeBounds = intersect(bounds(sizeParam), bounds(names.size === undefined ? undefined : props.get(names.size)));
  const pageSize = clamp(numeric(sizeParam?.default) ?? DEFAULT_PAGE_SIZE, Math.max(sizeBounds.low, items.length, 1), sizeBounds.high);
  const kept = items.slice(0, pageSize);
  const first = Math.max(1, bounds(names.page === undefined ? undefined : props.get(names.page)).low);

  if (pagination.itemsProperty !== undefined && Array.isArray(list)) page[pagination.itemsProperty] = kept;
  const numbers = nested === undefined ? page : { ...(page[nested[0]] as Record<string, unknown>) };
  if (nested !== undefined) page[nested[0]] = numbers;
  if (names.page !== undefined) numbers[names.page] = first;
  if (names.size !== undefined) numbers[names.size] = pageSize;
  if (names.total !== undefined) numbers[names.total] = (first - 1) * pageSize + kept.length;
  return page;
}

/** The properties of an object schema, each resolved. */
function propertySchemas(schema: JsonSchema | undefined, byName: Map<string, JsonSchema>): Map<string, SchemaObject | undefined> {
  return new Map(properties(resolve(schema, byName), byName).map(([name, property]) => [name, resolve(property, byName)]));
}

/** Which integer properties hold the page, the page size (named as the query parameters) and a total; `undefined` when none. */
function numberNames(
  props: Map<string, SchemaObject | undefined>,
  pagination: PagePagination,
  byName: Map<string, JsonSchema>,
): { page?: string; size?: string; total?: string } | undefined {
  const integer = (name: string) => hasType(props.get(name), 'integer', byName);
  const page = integer(pagination.pageParam) ? pagination.pageParam : undefined;
  const size = integer(pagination.pageSizeParam) ? pagination.pageSizeParam : undefined;
  const total = [...props.keys()].find((name) => /^total/i.test(name) && integer(name));
  if (page === undefined && size === undefined && total === undefined) return undefined;
  return { ...(page !== undefined && { page }), ...(size !== undefined && { size }), ...(total !== undefined && { total }) };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

interface Bounds {
  low: number;
  high: number;
}

/** The integers an integer schema allows, as a range. */
function bounds(schema: SchemaObject | undefined): Bounds {
  const low = Math.max(schema?.minimum ?? -Infinity, schema?.exclusiveMinimum === undefined ? -Infinity : schema.exclusiveMinimum + 1);
  const high = Math.min(schema?.maximum ?? Infinity, schema?.exclusiveMaximum === undefined ? Infinity : schema.exclusiveMaximum - 1);
  return { low: Math.ceil(low), high: Math.floor(high) };
}

function intersect(a: Bounds, b: Bounds): Bounds {
  return { low: Math.max(a.low, b.low), high: Math.min(a.high, b.high) };
}

/** `value` within [low, high]; `high` wins when the range is empty (fewer items are kept then). */
function clamp(value: number, low: number, high: number): number {
  return Math.min(Math.max(value, low), high);
}

function numeric(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) ? value : undefined;
}
