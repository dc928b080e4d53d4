import { defineRule } from '../../rule.js';

/** DELETE takes no body and answers 204 without one (seed §4.1). */
export const deleteWithoutBody = defineRule({
  id: 'rest/delete-without-body',
  style: 'openapi',
  severity: 'warning',
  section: '§4.1',
  docs: 'DELETE has no request body and answers 204 without a body.',
  check(context) {
    for (const operation of context.operations) {
      const { method, path, requestBody, responses } = operation.model;
      if (method !== 'delete') continue;
      if (requestBody)
        context.report(
          context.at(operation.where, 'requestBody'),
          `DELETE ${path} has a request body; DELETE takes none (§4.1), and proxies may drop it: identify what to delete by the path, and move options to query parameters`,
        );
      const ok = responses.find((response) => response.status === '200' && response.contents.length > 0);
      if (ok)
        context.report(
          context.at(operation.where, 'responses', '200'),
          `DELETE ${path} answers 200 with a body; a DELETE answers 204 without a body, so a repeat gives the same result (§4.1): declare '204' instead`,
        );
    }
  },
});
