/**
 * The clients of a proto API: `client.ts` for Node (gRPC over HTTP/2, every call mode) and
 * `client-web.ts` for browsers (gRPC-Web or Connect's JSON protocol through `fetch`, unary and
 * server streaming only: browsers cannot stream a request). Both are typed per method and made
 * with Connect's `createClient`:
 *
 * ```ts
 * const connection = createGrpcConnection("http://127.0.0.1:8080", { token: "..." });
 * const tasks = createTaskServiceClient(connection);
 * const task = await tasks.getTask({ id: "t1" }, { timeoutMs: 2000 });
 * for await (const task of tasks.listTasks({ projectId: "p1" })) console.log(task.title);
 * connection.close();
 * ```
 */
import { importStatement } from '../core/imports.js';
import { jsDoc, propertyKey } from '../core/names.js';
import type { GeneratedFile } from '../core/output.js';
import type { TemplateRenderer } from '../core/templates.js';
import type { MethodInfo, MethodKind, ServiceInfo, ServicesModel } from './server-model.js';
import { modeName } from './server.js';

/** Call modes a browser can make. */
const WEB_KINDS: MethodKind[] = ['unary', 'server_streaming'];

export function emitClients(model: ServicesModel, templates: TemplateRenderer, source: string): GeneratedFile[] {
  const node = templates.render('proto/client.ts.hbs', {
    source,
    imports: imports(model, undefined),
    services: model.services.map((service) => ({
      doc: jsDoc([service.comment, `Client of \`${service.desc.typeName}\`.`]),
      clientType: service.clientType,
      createClient: service.createClient,
      descriptor: service.descriptor,
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
      members: service.methods.filter((method) => WEB_KINDS.includes(method.kind)).map(clientMember),
    })),
  });
  return [
    { path: 'client.ts', content: node },
    { path: 'client-web.ts', content: web },
    { path: 'runtime/grpc-client.ts', content: templates.render('runtime/grpc-client.ts.hbs', { source }) },
    { path: 'runtime/grpc-node-client.ts', content: templates.render('runtime/grpc-node-client.ts.hbs', { source }) },
    { path: 'runtime/grpc-web-client.ts', content: templates.render('runtime/grpc-web-client.ts.hbs', { source }) },
  ];
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
