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
import type { DescMessage } from '@bufbuild/protobuf';
import { wktPublicImportPaths } from '@bufbuild/protobuf/codegenv2';
import { FileBuilder, symbol } from '../core/builder/file.js';
import { jsDoc, propertyKey } from '../core/builder/names.js';
import type { GeneratedFile } from '../core/pipeline/output.js';
import type { TemplateRenderer } from '../core/pipeline/templates.js';
import { codecModule, codecName } from './codecs.js';
import { jsonCodecModule, jsonCodecName } from './json-codecs.js';
import type { RestModel } from './rest.js';
import type { MethodInfo, ServicesModel } from './server-model.js';
import { streamsRequests, streamsResponses } from './service-files.js';
import type { HandlerMemberContext, ServerContext } from './template-context.js';

export function emitServer(
  model: ServicesModel,
  templates: TemplateRenderer,
  source: string,
  rest?: RestModel,
  options: {
    /** The API's `options.redis`: server.ts also re-exports `RedisFanOut` (runtime/redis-fanout.ts), for `createPubSub`. */
    redis?: boolean;
  } = {},
): GeneratedFile[] {
  const file = new FileBuilder('server.ts', [...model.services.map((service) => service.handlersType), 'GrpcServices', 'createGrpcServer']);
  // The package type the template's code prints; its runtime names come from {{runtime}}.
  file.reexportRuntime('grpc-server', ...(options.redis ? ['redis-pubsub', 'redis-fanout'] : []));
  const services = model.services.map((service) => {
    const rules = rest?.rulesOf(service);
    return {
      doc: jsDoc([service.comment, `Handlers of \`${service.desc.typeName}\`.`]),
      typeName: service.desc.typeName,
      key: propertyKey(service.key),
      handlersType: service.handlersType,
      descriptor: file.use(service.descriptor),
      rules: rules === undefined ? undefined : file.use(symbol(rules, './http-rules')),
      members: service.methods.map((method) => handlerMember(file, method)),
    };
  });
  const context: ServerContext = { source, services, codecs: servedCodecs(file, model), jsonCodecs: servedJsonCodecs(file, model) };
  return [{ path: 'server.ts', content: templates.render('proto/server.ts.hbs', context, file) }];
}

/**
 * The generated codecs of every message the services read or write, as imported (`TaskCodec, ...`);
 * well-known types (`Empty`) have none: protobuf-es's reflection encodes them.
 */
function servedCodecs(file: FileBuilder, model: ServicesModel): string {
  return servedMessages(model)
    .map((message) => file.use(symbol(codecName(message), codecModule(message.file))))
    .join(', ');
}

/** The generated JSON codecs of the same messages (`TaskJsonCodec, ...`), for the REST routes' JSON. */
function servedJsonCodecs(file: FileBuilder, model: ServicesModel): string {
  return servedMessages(model)
    .map((message) => file.use(symbol(jsonCodecName(message), jsonCodecModule(message.file))))
    .join(', ');
}

/** The messages the services read or write that have generated codecs (not the well-known types). */
function servedMessages(model: ServicesModel): DescMessage[] {
  const messages = new Map<string, DescMessage>();
  for (const service of model.services)
    for (const method of service.desc.methods) for (const message of [method.input, method.output]) messages.set(message.typeName, message);
  return [...messages.values()].filter((message) => !Object.hasOwn(wktPublicImportPaths, message.file.proto.name));
}

/** One method of a handler interface. */
function handlerMember(file: FileBuilder, method: MethodInfo): HandlerMemberContext {
  return {
    doc: jsDoc([method.comment ?? `\`${method.desc.name}\` (${modeName(method.kind)}).`], '  '),
    name: propertyKey(method.name),
    input: file.use(method.input.type),
    outputSchema: file.use(method.output.schema),
    streamsRequests: streamsRequests(method),
    streamsResponses: streamsResponses(method),
  };
}

export function modeName(kind: MethodInfo['kind']): string {
  return {
    unary: 'unary',
    server_streaming: 'server streaming',
    client_streaming: 'client streaming',
    bidi_streaming: 'bidirectional streaming',
  }[kind];
}
