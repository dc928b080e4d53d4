import { Kind, visit, type ASTNode } from 'graphql';
import { defineRule } from '../../rule.js';

/** `@deprecated` tells clients what to use instead only with a reason (seed §9). */
export const deprecatedReason = defineRule({
  id: 'graphql/deprecated-reason',
  style: 'graphql',
  severity: 'warning',
  section: '§9',
  docs: '@deprecated names a reason: what to use instead.',
  check(context) {
    const definitions = new Set<ASTNode>();
    for (const type of Object.values(context.schema.getTypeMap())) {
      if (type.astNode) definitions.add(type.astNode);
      for (const extension of type.extensionASTNodes ?? []) definitions.add(extension);
    }
    for (const definition of definitions) {
      visit(definition, {
        Directive(directive) {
          if (directive.name.value !== 'deprecated') return;
          const reason = directive.arguments?.find((argument) => argument.name.value === 'reason');
          if (reason && !(reason.value.kind === Kind.STRING && reason.value.value.trim() === '')) return;
          context.report(
            directive,
            `@deprecated without a reason; clients need to know what to use instead (§9): write @deprecated(reason: "Use … instead.")`,
            definition,
          );
        },
      });
    }
  },
});
