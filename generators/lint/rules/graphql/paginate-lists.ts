import { unboundedListFields, PAGE_SIZE_ARGUMENTS } from '../../../graphql/lint.js';
import { defineRule } from '../../rule.js';

/** A list of objects without a page-size argument lets one query ask for every row (seed §8). */
export const paginateLists = defineRule({
  id: 'graphql/paginate-lists',
  style: 'graphql',
  severity: 'warning',
  section: '§8',
  docs: `Fields returning a list of objects take a page-size argument (${PAGE_SIZE_ARGUMENTS.join(', ')}) or return a connection.`,
  check(context) {
    for (const { type, field } of unboundedListFields(context.schema)) {
      context.report(
        field.astNode,
        `${type}.${field.name} returns an unbounded list; unbounded list fields are to be avoided and pagination arguments enforced in the schema (§8): add a page-size argument (first or limit, with a default) or return a connection`,
        context.schema.getType(type)?.astNode,
      );
    }
  },
});
