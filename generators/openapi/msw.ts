/**
 * `msw.ts` (`emit: [msw]`): Mock Service Worker 2 handlers for front-end tests, one factory per
 * operation answering the same sample `codegen mock` answers (samples.ts, seed 1), typed by
 * types.ts, each overridable with a body or a resolver; and `handlers`, every factory's default.
 */
import { FileBuilder, symbol, typeSymbol, type ImportSymbol } from '../core/builder/file.js';
import { callExpression, doc, signature } from '../core/builder/layout.js';
import { camelCase, commentText, jsDoc, jsonBlock, jsonLiteral, objectKey, stringLiteral, uniqueName } from '../core/builder/names.js';
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
  const taken = new Set(['handlers']);
  const factories = samples.map((sample) => uniqueName(`${camelCase(sample.info.method)}Handler`, taken));
  // A body the override can replace is a named const: `listProjectsSample`.
  const sampleNames = samples.map((sample) =>
    sample.body?.kind === 'json' || sample.body?.kind === 'text' ? uniqueName(`${camelCase(sample.info.method)}Sample`, taken) : undefined,
  );
  const file = new FileBuilder('msw.ts', taken);
  const known = new Map<string, ImportSymbol>();
  for (const { name } of model.schemas)
    for (const type of [types.typeName(name, 'read'), types.typeName(name, 'write')]) known.set(type, typeSymbol(type, './types'));
  for (const info of described.operations) known.set(info.responseType, typeSymbol(info.responseType, './types'));
  const msw = (name: string, type = false) => file.use(symbol(name, 'msw', { type }));
  const base = basePaths(model.servers)[0] ?? '';
  const handlers = samples.map((sample, index) => {
    const { operation } = sample.info;
    const factory = factories[index] as string;
    const sampleName = sampleNames[index];
    const names = operation.parameters.filter((parameter) => parameter.in === 'path').map((parameter) => parameter.name);
    const path = stringLiteral(`*${base}${operation.path.replace(/\{([^{}]+)\}/g, ':$1')}`);
    const params = names.length ? `{ ${names.map((name) => `${objectKey(name)}: string`).join('; ')} }` : msw('PathParams', true);
    const route = `\`${operation.method.toUpperCase()} ${operation.path}\``;
    const answers = sample.unsamplable
      ? '501 (no sample could be built)'
      : sampleName
        ? `\`${sampleName}\``
        : `its ${sample.status} response`;
    const handlerDoc = jsDoc([
      `${route}${operation.summary ? `: ${commentText(operation.summary)}` : ''}`,
      `Answers ${answers}; \`override\` answers instead: a body, or a resolver.`,
    ]);
    const answer = response(sample, sampleName, msw, (type) => file.rewrite(type, known));
    const resolverType = msw('HttpResponseResolver', true);
    const anyBody = msw('DefaultBodyType', true);
    const generics = `${params}, ${anyBody}, ${answer.bodyType ?? anyBody}`;
    const overrideType = answer.bodyType ? `${answer.bodyType} | ${resolverType}<${generics}>` : `${resolverType}<${generics}>`;
    const resolve = resolver(answer);
    const head = `export function ${factory}`;
    const call = callExpression(`${msw('http')}.${operation.method}<${generics}>`, [path, resolve], '  return ', ';');
    const handler = `${handlerDoc}${signature(head, [`override?: ${overrideType}`], msw('HttpHandler', true))}\n  return ${call};\n}`;
    if (sampleName === undefined || sample.body === undefined) return handler;
    const declaration = `export const ${sampleName}: ${answer.bodyType} = `;
    const value =
      sample.body.kind === 'json' ? jsonBlock(sample.body.value, '', 100, declaration.length + 1) : stringLiteral(sample.body.value);
    const sampleDoc = doc(`The ${sample.status} body \`${factory}\` answers unless overridden.`);
    return `${sampleDoc}${declaration}${value};\n\n${handler}`;
  });
  const context: MswContext = {
    source,
    title: commentText(`${model.title} ${model.version}`),
    variant: MSW_SEED,
    handlers,
    factories,
    example: exampleOverride(samples, factories, sampleNames),
  };
  return { path: 'msw.ts', content: templates.render('openapi/msw.ts.hbs', context, file) };
}

