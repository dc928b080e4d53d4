/**
 * `server.ts` of a realtime API: `createRealtimeServer(handlers, options)`, one SSE endpoint
 * (runtime/sse-server.ts) per SSE channel and one WebSocket endpoint (runtime/ws-server.ts) per
 * WebSocket channel, each parameterised by the channel's message types and set up with what the
 * manifest says (retry, keep-alive, `[DONE]`, resume; subprotocols, heartbeat, size limit,
 * first-message auth, discriminator, correlation id). The runtime modules it imports come with it
 * (core/pipeline/runtime-files.ts).
 *
 * The file's skeleton, its fixed code (option and server types, the factory, the helpers) and its
 * prose are templates/asyncapi/server.ts.hbs; this module prints what each channel adds, through a
 * FileBuilder that imports every name where it is printed (ServerContext).
 */
import type { TypeEmitter } from '../core/emit/types/emit.js';
import { FileBuilder, runtimeSymbol } from '../core/builder/file.js';
import {
  commentText,
  jsDoc,
  jsonLiteral,
  objectKey,
  propertyAccess,
  propertyKey,
  stringLiteral,
  uniqueName,
} from '../core/builder/names.js';
import type { GeneratedFile } from '../core/pipeline/output.js';
import type { TemplateRenderer } from '../core/pipeline/templates.js';
import {
  APP_PING,
  assertSupported,
  describeChannels,
  handledMessages,
  pathNames,
  pathPattern,
  runtimePing,
  type ChannelInfo,
  type MessageInfo,
} from './endpoints.js';
import { importedNames, type ImportedNames } from './imported-names.js';
import type { RealtimeModel } from './model.js';
import type { ServerContext } from './template-context.js';

export interface RealtimeServerEmitOptions {
  /**
   * The API's `options.redis`: server.ts also re-exports `runtime/sse-redis.ts` (`RedisEventLog`) and
   * `runtime/redis-fanout.ts` (`RedisFanOut`) for the transports the API uses, over a shared pub/sub helper.
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
  /** The sent union's type (from types.ts), `never` when the server sends nothing on it. */
  out: string;
  /** WebSocket: the type handed to the runtime as `In` (its local name), and its validator. */
  input?: { type: string; validator: string; declaration?: string };
  handlersType?: string;
  connectionType?: string;
  streamType?: string;
  handled: MessageInfo[];
}

