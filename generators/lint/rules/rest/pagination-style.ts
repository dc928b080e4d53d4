import { defineRule } from '../../rule.js';
import { words } from '../../../core/builder/names.js';
import { isList, jsonContent, parameterWhere } from '../../rest-helpers.js';

const OFFSET = ['page', 'pageSize'];
const CURSOR = ['cursor', 'limit'];

/**
 * A parameter through which the caller names the items it wants (`names`, `ids`, `taskIds`): the
 * list is bounded by the request, paging it means nothing (ceph's GET /api/settings?names=…).
 */
function namesItems(parameter: string): boolean {
  return ['ids', 'names', 'keys'].includes(words(parameter).pop()?.toLowerCase() ?? '');
}

/** A list takes one §4.2 style: page + pageSize, or cursor + limit — not neither, not both. */
export const paginationStyle = defineRule({
  id: 'rest/pagination-style',
  style: 'openapi',
  severity: 'warning',
  section: '§4.2',
  docs: 'A GET that lists (an array, or an object wrapping one) takes one pagination style of §4.2: page + pageSize, or cursor + limit; unless the caller names the items (ids, names).',
  check(context) {
    for (const operation of context.operations) {
      const { method, path, parameters, responses } = operation.model;
      if (method !== 'get' || path.endsWith('}')) continue;
      const ok = responses.find((response) => response.status === '200');
      const body = ok ? jsonContent(ok.contents) : undefined;
      if (!body || !isList(context, body.schema, path.split('/').pop())) continue;
      const query = parameters.filter((parameter) => parameter.in === 'query');
      const names = query.map((parameter) => parameter.name);
      if (names.some(namesItems)) continue;
      const offset = OFFSET.filter((name) => names.includes(name));
      const cursor = names.includes('cursor');
      if (offset.length > 0 && cursor) {
        const second = query.find((parameter) => parameter.name === 'cursor');
        context.report(
          second ? parameterWhere(context, operation, second) : operation.where,
          `GET ${path} mixes offset (${offset.join(', ')}) and cursor pagination; take one style of §4.2: page + pageSize, or cursor + limit`,
        );
      } else if (!OFFSET.every((name) => names.includes(name)) && !CURSOR.every((name) => names.includes(name))) {
        context.report(
          operation.where,
          `GET ${path} returns a list without a pagination style of §4.2${names.length ? ` (query: ${names.join(', ')})` : ''}; add page + pageSize (offset) or cursor + limit (cursor, for large sets) query parameters`,
        );
      }
    }
  },
});
