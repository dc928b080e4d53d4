/**
 * `server.ts` of a realtime API: `createRealtimeServer(handlers, options)`, one SSE endpoint
 * (runtime/sse-server.ts) per SSE channel and one WebSocket endpoint (runtime/ws-server.ts) per
 * WebSocket channel, each parameterised by the channel's message types and set up with what the
 * manifest says (retry, keep-alive, `[DONE]`, resume; subprotocols, heartbeat, size limit,
 * first-message auth, discriminator, correlation id). The runtime modules it imports come with it
 * (core/pipeline/runtime-files.ts).
 */
import type { TypeEmitter } from '../core/emit/types/emit.js';
import { exportStatement, importStatement } from '../core/builder/imports.js';
import { commentText, jsDoc, jsonLiteral, objectKey, propertyAccess, propertyKey, stringLiteral, uniqueName } from '../core/builder/names.js';
import type { GeneratedFile } from '../core/pipeline/output.js';
import type { TemplateRenderer } from '../core/pipeline/templates.js';
import { APP_PING, assertSupported, describeChannels, handledMessages, pathNames, pathPattern, runtimePing, type ChannelInfo, type MessageInfo } from './endpoints.js';
import type { RealtimeModel } from './model.js';

export interface RealtimeServerEmitOptions {
  /**
   * The API's `options.redis`: server.ts also re-exports `runtime/sse-redis.ts` (`RedisEventLog`) and
   * `runtime/ws-redis.ts` (`RedisFanOut`) for the transports the API uses, over a shared pub/sub helper.
   */
  redis?: boolean;
}

/** Names of the TypeScript declarations server.ts adds, chosen not to clash with types.ts. */
export function takenTypeNames(model: RealtimeModel, types: TypeEmitter): Set<string> {
  const taken = new Set<string>();
  for (const { name } of model.schemas) {
    taken.add(types.typeName(name, 'read'));
    taken.add(types.typeName(name, 'write'));
  }
  for (const channel of model.channels) {
    for (const names of [channel.types.send, channel.types.receive]) if (names) taken.add(names.map);
    taken.add(`${channel.name}Params`);
    taken.add(`${channel.name}Replies`);
  }
  return taken;
}

/** What server.ts needs from one channel beyond `ChannelInfo`. */
interface ServerChannel extends ChannelInfo {
  /** The sent union's type, `never` when the server sends nothing on it. */
  out: string;
  /** WebSocket: the type handed to the runtime as `In`, and its validator. */
  input?: { type: string; validator: string; declaration?: string };
  handlersType?: string;
  connectionType?: string;
  streamType?: string;
  handled: MessageInfo[];
}

