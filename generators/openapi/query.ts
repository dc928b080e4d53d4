/**
 * `query.ts` (`emit: [query]`): TanStack Query options over the generated REST client, typed with
 * `@tanstack/query-core`'s types only, so every adapter takes them (React, Vue, Solid, Svelte,
 * Angular: `useQuery(getTaskOptions(http, { taskId }))`). Per operation, one function each, so a
 * bundle holds only what the app names:
 *
 * - GET: `<op>QueryKey(params)` and `<op>Options(http, params)`, the key tagged with the data and
 *   error types (`DataTag`), so `queryClient.getQueryData(getTaskQueryKey(…))` is typed; the query
 *   function passes TanStack's `signal` to the call.
 * - GET that pages (the pagination convention, cursor or page number): also
 *   `<op>InfiniteQueryKey(params)` and `<op>InfiniteOptions(http, params)`, the next page found
 *   by the rules `<op>All` pages by (`runtime/http-paginate.ts`).
 * - Other methods: `<op>Mutation(http)`, and `invalidateAfter<Op>(queryClient, params)`, which the
 *   mutation's `onSuccess` calls: it invalidates the queries of the same resource
 *   (`query-invalidation.ts` says which).
 *
 * Keys are `[<api name>, <operation>]`, plus the params object when the operation takes one, plus
 * `"infinite"` for infinite queries: the convention every style's query helpers share. The client
 * is the `HttpClient` of `createHttpClient(options)`, passed to each factory: its `call` sends only
 * the operation descriptions named, as the rest of this file does. Errors are `ApiCallError<…>`:
 * the operation's `ApiError`s, or the client's failures without an answer.
 */
import { FileBuilder, runtimeSymbol, symbol, typeSymbol, type ImportSymbol } from '../core/builder/file.js';
import { callExpression, doc, generic, signature } from '../core/builder/layout.js';
import { objectKey, propertyAccess, stringLiteral } from '../core/builder/names.js';
import type { Diagnostic } from '../core/diagnostics.js';
import type { TypeEmitter } from '../core/emit/types/emit.js';
import type { GeneratedFile } from '../core/pipeline/output.js';
import type { TemplateRenderer } from '../core/pipeline/templates.js';
import { operationConstant } from './client.js';
import type { ApiModel } from './model.js';
import type { OperationInfo, OperationsInfo } from './operation-types.js';
import { invalidatedQueries, type InvalidatedQuery } from './query-invalidation.js';
import type { ModuleContext } from './template-context.js';

export interface QueryEmitOptions {
  /** Input file, for the generated header. */
  source: string;
  /** The API's name in the config: the first element of every key. */
  apiName: string;
}

const QUERY_CORE = '@tanstack/query-core';
const MUTATION_METHODS = new Set(['post', 'put', 'patch', 'delete']);

export function emitQuery(
  model: ApiModel,
  types: TypeEmitter,
  described: OperationsInfo,
  templates: TemplateRenderer,
  options: QueryEmitOptions,
): { file: GeneratedFile; warnings: Diagnostic[] } {
  const { infos, warnings } = withoutClashes(described.operations);
  const queries = infos.filter((info) => info.operation.method === 'get');
  const mutations = infos.filter((info) => MUTATION_METHODS.has(info.operation.method));
  const file = new FileBuilder('query.ts', [...queries.flatMap(queryNames), ...mutations.flatMap(mutationNames)]);
  const known = new Map<string, ImportSymbol>();
  for (const { name } of model.schemas)
    for (const type of [types.typeName(name, 'read'), types.typeName(name, 'write')]) known.set(type, typeSymbol(type, './types'));
  for (const info of infos)
    for (const name of [info.paramsType, info.responseType, info.errorType]) known.set(name, typeSymbol(name, './types'));
  const printer = new Printer(file, (type) => file.rewrite(type, known), stringLiteral(options.apiName));

  const blocks = infos.flatMap((info) => {
    if (info.operation.method === 'get') return printer.query(info);
    if (!MUTATION_METHODS.has(info.operation.method)) return [];
    return printer.mutation(info, invalidatedQueries(info, queries));
  });
  const context: ModuleContext = { source: options.source, imports: file.imports(), code: blocks.join('\n\n') };
  return { file: { path: 'query.ts', content: templates.render('openapi/module.ts.hbs', context) }, warnings };
}

