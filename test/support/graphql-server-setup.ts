/**
 * The generated GraphQL server of schemas/graphql/tasks.graphql, written to a folder with the user
 * code of graphql-server-usage.ts, transpiled and imported; plus small HTTP and WebSocket helpers.
 *
 * Until the `types` and `operations` plugins write their files (other work in progress), this
 * folder gets stand-ins: a `types.ts` with a loose `Resolvers<Context>` and an `operations.ts`
 * whose `persistedOperations` are computed here the way the contract says (SHA-256 of the
 * operation's text with the fragments it uses).
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { Kind, parse, print, stripIgnoredCharacters, visit, type DefinitionNode, type FragmentDefinitionNode } from 'graphql';
import { transpileFolder, writeFiles } from './client-generate.js';
import { ROOT } from './cli.js';
import { generateGraphQLFiles } from './generate.js';

export const SCHEMA = 'schemas/graphql/tasks.graphql';
export const OPERATIONS = 'schemas/graphql/operations';
const OPERATIONS_FILE = join(ROOT, OPERATIONS, 'tasks.graphql');

export interface GraphQLServerHandle {
  readonly listener: (request: unknown, response: unknown, next?: (error?: unknown) => void) => void;
  handleUpgrade(request: unknown, socket: unknown, head: Buffer): boolean;
  attach(server: Server): void;
  close(): Promise<void>;
}

export interface UsageModule {
  calls: string[];
  errors: unknown[];
  publish(change: { kind: string; task: Record<string, unknown> }): void;
  subscriberCount(): number;
  server(options?: Record<string, unknown>): GraphQLServerHandle;
}

/** Stand-in for operations.ts: id → text of each operation of the example documents. */
export function examplePersistedOperations(): Record<string, string> {
  const document = parse(readFileSync(OPERATIONS_FILE, 'utf8'));
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions)
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  const operations: Record<string, string> = {};
  for (const definition of document.definitions) {
    if (definition.kind !== Kind.OPERATION_DEFINITION) continue;
    const used: DefinitionNode[] = [];
    const seen = new Set<string>();
    const collect = (node: DefinitionNode) =>
      visit(node, {
        FragmentSpread(spread) {
          if (seen.has(spread.name.value)) return;
          seen.add(spread.name.value);
          const fragment = fragments.get(spread.name.value)!;
          used.push(fragment);
          collect(fragment);
        },
      });
    collect(definition);
    // Compacted, as operations.ts sends it.
    const text = stripIgnoredCharacters([definition, ...used].map((node) => print(node)).join('\n'));
    operations[createHash('sha256').update(text).digest('hex')] = text;
  }
  return operations;
}

/** The text of the example operation named `name`, as registered. */
export function exampleOperation(name: string): { id: string; text: string } {
  const entry = Object.entries(examplePersistedOperations()).find(([, text]) => text.includes(`${name}(`) || text.includes(`${name}{`));
  if (!entry) throw new Error(`no operation ${name}`);
  return { id: entry[0], text: entry[1] };
}

const TYPES_STAND_IN = `import type { GraphQLFieldResolver, GraphQLScalarType, GraphQLTypeResolver } from "graphql";
type FieldResolvers<Context> = Record<string, GraphQLFieldResolver<unknown, Context, never> | { subscribe: GraphQLFieldResolver<unknown, Context, never>; resolve?: GraphQLFieldResolver<unknown, Context, never> }>;
export interface Resolvers<Context> {
  [type: string]: FieldResolvers<Context> | { __resolveType: GraphQLTypeResolver<unknown, Context> } | GraphQLScalarType | undefined;
}
`;

export interface GeneratedServer {
  folder: string;
  usage: UsageModule;
  /** Whether types.ts / operations.ts are stand-ins (their plugins are not written yet). */
  standIns: { types: boolean; operations: boolean };
}

/** Generates, writes, transpiles and imports the example server into `.vitest-tmp/<name>`. */
export async function generatedServer(name: string, usageSource: string): Promise<GeneratedServer> {
  const folder = join(ROOT, '.vitest-tmp', name);
  const files = await generateGraphQLFiles(SCHEMA, [OPERATIONS], ['types', 'server']);
  writeFiles(folder, files);
  const types = files.find((file) => file.path === 'types.ts');
  const operations = files.find((file) => file.path === 'operations.ts');
  const standIns = { types: !types?.content.includes('Resolvers<'), operations: !operations?.content.includes('persistedOperations') };
  if (standIns.types) writeFileSync(join(folder, 'types.ts'), TYPES_STAND_IN);
  if (standIns.operations) {
    writeFileSync(
      join(folder, 'operations.ts'),
      `export const persistedOperations: Readonly<Record<string, string>> = ${JSON.stringify(examplePersistedOperations(), null, 2)};\n`,
    );
  }
  writeFileSync(join(folder, 'usage.ts'), usageSource);
  transpileFolder(folder);
  const usage = loadNatively(join(folder, 'usage.js')) as UsageModule;
  return { folder, usage, standIns };
}

/**
 * Loads an ES module by Node itself (`require(esm)`), as a user's app would, not through vitest's
 * module runner: the runner resolves `graphql` to its ESM build while graphql-http, loaded
 * natively, gets the CommonJS one, and two copies of graphql share no `instanceof GraphQLError`.
 */
const loadNatively = createRequire(import.meta.url);

export interface Running {
  url: string;
  port: number;
  server: Server;
  close(): Promise<void>;
}

/** `graphql` served on 127.0.0.1 at a free port, WebSockets attached. */
export async function serve(graphql: GraphQLServerHandle): Promise<Running> {
  const server = createServer(graphql.listener as Parameters<typeof createServer>[0] & {});
  graphql.attach(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/graphql`,
    port,
    server,
    close: async () => {
      await graphql.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export interface GraphQLAnswer {
  status: number;
  contentType: string | null;
  body: {
    data?: Record<string, unknown> | null;
    errors?: Array<{ message: string; path?: unknown[]; locations?: unknown; extensions?: Record<string, unknown> }>;
  } & Record<string, unknown>;
}

/** POSTs `body` as JSON (or GETs with `search`), and reads the JSON answer. */
export async function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<GraphQLAnswer> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, contentType: response.headers.get('content-type'), body: JSON.parse(await response.text()) };
}

export async function get(url: string, search: Record<string, string>, headers: Record<string, string> = {}): Promise<GraphQLAnswer> {
  const response = await fetch(`${url}?${new URLSearchParams(search)}`, { headers: { accept: 'application/json', ...headers } });
  const text = await response.text();
  return { status: response.status, contentType: response.headers.get('content-type'), body: text ? JSON.parse(text) : {} };
}
