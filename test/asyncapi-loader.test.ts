/**
 * The AsyncAPI loader and the realtime types/validators: the example manifest, located errors (each
 * an exact `file:line:col: error:`), multi-file documents, the corpus (ws documents generate and
 * type-check under both compilers, the mqtt one is refused clearly), OpenAPI 3.2 `itemSchema` as an
 * SSE source, and hostile names.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { generateAsyncApi } from '../generators/asyncapi/index.js';
import { loadAsyncApi } from '../generators/asyncapi/load.js';
import type { Channel, RealtimeModel } from '../generators/asyncapi/model.js';
import { CodegenError } from '../generators/core/diagnostics.js';
import type { SchemaObject } from '../generators/core/schema/json-schema.js';
import type { GeneratedFile } from '../generators/core/pipeline/output.js';
import { withRuntimeFiles } from '../generators/core/pipeline/runtime-files.js';
import { TemplateRenderer } from '../generators/core/pipeline/templates.js';
import { ROOT } from './support/cli.js';
import { writeFiles } from './support/client-generate.js';
import { COMPILERS, typecheck } from './support/typecheck.js';

const CORPUS = join(ROOT, '..', 'shared', 'corpus', 'asyncapi');
const TMP = join(ROOT, '.vitest-tmp', 'asyncapi-loader');

// The repository is the project: schemas/asyncapi refers to schemas/openapi, as in codegen.config.yaml.
const load = (file: string) => loadAsyncApi(join(ROOT, file), { displayRoot: ROOT, readRoots: [ROOT] });
const fixture = (name: string) => load(`test/fixtures/asyncapi/${name}`);

async function failure(file: string): Promise<string> {
  try {
    await loadAsyncApi(file.startsWith('/') ? file : join(ROOT, 'test/fixtures/asyncapi', file), { displayRoot: ROOT });
  } catch (cause) {
    expect(cause).toBeInstanceOf(CodegenError);
    return (cause as CodegenError).message;
  }
  throw new Error(`${file} loaded without an error`);
}

function channel(model: RealtimeModel, key: string): Channel {
  const found = model.channels.find((candidate) => candidate.key === key);
  if (!found) throw new Error(`no channel ${key} in ${model.channels.map((c) => c.key).join(', ')}`);
  return found;
}

function schema(model: RealtimeModel, name: string): SchemaObject {
  const found = model.schemas.find((named) => named.name === name);
  if (!found) throw new Error(`no schema ${name} in ${model.schemas.map((named) => named.name).join(', ')}`);
  return found.schema as SchemaObject;
}

/** What the pipeline writes for `input`: the style's files and the runtime modules they import. */
async function generateFor(input: string): Promise<GeneratedFile[]> {
  const templates = new TemplateRenderer();
  const { files } = await generateAsyncApi({
    api: {
      name: 'test',
      inputs: [input],
      documents: [],
      style: 'asyncapi',
      output: join(TMP, 'unused'),
      emit: ['types', 'validators'],
      options: {},
      root: ROOT,
    },
    templates,
  });
  return withRuntimeFiles(files, templates);
}

/** Writes the files, transpiles them beside themselves and imports `validators.js` and `types.js`. */
async function importGenerated(
  folder: string,
  files: GeneratedFile[],
): Promise<{ validators: Record<string, (value: unknown) => unknown>; types: Record<string, unknown> }> {
  writeFiles(folder, files);
  for (const file of files) {
    const output = ts.transpileModule(file.content, {
      compilerOptions: { module: ts.ModuleKind.ES2022, target: ts.ScriptTarget.ES2022 },
    }).outputText;
    const target = join(folder, file.path.replace(/\.ts$/, '.js'));
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, output);
  }
  return {
    types: (await import(pathToFileURL(join(folder, 'types.js')).href)) as Record<string, unknown>,
    validators: (await import(pathToFileURL(join(folder, 'validators.js')).href)) as Record<string, (value: unknown) => unknown>,
  };
}