/** The names an operation's options take in query.ts. */
function namesOf(info: OperationInfo): string[] {
  if (info.operation.method === 'get') return queryNames(info);
  return MUTATION_METHODS.has(info.operation.method) ? mutationNames(info) : [];
}

/**
 * The operations whose names are all free: one whose names would repeat an earlier operation's
 * (`listTasks` pages, so `listTasksInfiniteOptions`; an operation `listTasksInfinite` has
 * `listTasksInfiniteOptions` too) gets no options, with a warning at the operation.
 */
function withoutClashes(operations: readonly OperationInfo[]): { infos: OperationInfo[]; warnings: Diagnostic[] } {
  const owners = new Map<string, string>();
  const infos: OperationInfo[] = [];
  const warnings: Diagnostic[] = [];
  for (const info of operations) {
    const names = namesOf(info);
    const clash = names.find((name) => owners.has(name));
    if (clash === undefined) {
      for (const name of names) owners.set(name, info.method);
      infos.push(info);
      continue;
    }
    const location = info.operation.location;
    warnings.push({
      ...(location && { location }),
      severity: 'warning',
      message: `query.ts: ${info.method} gets no TanStack Query options: \`${clash}\` is already ${owners.get(clash)}'s`,
      hint: 'give one of the two operations another operationId',
    });
  }
  return { infos, warnings };
}

function pascal(method: string): string {
  return method.charAt(0).toUpperCase() + method.slice(1);
}

function queryNames(info: OperationInfo): string[] {
  const names = [`${info.method}QueryKey`, `${pascal(info.method)}QueryKey`, `${info.method}Options`];
  if (info.iterator)
    names.push(`${info.method}InfiniteQueryKey`, `${pascal(info.method)}InfiniteQueryKey`, `${info.method}InfiniteOptions`);
  return names;
}

function mutationNames(info: OperationInfo): string[] {
  return [`${info.method}Mutation`, `invalidateAfter${pascal(info.method)}`];
}

/** `GET /tasks/{taskId}`, and the operation's summary if any, for the JSDoc. */
function describe(info: OperationInfo): string {
  const summary = info.operation.summary?.trim();
  return `\`${info.operation.method.toUpperCase()} ${info.operation.path}\`${summary ? `: ${summary}` : ''}`;
}

class Printer {
  constructor(
    private readonly file: FileBuilder,
    private readonly local: (type: string) => string,
    /** The API's name as a string literal. */
    private readonly api: string,
  ) {}

  private core(name: string): string {
    return this.file.use(symbol(name, QUERY_CORE, { type: true }));
  }

  private runtime(name: string, module: string): string {
    return this.file.use(runtimeSymbol(name, module));
  }

  private operation(info: OperationInfo): string {
    return this.file.use(symbol(operationConstant(info), './client-operations'));
  }

  private error(info: OperationInfo): string {
    return `${this.runtime('ApiCallError', 'http')}<${this.local(info.errorType)}>`;
  }

  /** The key's type and function: the tuple tagged with the data and error types. */
  private key(
    name: string,
    what: string,
    items: Array<[value: string, type: string]>,
    argument: string,
    data: string,
    error: string,
  ): string[] {
    const type = pascal(name);
    const tuple = `readonly [${items.map(([, itemType]) => itemType).join(', ')}]`;
    const values = `[${items.map(([value]) => value).join(', ')}]`;
    const head = `export type ${type} = `;
    return [
      doc(`Key of ${what}, tagged with its data and error types for \`queryClient.getQueryData\` & co.`) +
        `${head}${generic(this.core('DataTag'), [tuple, data, error], head, ';')};`,
      doc(`\`${values}\`: the key of ${what}.`) +
        `${signature(`export function ${name}`, argument ? [argument] : [], type)}\n` +
        // The tag exists in types only: the key is the plain array.
        `  return ${values} as unknown as ${type};\n}`,
    ];
  }

