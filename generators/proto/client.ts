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
import { importStatement } from '../core/builder/imports.js';
import { jsDoc, propertyKey } from '../core/builder/names.js';
import type { GeneratedFile } from '../core/pipeline/output.js';
import type { TemplateRenderer } from '../core/pipeline/templates.js';
import type { MethodInfo, MethodKind, ServiceInfo, ServicesModel } from './server-model.js';
import { modeName } from './server.js';

/** Call modes a browser can make. */
const WEB_KINDS: MethodKind[] = ['unary', 'server_streaming'];

export function emitClients(model: ServicesModel, templates: TemplateRenderer, source: string): GeneratedFile[] {
  // The header's example calls a unary method, when there is one.
  const unary = model.services.flatMap((service) => service.methods.filter((method) => method.kind === 'unary').map((method) => ({ service, method })))[0];
  const example = unary ? { firstKey: clientProperty(unary.service), firstMethod: unary.method.name } : { firstKey: clientProperty(model.services[0]!), firstMethod: 'someMethod' };
  const node = templates.render('proto/client.ts.hbs', {
    source,
    ...example,
    imports: imports(model, undefined),
    services: model.services.map((service) => ({
      doc: jsDoc([service.comment, `Client of \`${service.desc.typeName}\`.`]),
      clientType: service.clientType,
      createClient: service.createClient,
      descriptor: service.descriptor,
      property: propertyKey(clientProperty(service)),
      propertyDoc: jsDoc([`\`${service.desc.typeName}\``], '  ').trimStart(),
      members: service.methods.map(clientMember),
    })),
  });
  const webServices = model.services.filter((service) => service.methods.some((method) => WEB_KINDS.includes(method.kind)));
  const web = templates.render('proto/client-web.ts.hbs', {
    source,
    imports: imports(model, WEB_KINDS),
    services: webServices.map((service) => ({
      doc: jsDoc([service.comment, `Browser client of \`${service.desc.typeName}\`: unary and server-streaming methods.`]),
      clientType: service.webClientType,
      createClient: service.createClient,
      descriptor: service.descriptor,
      property: propertyKey(clientProperty(service)),
      propertyDoc: jsDoc([`\`${service.desc.typeName}\``], '  ').trimStart(),
      members: service.methods.filter((method) => WEB_KINDS.includes(method.kind)).map(clientMember),
    })),
  });
  return [
    { path: 'client.ts', content: node },
    { path: 'client-web.ts', content: web },
    { path: 'runtime/client-common.ts', content: templates.runtime('client-common') },
    { path: 'runtime/grpc-client.ts', content: templates.runtime('grpc-client') },
    { path: 'runtime/grpc-node-client.ts', content: templates.runtime('grpc-node-client') },
    { path: 'runtime/grpc-web-client.ts', content: templates.runtime('grpc-web-client') },
  ];
}

/**
 * The service's member of `createClient(options)`'s result: `TaskService` → `taskService`. Keys
 * are unique identifiers already; `close` is the Node result's own member.
 */
function clientProperty(service: ServiceInfo): string {
  const property = service.key.charAt(0).toLowerCase() + service.key.slice(1);
  return property === 'close' ? 'closeService' : property;
}

function imports(model: ServicesModel, kinds: MethodKind[] | undefined): string[] {
  const served = (service: ServiceInfo) => !kinds || service.methods.some((method) => kinds.includes(method.kind));
  return model.imports({ descriptors: served, inputs: 'schema', outputs: 'type', kinds }).map((group) => importStatement(group.names, group.from, group.typeOnly));
}

/** One method of a client interface, by call mode. */
function clientMember(method: MethodInfo): string {
  const input = `MessageInitShape<typeof ${method.input.schema}>`;
  const output = method.output.type;
  const doc = jsDoc([method.comment ?? `\`${method.desc.name}\` (${modeName(method.kind)}).`], '  ');
  const key = propertyKey(method.name);
  switch (method.kind) {
    case 'unary':
      return `${doc}  ${key}(request: ${input}, options?: CallOptions): Promise<${output}>;`;
    case 'server_streaming':
      return `${doc}  ${key}(request: ${input}, options?: CallOptions): AsyncIterable<${output}>;`;
    case 'client_streaming':
      return `${doc}  ${key}(requests: AsyncIterable<${input}>, options?: CallOptions): Promise<${output}>;`;
    case 'bidi_streaming':
      return `${doc}  ${key}(requests: AsyncIterable<${input}>, options?: CallOptions): AsyncIterable<${output}>;`;
  }
}
