import { defineRule } from '../../rule.js';
import { own } from '../../../core/schema/json-documents.js';

const RATE_LIMIT_HEADER = /^(x-)?rate-?limit/i;
const RATE_LIMIT_EXTENSION = /^x-(rate-?limit|throttl)/i;

/** An operation that declares a rate limit declares the 429 its clients will get (seed §8). */
export const rateLimit429 = defineRule({
  id: 'rest/rate-limit-429',
  style: 'openapi',
  severity: 'warning',
  section: '§8',
  docs: 'An operation with a declared rate limit (RateLimit headers, an x-rate-limit extension) declares a 429 response.',
  check(context) {
    const declaredAtTop = Object.keys(context.root.data as object).some((key) => RATE_LIMIT_EXTENSION.test(key));
    for (const operation of context.operations) {
      const { responses, method, path } = operation.model;
      if (responses.some((response) => response.status === '429' || response.status === '4XX')) continue;
      const header = responses.flatMap((response) => response.headers).find((h) => RATE_LIMIT_HEADER.test(h.name));
      const extension = Object.keys(operation.raw).find((key) => RATE_LIMIT_EXTENSION.test(key) && own(operation.raw, key) !== false);
      if (!header && !extension && !declaredAtTop) continue;
      const why = header
        ? `its responses carry ${header.name}`
        : extension
          ? `it declares ${extension}`
          : 'the document declares a rate limit';
      context.report(
        context.at(operation.where, 'responses'),
        `${method.toUpperCase()} ${path} is rate limited (${why}) but declares no 429; a rate limit exceeded is answered 429 (§8): add '429' with a Retry-After header and a Problem Details body, so clients know to wait`,
      );
    }
  },
});