  query(info: OperationInfo): string[] {
    const { method } = info;
    const http = this.runtime('HttpClient', 'http');
    // Without parameters, types.ts declares no params type.
    const params = info.hasParams ? this.local(info.paramsType) : '';
    // TanStack Query refuses `undefined` as data: a GET without a body resolves to null.
    const empty = info.resultType === 'void';
    const data = empty ? 'null' : this.local(info.resultType);
    const error = this.error(info);
    const items: Array<[string, string]> = [
      [this.api, this.api],
      [stringLiteral(method), stringLiteral(method)],
    ];
    if (info.hasParams) items.push(['params', params]);
    // Optional params default to `{}`: `op()` and `op({})` share a key.
    const argument = info.hasParams ? `params: ${params}${info.paramsRequired ? '' : ' = {}'}` : '';
    const callArgs = [this.operation(info), info.hasParams ? 'params' : 'undefined', '{ signal }'];
    const resultType = generic(this.core('QueryObserverOptions'), [data, error, data, data, `${pascal(method)}QueryKey`], '): ', ' {');
    const blocks = [
      ...this.key(
        `${method}QueryKey`,
        `a \`${method}\` query (\`[${this.api}, ${stringLiteral(method)}]\` matches every one)`,
        items,
        argument,
        data,
        error,
      ),
      doc(
        describe(info),
        `As a query: \`useQuery(${method}Options(http${info.hasParams ? ', params' : ''}))\`, \`queryClient.fetchQuery(…)\`; ` +
          'spread it to add options. Cancelling the query aborts the request.',
      ) +
        `export function ${method}Options(\n  http: ${http},${argument ? `\n  ${argument},` : ''}\n): ${resultType} {\n` +
        `  return {\n    queryKey: ${method}QueryKey(${info.hasParams ? 'params' : ''}),\n` +
        `    queryFn: ({ signal }) => ${callExpression('http.call', callArgs, '    queryFn: ({ signal }) => ', empty ? '.then(() => null),' : ',')}` +
        `${empty ? '.then(() => null)' : ''},\n  };\n}`,
    ];
    if (info.iterator) blocks.push(...this.infinite(info, http, params, data, error));
    return blocks;
  }

  private infinite(info: OperationInfo, http: string, params: string, data: string, error: string): string[] {
    const { method } = info;
    const spec = info.iterator!.spec;
    const cursor = spec.kind === 'cursor';
    const pageParam = cursor ? 'string | undefined' : 'number';
    const input = `Omit<${params}, ${stringLiteral(cursor ? spec.cursor : spec.page)}>`;
    const pages = `${this.core('InfiniteData')}<${data}, ${pageParam}>`;
    const keyName = `${method}InfiniteQueryKey`;
    const argument = `params: ${input}${info.paramsRequired ? '' : ' = {}'}`;
    const items: Array<[string, string]> = [
      [this.api, this.api],
      [stringLiteral(method), stringLiteral(method)],
      ['params', input],
      ['"infinite"', '"infinite"'],
    ];
    const operation = this.operation(info);
    const send = cursor
      ? `pageParam === undefined ? params : { ...params, ${objectKey(spec.cursor)}: pageParam }`
      : `{ ...params, ${objectKey(spec.page)}: pageParam }`;
    const queryFn = `({ pageParam, signal }) =>\n      ${callExpression('http.call', [operation, send, '{ signal }'], '      ', ',')}`;
    const next = cursor
      ? `(lastPage) => ${this.runtime('nextCursor', 'http-paginate')}(lastPage, ${stringLiteral(spec.nextCursor)})`
      : `(_lastPage, pages, last) =>\n      ${this.runtime('nextPage', 'http-paginate')}(pages, last, ${stringLiteral(spec.items)}, ${propertyAccess('params', spec.pageSize)})`;
    const resultType = generic(this.core('InfiniteQueryObserverOptions'), [data, error, pages, pascal(keyName), pageParam], '): ', ' {');
    return [
      ...this.key(keyName, `a \`${method}\` infinite query`, items, argument, pages, error),
      doc(
        describe(info),
        `As an infinite query: \`useInfiniteQuery(${method}InfiniteOptions(http${info.paramsRequired ? ', params' : ''}))\`, one page per \`fetchNextPage()\`, ` +
          (cursor ? `following \`${spec.nextCursor}\` until the last page.` : 'from page 1 until a short page.'),
      ) +
        `export function ${method}InfiniteOptions(\n  http: ${http},\n  ${argument},\n): ${resultType} {\n` +
        `  return {\n    queryKey: ${keyName}(params),\n    queryFn: ${queryFn},\n` +
        `    initialPageParam: ${cursor ? 'undefined' : '1'},\n    getNextPageParam: ${next},\n  };\n}`,
    ];
  }

