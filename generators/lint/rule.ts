/**
 * The shape of a lint rule, modelled on graphql-js's `validation/rules/*Rule.ts`: one rule per file,
 * each a plain object with an id, the style it checks, a default severity, a docs line, and a
 * `check(context)` that reports findings through the context (which locates them and applies
 * suppressions and the configured severity).
 */
import type { AsyncApiContext } from './asyncapi-context.js';
import type { Severity } from './finding.js';
import type { GraphQLContext } from './graphql-context.js';
import type { ProtoContext } from './proto-context.js';
import type { RestContext } from './rest-context.js';

/** What a user may set per rule in `lint.rules`. */
export type RuleSetting = 'off' | 'warn' | 'error';
export const RULE_SETTINGS: readonly RuleSetting[] = ['off', 'warn', 'error'];

export interface ContextByStyle {
  openapi: RestContext;
  graphql: GraphQLContext;
  proto: ProtoContext;
  asyncapi: AsyncApiContext;
}
export type LintStyle = keyof ContextByStyle;

export interface LintRule<S extends LintStyle = LintStyle> {
  /** `<area>/<name>`, e.g. `rest/no-verbs-in-paths`. */
  id: string;
  style: S;
  /** Its severity when the config does not set one; `off`: it runs only when the config turns it on. */
  severity: Severity | 'off';
  /** The seed section the rule enforces, e.g. `§2.1`. */
  section: string;
  /** One sentence for the README table and SARIF: what the rule asks for. */
  docs: string;
  check(context: ContextByStyle[S]): void;
}

/** Declares a rule with its style's context type inferred. */
export function defineRule<S extends LintStyle>(rule: LintRule<S>): LintRule<S> {
  return rule;
}
