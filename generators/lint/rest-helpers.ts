/** What several REST rules ask of a path or an operation. */
import type { MediaContent, Parameter } from '../openapi/model.js';
import type { JsonSchema } from '../core/schema/json-schema.js';
import { words } from '../core/builder/names.js';
import type { RestContext, RestOperation } from './rest-context.js';
import type { Where } from '../core/schema/json-documents.js';
import { finalAction, type PathMethods } from './rest-actions.js';

/**
 * The collections a path walks through: literal segments followed by a `{parameter}` (a member of
 * them is addressed), and the last segment when it is literal and not an action (`…/{id}/merge`).
 * Namespaces between them (`/repos/{owner}/{repo}/actions/runs`: `actions`) are not collections.
 */
export function collectionSegments(path: string, methods: PathMethods): string[] {
  const parts = path.split('/').filter((segment) => segment !== '');
  const action = finalAction(path, methods);
  return parts.filter((segment, i) => {
    if (segment.includes('{') || /^v\d+([a-z]+\d*)?$/i.test(segment)) return false;
    const next = parts[i + 1];
    return next === undefined ? action === undefined : next.startsWith('{');
  });
}

export function firstWord(text: string): string {
  return (words(text)[0] ?? '').toLowerCase();
}

/**
 * A POST with a body on a collection (`/tasks`, `/projects/{id}/tasks`), or on an action that makes
 * a new resource (`/images/{id}/copy`, `/tasks/{id}:clone`): a create. Other actions
 * (`/trash/purge`, `/osd/{id}/reweight`) are not.
 */
export function isCreate(context: RestContext, operation: RestOperation): boolean {
  const { method, path, requestBody } = operation.model;
  if (method !== 'post' || requestBody === undefined) return false;
  const action = finalAction(path, pathMethods(context, path));
  if (action) return action.effect === 'creates';
  const last = path.split('/').pop() ?? '';
  return last !== '' && !last.includes('{') && !/^(search|query|batch|bulk)/i.test(last);
}

const methodsByPath = new WeakMap<RestContext, Map<string, Set<string>>>();

/** The methods declared on a path key. */
export function pathMethods(context: RestContext, path: string): PathMethods {
  let byPath = methodsByPath.get(context);
  if (!byPath) {
    byPath = new Map();
    for (const { model } of context.operations) byPath.set(model.path, (byPath.get(model.path) ?? new Set()).add(model.method));
    methodsByPath.set(context, byPath);
  }
  return byPath.get(path) ?? new Set();
}

/** Each path key once, with one of its operations (to locate it). */
export function pathKeys(context: RestContext): { path: string; operation: RestOperation }[] {
  const seen = new Map<string, RestOperation>();
  for (const operation of context.operations) if (!seen.has(operation.model.path)) seen.set(operation.model.path, operation);
  return [...seen].map(([path, operation]) => ({ path, operation }));
}

/** Where a parameter of the operation is written: in the operation's list, else its path item's. */
export function parameterWhere(context: RestContext, operation: RestOperation, parameter: Parameter): Where {
  const lists = [operation.where, context.pathKey(operation)];
  for (const owner of lists) {
    const node = context.member(context.valueAt(owner), owner, 'parameters');
    if (!node || !Array.isArray(node.value)) continue;
    for (let i = 0; i < node.value.length; i++) {
      const item = context.member(node.value, node.where, String(i));
      const value = item?.value as { name?: unknown; in?: unknown } | undefined;
      if (item && value?.name === parameter.name && value.in === parameter.in) return item.where;
    }
  }
  return operation.where;
}

/** A response's schema with `$ref`s to named schemas followed (once per level). */
export function resolveSchema(context: RestContext, schema: JsonSchema | undefined): JsonSchema | undefined {
  let current = schema;
  for (let depth = 0; depth < 8 && typeof current === 'object' && current.$ref?.startsWith('#/$defs/'); depth++) {
    const name = current.$ref.slice('#/$defs/'.length);
    current = context.model.schemas.find((named) => named.name === name)?.schema;
  }
  return current;
}

export function jsonContent(contents: MediaContent[]): MediaContent | undefined {
  return contents.find((content) => /[/+]json$/.test(content.mediaType.split(';')[0]?.trim() ?? ''));
}

const ITEM_PROPERTIES = ['items', 'data', 'results'];

/**
 * What a list returns: an array, or an object wrapping one array — as items/data/results, under
 * the collection's own name (`{ tasks: [...] }` from `/tasks`), or as its only property. An object
 * with an array among other facts (`{ status, checks: [...] }`) is one resource.
 */
export function isList(context: RestContext, schema: JsonSchema | undefined, collection?: string): boolean {
  const resolved = resolveSchema(context, schema);
  if (typeof resolved !== 'object') return false;
  if (resolved.type === 'array' || (resolved.items !== undefined && resolved.type === undefined)) return true;
  const properties = Object.keys(resolved.properties ?? {});
  const wrappers = properties.length === 1 ? properties : [...ITEM_PROPERTIES, ...(collection ? [collection] : [])];
  return wrappers.some((name) => {
    const property = resolveSchema(context, resolved.properties?.[name]);
    return typeof property === 'object' && property.type === 'array';
  });
}