  mutation(info: OperationInfo, invalidated: InvalidatedQuery[]): string[] {
    const { method } = info;
    const http = this.runtime('HttpClient', 'http');
    const params = info.hasParams ? this.local(info.paramsType) : 'void';
    const data = this.local(info.resultType);
    const error = this.error(info);
    const invalidate = `invalidateAfter${pascal(method)}`;
    const operation = this.operation(info);
    const fn = info.hasParams ? `(params) => http.call(${operation}, params)` : `() => http.call(${operation})`;
    // The invalidation takes the mutation's params when a key is narrowed by them.
    const narrows = invalidated.some(({ shared }) => shared.length > 0);
    const resultType = generic(this.core('MutationObserverOptions'), [data, error, params], '): ', ' {');
    const blocks = [
      doc(
        describe(info),
        `As a mutation: \`useMutation(${method}Mutation(http))\`.` +
          (invalidated.length
            ? ` On success it invalidates the queries it changes ({@link ${invalidate}}); an \`onSuccess\` of yours replaces that: call it there.`
            : ''),
      ) +
        `export function ${method}Mutation(\n  http: ${http},\n): ${resultType} {\n` +
        `  return {\n    mutationKey: [${this.api}, ${stringLiteral(method)}],\n    mutationFn: ${fn},\n` +
        (invalidated.length
          ? `    onSuccess: (_data, ${narrows ? 'params' : '_params'}, _result, { client }) => ${invalidate}(client${narrows ? ', params' : ''}),\n`
          : '') +
        `  };\n}`,
    ];
    if (invalidated.length === 0) return blocks;
    const keys = invalidated.map(({ query, shared }) => {
      const narrowed = shared.length
        ? `, { ${shared.map((key) => `${objectKey(key)}: ${propertyAccess('params', key)}`).join(', ')} }`
        : '';
      return `[${this.api}, ${stringLiteral(query.method)}${narrowed}]`;
    });
    const client = this.core('QueryClient');
    const body =
      keys.length === 1
        ? `  await client.invalidateQueries({ queryKey: ${keys[0]} });`
        : `  await Promise.all([\n${keys.map((key) => `    client.invalidateQueries({ queryKey: ${key} }),`).join('\n')}\n  ]);`;
    const which = invalidated.map(
      ({ query, shared }) => `\`${query.method}\`${shared.length ? ` of the same ${shared.map((key) => `\`${key}\``).join(', ')}` : ''}`,
    );
    blocks.push(
      doc(
        `Invalidates the queries a successful \`${method}\` changes, those of the same resource: ${which.join(', ')}. ` +
          'Active ones refetch; the promise settles when they have.',
      ) +
        `${signature(`export async function ${invalidate}`, [`client: ${client}`, ...(narrows ? [`params: ${params}`] : [])], 'Promise<void>')}\n${body}\n}`,
    );
    return blocks;
  }
}
