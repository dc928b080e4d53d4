/**
 * The user's handler file of a gRPC server: written once with a stub per rpc, grouped by service
 * (`handlers.TaskService.getTask`), then only added to: an rpc or a service added to the proto
 * gets a stub, nothing the user wrote changes (generators/core/pipeline/user-files.ts).
 */
import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { FileBuilder, symbol } from '../core/builder/file.js';
import { indent, jsDoc, propertyKey, stringLiteral } from '../core/builder/names.js';
import { displayPath, importSpecifier } from '../core/pipeline/paths.js';
import type { TemplateRenderer } from '../core/pipeline/templates.js';
import type { StubMember } from '../core/pipeline/user-files.js';
import type { MethodInfo, ServiceInfo, ServicesModel } from './server-model.js';
import { modeName } from './server.js';
import { importNamed } from './service-files.js';
import type { HandlersContext } from './template-context.js';

export async function handlerScaffold(
  model: ServicesModel,
  templates: TemplateRenderer,
  file: string,
  output: string,
): Promise<{ file: string; content: string }> {
  const members = model.services.map(serviceMember);
  const existing = await readFile(file, 'utf8').catch(() => undefined);
  if (existing === undefined) {
    const serverImport = importSpecifier(dirname(file), `${output}/server.js`);
    const builder = new FileBuilder(file, ['handlers']);
    // The user's file imports the server by the path from its own folder, as written.
    importNamed(builder, [
      symbol('Code', serverImport, { verbatim: true }),
      symbol('ConnectError', serverImport, { verbatim: true }),
      symbol('GrpcServices', serverImport, { type: true, verbatim: true }),
    ]);
    const context: HandlersContext = {
      serverImport,
      imports: builder.imports(),
      services: members.map((member) => indent(member.code, '  ')),
    };
    return { file, content: templates.render('proto/handlers.ts.hbs', context) };
  }
  // ts-morph is heavy: load it only when there is a user file to add to.
  const { addMissingMembers } = await import('../core/pipeline/user-files.js');
  return { file, content: addMissingMembers(existing, displayPath(file), { variable: 'handlers', members }).text };
}

/** `TaskService: { async getTask() { throw ... }, ... }`, each method also a member of its own. */
function serviceMember(service: ServiceInfo): StubMember {
  const methods = service.methods.map((method) => methodStub(service, method));
  const body = methods.map((method) => `${indent(method.code, '  ')},`).join('\n');
  return {
    name: service.key,
    code: `${jsDoc([`\`${service.desc.typeName}\``])}${propertyKey(service.key)}: {\n${body}\n}`,
    members: methods,
  };
}

function methodStub(service: ServiceInfo, method: MethodInfo): StubMember {
  const message = stringLiteral(`${service.desc.name}.${method.desc.name} is not implemented yet`);
  const doc = jsDoc([method.comment ?? `\`${method.desc.name}\` (${modeName(method.kind)}).`]);
  const streams = method.kind === 'server_streaming' || method.kind === 'bidi_streaming';
  const code = `${doc}async ${streams ? '*' : ''}${propertyKey(method.name)}() {\n  throw new ConnectError(${message}, Code.Unimplemented);\n}`;
  return { name: method.name, code };
}
