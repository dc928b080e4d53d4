/**
 * What a lint run reports: a finding and its severity. Its own module because both the rule
 * contract (`rule.ts`) and the contexts that collect findings (`context.ts`) need it, and the rule
 * contract names the contexts.
 */
import type { SourceLocation } from '../core/diagnostics.js';

export type Severity = 'error' | 'warning';

/** One finding, located. The message says what is wrong and how to fix it, citing the seed. */
export interface Finding {
  ruleId: string;
  severity: Severity;
  message: string;
  location: SourceLocation;
}
