import { defineRule } from '../../rule.js';

/** Reconnecting with Last-Event-ID resumes only where the server keeps the events (seed §6.1 rule 7). */
export const sseResume = defineRule({
  id: 'realtime/sse-resume',
  style: 'asyncapi',
  severity: 'warning',
  section: '§6.1',
  docs: 'An SSE feed (GET) resumes after Last-Event-ID: x-sse.resume is not turned off.',
  check(context) {
    for (const channel of context.model.channels) {
      if (channel.transport !== 'sse' || channel.sse?.method !== 'GET' || channel.sse.resume) continue;
      context.report(
        channel.location,
        `SSE feed ${channel.key} does not resume (x-sse.resume: false): a client that reconnects with Last-Event-ID misses every event sent while it was away (§6.1 rule 7); keep the default resume: true (the server keeps an event log), or suppress this rule where missed events do not matter`,
        ['channels', channel.key],
      );
    }
  },
});
