/**
 * The typed REST client of an API: `client.ts`, `createClient(options)` with one method per
 * operation, `runtime/http.ts`, the fetch-based runtime it runs on (copied as is; no dependencies),
 * the runtime's optional features, each in its own module so that a bundle holds only the ones it
 * uses (`http-styles.ts`, `http-forms.ts`, `http-paginate.ts` when an operation needs them;
 * `http-cache.ts`), and, with validators, `response-validators.ts`: the map the user passes as
 * `validateResponses`. The client never imports validators itself, so they are bundled only when
 * response validation is used. Both are printed through a FileBuilder: every type, validator and
 * runtime name imports itself where printed, and client.ts re-exports the `@public` API of its
 * runtime modules (REEXPORTED_MODULES).
 *
 * Shape of the generated API (see templates/openapi/client.ts.hbs):
 * - `createClient(options?)` — an object typed by the interface named after the API title
 *   (`TasksApiClient`); `options` holds the base URL (default: the first server), credentials per
 *   security scheme, fetch, headers, middleware, timeout, retries, the ETag cache and response
 *   validation. A factory, as in every style of codegen's clients (and Connect, openapi-fetch,
 *   hey-api): the result is a plain typed object, built at run time from the `<method>Operation`
 *   descriptions (`runtime/http-client-methods.ts`) and typed by the interface, so a project's tsc
 *   checks no method body.
 * - `client.getTask({ taskId }, { signal })` — one params object (path, query, header and cookie
 *   parameters by camelCase name, plus `body`), then per-call options. The params object is left
 *   out when the operation has none, and optional when none of its members is required.
 * - Methods return an `ApiPromise`: awaited, the 2xx body (`void` for 204);
 *   `.withResponse()` gives `{ status, headers, data }` typed per status.
 * - Non-2xx answers throw `ApiError`; `isApiError(error, 'getTask')` narrows it to that operation's
 *   error responses, so `error.status === 404` types `error.data`.
 * - Paginated operations also get `listProjectTasksAll(params)`: an async iterator over every item.
 * - Each operation's description is its own exported constant, `getTaskOperation`, typed with its
 *   params and responses: `createHttpClient(options).call(getTaskOperation, { taskId })` sends it
 *   as the method does, and a bundle then holds only the descriptions the app names
 *   (`createClient` names them all).
 */
import type { TypeEmitter } from '../core/emit/types/emit.js';
import type { ApiModel, Operation, SecurityScheme } from './model.js';
import type { JsonSchema } from '../core/schema/json-schema.js';
import { FileBuilder, runtimeSymbol, symbol, typeSymbol, type ImportSymbol, type Printable } from '../core/builder/file.js';
import { apiBaseName, jsDoc, jsDocLines, objectKey, propertyKey, stringLiteral } from '../core/builder/names.js';
import type { GeneratedFile } from '../core/pipeline/output.js';
import { refName } from '../core/schema/json-schema.js';
import type { TemplateRenderer } from '../core/pipeline/templates.js';
import { isJsonMediaType, type OperationInfo, type OperationsInfo, type ResponseCase } from './operation-types.js';
import type { ClientContext, ResponseValidatorsContext, ModuleContext } from './template-context.js';
import { jsModuleFiles, type ModuleText } from '../core/emit/module-files.js';

export interface ClientEmitOptions {
  /** Input file, for the generated header. */
  source: string;
  /** Whether `validators.ts` is generated: then `response-validators.ts` is written from it. */
  validators: boolean;
  /** The API's `options.validators`: the operation descriptions as `.ts`, or as `.js` + `.d.ts`. */
  language?: 'ts' | 'js';
}

/** The runtime modules whose public API (`@public` exports) `client.ts` re-exports, so users need only import the client. */
const REEXPORTED_MODULES = ['http', 'client-common', 'http-cache', 'http-validation'];
/** Global names the type emitter's expressions may print, which imports must not shadow. */
const GLOBALS = ['Headers', 'Blob', 'Promise', 'AsyncIterableIterator', 'NonNullable'];

const MAX_LINE = 100;

/**
 * What `emitClient` reads, as a key: the operations as described (names, types as text, and the
 * operations themselves), the document's title, version, description, servers and security, the
 * options, and `schemasKey` — the schemas' names, type names and shapes without annotations
 * (core/emit/validators/key.ts), all the client reads of them (type names, `mayBeObject`).
 */
