/**
 * Lowering: an OpenAPI 3.x document, read and version-checked by load.ts, becomes the model
 * (`ApiModel`). Each concept has its module, called from here in this order:
 *
 * 1. component schemas claim their names (core/schema/registry.ts: every schema reached gets one
 *    name and becomes `#/$defs/<name>`);
 * 2. security schemes (security.ts);
 * 3. the operations as written under `paths` (path-items.ts), their names (operation-names.ts),
 *    each lowered (lower-operation.ts), which hoists inline bodies into named schemas;
 * 4. every named schema lowered (the registry), then pagination, which looks through them
 *    (pagination.ts);
 * 5. `info`, the document's `security`, `servers`.
 *
 * Problems are collected in `problems`; load.ts reports them.
 */
import type { ApiModel } from './model.js';
import type { Documents, Problems, SourceDoc, Where } from '../core/schema/json-documents.js';
import { at, describe, isObject, locate, own } from '../core/schema/json-documents.js';
import { SchemaRegistry, type KeptLowerings } from '../core/schema/registry.js';
import { OperationLowering } from './lower-operation.js';
import { nameOperations } from './operation-names.js';
import { addPagination } from './pagination.js';
import { collectOperations } from './path-items.js';
import { lowerSecurity, lowerSecuritySchemes } from './security.js';

/**
 * The model of `root`; `docs` resolves the `$ref`s it makes, to it or to other files. `kept`: the
 * previous runs' schema lowerings (`codegen --watch`).
 */
export function lowerDocument(
  root: SourceDoc,
  docs: Documents,
  dialect: '3.0' | '3.1',
  problems: Problems,
  kept?: KeptLowerings,
): ApiModel {
  const top: Where = { doc: root, path: undefined };
  const schemas = new SchemaRegistry(docs, dialect, problems, kept);
  registerComponentSchemas(root, schemas, problems);

  const securitySchemes = lowerSecuritySchemes(root, docs, problems, dialect);
  const schemeNames = new Set(Object.keys(securitySchemes));
  const rawOperations = collectOperations(root, docs, problems);
  const names = nameOperations(rawOperations, problems);
  const lowering = new OperationLowering(docs, schemas, problems, schemeNames);
  const operations = rawOperations.map((op, i) => lowering.lower(op, names[i]));
  const namedSchemas = schemas.finish();
  addPagination(operations, rawOperations, namedSchemas, problems);

  const info = lowerInfo(root, problems);
  const security =
    own(root.data, 'security') === undefined
      ? []
      : (lowerSecurity(own(root.data, 'security'), at(top, 'security'), schemeNames, problems) ?? []);
  const servers = lowerServers(own(root.data, 'servers'), at(top, 'servers'), problems);
  const model: ApiModel = {
    title: info.title,
    version: info.version,
    source: root.display,
    servers,
    schemas: namedSchemas,
    operations,
    securitySchemes,
    security,
  };
  if (info.description !== undefined) model.description = info.description;
  return model;
}

/** Component schemas claim their names first: they are the names the user chose. */
function registerComponentSchemas(root: SourceDoc, schemas: SchemaRegistry, problems: Problems): void {
  const componentSchemas = own(own(root.data, 'components'), 'schemas');
  if (componentSchemas === undefined) return;
  const schemasAt = at({ doc: root, path: undefined }, 'components', 'schemas');
  if (!isObject(componentSchemas)) {
    problems.add(
      `"components.schemas" must map names to schemas, not ${describe(componentSchemas)}`,
      locate(schemasAt),
      'write one key per schema, e.g. Pet: { type: object }',
    );
    return;
  }
  for (const name of Object.keys(componentSchemas)) {
    schemas.add(SchemaRegistry.schemaName(name), componentSchemas[name], at(schemasAt, name), 'component', name);
  }
}

function lowerInfo(root: SourceDoc, problems: Problems): { title: string; version: string; description?: string } {
  const info = own(root.data, 'info');
  const infoAt = at({ doc: root, path: undefined }, 'info');
  if (!isObject(info)) {
    problems.add(
      info === undefined ? 'the document has no "info"' : `"info" must be an object, not ${describe(info)}`,
      locate(infoAt, info === undefined ? 'value' : 'key'),
      'add info: { title: My API, version: 1.0.0 }',
    );
    return { title: '', version: '' };
  }
  const text = (key: string, required: boolean): string | undefined => {
    const value = info[key];
    if (typeof value === 'string') return value;
    if (typeof value === 'number' && key === 'version') return String(value); // `version: 1.0` in YAML
    if (value !== undefined || required) {
      problems.add(
        `"info.${key}" must be a string, not ${describe(value)}`,
        locate(value === undefined ? infoAt : at(infoAt, key)),
        `write ${key}: "..."`,
      );
    }
    return undefined;
  };
  const result: { title: string; version: string; description?: string } = {
    title: text('title', true) ?? '',
    version: text('version', true) ?? '',
  };
  const description = text('description', false);
  if (description !== undefined) result.description = description;
  return result;
}

/** Server URLs with their `{variables}` replaced by the variables' defaults. */
function lowerServers(value: unknown, where: Where, problems: Problems): ApiModel['servers'] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    problems.add(
      `"servers" must be a list, not ${describe(value)}`,
      locate(where),
      'write e.g. servers: [{ url: https://api.example.com }]',
    );
    return [];
  }
  const servers: ApiModel['servers'] = [];
  value.forEach((server, i) => {
    const serverAt = at(where, i);
    if (!isObject(server) || typeof server.url !== 'string') {
      problems.add(`a server needs a "url" string`, locate(serverAt), 'write e.g. { url: https://api.example.com/v1 }');
      return;
    }
    const variables = isObject(server.variables) ? server.variables : {};
    const url = server.url.replace(/\{([^}]+)\}/g, (whole, name: string) => {
      const fallback = own(own(variables, name), 'default');
      return typeof fallback === 'string' ? fallback : whole;
    });
    servers.push(typeof server.description === 'string' ? { url, description: server.description } : { url });
  });
  return servers;
}
