/**
 * `codegen mock [api]`: generates the API with its mock (`mock.ts`, see generators/styles.ts MOCKS)
 * into a temporary folder, transpiles it with the TypeScript that ts-morph ships (no type check, no
 * bundler), imports it and serves it until Ctrl-C. `startMock` is the same without the command line.
 */
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Command, Option } from 'commander';
import { findConfig, inlineConfig, loadConfig, type ApiConfig } from '../generators/core/config/config.js';
import { UsageError, formatDiagnostic, type Diagnostic } from '../generators/core/diagnostics.js';
import { generate } from '../generators/core/pipeline/generate.js';
import { MOCKS } from '../generators/styles.js';
import { existsSync } from 'node:fs';

export interface MockSettings {
  /** Seed of the sample values: the same seed, the same bodies. Default 1. */
  seed?: number;
  port?: number;
  host?: string;
  /** Milliseconds between the messages a realtime mock publishes by itself; default 1000. */
  intervalMs?: number;
}

export interface RunningMock {
  api: string;
  /** `http://host:port`, without the API's base path. */
  url: string;
  /** The generated modules it runs (server, validators, client when the API emits one), transpiled; deleted by `close`. */
  folder: string;
  /** Operations the mock answers 501 for, with why, and other warnings of generation. */
  warnings: Diagnostic[];
  /** Stops the server and deletes the generated folder. */
  close(): Promise<void>;
}

/** Generates `api`'s mock into a temporary folder and serves it. */
export async function startMock(api: ApiConfig, settings: MockSettings = {}): Promise<RunningMock> {
  if (!MOCKS[api.style]) throw new UsageError(`${api.name}: codegen mock does not serve ${api.style} APIs yet`);
  const folder = await mkdtemp(join(await scratchFolder(api.root), 'codegen-mock-'));
  try {
    const seed = settings.seed ?? 1;
    // GraphQL and proto mocks run their handlers in this process (bin/mock-graphql-grpc.ts); the others are a generated mock.ts.
    const inProcess = api.style === 'graphql' || api.style === 'proto';
    const emit = [...new Set([...api.emit, 'types', 'server', ...(inProcess ? [] : ['validators'])] as const)];
    const { handlers: _, ...rest } = api;
    const [set] = await generate([
      { ...rest, emit, output: folder, runtime: undefined, ...(!inProcess && { mock: { seed } }) } as ApiConfig,
    ]);
    if (!set) throw new Error(`${api.name}: nothing generated`);
    await writeModules(folder, set.files);
    const { seed: _seed, ...options } = settings;
    const server = inProcess ? await serveInProcess(api, folder, set.files, { ...options, seed }) : await serveModule(folder, options);
    return {
      api: api.name,
      url: server.url,
      folder,
      warnings: set.warnings ?? [],
      close: async () => {
        await server.close();
        await rm(folder, { recursive: true, force: true });
      },
    };
  } catch (cause) {
    await rm(folder, { recursive: true, force: true });
    throw cause;
  }
}

/** The generated `mock.ts`'s `serveMock` (runtime/mock.ts), as REST and AsyncAPI write it. */
async function serveModule(folder: string, options: Omit<MockSettings, 'seed'>): Promise<{ url: string; close(): Promise<void> }> {
  const module = (await import(pathToFileURL(join(folder, 'mock.js')).href)) as {
    serveMock: (options: Omit<MockSettings, 'seed'>) => Promise<{ url: string; close(): Promise<void> }>;
  };
  return module.serveMock(options);
}

/** GraphQL and proto: the generated server of `folder` with the mock handlers of codegen-ts/mock. */
async function serveInProcess(api: ApiConfig, folder: string, files: { path: string }[], settings: MockSettings & { seed: number }) {
  const { serveGraphQLMock, serveGrpcMock } = await import('./mock-graphql-grpc.js');
  if (api.style === 'graphql') {
    const { buildSchema } = await import('graphql');
    const sdl = await Promise.all(api.inputs.map((input) => readFile(input, 'utf8')));
    return serveGraphQLMock(folder, buildSchema(sdl.join('\n')), settings);
  }
  const pbFiles = files.filter((file) => file.path.endsWith('_pb.ts')).map((file) => file.path.replace(/\.ts$/, '.js'));
  return serveGrpcMock(folder, pbFiles, settings);
}

/**
 * Where the generated modules go: under the project's `node_modules/.cache`, so that the packages
 * they import (ws for WebSocket channels) resolve from the project, as the real output's do.
 */