export function clientKey(model: ApiModel, described: OperationsInfo, options: ClientEmitOptions, schemasKey: string): string {
  const { title, version, description, servers, securitySchemes, security } = model;
  return JSON.stringify([options, title, version, description ?? null, servers, securitySchemes, security, described, schemasKey]);
}

export function emitClient(
  model: ApiModel,
  types: TypeEmitter,
  described: OperationsInfo,
  templates: TemplateRenderer,
  options: ClientEmitOptions,
): GeneratedFile[] {
  const { client, file, operations, responseValidators } = clientContext(model, types, described, options);
  // The template's own code names the runtime exports it uses ({{runtime}}), imported through `file`.
  const files = [{ path: 'client.ts', content: templates.render('openapi/client.ts.hbs', client, file) }];
  if (operations) {
    // Imports, then code, like the validator modules: the same template renders it.
    const render = (text: ModuleText) =>
      templates.render('openapi/module.ts.hbs', { source: options.source, ...text } satisfies ModuleContext);
    files.push(...jsModuleFiles('client-operations', operations.file, operations, render));
  }
  if (responseValidators) files.push(...responseValidatorsFiles(responseValidators, templates, options));
  return files;
}

function clientContext(
  model: ApiModel,
  types: TypeEmitter,
  described: OperationsInfo,
  options: ClientEmitOptions,
): { client: ClientContext; file: FileBuilder; operations?: OperationsModule; responseValidators?: ResponseValidatorsModule } {
  const infos = described.operations;
  const base = apiBaseName(model.title);
  /** The interface of `createClient`'s object, named after the API (`TasksApiClient`). */
  const clientName = `${base}Client`;
  const optionsType = `${base}ClientOptions`;
  const credentialsType = `${base}Credentials`;
  const errorsType = `${base}Errors`;
  const schemes = Object.entries(model.securitySchemes).filter(([, scheme]) => scheme.type !== 'mutualTLS');
  const hasOperations = infos.length > 0;

  const file = new FileBuilder('client.ts', [
    clientName,
    optionsType,
    credentialsType,
    errorsType,
    'DEFAULT_BASE_URL',
    'isApiError',
    'createClient',
    'createHttpClient',
    'securitySchemes',
    'operations',
    ...GLOBALS,
  ]);
  file.reexportRuntime(...REEXPORTED_MODULES);
  const known = new Map<string, ImportSymbol>();
  for (const { name } of model.schemas)
    for (const type of [types.typeName(name, 'read'), types.typeName(name, 'write')]) known.set(type, typeSymbol(type, './types'));
  for (const info of infos)
    for (const name of [info.paramsType, info.responseType, info.errorType]) known.set(name, typeSymbol(name, './types'));
  const local = (type: string): string => file.rewrite(type, known);

  const securitySchemes = schemes.map(([name, scheme]) => file.code`  ${objectKey(name)}: ${schemeLiteral(scheme)},`);
  // The descriptions live in client-operations (client.ts imports and re-exports them): data nobody
  // edits, which with `validators: js` a project's tsc reads as one declaration each.
  const operationsFile = new FileBuilder('client-operations.ts', [...infos.map(operationConstant), ...GLOBALS]);
  const specs = infos.map((info) => operationSpec(info, model, operationsFile, (type) => operationsFile.rewrite(type, known)));
  const operations = hasOperations ? operationsModule(operationsFile, specs, options.language ?? 'ts') : undefined;
  const methods = infos.flatMap((info) => operationMethods(info, file, local));
  const errors = infos.map((info) => `  ${propertyKey(info.method)}: ${local(info.errorType)};`);
  const server = model.servers[0]?.url;
  const example = docExample(model, infos);
  const credentials = schemes.length
    ? { name: credentialsType, members: schemes.map(([name, scheme]) => credentialMember(name, scheme, file)) }
    : undefined;

  const client: ClientContext = {
    source: options.source,
    defaultBaseUrl: server === undefined ? undefined : stringLiteral(server),
    serverDoc:
      server === undefined
        ? undefined
        : jsDoc([
            `Base URL of the API's first server${model.servers[0].description ? ` (${model.servers[0].description})` : ''}.`,
          ]).trimEnd(),
    credentials,
    securitySchemes,
    optionsType,
    clientName,
    createDoc: createDoc(model, example),
    httpClientExample:
      example &&
      exampleLines([
        `const http = createHttpClient(${example.options});`,
        `const result = await http.call(${[operationConstant(example.info), example.params].filter(Boolean).join(', ')});`,
      ]),
    operationsModule: hasOperations,
    methods,
    paginated: infos.some((info) => info.iterator),
    httpDefaults:
      `{ ${[server === undefined ? '' : 'baseUrl: DEFAULT_BASE_URL', schemes.length ? 'securitySchemes' : ''].filter(Boolean).join(', ')} }`.replace(
        '{  }',
        '{}',
      ),
    errorsType,
    errors,
    isApiErrorExample: isApiErrorExample(infos),
    hasOperations,
  };
  return {
    client,
    file,
    ...(operations ? { operations } : {}),
    responseValidators: responseModuleContext(model, types, infos, options),
  };
}

