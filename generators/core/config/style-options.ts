/**
 * Which `options` each input style accepts (declared next to each generator, in
 * `generators/<style>/config-options.ts`), and the check of an API's `options` against its style.
 */
import { ASYNCAPI_OPTIONS, type AsyncApiOptions } from '../../asyncapi/config-options.js';
import { GRAPHQL_OPTIONS, type GraphQLOptions } from '../../graphql/config-options.js';
import { OPENAPI_OPTIONS, type OpenApiOptions } from '../../openapi/config-options.js';
import { PROTO_OPTIONS, type ProtoOptions } from '../../proto/config-options.js';
import type { InputStyle } from './input-style.js';
import { closest, describe } from '../schema/json-documents.js';
import { checkOptionValue, type OptionDeclarations, type ReportAt } from './option-types.js';

export const STYLE_OPTIONS: Record<InputStyle, OptionDeclarations> = {
  openapi: OPENAPI_OPTIONS,
  graphql: GRAPHQL_OPTIONS,
  proto: PROTO_OPTIONS,
  asyncapi: ASYNCAPI_OPTIONS,
};

/** The checked options each style's generator receives. */
export interface StyleOptions {
  openapi: OpenApiOptions;
  graphql: GraphQLOptions;
  proto: ProtoOptions;
  asyncapi: AsyncApiOptions;
}

/**
 * Checks an API's `options` (at `path` in the config) against its style's declaration: unknown
 * options (with a "did you mean" or the style they belong to) and wrong types are reported; the
 * result holds the valid ones, paths resolved against `root`.
 */
export function checkStyleOptions<S extends InputStyle>(
  style: S,
  raw: unknown,
  path: (string | number)[],
  root: string,
  report: (path: (string | number)[], message: string, hint?: string, at?: 'key' | 'value') => void,
): StyleOptions[S] {
  const checked: Record<string, unknown> = {};
  if (raw === undefined) return checked as StyleOptions[S];
  const declared = STYLE_OPTIONS[style];
  const names = Object.keys(declared);
  const listing = `${style} options: ${names.join(', ')}`;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    report(path, `expected an object of options, not ${describe(raw)}`, listing);
    return checked as StyleOptions[S];
  }
  const reportValue: ReportAt = (at, message, hint) => report(at, message, hint);
  // In the config's order, so problems are listed as they appear in the file.
  for (const [name, value] of Object.entries(raw)) {
    const declaration = Object.prototype.hasOwnProperty.call(declared, name) ? declared[name] : undefined;
    if (declaration) {
      const result = checkOptionValue(value, declaration, [...path, name], root, reportValue);
      if (result !== undefined) checked[name] = result;
      continue;
    }
    const owners = (Object.keys(STYLE_OPTIONS) as InputStyle[]).filter((other) =>
      Object.prototype.hasOwnProperty.call(STYLE_OPTIONS[other], name),
    );
    if (owners.length > 0) {
      report(
        [...path, name],
        `${JSON.stringify(name)} is an option of ${owners.join(' and ')} APIs; this API's style is ${style}`,
        `remove it, or check \`style\` and \`input\`; ${listing}`,
        'key',
      );
      continue;
    }
    const near = closest(name, names);
    report(
      [...path, name],
      `unknown ${style} option ${JSON.stringify(name)}`,
      `${near ? `did you mean "${near}"? ` : ''}${listing}`,
      'key',
    );
  }
  return checked as StyleOptions[S];
}