/** server.ts; nothing when the manifest has no channels. */
export function emitServer(
  model: RealtimeModel,
  types: TypeEmitter,
  templates: TemplateRenderer,
  source: string,
  options: RealtimeServerEmitOptions = {},
): GeneratedFile[] {
  if (model.channels.length === 0) return [];
  const file = new FileBuilder('server.ts', SERVER_DECLARATIONS);
  const names = importedNames(file);
  const taken = takenTypeNames(model, types);
  const reserve = (name: string) => {
    const chosen = uniqueName(name, taken);
    file.reserve(chosen);
    return chosen;
  };
  const channels = describeChannels(model, types).map((info) => {
    assertSupported(info);
    return serverChannel(info, types, reserve, names);
  });
  const sse = channels.filter((info) => info.channel.transport === 'sse');
  const ws = channels.filter((info) => info.channel.transport === 'websocket');
  const streams = channels.filter((info) => info.channel.transport === 'http-stream');
  // SSE and HTTP streams are answered by the node:http listener.
  const routed = [...sse, ...streams];
  const withHandlers = channels.filter((info) => info.handlersType !== undefined || info.streamType !== undefined);
  const verifies = ws.filter((info) => info.auth);
  const declarations: string[] = [];

  // Paths and their parameters.
  const withParams = channels.filter((candidate) => candidate.paramsType);
  file.reserve(...withParams.flatMap((info) => [pathFunctionName(info), paramsFunctionName(info)]));
  for (const info of withParams) declarations.push(pathFunctions(info, names));

  // Per-channel types for handlers.
  for (const info of ws) {
    const out = info.out === 'never' ? 'never' : names.type(info.out);
    declarations.push(
      `${jsDoc([`A socket of \`${info.channel.key}\` (${info.path}) as its handlers see it.`])}export type ${info.connectionType}<Auth = undefined> = ${names.runtime('WebSocketConnection', 'ws-server')}<${out}, Auth>;`,
    );
    if (info.input?.declaration) declarations.push(info.input.declaration);
    if (info.handlersType) {
      const members = info.handled.map((entry) => {
        const reply = entry.replies.length > 0 ? entry.replies.map(names.type).join(' | ') : 'void';
        const answer =
          entry.replies.length > 0
            ? `Answered with ${entry.replies.map((type) => `\`${type}\``).join(' or ')}, which gets the request's \`${info.correlationKey ?? 'id'}\`.`
            : undefined;
        const doc = jsDoc(
          [entry.message.summary ?? entry.message.title, entry.message.description, answer, entry.message.deprecated && '@deprecated'],
          '  ',
        );
        return `${doc}  ${propertyKey(entry.message.tag)}(message: ${names.type(entry.type)}, connection: ${info.connectionType}<Auth>, publish: RealtimePublish): ${reply} | Promise<${reply}>;`;
      });
      const ping = info.received.find((entry) => runtimePing(info, entry));
      const pingNote =
        ping &&
        `\`${APP_PING}\` has no handler: the runtime answers it itself, before authentication, with \`${ping.replies.length > 0 ? ping.replies.join(' | ') : '{ type: "pong" }'}\` carrying its \`${info.correlationKey ?? 'id'}\`.`;
      declarations.push(
        `${jsDoc([`The handlers of \`${info.channel.key}\` (WebSocket ${info.path}): one per message a client sends.`, pingNote])}export interface ${info.handlersType}<Auth = undefined> {\n${members.join('\n')}\n}`,
      );
    }
  }
  for (const info of sse) {
    if (!info.streamType) continue;
    const body = info.channel.types.receive ? names.type(types.typeName(info.channel.types.receive.union, 'write')) : 'unknown';
    const params = info.paramsType
      ? `\n  /** The address's \`{parameters}\`, percent-decoded. */\n  params: ${names.type(info.paramsType)};\n`
      : '';
    declarations.push(
      `${jsDoc([`What the producer of a \`POST ${info.path}\` stream gets: the request, its checked JSON body, the stream to send events to, and a signal aborted when the client goes away.`])}export interface ${info.streamType}<Auth = undefined> extends ${names.runtime('PostStreamContext')}<${names.type(info.channel.types.send!.map)}, Auth, ${body}> {${params}}`,
    );
  }

  // The user's handlers.
  const handlerMembers = withHandlers.map((info) => {
    if (info.handlersType)
      return `${jsDoc([`\`${info.channel.key}\`: WebSocket ${info.path}.`, info.channel.summary ?? info.channel.title, info.channel.description], '  ')}  ${propertyKey(info.member)}: ${info.handlersType}<Auth>;`;
    const done =
      info.channel.sse!.done !== undefined
        ? ` The stream ends, with \`data: ${info.channel.sse!.done}\`, when it settles.`
        : ' The stream ends when it settles.';
    return `${jsDoc([`\`POST ${info.path}\`: produces the stream's events.${done} A throw cuts the stream (the client sees an error, not an end).`, info.channel.description], '  ')}  ${propertyKey(info.member)}(stream: ${info.streamType}<Auth>, publish: RealtimePublish): void | Promise<void>;`;
  });

  // Publishing.
  const publishMembers: string[] = [];
  const publishImplementation: string[] = [];
  for (const info of channels) {
    const member = propertyKey(info.member);
    const params = info.paramsType ? names.type(info.paramsType) : undefined;
    if (info.channel.transport === 'sse' && info.channel.sse!.method === 'GET') {
      const map = names.type(info.channel.types.send!.map);
      const kept = info.channel.sse!.resume ? ' and keeps it for clients that resume' : '';
      if (params) {
        publishMembers.push(
          `${jsDoc([`Sends an event to every \`GET ${info.path}\` stream of these parameters${kept}; resolves with its id.`], '  ')}  ${member}<E extends keyof ${map} & string>(params: ${params}, event: E, data: ${map}[E]): Promise<string>;`,
        );
        publishImplementation.push(
          `    ${objectKey(info.member)}: (params, event, data) => ${endpointName(info)}.publish(${pathFunctionName(info)}(params), event, data),`,
        );
      } else {
        publishMembers.push(
          `${jsDoc([`Sends an event to every \`GET ${info.path}\` stream${kept}; resolves with its id.`], '  ')}  ${member}<E extends keyof ${map} & string>(event: E, data: ${map}[E]): Promise<string>;`,
        );
        publishImplementation.push(
          `    ${objectKey(info.member)}: (event, data) => ${endpointName(info)}.publish(${stringLiteral(info.path)}, event, data),`,
        );
      }
    } else if (info.channel.transport === 'http-stream' && info.out !== 'never') {
      const path = params ? `${pathFunctionName(info)}(params)` : stringLiteral(info.path);
      publishMembers.push(
        `${jsDoc([`Writes a message, one JSON line, to every \`GET ${info.path}\` stream${params ? ' of these parameters' : ''}; throws a TypeError for an invalid one.`], '  ')}  ${member}(${params ? `params: ${params}, ` : ''}message: ${names.type(info.out)}): Promise<void>;`,
      );
      publishImplementation.push(
        `    ${objectKey(info.member)}: (${params ? 'params, ' : ''}message) => ${endpointName(info)}.publish(${path}, message),`,
      );
    } else if (info.channel.transport === 'websocket' && info.out !== 'never') {
      const topic = params ? `topic: string` : `topic = ${stringLiteral(info.path)}`;
      const doc = params
        ? `Sends a message to every socket of \`${info.channel.key}\` that joined \`topic\`: a socket joins its own path (\`${pathFunctionName(info)}(params)\`) and the topics its handlers subscribe it to.`
        : `Sends a message to every socket of \`${info.channel.key}\` that joined \`topic\`: by default every socket of ${info.path}; handlers subscribe sockets to topics of their own.`;
      publishMembers.push(
        `${jsDoc([doc], '  ')}  ${member}(message: ${names.type(info.out)}, topic${params ? '' : '?'}: string): Promise<void>;`,
      );
      publishImplementation.push(`    ${objectKey(info.member)}: (message, ${topic}) => ${endpointName(info)}.publish(topic, message),`);
    }
  }

  // Endpoint construction.
  const endpoints = [
    ...sse.map((info) => sseEndpoint(info, types, names)),
    ...streams.map(
      (info) =>
        `${jsDoc([`GET ${info.path}: newline-delimited JSON`], '  ')}  const ${endpointName(info)} = ${names.runtime('createHttpStreamEndpoint')}<${names.type(info.out)}>({ ...options.stream, cors: options.cors, validate: ${names.validator(`validate${info.out}`)} });`,
    ),
    ...ws.map((info) => wsEndpoint(info, names)),
  ];
  const routes = routed.map((info) =>
    info.paramsType
      ? `      if (${paramsFunctionName(info)}(pathname)) return ${endpointName(info)}.handle(request, response);`
      : `      if (pathname === ${stringLiteral(info.path)}) return ${endpointName(info)}.handle(request, response);`,
  );

  const withoutResume = sse.some((info) => !info.channel.sse!.resume && info.channel.sse!.method === 'GET');
  const notFound = sse.some((info) => info.paramsType);
  // RealtimeServerOptions takes CORS as every server does: its type goes with it.
  file.reexport(runtimeSymbol('CorsOptions'));
  // The runtime's server API for the transports used; with options.redis the Redis EventLog and FanOut.
  const redis = options.redis ? ['redis-pubsub', ...(sse.length > 0 ? ['sse-redis'] : []), ...(ws.length > 0 ? ['redis-fanout'] : [])] : [];
  file.reexportRuntime(
    ...[
      'http-listener',
      ...(sse.length > 0 ? ['sse-server', 'sse-store'] : []),
      ...(ws.length > 0 ? ['pubsub', 'ws-protocol'] : []),
      ...redis,
    ],
  );

  const context: ServerContext = {
    source,
    title: commentText(model.title),
    version: commentText(model.version),
    sse: sse.length > 0,
    streams: streams.length > 0,
    websocket: ws.length > 0,
    routed: routed.length > 0,
    auth: sse.length > 0 || ws.length > 0,
    verifies: verifies.map((info) => `\`${info.channel.key}\``).join(', '),
    declarations: declarations.join('\n\n'),
    handlerMembers: handlerMembers.join('\n'),
    publishMembers: publishMembers.join('\n'),
    endpoints: endpoints.join('\n'),
    publishImplementation: publishImplementation.join('\n'),
    routes: routes.join('\n'),
    websocketEndpoints: ws.map(endpointName).join(', '),
    closes: channels.map((info) => `${endpointName(info)}.close()`).join(', '),
    withoutResume,
    notFound,
  };
  // The template's own code names the runtime exports it uses ({{runtime}}), imported through `file`.
  return [{ path: 'server.ts', content: templates.render('asyncapi/server.ts.hbs', context, file) }];
}

