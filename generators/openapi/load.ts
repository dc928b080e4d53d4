/**
 * The OpenAPI loader: reads an OpenAPI 3.0 or 3.1 document, or a Swagger 2.0 one (converted to
 * 3.0 by swagger2.ts), JSON or YAML, split over several files by `$ref`, and lowers it to the
 * model. Every problem found is reported at once, each with its `file:line:col`, as one
 * CodegenError. What breaks the spec but reads one obvious way, as other tools read it (YAML that
 * js-yaml reads, a query string in a path key, `allOf: {…}`, an unknown `type`, `required: true` on a
 * property, a duplicate operationId), is read so, with a located warning; `strict` makes those errors.
 */
import { dirname, resolve } from 'node:path';
import type { ApiModel, SecurityScheme } from './model.js';
import type { JsonSchema } from '../core/schema/json-schema.js';
import { CodegenError, error, type Diagnostic } from '../core/diagnostics.js';
import { InputFiles } from '../core/pipeline/input-files.js';
import type { SourceDoc, Where } from '../core/schema/json-documents.js';
import { child, closest, deref, describe, Documents, isObject, locate, own, Problems } from '../core/schema/json-documents.js';
import { convertSwagger2, isSwagger } from './swagger2.js';
import { collectOperations, explicitPagination, detectPagination, lowerSecurity, nameOperations, OperationLowering, SchemaRegistry } from './lower.js';

export interface LoadOptions {
  /** Folder that paths in messages and `model.source` are relative to; default: the working directory. */
  displayRoot?: string;
  /** Folders `$ref`s may read files in (the project root and `allowRead`); default: the input's folder. */
  readRoots?: string[];
  /** Size cap per input file in bytes; default 64 MiB. */
  maxInputBytes?: number;
  /** What is forgiven with a warning otherwise is an error. */
  strict?: boolean;
  /** Receives the warnings, in file order (not called when loading fails). */
  onWarnings?: (warnings: Diagnostic[]) => void;
}