/** client-operations: its builder, its code and, as `.js` + `.d.ts`, its declarations. */
interface OperationsModule {
  file: FileBuilder;
  code: string;
  declarations?: string;
}

function operationsModule(file: FileBuilder, specs: OperationSpecText[], language: 'ts' | 'js'): OperationsModule {
  const join = (parts: string[]) => parts.join('\n\n');
  if (language === 'ts') return { file, code: join(specs.map((spec) => spec.ts)) };
  return { file, code: join(specs.map((spec) => spec.js)), declarations: join(specs.map((spec) => spec.declaration)) };
}

/** response-validators: its builder and one map line per operation with a validated body. */
interface ResponseValidatorsModule {
  file: FileBuilder;
  entries: string[];
}

/**
 * `response-validators.ts`, or with `validators: js` `.js` + `.d.ts`: the map is data nobody edits,
 * and tsc relating its ~1k validators to `ResponseValidator` one by one was 7 % of checking GitHub's
 * output; the `.d.ts` declares it as the `ResponseValidators` it is.
 */
function responseValidatorsFiles(
  { file, entries }: ResponseValidatorsModule,
  templates: TemplateRenderer,
  options: ClientEmitOptions,
): GeneratedFile[] {
  const render = (path: string, context: Omit<ResponseValidatorsContext, 'source'>) => ({
    path,
    content: templates.render('openapi/response-validators.ts.hbs', {
      source: options.source,
      ...context,
    } satisfies ResponseValidatorsContext),
  });
  if (options.language !== 'js') return [render('response-validators.ts', { imports: file.imports(), entries, typed: true })];
  return [
    render('response-validators.js', { imports: file.valueImports(), entries, typed: false }),
    render('response-validators.d.ts', { imports: file.typeImports('ResponseValidators'), typed: true }),
  ];
}

/**
 * The validator of each 2xx JSON body whose schema is a named one, by operation and status; none
 * without validators.ts or without such a body.
 */
function responseModuleContext(
  model: ApiModel,
  types: TypeEmitter,
  infos: OperationInfo[],
  options: ClientEmitOptions,
): ResponseValidatorsModule | undefined {
  if (!options.validators) return undefined;
  const file = new FileBuilder('response-validators.ts', ['responseValidators']);
  file.use(runtimeSymbol('ResponseValidators', 'http'));
  file.use(runtimeSymbol('checkResponses', 'http-validation'));
  const schemaNames = new Set(model.schemas.map(({ name }) => name));
  const validatorOf = (schema: JsonSchema | undefined): ImportSymbol | undefined => {
    const name = typeof schema === 'object' && schema.$ref ? refName(schema.$ref) : undefined;
    return name !== undefined && schemaNames.has(name) ? symbol(`validate${types.typeName(name, 'read')}`, './validators') : undefined;
  };
  const entries = infos.flatMap((info) => {
    const byStatus = responseValidatorsOf(info, validatorOf);
    return byStatus.length
      ? [file.code`${objectKey(info.method)}: { ${byStatus.map(([code, validator]) => file.code`${code}: ${validator}`).join(', ')} },`]
      : [];
  });
  return entries.length ? { file, entries } : undefined;
}

function isBasic(scheme: SecurityScheme): boolean {
  return scheme.type === 'http' && scheme.scheme?.toLowerCase() === 'basic';
}

