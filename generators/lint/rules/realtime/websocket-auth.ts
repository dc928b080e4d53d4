import type { JsonSchema } from '../../../core/schema/json-schema.js';
import { words } from '../../../core/builder/names.js';
import type { AsyncApiContext } from '../../asyncapi-context.js';
import { defineRule } from '../../rule.js';

/** WebSocket has no same-origin policy and no header flow after the handshake: authenticate in it or in the first message (seed §5.3, §5.4). */
export const websocketAuth = defineRule({
  id: 'realtime/websocket-auth',
  style: 'asyncapi',
  severity: 'warning',
  section: '§5',
  docs: 'A WebSocket channel authenticates: security on its servers or operations, x-first-message-auth, or a token field in a message clients send.',
  check(context) {
    for (const channel of context.model.channels) {
      if (channel.transport !== 'websocket' || channel.websocket?.firstMessageAuth) continue;
      const secured = (pointer: string[]) => {
        const security = context.raw([...pointer, 'security']);
        return Array.isArray(security) && security.length > 0;
      };
      if (channel.servers.some((server) => secured(['servers', server]))) continue;
      if (channel.operations.some((operation) => secured(['operations', operation.name]))) continue;
      // A token in a message clients send is §5.3's "token in the first message" (Kraken's subscribe.subscription.token).
      if (
        channel.messages.some(
          (message) => message.actions.includes('receive') && carriesToken(context, { $ref: `#/$defs/${message.payload}` }, 0),
        )
      )
        continue;
      context.report(
        channel.location,
        `WebSocket channel ${channel.key} (${channel.address}) has no authentication; after the handshake the cookie/token flow is gone (§5.3): declare security on its server (a token in the handshake), or a token field in the first message clients send (or x-first-message-auth), and keep the server's Origin allow-list (§5.4)`,
        ['channels', channel.key],
      );
    }
  },
});

/** Tokens that page or resume, not authenticate. */
const NOT_AUTH = new Set(['page', 'next', 'continuation', 'resume', 'sync', 'cursor']);
const CREDENTIALS = new Set(['authorization', 'auth', 'api key', 'apikey', 'jwt', 'bearer', 'credential', 'credentials', 'access key']);

/** A property (up to three levels down) that carries a credential: `token`, `accessToken`, `api_key`, `authorization`. */
function carriesToken(context: AsyncApiContext, value: JsonSchema | undefined, depth: number): boolean {
  const schema = context.schema(value);
  if (typeof schema !== 'object' || depth > 3) return false;
  const parts = [...(schema.allOf ?? []), ...(schema.oneOf ?? []), ...(schema.anyOf ?? [])];
  return (
    Object.entries(schema.properties ?? {}).some(([name, property]) => isCredential(name) || carriesToken(context, property, depth + 1)) ||
    parts.some((part) => carriesToken(context, part, depth + 1))
  );
}

function isCredential(name: string): boolean {
  const nameWords = words(name).map((word) => word.toLowerCase());
  const last = nameWords[nameWords.length - 1];
  if (last === 'token') return !nameWords.some((word) => NOT_AUTH.has(word));
  return CREDENTIALS.has(nameWords.join(' '));
}
