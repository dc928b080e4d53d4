/**
 * `query.ts` of a proto API: TanStack Query options for the methods a browser can call, typed with
 * `@tanstack/query-core` only, over the clients of `client-web.ts` (the Node clients fit too), as
 * connect-query's `createQueryOptions` does it over a transport:
 * - a read (unary, named `Get…`/`List…`/`Search…`/`BatchGet…` as AIP's standard methods are, or
 *   `idempotency_level = NO_SIDE_EFFECTS`): `<method>QueryKey` and `<method>Options`, and with
 *   AIP-158 pagination (`page_token` in, `next_page_token` out) `<method>InfiniteOptions`;
 * - server streaming: a streamed query (`experimental_streamedQuery`), the messages so far as data;
 * - any other unary method: `<method>Mutation`, which invalidates on success the reads whose
 *   answers hold the message it returns or names (`DeleteTask` → `Task`): `invalidateAfter<Method>`.
 * Client and bidi streaming have none (browsers cannot stream a request).
 *
 * Keys are `[apiName, "<package.Service.Method>", input]`, the input in proto3 JSON (runtime/grpc-query.ts).
 */
import { ScalarType, type DescField, type DescMessage } from '@bufbuild/protobuf';
import { MethodOptions_IdempotencyLevel } from '@bufbuild/protobuf/wkt';
import { FileBuilder, symbol, typeSymbol } from '../core/builder/file.js';
import { commentText, jsDoc, objectKey, pascalCase, stringLiteral, words } from '../core/builder/names.js';
import type { GeneratedFile } from '../core/pipeline/output.js';
import type { TemplateRenderer } from '../core/pipeline/templates.js';
import type { MethodInfo, ServiceInfo, ServicesModel } from './server-model.js';
import type { ProtoInfiniteContext, ProtoMutationContext, ProtoQueryContext, QueryFileContext } from './template-context.js';

/** The verbs of AIP's standard methods that only read. */
const READ_METHOD = /^(Get|List|Search|BatchGet)(?![a-z])/;

export function emitQuery(model: ServicesModel, templates: TemplateRenderer, source: string, apiName: string): GeneratedFile {
  const methods = model.services.flatMap((service) => service.methods.map((method) => ({ service, method })));
  const base = functionBases(methods);
  const file = new FileBuilder('query.ts', [...base.values()].flatMap(ownNames));
  const reads = methods.filter(({ method }) => method.kind === 'server_streaming' || (method.kind === 'unary' && isRead(method)));
  const readTypes = new Map(reads.map((read) => [read.method, reachedMessages(read.method.desc.output)]));

  const common = (service: ServiceInfo, method: MethodInfo) => {
    const name = base.get(method)!;
    const fullName = `${service.desc.typeName}.${method.desc.name}`;
    return {
      method: `\`${service.desc.name}.${method.desc.name}\``,
      key: stringLiteral(fullName),
      client: file.use(typeSymbol(service.webClientType, './client-web')),
      call: method.name,
      input: `${file.use(typeSymbol('MessageInitShape', '@bufbuild/protobuf'))}<typeof ${file.use(method.input.schema)}>`,
      schema: file.use(symbol(method.input.schema.name, method.input.schema.from)),
      output: file.use(method.output.type),
      name,
      doc: jsDoc([method.comment ?? `\`${method.desc.name}\`.`]),
    };
  };

  const queries = reads.map(({ service, method }): ProtoQueryContext => {
    const shared = common(service, method);
    const streamed = method.kind === 'server_streaming';
    return {
      ...shared,
      streamed,
      data: streamed ? `${shared.output}[]` : shared.output,
      keyType: `${pascalCase(shared.name)}QueryKey`,
      keyFunction: `${shared.name}QueryKey`,
      optionsFunction: `${shared.name}Options`,
    };
  });
  const infinite = reads.flatMap(({ service, method }): ProtoInfiniteContext[] => {
    const pagination = method.kind === 'unary' ? tokenPagination(method) : undefined;
    if (!pagination) return [];
    const shared = common(service, method);
    return [
      {
        ...shared,
        input: `${file.use(typeSymbol('InitWithout', './runtime/grpc-query'))}<${shared.input}, ${stringLiteral(pagination.pageToken.localName)}>`,
        data: shared.output,
        pageTokenKey: objectKey(pagination.pageToken.localName),
        nextPageToken: pagination.nextPageToken.localName,
        keyType: `${pascalCase(shared.name)}InfiniteQueryKey`,
        keyFunction: `${shared.name}InfiniteQueryKey`,
        optionsFunction: `${shared.name}InfiniteOptions`,
      },
    ];
  });
  const mutations = methods
    .filter(({ method }) => method.kind === 'unary' && !isRead(method))
    .map(({ service, method }): ProtoMutationContext => {
      const shared = common(service, method);
      const changes = changedMessage(method);
      const invalidated = reads.filter((read) => [...readTypes.get(read.method)!].some(changes));
      const changedNames = new Set(
        invalidated.flatMap((read) => [...readTypes.get(read.method)!].filter(changes).map((type) => type.name)),
      );
      return {
        ...shared,
        data: shared.output,
        optionsFunction: `${shared.name}Mutation`,
        invalidateFunction: invalidated.length > 0 ? `invalidateAfter${pascalCase(shared.name)}` : undefined,
        invalidated: invalidated.map(({ service: s, method: m }) => stringLiteral(`${s.desc.typeName}.${m.desc.name}`)),
        invalidatedList: invalidated.map(({ service: s, method: m }) => `\`${s.desc.name}.${m.desc.name}\``).join(', '),
        typesList: [...changedNames]
          .sort()
          .map((type) => `\`${type}\``)
          .join(', '),
      };
    });
  const context: QueryFileContext = {
    source,
    apiName: stringLiteral(apiName),
    apiNameDoc: commentText(stringLiteral(apiName)),
    queries,
    infinite,
    mutations,
  };
  return { path: 'query.ts', content: templates.render('proto/query.ts.hbs', context, file) };
}

