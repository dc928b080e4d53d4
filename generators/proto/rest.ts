/**
 * The REST side of a proto API whose methods carry `google.api.http` rules: `http-rules.ts`, the
 * route table `server.ts` serves and the REST client calls, and `client-rest.ts`, a typed client per
 * service over `runtime/grpc-rest-client.ts`:
 *
 * ```ts
 * const client = createRestClient({ baseUrl: "http://127.0.0.1:8080", token });
 * const task = await client.taskService.getTask({ id: "t1" }); // GET /v1/tasks/t1
 * ```
 */
import { importStatement } from '../core/builder/imports.js';
import { jsDoc, propertyAccess, propertyKey, stringLiteral } from '../core/builder/names.js';
import type { GeneratedFile } from '../core/pipeline/output.js';
import type { TemplateRenderer } from '../core/pipeline/templates.js';
import { httpRulesOf, type HttpBinding } from './http-rules.js';
import type { LoadedProto } from './load.js';
import type { MethodInfo, ServiceInfo, ServicesModel } from './server-model.js';

/** The services with routes: each one's rules const (`TaskServiceHttpRules`) and rules by method. */
export interface RestModel {
  services: { service: ServiceInfo; constName: string; rules: Map<string, HttpBinding[]> }[];
  /** The rules const of a service, for `server.ts`'s bindings; undefined without routes. */
  rulesOf(service: ServiceInfo): string | undefined;
}

export function describeRest(proto: LoadedProto, model: ServicesModel): RestModel {
  const services = model.services.flatMap((service) => {
    const rules = httpRulesOf(proto, service.desc);
    return rules.size === 0 ? [] : [{ service, constName: `${service.key}HttpRules`, rules }];
  });
  return { services, rulesOf: (service) => services.find((entry) => entry.service === service)?.constName };
}

/** `http-rules.ts` (for the server or the client) and, for the client, `client-rest.ts` and its runtime. */
export function emitRest(rest: RestModel, model: ServicesModel, templates: TemplateRenderer, source: string, emit: { server: boolean; client: boolean }): GeneratedFile[] {
  if (rest.services.length === 0 || (!emit.server && !emit.client)) return [];
  const files: GeneratedFile[] = [{ path: 'http-rules.ts', content: httpRulesFile(rest, templates, source) }];
  if (!emit.client) return files;
  const routed = (method: MethodInfo) => rest.services.some((entry) => entry.service.methods.includes(method) && entry.rules.has(method.desc.localName));
  const first = rest.services[0]!;
  const clientKey = (service: ServiceInfo) => `${service.key.charAt(0).toLowerCase()}${service.key.slice(1)}`;
  const content = templates.render('proto/client-rest.ts.hbs', {
    source,
    firstClient: clientKey(first.service),
    firstMethod: first.service.methods.find((method) => first.rules.has(method.desc.localName))!.name,
    rulesImports: rest.services.map((entry) => entry.constName).join(', '),
    imports: model
      .imports({ descriptors: (service) => rest.rulesOf(service) !== undefined, inputs: 'schema', outputs: 'type', methods: routed })
      .map((group) => importStatement(group.names, group.from, group.typeOnly)),
    services: rest.services.map(({ service, constName, rules }) => {
      const methods = service.methods.filter((method) => rules.has(method.desc.localName));
      return {
        doc: jsDoc([service.comment, `REST client of \`${service.desc.typeName}\`: its methods with \`google.api.http\` routes.`]),
        typeName: service.desc.typeName,
        clientType: `${service.key}RestClient`,
        createClient: `create${service.key}RestClient`,
        restService: `${clientKey(service)}RestService`,
        key: propertyKey(clientKey(service)),
        members: methods.map((method) => clientMember(method, rules.get(method.desc.localName)![0]!)),
        calls: methods.map((method) => clientCall(service, constName, method)),
      };
    }),
  });
  files.push({ path: 'client-rest.ts', content }, { path: 'runtime/grpc-rest-client.ts', content: templates.runtime('grpc-rest-client') });
  // The server writes these too; a client alone needs its own copy.
  if (!emit.server) {
    for (const name of ['grpc-transcoding-path', 'grpc-transcoding-fields']) files.push({ path: `runtime/${name}.ts`, content: templates.runtime(name) });
  }
  return files;
}

function httpRulesFile(rest: RestModel, templates: TemplateRenderer, source: string): string {
  return templates.render('proto/http-rules.ts.hbs', {
    source,
    services: rest.services.map(({ service, constName, rules }) => ({
      typeName: service.desc.typeName,
      constName,
      methods: [...rules].map(([localName, bindings]) => ({ key: propertyKey(localName), bindings: bindings.map(bindingLiteral) })),
    })),
  });
}

function bindingLiteral(binding: HttpBinding): string {
  const parts = [`method: ${stringLiteral(binding.method)}`, `path: ${stringLiteral(binding.path)}`];
  if (binding.body !== undefined) parts.push(`body: ${stringLiteral(binding.body)}`);
  if (binding.responseBody !== undefined) parts.push(`responseBody: ${stringLiteral(binding.responseBody)}`);
  return `{ ${parts.join(', ')} }`;
}

function clientMember(method: MethodInfo, binding: HttpBinding): string {
  const input = `MessageInitShape<typeof ${method.input.schema}>`;
  const route = `\`${binding.method} ${binding.path}\``;
  const doc = jsDoc([method.comment, route], '  ');
  const result = method.kind === 'server_streaming' ? `AsyncIterable<${method.output.type}>` : `Promise<${method.output.type}>`;
  return `${doc}  ${propertyKey(method.name)}(request: ${input}, options?: RestCallOptions): ${result};`;
}

function clientCall(service: ServiceInfo, constName: string, method: MethodInfo): string {
  const call = method.kind === 'server_streaming' ? 'serverStream' : 'unary';
  const descriptor = propertyAccess(`${service.descriptor}.method`, method.desc.localName);
  const rule = `${propertyAccess(constName, method.desc.localName)}[0]`;
  return `${propertyKey(method.name)}: (request, options) => connection.${call}(${descriptor}, ${rule}, request, options),`;
}
