/**
 * `client.ts` of a realtime API: `createRealtimeClient({ baseUrl })` with one typed member per
 * channel: an `SseClient` (runtime/sse-client.ts) per SSE channel, GET or POST as the manifest
 * says, and a `WebSocketClient` (runtime/ws-client.ts) per WebSocket channel, set up with its
 * subprotocols, discriminator, correlation id and first-message auth. It runs in browsers and in
 * Node (pass `ws`'s `WebSocket` there), so it imports nothing from Node.
 */
import type { TypeEmitter } from '../core/emit-types.js';
import { exportStatement, importStatement } from '../core/imports.js';
import { commentText, jsDoc, objectKey, propertyAccess, propertyKey, stringLiteral, uniqueName } from '../core/names.js';
import type { GeneratedFile } from '../core/output.js';
import type { TemplateRenderer } from '../core/templates.js';
import { APP_PING, assertSupported, describeChannels, type ChannelInfo } from './endpoints.js';
import type { RealtimeModel } from './model.js';
import { takenTypeNames } from './server.js';

export function emitClient(model: RealtimeModel, types: TypeEmitter, templates: TemplateRenderer, source: string): GeneratedFile[] {
  if (model.channels.length === 0) return [];
  const taken = takenTypeNames(model, types);
  const channels = describeChannels(model, types);
  for (const info of channels) assertSupported(info);
  const sse = channels.filter((info) => info.channel.transport === 'sse');
  const ws = channels.filter((info) => info.channel.transport === 'websocket');
  const typeImports = new Set<string>();
  const validatorImports = new Set<string>();
  const declarations: string[] = [];
  const members: string[] = [];
  const implementations: string[] = [];

  for (const info of channels.filter((candidate) => candidate.paramsType)) {
    typeImports.add(info.paramsType!);
    const template = info.path.replace(/\{([^}]+)\}/g, (_match, name: string) => `\${encodeURIComponent(${propertyAccess('params', name)})}`).replace(/`/g, '\\`');
    declarations.push(`function ${info.member}Path(params: ${info.paramsType}): string {\n  return \`${template}\`;\n}`);
  }

  for (const info of sse) {
    const settings = info.channel.sse!;
    const events = info.channel.types.send!.map;
    typeImports.add(events);
    for (const entry of info.sent) validatorImports.add(entry.validator);
    const url = info.paramsType ? `\`\${base}\${${info.member}Path(params)}\`` : `\`\${base}${info.path.replace(/`/g, '\\`').replace(/\$\{/g, '\\${')}\``;
    const validators = info.sent.map((entry) => `${objectKey(entry.message.tag)}: ${entry.validator}`).join(', ');
    const args: string[] = [];
    const signature: string[] = [];
    if (info.paramsType) {
      args.push('params');
      signature.push(`params: ${info.paramsType}`);
    }
    const fixed = [`fetch: options.fetch`, `validators: validate ? { ${validators} } : undefined`, `done: ${settings.done !== undefined}`];
    if (settings.method === 'POST') {
      const body = info.channel.types.receive ? sentByClients(info, types) : 'unknown';
      if (info.channel.types.receive) typeImports.add(body);
      args.push('body');
      signature.push(`body: ${body}`);
      fixed.unshift('method: "POST"', 'body');
    }
    args.push('streamOptions');
    signature.push(`options?: SseStreamOptions<${events}>`);
    const what = settings.method === 'POST'
      ? `\`POST ${info.path}\`: sends \`body\` and reads the events it answers with${settings.done !== undefined ? `, until \`${settings.done}\`` : ''}. Not resumed after a drop.`
      : `\`GET ${info.path}\`: the events as they come; after a drop it reconnects${settings.resume ? ' and resumes after the last event id' : ''}.`;
    members.push(`${jsDoc([what, info.channel.description], '  ')}  ${propertyKey(info.member)}(${signature.join(', ')}): SseClient<${events}>;`);
    implementations.push(
      `    ${objectKey(info.member)}: (${args.join(', ')}) =>\n      new SseClient<${events}>(${url}, {\n        ...streamOptions,\n${fixed.map((line) => `        ${line},`).join('\n')}\n      }),`,
    );
  }

  for (const info of ws) {
    const { channel } = info;
    const send = channel.types.receive ? sentByClients(info, types) : 'never';
    const receive = channel.types.send ? types.typeName(channel.types.send.union, 'read') : 'never';
    for (const name of [send, receive, info.repliesType]) if (name && name !== 'never') typeImports.add(name);
    const clientType = uniqueName(`${channel.name}Client`, taken);
    const discriminator = channel.discriminator;
    const generics = [send, receive, info.repliesType ?? 'Record<never, never>', discriminator === undefined ? 'never' : stringLiteral(discriminator)];
    if (info.correlationKey !== undefined) generics.push(stringLiteral(info.correlationKey));
    const receiving = discriminator === undefined ? '`onMessage` what it sends' : '`on` what it sends';
    declarations.push(
      `${jsDoc([`A client of \`${channel.key}\` (WebSocket ${info.path}): \`send\` what the server receives, ${receiving}${info.repliesType && discriminator !== undefined ? ', `request` what it answers' : ''}.`])}export type ${clientType} = WebSocketClient<${generics.join(', ')}>;`,
    );
    const fixed = [`url: \`\${socketBase}${info.paramsType ? `\${${info.member}Path(params)}` : info.path.replace(/`/g, '\\`').replace(/\$\{/g, '\\${')}\``, 'WebSocket: options.WebSocket'];
    if (channel.websocket!.subprotocols.length) fixed.push(`protocols: [${channel.websocket!.subprotocols.map(stringLiteral).join(', ')}]`);
    if (receive !== 'never') {
      const validator = `validate${receive}`;
      validatorImports.add(validator);
      fixed.push(`validate: validate ? ${validator} : undefined`);
    }
    // Without a discriminator there is no application-level ping, and a `pong` is a message like any other.
    if (discriminator !== undefined) fixed.push(`discriminator: ${stringLiteral(discriminator)}`);
    else fixed.push('appPing: false');
    if (info.correlationKey !== undefined) fixed.push(`correlationKey: ${stringLiteral(info.correlationKey)}`);
    if (info.auth) fixed.push(`authType: ${stringLiteral(info.auth.tag)}`, `tokenKey: ${stringLiteral(info.auth.tokenKey)}`);
    const error = info.sent.find((entry) => entry.message.tag === 'error');
    if (error && discriminator !== undefined) fixed.push('errorType: "error"');
    const params = info.paramsType ? `params: ${info.paramsType}, ` : '';
    const notes = [
      `WebSocket ${info.path}.`,
      info.auth && `\`token\` is required: it is asked for on every connect and sent as the first message (\`${info.auth.tag}\`); the server closes a connection without it (1008), which the client reports as a \`WebSocketClosedError\`.`,
      discriminator === undefined && 'The channel has no discriminator: receive with `onMessage` or `messages()`, which get every message the server sends; `on` and `request` need a discriminator to tell messages apart.',
      discriminator !== undefined && info.received.some((entry) => entry.message.tag === APP_PING) &&
        `\`request({ ${propertyKey(discriminator)}: ${stringLiteral(APP_PING)} })\` is answered by the server's runtime with its pong; the client also pings by itself to detect a dead server.`,
      channel.description,
    ];
    // A channel that requires first-message auth refuses a socket without a token: the type requires one.
    const optionsParameter = info.auth ? `options: AuthenticatedChannelOptions<${receive}>` : `options?: WebSocketChannelOptions<${receive}>`;
    members.push(`${jsDoc(notes, '  ')}  ${propertyKey(info.member)}(${params}${optionsParameter}): ${clientType};`);
    implementations.push(
      `    ${objectKey(info.member)}: (${info.paramsType ? 'params, ' : ''}socketOptions) =>\n      new WebSocketClient({\n        ...socketOptions,\n${fixed.map((line) => `        ${line},`).join('\n')}\n      }),`,
    );
  }

  const optionMembers = [
    '  /** The server, e.g. `https://api.example.com`; WebSocket channels use its `ws:`/`wss:` form. */',
    '  baseUrl: string;',
    ...(ws.length ? ["  /** Node 20 has no global WebSocket: pass the `ws` package's. Default: the global one. */", '  WebSocket?: WebSocketConstructor;'] : []),
    ...(sse.length ? ['  /** Default: the global `fetch`. */', '  fetch?: typeof fetch;'] : []),
    '  /** Check what the server sends with the generated validators; an invalid message is skipped and reported. Default true. */',
    '  validate?: boolean;',
  ];
  declarations.push(`export interface RealtimeClientOptions {\n${optionMembers.join('\n')}\n}`);
  if (sse.length) {
    declarations.push(
      '/** Options of one stream; what the manifest fixes (method, body, validators, `[DONE]`) is set by the client. */\nexport type SseStreamOptions<Events extends object> = Omit<SseClientOptions<Events>, "method" | "body" | "validators" | "textEvents" | "done" | "fetch">;',
    );
  }
  if (ws.length) {
    declarations.push(
      '/** Options of one socket; what the manifest fixes (URL, subprotocols, discriminator, correlation id, auth message, application ping) is set by the client. */\nexport type WebSocketChannelOptions<Receive> = Omit<\n  WebSocketClientOptions<Receive>,\n  "url" | "WebSocket" | "protocols" | "validate" | "discriminator" | "correlationKey" | "authType" | "tokenKey" | "errorType" | "appPing"\n>;',
    );
  }
  if (ws.some((info) => info.auth)) {
    declarations.push(
      '/** Options of a socket on a channel that requires first-message auth: `token` is required. */\nexport type AuthenticatedChannelOptions<Receive> = WebSocketChannelOptions<Receive> & { token: NonNullable<WebSocketClientOptions<Receive>["token"]> };',
    );
  }
  declarations.push(`export interface RealtimeClient {\n${members.join('\n')}\n}`);

  const setup = [
    '  const base = options.baseUrl.replace(/\\/+$/, "");',
    ...(ws.length ? ['  const socketBase = base.replace(/^http/, "ws");'] : []),
    '  const validate = options.validate ?? true;',
  ];
  const factory = `export function createRealtimeClient(options: RealtimeClientOptions): RealtimeClient {\n${setup.join('\n')}\n  return {\n${implementations.join('\n')}\n  };\n}`;

  const imports: string[] = [];
  if (sse.length) imports.push(importStatement(['SseClient', 'type SseClientOptions'], './runtime/sse-client.js'));
  if (ws.length) imports.push(importStatement(['WebSocketClient', 'type WebSocketClientOptions', 'type WebSocketConstructor'], './runtime/ws-client.js'));
  const sortedTypes = [...typeImports].sort();
  if (sortedTypes.length) imports.push(importStatement(sortedTypes, './types.js', true));
  const sortedValidators = [...validatorImports].sort();
  if (sortedValidators.length) imports.push(importStatement(sortedValidators, './validators.js'));
  const reexports: string[] = [];
  if (sse.length) reexports.push(exportStatement(['CLOSED', 'CONNECTING', 'OPEN', 'SseConnectionError', 'SseInvalidEventError', 'SseResponseError', 'type SseEvent'], './runtime/sse-client.js'));
  if (ws.length) reexports.push(exportStatement(['WebSocketClientError', 'WebSocketClosedError', 'WebSocketReplyError'], './runtime/ws-client.js'), exportStatement(['CloseCode', 'ReadyState'], './runtime/ws-protocol.js'));

  const content = templates.render('asyncapi/client.ts.hbs', {
    source,
    title: commentText(model.title),
    version: commentText(model.version),
    imports: imports.join('\n'),
    reexports: reexports.join('\n'),
    declarations: declarations.join('\n\n'),
    factory,
  });
  const runtime = [...(sse.length ? ['sse-client'] : []), ...(ws.length ? ['ws-client', 'ws-protocol'] : [])];
  return [
    { path: 'client.ts', content },
    ...runtime.map((name) => ({ path: `runtime/${name}.ts`, content: templates.render(`runtime/${name}.ts.hbs`, { source }) })),
  ];
}

/** The type of what clients send on a channel: the write shape of the union the server receives. */
function sentByClients(info: ChannelInfo, types: TypeEmitter): string {
  return types.typeName(info.channel.types.receive!.union, 'write');
}
