/**
 * Operation names, unique in the API: `camelCase(operationId)`, or, without one, method + path:
 * GET on a path that ends in a literal segment is `list…`, other methods keep their name, literal
 * segments are PascalCased and `{param}` becomes `By<Param>`: GET /projects/{projectId}/tasks →
 * `listProjectsByProjectIdTasks`, DELETE /tasks/{taskId} → `deleteTasksByTaskId`, GET / → `getRoot`.
 * Clashes get 2, 3, ... via `uniqueName`.
 */
import type { HttpMethod } from './model.js';
import { camelCase, uniqueName, words } from '../core/builder/names.js';
import type { Problems } from '../core/schema/json-documents.js';
import { at, describe, locate } from '../core/schema/json-documents.js';
import type { RawOperation } from './path-items.js';

function pascalWords(text: string): string {
  return words(text)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('');
}

/** The name of an operation without an operationId; see the rules at the top of this file. */
export function derivedName(method: HttpMethod, path: string): string {
  const parts = path.split('/').filter(Boolean);
  const noun =
    parts
      .map((part) => {
        const param = /^\{(.+)\}$/.exec(part);
        return param ? `By${pascalWords(param[1])}` : pascalWords(part);
      })
      .join('') || 'Root';
  const member = parts.length > 0 && /^\{.+\}$/.test(parts[parts.length - 1]);
  const verb = method === 'get' && parts.length > 0 && !member ? 'list' : method;
  return camelCase(`${verb}${noun}`);
}

/**
 * Assigns unique names: operationIds first (they are what the user chose), then derived ones. A
 * duplicate operationId is forgiven: the first written keeps the name, later ones are numbered
 * (`getTask2`), as hey-api and openapi-generator number them.
 */
export function nameOperations(ops: RawOperation[], problems: Problems): string[] {
  const names = new Array<string>(ops.length);
  const taken = new Set<string>();
  const firstWritten = new Map<string, RawOperation>();
  for (const op of ops) {
    const id = op.raw.operationId;
    const first = typeof id === 'string' ? firstWritten.get(id) : undefined;
    if (typeof id === 'string' && id !== '' && (!first || op.written < first.written)) firstWritten.set(id, op);
  }
  const duplicates: { i: number; id: string }[] = [];
  ops.forEach((op, i) => {
    const id = op.raw.operationId;
    if (id === undefined) return;
    const idAt = at(op.where, 'operationId');
    if (typeof id !== 'string' || id === '') {
      problems.add(`"operationId" must be a non-empty string, not ${describe(id)}`, locate(idAt), 'write e.g. operationId: listPets');
      return;
    }
    if (firstWritten.get(id) === op) names[i] = uniqueName(camelCase(id), taken);
    else duplicates.push({ i, id });
  });
  for (const { i, id } of duplicates) {
    const op = ops[i] as RawOperation;
    names[i] = uniqueName(camelCase(id), taken);
    const where = locate(at((firstWritten.get(id) as RawOperation).where, 'operationId'));
    problems.warn(
      `duplicate operationId "${id}" (also used at ${where.file}:${where.line}:${where.column}); this operation is named ${names[i]}`,
      locate(at(op.where, 'operationId')),
      'every operationId must be unique in the API: rename one of them',
    );
  }
  ops.forEach((op, i) => {
    if (names[i] === undefined) names[i] = uniqueName(derivedName(op.method, op.path), taken);
  });
  return names;
}
