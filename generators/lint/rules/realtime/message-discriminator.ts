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
      const several = (['send', 'receive'] as const).some((action) => channel.messages.filter((message) => message.actions.includes(action)).length > 1);
      if (!several) continue;
      context.report(channel.location, `WebSocket channel ${channel.key} carries several messages with nothing that tells them apart; give every payload a property such as type with a distinct const and name it in x-discriminator: type, so both sides can dispatch text frames (§6.2)`, ['channels', channel.key]);
    }
  },
});
