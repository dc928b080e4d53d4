/**
 * `codegen init [schemas...]`: writes a commented `codegen.config.yaml` with one entry per API,
 * each file's style detected from its content. Without arguments it looks for schemas under the
 * current folder; when there are none it writes a commented example of every style.
 */
import { readdirSync } from 'node:fs';
import { basename, dirname, extname, join, relative, resolve, sep } from 'node:path';
import { UsageError } from '../generators/core/diagnostics.js';
import { detectFile, type DetectedFile } from '../generators/core/config/detect.js';
import type { InputStyle } from '../generators/core/config/input-style.js';

/** One API entry of the config `init` writes. */
interface StarterApi {
  name: string;
  style: InputStyle;
  inputs: string[];
  documents: string[];
  includePaths: string[];
  scalars: string[];
  /** proto files without a service describe messages only: no server or clients. */
  messagesOnly: boolean;
}

/** Folders never searched: dependencies, VCS data, build output, and codegen's usual outputs. */
const SKIPPED_FOLDERS = new Set(['node_modules', 'dist', 'build', 'coverage', 'generated', 'out']);
const MAX_DEPTH = 6;

/** The schemas under `root` (depth-limited, skipping dependencies, hidden folders and build output). */
export function findSchemas(root: string): DetectedFile[] {
  const found: DetectedFile[] = [];
  const walk = (folder: string, depth: number) => {
    const entries = readdirSync(folder, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const path = join(folder, entry.name);
      if (entry.isDirectory()) {
        if (depth < MAX_DEPTH && !SKIPPED_FOLDERS.has(entry.name)) walk(path, depth + 1);
      } else if (entry.isFile() && !/^(package(-lock)?|tsconfig.*|codegen\.config)\.(json|ya?ml)$/.test(entry.name)) {
        const detected = detectFile(path);
        if (detected) found.push(detected);
      }
    }
  };
  walk(root, 0);
  return found;
}

/** Detects each named file; a file that is no schema codegen reads is a usage error. */
export function detectNamed(files: string[], cwd: string): DetectedFile[] {
  return files.map((name) => {
    const file = resolve(cwd, name);
    const detected = detectFile(file);
    if (!detected) {
      throw new UsageError(
        `${name}: not a schema codegen reads; expected an OpenAPI 3.x or AsyncAPI 3 document (.yaml/.yml/.json with an \`openapi:\` or \`asyncapi:\` key), GraphQL SDL or operations (.graphql), or a .proto file`,
      );
    }
    return detected;
  });
}

/** Groups detected files into APIs: one per OpenAPI/AsyncAPI document, per GraphQL schema folder, per proto file with services. */
export function planApis(detected: DetectedFile[], cwd: string): StarterApi[] {
  const apis: StarterApi[] = [];
  const base = { documents: [], includePaths: [], scalars: [], messagesOnly: false };
  for (const file of detected.filter((item) => item.style === 'openapi' || item.style === 'asyncapi')) {
    apis.push({ ...base, name: nameOf(file.file), style: file.style, inputs: [file.file] });
  }
  // GraphQL: the SDL files of one folder are one schema (graphql-codegen merges them the same way).
  const sdlByFolder = new Map<string, DetectedFile[]>();
  for (const file of detected.filter((item) => item.style === 'graphql' && item.role === 'schema')) {
    sdlByFolder.set(dirname(file.file), [...(sdlByFolder.get(dirname(file.file)) ?? []), file]);
  }
  const graphqlApis: StarterApi[] = [];
  for (const [folder, files] of sdlByFolder) {
    const name = files.length === 1 ? nameOf((files[0] as DetectedFile).file) : basename(folder);
    graphqlApis.push({
      ...base,
      name,
      style: 'graphql',
      inputs: files.map((file) => file.file),
      scalars: [...new Set(files.flatMap((file) => file.scalars ?? []))].sort(),
    });
  }
  // Operation documents go to the schema whose folder shares the longest prefix with theirs.
  for (const document of detected.filter((item) => item.role === 'documents')) {
    const owner = [...graphqlApis].sort(
      (a, b) => commonPrefix(b.inputs[0] as string, document.file) - commonPrefix(a.inputs[0] as string, document.file),
    )[0];
    owner?.documents.push(document.file);
  }
  apis.push(...graphqlApis);
  // proto: one API per file with a service (its imports come along). When no file has one, each
  // file is an API of message types, so nothing found is silently dropped.
  const protos = detected.filter((item) => item.style === 'proto');
  const withServices = protos.filter((file) => file.hasService);
  for (const file of withServices.length > 0 ? withServices : protos) {
    apis.push({
      ...base,
      name: nameOf(file.file),
      style: 'proto',
      inputs: [file.file],
      includePaths: [includeRoot(file)],
      messagesOnly: !file.hasService,
    });
  }
  const order: InputStyle[] = ['openapi', 'graphql', 'proto', 'asyncapi'];
  apis.sort((a, b) => order.indexOf(a.style) - order.indexOf(b.style) || ((a.inputs[0] as string) < (b.inputs[0] as string) ? -1 : 1));
  const relativeTo = (path: string) => relative(cwd, path) || '.';
  return uniqueNames(apis).map((api) => ({
    ...api,
    inputs: api.inputs.map(relativeTo),
    documents: api.documents.map(relativeTo),
    includePaths: api.includePaths.map(relativeTo),
  }));
}

