/**
 * The operations under `paths`, as written: each path key (a query string in it read as
 * path-query.ts says), the Path Item it names (a `$ref` followed), and its method entries. Nothing
 * is lowered here; the lint reads the same walk, so its order is the model's order.
 */
import type { HttpMethod } from './model.js';
import type { Documents, Problems, SourceDoc, Where } from '../core/schema/json-documents.js';
import { at, child, deref, describe, isObject, locate, own } from '../core/schema/json-documents.js';
import { describeReading, splitPathKey, type QueryInPath } from './path-query.js';

export const METHODS: HttpMethod[] = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** One operation as written, with the Path Item around it. */
export interface RawOperation {
  /** The path key without a query string (see path-query.ts). */
  path: string;
  /** Query parameters written into the path key. */
  query: QueryInPath[];
  method: HttpMethod;
  raw: Record<string, unknown>;
  where: Where;
  itemParameters: unknown;
  itemWhere: Where;
  /** Position in the document (paths, then methods, as written): the first of a duplicate operationId keeps its name. */
  written: number;
}

/** Finds every operation under `paths`, sorted by path then method. */
export function collectOperations(root: SourceDoc, docs: Documents, problems: Problems): RawOperation[] {
  const paths = own(root.data, 'paths');
  const pathsWhere: Where = { doc: root, path: child(undefined, 'paths') };
  if (paths === undefined) return [];
  if (!isObject(paths)) {
    problems.add(
      `"paths" must be an object, not ${describe(paths)}`,
      locate(pathsWhere),
      'write one key per path, e.g. /pets: { get: ... }',
    );
    return [];
  }
  const found: RawOperation[] = [];
  const keyOf = new Map<string, string>();
  for (const key of Object.keys(paths)) {
    const itemAt = at(pathsWhere, key);
    if (key.startsWith('x-')) continue;
    if (!key.startsWith('/')) problems.add(`path "${key}" must start with "/"`, locate(itemAt, 'key'), `write "/${key}"`);
    const { path, query, problem } = splitPathKey(key);
    if (problem !== undefined) {
      problems.add(
        `path "${key}" has a query string, and its part "${problem}" is not name=value`,
        locate(itemAt, 'key'),
        `write the path as "${path}" and declare the query parameters under parameters, with in: query`,
      );
      continue;
    }
    if (query.length) {
      problems.warn(
        `path "${key}" has a query string, which is not part of an OpenAPI path; read as ${describeReading(path, query)}`,
        locate(itemAt, 'key'),
        `write the path as "${path}" and declare the query parameters under parameters, with in: query`,
      );
    }
    const resolved = deref(docs, paths[key], itemAt, problems);
    if (!resolved) continue;
    const item = resolved.value;
    if (!isObject(item)) {
      problems.add(
        `path "${key}" must be an object of operations, not ${describe(item)}`,
        locate(resolved.where),
        'write e.g. get: { responses: ... }',
      );
      continue;
    }
    for (const method of METHODS) {
      const raw = item[method];
      if (raw === undefined) continue;
      const where = at(resolved.where, method);
      if (!isObject(raw)) {
        problems.add(
          `${method.toUpperCase()} ${key} must be an operation object, not ${describe(raw)}`,
          locate(where),
          'write e.g. { responses: { "200": { description: OK } } }',
        );
        continue;
      }
      const route = `${method.toUpperCase()} ${path}`;
      const first = keyOf.get(route);
      if (first !== undefined && first !== key) {
        problems.add(
          `${route} is declared twice: under "${first}" and under "${key}"`,
          locate(where, 'key'),
          `merge the two operations into one under "${path}", with the query parameters under parameters`,
        );
        continue;
      }
      keyOf.set(route, key);
      found.push({ path, query, method, raw, where, itemParameters: item.parameters, itemWhere: resolved.where, written: found.length });
    }
  }
  const order = (op: RawOperation) => METHODS.indexOf(op.method);
  return found.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : order(a) - order(b)));
}
