import type { Operation } from '../../../openapi/model.js';
import { defineRule } from '../../rule.js';
import type { RestContext } from '../../rest-context.js';
import { isList, jsonContent, pathMethods, resolveSchema } from '../../rest-helpers.js';

/** A member GET gives a validator, so clients can revalidate with If-None-Match and get 304 (seed §4.3). */
export const conditionalGet = defineRule({
  id: 'rest/conditional-get',
  style: 'openapi',
  severity: 'warning',
  section: '§4.3',
  docs: 'A GET of one resource (/{collection}/{id} answering one object) answers with a validator (ETag or Last-Modified) or a Cache-Control policy.',
  check(context) {
    for (const operation of context.operations) {
      const { method, path, responses } = operation.model;
      if (method !== 'get') continue;
      const ok = responses.find((response) => response.status === '200');
      if (!ok || ok.contents.length === 0 || ok.contents.every((content) => content.mediaType.startsWith('text/event-stream'))) continue;
      if (!isOneResource(context, operation.model)) continue;
      const names = ok.headers.map((header) => header.name.toLowerCase());
      if (['etag', 'last-modified', 'cache-control'].some((name) => names.includes(name))) continue;
      context.report(
        context.at(operation.where, 'responses', '200'),
        `GET ${path} answers 200 without ETag, Last-Modified or Cache-Control; declare an ETag header (a validator: clients send If-None-Match and get 304 without a body) and a Cache-Control policy (§4.3)`,
      );
    }
  },
});

/**
 * GET /{collection}/{id} (§4.1): the path ends in a parameter, the answer is not a list, and the
 * parameter picks a member of a collection — the parent path is declared, or the answer is one
 * object. `/grafana/validation/{params}` (no collection, no object schema) passes a check's input.
 */
function isOneResource(context: RestContext, operation: Operation): boolean {
  const segments = operation.path.split('/');
  if (!/^\{[^}]+\}$/.test(segments.pop() ?? '')) return false;
  const ok = operation.responses.find((response) => response.status === '200');
  const schema = ok ? jsonContent(ok.contents)?.schema : undefined;
  if (isList(context, schema)) return false;
  if (pathMethods(context, segments.join('/')).has('get')) return true;
  const resolved = resolveSchema(context, schema);
  return typeof resolved === 'object' && (resolved.type === 'object' || resolved.properties !== undefined);
}
