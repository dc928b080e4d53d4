/**
 * `client.ts` of a realtime API: `createClient({ baseUrl })` with one typed member per channel:
 * an `SseClient` (runtime/sse-client.ts) per SSE channel, GET or POST as the manifest says, and a
 * `WebSocketClient` (runtime/ws-client.ts) per WebSocket channel, set up with its subprotocols,
 * discriminator, correlation id and first-message auth. Its options are every client's
 * (runtime/client-common.ts: `fetch`, `headers`, `timeout`, `signal`) plus `baseUrl`, `token`,
 * `WebSocket` and `validate`. It runs in browsers and in Node (pass `ws`'s `WebSocket` there), so
 * it imports nothing from Node.
 */
import type { TypeEmitter } from '../core/emit/types/emit.js';
import { exportStatement, importStatement } from '../core/builder/imports.js';
import { commentText, jsDoc, objectKey, propertyAccess, propertyKey, stringLiteral, uniqueName } from '../core/builder/names.js';
import type { GeneratedFile } from '../core/pipeline/output.js';
import type { TemplateRenderer } from '../core/pipeline/templates.js';
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
  const streams = channels.filter((info) => info.channel.transport === 'http-stream');
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

  for (const info of streams) {
    const message = types.typeName(info.channel.types.send!.union, 'read');
    typeImports.add(message);
    validatorImports.add(`validate${message}`);
    const url = info.paramsType ? `\`\${base}\${${info.member}Path(params)}\`` : `\`\${base}${info.path.replace(/`/g, '\\`').replace(/\$\{/g, '\\${')}\``;
    const signature = [...(info.paramsType ? [`params: ${info.paramsType}`] : []), 'options?: HttpStreamClientOptions'];
    const args = [...(info.paramsType ? ['params'] : []), 'streamOptions'];
    const fixed = [
      `url: ${url}`,
      `operation: ${stringLiteral(info.channel.key)}`,
      'fetch: options.fetch',
      'clientHeaders: options.headers',
      'clientSignal: options.signal',
      'token: streamOptions?.token ?? options.token',
      'timeout: streamOptions?.timeout ?? options.timeout',
      `validate: validate ? validate${message} : undefined`,
    ];
    members.push(`${jsDoc([`\`GET ${info.path}\`: the messages of the stream (newline-delimited JSON) as an async iterator; blank keep-alive lines are skipped.`, info.channel.description], '  ')}  ${propertyKey(info.member)}(${signature.join(', ')}): HttpStreamClient<${message}>;`);
    implementations.push(`    ${objectKey(info.member)}: (${args.join(', ')}) =>
      new HttpStreamClient<${message}>({
        ...streamOptions,
${fixed.map((line) => `        ${line},`).join('\n')}
      }),`);
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
    const fixed = [
      `url: \`\${socketBase}${info.paramsType ? `\${${info.member}Path(params)}` : info.path.replace(/`/g, '\\`').replace(/\$\{/g, '\\${')}\``,
      'WebSocket: options.WebSocket',
      `operation: ${stringLiteral(channel.key)}`,
      'clientSignal: options.signal',
      'timeout: socketOptions?.timeout ?? options.timeout',
    ];
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
    if (info.numericIds) fixed.push('numericIds: true');
    // Only a channel with first-message auth gets the client's token: another would take it for a message.
    if (info.auth) fixed.push('token: socketOptions?.token ?? options.token', `authType: ${stringLiteral(info.auth.tag)}`, `tokenKey: ${stringLiteral(info.auth.tokenKey)}`);
    const error = info.sent.find((entry) => entry.message.tag === 'error');
    if (error && discriminator !== undefined) fixed.push('errorType: "error"');
    const params = info.paramsType ? `params: ${info.paramsType}, ` : '';
    const notes = [
      `WebSocket ${info.path}.`,
      info.auth && `\`token\` (here or given to \`createClient\`) is required: it is asked for on every connect and sent as the first message (\`${info.auth.tag}\`); the server closes a connection without it (1008), which the client reports as a \`WebSocketClosedError\`.`,
      discriminator === undefined && 'The channel has no discriminator: receive with `onMessage` or `messages()`, which get every message the server sends; `on` and `request` need a discriminator to tell messages apart.',
      discriminator !== undefined && info.received.some((entry) => entry.message.tag === APP_PING) &&
        `\`request({ ${propertyKey(discriminator)}: ${stringLiteral(APP_PING)} })\` is answered by the server's runtime with its pong; the client also pings by itself to detect a dead server.`,
      channel.description,
    ];
    // A channel that requires first-message auth refuses a socket without a token: the type requires
    // one, here or from createClient's options (`Authenticated`).
    const optionsParameter = info.auth ? `...options: AuthenticatedChannelArgs<Authenticated, ${receive}>` : `options?: WebSocketChannelOptions<${receive}>`;
    members.push(`${jsDoc(notes, '  ')}  ${propertyKey(info.member)}(${params}${optionsParameter}): ${clientType};`);
    implementations.push(
      `    ${objectKey(info.member)}: (${info.paramsType ? `params: ${info.paramsType}, ` : ''}socketOptions?: WebSocketChannelOptions<${receive}>) =>\n      new WebSocketClient({\n        ...socketOptions,\n${fixed.map((line) => `        ${line},`).join('\n')}\n      }),`,
    );
  }

  const authenticated = ws.some((info) => info.auth);
  const optionMembers = [
    '  /** The server, e.g. `https://api.example.com`; WebSocket channels use its `ws:`/`wss:` form. */',
    '  baseUrl: string;',
    '  /**',
    '   * The credential: SSE requests send it as `Authorization: Bearer <token>`, WebSocket channels with',
    '   * first-message auth as their first message; a function is asked on every connect. A stream or',
    "   * socket's own `token` wins.",
    '   */',
    '  token?: Credential;',
    ...(ws.length ? ["  /** Node 20 has no global WebSocket: pass the `ws` package's. Default: the global one. */", '  WebSocket?: WebSocketConstructor;'] : []),
    '  /** Check what the server sends with the generated validators; an invalid message is skipped and reported. Default true. */',
    '  validate?: boolean;',
  ];
  const common = [
    sse.length ? '`fetch` and `headers` go with SSE requests (browsers cannot add headers to a WebSocket handshake)' : '`fetch` and `headers` are unused: browsers cannot add headers to a WebSocket handshake',
    sse.length && ws.length ? '`timeout` bounds the opening of an SSE stream and the wait for a WebSocket reply' : sse.length ? '`timeout` bounds the opening of a stream' : '`timeout` bounds the wait for a reply to `request()`',
    '`signal` closes every stream and socket of the client',
  ];
  declarations.push(`${jsDoc(["Every client's options and the realtime ones:", ...common.map((line) => `- ${line};`)])}export interface RealtimeClientOptions extends CommonClientOptions {\n${optionMembers.join('\n')}\n}`);
  if (sse.length) {
    declarations.push(
      '/** Options of one stream; what the manifest fixes (method, body, validators, `[DONE]`) or the client gives is set by the client. */\nexport type SseStreamOptions<Events extends object> = Omit<\n  SseClientOptions<Events>,\n  "method" | "body" | "validators" | "textEvents" | "done" | "fetch" | "clientHeaders" | "clientSignal" | "operation"\n>;',
    );
  }
  if (ws.length) {
    declarations.push(
      '/** Options of one socket; what the manifest fixes (URL, subprotocols, discriminator, correlation id, auth message, application ping) is set by the client. */\nexport type WebSocketChannelOptions<Receive> = Omit<\n  WebSocketClientOptions<Receive>,\n  "url" | "WebSocket" | "protocols" | "validate" | "discriminator" | "correlationKey" | "authType" | "tokenKey" | "errorType" | "appPing" | "clientSignal" | "operation"\n>;',
    );
  }
  if (authenticated) {
    declarations.push(
      '/** Options of a socket on a channel that requires first-message auth: `token` is required. */\nexport type AuthenticatedChannelOptions<Receive> = WebSocketChannelOptions<Receive> & { token: NonNullable<WebSocketClientOptions<Receive>["token"]> };',
      '/** The options of such a socket: optional when `createClient` was given a `token`, else with a `token`. */\nexport type AuthenticatedChannelArgs<Authenticated extends boolean, Receive> = Authenticated extends true\n  ? [options?: WebSocketChannelOptions<Receive>]\n  : [options: AuthenticatedChannelOptions<Receive>];',
    );
  }
  const clientParameters = authenticated ? '<Authenticated extends boolean = false>' : '';
  declarations.push(`${jsDoc([authenticated ? 'The channels of the API. `Authenticated`: whether `createClient` was given a `token` (then sockets need none of their own).' : 'The channels of the API.'])}export interface RealtimeClient${clientParameters} {\n${members.join('\n')}\n}`);

  const setup = [
    '  const base = options.baseUrl.replace(/\\/+$/, "");',
    ...(ws.length ? ['  const socketBase = base.replace(/^http/, "ws");'] : []),
    '  const validate = options.validate ?? true;',
  ];
  const doc = jsDoc(['A client of every channel of the API at `options.baseUrl`.']);
  const signatures = authenticated
    ? `${doc}export function createClient(options: RealtimeClientOptions & { token: Credential }): RealtimeClient<true>;\nexport function createClient(options: RealtimeClientOptions): RealtimeClient;\nexport function createClient(options: RealtimeClientOptions): RealtimeClient<boolean> {`
    : `${doc}export function createClient(options: RealtimeClientOptions): RealtimeClient {`;
  const factory = `${signatures}\n${setup.join('\n')}\n  return {\n${implementations.join('\n')}\n  };\n}`;

  const imports: string[] = [importStatement(['CommonClientOptions', 'Credential'], './runtime/client-common.js', true)];
  if (sse.length) imports.push(importStatement(['SseClient', 'type SseClientOptions'], './runtime/sse-client.js'));
  if (streams.length) imports.push(importStatement(['HttpStreamClient', 'type HttpStreamClientOptions'], './runtime/http-stream-client.js'));
  if (ws.length) imports.push(importStatement(['WebSocketClient', 'type WebSocketClientOptions', 'type WebSocketConstructor'], './runtime/ws-client.js'));
  const sortedTypes = [...typeImports].sort();
  if (sortedTypes.length) imports.push(importStatement(sortedTypes, './types.js', true));
  const sortedValidators = [...validatorImports].sort();
  if (sortedValidators.length) imports.push(importStatement(sortedValidators, './validators.js'));
  const reexports: string[] = [
    exportStatement(['ClientError', 'isClientError', 'type ClientErrorKind', 'type CommonClientOptions', 'type Credential', 'type Fetch', 'type HeaderValues', 'type HeadersOption', 'type RetryOptions'], './runtime/client-common.js'),
  ];
  if (sse.length) reexports.push(exportStatement(['CLOSED', 'CONNECTING', 'OPEN', 'SseConnectionError', 'SseInvalidEventError', 'SseResponseError', 'type SseEvent'], './runtime/sse-client.js'));
  if (streams.length) reexports.push(exportStatement(['HttpStreamError', 'type HttpStreamClientOptions'], './runtime/http-stream-client.js'));
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
  return [{ path: 'client.ts', content }];
}

/** The type of what clients send on a channel: the write shape of the union the server receives. */
function sentByClients(info: ChannelInfo, types: TypeEmitter): string {
  return types.typeName(info.channel.types.receive!.union, 'write');
}
