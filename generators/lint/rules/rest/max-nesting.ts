import { defineRule } from '../../rule.js';
import { collectionSegments, pathKeys, pathMethods } from '../../rest-helpers.js';

/** `/a/{a}/b/{b}/c`: deeper than collection → member → child collection (seed §2.1). */
export const maxNesting = defineRule({
  id: 'rest/max-nesting',
  style: 'openapi',
  severity: 'warning',
  section: '§2.1',
  docs: 'Collections nest at most two levels: /{collection}/{id}/{child_collection}.',
  check(context) {
    for (const { path, operation } of pathKeys(context)) {
      const collections = collectionSegments(path, pathMethods(context, path));
      if (collections.length <= 2) continue;
      const child = collections[collections.length - 1] ?? '';
      context.report(
        context.pathKey(operation),
        `path ${path} nests ${collections.length} collections (${collections.join(' → ')}); nesting beyond 2 levels is discouraged (§2.1): give ${child} its own top-level collection (/${child}/{id}) and filter it by its parent (e.g. filter[parent]=…)`,
      );
    }
  },
});
