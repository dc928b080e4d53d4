/**
 * Swagger 2.0 in: the document is converted, node by node, into the OpenAPI 3.0 document
 * swagger2openapi (Mermade) would write, and the 3.x lowering reads that. Every node the converter
 * writes remembers where in the 2.0 source it came from (swagger2-conversion.ts), so the converted
 * document's `locate` answers with the 2.0 file's own line and column: errors found while lowering
 * point at what the user wrote, never at a converted copy. This file converts the document's top
 * level (servers, security schemes, definitions, shared responses); swagger2-operations.ts the
 * paths. Parameters are inlined: a 2.0 body or form parameter is not a 3.x parameter at all, and
 * parameters' names never reach the generated code.
 *
 * Where this reading differs from swagger2openapi's, on purpose: keywords beside a `$ref`
 * (`x-nullable`, `description`) apply, as codegen reads them in 3.x documents (swagger2openapi
 * drops them); schemas in other files are converted too (`x-nullable` there counts); an inline body
 * is named after its operation (`PluginPullBody`), not after a shared request body; a response
 * without `produces` is JSON (see swagger2-operations.ts).
 */
import type { Documents, Problems, SourceDoc, Where } from '../core/schema/json-documents.js';
import { at, child, describe, isObject, locate, own, setOwn } from '../core/schema/json-documents.js';
import { Conversion } from './swagger2-conversion.js';
import { convertOperations } from './swagger2-operations.js';

/** Whether a parsed document is Swagger 2.0 (has a `swagger` key). */
export function isSwagger(data: unknown): boolean {
  return isObject(data) && data.swagger !== undefined;
}

/**
 * The OpenAPI 3.0 document a Swagger 2.0 document says, with its 2.0 positions. Problems found on
 * the way are added to `problems` (located in the 2.0 files).
 */
export function convertSwagger2(root: SourceDoc, docs: Documents, problems: Problems): SourceDoc {
  const data = root.data as Record<string, unknown>;
  const conversion = new Conversion(docs, root, problems);
  const top = (key: string): Where => ({ doc: root, path: child(undefined, key) });
  const out = conversion.node<Record<string, unknown>>({ openapi: '3.0.3' }, { doc: root, path: undefined });
  if (data.info !== undefined) out.info = data.info;
  const servers = serversOf(data, problems, root);
  if (servers.length) out.servers = conversion.node(servers, top('host'));
  if (data.security !== undefined) out.security = conversion.security(data.security, top('security'));
  if (data.tags !== undefined) out.tags = data.tags;
  const operations = convertOperations(conversion, data);
  if (operations !== undefined) out.paths = operations;
  const components = conversion.node<Record<string, unknown>>({}, { doc: root, path: undefined });
  const section = (key: string, what: string, hint: string): Record<string, unknown> | undefined => {
    const value = data[key];
    if (value === undefined || isObject(value)) return value;
    problems.add(`"${key}" must map names to ${what}, not ${describe(value)}`, locate(top(key)), hint);
    return undefined;
  };
  const definitions = section('definitions', 'schemas', 'write one key per schema, e.g. Pet: { type: object }');
  if (definitions) components.schemas = conversion.map(definitions, top('definitions'), (item, itemAt) => conversion.schema(item, itemAt));
  const responses = section('responses', 'responses', 'write one key per response, e.g. NotFound: { description: Not found }');
  if (responses) components.responses = conversion.map(responses, top('responses'), (item, itemAt) => conversion.response(item, itemAt));
  const schemes = securitySchemes(
    conversion,
    section(
      'securityDefinitions',
      'security schemes',
      'write e.g. securityDefinitions: { apiKey: { type: apiKey, in: header, name: X-API-Key } }',
    ),
    top('securityDefinitions'),
  );
  if (schemes !== undefined) components.securitySchemes = schemes;
  if (Object.keys(components).length) out.components = components;
  return conversion.finish(out);
}

/** `host` + `basePath` + `schemes` → servers, one per scheme (https when none is given: fetch needs one). */
function serversOf(data: Record<string, unknown>, problems: Problems, root: SourceDoc): { url: string }[] {
  const { host, basePath, schemes } = data;
  for (const [key, value] of [
    ['host', host],
    ['basePath', basePath],
  ] as const) {
    if (value !== undefined && typeof value !== 'string')
      problems.add(
        `"${key}" must be a string, not ${describe(value)}`,
        root.locate([key]),
        key === 'host' ? 'write e.g. host: api.example.com' : 'write e.g. basePath: /v1',
      );
  }
  const path = typeof basePath === 'string' ? basePath.replace(/\/+$/, '') : '';
  if (typeof host !== 'string') return typeof basePath === 'string' ? [{ url: basePath }] : [];
  let list: string[] = ['https'];
  if (schemes !== undefined) {
    if (Array.isArray(schemes) && schemes.every((scheme) => typeof scheme === 'string')) list = schemes.length ? schemes : list;
    else
      problems.add(
        `"schemes" must be a list of strings, not ${describe(schemes)}`,
        root.locate(['schemes']),
        'write e.g. schemes: [https]',
      );
  }
  return list.map((scheme) => ({ url: `${scheme}://${host}${path}` }));
}

const FLOWS: Record<string, string> = {
  implicit: 'implicit',
  password: 'password',
  application: 'clientCredentials',
  accessCode: 'authorizationCode',
};

/** `securityDefinitions` → `components.securitySchemes`: basic → http basic, oauth2's one flow → `flows`. */
function securitySchemes(conversion: Conversion, value: Record<string, unknown> | undefined, where: Where): unknown {
  if (value === undefined) return undefined;
  return conversion.map(value, where, (raw, schemeAt) => {
    if (!isObject(raw)) return raw;
    const out = conversion.node<Record<string, unknown>>({}, schemeAt);
    for (const key of Object.keys(raw)) {
      if (!['flow', 'authorizationUrl', 'tokenUrl', 'scopes'].includes(key) && !key.startsWith('x-')) setOwn(out, key, raw[key]);
    }
    if (raw.type === 'basic') {
      out.type = 'http';
      out.scheme = 'basic';
    }
    if (raw.type === 'oauth2') {
      const flowName = typeof raw.flow === 'string' ? (own(FLOWS, raw.flow) as string | undefined) : undefined;
      if (flowName === undefined) {
        conversion.problems.add(
          `security scheme "${schemeAt.path?.key ?? ''}": "flow" must be one of ${Object.keys(FLOWS).join(', ')}, not ${describe(raw.flow)}`,
          locate(raw.flow === undefined ? schemeAt : at(schemeAt, 'flow')),
          'write e.g. flow: accessCode',
        );
      } else {
        const flow: Record<string, unknown> = { scopes: isObject(raw.scopes) ? raw.scopes : {} };
        if (typeof raw.authorizationUrl === 'string') flow.authorizationUrl = raw.authorizationUrl;
        if (typeof raw.tokenUrl === 'string') flow.tokenUrl = raw.tokenUrl;
        out.flows = { [flowName]: flow };
      }
    }
    return out;
  });
}
