/**
 * The user's handler file for a generated server: written once with a typed stub per operation,
 * then only added to (see generators/core/pipeline/user-files.ts).
 */
import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { ApiModel } from './model.js';
import { jsDoc, stringLiteral } from '../core/builder/names.js';
import { displayPath, importSpecifier } from '../core/pipeline/paths.js';
import type { TemplateRenderer } from '../core/pipeline/templates.js';
import type { OperationsInfo } from './operation-types.js';
import { serverTypeNames } from './server.js';

export async function handlerScaffold(model: ApiModel, described: OperationsInfo, templates: TemplateRenderer, file: string, output: string): Promise<{ file: string; content: string }> {
  const members = described.operations.map((info) => {
    const { operation } = info;
    const doc = jsDoc([`\`${operation.method.toUpperCase()} ${operation.path}\`${operation.summary ? `: ${operation.summary}` : ''}`], '  ');
    const detail = stringLiteral(`${info.method} is not implemented yet`);
    return { name: info.method, code: `${doc}  async ${info.method}() {\n    throw new HttpProblem(501, "Not Implemented", { detail: ${detail} });\n  },` };
  });

  const existing = await readFile(file, 'utf8').catch(() => undefined);
  if (existing === undefined) {
    const content = templates.render('openapi/handlers.ts.hbs', {
      title: model.title,
      handlersType: serverTypeNames(model).handlers,
      serverImport: importSpecifier(dirname(file), `${output}/server.js`),
      stubs: members.map((member) => member.code),
    });
    return { file, content };
  }
  // ts-morph is heavy: load it only when there is a user file to add to.
  const { addMissingMembers } = await import('../core/pipeline/user-files.js');
  const stubs = members.map(({ name, code }) => ({ name, code: code.replace(/^ {2}/gm, '').replace(/,$/, '') }));
  return { file, content: addMissingMembers(existing, displayPath(file), { variable: 'handlers', members: stubs }).text };
}

