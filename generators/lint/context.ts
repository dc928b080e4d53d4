/**
 * What every style's lint context shares: the rule being run, and the findings it reports, each
 * dropped when the schema suppresses the rule there or kept with the configured severity.
 */
import type { SourceLocation } from '../core/diagnostics.js';
import type { Finding, Severity } from './finding.js';

export const DISABLE_KEY = 'x-codegen-lint-disable';
/** `codegen-lint-disable rule-a rule-b` in a comment (SDL `#`, proto `//`). */
const DISABLE_COMMENT = /codegen-lint-disable((?:[ \t,]+[a-z0-9-]+\/[a-z0-9-]+)+)/g;

export class LintContextBase {
  readonly findings: Finding[] = [];
  private rule: { id: string; severity: Severity } | undefined;

  /** Called by the runner before each rule's `check`. */
  runRule(id: string, severity: Severity, check: () => void): void {
    this.rule = { id, severity };
    try {
      check();
    } finally {
      this.rule = undefined;
    }
  }

  /** Records a finding of the running rule unless `disabled` lists the rule. */
  protected push(message: string, location: SourceLocation, disabled: readonly string[]): void {
    const rule = this.rule;
    if (!rule || disabled.includes(rule.id)) return;
    this.findings.push({ ruleId: rule.id, severity: rule.severity, message, location });
  }
}

/** Rule ids named by `codegen-lint-disable` comments in `text`. */
export function disabledInComment(text: string): string[] {
  const ids: string[] = [];
  for (const match of text.matchAll(DISABLE_COMMENT)) ids.push(...(match[1] ?? '').split(/[\s,]+/).filter(Boolean));
  return ids;
}
