/**
 * `client.ts` of a realtime API: `createClient({ baseUrl })` with one typed member per channel:
 * an `SseClient` (runtime/sse-client.ts) per SSE channel, GET or POST as the manifest says, and a
 * `WebSocketClient` (runtime/ws-client.ts) per WebSocket channel, set up with its subprotocols,
 * discriminator, correlation id and first-message auth. Its options are every client's
 * (runtime/client-common.ts: `fetch`, `headers`, `timeout`, `signal`) plus `baseUrl`, `token`,
 * `WebSocket` and `validate`. It runs in browsers and in Node (pass `ws`'s `WebSocket` there), so
 * it imports nothing from Node.
 *
 * The options types, the factory's skeleton and the prose are templates/asyncapi/client.ts.hbs;
 * this module prints each channel's member, through a FileBuilder that imports every name where it
 * is printed (ClientContext).
 */
import type { TypeEmitter } from '../core/emit/types/emit.js';
import { FileBuilder } from '../core/builder/file.js';
import { commentText, jsDoc, objectKey, propertyAccess, propertyKey, stringLiteral, uniqueName } from '../core/builder/names.js';
import type { GeneratedFile } from '../core/pipeline/output.js';
import type { TemplateRenderer } from '../core/pipeline/templates.js';
import { APP_PING, assertSupported, describeChannels, type ChannelInfo } from './endpoints.js';
import { importedNames } from './imported-names.js';
import type { RealtimeModel } from './model.js';
import type { ClientContext } from './template-context.js';
import { takenTypeNames } from './server.js';

