/**
 * The generated realtime server and client: the committed out/realtime type-checks strict under
 * both compilers (server for Node, client for browsers and Node) with no `any`; the ws documents
 * of the AsyncAPI corpus generate a server and a client that type-check too; only the runtime
 * files an API needs are written; schemas named like the runtime's exports are imported aliased;
 * what the runtimes cannot serve is refused with a location; the handler scaffold is written once
 * and afterwards only gets stubs for new messages.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { CodegenError } from '../generators/core/diagnostics.js';
import { ROOT } from './support/cli.js';
import { anyTypes, writeFiles } from './support/client-generate.js';
import { CORPUS, generateRealtime, REALTIME_MANIFEST } from './support/realtime-generate.js';
import { COMPILERS, STRICTEST, typecheck } from './support/typecheck.js';

const OUT = join(ROOT, 'out', 'realtime');
const TMP = join(ROOT, '.vitest-tmp', 'realtime-generate');

function expectTypechecks(folder: string, checks: Array<[environment: 'node' | 'browser', files: string[]]>): void {
  for (const [compiler, path] of Object.entries(COMPILERS)) {
    for (const [environment, files] of checks) {
      expect(typecheck(folder, path, environment, files, STRICTEST).output, `${compiler}, ${environment}, ${files.join(' ')}`).toBe('');
    }
  }
}

describe('out/realtime (schemas/asyncapi/tasks.asyncapi.yaml)', () => {
  it('type-checks strict: the server for Node, the client for browsers and for Node, under TypeScript 5.9 and 7', () => {
    expectTypechecks(OUT, [
      ['node', ['server.ts']],
      ['browser', ['client.ts']],
      ['node', ['client.ts']],
    ]);
  }, 120_000);

  it('has no `any` in server.ts and client.ts', () => {
    for (const file of ['server.ts', 'client.ts']) expect(anyTypes(readFileSync(join(OUT, file), 'utf8')), file).toEqual([]);
  });

  it('is what the generator writes today, with the SSE and the WebSocket runtimes', async () => {
    const { files } = await generateRealtime(REALTIME_MANIFEST);
    for (const file of files) expect(readFileSync(join(OUT, file.path), 'utf8'), file.path).toBe(file.content);
    const paths = files.map((file) => file.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        'server.ts',
        'client.ts',
        'runtime/sse-server.ts',
        'runtime/sse-client.ts',
        'runtime/ws-server.ts',
        'runtime/ws-client.ts',
      ]),
    );
  });

  it('requires `token` for a channel with first-message auth (the server closes a socket without one with 1008)', async () => {
    const { files } = await generateRealtime(REALTIME_MANIFEST);
    const folder = join(TMP, 'auth-usage');
    writeFiles(folder, [
      ...files,
      {
        path: 'usage.ts',
        content: [
          'import { createClient, WebSocketClosedError } from "./client.js";',
          '',
          'const client = createClient({ baseUrl: "https://example.com" });',
          'export const chat = client.chat({ token: () => "t", onError: (error) => error instanceof WebSocketClosedError && error.code === 1008 });',
          '// @ts-expect-error the channel requires first-message auth: no token, no connection',
          'export const anonymous = client.chat();',
          '// @ts-expect-error token is required, not optional',
          'export const noToken = client.chat({ reconnect: false });',
          '// @ts-expect-error an undefined token is no token',
          'export const undefinedToken = client.chat({ token: undefined });',
          '// An SSE channel without auth still takes no options.',
          'export const tasks = client.tasks();',
          '// With a token given to createClient, the socket needs none of its own.',
          'export const withClientToken = createClient({ baseUrl: "https://example.com", token: () => "t" }).chat();',
          'export const withOwnToo = createClient({ baseUrl: "https://example.com", token: "t" }).chat({ token: "other" });',
          '',
        ].join('\n'),
      },
    ]);
    expectTypechecks(folder, [['browser', ['usage.ts']]]);
  }, 120_000);

  it('the client imports nothing from Node, so browsers can load it', () => {
    for (const file of [
      'client.ts',
      'runtime/client-common.ts',
      'runtime/sse-client.ts',
      'runtime/ws-client.ts',
      'runtime/ws-protocol.ts',
    ]) {
      expect(readFileSync(join(OUT, file), 'utf8'), file).not.toMatch(/from "node:|from "ws"/);
    }
  });
});

describe('the AsyncAPI corpus (../shared/corpus/asyncapi), documents on ws', () => {
  const documents = [
    'kraken-websocket-request-reply-message-filter-in-reply-asyncapi.yml',
    'slack-rtm-asyncapi.yml',
    'websocket-gemini-asyncapi.yml',
  ];
  for (const name of documents) {
    it(`${name}: server and client generate, without SSE files, and type-check under both compilers`, async () => {
      const { files } = await generateRealtime(join(CORPUS, name));
      const paths = files.map((file) => file.path);
      expect(paths).toEqual(expect.arrayContaining(['server.ts', 'client.ts', 'runtime/ws-server.ts', 'runtime/ws-client.ts']));
      expect(paths.filter((path) => path.includes('sse-'))).toEqual([]);
      for (const file of files.filter((candidate) => candidate.path === 'server.ts' || candidate.path === 'client.ts')) {
        expect(anyTypes(file.content), file.path).toEqual([]);
      }
      const folder = join(TMP, 'corpus', name.replace(/\.yml$/, ''));
      writeFiles(folder, files);
      expectTypechecks(folder, [
        ['node', ['server.ts']],
        ['browser', ['client.ts']],
      ]);
    }, 120_000);
  }

  // Channels without a discriminator: what the server sends is received all together.
  const plain = [
    { name: documents[1], member: 'root', args: '', client: 'RootClient', receive: 'RootServerMessage' },
    {
      name: documents[2],
      member: 'marketDataV1',
      args: '{ symbol: "btcusd" }',
      client: 'MarketDataV1Client',
      receive: 'MarketDataV1ServerMessage',
    },
  ];
  for (const { name, member, args, client, receive } of plain) {
    it(`${name}: without a discriminator the client receives with onMessage and messages(), typed by the whole union`, async () => {
      const { files } = await generateRealtime(join(CORPUS, name));
      const content = files.find((file) => file.path === 'client.ts')!.content;
      expect(content).toContain('appPing: false');
      expect(content).toContain(`export type ${client} = WebSocketClient<`);
      const folder = join(TMP, 'corpus-usage', name.replace(/\.yml$/, ''));
      writeFiles(folder, [
        ...files,
        {
          path: 'usage.ts',
          content: [
            `import { createClient, type ${client} } from "./client.js";`,
            `import type { ${receive} } from "./types.js";`,
            '',
            'export async function usage(): Promise<void> {',
            `  const client: ${client} = createClient({ baseUrl: "https://example.com" }).${member}(${args});`,
            `  const off = client.onMessage((message) => {`,
            `    const received: ${receive} = message;`,
            '    void received;',
            '  });',
            '  off();',
            '  for await (const message of client.messages()) {',
            `    const received: ${receive} = message;`,
            '    void received;',
            '  }',
            '  // @ts-expect-error without a discriminator, kinds cannot be told apart',
            '  client.on("message", () => {});',
            '  client.close();',
            '}',
            '',
          ].join('\n'),
        },
      ]);
      expectTypechecks(folder, [
        ['browser', ['usage.ts']],
        ['node', ['usage.ts']],
      ]);
    }, 120_000);
  }

  it('kraken: requests are answered per the manifest, paired by "reqid"; the runtime answers ping', async () => {
    const { files } = await generateRealtime(join(CORPUS, documents[0]));
    const server = files.find((file) => file.path === 'server.ts')!.content;
    expect(server).toContain('correlationKey: "reqid"');
    expect(server).toContain('discriminator: "event"');
    expect(server).toMatch(
      /subscribe\(message: Subscribe, connection: CurrencyExchangeConnection<Auth>, publish: RealtimePublish\): (SubscriptionStatus \| DummyCurrencyInfoPayload|DummyCurrencyInfoPayload \| SubscriptionStatus) \|/,
    );
    expect(server).not.toMatch(/^\s+ping\(/m);
  });
});

/** The example manifest, with its relative `$ref` rewritten so it can live under .vitest-tmp. */
function manifestCopy(edit: (document: Record<string, any>) => void): string {
  const text = readFileSync(REALTIME_MANIFEST, 'utf8').replaceAll("'../openapi/tasks.yaml", "'../../schemas/openapi/tasks.yaml");
  const document = YAML.parse(text) as Record<string, any>;
  edit(document);
  mkdirSync(TMP, { recursive: true });
  const file = join(TMP, `manifest-${Math.random().toString(36).slice(2)}.asyncapi.yaml`);
  writeFileSync(file, YAML.stringify(document));
  return file;
}

