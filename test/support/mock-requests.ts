/**
 * Requests a test sends to a `codegen mock` server: the URL of a GET with its path parameters (and
 * required query parameters) filled from their schemas, credentials for every scheme the document
 * declares, and the generated validator of each operation's responses, read from its route tree.
 */
import type { ApiModel, Operation } from '../../generators/openapi/model.js';
import { SampleCheck } from '../../generators/core/schema/sample-check.js';
import { SampleGenerator } from '../../generators/core/schema/samples.js';

/** `/v1/pets/42?limit=3`: the operation's path below `base`, parameters from their schemas. */
export function requestPath(model: ApiModel, operation: Operation, base: string): string {
  const generator = new SampleGenerator(model.schemas, new SampleCheck(model.schemas));
  const value = (schema: Parameters<SampleGenerator['sample']>[0], name: string) => {
    const sample = generator.sample(schema, 7, 'request');
    if (!sample.ok) throw new Error(`${operation.name}: parameter ${name}: ${sample.reason}`);
    return sample.value;
  };
  let path = operation.path;
  for (const parameter of operation.parameters.filter((p) => p.in === 'path'))
    path = path.replace(`{${parameter.name}}`, encodeURIComponent(String(value(parameter.schema, parameter.name))));
  const query = new URLSearchParams();
  for (const parameter of operation.parameters.filter((p) => p.in === 'query' && p.required)) {
    const sample = value(parameter.schema, parameter.name);
    if (Array.isArray(sample)) for (const item of sample) query.append(parameter.name, String(item));
    else query.append(parameter.name, typeof sample === 'object' ? JSON.stringify(sample) : String(sample));
  }
  const search = query.size > 0 ? `?${query}` : '';
  return `${base}${path}${search}`;
}

/** Headers (and query parameters) that satisfy every security scheme of the document. */
export function credentials(model: ApiModel): { headers: Record<string, string>; query: Record<string, string> } {
  const headers: Record<string, string> = {};
  const query: Record<string, string> = {};
  const cookies: string[] = [];
  for (const scheme of Object.values(model.securitySchemes)) {
    if (scheme.type === 'apiKey' && scheme.name) {
      if (scheme.in === 'header') headers[scheme.name.toLowerCase()] = 'mock-key';
      else if (scheme.in === 'query') query[scheme.name] = 'mock-key';
      else if (scheme.in === 'cookie') cookies.push(`${scheme.name}=mock-key`);
    } else if (scheme.type === 'http' && scheme.scheme?.toLowerCase() === 'basic') {
      headers.authorization ??= `Basic ${Buffer.from('mock:secret').toString('base64')}`;
    } else if (scheme.type === 'http' || scheme.type === 'oauth2' || scheme.type === 'openIdConnect') {
      headers.authorization ??= 'Bearer mock-token';
    }
  }
  if (cookies.length > 0) headers.cookie = cookies.join('; ');
  return { headers, query };
}

type Validate = (value: unknown) => { ok: boolean; errors?: { path: string; message: string }[] };
interface RouteNode {
  methods?: Record<string, { id: string; responses: Record<string, { validate?: Validate }> }>;
  children?: Record<string, RouteNode>;
  patterns?: { node: RouteNode }[];
  param?: RouteNode;
}

/** Each operation's response validators by status, from the generated route tree (server-routes.js). */
export function responseValidatorsOf(routes: RouteNode): Map<string, Record<string, { validate?: Validate }>> {
  const found = new Map<string, Record<string, { validate?: Validate }>>();
  const visit = (node: RouteNode | undefined) => {
    if (!node) return;
    for (const spec of Object.values(node.methods ?? {})) found.set(spec.id, spec.responses);
    for (const child of Object.values(node.children ?? {})) visit(child);
    for (const pattern of node.patterns ?? []) visit(pattern.node);
    visit(node.param);
  };
  visit(routes);
  return found;
}
