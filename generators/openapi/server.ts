/**
 * The REST server of an API, on `node:http` with no dependencies:
 * - `server.ts`: per operation a request type and a result type; the typed handlers interface;
 *   `createServer(handlers, options)` returning a listener for `http.createServer`, Express or Connect.
 * - `server-routes.ts`: the data the runtime serves from, written out once: each operation's spec
 *   (parameters, validators, responses) and the static route tree over them. A table nobody edits,
 *   so with `validators: js` it is `server-routes.js` + `.d.ts` like the validators: a project's
 *   `tsc` reads one declaration instead of checking ~1,000 object literals (most of server.ts's
 *   check on GitHub's API).
 * - `server-validators.ts`: validators of each operation's parameters by location (and of inline
 *   bodies), emitted by the shared validator emitter; named schemas stay in `validators.ts`.
 * - `runtime/server.ts`, `server-input.ts`, `server-output.ts`: the core (routing, parsing,
 *   limits, problems), and `runtime/server-types.ts`, its contract with the convention stages
 *   (`runtime/{cors,rate-limit,auth,idempotency,conditional,store}.ts`; `cors.ts`
 *   over `cors-policy.ts`, the CORS every style shares), all
 *   copied as they are, like every runtime module the output imports (core/pipeline/runtime-files.ts).
 *
 * Needs `types.ts` (and `validators.ts` when the API has schemas) beside it. A document without
 * operations gets no server. Each file is printed through a FileBuilder: every type, validator
 * and runtime name imports itself where printed, and server.ts re-exports the `@public` API of
 * its runtime modules (REEXPORTED_MODULES), so users import everything from it.
 *
 * Shape of the generated API (see templates/openapi/server.ts.hbs):
 *
 * ```ts
 * const handlers: TasksApiHandlers = {
 *   async getTask({ taskId }, context) {
 *     const task = await db.find(taskId);
 *     if (!task) throw new HttpProblem(404, "Not Found");
 *     return { status: 200, body: task };
 *   },
 *   ...
 * };
 * http.createServer(createServer(handlers, { auth: { verify } })).listen(8080);
 * ```
 */
import type { TypeEmitter } from '../core/emit/types/emit.js';
import { emitSchemaValidators, type ValidatorCode } from '../core/emit/validators/emit.js';
import { jsModuleFiles, type ModuleText } from '../core/emit/module-files.js';
import type { ExternalValidator } from '../core/emit/validators/module.js';
import type { ApiModel, SecurityScheme } from './model.js';
import type { JsonSchema, SchemaObject } from '../core/schema/json-schema.js';
import { FileBuilder, runtimeSymbol, symbol, typeSymbol, type ImportSymbol } from '../core/builder/file.js';
import {
  apiBaseName,
  jsDoc,
  jsDocLines,
  objectKey,
  objectProperty,
  propertyAccess,
  propertyKey,
  stringLiteral,
  uniqueName,
} from '../core/builder/names.js';
import type { GeneratedFile } from '../core/pipeline/output.js';
import { refName } from '../core/schema/json-schema.js';
import type { TemplateRenderer } from '../core/pipeline/templates.js';
import type { OperationInfo, OperationsInfo } from './operation-types.js';
import { ServerOperations, type ServerNames } from './server-operations.js';
import { routeLiteral, routeTree } from './server-routes.js';
import type { ServerContext, ModuleContext } from './template-context.js';

export interface ServerEmitOptions {
  /** Input file, for the generated header. */
  source: string;
  /** Whether `validators.ts` is generated beside the server. */
  validators: boolean;
  /** The API's `options.validators`: server-validators as `.ts`, or as `.js` + `.d.ts`. */
  language?: 'ts' | 'js';
  /**
   * The API's `options.redis`: server.ts also re-exports `runtime/redis-store.ts` (`RedisStore`,
   * the `Store` that instances share through Redis), which brings that module into the output.
   */
  redis?: boolean;
}

/**
 * The runtime modules whose public API (`@public` exports) server.ts re-exports, so users import
 * everything from it; `redis-store` too with `options.redis`.
 */
const REEXPORTED_MODULES = ['server', 'store', 'conditional', 'auth', 'server-types', 'mount-fetch', 'mount-fastify', 'mount-koa'];
/** Global names the type emitter's expressions may print, which imports must not shadow. */
const GLOBALS = ['Record', 'Promise', 'Uint8Array', 'File', 'Blob'];

