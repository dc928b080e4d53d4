/**
 * Runs the rules of an API's style over it: loads the API once into its style's lint context,
 * runs every rule the config leaves on (with the configured severity), and returns the findings
 * in file order. A document the generator refuses stops here with its located errors.
 */
import type { InputStyle } from '../core/config/input-style.js';
import { AsyncApiContext } from './asyncapi-context.js';
import { GraphQLContext } from './graphql-context.js';
import type { LintConfig } from './lint-config.js';
import { ProtoContext } from './proto-context.js';
import { rulesFor } from './registry.js';
import { RestContext } from './rest-context.js';
import type { Finding, Severity } from './finding.js';
import type { LintRule, LintStyle } from './rule.js';
import type { LintContextBase } from './context.js';

/** What lint needs of an API: the subset of `ApiConfig` it reads. */
export interface LintTarget {
  name: string;
  style: InputStyle;
  inputs: string[];
  /** Folder paths in findings are relative to. */
  root: string;
  readRoots?: string[];
  maxInputBytes?: number;
  options?: { includePaths?: string[]; assumeValidSDL?: boolean };
  lint?: LintConfig;
}

export interface LintResult {
  target: LintTarget;
  findings: Finding[];
}

export async function lintTarget(target: LintTarget): Promise<LintResult> {
  const context = await loadContext(target.style, target);
  for (const rule of rulesFor(target.style) as LintRule[]) {
    const severity = severityOf(rule, target.lint);
    if (severity === undefined) continue;
    context.runRule(rule.id, severity, () => (rule.check as (context: LintContextBase) => void)(context));
  }
  return { target, findings: inFileOrder(context.findings) };
}

function severityOf(rule: LintRule, config: LintConfig | undefined): Severity | undefined {
  const setting = config?.rules[rule.id];
  if (setting === 'off') return undefined;
  if (setting === 'warn') return 'warning';
  if (setting === 'error') return 'error';
  return rule.severity === 'off' ? undefined : rule.severity;
}

async function loadContext(style: LintStyle, target: LintTarget): Promise<LintContextBase> {
  const common = { displayRoot: target.root, readRoots: target.readRoots ?? [target.root], maxInputBytes: target.maxInputBytes };
  if (style === 'openapi') return RestContext.load(target.inputs[0] ?? '', common);
  if (style === 'asyncapi') return AsyncApiContext.load(target.inputs[0] ?? '', common);
  if (style === 'graphql')
    return GraphQLContext.load(target.inputs, { ...common, assumeValidSDL: target.options?.assumeValidSDL === true });
  return ProtoContext.load(target.inputs, { ...common, includePaths: target.options?.includePaths });
}

function inFileOrder(findings: Finding[]): Finding[] {
  return [...findings].sort((a, b) => {
    const x = a.location;
    const y = b.location;
    return x.file < y.file
      ? -1
      : x.file > y.file
        ? 1
        : x.line - y.line || x.column - y.column || (a.ruleId < b.ruleId ? -1 : a.ruleId > b.ruleId ? 1 : 0);
  });
}
