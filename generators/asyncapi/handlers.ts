/**
 * The user's handler file for a generated realtime server: written once with a typed stub per
 * message the server receives (grouped by WebSocket channel) and per POST stream, then only added
 * to: a message added to the manifest gets a stub, nothing the user wrote changes
 * (generators/core/pipeline/user-files.ts).
 */
import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { TypeEmitter } from '../core/emit/types/emit.js';
import { FileBuilder, symbol } from '../core/builder/file.js';
import { commentText, indent, jsDoc, propertyKey, stringLiteral } from '../core/builder/names.js';
import { displayPath, importSpecifier } from '../core/pipeline/paths.js';
import type { TemplateRenderer } from '../core/pipeline/templates.js';
import type { StubMember } from '../core/pipeline/user-files.js';
import { describeChannels, handledMessages } from './endpoints.js';
import type { RealtimeModel } from './model.js';
import type { HandlersContext } from './template-context.js';

/** The scaffold, or additions to the user's file; nothing when the server needs no handlers. */
export async function handlerScaffold(
  model: RealtimeModel,
  types: TypeEmitter,
  templates: TemplateRenderer,
  file: string,
  output: string,
): Promise<{ file: string; content: string }[]> {
  const members = describeChannels(model, types).flatMap((info): StubMember[] => {
    const { channel } = info;
    if (channel.transport === 'sse') {
      if (channel.sse!.method !== 'POST') return [];
      const message = stringLiteral(`${info.member} is not implemented yet`);
      const doc = jsDoc([`\`POST ${info.path}\`: send the stream's events with \`stream.send(event, data)\`.`]);
      return [{ name: info.member, code: `${doc}async ${propertyKey(info.member)}() {\n  throw new Error(${message});\n}` }];
    }
    const handled = handledMessages(info);
    if (handled.length === 0) return [];
    const nested = handled.map((entry): StubMember => {
      const message = stringLiteral(`${info.member}.${entry.message.tag} is not implemented yet`);
      const answer = entry.replies.length > 0 ? `Answer with ${entry.replies.map((type) => `\`${type}\``).join(' or ')}.` : undefined;
      const doc = jsDoc([entry.message.summary ?? entry.message.title, answer]);
      return { name: entry.message.tag, code: `${doc}${propertyKey(entry.message.tag)}() {\n  throw new Error(${message});\n}` };
    });
    const body = nested.map((member) => `${indent(member.code, '  ')},`).join('\n');
    const doc = jsDoc([`WebSocket ${info.path}: one handler per message a client sends.`]);
    return [{ name: info.member, code: `${doc}${propertyKey(info.member)}: {\n${body}\n}`, members: nested }];
  });
  if (members.length === 0) return [];

  const existing = await readFile(file, 'utf8').catch(() => undefined);
  if (existing === undefined) {
    const builder = new FileBuilder(file, ['handlers']);
    // The user's file imports the server by the path from its own folder, as written.
    const handlersType = builder.use(
      symbol('RealtimeHandlers', importSpecifier(dirname(file), `${output}/server.js`), { type: true, verbatim: true }),
    );
    const context: HandlersContext = {
      title: commentText(model.title),
      imports: builder.imports(),
      handlersType,
      stubs: members.map((member) => `${indent(member.code, '  ')},`),
    };
    return [{ file, content: templates.render('asyncapi/handlers.ts.hbs', context) }];
  }
  // ts-morph is heavy: load it only when there is a user file to add to.
  const { addMissingMembers } = await import('../core/pipeline/user-files.js');
  return [{ file, content: addMissingMembers(existing, displayPath(file), { variable: 'handlers', members }).text }];
}
