import { defineRule } from '../../rule.js';

/** A subscription without arguments fans every event out to every subscriber (seed §8: limits against unbounded work). */
export const subscriptionArguments = defineRule({
  id: 'graphql/subscription-arguments',
  style: 'graphql',
  severity: 'warning',
  section: '§8',
  docs: 'Subscription fields take an argument that narrows what they receive (an id or a filter).',
  check(context) {
    const subscription = context.schema.getSubscriptionType();
    if (!subscription) return;
    for (const field of Object.values(subscription.getFields())) {
      if (field.args.length > 0) continue;
      context.report(
        field.astNode,
        `Subscription.${field.name} takes no argument, so every event goes to every subscriber; add an argument that narrows it (an id, or a filter such as projectId: ID!) to bound the fan-out (§8)`,
        subscription.astNode,
      );
    }
  },
});
