/**
 * `server.ts` of a proto API: per service a typed handler interface (`TaskServiceHandlers`), and
 * `createGrpcServer({ TaskService: handlers }, options)`, which serves them through
 * `runtime/grpc-server.ts` (Connect's node adapter: gRPC, gRPC-Web and Connect on one port, with
 * health checking; plain gRPC over HTTP/2 through `runtime/grpc-http2.ts`). Shape of the generated API:
 *
 * ```ts
 * const server = createGrpcServer({ TaskService: handlers }, { authenticate, cors: { origins } });
 * await server.listen(8080, "127.0.0.1");
 * ```
 */
import { importStatement } from '../core/builder/imports.js';
import { jsDoc, propertyKey } from '../core/builder/names.js';
import type { GeneratedFile } from '../core/pipeline/output.js';
import type { TemplateRenderer } from '../core/pipeline/templates.js';
import type { RestModel } from './rest.js';
import type { MethodInfo, ServiceInfo, ServicesModel } from './server-model.js';

/** Runtime files the server imports, by output path → template. */
export const SERVER_RUNTIME = {
  'runtime/grpc-server.ts': 'runtime/grpc-server.ts.hbs',
  'runtime/grpc-call.ts': 'runtime/grpc-call.ts.hbs',
  'runtime/grpc-http2.ts': 'runtime/grpc-http2.ts.hbs',
  'runtime/grpc-admission.ts': 'runtime/grpc-admission.ts.hbs',
  'runtime/grpc-limits.ts': 'runtime/grpc-limits.ts.hbs',
  'runtime/grpc-health.ts': 'runtime/grpc-health.ts.hbs',
  // REST routes of `google.api.http` rules; the path and field helpers are shared with client-rest.ts.
  'runtime/grpc-transcoding.ts': 'runtime/grpc-transcoding.ts.hbs',
  'runtime/grpc-transcoding-path.ts': 'runtime/grpc-transcoding-path.ts.hbs',
  'runtime/grpc-transcoding-fields.ts': 'runtime/grpc-transcoding-fields.ts.hbs',
  'runtime/grpc-reflection.ts': 'runtime/grpc-reflection.ts.hbs',
  // CORS for gRPC-Web and Connect, shared with every style's server.
  'runtime/cors-policy.ts': 'runtime/cors-policy.ts.hbs',
  'runtime/http-listener.ts': 'runtime/http-listener.ts.hbs',
} as const;

export function emitServer(model: ServicesModel, templates: TemplateRenderer, source: string, rest?: RestModel): GeneratedFile[] {
  const rules = rest?.services.map((entry) => entry.constName) ?? [];
  const content = templates.render('proto/server.ts.hbs', {
    source,
    imports: [
      ...model.imports({ descriptors: () => true, inputs: 'type', outputs: 'schema' }).map((group) => importStatement(group.names, group.from, group.typeOnly)),
      ...(rules.length > 0 ? [importStatement(rules, './http-rules.js')] : []),
    ],
    services: model.services.map((service) => ({
      doc: jsDoc([service.comment, `Handlers of \`${service.desc.typeName}\`.`]),
      handlersType: service.handlersType,
      members: service.methods.map(handlerMember),
    })),
    registrations: model.services.map((service) => registration(service, rest?.rulesOf(service))),
    servicesMembers: model.services.map((service) => `${jsDoc([`\`${service.desc.typeName}\``], '  ')}  ${propertyKey(service.key)}?: ${service.handlersType}<Principal>;`),
  });
  const files = [{ path: 'server.ts', content }];
  for (const [path, template] of Object.entries(SERVER_RUNTIME)) files.push({ path, content: templates.render(template, { source }) });
  return files;
}

/** One method of a handler interface, by call mode: a single answer may be returned plain or as a promise. */
function handlerMember(method: MethodInfo): string {
  const output = `MessageInitShape<typeof ${method.output.schema}>`;
  const doc = jsDoc([method.comment ?? `\`${method.desc.name}\` (${modeName(method.kind)}).`], '  ');
  const key = propertyKey(method.name);
  const context = 'context: GrpcCallContext<Principal>';
  switch (method.kind) {
    case 'unary':
      return `${doc}  ${key}(request: ${method.input.type}, ${context}): MaybePromise<${output}>;`;
    case 'server_streaming':
      return `${doc}  ${key}(request: ${method.input.type}, ${context}): AsyncIterable<${output}>;`;
    case 'client_streaming':
      return `${doc}  ${key}(requests: AsyncIterable<${method.input.type}>, ${context}): MaybePromise<${output}>;`;
    case 'bidi_streaming':
      return `${doc}  ${key}(requests: AsyncIterable<${method.input.type}>, ${context}): AsyncIterable<${output}>;`;
  }
}

/** `bindings.push(...)` of a service; `rules`: its REST routes' const, when it has routes. */
function registration(service: ServiceInfo, rules: string | undefined): string {
  const http = rules === undefined ? '' : `, http: ${rules}`;
  return `  if (services.${service.key}) bindings.push({ service: ${service.descriptor}, handlers: services.${service.key}${http} });`;
}

export function modeName(kind: MethodInfo['kind']): string {
  return { unary: 'unary', server_streaming: 'server streaming', client_streaming: 'client streaming', bidi_streaming: 'bidirectional streaming' }[kind];
}
