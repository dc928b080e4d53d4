import { defineRule } from '../../rule.js';
import { isCreate } from '../../rest-helpers.js';

/** A create answers 201 with a Location header carrying the new resource's URL (seed §4.1). */
export const createReturns201 = defineRule({
  id: 'rest/create-returns-201',
  style: 'openapi',
  severity: 'warning',
  section: '§4.1',
  docs: 'A POST that creates answers 201 with a Location header.',
  check(context) {
    for (const operation of context.operations) {
      if (!isCreate(context, operation)) continue;
      const { path, responses } = operation.model;
      if (responses.some((response) => response.status === '202')) continue; // accepted for later: no resource yet
      const created = responses.find((response) => response.status === '201');
      const responsesAt = context.at(operation.where, 'responses');
      if (!created) {
        const success = responses.find((response) => /^2/.test(response.status));
        context.report(
          success ? context.at(responsesAt, success.status) : responsesAt,
          `POST ${path} creates a resource but declares no 201 response${success ? ` (it answers ${success.status})` : ''}; a create answers 201 with a Location header carrying the new resource's URL (§4.1)`,
        );
      } else if (!created.headers.some((header) => header.name.toLowerCase() === 'location')) {
        context.report(
          context.at(responsesAt, '201'),
          `POST ${path} answers 201 without a Location header; declare headers: { Location: { required: true, schema: { type: string, format: uri-reference } } } carrying the new resource's URL (§4.1)`,
        );
      }
    }
  },
});
