/**
 * AsyncAPI 3 (or OpenAPI 3.2 SSE) → `types.ts` and `validators.ts` for a realtime API: payload types
 * and validators from the shared emitters, and per channel and direction a union type and a map
 * type `{ [tag]: Payload }` the SSE and WebSocket runtimes are parameterised with.
 *
 * Direction and shape: what the server sends is read by clients (read shape); what it receives is
 * written by clients (write shape: readOnly properties left out), as for REST responses and bodies.
 */
import { createTypeEmitter, type TypeEmitter } from '../core/emit/types/emit.js';
import { emitValidators } from '../core/emit/validators/emit.js';
import { jsModuleFiles, type ModuleText } from '../core/emit/module-files.js';
import type { Generated, GeneratorContext } from '../core/pipeline/generator.js';
import { FileBuilder } from '../core/builder/file.js';
import { commentText, jsDoc, propertyKey } from '../core/builder/names.js';
import type { GeneratedFile } from '../core/pipeline/output.js';
import { describeChannels, shapeOf } from './endpoints.js';
import { emitClient } from './client.js';
import { handlerScaffold } from './handlers.js';
import { loadAsyncApi } from './load.js';
import { emitServer } from './server.js';
import { emitMock } from './mock.js';
import type { Action, Channel, RealtimeModel } from './model.js';
import type { TypesContext, ValidatorsContext } from './template-context.js';

export async function generateAsyncApi({ api, templates }: GeneratorContext<'asyncapi'>): Promise<Generated> {
  const model = await loadAsyncApi(api.inputs[0], {
    displayRoot: api.root,
    readRoots: api.readRoots ?? [api.root],
    maxInputBytes: api.maxInputBytes,
  });
  const source = model.source;
  const types = createTypeEmitter(model.schemas, { requestSchemas: receivedSchemas(model) });
  const typesContext: TypesContext = {
    source,
    title: commentText(model.title),
    version: commentText(model.version),
    schemas: types.declarations(),
    channels: channelTypes(model, types),
  };
  const files: GeneratedFile[] = [{ path: 'types.ts', content: templates.render('asyncapi/types.ts.hbs', typesContext) }];
  if (model.schemas.length > 0) {
    const file = new FileBuilder('validators.ts');
    // `validators: js` (the default): validators.js + validators.d.ts, which a project's tsc only reads.
    const result = emitValidators(model.schemas, { typeName: types.typeName, file, language: api.options.validators ?? 'js' });
    const render = (text: ModuleText) =>
      templates.render('asyncapi/validators.ts.hbs', {
        source,
        title: commentText(model.title),
        version: commentText(model.version),
        ...text,
      } satisfies ValidatorsContext);
    files.push(...jsModuleFiles('validators', file, result, render));
  }
  if (api.emit.includes('server')) files.push(...emitServer(model, types, templates, source, { redis: api.options.redis === true }));
  if (api.mock) {
    const mock = emitMock(model, types, api.mock.seed, templates, source);
    return { files: [...files, mock.file], warnings: mock.warnings };
  }
  if (api.emit.includes('client')) files.push(...emitClient(model, types, templates, source));
  const wantsHandlers = api.emit.includes('server') && api.handlers !== undefined;
  const userFiles = wantsHandlers ? await handlerScaffold(model, types, templates, api.handlers!, api.output) : [];
  return { files, userFiles };
}

/** Schemas clients write: payloads of messages the server receives, and those directions' unions. */
export function receivedSchemas(model: RealtimeModel): string[] {
  return model.channels.flatMap((channel) => [
    ...channel.messages.filter((message) => message.actions.includes('receive')).map((message) => message.payload),
    ...(channel.types.receive ? [channel.types.receive.union] : []),
  ]);
}

/** For each channel and direction, the map type from tag to payload type. */
export function channelTypes(model: RealtimeModel, types: TypeEmitter): string {
  const blocks: string[] = [];
  for (const channel of model.channels) {
    for (const action of ['send', 'receive'] as const) {
      const names = channel.types[action];
      if (!names) continue;
      const members = channel.messages.filter((message) => message.actions.includes(action));
      const lines = members.map((message) => {
        const doc = jsDoc([message.summary ?? message.title, message.description, message.deprecated && '@deprecated'], '  ');
        return `${doc}  ${propertyKey(message.tag)}: ${types.typeName(message.payload, shapeOf(action))};`;
      });
      blocks.push(`${jsDoc([mapDoc(channel, action), channel.description])}export interface ${names.map} {\n${lines.join('\n')}\n}`);
    }
    const info = describeChannels({ ...model, channels: [channel] }, types)[0];
    if (info.paramsType) {
      const lines = channel.parameters.map(
        (parameter) =>
          `${jsDoc([parameter.description], '  ')}  ${propertyKey(parameter.name)}: ${types.typeOf(parameter.schema, 'write', '  ')};`,
      );
      blocks.push(
        `/** The \`{parameters}\` of \`${commentText(channel.key)}\`'s address, ${commentText(channel.address)}. */\nexport interface ${info.paramsType} {\n${lines.join('\n')}\n}`,
      );
    }
    if (info.repliesType) {
      const lines = info.received
        .filter((entry) => entry.replies.length > 0)
        .map((entry) => `  ${propertyKey(entry.message.tag)}: ${entry.replies.join(' | ')};`);
      blocks.push(
        `/** The reply to each request the server answers on \`${commentText(channel.key)}\`, by the request's ${channel.discriminator === undefined ? 'name' : `"${commentText(channel.discriminator)}"`}. */\nexport interface ${info.repliesType} {\n${lines.join('\n')}\n}`,
      );
    }
  }
  return blocks.join('\n\n');
}

function mapDoc(channel: Channel, action: Action): string {
  const who = action === 'send' ? 'the server sends' : 'the server receives';
  const by =
    channel.transport === 'sse'
      ? action === 'send'
        ? 'by SSE event name'
        : 'the JSON body of the POST stream'
      : channel.discriminator === undefined
        ? 'by message name'
        : `by "${channel.discriminator}"`;
  const transport = channel.transport === 'sse' ? 'SSE' : channel.transport === 'http-stream' ? 'HTTP stream' : 'WebSocket';
  return `Messages ${who} on \`${channel.key}\` (${transport} ${channel.address}), ${by}.`;
}