/** server.ts; nothing when the manifest has no channels. */
export function emitServer(model: RealtimeModel, types: TypeEmitter, templates: TemplateRenderer, source: string, options: RealtimeServerEmitOptions = {}): GeneratedFile[] {
  if (model.channels.length === 0) return [];
  const taken = takenTypeNames(model, types);
  const reserve = (name: string) => uniqueName(name, taken);
  const channels = describeChannels(model, types).map((info) => {
    assertSupported(info);
    return serverChannel(info, types, reserve);
  });
  const sse = channels.filter((info) => info.channel.transport === 'sse');
  const ws = channels.filter((info) => info.channel.transport === 'websocket');
  const streams = channels.filter((info) => info.channel.transport === 'http-stream');
  // SSE and HTTP streams are answered by the node:http listener.
  const routed = [...sse, ...streams];
  const withHandlers = channels.filter((info) => info.handlersType !== undefined || info.streamType !== undefined);
  const verifies = ws.filter((info) => info.auth);

  const typeImports = new Set<string>();
  const validatorImports = new Set<string>();
  const declarations: string[] = [];
  const helpers: string[] = [];

  // Paths and their parameters.
  const paramChannels = channels.filter((info) => info.paramsType);
  for (const info of paramChannels) {
    typeImports.add(info.paramsType!);
    declarations.push(pathFunctions(info));
  }

  // Per-channel types for handlers.
  for (const info of ws) {
    if (info.out !== 'never') typeImports.add(info.out);
    if (info.repliesType) typeImports.add(info.repliesType);
    declarations.push(`${jsDoc([`A socket of \`${info.channel.key}\` (${info.path}) as its handlers see it.`])}export type ${info.connectionType}<Auth = undefined> = WebSocketConnection<${info.out}, Auth>;`);
    if (info.input?.declaration) declarations.push(info.input.declaration);
    const input = info.input!;
    if (input.type !== 'never') {
      if (!input.declaration) {
        validatorImports.add(input.validator);
        typeImports.add(input.type);
      } else {
        for (const entry of info.received) validatorImports.add(entry.validator);
      }
    }
    if (info.handlersType) {
      const members = info.handled.map((entry) => {
        for (const type of [entry.type, ...entry.replies]) typeImports.add(type);
        const reply = entry.replies.length > 0 ? entry.replies.join(' | ') : 'void';
        const answer = entry.replies.length > 0 ? `Answered with ${entry.replies.map((type) => `\`${type}\``).join(' or ')}, which gets the request's \`${info.correlationKey ?? 'id'}\`.` : undefined;
        const doc = jsDoc([entry.message.summary ?? entry.message.title, entry.message.description, answer, entry.message.deprecated && '@deprecated'], '  ');
        return `${doc}  ${propertyKey(entry.message.tag)}(message: ${entry.type}, connection: ${info.connectionType}<Auth>, publish: RealtimePublish): ${reply} | Promise<${reply}>;`;
      });
      const ping = info.received.find((entry) => runtimePing(info, entry));
      const pingNote = ping && `\`${APP_PING}\` has no handler: the runtime answers it itself, before authentication, with \`${ping.replies.length > 0 ? ping.replies.join(' | ') : '{ type: "pong" }'}\` carrying its \`${info.correlationKey ?? 'id'}\`.`;
      declarations.push(`${jsDoc([`The handlers of \`${info.channel.key}\` (WebSocket ${info.path}): one per message a client sends.`, pingNote])}export interface ${info.handlersType}<Auth = undefined> {\n${members.join('\n')}\n}`);
    }
  }
  for (const info of sse) {
    typeImports.add(info.channel.types.send!.map);
    for (const entry of info.sent) validatorImports.add(entry.validator);
    if (info.streamType) {
      const body = info.channel.types.receive ? types.typeName(info.channel.types.receive.union, 'write') : 'unknown';
      if (info.channel.types.receive) {
        typeImports.add(body);
        validatorImports.add(`validate${body}`);
      }
      const params = info.paramsType ? `\n  /** The address's \`{parameters}\`, percent-decoded. */\n  params: ${info.paramsType};\n` : '';
      declarations.push(
        `${jsDoc([`What the producer of a \`POST ${info.path}\` stream gets: the request, its checked JSON body, the stream to send events to, and a signal aborted when the client goes away.`])}export interface ${info.streamType}<Auth = undefined> extends PostStreamContext<${info.channel.types.send!.map}, Auth, ${body}> {${params}}`,
      );
    }
  }

  // The user's handlers.
  if (withHandlers.length > 0) {
    const members = withHandlers.map((info) => {
      if (info.handlersType) return `${jsDoc([`\`${info.channel.key}\`: WebSocket ${info.path}.`, info.channel.summary ?? info.channel.title, info.channel.description], '  ')}  ${propertyKey(info.member)}: ${info.handlersType}<Auth>;`;
      const done = info.channel.sse!.done !== undefined ? ` The stream ends, with \`data: ${info.channel.sse!.done}\`, when it settles.` : ' The stream ends when it settles.';
      return `${jsDoc([`\`POST ${info.path}\`: produces the stream's events.${done} A throw cuts the stream (the client sees an error, not an end).`, info.channel.description], '  ')}  ${propertyKey(info.member)}(stream: ${info.streamType}<Auth>, publish: RealtimePublish): void | Promise<void>;`;
    });
    declarations.push(`/** Everything the server cannot know by itself: what to do with each message clients send, and how to produce POST streams. */\nexport interface RealtimeHandlers<Auth = undefined> {\n${members.join('\n')}\n}`);
  }

  // Publishing.
  const publishMembers: string[] = [];
  const publishImpl: string[] = [];
  for (const info of channels) {
    const member = propertyKey(info.member);
    if (info.channel.transport === 'sse' && info.channel.sse!.method === 'GET') {
      const map = info.channel.types.send!.map;
      const kept = info.channel.sse!.resume ? ' and keeps it for clients that resume' : '';
      if (info.paramsType) {
        publishMembers.push(`${jsDoc([`Sends an event to every \`GET ${info.path}\` stream of these parameters${kept}; resolves with its id.`], '  ')}  ${member}<E extends keyof ${map} & string>(params: ${info.paramsType}, event: E, data: ${map}[E]): Promise<string>;`);
        publishImpl.push(`    ${objectKey(info.member)}: (params, event, data) => ${endpointName(info)}.publish(${pathFunctionName(info)}(params), event, data),`);
      } else {
        publishMembers.push(`${jsDoc([`Sends an event to every \`GET ${info.path}\` stream${kept}; resolves with its id.`], '  ')}  ${member}<E extends keyof ${map} & string>(event: E, data: ${map}[E]): Promise<string>;`);
        publishImpl.push(`    ${objectKey(info.member)}: (event, data) => ${endpointName(info)}.publish(${stringLiteral(info.path)}, event, data),`);
      }
    } else if (info.channel.transport === 'http-stream' && info.out !== 'never') {
      typeImports.add(info.out);
      const params = info.paramsType ? `params: ${info.paramsType}, ` : '';
      const path = info.paramsType ? `${pathFunctionName(info)}(params)` : stringLiteral(info.path);
      publishMembers.push(`${jsDoc([`Writes a message, one JSON line, to every \`GET ${info.path}\` stream${info.paramsType ? ' of these parameters' : ''}; throws a TypeError for an invalid one.`], '  ')}  ${member}(${params}message: ${info.out}): Promise<void>;`);
      publishImpl.push(`    ${objectKey(info.member)}: (${info.paramsType ? 'params, ' : ''}message) => ${endpointName(info)}.publish(${path}, message),`);
    } else if (info.channel.transport === 'websocket' && info.out !== 'never') {
      const topic = info.paramsType ? `topic: string` : `topic = ${stringLiteral(info.path)}`;
      const doc = info.paramsType
        ? `Sends a message to every socket of \`${info.channel.key}\` that joined \`topic\`: a socket joins its own path (\`${pathFunctionName(info)}(params)\`) and the topics its handlers subscribe it to.`
        : `Sends a message to every socket of \`${info.channel.key}\` that joined \`topic\`: by default every socket of ${info.path}; handlers subscribe sockets to topics of their own.`;
      publishMembers.push(`${jsDoc([doc], '  ')}  ${member}(message: ${info.out}, topic${info.paramsType ? '' : '?'}: string): Promise<void>;`);
      publishImpl.push(`    ${objectKey(info.member)}: (message, ${topic}) => ${endpointName(info)}.publish(topic, message),`);
    }
  }
  declarations.push(`/** Broadcasts, typed per channel: for the application and for handlers. */\nexport interface RealtimePublish {${publishMembers.length ? `\n${publishMembers.join('\n')}\n` : ''}}`);

  // Options.
  const optionTypes: string[] = [];
  if (sse.length > 0) {
    optionTypes.push(
      `/**\n * Settings of every SSE endpoint. What the manifest fixes (retry, keep-alive, \`[DONE]\`, resume,\n * payload validation) is not here. \`authenticate\` gets the bearer token of \`Authorization\` or of\n * \`?access_token=\` (EventSource cannot send headers).\n */\nexport type RealtimeSseOptions<Auth> = Pick<\n  SseEndpointOptions<object, Auth>,\n  "eventLog" | "authenticate" | "authorize" | "maxStreams" | "maxStreamsPerClient" | "clientKey" | "maxBufferedBytes" | "maxBodyBytes" | "bodyTimeoutMs" | "logger"\n>;`,
    );
  }
  if (ws.length > 0) {
    const picked = `Pick<\n    WebSocketEndpointOptions<never, unknown, unknown, Auth, string>,\n    "authenticate" | "perMessageDeflate" | "maxConnections" | "maxConnectionsPerClient" | "clientKey" | "rateLimit" | "maxBufferedBytes" | "fanOut" | "closeTimeoutMs" | "onOpen" | "onClose" | "onError"\n  >`;
    const verify = verifies.length > 0
      ? ` {\n  /** Resolves the token of the first message (${verifies.map((info) => `\`${info.channel.key}\``).join(', ')}) to who it is; \`undefined\` refuses it (close 1008). */\n  verifyToken: FirstMessageAuth<Auth>["verify"];\n}`
      : ' {}';
    optionTypes.push(
      `/**\n * Settings of every WebSocket endpoint. What the manifest fixes (path, subprotocols, heartbeat,\n * largest message, first-message auth, discriminator, correlation id) is not here.\n */\nexport interface RealtimeWebSocketOptions<Auth>\n  extends ${picked}${verify}`,
    );
  }
  const optionMembers = [
    '  /**',
    '   * CORS for browser pages of other origins, as every generated server takes it: SSE answers',
    '   * preflights and sends the CORS headers; WebSocket upgrades check `Origin` against `origins`.',
    "   * Without it only pages of the server's own origin may read the streams or open a socket.",
    '   */',
    '  cors?: CorsOptions;',
    ...(sse.length > 0 ? ['  sse?: RealtimeSseOptions<Auth>;'] : []),
    ...(streams.length > 0 ? ['  /** Settings of every HTTP stream: keep-alive interval (default 15 s; 0: none) and what a slow client may leave unread. */', '  stream?: Pick<HttpStreamEndpointOptions<unknown>, "keepAliveMs" | "maxBufferedBytes">;'] : []),
    ...(ws.length > 0 ? [`  websocket${verifies.length > 0 ? '' : '?'}: RealtimeWebSocketOptions<Auth>;`] : []),
  ];
  // Only SSE and WebSocket endpoints authenticate: a server of HTTP streams alone has no `Auth`.
  const auth = sse.length > 0 || ws.length > 0 ? '<Auth = undefined>' : '';
  optionTypes.push(`export interface RealtimeServerOptions${auth} {\n${optionMembers.join('\n')}\n}`);
  declarations.push(...optionTypes);

  // The server.
  const serverMembers = [
    ...(routed.length > 0
      ? [`  /** The ${sse.length > 0 ? 'SSE ' : 'HTTP '}streams, as a node:http request listener; other paths go to \`next\`, or are answered 404. */`, '  listener(request: IncomingMessage, response: ServerResponse, next?: () => void): void;']
      : []),
    ...(ws.length > 0
      ? [
          "  /** Takes over an upgrade request for a WebSocket channel's path; `false` when the path is another. */",
          '  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): boolean;',
          "  /** Serves the WebSocket channels on `server`'s upgrades (other paths: 404); returns the function that detaches. */",
          '  attach(server: Server): () => void;',
        ]
      : []),
    '  publish: RealtimePublish;',
    `  /** Ends every stream${ws.length > 0 ? ' and closes every socket with 1001' : ''}, refusing new ones; resolves when they are gone. */`,
    '  close(): Promise<void>;',
  ];
  declarations.push(`export interface RealtimeServer {\n${serverMembers.join('\n')}\n}`);

  // Endpoint construction.
  const endpoints: string[] = [];
  if (sse.length > 0) endpoints.push('  const eventLog = options.sse?.eventLog ?? new MemoryEventLog();');
  if (sse.some((info) => !info.channel.sse!.resume && info.channel.sse!.method === 'GET')) helpers.push(WITHOUT_RESUME);
  const notFoundNeeded = sse.some((info) => info.paramsType);
  if (notFoundNeeded) helpers.push(NOT_FOUND);
  for (const info of sse) endpoints.push(sseEndpoint(info, types, validatorImports));
  for (const info of streams) {
    validatorImports.add(`validate${info.out}`);
    endpoints.push(`${jsDoc([`GET ${info.path}: newline-delimited JSON`], '  ')}  const ${endpointName(info)} = createHttpStreamEndpoint<${info.out}>({ ...options.stream, cors: options.cors, validate: validate${info.out} });`);
  }
  for (const info of ws) endpoints.push(wsEndpoint(info));

  const factoryMembers: string[] = [];
  if (routed.length > 0) {
    const routes = routed.map((info) =>
      info.paramsType
        ? `    if (${paramsFunctionName(info)}(pathname)) return ${endpointName(info)}.handle(request, response);`
        : `    if (pathname === ${stringLiteral(info.path)}) return ${endpointName(info)}.handle(request, response);`,
    );
    factoryMembers.push(
      [
        '  listener(request, response, next) {',
        '    const pathname = pathnameOf(request.url);',
        ...routes,
        '    if (next) next();',
        '    else notFoundResponse(response);',
        '  },',
      ].join('\n'),
    );
    helpers.push(PATHNAME_OF, NOT_FOUND_RESPONSE);
  }
  if (ws.length > 0) {
    const list = ws.map(endpointName).join(', ');
    factoryMembers.push(
      `  handleUpgrade(request, socket, head) {\n    return [${list}].some((endpoint) => endpoint.handleUpgrade(request, socket, head));\n  },`,
      `  attach(server) {\n    return serveWebSockets(server, [${list}]);\n  },`,
    );
  }
  factoryMembers.push('  publish,');
  factoryMembers.push(`  async close() {\n    await Promise.all([${channels.map((info) => `${endpointName(info)}.close()`).join(', ')}]);\n  },`);

  const handlersParam = withHandlers.length > 0 ? 'handlers: RealtimeHandlers<Auth>, ' : '';
  const optionsType = auth ? 'RealtimeServerOptions<Auth>' : 'RealtimeServerOptions';
  const optionsParam = verifies.length > 0 ? `options: ${optionsType}` : `options: ${optionsType} = {}`;
  const needsAuthOptions = ws.length > 0 ? '  const websocket = options.websocket;\n' : '';
  const factory = [
    `export function createRealtimeServer${auth}(${handlersParam}${optionsParam}): RealtimeServer {`,
    needsAuthOptions + endpoints.join('\n'),
    `  const publish: RealtimePublish = {\n${publishImpl.join('\n')}${publishImpl.length ? '\n' : ''}  };`,
    `  return {\n${factoryMembers.map((member) => member.replace(/^/gm, '  ')).join('\n')}\n  };`,
    '}',
  ].join('\n');

  const nodeTypes = [
    ...(ws.length > 0 ? ['Server'] : []),
    'IncomingMessage',
    ...(routed.length > 0 ? ['ServerResponse'] : []),
  ];
  const imports = [importStatement(nodeTypes, 'node:http', true)];
  if (ws.length > 0) imports.push(importStatement(['Duplex'], 'node:stream', true));
  imports.push(importStatement(['CorsOptions'], './runtime/cors-policy.js', true));
  const sortedTypes = [...typeImports].filter(Boolean).sort();
  if (sortedTypes.length) imports.push(importStatement(sortedTypes, './types.js', true));
  const sortedValidators = [...validatorImports].filter(Boolean).sort();
  if (sortedValidators.length) imports.push(importStatement(sortedValidators, './validators.js'));
  if (ws.some((info) => info.input?.declaration)) imports.push(importStatement(['ValidationResult'], './runtime/validation.js', true));
  if (sse.length > 0) {
    const sseNames = ['createSseEndpoint', ...(notFoundNeeded ? ['SseHttpError'] : []), 'type SseEndpointOptions', ...(sse.some((info) => info.streamType) ? ['type PostStreamContext'] : [])];
    imports.push(importStatement(sseNames, './runtime/sse-server.js'));
    imports.push(importStatement(helpers.includes(WITHOUT_RESUME) ? ['MemoryEventLog', 'type EventLog'] : ['MemoryEventLog'], './runtime/sse-store.js'));
  }
  if (streams.length > 0) imports.push(importStatement(['createHttpStreamEndpoint', 'type HttpStreamEndpointOptions'], './runtime/http-stream-server.js'));
  if (ws.length > 0) {
    const wsNames = ['createWebSocketEndpoint', 'serveWebSockets', 'type WebSocketConnection', 'type WebSocketEndpointOptions'];
    imports.push(importStatement(verifies.length ? [...wsNames, 'type FirstMessageAuth'] : wsNames, './runtime/ws-server.js'));
    if (ws.some((info) => info.auth)) imports.push(importStatement(['CloseCode'], './runtime/ws-protocol.js'));
  }
  const reexports: string[] = [exportStatement(['CorsOptions'], './runtime/cors-policy.js', true), exportStatement(['createHttpServer', 'type HttpServerOptions'], './runtime/http-listener.js')];
  if (sse.length > 0) reexports.push(exportStatement(['SseHttpError'], './runtime/sse-server.js'), exportStatement(['MemoryEventLog', 'type EventLog'], './runtime/sse-store.js'));
  if (ws.length > 0) reexports.push(exportStatement(['MemoryFanOut', 'type FanOut'], './runtime/ws-fanout.js'), exportStatement(['CloseCode'], './runtime/ws-protocol.js'));
  if (options.redis) {
    if (sse.length > 0) reexports.push(exportStatement(['RedisEventLog', 'type RedisEventLogClient', 'type RedisEventLogOptions'], './runtime/sse-redis.js'));
    if (ws.length > 0) reexports.push(exportStatement(['RedisFanOut', 'type RedisFanOutClient', 'type RedisFanOutOptions'], './runtime/ws-redis.js'));
    reexports.push(exportStatement(['RedisUnavailableError', 'type RedisSubscriber'], './runtime/redis-pubsub.js'));
  }

  const content = templates.render('asyncapi/server.ts.hbs', {
    source,
    title: commentText(model.title),
    version: commentText(model.version),
    imports: imports.join('\n'),
    reexports: reexports.join('\n'),
    declarations: declarations.join('\n\n'),
    factory,
    helpers: helpers.join('\n\n'),
  });
  return [{ path: 'server.ts', content }];
}