describe('the example manifest (schemas/asyncapi/tasks.asyncapi.yaml)', async () => {
  const model = await load('schemas/asyncapi/tasks.asyncapi.yaml');

  it('reads the document-level fields and the servers', () => {
    expect(model.title).toBe('Tasks Realtime API');
    expect(model.version).toBe('1.0.0');
    expect(model.source).toBe('schemas/asyncapi/tasks.asyncapi.yaml');
    expect(model.servers.map((server) => `${server.name} ${server.protocol} ${server.host}`)).toEqual([
      'http http localhost:8080',
      'ws ws localhost:8080',
    ]);
    expect(model.channels.map((c) => `${c.key} ${c.transport} ${c.address}`)).toEqual([
      'chat websocket /v1/chat',
      'taskSummary sse /v1/tasks/{taskId}/summary',
      'tasks sse /v1/tasks/events',
    ]);
  });

  it('makes the task feed a resumable SSE GET feed with named events and cross-file payload schemas', () => {
    const tasks = channel(model, 'tasks');
    expect(tasks.sse).toEqual({ method: 'GET', retry: 3000, keepAlive: 15000, resume: true });
    expect(tasks.messages.map((m) => [m.tag, m.payload, m.actions])).toEqual([
      ['task.created', 'TaskCreatedPayload', ['send']],
      ['task.updated', 'TaskUpdatedPayload', ['send']],
      ['task.deleted', 'TaskDeletedPayload', ['send']],
    ]);
    expect(tasks.types).toEqual({ send: { union: 'TasksEvent', map: 'TasksEvents' } });
    // Task comes from ../openapi/tasks.yaml, with what it references there.
    expect(schema(model, 'TaskCreatedPayload').properties?.task).toEqual({ $ref: '#/$defs/Task' });
    expect(schema(model, 'Task').properties?.status).toEqual({ $ref: '#/$defs/TaskStatus' });
    expect(schema(model, 'TasksEvent').anyOf).toHaveLength(3);
  });

  it('makes the summary a POST stream with a [DONE] marker, a body and a path parameter', () => {
    const summary = channel(model, 'taskSummary');
    expect(summary.sse).toEqual({ method: 'POST', keepAlive: 15000, resume: false, done: '[DONE]' });
    expect(summary.parameters).toEqual([{ name: 'taskId', description: 'The task to summarise.', schema: { type: 'string' } }]);
    expect(summary.messages.map((m) => [m.key, m.tag, m.actions])).toEqual([
      ['summaryRequest', 'summaryRequest', ['receive']],
      ['summaryChunk', 'chunk', ['send']],
    ]);
    expect(summary.types).toEqual({
      send: { union: 'TaskSummaryEvent', map: 'TaskSummaryEvents' },
      receive: { union: 'TaskSummaryRequest', map: 'TaskSummaryRequests' },
    });
  });

  it('makes the chat a WebSocket channel with its extensions, a discriminator and replies', () => {
    const chat = channel(model, 'chat');
    expect(chat.websocket).toEqual({
      subprotocols: ['chat.v1'],
      heartbeat: 30000,
      maxMessageSize: 65536,
      firstMessageAuth: { message: 'auth', token: ['token'], timeout: 5000 },
    });
    expect(chat.discriminator).toBe('type');
    const by = (action: 'send' | 'receive') => chat.messages.filter((m) => m.actions.includes(action)).map((m) => m.tag);
    expect(by('receive')).toEqual(['auth', 'join', 'say', 'ping']);
    expect(by('send')).toEqual(['joined', 'said', 'ack', 'pong', 'error']);
    expect(chat.operations.find((op) => op.name === 'receiveSay')?.reply).toEqual({ messages: ['ack'] });
    expect(chat.operations.find((op) => op.name === 'receivePing')?.reply).toEqual({ messages: ['pong'] });
    expect(chat.messages.filter((m) => m.correlationId).map((m) => `${m.key}:/${m.correlationId!.join('/')}`)).toEqual([
      'say:/id',
      'ping:/id',
      'ack:/id',
      'pong:/id',
    ]);
    // The union dispatches on "type"; `said` is the component schema ChatLine, named by the user.
    const server = schema(model, 'ChatServerMessage');
    expect(server.discriminator).toEqual({
      propertyName: 'type',
      mapping: {
        joined: '#/$defs/JoinedPayload',
        said: '#/$defs/ChatLine',
        ack: '#/$defs/AckPayload',
        pong: '#/$defs/PongPayload',
        error: '#/$defs/ErrorPayload',
      },
    });
  });

  it('generates types and validators that type-check under both compilers and dispatch on the discriminator', async () => {
    const files = await generateFor(join(ROOT, 'schemas/asyncapi/tasks.asyncapi.yaml'));
    expect(files.map((file) => file.path).sort()).toEqual(['runtime/validation.ts', 'types.ts', 'validators.d.ts', 'validators.js']);
    const types = files.find((file) => file.path === 'types.ts')!.content;
    expect(types).toMatch(/^\/\/ Generated by codegen from schemas\/asyncapi\/tasks\.asyncapi\.yaml\./);
    expect(types).toContain('export interface TasksEvents {');
    expect(types).toContain('  "task.created": TaskCreatedPayload;');
    expect(types).toContain('export interface ChatClientMessages {');
    expect(types).toContain('  say: SayPayload;');
    const folder = join(TMP, 'example');
    const { validators } = await importGenerated(folder, files);
    expect(types).toContain('export type ChatServerMessage = JoinedPayload | ChatLine | AckPayload | PongPayload | ErrorPayload;');
    for (const [name, compiler] of Object.entries(COMPILERS)) {
      expect(typecheck(folder, compiler, 'browser', ['**/*.ts']).output, name).toBe('');
    }
    expect(validators.isChatClientMessage({ type: 'say', id: '1', room: '6f1c1f7e-1111-4c1b-9d1a-1f1f1f1f1f1f', text: 'hi' })).toBe(true);
    expect(validators.isChatClientMessage({ type: 'say', id: '1', room: '6f1c1f7e-1111-4c1b-9d1a-1f1f1f1f1f1f' })).toBe(false);
    expect(validators.validateChatClientMessage({ type: 'shout' })).toMatchObject({
      ok: false,
      errors: [{ path: '/type', keyword: 'discriminator' }],
    });
    expect(validators.isTaskSummaryRequest({ style: 'brief', extra: 1 })).toBe(false);
  });
});

