/**
 * `msw.ts` (`emit: [msw]`): Mock Service Worker 2 handlers for front-end tests, one factory per
 * operation answering the same sample `codegen mock` answers (samples.ts, seed 1), typed by
 * types.ts, each overridable with a body or a resolver; and `handlers`, every factory's default.
 */
import { FileBuilder, symbol, typeSymbol, type ImportSymbol } from '../core/builder/file.js';
import { camelCase, commentText, jsDoc, jsonBlock, objectKey, stringLiteral } from '../core/builder/names.js';
import type { TypeEmitter } from '../core/emit/types/emit.js';
import type { GeneratedFile } from '../core/pipeline/output.js';
import type { TemplateRenderer } from '../core/pipeline/templates.js';
import type { ApiModel } from './model.js';
import type { OperationsInfo } from './operation-types.js';
import type { OperationSample } from './samples.js';
import { basePaths } from './server.js';
import type { MswContext } from './template-context.js';

/** The seed of `msw.ts`'s samples: fixed, so the committed output is stable. */
export const MSW_SEED = 1;

export function emitMsw(
  model: ApiModel,
  types: TypeEmitter,
  described: OperationsInfo,
  samples: OperationSample[],
  templates: TemplateRenderer,
  source: string,
): GeneratedFile {
  const factories = samples.map((sample) => `${camelCase(sample.info.method)}Handler`);
  const file = new FileBuilder('msw.ts', ['handlers', ...factories]);
  const known = new Map<string, ImportSymbol>();
  for (const { name } of model.schemas)
    for (const type of [types.typeName(name, 'read'), types.typeName(name, 'write')]) known.set(type, typeSymbol(type, './types'));
  for (const info of described.operations) known.set(info.responseType, typeSymbol(info.responseType, './types'));
  const msw = (name: string, type = false) => file.use(symbol(name, 'msw', { type }));
  const base = basePaths(model.servers)[0] ?? '';
  const handlers = samples.map((sample, index) => {
    const { operation } = sample.info;
    const names = operation.parameters.filter((parameter) => parameter.in === 'path').map((parameter) => parameter.name);
    const path = stringLiteral(`*${base}${operation.path.replace(/\{([^{}]+)\}/g, ':$1')}`);
    const params = names.length ? `{ ${names.map((name) => `${objectKey(name)}: string`).join('; ')} }` : msw('PathParams', true);
    const doc = jsDoc([
      `\`${operation.method.toUpperCase()} ${operation.path}\`${operation.summary ? `: ${commentText(operation.summary)}` : ''}`,
      `Answers ${sample.unsamplable ? '501 (no sample could be built)' : `its ${sample.status} sample`}; \`override\` answers instead: a body, or a resolver.`,
    ]);
    const answer = response(sample, msw, (type) => file.rewrite(type, known));
    const resolver = msw('HttpResponseResolver', true);
    const anyBody = msw('DefaultBodyType', true);
    const generics = `${params}, ${anyBody}, ${answer.bodyType ?? anyBody}`;
    const overrideType = answer.bodyType ? `${answer.bodyType} | ${resolver}<${generics}>` : `${resolver}<${generics}>`;
    const resolve = answer.bodyType
      ? `typeof override === "function" ? override : () => ${answer.code.replace('$BODY', 'override ?? ')}`
      : `override ?? (() => ${answer.code})`;
    return `${doc}export function ${factories[index]}(override?: ${overrideType}): ${msw('HttpHandler', true)} {
  return ${msw('http')}.${operation.method}<${generics}>(${path}, ${resolve});
}`;
  });
  const context: MswContext = { source, title: commentText(`${model.title} ${model.version}`), variant: MSW_SEED, handlers, factories };
  return { path: 'msw.ts', content: templates.render('openapi/msw.ts.hbs', context, file) };
}

/** The default answer of a handler (`$BODY` marks where `override ?? ` goes) and its body's type. */
function response(
  sample: OperationSample,
  msw: (name: string, type?: boolean) => string,
  type: (expression: string) => string,
): { code: string; bodyType?: string } {
  const HttpResponse = msw('HttpResponse');
  if (sample.unsamplable !== undefined) {
    const problem = { type: 'about:blank', title: 'Not Implemented', status: 501, detail: `mock: ${sample.unsamplable}` };
    return {
      code: `${HttpResponse}.json(${jsonBlock(problem, '  ')}, { status: 501, headers: { "content-type": "application/problem+json" } })`,
    };
  }
  const headers = { ...(sample.contentType && { 'content-type': sample.contentType }), ...stringValues(sample.headers) };
  const init = `{ status: ${sample.status}${Object.keys(headers).length ? `, headers: ${jsonBlock(headers, '  ')}` : ''} }`;
  const body = sample.body;
  if (body?.kind === 'json') {
    const bodyType = type(sample.info.success[0]?.type ?? 'unknown');
    return { code: `${HttpResponse}.json($BODY${jsonBlock(body.value, '  ')}, ${init})`, bodyType };
  }
  if (body?.kind === 'text') return { code: `${HttpResponse}.text($BODY${stringLiteral(body.value)}, ${init})`, bodyType: 'string' };
  if (body?.kind === 'bytes')
    return { code: `${HttpResponse}.arrayBuffer(new TextEncoder().encode(${stringLiteral(body.value)}).buffer, ${init})` };
  return { code: `new ${HttpResponse}(null, ${init})` };
}

function stringValues(headers: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [name, typeof value === 'string' ? value : JSON.stringify(value)]),
  );
}