/** The include path protoc would be given: the folder above the package's folders (`acme/tasks/v1/x.proto` in package `acme.tasks.v1`). */
function includeRoot(file: DetectedFile): string {
  const folder = dirname(file.file);
  const packagePath = file.protoPackage?.split('.').join(sep);
  return packagePath && folder.endsWith(`${sep}${packagePath}`) ? folder.slice(0, -packagePath.length - 1) : folder;
}

function nameOf(file: string): string {
  const stem = basename(file, extname(file)).replace(/\.(openapi|asyncapi|swagger)$/i, '');
  return stem.replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^-+|-+$/g, '') || 'api';
}

/** Names that would collide (`tasks.yaml`, `tasks.graphql`) take their style as a suffix; then a number. */
function uniqueNames(apis: StarterApi[]): StarterApi[] {
  const count = (name: string) => apis.filter((api) => api.name === name).length;
  const taken = new Set<string>();
  return apis.map((api) => {
    let name = count(api.name) > 1 ? `${api.name}-${api.style}` : api.name;
    for (let n = 2; taken.has(name); n++) name = `${api.name}-${api.style}${n}`;
    taken.add(name);
    return { ...api, name };
  });
}

function commonPrefix(a: string, b: string): number {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return i;
}

const HEADER = `# codegen configuration. \`npx codegen\` generates every API below; \`npx codegen --check\` (in CI)
# fails when committed output is stale; \`npx codegen --watch\` regenerates on every schema change.
# Paths are relative to this file. Every key is checked: a typo is an error, never a silent default.
`;

const STYLE_TITLES: Record<InputStyle, string> = {
  openapi: 'OpenAPI (REST): types, validators, a fetch client and a node:http server',
  graphql: 'GraphQL SDL: types, typed resolvers and a server; with operation documents, a typed client',
  proto: 'Protocol Buffers (gRPC): messages, a server for gRPC, gRPC-Web and Connect on one port, Node and browser clients',
  asyncapi: 'AsyncAPI 3 (SSE and WebSocket): typed message types, validators, a server and a client per channel',
};

const EMIT: Record<InputStyle, string> = {
  openapi: '[types, validators, client, server]',
  graphql: '[types, client, server]',
  proto: '[types, client, server]',
  asyncapi: '[types, validators, client, server]',
};

/** The config text for the APIs found (paths already relative to the config's folder). */
export function starterConfig(apis: StarterApi[]): string {
  if (apis.length === 0) return HEADER + EXAMPLE;
  const entries = apis.map((api, index) => entry(api, index === 0));
  return `${HEADER}apis:\n${entries.join('\n')}`;
}