describe('located errors', () => {
  const at = (file: string) => `test/fixtures/asyncapi/${file}`;

  it('broken YAML', async () => {
    expect(await failure('broken.yaml')).toMatch(new RegExp(`^${at('broken.yaml')}:9:1: error: invalid YAML: `));
  });

  it("a violation of the AsyncAPI schema: one readable error at the value, not ajv's avalanche", async () => {
    expect(await failure('schema-violation.yaml')).toBe(
      `${at('schema-violation.yaml')}:14:13: error: "operations.greet.action" must be one of send, receive, not the string "sned"\n  hint: did you mean "send"?`,
    );
  });

  it('a dangling $ref, in the same file and in another one', async () => {
    expect(await failure('dangling-ref.yaml')).toBe(
      `${at('dangling-ref.yaml')}:10:15: error: $ref "#/components/messages/helo" points to nothing: ${at('dangling-ref.yaml')} has no "helo" under #/components/messages\n  hint: did you mean "hello"?`,
    );
    expect(await failure('multi/dangling.yaml')).toBe(
      `${at('multi/dangling.yaml')}:10:15: error: $ref "./messages.json#/psot" points to nothing: ${at('multi/messages.json')} has no "psot" under #\n  hint: did you mean "post"?`,
    );
  });

  it('an operation on an unknown channel', async () => {
    expect(await failure('unknown-channel.yaml')).toBe(
      `${at('unknown-channel.yaml')}:16:13: error: operation refers to channel "chta", which is not under "channels"\n  hint: did you mean "chat"?`,
    );
  });

  it("operation and reply messages that are not the channel's", async () => {
    const message = await failure('foreign-message.yaml');
    expect(message).toContain(
      `${at('foreign-message.yaml')}:24:15: error: operation message "#/channels/news/messages/headline" is not one of channel "chat"'s messages`,
    );
    expect(message).toContain(
      `${at('foreign-message.yaml')}:27:17: error: reply message "#/channels/chat/messages/hallo" is not one of channel "chat"'s messages\n  hint: did you mean "#/channels/chat/messages/hello"?`,
    );
  });

  it('an undeclared address parameter, and a declared one the address does not use', async () => {
    expect(await failure('undeclared-parameter.yaml')).toBe(
      [
        `${at('undeclared-parameter.yaml')}:7:14: error: address parameter "{roomId}" of channel "room" is not declared under "parameters"\n  hint: did you mean "room"?`,
        `${at('undeclared-parameter.yaml')}:9:7: error: parameter "room" is declared but the address "/rooms/{roomId}" has no {room}\n  hint: use it in the address, e.g. /rooms/{roomId}/{room}, or remove it`,
      ].join('\n'),
    );
  });

  it('bad extension values', async () => {
    const message = await failure('bad-extension.yaml');
    expect(message.split('\n').filter((line) => !line.startsWith('  hint'))).toEqual([
      `${at('bad-extension.yaml')}:8:18: error: "x-heartbeat" must be a whole number from 1000 to 3600000, not the string "30s"`,
      `${at('bad-extension.yaml')}:9:22: error: "x-subprotocols" entries must be tokens (letters, digits and !#$%&'*+-.^_\`|~), not the string "chat v1"`,
      `${at('bad-extension.yaml')}:23:14: error: "x-sse.retry" must be a whole number from 0 to 86400000, not the number -1`,
      `${at('bad-extension.yaml')}:24:15: error: "x-sse.method" must be GET or POST, not the string "PUT"`,
      `${at('bad-extension.yaml')}:25:5: error: "x-subprotocols" applies to WebSocket channels; this channel is SSE`,
    ]);
    expect(await failure('bad-auth.yaml')).toBe(
      `${at('bad-auth.yaml')}:12:14: error: the payload of message "hello" has no property at "/secret" for the token\n  hint: declare it under the payload's properties`,
    );
  });

  it('a message that does not pin the declared discriminator', async () => {
    expect(await failure('missing-discriminator.yaml')).toBe(
      `${at('missing-discriminator.yaml')}:18:11: error: message "bye" of channel "chat" does not pin the discriminator "kind" to a value\n  hint: add properties: { kind: { const: bye } } (and list it under required)`,
    );
  });

  it("an unsupported protocol, at the server's protocol", async () => {
    expect(await failure('unsupported-protocol.yaml')).toBe(
      `${at('unsupported-protocol.yaml')}:8:15: error: not supported: kafka (codegen generates WebSocket and SSE)\n  hint: server "broker" carries channels; use protocol ws or wss for WebSocket, or sse (or http with x-sse on the channel) for Server-Sent Events`,
    );
  });

  it('AsyncAPI 2 and documents that are not AsyncAPI', async () => {
    expect(await failure('asyncapi-2.yaml')).toBe(
      `${at('asyncapi-2.yaml')}:1:11: error: AsyncAPI 2.6.0 is not supported; codegen reads AsyncAPI 3.0.0 and 3.1.0\n  hint: convert it to AsyncAPI 3 first: npx @asyncapi/cli convert ${at('asyncapi-2.yaml')}`,
    );
  });
});

