/**
 * `mock.ts` of an AsyncAPI document, written only for `codegen mock`: the generated realtime server
 * with handlers answering each received message's reply with a sample, POST streams sending a
 * sample of each event, and a timer publishing, on every channel it can, the next sample of the
 * messages the server sends. Samples come from core/schema/samples.ts (seeded per message).
 */
import { FileBuilder, symbol } from '../core/builder/file.js';
import { commentText, jsonBlock, objectKey, propertyAccess, propertyKey, stringLiteral } from '../core/builder/names.js';
import type { Diagnostic } from '../core/diagnostics.js';
import type { TypeEmitter } from '../core/emit/types/emit.js';
import type { GeneratedFile } from '../core/pipeline/output.js';
import type { TemplateRenderer } from '../core/pipeline/templates.js';
import { SampleCheck } from '../core/schema/sample-check.js';
import { hashKey } from '../core/mock/seeded-random.js';
import { SampleGenerator } from '../core/schema/samples.js';
import { describeChannels, handledMessages, type ChannelInfo } from './endpoints.js';
import type { Message, RealtimeModel } from './model.js';
import type { MockContext } from './template-context.js';

export function emitMock(
  model: RealtimeModel,
  types: TypeEmitter,
  seed: number,
  templates: TemplateRenderer,
  source: string,
): { file: GeneratedFile; warnings: Diagnostic[] } {
  const file = new FileBuilder('mock.ts', ['mockHandlers', 'serveMock', 'timedMessages']);
  const generator = new SampleGenerator(model.schemas, new SampleCheck(model.schemas));
  const warnings: Diagnostic[] = [];
  /** A literal of `message`'s payload, or undefined (with a warning) when none can be built. */
  /** `indent`: that of the line the literal starts on. */
  const sample = (channel: ChannelInfo, message: Message, indent: string): string | undefined => {
    const built = generator.sample(
      { $ref: `#/$defs/${message.payload}` },
      hashKey(seed, `${channel.channel.key} ${message.key}`),
      'response',
    );
    if (built.ok) return jsonBlock(built.value, indent);
    warnings.push({
      location: message.location,
      severity: 'warning',
      message: `mock: ${channel.channel.key} ${message.key}: ${built.reason}`,
    });
    return undefined;
  };
  const channels = describeChannels(model, types);
  const handlers: string[] = [];
  const timed: string[] = [];
  for (const info of channels) {
    const { channel } = info;
    const replies = new Set(channel.operations.flatMap((operation) => operation.reply?.messages ?? []));
    if (channel.transport === 'websocket') {
      const members = handledMessages(info).map(({ message }) => {
        const replyKey = channel.operations.find((operation) => operation.messages.includes(message.key) && operation.reply)?.reply
          ?.messages[0];
        const reply = channel.messages.find((candidate) => candidate.key === replyKey);
        const answer = reply ? sample(info, reply, '      ') : undefined;
        const body = reply
          ? answer === undefined
            ? 'throw new Error("no sample of the reply could be built")'
            : `return ${answer};`
          : 'return undefined;';
        return `    async ${propertyKey(message.tag)}() {\n      ${body}\n    },`;
      });
      if (members.length > 0) handlers.push(`  ${objectKey(info.member)}: {\n${members.join('\n')}\n  },`);
      // A channel with parameters has a topic per path: the timer has none to publish to.
      if (!info.paramsType)
        for (const { message } of info.sent.filter(({ message }) => !replies.has(message.key))) {
          const literal = sample(info, message, '  ');
          if (literal) timed.push(`  (publish) => ${propertyAccess('publish', info.member)}(${literal}),`);
        }
    } else if (channel.transport === 'sse' && channel.sse?.method === 'POST') {
      const sends = info.sent.flatMap(({ message }) => {
        const literal = sample(info, message, '    ');
        return literal ? [`    stream.send(${stringLiteral(message.tag)}, ${literal});`] : [];
      });
      handlers.push(`  async ${propertyKey(info.member)}({ stream }) {\n${sends.join('\n')}\n  },`);
    } else if (channel.transport === 'sse' && !info.paramsType) {
      for (const { message } of info.sent) {
        const literal = sample(info, message, '  ');
        if (literal) timed.push(`  (publish) => ${propertyAccess('publish', info.member)}(${stringLiteral(message.tag)}, ${literal}),`);
      }
    }
  }
  file.use(symbol('RealtimeHandlers', './server', { type: true }));
  const context: MockContext = {
    source,
    title: commentText(model.title),
    version: commentText(model.version),
    variant: seed,
    handlers,
    timed,
  };
  return { file: { path: 'mock.ts', content: templates.render('asyncapi/mock.ts.hbs', context, file) }, warnings };
}
