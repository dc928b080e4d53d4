/**
 * Query strings written into path keys (`/uploads?convert={convert}`, `/search?term={term}&amount=10`):
 * not OpenAPI, but the intent is plain and other tools read it so. The path is the part before `?`;
 * each `name={variable}` is a query parameter `name` (the declared query parameter of that name, else
 * the declared path parameter `variable` moved to the query, else a required string), and each
 * `name=value` a required query parameter that takes that one value.
 */
import type { Parameter } from './model.js';

export interface QueryInPath {
  name: string;
  /** `{variable}` in `name={variable}`. */
  variable?: string;
  /** The fixed value in `name=value`. */
  value?: string;
}

/** A path key split at `?`; `problem` names a query part that reads no obvious way. */
export function splitPathKey(key: string): { path: string; query: QueryInPath[]; problem?: string } {
  const mark = key.indexOf('?');
  if (mark === -1) return { path: key, query: [] };
  const query: QueryInPath[] = [];
  for (const part of key.slice(mark + 1).split('&')) {
    const match = /^([^=]+)=(.*)$/.exec(part);
    if (!match) return { path: key.slice(0, mark), query, problem: part };
    const [, name = '', value = ''] = match;
    const variable = /^\{([^{}]+)\}$/.exec(value)?.[1];
    query.push(variable === undefined ? { name, value } : { name, variable });
  }
  return { path: key.slice(0, mark), query };
}

/** The operation's parameters with the path key's query parameters merged in. */
export function withPathQuery(parameters: Parameter[], query: QueryInPath[]): Parameter[] {
  const out = [...parameters];
  for (const item of query) {
    if (out.some((parameter) => parameter.in === 'query' && parameter.name === item.name)) continue;
    const declared =
      item.variable === undefined ? -1 : out.findIndex((parameter) => parameter.in === 'path' && parameter.name === item.variable);
    const base = declared === -1 ? undefined : out[declared];
    if (base) {
      out[declared] = { ...base, name: item.name, in: 'query', style: 'form', explode: true };
      continue;
    }
    const schema = item.value === undefined ? { type: 'string' as const } : { type: 'string' as const, enum: [item.value] };
    out.push({ name: item.name, in: 'query', required: true, schema, style: 'form', explode: true });
  }
  return out;
}

/** How the warning shows what was read: `path "/uploads" with query parameter "convert"`. */
export function describeReading(path: string, query: QueryInPath[]): string {
  const names = query.map((item) => `"${item.name}"`).join(', ');
  return `path "${path}" with query parameter${query.length === 1 ? '' : 's'} ${names}`;
}