describe('SSE channels', () => {
  it('are declared by x-sse or by servers with protocol sse; x-sse-event names the event', async () => {
    const model = await fixture('sse-variants.yaml');
    expect(model.channels.map((c) => [c.key, c.transport, c.sse])).toEqual([
      ['presence', 'sse', { method: 'GET', keepAlive: 15000, resume: false }],
      ['ticks', 'sse', { method: 'GET', keepAlive: 15000, resume: true }],
    ]);
    expect(channel(model, 'presence').messages.map((m) => [m.name, m.tag, m.payload])).toEqual([
      ['Online', 'user.online', 'OnlinePayload'],
    ]);
  });

  it('a GET feed receives nothing', async () => {
    expect(await failure('sse-receive.yaml')).toBe(
      'test/fixtures/asyncapi/sse-receive.yaml:14:3: error: operation "takeItems" receives on SSE channel "feed", which is a GET feed\n' +
        '  hint: set x-sse: { method: POST } to take the message as the JSON body of a POST stream',
    );
  });
});

describe('multi-file documents', () => {
  it('follows $refs across YAML and JSON files, keeps server pathnames and parameter enums', async () => {
    const model = await fixture('multi/main.yaml');
    expect(model.servers).toEqual([{ name: 'live', protocol: 'wss', host: 'live.example.com', pathname: '/realtime' }]);
    const room = channel(model, 'room');
    expect(room.parameters).toEqual([{ name: 'roomId', schema: { type: 'string', enum: ['general', 'random'], default: 'general' } }]);
    expect(room.messages.map((m) => [m.key, m.payload, m.actions])).toEqual([['post', 'Post', ['send']]]);
    expect(schema(model, 'Post').properties?.replies).toEqual({ type: 'array', items: { $ref: '#/$defs/Post' } });
    expect(schema(model, 'RoomServerMessage')).toMatchObject({ $ref: '#/$defs/Post' });
  });
});