function credentialMember(name: string, scheme: SecurityScheme, file: FileBuilder): string {
  const credential = runtimeSymbol('Credential', 'client-common');
  let type: Printable = credential;
  let what: string;
  switch (scheme.type) {
    case 'http':
      if (isBasic(scheme)) {
        type = [credential, '<', runtimeSymbol('BasicCredentials', 'http'), '>'];
        what = 'User name and password for HTTP Basic authentication.';
      } else if (scheme.scheme?.toLowerCase() === 'bearer') {
        what = `Bearer token${scheme.bearerFormat ? ` (${scheme.bearerFormat})` : ''}, sent as \`Authorization: Bearer <token>\`.`;
      } else {
        what = `Credentials for the HTTP \`${scheme.scheme ?? ''}\` scheme, sent in \`Authorization\`.`;
      }
      break;
    case 'apiKey':
      what = `API key, sent as the \`${scheme.name ?? ''}\` ${scheme.in ?? 'header'}${scheme.in === 'query' ? ' parameter' : ''}.`;
      break;
    default:
      what = 'Access token, sent as `Authorization: Bearer <token>`.';
  }
  const doc = jsDoc(
    [scheme.description, what, 'A value, or a function called before each request (it may be async, e.g. to refresh a token).'],
    '  ',
  );
  return file.code`${doc}  ${propertyKey(name)}?: ${type};`;
}

/** The expression that applies `scheme`'s credential: a function of `runtime/http-auth.ts`. */
function schemeLiteral(scheme: SecurityScheme): Printable {
  const auth = (name: string) => runtimeSymbol(name, 'http-auth');
  const kind = scheme.type === 'http' ? scheme.scheme?.toLowerCase() : undefined;
  if (scheme.type === 'apiKey') return [auth('apiKey'), `(${stringLiteral(scheme.in ?? 'header')}, ${stringLiteral(scheme.name ?? '')})`];
  if (scheme.type === 'http' && kind !== 'bearer')
    return kind === 'basic' ? auth('basic') : [auth('httpScheme'), `(${stringLiteral(scheme.scheme ?? '')})`];
  return auth('bearer');
}

/** The operation the examples call, the options and the params object they pass. */
interface DocExample {
  info: OperationInfo;
  /** `createClient`'s argument, or nothing. */
  options: string;
  /** The method's argument, or nothing. */
  params: string;
}

function docExample(model: ApiModel, infos: OperationInfo[]): DocExample | undefined {
  const gets = infos.filter((info) => info.operation.method === 'get');
  const info = gets.find((item) => item.paramsRequired) ?? gets[0] ?? infos[0];
  if (!info) return undefined;
  const scheme = Object.entries(model.securitySchemes).find(([, item]) => item.type !== 'mutualTLS' && !isBasic(item));
  const settings = [
    model.servers.length ? '' : 'baseUrl: "https://api.example.com"',
    scheme ? `auth: { ${propertyKey(scheme[0])}: () => session.token }` : '',
  ].filter(Boolean);
  const args = info.parameters.filter(({ parameter }) => parameter.required).map(({ key }) => key);
  return {
    info,
    options: settings.length ? `{ ${settings.join(', ')} }` : '',
    params: args.length ? `{ ${args.map(propertyKey).join(', ')} }` : '',
  };
}

function createDoc(model: ApiModel, example: DocExample | undefined): string {
  const lines = [`Client of ${model.title}${model.version ? ` ${model.version}` : ''}.`];
  if (model.description?.trim()) lines.push('', model.description.trim());
  if (example) {
    lines.push(
      '',
      '@example',
      `const client = createClient(${example.options});`,
      `const result = await client.${example.info.method}(${example.params});`,
    );
  }
  return jsDoc([lines.join('\n')]).trimEnd();
}

/** Example code as the inner lines of a JSDoc block whose prose is the template's. */
function exampleLines(lines: string[]): string {
  return jsDocLines([lines.join('\n')]).trimEnd();
}

/** `isApiError`'s example: a call that may fail with a client error, and the narrowing catch. */
function isApiErrorExample(infos: OperationInfo[]): string | undefined {
  const clientError = (item: ResponseCase): boolean => item.code !== undefined && item.code >= 400;
  const example =
    infos.find((info) => info.errors.some((item) => item.code === 404)) ?? infos.find((info) => info.errors.some(clientError)) ?? infos[0];
  if (!example) return undefined;
  const status = example.errors.find((item) => item.code === 404)?.code ?? example.errors.find(clientError)?.code ?? 500;
  const call = example.hasParams ? `${example.method}(params)` : `${example.method}()`;
  return exampleLines([
    'try {',
    `  await client.${call};`,
    '} catch (error) {',
    `  if (isApiError(error, ${stringLiteral(example.method)}) && error.status === ${status}) console.error(error.data);`,
    '  else throw error;',
    '}',
  ]);
}

