import { defineRule } from '../../rule.js';
import { firstWord } from '../../rest-helpers.js';

const READS = new Set(['get', 'list', 'fetch', 'read', 'retrieve', 'find', 'lookup']);

/** A POST named as a read (`getTask`, `listTasks`): reads are GETs, safe and cacheable (seed §2.1, §4.1). */
export const noPostForRead = defineRule({
  id: 'rest/no-post-for-read',
  style: 'openapi',
  severity: 'warning',
  section: '§2.1',
  docs: 'Reads use GET (safe, idempotent, cacheable), not POST.',
  check(context) {
    for (const operation of context.operations) {
      const { method, path, operationId } = operation.model;
      if (method !== 'post' || operationId === undefined || !READS.has(firstWord(operationId))) continue;
      context.report(
        operation.where,
        `POST ${path} (${operationId}) reads: using POST for a read is discouraged (§2.1, §4.1: GET is safe and idempotent); make it a GET with query parameters`,
      );
    }
  },
});
