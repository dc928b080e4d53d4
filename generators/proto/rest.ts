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
import { FileBuilder, symbol } from '../core/builder/file.js';
import { jsDoc, propertyAccess, propertyKey, stringLiteral } from '../core/builder/names.js';
import type { GeneratedFile } from '../core/pipeline/output.js';
import type { TemplateRenderer } from '../core/pipeline/templates.js';
import { httpRulesOf, type HttpBinding } from './http-rules.js';
import type { LoadedProto } from './load.js';
import type { MethodInfo, ServiceInfo, ServicesModel } from './server-model.js';
import { streamsResponses } from './service-files.js';
import type { HttpRulesContext, RestClientContext, RestMethodContext } from './template-context.js';

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

/** `http-rules.ts` (for the server or the client) and, for the client, `client-rest.ts`. */
export function emitRest(
  rest: RestModel,
  templates: TemplateRenderer,
  source: string,
  emit: { server: boolean; client: boolean },
): GeneratedFile[] {
  if (rest.services.length === 0 || (!emit.server && !emit.client)) return [];
  // The templates' own code names the runtime exports it uses ({{runtime}}), imported through each file.
  const rules = httpRules(rest, source);
  const files: GeneratedFile[] = [
    { path: 'http-rules.ts', content: templates.render('proto/http-rules.ts.hbs', rules.context, rules.file) },
  ];
  if (emit.client) {
    const client = restClient(rest, source);
    files.push({ path: 'client-rest.ts', content: templates.render('proto/client-rest.ts.hbs', client.context, client.file) });
  }
  return files;
}

function httpRules(rest: RestModel, source: string): { context: HttpRulesContext; file: FileBuilder } {
  const file = new FileBuilder(
    'http-rules.ts',
    rest.services.map((entry) => entry.constName),
  );
  const services = rest.services.map(({ service, constName, rules }) => ({
    typeName: service.desc.typeName,
    constName,
    methods: [...rules].map(([localName, bindings]) => ({ key: propertyKey(localName), bindings: bindings.map(bindingLiteral) })),
  }));
  return { context: { source, services }, file };
}

function restClient(rest: RestModel, source: string): { context: RestClientContext; file: FileBuilder } {
  const clientKey = (service: ServiceInfo) => `${service.key.charAt(0).toLowerCase()}${service.key.slice(1)}`;
  const reserved = rest.services.flatMap(({ service }) => [
    `${service.key}RestClient`,
    `create${service.key}RestClient`,
    `${clientKey(service)}RestService`,
  ]);
  const file = new FileBuilder('client-rest.ts', [...reserved, 'RestClients', 'createRestClient']);
  // The package type the template's code prints; its runtime names come from {{runtime}}.
  file.reexportRuntime('grpc-rest-client', 'client-common');
  const first = rest.services[0]!;
  const services = rest.services.map(({ service, constName, rules }) => {
    const descriptor = file.use(service.descriptor);
    const rulesConst = file.use(symbol(constName, './http-rules'));
    return {
      doc: jsDoc([service.comment, `REST client of \`${service.desc.typeName}\`: its methods with \`google.api.http\` routes.`]),
      typeName: service.desc.typeName,
      clientType: `${service.key}RestClient`,
      createClient: `create${service.key}RestClient`,
      restService: `${clientKey(service)}RestService`,
      key: propertyKey(clientKey(service)),
      methods: service.methods.flatMap((method) => {
        const route = rules.get(method.desc.localName)?.[0];
        return route ? [restMethod(file, method, descriptor, rulesConst, route)] : [];
      }),
    };
  });
  const context: RestClientContext = {
    source,
    firstClient: clientKey(first.service),
    firstMethod: first.service.methods.find((method) => first.rules.has(method.desc.localName))!.name,
    services,
  };
  return { context, file };
}

function bindingLiteral(binding: HttpBinding): string {
  const parts = [`method: ${stringLiteral(binding.method)}`, `path: ${stringLiteral(binding.path)}`];
  if (binding.body !== undefined) parts.push(`body: ${stringLiteral(binding.body)}`);
  if (binding.responseBody !== undefined) parts.push(`responseBody: ${stringLiteral(binding.responseBody)}`);
  return `{ ${parts.join(', ')} }`;
}

/** One method of a REST client: its member of the client interface, and its call (the method's descriptor and its first route). */
function restMethod(file: FileBuilder, method: MethodInfo, descriptor: string, rules: string, binding: HttpBinding): RestMethodContext {
  return {
    doc: jsDoc([method.comment, `\`${binding.method} ${binding.path}\``], '  '),
    name: propertyKey(method.name),
    inputSchema: file.use(method.input.schema),
    output: file.use(method.output.type),
    streamsResponses: streamsResponses(method),
    method: propertyAccess(`${descriptor}.method`, method.desc.localName),
    rule: `${propertyAccess(rules, method.desc.localName)}[0]`,
  };
}
