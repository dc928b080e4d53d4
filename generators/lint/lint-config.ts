/**
 * The `lint` key of an API in codegen.config.*: `lint: { rules: { "<rule-id>": off | warn | error } }`,
 * checked like every other key (unknown keys, unknown rule ids with a suggestion, wrong values).
 */
import { closest } from '../core/schema/json-documents.js';
import { RULE_SETTINGS, type RuleSetting } from './rule.js';

export interface LintConfig {
  rules: Record<string, RuleSetting>;
}

type Report = (path: (string | number)[], message: string, hint?: string, at?: 'key' | 'value') => void;

/** `ruleIds`: the registry's (the caller loads it only when a config sets `lint`: it brings graphql and protobuf-es). */
export function checkLintConfig(
  value: unknown,
  at: (string | number)[],
  ruleIds: readonly string[],
  report: Report,
): LintConfig | undefined {
  if (value === undefined) return undefined;
  if (!isRecord(value)) {
    report(at, 'expected an object with `rules`', 'e.g. lint: { rules: { rest/max-nesting: off } }');
    return undefined;
  }
  for (const key of Object.keys(value))
    if (key !== 'rules') report([...at, key], `unknown key ${JSON.stringify(key)}`, 'allowed here: rules', 'key');
  const rules = value.rules ?? {};
  if (!isRecord(rules)) {
    report([...at, 'rules'], 'expected an object of rule ids to off, warn or error');
    return undefined;
  }
  const out: Record<string, RuleSetting> = {};
  for (const [id, setting] of Object.entries(rules)) {
    if (!ruleIds.includes(id)) {
      const near = closest(id, [...ruleIds]);
      report(
        [...at, 'rules', id],
        `unknown lint rule ${JSON.stringify(id)}`,
        near ? `did you mean "${near}"? (\`codegen lint --help\` lists the rules)` : '`codegen lint --help` lists the rules',
        'key',
      );
    } else if (!RULE_SETTINGS.includes(setting as RuleSetting)) {
      report([...at, 'rules', id], `expected off, warn or error, not ${JSON.stringify(setting)}`);
    } else {
      Object.defineProperty(out, id, { value: setting, enumerable: true });
    }
  }
  return { rules: out };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