function serverChannel(info: ChannelInfo, types: TypeEmitter, reserve: (name: string) => string): ServerChannel {
  const { channel } = info;
  const out = channel.types.send ? types.typeName(channel.types.send.union, 'read') : 'never';
  const result: ServerChannel = { ...info, out, handled: [] };
  if (channel.transport === 'sse') {
    if (channel.sse!.method === 'POST') result.streamType = reserve(`${channel.name}Stream`);
    return result;
  }
  if (channel.transport === 'http-stream') return result;
  result.connectionType = reserve(`${channel.name}Connection`);
  result.handled = handledMessages(info);
  if (result.handled.length > 0) result.handlersType = reserve(`${channel.name}Handlers`);
  result.input = inputOf(result, types, reserve);
  return result;
}

/**
 * The `In` type of a WebSocket endpoint and its validator. With a discriminator: the channel's
 * received union (`ping` included: the runtime answers it, and needs no handler for it). Without
 * one: each message wrapped as `{ kind, message }` by the first message validator that accepts
 * it. With nothing received: never.
 */
function inputOf(info: ServerChannel, types: TypeEmitter, reserve: (name: string) => string): ServerChannel['input'] {
  const { channel } = info;
  if (!channel.types.receive || info.received.length === 0) {
    const validator = reserve(`refuse${channel.name}Messages`);
    return {
      type: 'never',
      validator,
      declaration: `/** \`${channel.key}\` takes no messages from clients: every one is refused (close 1008). */\nfunction ${validator}(): ValidationResult<never> {\n  return { ok: false, errors: [{ path: "", keyword: "false", message: "this channel takes no messages" }] };\n}`,
    };
  }
  if (channel.discriminator !== undefined) {
    const union = types.typeName(channel.types.receive.union, 'write');
    return { type: union, validator: `validate${union}` };
  }
  const type = reserve(`${channel.name}Request`);
  const validator = reserve(`validate${type}`);
  const members = info.received.map((entry) => `{ readonly kind: ${stringLiteral(entry.message.tag)}; readonly message: ${entry.type} }`);
  const attempts = info.received.map((entry, index) => {
    const name = `attempt${index + 1}`;
    return `  const ${name} = ${entry.validator}(value);\n  if (${name}.ok) return { ok: true, value: { kind: ${stringLiteral(entry.message.tag)}, message: ${name}.value } };`;
  });
  return {
    type,
    validator,
    declaration: [
      `/** A message of \`${channel.key}\`, which has no discriminator: tagged with the first message whose schema accepts it. */`,
      `type ${type} =\n  | ${members.join('\n  | ')};`,
      '',
      `function ${validator}(value: unknown): ValidationResult<${type}> {`,
      ...attempts,
      `  return { ok: false, errors: attempt${info.received.length}.errors };`,
      '}',
    ].join('\n'),
  };
}

