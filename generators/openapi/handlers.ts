/**
 * The user's handler file for a generated server: written once with a typed stub per operation,
 * then only added to (see generators/core/pipeline/user-files.ts).
 */
import { readFile } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { FileBuilder, symbol } from '../core/builder/file.js';
import type { ApiModel } from './model.js';
import { jsDoc, stringLiteral } from '../core/builder/names.js';
import { displayPath, importSpecifier } from '../core/pipeline/paths.js';
import type { TemplateRenderer } from '../core/pipeline/templates.js';
import type { OperationsInfo } from './operation-types.js';
import { serverTypeNames } from './server.js';
import type { HandlersContext } from './template-context.js';

export async function handlerScaffold(
  model: ApiModel,
  described: OperationsInfo,
  templates: TemplateRenderer,
  file: string,
  output: string,
): Promise<{ file: string; content: string }> {
  const members = described.operations.map((info) => {
    const { operation } = info;
    const doc = jsDoc(
      [`\`${operation.method.toUpperCase()} ${operation.path}\`${operation.summary ? `: ${operation.summary}` : ''}`],
      '  ',
    );
    const detail = stringLiteral(`${info.method} is not implemented yet`);
    return {
      name: info.method,
      code: `${doc}  async ${info.method}() {\n    throw new HttpProblem(501, "Not Implemented", { detail: ${detail} });\n  },`,
    };
  });

  // The user's file lives outside the output folder: it names the generated server as written.
  const server = importSpecifier(dirname(file), `${output}/server.js`);
  const handlersType = serverTypeNames(model).handlers;
  const builder = new FileBuilder(basename(file), ['handlers']);
  builder.use(symbol('HttpProblem', server, { verbatim: true }));
  builder.use(symbol(handlersType, server, { type: true, verbatim: true }));
  const context: HandlersContext = {
    title: model.title,
    imports: builder.imports(),
    handlersType,
    stubs: members.map((member) => member.code),
  };
  const scaffold = templates.render('openapi/handlers.ts.hbs', context);
  const existing = await readFile(file, 'utf8').catch(() => undefined);
  // A file still as written has every stub: nothing to add, and no need to parse it.
  if (existing === undefined || existing === scaffold) return { file, content: scaffold };
  // ts-morph is heavy (~0.4 s of CPU to load): only for a file the user has edited.
  const { addMissingMembers } = await import('../core/pipeline/user-files.js');
  const stubs = members.map(({ name, code }) => ({ name, code: code.replace(/^ {2}/gm, '').replace(/,$/, '') }));
  return { file, content: addMissingMembers(existing, displayPath(file), { variable: 'handlers', members: stubs }).text };
}
