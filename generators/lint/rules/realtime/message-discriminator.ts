import type { JsonSchema } from '../../../core/schema/json-schema.js';
import { pinnedValue } from '../../../asyncapi/channels.js';
import type { Message } from '../../../asyncapi/model.js';
import type { AsyncApiContext } from '../../asyncapi-context.js';
import { defineRule } from '../../rule.js';

/** One connection carries many kinds of message: a property must tell them apart (seed §6.2). */
export const messageDiscriminator = defineRule({
  id: 'realtime/message-discriminator',
  style: 'asyncapi',
  severity: 'warning',
  section: '§6.2',
  docs: 'A WebSocket channel with several messages has a discriminator property (x-discriminator, or a const every message pins).',
  check(context) {
    for (const channel of context.model.channels) {
      if (channel.transport !== 'websocket' || channel.discriminator !== undefined) continue;
      const directions = (['send', 'receive'] as const).map((action) => channel.messages.filter((message) => message.actions.includes(action)));
      if (!directions.some((messages) => messages.length > 1)) continue;
      const clash = directions.map((messages) => sharedValue(context, messages)).find((found) => found !== undefined);
      const why = clash ? `: ${clash.names.join(' and ')} ${clash.names.length === 2 ? 'both' : 'all'} pin ${clash.property} to "${clash.value}"` : ' with nothing that tells them apart';
      context.report(channel.location, `WebSocket channel ${channel.key} carries several messages${why}; give every payload a property such as type with a distinct const and name it in x-discriminator: type, so both sides can dispatch text frames (§6.2)`, ['channels', channel.key]);
    }
  },
});

/** A property every message pins, and the messages that pin it to the same value (why it cannot discriminate). */
function sharedValue(context: AsyncApiContext, messages: Message[]): { property: string; value: string; names: string[] } | undefined {
  if (messages.length < 2) return undefined;
  const byName = new Map<string, JsonSchema>(context.model.schemas.map((named) => [named.name, named.schema]));
  const first = context.schema({ $ref: `#/$defs/${messages[0]?.payload}` });
  for (const property of Object.keys((typeof first === 'object' && first.properties) || {})) {
    const values = messages.map((message) => pinnedValue({ $ref: `#/$defs/${message.payload}` }, property, byName));
    if (values.some((value) => value === undefined)) continue;
    for (const value of new Set(values)) {
      const names = messages.filter((_, i) => values[i] === value).map((message) => message.name);
      if (names.length > 1) return { property, value: value as string, names };
    }
  }
  return undefined;
}