/** The exported name of an operation's description in client-operations: `getTaskOperation`. */
export function operationConstant(info: OperationInfo): string {
  return `${info.method}Operation`;
}

/** An operation's exported constant as TypeScript, and as JavaScript with its declaration. */
interface OperationSpecText {
  ts: string;
  js: string;
  declaration: string;
}

/** The exported constant describing `info` to the runtime, typed with its params and responses. */
function operationSpec(info: OperationInfo, model: ApiModel, file: FileBuilder, local: (type: string) => string): OperationSpecText {
  const { operation } = info;
  const lines = [
    `id: ${stringLiteral(info.method)}`,
    `method: ${stringLiteral(operation.method.toUpperCase())}`,
    `path: ${stringLiteral(operation.path)}`,
  ];
  if (info.parameters.length) {
    const params = info.parameters.map(({ parameter, key }) => {
      const fields = [`key: ${stringLiteral(key)}`, `name: ${stringLiteral(parameter.name)}`, `in: ${stringLiteral(parameter.in)}`];
      const defaultStyle = parameter.in === 'query' || parameter.in === 'cookie' ? 'form' : 'simple';
      // The core serialises scalars and arrays of the default style; anything else names its serialiser.
      if (parameter.style !== defaultStyle || mayBeObject(parameter.schema, model)) {
        fields.push(file.code`style: ${runtimeSymbol(parameter.style, 'http-styles')}`, `explode: ${parameter.explode}`);
      } else if (parameter.in === 'query' && !parameter.explode) {
        fields.push('explode: false');
      }
      return `    { ${fields.join(', ')} },`;
    });
    lines.push(`params: [\n${params.join('\n')}\n  ]`);
  }
  if (info.body) {
    const mediaType = info.body.content.mediaType;
    lines.push(`body: ${stringLiteral(mediaType)}`);
    const encoder = /^multipart\//i.test(mediaType)
      ? 'multipartBody'
      : /^application\/x-www-form-urlencoded/i.test(mediaType)
        ? 'formBody'
        : undefined;
    if (encoder) lines.push(file.code`encodeBody: ${runtimeSymbol(encoder, 'http-forms')}`);
  }
  const accept = [...new Set(operation.responses.flatMap((response) => response.contents.map((content) => content.mediaType)))];
  if (accept.length) lines.push(`accept: ${stringLiteral(accept.join(', '))}`);
  const security = securityOf(operation, model);
  if (security.length) lines.push(`security: [${security.map((names) => `[${names.map(stringLiteral).join(', ')}]`).join(', ')}]`);
  if (info.idempotencyKey) lines.push('idempotencyKey: true');
  if (info.iterator) {
    const spec = info.iterator.spec;
    const fields = Object.entries(spec).map(([key, value]) => `${key}: ${stringLiteral(value)}`);
    lines.push(`pagination: { ${fields.join(', ')} }`, `iterator: ${stringLiteral(info.iterator.method)}`);
  }
  const params = info.hasParams ? `${local(info.paramsType)}${info.paramsRequired ? '' : ' | undefined'}` : 'undefined';
  const doc = jsDoc([
    `\`${operation.method.toUpperCase()} ${operation.path}\`: what \`${info.method}\` sends; \`call(${operationConstant(info)}, …)\` sends it too.`,
  ]);
  const typeArgs = [params, local(info.resultType), local(info.responseType)];
  const specType = file.use(runtimeSymbol('TypedOperationSpec', 'http'));
  const name = operationConstant(info);
  const oneLine = `${specType}<${typeArgs.join(', ')}>`;
  const type =
    `export const ${name}: ${oneLine} = {`.length <= MAX_LINE
      ? oneLine
      : `${specType}<\n${typeArgs.map((arg) => `  ${arg}`).join(',\n')}\n>`;
  const body = `{\n${lines.map((line) => `  ${line},`).join('\n')}\n}`;
  return {
    ts: `${doc}export const ${name}: ${type} = ${body};`,
    js: `${doc}export const ${name} = ${body};`,
    declaration: `${doc}export declare const ${name}: ${type};`,
  };
}

