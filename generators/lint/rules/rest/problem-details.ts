import { defineRule } from '../../rule.js';
import { resolveSchema } from '../../rest-helpers.js';

const ERROR_STATUS = /^([45]\d\d|[45]XX|default)$/;

/** Error bodies are RFC 7807 Problem Details, or a custom body with message and traceId (seed §2.2, §7.2). */
export const problemDetails = defineRule({
  id: 'rest/problem-details',
  style: 'openapi',
  severity: 'warning',
  section: '§2.2',
  docs: 'Error responses carry Problem Details (application/problem+json: type, title, status, detail, instance).',
  check(context) {
    for (const operation of context.operations) {
      for (const response of operation.model.responses) {
        if (!ERROR_STATUS.test(response.status)) continue;
        for (const content of response.contents) {
          const mediaType = content.mediaType.split(';')[0]?.trim().toLowerCase() ?? '';
          if (mediaType === 'application/problem+json') continue;
          const schema = resolveSchema(context, content.schema);
          const properties = typeof schema === 'object' ? Object.keys(schema.properties ?? {}) : [];
          if (
            ['title', 'status'].every((key) => properties.includes(key)) ||
            ['message', 'traceId'].every((key) => properties.includes(key))
          )
            continue;
          const responseAt = context.member(
            context.valueAt(context.at(operation.where, 'responses')),
            context.at(operation.where, 'responses'),
            response.status,
          );
          const at = responseAt
            ? context.at(responseAt.where, 'content', content.mediaType)
            : context.at(operation.where, 'responses', response.status);
          context.report(
            at,
            `the ${response.status} response of ${operation.model.method.toUpperCase()} ${operation.model.path} is ${content.mediaType} without the Problem Details fields; error bodies are Problem Details (§2.2, §7.2): answer application/problem+json with type, title, status, detail and instance (or at least message and traceId)`,
          );
          break;
        }
      }
    }
  },
});
