/**
 * The clients of a proto API: `client.ts` for Node (gRPC over HTTP/2, every call mode) and
 * `client-web.ts` for browsers (gRPC-Web or Connect's JSON protocol through `fetch`, unary and
 * server streaming only: browsers cannot stream a request). Both are typed per method and made
 * with Connect's `createClient` and reject with `GrpcError` (a `ClientError`), one shape with the
 * other styles' clients (runtime/client-common.ts):
 *
 * ```ts
 * const client = createClient({ baseUrl: "http://127.0.0.1:8080", token: "...", timeout: 5000 });
 * const task = await client.taskService.getTask({ id: "t1" }, { timeoutMs: 2000 });
 * for await (const task of client.taskService.listTasks({ projectId: "p1" })) console.log(task.title);
 * client.close();
 * ```
 */
import { FileBuilder } from '../core/builder/file.js';
import { jsDoc, propertyKey } from '../core/builder/names.js';
import type { GeneratedFile } from '../core/pipeline/output.js';
import type { TemplateRenderer } from '../core/pipeline/templates.js';
import type { MethodInfo, MethodKind, ServiceInfo, ServicesModel } from './server-model.js';
import { modeName } from './server.js';
import { streamsRequests, streamsResponses } from './service-files.js';
import type { ClientContext, ClientMemberContext, ClientServiceContext, WebClientContext } from './template-context.js';

/** Call modes a browser can make. */
const WEB_KINDS: MethodKind[] = ['unary', 'server_streaming'];

export function emitClients(model: ServicesModel, templates: TemplateRenderer, source: string): GeneratedFile[] {
  // The templates' own code names the runtime exports it uses ({{runtime}}), imported through each file.
  const node = nodeClient(model, source);
  const web = webClient(model, source);
  return [
    { path: 'client.ts', content: templates.render('proto/client.ts.hbs', node.context, node.file) },
    { path: 'client-web.ts', content: templates.render('proto/client-web.ts.hbs', web.context, web.file) },
  ];
}

function nodeClient(model: ServicesModel, source: string): { context: ClientContext; file: FileBuilder } {
  const file = new FileBuilder('client.ts', [
    ...model.services.flatMap((service) => [service.clientType, service.createClient]),
    'Clients',
    'createClient',
  ]);
  // The package type the template's code prints; its runtime names come from {{runtime}}.
  file.reexportRuntime('grpc-client', 'grpc-node-client', 'client-common');
  // The header's example calls a unary method, when there is one.
  const unary = model.services.flatMap((service) =>
    service.methods.filter((method) => method.kind === 'unary').map((method) => ({ service, method })),
  )[0];
  const example = unary
    ? { firstKey: clientProperty(unary.service), firstMethod: unary.method.name }
    : { firstKey: clientProperty(model.services[0]!), firstMethod: 'someMethod' };
  const services = model.services.map((service) =>
    clientService(file, service, service.clientType, `Client of \`${service.desc.typeName}\`.`, service.methods),
  );
  return { context: { source, ...example, services }, file };
}

function webClient(model: ServicesModel, source: string): { context: WebClientContext; file: FileBuilder } {
  const own = model.services.flatMap((service) => [service.webClientType, service.createClient]);
  const file = new FileBuilder('client-web.ts', [...own, 'WebClients', 'createClient', 'createConnectClient', 'webClients']);
  // The package types the template's code prints; its runtime names come from {{runtime}}.
  file.reexportRuntime('grpc-client', 'grpc-web-client', 'client-common');
  const services = model.services.flatMap((service) => {
    const methods = service.methods.filter((method) => WEB_KINDS.includes(method.kind));
    const doc = `Browser client of \`${service.desc.typeName}\`: unary and server-streaming methods.`;
    return methods.length === 0 ? [] : [clientService(file, service, service.webClientType, doc, methods)];
  });
  return { context: { source, services }, file };
}

function clientService(
  file: FileBuilder,
  service: ServiceInfo,
  clientType: string,
  summary: string,
  methods: MethodInfo[],
): ClientServiceContext {
  return {
    doc: jsDoc([service.comment, summary]),
    clientType,
    createClient: service.createClient,
    descriptor: file.use(service.descriptor),
    property: propertyKey(clientProperty(service)),
    typeName: service.desc.typeName,
    members: methods.map((method) => clientMember(file, method)),
  };
}

/**
 * The service's member of `createClient(options)`'s result: `TaskService` → `taskService`. Keys
 * are unique identifiers already; `close` is the Node result's own member.
 */
function clientProperty(service: ServiceInfo): string {
  const property = service.key.charAt(0).toLowerCase() + service.key.slice(1);
  return property === 'close' ? 'closeService' : property;
}

/** One method of a client interface. */
function clientMember(file: FileBuilder, method: MethodInfo): ClientMemberContext {
  return {
    doc: jsDoc([method.comment ?? `\`${method.desc.name}\` (${modeName(method.kind)}).`], '  '),
    name: propertyKey(method.name),
    inputSchema: file.use(method.input.schema),
    output: file.use(method.output.type),
    streamsRequests: streamsRequests(method),
    streamsResponses: streamsResponses(method),
  };
}