/** The local of a channel's endpoint in createRealtimeServer: suffixed, so no channel name (`socket`, `request`, `delete`) clashes with a parameter or a keyword. */
function endpointName(info: ChannelInfo): string {
  return `${info.member}Endpoint`;
}

function pathFunctionName(info: ChannelInfo): string {
  return `${info.member}Path`;
}

function paramsFunctionName(info: ChannelInfo): string {
  return `${info.member}Params`;
}

/**
 * `<member>Path(params)`: the canonical path, the topic broadcasts go to. For SSE channels also
 * `<member>Params(pathname)`, which the listener routes by; a parameter with an `enum` must be one
 * of its values.
 */
function pathFunctions(info: ChannelInfo): string {
  const names = pathNames(info.path);
  const template = info.path.replace(/\{([^}]+)\}/g, (_match, name: string) => `\${encodeURIComponent(${propertyAccess('params', name)})}`).replace(/`/g, '\\`');
  const build = [
    `${jsDoc([`The path of \`${info.channel.key}\` for these parameters (${info.path}).`])}export function ${pathFunctionName(info)}(params: ${info.paramsType}): string {`,
    `  return \`${template}\`;`,
    '}',
  ];
  if (info.channel.transport === 'websocket') return build.join('\n');
  const checks: string[] = [];
  const fields = names.map((name, index) => {
    const values = info.channel.parameters.find((parameter) => parameter.name === name)?.schema;
    const allowed = typeof values === 'object' && Array.isArray(values.enum) ? values.enum.filter((value): value is string => typeof value === 'string') : undefined;
    const decoded = `decodeURIComponent(match[${index + 1}]!)`;
    if (!allowed) return `${objectKey(name)}: ${decoded}`;
    const variable = `value${index + 1}`;
    checks.push(`    const ${variable} = ([${allowed.map(stringLiteral).join(', ')}] as const).find((value) => value === ${decoded});`, `    if (${variable} === undefined) return undefined;`);
    return `${objectKey(name)}: ${variable}`;
  });
  return [
    ...build,
    '',
    `${jsDoc([`The parameters of a path of \`${info.channel.key}\`; \`undefined\` when it is not one (or is not valid percent-encoding).`])}function ${paramsFunctionName(info)}(pathname: string): ${info.paramsType} | undefined {`,
    `  const match = ${regexLiteral(pathPattern(info.path))}.exec(pathname);`,
    '  if (!match) return undefined;',
    '  try {',
    ...checks,
    `    return { ${fields.join(', ')} };`,
    '  } catch {',
    '    return undefined;',
    '  }',
    '}',
  ].join('\n');
}

function regexLiteral(source: string): string {
  return `/${source}/`;
}

function sseEndpoint(info: ServerChannel, types: TypeEmitter, validatorImports: Set<string>): string {
  const settings = info.channel.sse!;
  const map = info.channel.types.send!.map;
  const validators = info.sent.map((entry) => `${objectKey(entry.message.tag)}: ${entry.validator}`).join(', ');
  const lines = [
    '    ...options.sse,',
    '    cors: options.cors,',
    `    eventLog${settings.resume || settings.method === 'POST' ? '' : ': withoutResume(eventLog)'},`,
    `    validators: { ${validators} },`,
    `    retryMs: ${settings.retry === undefined ? 'false' : jsonLiteral(settings.retry)},`,
    `    keepAliveMs: ${settings.keepAlive === 0 ? 'false' : jsonLiteral(settings.keepAlive)},`,
  ];
  let generics = `${map}, Auth`;
  if (settings.method === 'GET' && info.paramsType) {
    lines.push(`    channel: ({ url }) => ${pathFunctionName(info)}(${paramsFunctionName(info)}(url.pathname) ?? notFound()),`);
  }
  if (settings.method === 'POST') {
    if (info.channel.types.receive) {
      const body = types.typeName(info.channel.types.receive.union, 'write');
      generics += `, ${body}`;
      validatorImports.add(`validate${body}`);
      lines.push(`    validateBody: validate${body},`);
    }
    if (settings.done !== undefined) lines.push('    done: true,');
    const call = propertyAccess('handlers', info.member);
    const context = info.paramsType ? `Object.assign({ params: ${paramsFunctionName(info)}(context.url.pathname) ?? notFound() }, context)` : 'context';
    lines.push(`    post: (context) => ${call}(${context}, publish),`);
  }
  return `${jsDoc([`${settings.method} ${info.path}`], '  ')}  const ${endpointName(info)} = createSseEndpoint<${generics}>({\n${lines.join('\n')}\n  });`;
}

function wsEndpoint(info: ServerChannel): string {
  const { channel } = info;
  const settings = channel.websocket!;
  const input = info.input!;
  const discriminator = channel.discriminator ?? (input.type === 'never' || !input.declaration ? undefined : 'kind');
  const replies = info.repliesType ?? 'Record<never, never>';
  const generics = `${input.type}, ${info.out}, ${replies}, Auth, ${stringLiteral(discriminator ?? 'type')}`;
  const handlers: string[] = [];
  if (info.auth) handlers.push(`${objectKey(info.auth.tag)}: (_message, connection) => connection.close(CloseCode.PolicyViolation, "Already authenticated"),`);
  for (const entry of info.handled) {
    const call = propertyAccess(propertyAccess('handlers', info.member), entry.message.tag);
    handlers.push(
      channel.discriminator === undefined
        ? `${objectKey(entry.message.tag)}: (request, connection) => ${call}(request.message, connection, publish),`
        : `${objectKey(entry.message.tag)}: (message, connection) => ${call}(message, connection, publish),`,
    );
  }
  const lines = [
    '  ...websocket,',
    '  cors: options.cors,',
    `  path: ${stringLiteral(info.path)},`,
    `  validate: ${input.validator},`,
    handlers.length ? `  handlers: {\n${handlers.map((line) => `      ${line}`).join('\n')}\n    },` : '  handlers: {},',
  ];
  if (discriminator !== undefined) lines.push(`  discriminator: ${stringLiteral(discriminator)},`);
  if (info.correlationKey !== undefined) lines.push(`  correlationKey: ${stringLiteral(info.correlationKey)},`);
  // Without a discriminator there is no property to recognise an application-level ping by.
  if (channel.discriminator === undefined) lines.push('  appPing: false,');
  if (settings.subprotocols.length) lines.push(`  protocols: [${settings.subprotocols.map(stringLiteral).join(', ')}],`);
  lines.push(`  heartbeatMs: ${jsonLiteral(settings.heartbeat)},`, `  maxPayload: ${jsonLiteral(settings.maxMessageSize)},`);
  if (info.auth) {
    lines.push(
      `  firstMessageAuth: { verify: websocket.verifyToken, type: ${stringLiteral(info.auth.tag)}, tokenKey: ${stringLiteral(info.auth.tokenKey)}, timeoutMs: ${jsonLiteral(info.auth.timeout)} },`,
    );
  }
  return `${jsDoc([`WebSocket ${info.path}`], '  ')}  const ${endpointName(info)} = createWebSocketEndpoint<${generics}>({\n${lines.map((line) => `  ${line}`).join('\n')}\n  });`;
}

const WITHOUT_RESUME = `/** The event log of an \`x-sse.resume: false\` feed: events go out live, and a reconnect starts from now. */
function withoutResume(log: EventLog): EventLog {
  return {
    append: (channel, event) => log.append(channel, event),
    since: async () => [],
    subscribe: (channel, listener) => log.subscribe(channel, listener),
  };
}`;

const NOT_FOUND = `function notFound(): never {
  throw new SseHttpError(404, "Not Found");
}`;

const PATHNAME_OF = `/** The path of a request target, without its query; "" when it is not a valid URL. */
function pathnameOf(target: string | undefined): string {
  try {
    return new URL(target ?? "/", "http://localhost").pathname;
  } catch {
    return "";
  }
}`;

const NOT_FOUND_RESPONSE = `function notFoundResponse(response: ServerResponse): void {
  const body = JSON.stringify({ type: "about:blank", title: "Not Found", status: 404 });
  response.writeHead(404, { "content-type": "application/problem+json", "content-length": String(Buffer.byteLength(body)) }).end(body);
}`;
