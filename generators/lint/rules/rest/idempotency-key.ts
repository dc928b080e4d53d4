import { defineRule } from '../../rule.js';
import { finalAction } from '../../rest-actions.js';
import { isCreate, pathMethods } from '../../rest-helpers.js';

/**
 * A create, or an action that does its thing again when repeated (`send`, `run`), may be retried: it
 * takes an Idempotency-Key so a retry does not do it twice (seed §4.1 rule 1). An action that ends in
 * the same state (`purge`, `reweight`, `validate_password`) needs none.
 */
export const idempotencyKey = defineRule({
  id: 'rest/idempotency-key',
  style: 'openapi',
  severity: 'warning',
  section: '§4.1',
  docs: 'A POST that may be retried (a create, or an action such as send or run) accepts an Idempotency-Key header.',
  check(context) {
    for (const operation of context.operations) {
      const { method, path, parameters } = operation.model;
      if (!isCreate(context, operation) && !(method === 'post' && finalAction(path, pathMethods(context, path))?.effect === 'repeats'))
        continue;
      if (parameters.some((parameter) => parameter.in === 'header' && parameter.name.toLowerCase() === 'idempotency-key')) continue;
      context.report(
        operation.where,
        `POST ${path} has no Idempotency-Key header; a POST that may be retried carries one so duplicates are prevented (§4.1 rule 1): add a header parameter "Idempotency-Key" (string)`,
      );
    }
  },
});