export async function loadOpenApi(inputPath: string, options: LoadOptions = {}): Promise<ApiModel> {
  const files = new InputFiles({ roots: options.readRoots ?? [dirname(resolve(inputPath))], maxBytes: options.maxInputBytes });
  const docs = new Documents(resolve(options.displayRoot ?? process.cwd()), files, { lenientYaml: true });
  const opened = docs.open(resolve(inputPath));
  if (Array.isArray(opened)) throw new CodegenError(opened);
  const problems = new Problems(!options.strict);
  // Swagger 2.0 is read as the OpenAPI 3.0 document it says, with the 2.0 file's positions.
  const root = isSwagger(opened.data) ? convertSwagger2(checkSwaggerVersion(opened), docs, problems) : opened;
  const dialect = checkVersion(root);
  const top = (key: string): Where => ({ doc: root, path: child(undefined, key) });

  const schemas = new SchemaRegistry(docs, dialect, problems);
  // Component schemas claim their names first: they are the names the user chose.
  const components = own(root.data, 'components');
  const componentSchemas = own(components, 'schemas');
  if (componentSchemas !== undefined) {
    const schemasAt: Where = { doc: root, path: child(child(undefined, 'components'), 'schemas') };
    if (!isObject(componentSchemas)) {
      problems.add(`"components.schemas" must map names to schemas, not ${describe(componentSchemas)}`, locate(schemasAt), 'write one key per schema, e.g. Pet: { type: object }');
    } else {
      for (const name of Object.keys(componentSchemas)) {
        schemas.add(SchemaRegistry.schemaName(name), componentSchemas[name], { doc: root, path: child(schemasAt.path, name) }, 'component');
      }
    }
  }

  const securitySchemes = lowerSecuritySchemes(root, docs, problems, dialect);
  const schemeNames = new Set(Object.keys(securitySchemes));
  const rawOperations = collectOperations(root, docs, problems);
  const names = nameOperations(rawOperations, problems);
  const lowering = new OperationLowering(docs, schemas, problems, schemeNames);
  const operations = rawOperations.map((op, i) => lowering.lower(op, names[i]));
  const namedSchemas = schemas.finish();

  // Pagination looks through named schemas, so it comes once all of them are lowered.
  const byName = new Map<string, JsonSchema>(namedSchemas.map((named) => [named.name, named.schema]));
  operations.forEach((operation, i) => {
    const override = rawOperations[i].raw['x-pagination'];
    const pagination = override === undefined
      ? detectPagination(operation, byName)
      : explicitPagination(override, { doc: rawOperations[i].where.doc, path: child(rawOperations[i].where.path, 'x-pagination') }, operation, byName, problems);
    if (pagination) operation.pagination = pagination;
  });

  const info = lowerInfo(root, problems);
  const security = own(root.data, 'security') === undefined ? [] : lowerSecurity(own(root.data, 'security'), top('security'), schemeNames, problems) ?? [];
  const servers = lowerServers(own(root.data, 'servers'), top('servers'), problems);
  for (const forgiven of docs.warnings) problems.warn(forgiven.message, forgiven.location, forgiven.hint);
  problems.throwIfAny();
  options.onWarnings?.(problems.sortedWarnings());
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

/** `swagger: "2.0"`, the one Swagger version there is to read. */
function checkSwaggerVersion(root: SourceDoc): SourceDoc {
  const version = (root.data as Record<string, unknown>).swagger;
  if (version === '2.0') return root;
  const where = root.locate(['swagger']);
  if (version === 2) throw error('"swagger" must be the string "2.0", not the number 2', where, 'quote it: swagger: "2.0" (YAML reads 2.0 as a number)');
  throw error(`Swagger ${describe(version)} is not supported; codegen reads Swagger 2.0 and OpenAPI 3.0.x and 3.1.x`, where, 'write swagger: "2.0" if the document follows Swagger 2.0');
}

/** `openapi: 3.0.x` or `3.1.x`; anything else stops here with a clear message. */
function checkVersion(root: SourceDoc): '3.0' | '3.1' {
  const data = root.data;
  if (!isObject(data)) {
    throw error(`${root.display} is not an OpenAPI document: its top level is ${describe(data)}, not an object`, root.locate([]), 'an OpenAPI document starts with openapi: 3.1.0, info: and paths:');
  }
  const version = data.openapi;
  if (version === undefined) {
    throw error(`${root.display} is not an OpenAPI document: it has no "openapi" field`, root.locate([]), 'add openapi: 3.1.0 at the top (codegen reads OpenAPI 3.0 and 3.1)');
  }
  const where = root.locate(['openapi']);
  if (typeof version !== 'string') {
    throw error(`"openapi" must be a version string such as "3.1.0", not ${describe(version)}`, where, 'quote it: openapi: "3.1.0" (YAML reads 3.0 as a number)');
  }
  const match = /^3\.([01])\.\d+(-.+)?$/.exec(version);
  if (!match) {
    throw error(`OpenAPI ${version} is not supported; codegen reads OpenAPI 3.0.x and 3.1.x`, where, /^3\.[01]$/.test(version) ? `write the full version, e.g. ${version}.0` : 'write openapi: 3.1.0 if the document follows OpenAPI 3.1');
  }
  return match[1] === '0' ? '3.0' : '3.1';
}

function lowerInfo(root: SourceDoc, problems: Problems): { title: string; version: string; description?: string } {
  const info = own(root.data, 'info');
  const infoAt: Where = { doc: root, path: child(undefined, 'info') };
  if (!isObject(info)) {
    problems.add(info === undefined ? 'the document has no "info"' : `"info" must be an object, not ${describe(info)}`, locate(infoAt, info === undefined ? 'value' : 'key'), 'add info: { title: My API, version: 1.0.0 }');
    return { title: '', version: '' };
  }
  const text = (key: string, required: boolean): string | undefined => {
    const value = info[key];
    if (typeof value === 'string') return value;
    if (typeof value === 'number' && key === 'version') return String(value); // `version: 1.0` in YAML
    if (value !== undefined || required) {
      problems.add(`"info.${key}" must be a string, not ${describe(value)}`, locate({ doc: root, path: value === undefined ? infoAt.path : child(infoAt.path, key) }), `write ${key}: "..."`);
    }
    return undefined;
  };
  const result: { title: string; version: string; description?: string } = { title: text('title', true) ?? '', version: text('version', true) ?? '' };
  const description = text('description', false);
  if (description !== undefined) result.description = description;
  return result;
}

/** Server URLs with their `{variables}` replaced by the variables' defaults. */
function lowerServers(value: unknown, where: Where, problems: Problems): ApiModel['servers'] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    problems.add(`"servers" must be a list, not ${describe(value)}`, locate(where), 'write e.g. servers: [{ url: https://api.example.com }]');
    return [];
  }
  const servers: ApiModel['servers'] = [];
  value.forEach((server, i) => {
    const serverAt = { doc: where.doc, path: child(where.path, i) };
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

const SCHEME_TYPES = ['apiKey', 'http', 'oauth2', 'openIdConnect', 'mutualTLS'] as const;

function lowerSecuritySchemes(root: SourceDoc, docs: Documents, problems: Problems, dialect: '3.0' | '3.1'): Record<string, SecurityScheme> {
  const schemesAt: Where = { doc: root, path: child(child(undefined, 'components'), 'securitySchemes') };
  const raw = own(own(root.data, 'components'), 'securitySchemes');
  const out: Record<string, SecurityScheme> = {};
  if (raw === undefined) return out;
  if (!isObject(raw)) {
    problems.add(`"components.securitySchemes" must be an object, not ${describe(raw)}`, locate(schemesAt), 'write e.g. securitySchemes: { bearerAuth: { type: http, scheme: bearer } }');
    return out;
  }
  for (const name of Object.keys(raw)) {
    const resolved = deref(docs, raw[name], { doc: root, path: child(schemesAt.path, name) }, problems);
    if (!resolved) continue;
    const { value, where } = resolved;
    const type = own(value, 'type');
    const allowed: readonly string[] = dialect === '3.0' ? SCHEME_TYPES.filter((t) => t !== 'mutualTLS') : SCHEME_TYPES;
    if (!isObject(value) || typeof type !== 'string' || !allowed.includes(type)) {
      const near = typeof type === 'string' ? closest(type, [...allowed]) : undefined;
      problems.add(`security scheme "${name}": "type" must be one of ${allowed.join(', ')}, not ${describe(type)}`, locate(isObject(value) && type !== undefined ? { doc: where.doc, path: child(where.path, 'type') } : where), near ? `did you mean "${near}"?` : 'write e.g. type: http');
      continue;
    }
    const scheme: SecurityScheme = { type: type as SecurityScheme['type'] };
    if (typeof value.description === 'string') scheme.description = value.description;
    if (type === 'apiKey') {
      if (value.in !== 'query' && value.in !== 'header' && value.in !== 'cookie') {
        problems.add(`security scheme "${name}": "in" must be query, header or cookie, not ${describe(value.in)}`, locate(value.in === undefined ? where : { doc: where.doc, path: child(where.path, 'in') }), 'write e.g. in: header');
      } else scheme.in = value.in;
      if (typeof value.name !== 'string') {
        problems.add(`security scheme "${name}": an apiKey needs a "name" string`, locate(where), 'write e.g. name: X-API-Key');
      } else scheme.name = value.name;
    }
    if (type === 'http') {
      if (typeof value.scheme !== 'string') problems.add(`security scheme "${name}": an http scheme needs a "scheme" string`, locate(where), 'write e.g. scheme: bearer');
      else scheme.scheme = value.scheme.toLowerCase(); // case-insensitive per RFC 7235
      if (typeof value.bearerFormat === 'string') scheme.bearerFormat = value.bearerFormat;
    }
    Object.defineProperty(out, name, { value: scheme, enumerable: true, writable: true, configurable: true });
  }
  return out;
}