describe('the corpus (../shared/corpus/asyncapi)', () => {
  const wsDocuments = [
    'kraken-websocket-request-reply-message-filter-in-reply-asyncapi.yml',
    'slack-rtm-asyncapi.yml',
    'websocket-gemini-asyncapi.yml',
  ];
  for (const name of wsDocuments) {
    it(`${name}: loads, generates, and type-checks under both compilers`, async () => {
      const model = await loadAsyncApi(join(CORPUS, name), { displayRoot: ROOT });
      expect(model.channels.length).toBeGreaterThan(0);
      expect(model.channels.every((c) => c.transport === 'websocket')).toBe(true);
      const folder = join(TMP, 'corpus', name.replace(/\.yml$/, ''));
      const files = await generateFor(join(CORPUS, name));
      const { validators } = await importGenerated(folder, files);
      expect(Object.keys(validators).length).toBeGreaterThan(0);
      for (const [compiler, path] of Object.entries(COMPILERS)) {
        expect(typecheck(folder, path, 'browser').output, compiler).toBe('');
      }
    });
  }

  it('kraken: finds the "event" discriminator and reads request/reply', async () => {
    const model = await loadAsyncApi(join(CORPUS, wsDocuments[0]), { displayRoot: ROOT });
    const exchange = channel(model, 'currencyExchange');
    expect(exchange.discriminator).toBe('event');
    expect(exchange.messages.find((m) => m.key === 'dummyCurrencyInfo')?.tag).toBe('currencyInfo');
    expect(exchange.operations.find((op) => op.name === 'receiveSubscribeRequest')?.reply).toEqual({
      messages: ['subscriptionStatus', 'dummyCurrencyInfo'],
    });
    expect(exchange.messages.find((m) => m.key === 'ping')?.correlationId).toEqual(['reqid']);
  });

  it('streetlights (mqtt): a clear "not supported" error at the server\'s protocol', async () => {
    expect(await failure(join(CORPUS, 'streetlights-mqtt-asyncapi.yml'))).toBe(
      '../shared/corpus/asyncapi/streetlights-mqtt-asyncapi.yml:13:15: error: not supported: mqtt (codegen generates WebSocket and SSE)\n' +
        '  hint: server "production" carries channels; use protocol ws or wss for WebSocket, or sse (or http with x-sse on the channel) for Server-Sent Events',
    );
  });
});

describe('OpenAPI 3.2 itemSchema as an SSE source', async () => {
  const model = await fixture('openapi-32.yaml');

  it('turns each text/event-stream response into an SSE channel', () => {
    const events = channel(model, 'projectEvents');
    expect(events.transport).toBe('sse');
    expect(events.address).toBe('/v1/projects/{projectId}/events');
    expect(events.sse).toEqual({ method: 'GET', retry: 5000, keepAlive: 15000, resume: true });
    expect(events.parameters).toEqual([{ name: 'projectId', schema: { type: 'string', format: 'uuid' } }]);
    expect(events.messages.map((m) => [m.tag, m.payload])).toEqual([
      ['task.created', 'Task'],
      ['task.deleted', 'TaskDeletedPayload'],
    ]);
    const summary = channel(model, 'summarise');
    expect(summary.sse?.method).toBe('POST');
    expect(summary.messages.map((m) => [m.key, m.tag, m.payload, m.actions])).toEqual([
      ['message', 'message', 'SummarisePayload', ['send']],
      ['request', 'request', 'SummariseBody', ['receive']],
    ]);
    expect(schema(model, 'SummarisePayload')).toMatchObject({ type: 'string' });
    expect(model.channels.map((c) => c.key)).toEqual(['projectEvents', 'summarise']);
  });

  it('generates the same kind of types as an AsyncAPI SSE channel', async () => {
    const files = await generateFor(join(ROOT, 'test/fixtures/asyncapi/openapi-32.yaml'));
    const types = files.find((file) => file.path === 'types.ts')!.content;
    expect(types).toContain('export interface ProjectEventsEvents {\n  "task.created": Task;\n  "task.deleted": TaskDeletedPayload;\n}');
  });

  it('refuses OpenAPI 3.1 for realtime input, with the reason', async () => {
    expect(await failure(join(ROOT, 'schemas/openapi/tasks.yaml'))).toMatch(
      /^schemas\/openapi\/tasks\.yaml:1:10: error: OpenAPI 3\.1\.0 has no SSE event schemas/,
    );
  });
});

describe('hostile names and descriptions', () => {
  it('escape: the output type-checks, runs none of the text, and keeps tags exact', async () => {
    const files = await generateFor(join(ROOT, 'test/fixtures/asyncapi/hostile.yaml'));
    const folder = join(TMP, 'hostile');
    const { validators } = await importGenerated(folder, files);
    expect((globalThis as { pwned?: unknown }).pwned).toBeUndefined();
    for (const [name, compiler] of Object.entries(COMPILERS)) {
      expect(typecheck(folder, compiler, 'browser').output, name).toBe('');
    }
    for (const file of files) {
      for (const block of readFileSync(join(folder, file.path), 'utf8').match(/\/\*\*[\s\S]*?\*\//g) ?? [])
        expect(block.slice(3, -2)).not.toContain('*/');
    }
    const union = Object.keys(validators).find((name) => /^isBadChannelXServerMessage$/.test(name));
    expect(union).toBeDefined();
    expect(validators[union!]({ 'ki"nd': 'a"b*/c' })).toBe(true);
    expect(validators[union!]({ 'ki"nd': '`${process.exit()}`' })).toBe(true);
    expect(validators[union!]({ 'ki"nd': 'other' })).toBe(false);
  });
});
