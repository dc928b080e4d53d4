import { defineRule } from '../../rule.js';

/** WebSocket has no same-origin policy and no header flow after the handshake: authenticate in it or in the first message (seed §5.3, §5.4). */
export const websocketAuth = defineRule({
  id: 'realtime/websocket-auth',
  style: 'asyncapi',
  severity: 'warning',
  section: '§5',
  docs: 'A WebSocket channel authenticates: security on its servers or operations, or x-first-message-auth.',
  check(context) {
    for (const channel of context.model.channels) {
      if (channel.transport !== 'websocket' || channel.websocket?.firstMessageAuth) continue;
      const secured = (pointer: string[]) => {
        const security = context.raw([...pointer, 'security']);
        return Array.isArray(security) && security.length > 0;
      };
      if (channel.servers.some((server) => secured(['servers', server]))) continue;
      if (channel.operations.some((operation) => secured(['operations', operation.name]))) continue;
      context.report(channel.location, `WebSocket channel ${channel.key} (${channel.address}) has no authentication; after the handshake the cookie/token flow is gone (§5.3): declare security on its server (a token in the handshake) or x-first-message-auth (a token in the first message), and keep the server's Origin allow-list (§5.4)`, ['channels', channel.key]);
    }
  },
});
