import { getNamedType, isObjectType } from 'graphql';
import { defineRule } from '../../rule.js';

/** A mutation returns an object payload, which can grow fields (the result, user errors) without breaking clients (seed §9.2). */
export const mutationPayload = defineRule({
  id: 'graphql/mutation-payload',
  style: 'graphql',
  severity: 'warning',
  section: '§9',
  docs: 'Mutations return an object payload type, not a scalar, enum or list.',
  check(context) {
    const mutation = context.schema.getMutationType();
    if (!mutation) return;
    for (const field of Object.values(mutation.getFields())) {
      const named = getNamedType(field.type);
      if (isObjectType(named) && field.type.toString().replace(/!$/, '') === named.name) continue;
      context.report(
        field.astNode,
        `Mutation.${field.name} returns ${field.type.toString()}, not an object payload; a payload type (e.g. ${field.name.charAt(0).toUpperCase()}${field.name.slice(1)}Payload { ... }) can carry the result and business errors and grow fields without breaking old clients (§7.2, §9)`,
        mutation.astNode,
      );
    }
  },
});
