import { defineRule } from '../../rule.js';
import { isCreate } from '../../rest-helpers.js';

/** A create may be retried: it takes an Idempotency-Key so a retry does not create twice (seed §4.1 rule 1). */
export const idempotencyKey = defineRule({
  id: 'rest/idempotency-key',
  style: 'openapi',
  severity: 'warning',
  section: '§4.1',
  docs: 'A POST that may be retried (a create) accepts an Idempotency-Key header.',
  check(context) {
    for (const operation of context.operations) {
      if (!isCreate(operation)) continue;
      if (operation.model.parameters.some((parameter) => parameter.in === 'header' && parameter.name.toLowerCase() === 'idempotency-key')) continue;
      context.report(operation.where, `POST ${operation.model.path} has no Idempotency-Key header; a POST that may be retried carries one so duplicates are prevented (§4.1 rule 1): add a header parameter "Idempotency-Key" (string)`);
    }
  },
});