/**
 * The resolver a factory registers: the override when it is one, else `answer` (with the override's
 * body in place of the sample when it has a body type), broken over lines as a formatter would.
 */
function resolver(answer: Answer): string {
  if (answer.bodyType === undefined) {
    const before = '    override ?? (() => ';
    return `override ?? (() => ${answer.layout(before, '),')})`;
  }
  const flat = `typeof override === "function" ? override : () => ${answer.layout('', '')}`;
  if (`    ${flat},`.length <= 100 && !flat.includes('\n')) return flat;
  return `typeof override === "function"\n      ? override\n      : () => ${answer.layout('      : () => ', ',')}`;
}

/** The override the module's JSDoc shows: the first GET's object sample, spread with one property changed. */
function exampleOverride(samples: OperationSample[], factories: string[], sampleNames: Array<string | undefined>): MswContext['example'] {
  for (const [index, sample] of samples.entries()) {
    const body = sample.body?.kind === 'json' ? sample.body.value : undefined;
    const name = sampleNames[index];
    if (sample.info.operation.method !== 'get' || name === undefined || typeof body !== 'object' || body === null) continue;
    // A property a test would change: a string, not an id.
    const key = Object.entries(body).find(([key, value]) => typeof value === 'string' && !/id$/i.test(key))?.[0];
    if (key !== undefined) return { factory: factories[index] as string, sample: name, property: objectKey(key) };
  }
  return null;
}

/** The default answer of a handler, laid out after `before` and before `after`; and its body's type. */
interface Answer {
  layout(before: string, after: string): string;
  bodyType?: string;
}

/** The answer of a handler: its sample (`override ?? ` before it when it has a body type), status and headers. */
function response(
  sample: OperationSample,
  sampleName: string | undefined,
  msw: (name: string, type?: boolean) => string,
  type: (expression: string) => string,
): Answer {
  const HttpResponse = msw('HttpResponse');
  const call = (callee: string, args: (indent: string) => string[], bodyType?: string): Answer => ({
    layout: (before, after) => callExpression(callee, args(`${/^ */.exec(before)![0]}  `), before, after),
    ...(bodyType !== undefined && { bodyType }),
  });
  if (sample.unsamplable !== undefined) {
    const problem = { type: 'about:blank', title: 'Not Implemented', status: 501, detail: `mock: ${sample.unsamplable}` };
    const init = '{ status: 501, headers: { "content-type": "application/problem+json" } }';
    return call(`${HttpResponse}.json`, (indent) => [jsonBlock(problem, indent, 100, 1), init]);
  }
  const body = sample.body;
  // MSW sets the content type of `HttpResponse.json` and `.text` itself, and 200 is its default status.
  const implied = body?.kind === 'json' ? 'application/json' : body?.kind === 'text' ? 'text/plain' : undefined;
  const headers = {
    ...(sample.contentType && sample.contentType !== implied && { 'content-type': sample.contentType }),
    ...stringValues(sample.headers),
  };
  const fields = [
    ...(sample.status !== 200 || body === undefined ? [`status: ${sample.status}`] : []),
    ...(Object.keys(headers).length ? [`headers: ${jsonLiteral(headers)}`] : []),
  ];
  const args = (first: string) => () => (fields.length ? [first, `{ ${fields.join(', ')} }`] : [first]);
  if (body?.kind === 'json')
    return call(`${HttpResponse}.json`, args(`override ?? ${sampleName}`), type(sample.info.success[0]?.type ?? 'unknown'));
  if (body?.kind === 'text') return call(`${HttpResponse}.text`, args(`override ?? ${sampleName}`), 'string');
  if (body?.kind === 'bytes')
    return call(`${HttpResponse}.arrayBuffer`, args(`new TextEncoder().encode(${stringLiteral(body.value)}).buffer`));
  return call(`new ${HttpResponse}`, args('null'));
}

function stringValues(headers: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [name, typeof value === 'string' ? value : JSON.stringify(value)]),
  );
}