async function scratchFolder(root: string): Promise<string> {
  for (let folder = resolve(root); ; folder = dirname(folder)) {
    if (existsSync(join(folder, 'node_modules'))) {
      const cache = join(folder, 'node_modules', '.cache');
      await mkdir(cache, { recursive: true });
      return cache;
    }
    if (dirname(folder) === folder) return tmpdir();
  }
}

/** Writes the files as ES modules node runs: `.ts` transpiled to `.js`, declarations left out. */
async function writeModules(folder: string, files: { path: string; content: string }[]): Promise<void> {
  // ts-morph (a dependency already) ships the compiler: loaded only here.
  const { ts } = await import('ts-morph');
  await writeFile(join(folder, 'package.json'), '{ "type": "module" }\n');
  for (const file of files) {
    if (file.path.endsWith('.d.ts')) continue;
    const target = join(folder, file.path.replace(/\.ts$/, '.js'));
    const content = file.path.endsWith('.ts')
      ? ts.transpileModule(file.content, {
          fileName: file.path,
          compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: false },
        }).outputText
      : file.content;
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, content);
  }
}

type Log = { out: (text: string) => void; err: (text: string) => void };

export function mockCommand(log: Log, setExitCode: (code: number) => void): Command {
  return new Command('mock')
    .description('serve a mock of an API: the generated server answering from the schema (examples first, else generated values)')
    .argument('[api]', "an API's name in the config, or a schema file; default: every API of the config")
    .option('-c, --config <file>', 'config file (default: ./codegen.config.*)')
    .addOption(new Option('-p, --port <port>', 'port of the first API (the next ones count up); 0 picks a free one').default('4010'))
    .option('--host <host>', 'interface to listen on', '127.0.0.1')
    .addOption(new Option('--seed <seed>', 'seed of the generated values: the same seed, the same bodies').default('1'))
    .addOption(new Option('--interval <ms>', 'milliseconds between the messages realtime channels send by themselves').default('1000'))
    .exitOverride()
    .action(async (name: string | undefined, options: { config?: string; port: string; host: string; seed: string; interval: string }) => {
      const port = integerOption('--port', options.port);
      const seed = integerOption('--seed', options.seed);
      const intervalMs = integerOption('--interval', options.interval);
      const apis = await mockedApis(name, options.config);
      const running: RunningMock[] = [];
      for (const [index, api] of apis.entries()) {
        const at = port === 0 ? 0 : port + index;
        const mock = await startMock(api, { seed, port: at, host: options.host, intervalMs }).catch(
          async (cause: NodeJS.ErrnoException) => {
            // The mocks already serving would keep the process alive after the error.
            await Promise.all(running.map((started) => started.close()));
            if (cause.code === 'EADDRINUSE')
              throw new UsageError(`${api.name}: port ${at} is in use; choose another with --port (0: any free port)`);
            throw cause;
          },
        );
        running.push(mock);
        for (const warning of mock.warnings) log.err(formatDiagnostic(warning));
        log.out(`codegen mock: ${api.name} (${api.style}) on ${mock.url}`);
      }
      log.out('Ctrl-C stops it.');
      await new Promise<void>((resolve) => process.once('SIGINT', resolve).once('SIGTERM', resolve));
      await Promise.all(running.map((mock) => mock.close()));
      setExitCode(0);
    });
}

async function mockedApis(name: string | undefined, configFile: string | undefined): Promise<ApiConfig[]> {
  if (name !== undefined && !configFile && existsSync(name) && /\.(ya?ml|json)$/i.test(name))
    return inlineConfig(name, join(tmpdir(), 'codegen-mock'), ['types', 'validators', 'server'], undefined, undefined, undefined);
  const file = configFile ?? findConfig(process.cwd());
  if (!file) throw new UsageError('no codegen.config.* in this folder: name a schema file, e.g. `codegen mock api.yaml`');
  const apis = await loadConfig(file);
  if (name !== undefined) {
    const api = apis.find((candidate) => candidate.name === name);
    if (!api) throw new UsageError(`no API named ${JSON.stringify(name)} in ${file}; it has ${apis.map((a) => a.name).join(', ')}`);
    return [api];
  }
  const mocked = apis.filter((api) => MOCKS[api.style]);
  if (mocked.length === 0)
    throw new UsageError(
      `no API of ${file} can be mocked yet (styles: ${Object.keys(MOCKS)
        .filter((s) => MOCKS[s as keyof typeof MOCKS])
        .join(', ')})`,
    );
  return mocked;
}

function integerOption(option: string, text: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0) throw new UsageError(`${option}: expected a whole number, not ${JSON.stringify(text)}`);
  return value;
}