/** `getTask`, or `taskServiceGetTask` when another service has a method of the same name. */
function functionBases(methods: { service: ServiceInfo; method: MethodInfo }[]): Map<MethodInfo, string> {
  const count = new Map<string, number>();
  for (const { method } of methods) count.set(method.name, (count.get(method.name) ?? 0) + 1);
  return new Map(
    methods.map(({ service, method }) => [
      method,
      count.get(method.name) === 1
        ? method.name
        : `${service.key.charAt(0).toLowerCase()}${service.key.slice(1)}${pascalCase(method.name)}`,
    ]),
  );
}

function ownNames(base: string): string[] {
  const type = pascalCase(base);
  return [
    `${type}QueryKey`,
    `${base}QueryKey`,
    `${base}Options`,
    `${type}InfiniteQueryKey`,
    `${base}InfiniteQueryKey`,
    `${base}InfiniteOptions`,
    `${base}Mutation`,
    `invalidateAfter${type}`,
  ];
}

function isRead(method: MethodInfo): boolean {
  return READ_METHOD.test(method.desc.name) || method.desc.idempotency === MethodOptions_IdempotencyLevel.NO_SIDE_EFFECTS;
}

function isString(field: DescField | undefined): field is DescField & { fieldKind: 'scalar' } {
  return field?.fieldKind === 'scalar' && field.scalar === ScalarType.STRING;
}

/** AIP-158: a string `page_token` in the request and a string `next_page_token` in the response. */
function tokenPagination(method: MethodInfo): { pageToken: DescField; nextPageToken: DescField } | undefined {
  const pageToken = method.desc.input.fields.find((field) => field.name === 'page_token');
  const nextPageToken = method.desc.output.fields.find((field) => field.name === 'next_page_token');
  return isString(pageToken) && isString(nextPageToken) ? { pageToken, nextPageToken } : undefined;
}

/** The message and every message its fields hold, at any depth. */
function reachedMessages(message: DescMessage): Set<DescMessage> {
  const found = new Set<DescMessage>();
  const pending = [message];
  while (pending.length > 0) {
    const next = pending.pop()!;
    if (found.has(next)) continue;
    found.add(next);
    for (const field of next.fields) {
      if (field.fieldKind === 'message') pending.push(field.message);
      else if (field.fieldKind === 'list' && field.listKind === 'message') pending.push(field.message);
      else if (field.fieldKind === 'map' && field.mapKind === 'message') pending.push(field.message);
    }
  }
  return found;
}

/**
 * Whether a message is one `method` changes: the message it returns (but not a well-known type such
 * as `Empty`), or the one its name ends with (`DeleteTask` → `Task`, `ArchiveProjectTasks` →
 * `ProjectTasks` or `Tasks`).
 */
function changedMessage(method: MethodInfo): (message: DescMessage) => boolean {
  const output = method.desc.output;
  const returned = output.file.proto.package === 'google.protobuf' ? undefined : output.typeName;
  const parts = words(method.desc.name);
  const named = new Set(
    parts.slice(1).map((_, start) =>
      parts
        .slice(start + 1)
        .map(pascalCase)
        .join(''),
    ),
  );
  return (message) => message.typeName === returned || (message.file.proto.package !== 'google.protobuf' && named.has(message.name));
}
