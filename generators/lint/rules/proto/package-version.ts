import { defineRule } from '../../rule.js';
import { PROTO_PATH } from '../../proto-context.js';

/**
 * `acme.tasks.v1`: a version segment lets a breaking change live beside the old package. Seed §9.4
 * says the package "may" carry one, so the rule is off unless the config turns it on (a house policy).
 */
export const packageVersion = defineRule({
  id: 'grpc/package-version',
  style: 'proto',
  severity: 'off',
  section: '§9',
  docs: 'The package name ends in a version segment (acme.tasks.v1). Off by default: §9 says it may.',
  check(context) {
    for (const file of context.files) {
      if (!file.package) {
        context.report(
          file,
          [],
          `${file.name} declares no package; declare one ending in a version segment, e.g. package acme.tasks.v1; (§9: the package name may carry a version segment, so breaking changes go to v2 beside v1)`,
        );
        continue;
      }
      if (/(^|\.)v\d+((alpha|beta)\d*)?$/.test(file.package)) continue;
      context.report(
        file,
        [PROTO_PATH.package],
        `package ${file.package} has no version segment; end it in one, e.g. package ${file.package}.v1; (§9: a breaking change then goes to a new package beside the old one)`,
      );
    }
  },
});