function entry(api: StarterApi, first: boolean): string {
  const lines = [`  # ${STYLE_TITLES[api.style]}.`, `  - name: ${yamlString(api.name)}`];
  lines.push(
    api.inputs.length === 1
      ? `    input: ${yamlString(slash(api.inputs[0] as string))}`
      : `    input:\n${api.inputs.map((file) => `      - ${yamlString(slash(file))}`).join('\n')}`,
  );
  if (api.style === 'graphql') {
    if (api.documents.length > 0) {
      lines.push('    # Operations (queries, mutations, subscriptions) the typed client is generated for.');
      lines.push(`    documents:\n${api.documents.map((file) => `      - ${yamlString(slash(file))}`).join('\n')}`);
    } else {
      lines.push('    # Files or folders of .graphql operations; the typed client is generated for them.', '    # documents: src/graphql');
    }
  }
  if (first) {
    lines.push(
      "    # codegen's folder: generated files it no longer produces are removed; files you add",
      '    # there yourself are never touched.',
    );
  }
  lines.push(`    output: ${yamlString(`src/generated/${api.name}`)}`);
  if (api.messagesOnly) {
    lines.push('    # This file declares no service: messages only.', '    emit: [types]');
  } else {
    lines.push(`    emit: ${EMIT[api.style]}`);
    const what = { openapi: 'operation', graphql: 'root field', proto: 'rpc', asyncapi: 'message the server receives' }[api.style];
    lines.push(`    # Yours: written once with a stub per ${what}, then only added to.`);
    lines.push(`    handlers: ${yamlString(`src/${api.name}.${api.style === 'graphql' ? 'resolvers' : 'handlers'}.ts`)}`);
  }
  const options: string[] = [];
  if (api.style === 'proto') {
    options.push(
      "      # Folders imports are resolved against, like protoc's -I.",
      `      includePaths: [${api.includePaths.map((path) => yamlString(slash(path))).join(', ')}]`,
    );
  }
  if (api.style === 'graphql' && api.scalars.length > 0) {
    options.push('      # The TypeScript type of each custom scalar: string, number, boolean, unknown or a JSON Schema.', '      scalars:');
    options.push(
      ...api.scalars.map((scalar) => `        ${scalar}: ${/date|time|uuid|url|uri|email|id/i.test(scalar) ? 'string' : 'unknown'}`),
    );
  }
  if (options.length > 0) lines.push('    options:', ...options);
  if (first)
    lines.push(
      '    # A folder of .hbs files replacing built-in templates of the same path (e.g. partials/header.hbs).',
      '    # templates: codegen-templates',
    );
  return `${lines.join('\n')}\n`;
}

const EXAMPLE = `# No schema was found in this folder: uncomment the entry of your API's style and point \`input\`
# at your schema (or run \`npx codegen init <schema files...>\` to have it written for you).
apis:
  # OpenAPI 3.x (REST): types, validators, a fetch client and a node:http server.
  # - name: tasks
  #   input: schemas/tasks.yaml
  #   output: src/generated/tasks          # codegen's folder; files you add there are never touched
  #   emit: [types, validators, client, server]
  #   handlers: src/tasks.handlers.ts      # yours: written once with a stub per operation

  # GraphQL SDL (+ operation documents for the typed client).
  # - name: graph
  #   input: schemas/schema.graphql
  #   documents: src/graphql
  #   output: src/generated/graph
  #   emit: [types, client, server]
  #   handlers: src/graph.resolvers.ts
  #   options:
  #     scalars: { DateTime: string }

  # Protocol Buffers: gRPC, gRPC-Web and Connect from one server; Node and browser clients.
  # - name: grpc
  #   input: proto/acme/tasks/v1/tasks.proto
  #   output: src/generated/grpc
  #   emit: [types, client, server]
  #   handlers: src/grpc.handlers.ts
  #   options:
  #     includePaths: [proto]

  # AsyncAPI 3: SSE feeds and WebSocket channels.
  # - name: realtime
  #   input: schemas/realtime.asyncapi.yaml
  #   output: src/generated/realtime
  #   emit: [types, validators, client, server]
  #   handlers: src/realtime.handlers.ts
`;

function slash(path: string): string {
  return path.split(sep).join('/');
}

/** A YAML plain scalar when safe, else a double-quoted one. */
function yamlString(value: string): string {
  return /^[A-Za-z0-9_./-]+$/.test(value) && !/^[-.]/.test(value) ? value : JSON.stringify(value);
}