export function emitServer(
  model: ApiModel,
  types: TypeEmitter,
  described: OperationsInfo,
  templates: TemplateRenderer,
  options: ServerEmitOptions,
): GeneratedFile[] {
  // A document without operations (webhooks only) has nothing to serve.
  if (model.operations.length === 0) return [];
  const { server, file, tables, validators } = serverContext(model, types, described, options);
  // The template's own code names the runtime exports it uses ({{runtime}}), imported through `file`.
  const files: GeneratedFile[] = [{ path: 'server.ts', content: templates.render('openapi/server.ts.hbs', server, file) }];
  // Same shape as validators.ts (imports, then code): the same template renders them.
  const render = (text: ModuleText) =>
    templates.render('openapi/module.ts.hbs', { source: options.source, ...text } satisfies ModuleContext);
  files.push(...jsModuleFiles('server-routes', tables.file, tables, render));
  if (validators) files.push(...jsModuleFiles('server-validators', validators.file, validators.result, render, validators.types));
  return files;
}

/** server-routes: its builder, its code and, as `.js` + `.d.ts`, the declaration of `routes`. */
interface ServerTables {
  file: FileBuilder;
  code: string;
  declarations?: string;
}

const ROUTES_DOC = '/** The routes by path segment: literal segments first, then `{parameter}` segments. */';

/**
 * `operations` (one spec per handler) and `routes` (the tree over them). As `.ts` the table is
 * declared with its type, not `satisfies`: the checker then keeps no literal type of the whole
 * table. As `.js` the `.d.ts` declares `routes` alone, all that server.ts reads.
 */
function serverTables(file: FileBuilder, specs: string[], routes: string, handlersType: string, language: 'ts' | 'js'): ServerTables {
  const routeNode = file.use(runtimeSymbol('RouteNode', 'server'));
  const table = (type: string) =>
    [
      '/** What the runtime needs to know of each operation to serve it, by handler name. */',
      `const operations${type} = {`,
      ...specs,
      '};',
    ].join('\n');
  if (language === 'js')
    return {
      file,
      code: `${table('')}\n\n${ROUTES_DOC}\nexport const routes = ${routes};`,
      declarations: `${ROUTES_DOC}\nexport declare const routes: ${routeNode};`,
    };
  const handlers = file.use(typeSymbol(handlersType, './server'));
  const spec = file.use(runtimeSymbol('OperationSpec', 'server'));
  return {
    file,
    code: `${table(`: Record<keyof ${handlers}, ${spec}>`)}\n\n${ROUTES_DOC}\nexport const routes: ${routeNode} = ${routes};`,
  };
}

/** Names in server.ts that user code refers to (the handler scaffold types its object with them). */
export function serverTypeNames(model: ApiModel): { handlers: string; options: string } {
  const base = apiBaseName(model.title);
  return { handlers: `${base}Handlers`, options: `${base}ServerOptions` };
}