export function emitClient(model: RealtimeModel, types: TypeEmitter, templates: TemplateRenderer, source: string): GeneratedFile[] {
  if (model.channels.length === 0) return [];
  const taken = takenTypeNames(model, types);
  const channels = describeChannels(model, types);
  for (const info of channels) assertSupported(info);
  const sse = channels.filter((info) => info.channel.transport === 'sse');
  const ws = channels.filter((info) => info.channel.transport === 'websocket');
  const streams = channels.filter((info) => info.channel.transport === 'http-stream');
  const authenticated = ws.some((info) => info.auth);
  const file = new FileBuilder('client.ts', CLIENT_DECLARATIONS);
  const { type, validator, runtime } = importedNames(file);
  // Each WebSocket channel's client type, reserved before any import can take its name.
  const clientTypes = new Map(ws.map((info) => [info, uniqueName(`${info.channel.name}Client`, taken)]));
  file.reserve(...clientTypes.values());
  const pathFunctions: string[] = [];
  const channelTypes: string[] = [];
  const members: string[] = [];
  const implementations: string[] = [];

  const withParams = channels.filter((candidate) => candidate.paramsType);
  file.reserve(...withParams.map((info) => `${info.member}Path`));
  for (const info of withParams) {
    const template = info.path
      .replace(/\{([^}]+)\}/g, (_match, name: string) => `\${encodeURIComponent(${propertyAccess('params', name)})}`)
      .replace(/`/g, '\\`');
    pathFunctions.push(`function ${info.member}Path(params: ${type(info.paramsType!)}): string {\n  return \`${template}\`;\n}`);
  }

  for (const info of sse) {
    const settings = info.channel.sse!;
    const events = type(info.channel.types.send!.map);
    const url = info.paramsType
      ? `\`\${base}\${${info.member}Path(params)}\``
      : `\`\${base}${info.path.replace(/`/g, '\\`').replace(/\$\{/g, '\\${')}\``;
    const validators = info.sent.map((entry) => `${objectKey(entry.message.tag)}: ${validator(entry.validator)}`).join(', ');
    const args: string[] = [];
    const signature: string[] = [];
    if (info.paramsType) {
      args.push('params');
      signature.push(`params: ${type(info.paramsType)}`);
    }
    const fixed = [
      `operation: ${stringLiteral(info.channel.key)}`,
      'fetch: options.fetch',
      'clientHeaders: options.headers',
      'clientSignal: options.signal',
      'token: streamOptions?.token ?? options.token',
      'timeout: streamOptions?.timeout ?? options.timeout',
      `validators: validate ? { ${validators} } : undefined`,
      `done: ${settings.done !== undefined}`,
    ];
    if (settings.method === 'POST') {
      const body = info.channel.types.receive ? type(sentByClients(info, types)) : 'unknown';
      args.push('body');
      signature.push(`body: ${body}`);
      fixed.unshift('method: "POST"', 'body');
    }
    args.push('streamOptions');
    signature.push(`options?: SseStreamOptions<${events}>`);
    const what =
      settings.method === 'POST'
        ? `\`POST ${info.path}\`: sends \`body\` and reads the events it answers with${settings.done !== undefined ? `, until \`${settings.done}\`` : ''}. Not resumed after a drop.`
        : `\`GET ${info.path}\`: the events as they come; after a drop it reconnects${settings.resume ? ' and resumes after the last event id' : ''}.`;
    const client = runtime('SseClient');
    members.push(
      `${jsDoc([what, info.channel.description], '  ')}  ${propertyKey(info.member)}(${signature.join(', ')}): ${client}<${events}>;`,
    );
    implementations.push(
      `    ${objectKey(info.member)}: (${args.join(', ')}) =>\n      new ${client}<${events}>(${url}, {\n        ...streamOptions,\n${fixed.map((line) => `        ${line},`).join('\n')}\n      }),`,
    );
  }

  for (const info of streams) {
    const message = types.typeName(info.channel.types.send!.union, 'read');
    const messageType = type(message);
    const url = info.paramsType
      ? `\`\${base}\${${info.member}Path(params)}\``
      : `\`\${base}${info.path.replace(/`/g, '\\`').replace(/\$\{/g, '\\${')}\``;
    const signature = [...(info.paramsType ? [`params: ${type(info.paramsType)}`] : []), `options?: ${runtime('HttpStreamClientOptions')}`];
    const args = [...(info.paramsType ? ['params'] : []), 'streamOptions'];
    const fixed = [
      `url: ${url}`,
      `operation: ${stringLiteral(info.channel.key)}`,
      'fetch: options.fetch',
      'clientHeaders: options.headers',
      'clientSignal: options.signal',
      'token: streamOptions?.token ?? options.token',
      'timeout: streamOptions?.timeout ?? options.timeout',
      `validate: validate ? ${validator(`validate${message}`)} : undefined`,
    ];
    const client = runtime('HttpStreamClient');
    members.push(
      `${jsDoc([`\`GET ${info.path}\`: the messages of the stream (newline-delimited JSON) as an async iterator; blank keep-alive lines are skipped.`, info.channel.description], '  ')}  ${propertyKey(info.member)}(${signature.join(', ')}): ${client}<${messageType}>;`,
    );
    implementations.push(`    ${objectKey(info.member)}: (${args.join(', ')}) =>
      new ${client}<${messageType}>({
        ...streamOptions,
${fixed.map((line) => `        ${line},`).join('\n')}
      }),`);
  }

  for (const info of ws) {
    const { channel } = info;
    const send = channel.types.receive ? type(sentByClients(info, types)) : 'never';
    const received = channel.types.send ? types.typeName(channel.types.send.union, 'read') : 'never';
    const receive = received === 'never' ? received : type(received);
    const clientType = clientTypes.get(info)!;
    const discriminator = channel.discriminator;
    const generics = [
      send,
      receive,
      info.repliesType ? type(info.repliesType) : 'Record<never, never>',
      discriminator === undefined ? 'never' : stringLiteral(discriminator),
    ];
    if (info.correlationKey !== undefined) generics.push(stringLiteral(info.correlationKey));
    const receiving = discriminator === undefined ? '`onMessage` what it sends' : '`on` what it sends';
    const client = runtime('WebSocketClient');
    channelTypes.push(
      `${jsDoc([`A client of \`${channel.key}\` (WebSocket ${info.path}): \`send\` what the server receives, ${receiving}${info.repliesType && discriminator !== undefined ? ', `request` what it answers' : ''}.`])}export type ${clientType} = ${client}<${generics.join(', ')}>;`,
    );
    const fixed = [
      `url: \`\${socketBase}${info.paramsType ? `\${${info.member}Path(params)}` : info.path.replace(/`/g, '\\`').replace(/\$\{/g, '\\${')}\``,
      'WebSocket: options.WebSocket',
      `operation: ${stringLiteral(channel.key)}`,
      'clientSignal: options.signal',
      'timeout: socketOptions?.timeout ?? options.timeout',
    ];
    if (channel.websocket!.subprotocols.length) fixed.push(`protocols: [${channel.websocket!.subprotocols.map(stringLiteral).join(', ')}]`);
    if (received !== 'never') fixed.push(`validate: validate ? ${validator(`validate${received}`)} : undefined`);
    // Without a discriminator there is no application-level ping, and a `pong` is a message like any other.
    if (discriminator !== undefined) fixed.push(`discriminator: ${stringLiteral(discriminator)}`);
    else fixed.push('appPing: false');
    if (info.correlationKey !== undefined) fixed.push(`correlationKey: ${stringLiteral(info.correlationKey)}`);
    if (info.numericIds) fixed.push('numericIds: true');
    // Only a channel with first-message auth gets the client's token: another would take it for a message.
    if (info.auth)
      fixed.push(
        'token: socketOptions?.token ?? options.token',
        `authType: ${stringLiteral(info.auth.tag)}`,
        `tokenKey: ${stringLiteral(info.auth.tokenKey)}`,
      );
    const error = info.sent.find((entry) => entry.message.tag === 'error');
    if (error && discriminator !== undefined) fixed.push('errorType: "error"');
    const params = info.paramsType ? `params: ${type(info.paramsType)}, ` : '';
    const notes = [
      `WebSocket ${info.path}.`,
      info.auth &&
        `\`token\` (here or given to \`createClient\`) is required: it is asked for on every connect and sent as the first message (\`${info.auth.tag}\`); the server closes a connection without it (1008), which the client reports as a \`WebSocketClosedError\`.`,
      discriminator === undefined &&
        'The channel has no discriminator: receive with `onMessage` or `messages()`, which get every message the server sends; `on` and `request` need a discriminator to tell messages apart.',
      discriminator !== undefined &&
        info.received.some((entry) => entry.message.tag === APP_PING) &&
        `\`request({ ${propertyKey(discriminator)}: ${stringLiteral(APP_PING)} })\` is answered by the server's runtime with its pong; the client also pings by itself to detect a dead server.`,
      channel.description,
    ];
    // A channel that requires first-message auth refuses a socket without a token: the type requires
    // one, here or from createClient's options (`Authenticated`).
    const optionsParameter = info.auth
      ? `...options: AuthenticatedChannelArgs<Authenticated, ${receive}>`
      : `options?: WebSocketChannelOptions<${receive}>`;
    members.push(`${jsDoc(notes, '  ')}  ${propertyKey(info.member)}(${params}${optionsParameter}): ${clientType};`);
    implementations.push(
      `    ${objectKey(info.member)}: (${params}socketOptions?: WebSocketChannelOptions<${receive}>) =>\n      new ${client}({\n        ...socketOptions,\n${fixed.map((line) => `        ${line},`).join('\n')}\n      }),`,
    );
  }

  // The runtime's client API, for the transports used.
  file.reexportRuntime(
    ...[
      'client-common',
      ...(sse.length > 0 ? ['sse-client'] : []),
      ...(streams.length > 0 ? ['http-stream-client'] : []),
      ...(ws.length > 0 ? ['ws-client', 'ws-protocol'] : []),
    ],
  );
  const context: ClientContext = {
    source,
    title: commentText(model.title),
    version: commentText(model.version),
    sse: sse.length > 0,
    websocket: ws.length > 0,
    authenticated,
    pathFunctions: pathFunctions.join('\n\n'),
    channelTypes: channelTypes.join('\n\n'),
    members: members.join('\n'),
    implementations: implementations.join('\n'),
  };
  // The template's own code names the runtime exports it uses ({{runtime}}), imported through `file`.
  const content = templates.render('asyncapi/client.ts.hbs', context, file);
  return [{ path: 'client.ts', content }];
}

/** Names client.ts declares itself (besides each channel's client type and path function). */
const CLIENT_DECLARATIONS = [
  'RealtimeClientOptions',
  'SseStreamOptions',
  'WebSocketChannelOptions',
  'AuthenticatedChannelOptions',
  'AuthenticatedChannelArgs',
  'RealtimeClient',
  'createClient',
];

/** The type of what clients send on a channel: the write shape of the union the server receives. */
function sentByClients(info: ChannelInfo, types: TypeEmitter): string {
  return types.typeName(info.channel.types.receive!.union, 'write');
}
