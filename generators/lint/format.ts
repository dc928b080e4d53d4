/**
 * Lint output: for people (`file:line:col severity rule-id message` and a code frame), `json`, and
 * SARIF 2.1.0 (what GitHub code scanning reads to show findings inline).
 */
import { readFileSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { codegenVersion } from '../core/pipeline/version.js';
import type { Finding } from './finding.js';
import type { LintRule } from './rule.js';
import type { LintResult } from './run.js';

export const FORMATS = ['human', 'json', 'sarif'] as const;
export type LintFormat = (typeof FORMATS)[number];

export function counts(results: LintResult[]): { errors: number; warnings: number } {
  const all = results.flatMap((result) => result.findings);
  return { errors: all.filter((f) => f.severity === 'error').length, warnings: all.filter((f) => f.severity === 'warning').length };
}

/** `rules`: the registry's, which SARIF lists (passed in: the registry loads only when lint runs). */
export function formatResults(results: LintResult[], format: LintFormat, rules: readonly LintRule[], cwd = process.cwd()): string {
  if (format === 'json') return formatJson(results, cwd);
  if (format === 'sarif') return JSON.stringify(toSarif(results, rules, cwd), null, 2);
  return formatHuman(results, cwd);
}

/** A finding's file as seen from `cwd` (findings are relative to their API's root). */
function fileFromCwd(result: LintResult, finding: Finding, cwd: string): string {
  const absolute = resolve(result.target.root, finding.location.file);
  const rel = relative(cwd, absolute);
  return (rel === '' || rel.startsWith('..') || isAbsolute(rel) ? absolute : rel).split(sep).join('/');
}

function formatHuman(results: LintResult[], cwd: string): string {
  const blocks: string[] = [];
  const texts = new Map<string, string[] | undefined>();
  for (const result of results) {
    for (const finding of result.findings) {
      const file = fileFromCwd(result, finding, cwd);
      const { line, column } = finding.location;
      const head = `${file}:${line}:${column}: ${finding.severity} ${finding.ruleId}: ${finding.message}`;
      const absolute = resolve(result.target.root, finding.location.file);
      if (!texts.has(absolute)) texts.set(absolute, readLines(absolute));
      const lines = texts.get(absolute);
      blocks.push(lines ? `${head}\n${codeFrame(lines, line, column)}` : head);
    }
  }
  const { errors, warnings } = counts(results);
  const total = errors + warnings;
  blocks.push(
    total === 0
      ? `codegen lint: no problems in ${results.length} API(s)`
      : `codegen lint: ${total} problem(s) (${errors} error(s), ${warnings} warning(s)) in ${results.length} API(s)`,
  );
  return blocks.join('\n\n');
}

function readLines(file: string): string[] | undefined {
  try {
    return readFileSync(file, 'utf8').split(/\r?\n/);
  } catch {
    return undefined;
  }
}

/** Two lines either side of `line`, the line marked with `>` and a caret under `column`. */
export function codeFrame(lines: string[], line: number, column: number): string {
  const first = Math.max(1, line - 2);
  const last = Math.min(lines.length, line + 2);
  const width = String(last).length;
  const out: string[] = [];
  for (let n = first; n <= last; n++) {
    const text = (lines[n - 1] ?? '').replace(/\t/g, ' ');
    out.push(`${n === line ? '>' : ' '} ${String(n).padStart(width)} | ${text}`.trimEnd());
    if (n === line) out.push(`  ${' '.repeat(width)} | ${' '.repeat(Math.max(0, column - 1))}^`);
  }
  return out.join('\n');
}

function formatJson(results: LintResult[], cwd: string): string {
  const { errors, warnings } = counts(results);
  return JSON.stringify(
    {
      errorCount: errors,
      warningCount: warnings,
      apis: results.map((result) => ({
        name: result.target.name,
        style: result.target.style,
        findings: result.findings.map((finding) => ({
          ruleId: finding.ruleId,
          severity: finding.severity,
          message: finding.message,
          file: fileFromCwd(result, finding, cwd),
          line: finding.location.line,
          column: finding.location.column,
        })),
      })),
    },
    null,
    2,
  );
}

/** SARIF 2.1.0: one run, the rules as the tool's `rules`, each finding a result with a region. */
export function toSarif(results: LintResult[], rules: readonly LintRule[], cwd: string): Record<string, unknown> {
  const ruleIndex = new Map(rules.map((rule, i) => [rule.id, i]));
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'codegen',
            semanticVersion: codegenVersion(),
            informationUri: 'https://www.npmjs.com/package/codegen-ts',
            rules: rules.map((rule) => ({
              id: rule.id,
              shortDescription: { text: rule.docs },
              fullDescription: { text: `${rule.docs} (api-conventions ${rule.section})` },
              defaultConfiguration: { enabled: rule.severity !== 'off', level: rule.severity === 'error' ? 'error' : 'warning' },
              properties: { style: rule.style, section: rule.section },
            })),
          },
        },
        results: results.flatMap((result) =>
          result.findings.map((finding) => ({
            ruleId: finding.ruleId,
            ruleIndex: ruleIndex.get(finding.ruleId) ?? -1,
            level: finding.severity === 'error' ? 'error' : 'warning',
            message: { text: finding.message },
            locations: [
              {
                physicalLocation: {
                  artifactLocation: { uri: encodeURI(fileFromCwd(result, finding, cwd)) },
                  region: { startLine: finding.location.line, startColumn: finding.location.column },
                },
              },
            ],
          })),
        ),
        columnKind: 'utf16CodeUnits',
      },
    ],
  };
}