/** Names server.ts declares itself (besides those of channels, reserved as they are chosen). */
const SERVER_DECLARATIONS = [
  'RealtimeHandlers',
  'RealtimePublish',
  'RealtimeSseOptions',
  'RealtimeWebSocketOptions',
  'RealtimeServerOptions',
  'RealtimeServer',
  'createRealtimeServer',
  'withoutResume',
  'notFound',
  'pathnameOf',
  'notFoundResponse',
];

function serverChannel(info: ChannelInfo, types: TypeEmitter, reserve: (name: string) => string, names: ImportedNames): ServerChannel {
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
  result.input = inputOf(result, types, reserve, names);
  return result;
}

/**
 * The `In` type of a WebSocket endpoint and its validator. With a discriminator: the channel's
 * received union (`ping` included: the runtime answers it, and needs no handler for it). Without
 * one: each message wrapped as `{ kind, message }` by the first message validator that accepts
 * it. With nothing received: never.
 */
function inputOf(info: ServerChannel, types: TypeEmitter, reserve: (name: string) => string, names: ImportedNames): ServerChannel['input'] {
  const { channel } = info;
  if (!channel.types.receive || info.received.length === 0) {
    const validator = reserve(`refuse${channel.name}Messages`);
    return {
      type: 'never',
      validator,
      declaration: `/** \`${channel.key}\` takes no messages from clients: every one is refused (close 1008). */\nfunction ${validator}(): ${names.runtime('ValidationResult')}<never> {\n  return { ok: false, errors: [{ path: "", keyword: "false", message: "this channel takes no messages" }] };\n}`,
    };
  }
  if (channel.discriminator !== undefined) {
    const union = types.typeName(channel.types.receive.union, 'write');
    return { type: names.type(union), validator: names.validator(`validate${union}`) };
  }
  const type = reserve(`${channel.name}Request`);
  const validator = reserve(`validate${type}`);
  const members = info.received.map(
    (entry) => `{ readonly kind: ${stringLiteral(entry.message.tag)}; readonly message: ${names.type(entry.type)} }`,
  );
  const attempts = info.received.map((entry, index) => {
    const name = `attempt${index + 1}`;
    return `  const ${name} = ${names.validator(entry.validator)}(value);\n  if (${name}.ok) return { ok: true, value: { kind: ${stringLiteral(entry.message.tag)}, message: ${name}.value } };`;
  });
  return {
    type,
    validator,
    declaration: [
      `/** A message of \`${channel.key}\`, which has no discriminator: tagged with the first message whose schema accepts it. */`,
      `type ${type} =\n  | ${members.join('\n  | ')};`,
      '',
      `function ${validator}(value: unknown): ${names.runtime('ValidationResult')}<${type}> {`,
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
function pathFunctions(info: ChannelInfo, names: ImportedNames): string {
  const paramsType = names.type(info.paramsType!);
  const template = info.path
    .replace(/\{([^}]+)\}/g, (_match, name: string) => `\${encodeURIComponent(${propertyAccess('params', name)})}`)
    .replace(/`/g, '\\`');
  const build = [
    `${jsDoc([`The path of \`${info.channel.key}\` for these parameters (${info.path}).`])}export function ${pathFunctionName(info)}(params: ${paramsType}): string {`,
    `  return \`${template}\`;`,
    '}',
  ];
  if (info.channel.transport === 'websocket') return build.join('\n');
  const checks: string[] = [];
  const fields = pathNames(info.path).map((name, index) => {
    const values = info.channel.parameters.find((parameter) => parameter.name === name)?.schema;
    const allowed =
      typeof values === 'object' && Array.isArray(values.enum)
        ? values.enum.filter((value): value is string => typeof value === 'string')
        : undefined;
    const decoded = `decodeURIComponent(match[${index + 1}]!)`;
    if (!allowed) return `${objectKey(name)}: ${decoded}`;
    const variable = `value${index + 1}`;
    checks.push(
      `    const ${variable} = ([${allowed.map(stringLiteral).join(', ')}] as const).find((value) => value === ${decoded});`,
      `    if (${variable} === undefined) return undefined;`,
    );
    return `${objectKey(name)}: ${variable}`;
  });
  return [
    ...build,
    '',
    `${jsDoc([`The parameters of a path of \`${info.channel.key}\`; \`undefined\` when it is not one (or is not valid percent-encoding).`])}function ${paramsFunctionName(info)}(pathname: string): ${paramsType} | undefined {`,
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

function sseEndpoint(info: ServerChannel, types: TypeEmitter, names: ImportedNames): string {
  const settings = info.channel.sse!;
  const map = names.type(info.channel.types.send!.map);
  const validators = info.sent.map((entry) => `${objectKey(entry.message.tag)}: ${names.validator(entry.validator)}`).join(', ');
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
      generics += `, ${names.type(body)}`;
      lines.push(`    validateBody: ${names.validator(`validate${body}`)},`);
    }
    if (settings.done !== undefined) lines.push('    done: true,');
    const call = propertyAccess('handlers', info.member);
    const context = info.paramsType
      ? `Object.assign({ params: ${paramsFunctionName(info)}(context.url.pathname) ?? notFound() }, context)`
      : 'context';
    lines.push(`    post: (context) => ${call}(${context}, publish),`);
  }
  return `${jsDoc([`${settings.method} ${info.path}`], '  ')}  const ${endpointName(info)} = ${names.runtime('createSseEndpoint')}<${generics}>({\n${lines.join('\n')}\n  });`;
}

function wsEndpoint(info: ServerChannel, names: ImportedNames): string {
  const { channel } = info;
  const settings = channel.websocket!;
  const input = info.input!;
  const discriminator = channel.discriminator ?? (input.type === 'never' || !input.declaration ? undefined : 'kind');
  const replies = info.repliesType ? names.type(info.repliesType) : 'Record<never, never>';
  const out = info.out === 'never' ? 'never' : names.type(info.out);
  const generics = `${input.type}, ${out}, ${replies}, Auth, ${stringLiteral(discriminator ?? 'type')}`;
  const handlers: string[] = [];
  if (info.auth)
    handlers.push(
      `${objectKey(info.auth.tag)}: (_message, connection) => connection.close(${names.runtime('CloseCode')}.PolicyViolation, "Already authenticated"),`,
    );
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
  return `${jsDoc([`WebSocket ${info.path}`], '  ')}  const ${endpointName(info)} = ${names.runtime('createWebSocketEndpoint', 'ws-server')}<${generics}>({\n${lines.map((line) => `  ${line}`).join('\n')}\n  });`;
}
