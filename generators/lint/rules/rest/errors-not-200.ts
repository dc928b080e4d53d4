import { defineRule } from '../../rule.js';
import { jsonContent, resolveSchema } from '../../rest-helpers.js';

/** A success body with `success`/`error` fields says failures come back as 200 (seed §4.1 rule 2, §7.2). */
const ERROR_FIELDS = ['success', 'error', 'errors', 'errorCode', 'errorMessage', 'error_code'];

export const errorsNot200 = defineRule({
  id: 'rest/errors-not-200',
  style: 'openapi',
  severity: 'warning',
  section: '§4.1',
  docs: 'Business errors use real HTTP status codes, not 200 with an error body.',
  check(context) {
    for (const operation of context.operations) {
      for (const response of operation.model.responses) {
        if (!/^2\d\d$/.test(response.status)) continue;
        const schema = resolveSchema(context, jsonContent(response.contents)?.schema);
        const fields = typeof schema === 'object' ? Object.keys(schema.properties ?? {}).filter((key) => ERROR_FIELDS.includes(key)) : [];
        if (fields.length === 0) continue;
        context.report(
          context.at(operation.where, 'responses', response.status),
          `the ${response.status} response of ${operation.model.method.toUpperCase()} ${operation.model.path} carries ${fields.join(', ')}: errors answered with a success status; business errors use real HTTP status codes (§4.1 rule 2, §7.2): answer 4xx/5xx with a Problem Details body and drop ${fields.join('/')} from the success body`,
        );
      }
    }
  },
});