/** The path prefixes of the document's servers: `https://api.example.com/v1` → `/v1`. */
export function basePaths(servers: ApiModel['servers']): string[] {
  const paths = servers.map(({ url }) => {
    const path = url
      .replace(/^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/]*/, '')
      .split(/[?#]/, 1)[0]
      .replace(/\/+$/, '');
    // A path with `{variables}` cannot be matched literally: serve at the root instead.
    if (path.includes('{') || (path !== '' && !path.startsWith('/'))) return '';
    return path;
  });
  const unique = [...new Set(paths.length ? paths : [''])];
  return unique.sort((a, b) => b.length - a.length || (a < b ? -1 : 1));
}

/** server-validators: the module's builder, its validators and the types they narrow to. */
interface ServerValidators {
  file: FileBuilder;
  result: ValidatorCode;
  types: string;
}

/**
 * server-validators.ts: each validator narrows to a type declared beside it (`ListProjectsQuery`,
 * the parameters of one location by their wire names), written by the type emitter from the
 * same schema, so `validateX(value)` is a `ValidationResult<X>` like those of validators.ts.
 */
function typedValidators(
  roots: Array<{ name: string; schema: JsonSchema }>,
  types: TypeEmitter,
  known: ReadonlyMap<string, ImportSymbol>,
  shared: ReadonlyMap<object, ExternalValidator> | undefined,
  language: 'ts' | 'js',
): ServerValidators {
  const file = new FileBuilder(
    'server-validators.ts',
    roots.map(({ name }) => name),
  );
  const declarations = roots.map(({ name, schema }) => {
    const { $defs: _defs, ...own } = schema as SchemaObject;
    return `export type ${name} = ${file.rewrite(types.typeOf(own, 'write'), known)};`;
  });
  // The API's named schemas are checked by validators.ts (when it is generated): called, not copied.
  const external = shared ? (schema: object) => shared.get(schema) : undefined;
  const calls = shared ? [...shared.values()].flatMap(({ is, validate }) => [is, validate]) : [];
  const typeNames = [...file.names(), ...calls];
  const result = emitSchemaValidators(
    roots.map((root) => ({ ...root, type: root.name })),
    { ...(external ? { external } : {}), file, language },
    typeNames,
  );
  return { file, result, types: declarations.join('\n\n') };
}

function serverContext(
  model: ApiModel,
  types: TypeEmitter,
  described: OperationsInfo,
  options: ServerEmitOptions,
): { server: ServerContext; file: FileBuilder; tables: ServerTables; validators?: ServerValidators } {
  const { operations: infos, statusType } = described;
  const base = apiBaseName(model.title);
  const { handlers: handlersType, options: optionsType } = serverTypeNames(model);

  const known = new Map<string, ImportSymbol>();
  for (const { name } of model.schemas)
    for (const type of [types.typeName(name, 'read'), types.typeName(name, 'write')]) known.set(type, typeSymbol(type, './types'));
  known.set(statusType, typeSymbol(statusType, './types'));
  const ownNames = [handlersType, optionsType, 'BASE_PATHS', 'createServer', 'securitySchemes'];
  const file = new FileBuilder('server.ts', [...ownNames, ...GLOBALS]);
  // The specs' validators are imported where the specs are printed: server-routes.
  const tablesFile = new FileBuilder('server-routes.ts', ['operations', 'routes', ...GLOBALS]);
  const reexported = file
    .reexportRuntime(...REEXPORTED_MODULES, ...(options.redis ? ['redis-store'] : []))
    .map((exported) => exported.name);

  const schemaNames = new Set(model.schemas.map(({ name }) => name));
  // `isX`/`validateX` suffixes validators.ts already uses.
  const takenSuffixes = new Set(model.schemas.flatMap(({ name }) => [types.typeName(name, 'read'), types.typeName(name, 'write')]));
  const roots: Array<{ name: string; schema: JsonSchema }> = [];
  // Parameter schemas are validated in their own documents, whose `$defs` are the API's schemas.
  const defs = Object.fromEntries(model.schemas.map(({ name, schema }) => [name, schema]));

  const names: ServerNames = {
    type: (expression) => file.rewrite(expression, known),
    schemaValidator(schema, direction) {
      const name = typeof schema === 'object' && schema.$ref ? refName(schema.$ref) : undefined;
      if (!options.validators || name === undefined || !schemaNames.has(name)) return undefined;
      return tablesFile.use(symbol(`validate${types.typeName(name, direction)}`, './validators'));
    },
    ownValidator(suffix, schema) {
      const name = uniqueName(suffix, takenSuffixes);
      const root: SchemaObject =
        typeof schema === 'object' ? { ...schema, $defs: defs } : schema ? { $defs: defs } : { not: {}, $defs: defs };
      roots.push({ name, schema: root });
      return tablesFile.use(symbol(`validate${name}`, './server-validators'));
    },
    runtime: (name) => file.use(runtimeSymbol(name, 'server')),
  };

  const reserved = [
    ...file.names(),
    ...reexported,
    ...known.keys(),
    ...infos.flatMap((info) => [info.paramsType, info.responseType, info.errorType]),
  ];
  const emitter = new ServerOperations(model, types, names, reserved);
  const operations = infos.map((info) => emitter.describe(info));
  for (const operation of operations) file.reserve(operation.requestType, operation.resultType);

  const tree = routeTree(
    operations.map(({ info }) => ({
      method: info.operation.method,
      path: info.operation.path,
      spec: propertyAccess('operations', info.method),
    })),
  );
  const schemes = Object.entries(model.securitySchemes).filter(([, scheme]) => scheme.type !== 'mutualTLS');

  const shared = options.validators
    ? new Map(
        model.schemas
          .filter(({ schema }) => typeof schema === 'object')
          .map(({ name, schema }): [object, ExternalValidator] => {
            const type = types.typeName(name, 'write');
            return [schema as object, { is: `is${type}`, validate: `validate${type}` }];
          }),
      )
    : undefined;
  const language = options.language ?? 'ts';
  const validators = roots.length ? typedValidators(roots, types, known, shared, language) : undefined;
  const specs = operations.map((operation) => operation.spec);
  const tables = serverTables(tablesFile, specs, routeLiteral(tree), handlersType, language);

  const example = exampleOf(operations.map((operation) => operation.info));
  const securitySchemes = schemes.map(([name, scheme]) => `  ${objectKey(name)}: ${schemeLiteral(scheme)},`);
  return {
    validators,
    file,
    tables,
    server: {
      source: options.source,
      doc: jsDoc([
        [
          `The REST server of ${model.title}${model.version ? ` ${model.version}` : ''}, on node:http. Routing, parameter parsing, validation and`,
          'Problem Details errors are generated; CORS, rate limits, auth, idempotency and conditional',
          'requests run around the handlers you write (`' + handlersType + '`).',
        ].join('\n'),
      ]).trimEnd(),
      basePaths: `[${basePaths(model.servers).map(stringLiteral).join(', ')}]`,
      requests: operations.map((operation) => operation.requestDeclaration),
      results: operations.map((operation) => operation.resultDeclaration),
      handlersType,
      handlersDoc: jsDoc([
        [
          `The operations of ${model.title}, one method each: \`request\` holds the parameters and body, parsed and`,
          'validated; the result is a declared status with its body and headers. Throw an `HttpProblem` for',
          'any other error (anything else thrown becomes a 500 without internal details in production).',
          '`Context` is what `options.context` returns, `RequestContext` by default.',
        ].join('\n'),
      ]).trimEnd(),
      members: operations.map((operation) => operation.member),
      optionsType,
      securitySchemes,
      routes: objectProperty('routes', file.use(symbol('routes', './server-routes'))),
      apiName: base,
      createExample: example && createExample(handlersType, example, schemes.length > 0),
    },
  };
}

function schemeLiteral(scheme: SecurityScheme): string {
  switch (scheme.type) {
    case 'http':
      return `{ type: "http", scheme: ${stringLiteral(scheme.scheme ?? 'bearer')}${scheme.bearerFormat ? `, bearerFormat: ${stringLiteral(scheme.bearerFormat)}` : ''} }`;
    case 'apiKey':
      return `{ type: "apiKey", in: ${stringLiteral(scheme.in ?? 'header')}, name: ${stringLiteral(scheme.name ?? '')} }`;
    default:
      return `{ type: ${stringLiteral(scheme.type)} }`;
  }
}

function exampleOf(infos: OperationInfo[]): OperationInfo | undefined {
  return (
    infos.find((info) => info.operation.method === 'get' && info.parameters.some(({ parameter }) => parameter.in === 'path')) ?? infos[0]
  );
}

/** `createServer`'s example as JSDoc lines: a handler of `example`, then the listener served. */
function createExample(handlersType: string, example: OperationInfo, secured: boolean): string {
  const ok = example.success.find((item) => item.code !== undefined && item.code < 300);
  const args = example.parameters.filter(({ parameter }) => parameter.in === 'path').map(({ key }) => propertyKey(key));
  const lines = [
    `const handlers: ${handlersType} = {`,
    `  async ${example.method}(${args.length ? `{ ${args.join(', ')} }` : 'request'}, context) {`,
    `    return { status: ${ok?.code ?? 200}${ok && ok.type !== 'undefined' ? ', body: await load(...)' : ''} };`,
    '  },',
    '  // ...one method per operation',
    '};',
    secured
      ? 'const listener = createServer(handlers, { auth: { verify: async (credentials) => findUser(credentials) } });'
      : 'const listener = createServer(handlers);',
    'http.createServer(listener).listen(8080);',
  ];
  return jsDocLines([lines.join('\n')]).trimEnd();
}
