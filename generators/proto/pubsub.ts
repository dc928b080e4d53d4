/**
 * `pubsub.ts` of a proto API, written with the server: the typed topics of its streaming methods
 * (topics.ts decides them) under the services' keys, `createPubSub(fanOut)` binding them to one
 * `FanOut` (runtime/grpc-pubsub.ts). Shape of the generated API:
 *
 * ```ts
 * const pubsub = createPubSub(new RedisFanOut(redis)); // or createPubSub() in one process
 * await pubsub.TaskService.syncTasks.publish(event);
 * for await (const event of await pubsub.TaskService.syncTasks.subscribe({ signal })) ...
 * ```
 */
import type { DescField } from '@bufbuild/protobuf';
import { wktPublicImportPaths } from '@bufbuild/protobuf/codegenv2';
import { FileBuilder, runtimeSymbol, symbol, type ImportSymbol } from '../core/builder/file.js';
import { callExpression } from '../core/builder/layout.js';
import { jsDoc, objectProperty, propertyAccess, propertyKey, stringLiteral, uniqueName } from '../core/builder/names.js';
import type { GeneratedFile } from '../core/pipeline/output.js';
import type { TemplateRenderer } from '../core/pipeline/templates.js';
import { codecModule, codecName } from './codecs.js';
import type { MethodInfo, ServicesModel } from './server-model.js';
import type { PubSubContext } from './template-context.js';
import type { TopicInfo } from './topics.js';

export function emitPubSub(
  model: ServicesModel,
  topics: readonly TopicInfo[],
  templates: TemplateRenderer,
  source: string,
): GeneratedFile[] {
  if (topics.length === 0) return [];
  const services = model.services.filter((service) => topics.some((topic) => topic.methods.some((each) => each.service === service)));
  const file = new FileBuilder('pubsub.ts', ['PubSub', 'createPubSub', ...services.map((service) => `${service.key}Topics`)]);
  file.reexportRuntime('grpc-pubsub', 'topic', 'pubsub');

  // Everything the topics print is imported first, so the locals below avoid those names.
  const printed = topics.map((topic) => {
    const first = topic.methods[0]!.method;
    const payload = file.use(first.output.type);
    const keyed = topic.key.length > 0;
    const key = keyed
      ? `Pick<${file.use(first.input.type)}, ${topic.key.map((field) => stringLiteral(field.localName)).join(' | ')}>`
      : undefined;
    const keyParts = keyed
      ? `(key) => [${topic.key.map((field) => propertyAccess('key', field.localName)).join(', ')}]`
      : file.use(runtimeSymbol('noKey'));
    const codec = `${file.use(runtimeSymbol('binaryTopicCodec'))}(${file.use(codecOf(first))})`;
    const bound = file.use(runtimeSymbol(keyed ? 'KeyedStreamTopic' : 'StreamTopic'));
    const topicClass = file.use(runtimeSymbol('Topic'));
    return {
      type: `${bound}<${key === undefined ? '' : `${key}, `}${payload}>`,
      /** The bound topic's construction, laid out after `before` (its line's start). */
      init: (before: string) =>
        callExpression(
          `new ${bound}`,
          [
            'fanOut',
            callExpression(
              `new ${topicClass}<${key ?? 'undefined'}, ${payload}>`,
              [stringLiteral(topic.name), keyParts, codec],
              '    ',
              ',',
            ),
          ],
          before,
          ';',
        ),
    };
  });
  const taken = new Set([...file.names(), 'fanOut']);
  const locals = topics.map((topic) => uniqueName(topic.methods[0]!.method.name, taken));

  const example = topics.find((topic) => topic.key.length === 0) ?? topics[0]!;
  const { service: exampleService, method: exampleMethod } = example.methods[0]!;
  const context: PubSubContext = {
    source,
    example: propertyAccess(propertyAccess('pubsub', exampleService.key), exampleMethod.name),
    fanOut: file.use(runtimeSymbol('FanOut')),
    memoryFanOut: file.use(runtimeSymbol('MemoryFanOut')),
    topics: topics.map((topic, index) => ({
      doc: topic.methods.length > 1 ? jsDoc([`Shared by ${topic.methods.map(({ method }) => methodName(method)).join(', ')}.`], '  ') : '',
      local: locals[index]!,
      init: printed[index]!.init(`  const ${locals[index]!} = `),
    })),
    services: services.map((service) => {
      const members = topics.flatMap((topic, index) =>
        topic.methods.filter((each) => each.service === service).map(({ method }) => ({ topic, index, method })),
      );
      return {
        doc: jsDoc([`The topics of \`${service.desc.typeName}\`'s streaming methods.`]),
        typeName: service.desc.typeName,
        key: propertyKey(service.key),
        topicsType: `${service.key}Topics`,
        members: members.map(({ topic, index, method }) => ({
          doc: jsDoc([method.comment, topicText(topic, method)], '  '),
          name: propertyKey(method.name),
          type: printed[index]!.type,
          entry: objectProperty(method.name, locals[index]!),
        })),
      };
    }),
  };
  return [{ path: 'pubsub.ts', content: templates.render('proto/pubsub.ts.hbs', context, file) }];
}

/** What a member's JSDoc says of its topic: name, message, key, who shares it. */
function topicText(topic: TopicInfo, method: MethodInfo): string {
  const message = method.desc.output.typeName;
  const key = topic.key.length > 0 ? `, by ${keyText(topic.key)} of the request` : '';
  const others = topic.methods.filter((each) => each.method !== method).map((each) => methodName(each.method));
  const shared = others.length > 0 ? ` Shared with ${others.join(', ')}.` : '';
  return `Topic \`${topic.name}\`: the \`${message}\` messages it streams${key}.${shared}`;
}

function keyText(key: readonly DescField[]): string {
  return key.map((field) => `\`${field.name}\``).join(', ');
}

function methodName(method: MethodInfo): string {
  return `\`${method.desc.parent.name}.${method.desc.name}\``;
}

/** The message's generated binary codec, or its schema for a well-known type (encoded by reflection). */
function codecOf(method: MethodInfo): ImportSymbol {
  const message = method.desc.output;
  if (Object.hasOwn(wktPublicImportPaths, message.file.proto.name)) return symbol(method.output.schema.name, method.output.schema.from);
  return symbol(codecName(message), codecModule(message.file));
}
