import { defineRule } from '../../rule.js';
import { firstWord, literalSegments, pathKeys } from '../../rest-helpers.js';

const VERBS = new Set(['get', 'list', 'create', 'delete', 'remove', 'update', 'fetch', 'add', 'set', 'edit', 'modify', 'make', 'do', 'put', 'post', 'patch', 'retrieve', 'read']);

/** `/getTasks`, `/tasks/delete-all`: the method is the verb, the URL a noun (seed §2.1). */
export const noVerbsInPaths = defineRule({
  id: 'rest/no-verbs-in-paths',
  style: 'openapi',
  severity: 'warning',
  section: '§2.1',
  docs: 'Path segments name resources (nouns); the HTTP method is the verb.',
  check(context) {
    for (const { path, operation } of pathKeys(context)) {
      const verb = literalSegments(path).find((segment) => VERBS.has(firstWord(segment)));
      if (verb === undefined) continue;
      context.report(context.pathKey(operation), `path ${path} has the verb "${verb}" in it; URLs name resources and the HTTP method is the verb (§2.1): rename the segment to the noun it acts on and let the method say what happens (e.g. DELETE /tasks/{id}, not POST /deleteTask)`);
    }
  },
});