describe('names the generated files share with the runtime', () => {
  it("schemas named CloseCode, EventLog and WebSocketConnection are imported aliased where the runtime's are printed; server and client type-check", async () => {
    const { files } = await generateRealtime('test/fixtures/asyncapi/runtime-names.yaml');
    const server = files.find((file) => file.path === 'server.ts')!.content;
    expect(server).toContain('import { CloseCode as CloseCodeValue } from "./runtime/ws-protocol.js";');
    expect(server).toContain('connection.close(CloseCodeValue.PolicyViolation, "Already authenticated")');
    expect(server).toMatch(/import type \{[^}]*\bCloseCode\b[^}]*\} from "\.\/types\.js";/);
    const folder = join(TMP, 'runtime-names');
    writeFiles(folder, files);
    expectTypechecks(folder, [
      ['node', ['server.ts']],
      ['browser', ['client.ts']],
    ]);
  }, 120_000);
});

describe('the handler scaffold', () => {
  it('is written once with typed stubs, then only gets a stub for a newly added message', async () => {
    const folder = join(TMP, 'scaffold');
    const output = join(folder, 'out');
    const handlersFile = join(folder, 'handlers.ts');
    rmSync(folder, { recursive: true, force: true });
    const first = manifestCopy(() => {});
    const generated = await generateRealtime(first, ['types', 'validators', 'client', 'server'], { file: handlersFile, output });
    writeFiles(output, generated.files);
    expect(generated.userFiles).toHaveLength(1);
    const scaffold = generated.userFiles[0].content;
    expect(scaffold).toContain('export const handlers: RealtimeHandlers = {');
    expect(scaffold).toMatch(/chat: \{\n[\s\S]*join\(\) \{\n\s+throw new Error\("chat\.join is not implemented yet"\);/);
    expect(scaffold).toContain('async taskSummary() {');
    // The runtime answers ping and verifies auth: no stubs for them.
    expect(scaffold).not.toMatch(/\bping\(\)|\bauth\(\)/);
    writeFileSync(handlersFile, scaffold);
    expectTypechecks(folder, [['node', ['handlers.ts']]]);

    // The user's edit stays; an unchanged manifest changes nothing.
    const edited = scaffold
      .replace('throw new Error("chat.join is not implemented yet");', 'connection.close(4000, "closed for now");')
      .replace('join() {', 'join(_message, connection) {');
    writeFileSync(handlersFile, edited);
    const again = await generateRealtime(first, ['types', 'validators', 'client', 'server'], { file: handlersFile, output });
    expect(again.userFiles[0].content).toBe(edited);

    // A message added to the chat gets a stub, and nothing else changes.
    const second = manifestCopy((document) => {
      document.components.messages.leave = {
        summary: 'Leaves a room.',
        payload: {
          type: 'object',
          required: ['type', 'room'],
          properties: { type: { const: 'leave' }, room: { $ref: '#/components/schemas/RoomId' } },
        },
      };
      document.channels.chat.messages.leave = { $ref: '#/components/messages/leave' };
      document.operations.receiveLeave = {
        action: 'receive',
        channel: { $ref: '#/channels/chat' },
        messages: [{ $ref: '#/channels/chat/messages/leave' }],
      };
    });
    const grown = await generateRealtime(second, ['types', 'validators', 'client', 'server'], { file: handlersFile, output });
    writeFiles(output, grown.files);
    const content = grown.userFiles[0].content;
    expect(content).toContain('connection.close(4000, "closed for now");');
    expect(content).toContain('throw new Error("chat.leave is not implemented yet");');
    expect(
      content.replace(
        /\n *\/\*\* Leaves a room\. \*\/\n *leave\(\) \{\n *throw new Error\("chat\.leave is not implemented yet"\);\n *\},?/,
        '',
      ),
    ).toBe(edited);
    writeFileSync(handlersFile, content);
    expectTypechecks(folder, [['node', ['handlers.ts']]]);
  }, 120_000);
});

describe('what the runtimes cannot serve is refused with a location', () => {
  it('an SSE end marker other than [DONE]', async () => {
    const file = manifestCopy((document) => {
      document.channels.taskSummary['x-sse'].done = 'END';
    });
    const failure = await generateRealtime(file).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(CodegenError);
    expect((failure as CodegenError).message).toMatch(
      /manifest-\w+\.asyncapi\.yaml:\d+:\d+: error: x-sse\.done: the SSE runtime ends streams with \[DONE\] only, not "END"/,
    );
  });

  it('a correlation id below the top level of the payload', async () => {
    const file = manifestCopy((document) => {
      document.components.correlationIds.messageId.location = '$message.payload#/meta/id';
      document.components.messages.say.payload.properties.meta = { type: 'object', properties: { id: { type: 'string' } } };
    });
    const failure = await generateRealtime(file).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(CodegenError);
    expect((failure as CodegenError).message).toMatch(
      /error: correlationId: the WebSocket runtime pairs requests and replies by one top-level payload property/,
    );
  });
});
