/**
 * `mock.ts`, written only for `codegen mock`: the generated server (`createServer`, every convention
 * on) with a handler per operation that answers its sample (samples.ts), and `serveMock`, the
 * function every style's mock exports (runtime/mock.ts).
 */
import { FileBuilder, symbol } from '../core/builder/file.js';
import { commentText, jsDoc, jsonBlock, stringLiteral } from '../core/builder/names.js';
import type { GeneratedFile } from '../core/pipeline/output.js';
import type { TemplateRenderer } from '../core/pipeline/templates.js';
import type { ApiModel } from './model.js';
import type { OperationSample } from './samples.js';
import { serverTypeNames } from './server.js';
import type { MockContext } from './template-context.js';

export function emitMock(
  model: ApiModel,
  samples: OperationSample[],
  seed: number,
  templates: TemplateRenderer,
  source: string,
): GeneratedFile {
  const file = new FileBuilder('mock.ts', ['mockHandlers', 'serveMock']);
  const handlersType = serverTypeNames(model).handlers;
  file.use(symbol(handlersType, './server', { type: true }));
  const handlers = samples.map((sample) => {
    const { operation, method } = sample.info;
    const doc = jsDoc([`\`${operation.method.toUpperCase()} ${operation.path}\``], '  ');
    return `${doc}  async ${method}() {\n    ${handlerBody(sample, file)}\n  },`;
  });
  const context: MockContext = {
    source,
    title: commentText(`${model.title} ${model.version}`),
    variant: seed,
    handlersType,
    handlers,
  };
  const rendered = templates.render('openapi/mock.ts.hbs', context, file);
  return { path: 'mock.ts', content: rendered };
}

/** `return { status, body, headers };`, or the 501 of an operation that could not be sampled. */
function handlerBody(sample: OperationSample, file: FileBuilder): string {
  if (sample.unsamplable !== undefined) {
    const problem = file.use(symbol('HttpProblem', './server'));
    return `throw new ${problem}(501, "Not Implemented", { detail: ${stringLiteral(`mock: ${sample.unsamplable}`)} });`;
  }
  const parts = [`status: ${sample.status}`];
  const body = sample.body;
  if (body?.kind === 'json') parts.push(`body: ${jsonBlock(body.value, '    ')}`);
  else if (body?.kind === 'text') parts.push(`body: ${stringLiteral(body.value)}`);
  else if (body?.kind === 'bytes') parts.push(`body: new TextEncoder().encode(${stringLiteral(body.value)})`);
  if (Object.keys(sample.headers).length > 0) parts.push(`headers: ${jsonBlock(sample.headers, '    ')}`);
  return `return { ${parts.join(', ')} };`;
}
