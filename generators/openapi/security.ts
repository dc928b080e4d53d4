/**
 * Security: the schemes under `components.securitySchemes` and the requirements that name them
 * (the document's `security` and each operation's).
 */
import type { SecurityRequirement, SecurityScheme } from './model.js';
import type { Documents, Problems, SourceDoc, Where } from '../core/schema/json-documents.js';
import { at, closest, deref, describe, isObject, locate, own } from '../core/schema/json-documents.js';

const SCHEME_TYPES = ['apiKey', 'http', 'oauth2', 'openIdConnect', 'mutualTLS'] as const;

/** The declared schemes by name; a `$ref` to one is followed. */
export function lowerSecuritySchemes(
  root: SourceDoc,
  docs: Documents,
  problems: Problems,
  dialect: '3.0' | '3.1',
): Record<string, SecurityScheme> {
  const schemesAt = at({ doc: root, path: undefined }, 'components', 'securitySchemes');
  const raw = own(own(root.data, 'components'), 'securitySchemes');
  const out: Record<string, SecurityScheme> = {};
  if (raw === undefined) return out;
  if (!isObject(raw)) {
    problems.add(
      `"components.securitySchemes" must be an object, not ${describe(raw)}`,
      locate(schemesAt),
      'write e.g. securitySchemes: { bearerAuth: { type: http, scheme: bearer } }',
    );
    return out;
  }
  for (const name of Object.keys(raw)) {
    const resolved = deref(docs, raw[name], at(schemesAt, name), problems);
    if (!resolved) continue;
    const { value, where } = resolved;
    const type = own(value, 'type');
    const allowed: readonly string[] = dialect === '3.0' ? SCHEME_TYPES.filter((t) => t !== 'mutualTLS') : SCHEME_TYPES;
    if (!isObject(value) || typeof type !== 'string' || !allowed.includes(type)) {
      const near = typeof type === 'string' ? closest(type, [...allowed]) : undefined;
      problems.add(
        `security scheme "${name}": "type" must be one of ${allowed.join(', ')}, not ${describe(type)}`,
        locate(isObject(value) && type !== undefined ? at(where, 'type') : where),
        near ? `did you mean "${near}"?` : 'write e.g. type: http',
      );
      continue;
    }
    const scheme: SecurityScheme = { type: type as SecurityScheme['type'] };
    if (typeof value.description === 'string') scheme.description = value.description;
    if (type === 'apiKey') {
      if (value.in !== 'query' && value.in !== 'header' && value.in !== 'cookie') {
        problems.add(
          `security scheme "${name}": "in" must be query, header or cookie, not ${describe(value.in)}`,
          locate(value.in === undefined ? where : at(where, 'in')),
          'write e.g. in: header',
        );
      } else scheme.in = value.in;
      if (typeof value.name !== 'string') {
        problems.add(`security scheme "${name}": an apiKey needs a "name" string`, locate(where), 'write e.g. name: X-API-Key');
      } else scheme.name = value.name;
    }
    if (type === 'http') {
      if (typeof value.scheme !== 'string')
        problems.add(`security scheme "${name}": an http scheme needs a "scheme" string`, locate(where), 'write e.g. scheme: bearer');
      else scheme.scheme = value.scheme.toLowerCase(); // case-insensitive per RFC 7235
      if (typeof value.bearerFormat === 'string') scheme.bearerFormat = value.bearerFormat;
    }
    Object.defineProperty(out, name, { value: scheme, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** A list of security requirements; every scheme named must be declared. */
export function lowerSecurity(value: unknown, where: Where, schemes: Set<string>, problems: Problems): SecurityRequirement[] | undefined {
  if (!Array.isArray(value)) {
    problems.add(
      `"security" must be a list of requirements, not ${describe(value)}`,
      locate(where),
      'write e.g. security: [{ bearerAuth: [] }], or [] for public',
    );
    return undefined;
  }
  const out: SecurityRequirement[] = [];
  value.forEach((item, i) => {
    const itemAt = at(where, i);
    if (!isObject(item)) {
      problems.add(`a security requirement must be an object, not ${describe(item)}`, locate(itemAt), 'write e.g. { bearerAuth: [] }');
      return;
    }
    const requirement: SecurityRequirement = {};
    for (const scheme of Object.keys(item)) {
      const scopes = item[scheme];
      if (!schemes.has(scheme)) {
        const near = closest(scheme, [...schemes]);
        problems.add(
          `security scheme "${scheme}" is not defined in components.securitySchemes`,
          locate(at(itemAt, scheme), 'key'),
          near ? `did you mean "${near}"?` : 'declare it under components.securitySchemes',
        );
        continue;
      }
      if (!Array.isArray(scopes) || !scopes.every((scope) => typeof scope === 'string')) {
        problems.add(
          `scopes of "${scheme}" must be a list of strings, not ${describe(scopes)}`,
          locate(at(itemAt, scheme)),
          'write [] when no scopes apply',
        );
        continue;
      }
      Object.defineProperty(requirement, scheme, { value: [...scopes], enumerable: true, writable: true, configurable: true });
    }
    out.push(requirement);
  });
  return out;
}
