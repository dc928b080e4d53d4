import { defineRule } from '../../rule.js';
import { isList, jsonContent, parameterWhere } from '../../rest-helpers.js';

/** The §4.2 forms: `sort` (`-` for descending), `filter[<field>]`, `fields` (comma-separated). */
const INSTEAD: Record<string, string> = {
  sort_by: 'sort',
  sortBy: 'sort',
  order_by: 'sort',
  orderBy: 'sort',
  order: 'sort',
  orderby: 'sort',
  select: 'fields',
  include_fields: 'fields',
  fieldset: 'fields',
  q: 'filter[<field>]',
  query: 'filter[<field>]',
  where: 'filter[<field>]',
};
/** Names that filter only where there is a list to filter (ceph's GET /api/rgw/site?query= picks which facts of one object). */
const FILTERS = new Set(['q', 'query', 'where']);

export const queryConventions = defineRule({
  id: 'rest/query-conventions',
  style: 'openapi',
  severity: 'warning',
  section: '§4.2',
  docs: 'Sorting, filtering and field selection take the §4.2 forms: sort (prefix - for descending), filter[<field>], fields (comma-separated).',
  check(context) {
    for (const operation of context.operations) {
      const ok = operation.model.responses.find((response) => response.status === '200');
      const lists = ok !== undefined && isList(context, jsonContent(ok.contents)?.schema);
      for (const parameter of operation.model.parameters) {
        if (parameter.in !== 'query' || (FILTERS.has(parameter.name) && !lists)) continue;
        const where = () => parameterWhere(context, operation, parameter);
        const route = `${operation.model.method.toUpperCase()} ${operation.model.path}`;
        const instead = Object.hasOwn(INSTEAD, parameter.name) ? INSTEAD[parameter.name] : undefined;
        if (instead) {
          context.report(
            where(),
            `${route} takes "${parameter.name}"; the §4.2 form is ${instead}${instead === 'sort' ? ' (a field name, prefix - for descending: sort=-createdAt)' : instead === 'fields' ? ' (comma-separated field names: fields=id,title)' : ' (one parameter per field: filter[status]=open)'}`,
          );
        } else if (parameter.name === 'filter' && parameter.style !== 'deepObject') {
          context.report(
            where(),
            `${route} takes one "filter" string; the §4.2 form is one parameter per field, filter[<field>] (e.g. filter[status]=open): declare filter[status], … or style: deepObject on an object`,
          );
        } else if (
          parameter.name === 'fields' &&
          typeof parameter.schema === 'object' &&
          parameter.schema.type === 'array' &&
          parameter.explode
        ) {
          context.report(
            where(),
            `${route} takes "fields" as a repeated parameter (fields=a&fields=b); the §4.2 form is comma-separated (fields=a,b): set explode: false`,
          );
        }
      }
    }
  },
});
