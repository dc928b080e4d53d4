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
      const directions = (['send', 'receive'] as const).map((action) =>
        channel.messages.filter((message) => message.actions.includes(action)),
      );
      if (!directions.some((messages) => messages.length > 1)) continue;
      const clashes = directions.map((messages) => sameValues(context, messages)).find((found) => found.length > 0) ?? [];
      const why =
        clashes.length > 0
          ? `: ${clashes.map((clash) => `${clash.names.join(' and ')} ${clash.names.length === 2 ? 'both' : 'all'} pin ${clash.property} to "${clash.value}"`).join(', ')}`
          : ' with nothing that tells them apart';
      context.report(
        channel.location,
        `WebSocket channel ${channel.key} carries several messages${why}; give every payload a property such as type with a distinct const and name it in x-discriminator: type, so both sides can dispatch text frames (§6.2)`,
        ['channels', channel.key],
      );
    }
  },
});

/**
 * The property most messages pin (Slack's `type`), and the messages that pin it to one value: why it
 * cannot discriminate. Messages that do not pin it are left out.
 */
function sameValues(context: AsyncApiContext, messages: Message[]): { property: string; value: string; names: string[] }[] {
  if (messages.length < 2) return [];
  const byName = new Map<string, JsonSchema>(context.model.schemas.map((named) => [named.name, named.schema]));
  const payloads = messages.map((message) => context.schema({ $ref: `#/$defs/${message.payload}` }));
  const properties = new Set(payloads.flatMap((payload) => Object.keys((typeof payload === 'object' && payload.properties) || {})));
  const pinned = [...properties]
    .map((property) => ({
      property,
      values: messages.map((message) => pinnedValue({ $ref: `#/$defs/${message.payload}` }, property, byName)),
    }))
    .sort((a, b) => b.values.filter(Boolean).length - a.values.filter(Boolean).length);
  const best = pinned[0];
  if (!best) return [];
  return [...new Set(best.values)].flatMap((value) => {
    const names = messages.filter((_, i) => value !== undefined && best.values[i] === value).map((message) => message.name);
    return value !== undefined && names.length > 1 ? [{ property: best.property, value, names }] : [];
  });
}
