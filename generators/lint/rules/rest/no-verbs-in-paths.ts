import { defineRule } from '../../rule.js';
import { pathActions } from '../../rest-actions.js';
import { pathKeys, pathMethods } from '../../rest-helpers.js';

/** `/getTasks`, `/tasks/{id}/archive`, `/tasks/{id}:archive`: the method is the verb, the URL a noun (seed §2.1). */
export const noVerbsInPaths = defineRule({
  id: 'rest/no-verbs-in-paths',
  style: 'openapi',
  severity: 'warning',
  section: '§2.1',
  docs: 'Path segments name resources (nouns); the HTTP method is the verb.',
  check(context) {
    for (const { path, operation } of pathKeys(context)) {
      const action = pathActions(path, pathMethods(context, path))[0];
      if (action === undefined) continue;
      context.report(
        context.pathKey(operation),
        `path ${path} has the verb "${action.verb}" in it (${action.segment}); URLs name resources and the HTTP method is the verb (§2.1): rename the segment to the noun it acts on and let the method say what happens (e.g. DELETE /tasks/{id}, not POST /deleteTask; PATCH /tasks/{id} with a status, not POST /tasks/{id}/archive)`,
      );
    }
  },
});
