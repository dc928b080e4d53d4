/** The README's table of lint rules, generated from the rule files (test/lint.test.ts compares them). */
import { RULES } from './registry.js';

export const README_RULES_BEGIN = '<!-- lint-rules:begin (generated from generators/lint/rules/*; test/lint.test.ts checks it) -->';
export const README_RULES_END = '<!-- lint-rules:end -->';

export function rulesMarkdown(): string {
  const rows = RULES.map((rule) => `| \`${rule.id}\` | ${rule.severity} | ${rule.section} | ${rule.docs.replace(/\|/g, '\\|')} |`);
  return [README_RULES_BEGIN, '| rule | default | seed | what it asks for |', '|---|---|---|---|', ...rows, README_RULES_END].join('\n');
}