/**
 * Whether a parameter's value may be an object (its properties are then serialised one by one,
 * which only `runtime/http-styles.ts` does): an object type, or no type the generator can rule
 * it out by.
 */
function mayBeObject(schema: JsonSchema, model: ApiModel, seen = new Set<string>()): boolean {
  if (typeof schema !== 'object') return schema;
  if (schema.$ref !== undefined) {
    const name = refName(schema.$ref);
    const target = model.schemas.find((item) => item.name === name);
    if (!target || name === undefined || seen.has(name)) return true;
    seen.add(name);
    return mayBeObject(target.schema, model, seen);
  }
  const types = schema.type === undefined ? undefined : Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types) return types.includes('object');
  if (schema.enum !== undefined || schema.const !== undefined || schema.items !== undefined || schema.format !== undefined) return false;
  const options = [...(schema.oneOf ?? []), ...(schema.anyOf ?? []), ...(schema.allOf ?? [])];
  return options.length === 0 || options.some((option) => mayBeObject(option, model, seen));
}

/** The validator of each 2xx JSON body of `info` whose schema is a named one, by status. */
function responseValidatorsOf(
  info: OperationInfo,
  validatorOf: (schema: JsonSchema | undefined) => ImportSymbol | undefined,
): Array<readonly [number, ImportSymbol]> {
  return info.success
    .filter(
      (item): item is ResponseCase & { code: number } =>
        item.code !== undefined && item.content !== undefined && isJsonMediaType(item.content.mediaType),
    )
    .map((item) => [item.code, validatorOf(item.content?.schema)] as const)
    .filter((entry): entry is readonly [number, ImportSymbol] => entry[1] !== undefined);
}

/** The operation's security alternatives, each the names of schemes the client can apply. */
function securityOf(operation: Operation, model: ApiModel): string[][] {
  const requirements = operation.security ?? model.security;
  const usable = (name: string): boolean => Object.hasOwn(model.securitySchemes, name) && model.securitySchemes[name].type !== 'mutualTLS';
  // An alternative needing only mutualTLS (or nothing) means "no credentials in the request".
  if (requirements.some((requirement) => Object.keys(requirement).every((name) => !usable(name)))) return [];
  return requirements.map((requirement) => Object.keys(requirement).filter(usable));
}

function signature(name: string, params: string[], returns: string): string {
  const line = `  ${name}(${params.join(', ')}): ${returns};`;
  if (line.length <= MAX_LINE) return line;
  return `  ${name}(\n${params.map((param) => `    ${param},\n`).join('')}  ): ${returns};`;
}

function methodDoc(info: OperationInfo, lead?: string): string {
  const { operation } = info;
  const paragraphs = lead ? [lead] : [operation.summary, operation.description !== operation.summary ? operation.description : undefined];
  paragraphs.push(`\`${operation.method.toUpperCase()} ${operation.path}\``);
  const text = paragraphs.filter((part): part is string => Boolean(part && part.trim())).join('\n\n');
  return jsDoc([operation.deprecated ? `${text}\n\n@deprecated` : text], '  ');
}

/** The client interface's method of an operation, and of its item iterator when it is paginated. */
function operationMethods(info: OperationInfo, file: FileBuilder, local: (type: string) => string): string[] {
  const params: string[] = [];
  if (info.hasParams) params.push(`params${info.paramsRequired ? '' : '?'}: ${local(info.paramsType)}`);
  params.push(file.code`options?: ${runtimeSymbol('RequestOptions', 'http')}`);
  // ApiPromise is a class, named here only as a type.
  const returns = file.code`${{ ...runtimeSymbol('ApiPromise', 'http'), type: true }}<${local(info.resultType)}, ${local(info.responseType)}>`;
  const methods = [`${methodDoc(info)}${signature(info.method, params, returns)}`];
  if (info.iterator) {
    const { spec: pagination } = info.iterator;
    const how =
      pagination.kind === 'cursor' ? `following \`${pagination.nextCursor}\` until the last page` : 'page after page until a short one';
    const lead = `Every item of \`${info.method}\`, fetching pages as the loop needs them:\n${how}.`;
    methods.push(
      `${methodDoc(info, lead)}${signature(info.iterator.method, params, `AsyncIterableIterator<${local(info.iterator.itemType)}>`)}`,
    );
  }
  return methods;
}
