import { defineRule } from '../../rule.js';
import { parameterWhere } from '../../rest-helpers.js';

/** Prefixed passwords and secrets too (Ceph's mutual_password); not prefixed tokens (page_token paginates). */
const SECRET_NAMES = /^(api[-_]?key|access[-_]?token|token|password|secret|client[-_]?secret|auth|[a-z0-9]+[-_](password|secret))$/i;

/** Secrets in a URL end up in logs, caches and Referer headers: they travel in headers (seed §5). */
export const noSecretsInQuery = defineRule({
  id: 'rest/no-secrets-in-query',
  style: 'openapi',
  severity: 'error',
  section: '§5',
  docs: 'Credentials travel in headers (Authorization, an API-key header), never in the query string.',
  check(context) {
    const schemesAt = { doc: context.root, path: undefined };
    for (const [name, scheme] of Object.entries(context.model.securitySchemes)) {
      if (scheme.type !== 'apiKey' || scheme.in !== 'query') continue;
      context.report(
        context.at(schemesAt, 'components', 'securitySchemes', name, 'in'),
        `security scheme "${name}" puts its key in the query string ("${scheme.name ?? ''}"), where logs, proxies and Referer headers keep it (§5): send it in a header instead (in: header, or type: http with scheme: bearer)`,
        'value',
      );
    }
    for (const operation of context.operations) {
      // An EventSource cannot send headers: §5.5 lets SSE streams take their token in the URL.
      const eventStream = operation.model.responses.some((response) =>
        response.contents.some((content) => content.mediaType.startsWith('text/event-stream')),
      );
      if (eventStream) continue;
      for (const parameter of operation.model.parameters) {
        if (parameter.in !== 'query' || !SECRET_NAMES.test(parameter.name)) continue;
        context.report(
          parameterWhere(context, operation, parameter),
          `${operation.model.method.toUpperCase()} ${operation.model.path} takes the secret "${parameter.name}" in the query string, where logs, proxies and Referer headers keep it (§5): take it in the Authorization header (declare a security scheme) instead`,
        );
      }
    }
  },
});
