import { defineRule } from '../../rule.js';

/** A feed that reconnects says how soon: `retry:` (seed §2.5, §6.1.6; without it clients wait about 3 s, §8). */
export const sseRetry = defineRule({
  id: 'realtime/sse-retry',
  style: 'asyncapi',
  severity: 'warning',
  section: '§6.1',
  docs: 'An SSE feed clients reconnect to (GET) sets x-sse.retry, the reconnect interval it sends.',
  check(context) {
    for (const channel of context.model.channels) {
      if (channel.transport !== 'sse' || channel.sse?.method !== 'GET' || channel.sse.retry !== undefined) continue;
      context.report(
        channel.location,
        `SSE feed ${channel.key} sends no retry: clients reconnect after their default of about 3 seconds (§8), whatever the server can take; set x-sse: { retry: <ms> } so the first event tells them (§2.5, §6.1 rule 6)`,
        ['channels', channel.key],
      );
    }
  },
});
