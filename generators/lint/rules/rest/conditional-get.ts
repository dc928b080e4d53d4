import { defineRule } from '../../rule.js';

/** A member GET gives a validator, so clients can revalidate with If-None-Match and get 304 (seed §4.3). */
export const conditionalGet = defineRule({
  id: 'rest/conditional-get',
  style: 'openapi',
  severity: 'warning',
  section: '§4.3',
  docs: 'A GET of one resource answers with a validator (ETag or Last-Modified) or a Cache-Control policy.',
  check(context) {
    for (const operation of context.operations) {
      const { method, path, responses } = operation.model;
      if (method !== 'get' || !path.endsWith('}')) continue;
      const ok = responses.find((response) => response.status === '200');
      if (!ok || ok.contents.length === 0 || ok.contents.every((content) => content.mediaType.startsWith('text/event-stream'))) continue;
      const names = ok.headers.map((header) => header.name.toLowerCase());
      if (['etag', 'last-modified', 'cache-control'].some((name) => names.includes(name))) continue;
      context.report(context.at(operation.where, 'responses', '200'), `GET ${path} answers 200 without ETag, Last-Modified or Cache-Control; declare an ETag header (a validator: clients send If-None-Match and get 304 without a body) and a Cache-Control policy (§4.3)`);
    }
  },
});
