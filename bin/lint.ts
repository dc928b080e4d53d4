/**
 * `codegen lint [files...]`: the conventions of the seed as rules over every API in the config, or
 * over the files named (each linted with its API's settings when the config has it). Exit codes: 0
 * clean, 1 errors (or more warnings than `--max-warnings`) or a document the generator refuses, 2 usage.
 */
import { basename, dirname, resolve } from 'node:path';
import { Command, Option } from 'commander';
import { findConfig, loadConfig, type ApiConfig } from '../generators/core/config/config.js';
import { UsageError } from '../generators/core/diagnostics.js';
import { styleOfInput } from '../generators/core/config/detect.js';
import { displayPath } from '../generators/core/pipeline/paths.js';
import { counts, formatResults, FORMATS, type LintFormat } from '../generators/lint/format.js';
import type { LintRule } from '../generators/lint/rule.js';
import type { LintResult, LintTarget } from '../generators/lint/run.js';

interface LintOptions {
  config?: string;
  format: LintFormat;
  maxWarnings?: string;
}

type Log = { out: (text: string) => void; err: (text: string) => void };

/**
 * `rules`: the registry's, for the rule table of `--help` and the run; the caller loads them only when
 * the command line names lint (they bring graphql and protobuf-es, which other commands do without).
 */
export function lintCommand(log: Log, setExitCode: (code: number) => void, rules: readonly LintRule[]): Command {
  return new Command('lint')
    .description('check schemas against the API conventions (every API in the config, or the files given)')
    .argument('[files...]', 'schema files (OpenAPI/Swagger .yaml/.json, GraphQL SDL, .proto); default: every API in the config')
    .option('-c, --config <file>', 'config file (default: ./codegen.config.*)')
    .addOption(new Option('-f, --format <format>', 'output format').choices([...FORMATS]).default('human'))
    .option('--max-warnings <n>', 'exit 1 when there are more warnings than this')
    .addHelpText(
      'after',
      `\nRules (configure per API: lint: { rules: { <id>: off | warn | error } }):\n${rules.map((rule) => `  ${rule.id.padEnd(28)} ${rule.severity.padEnd(8)} ${rule.docs}`).join('\n')}`,
    )
    .exitOverride()
    .action(async (files: string[], options: LintOptions) => {
      const maxWarnings = options.maxWarnings === undefined ? undefined : Number(options.maxWarnings);
      if (maxWarnings !== undefined && !(Number.isSafeInteger(maxWarnings) && maxWarnings >= 0))
        throw new UsageError(`--max-warnings: expected a whole number ≥ 0, not ${JSON.stringify(options.maxWarnings)}`);
      const targets = await lintTargets(files, options.config);
      const { lintTarget } = await import('../generators/lint/run.js');
      const results: LintResult[] = [];
      for (const target of targets) results.push(await lintTarget(target));
      log.out(formatResults(results, options.format, rules));
      const { errors, warnings } = counts(results);
      const tooManyWarnings = maxWarnings !== undefined && warnings > maxWarnings;
      if (tooManyWarnings) log.err(`codegen lint: ${warnings} warning(s), more than --max-warnings ${maxWarnings}`);
      setExitCode(errors > 0 || tooManyWarnings ? 1 : 0);
    });
}

async function lintTargets(files: string[], configOption: string | undefined): Promise<LintTarget[]> {
  const cwd = process.cwd();
  const configFile = configOption ?? findConfig(cwd);
  if (files.length === 0) {
    if (!configFile)
      throw new UsageError('no codegen.config.* in this folder; name the files to lint (`codegen lint api.yaml`), or run `codegen init`');
    return (await loadConfig(configFile)).map(targetOf);
  }
  const apis = configFile ? await loadConfig(configFile) : [];
  return files.map((file) => {
    const absolute = resolve(cwd, file);
    const api = apis.find((candidate) => candidate.inputs.includes(absolute));
    if (api) return { ...targetOf(api), inputs: [absolute] };
    const style = styleOfInput(absolute);
    if (!style)
      throw new UsageError(
        `${displayPath(absolute)}: cannot tell its style from its name or content; lint reads OpenAPI/Swagger (.yaml, .json), GraphQL SDL (.graphql) and .proto files`,
      );
    return { name: basename(file), style, inputs: [absolute], root: cwd, readRoots: [dirname(absolute)] };
  });
}

function targetOf(api: ApiConfig): LintTarget {
  const target: LintTarget = {
    name: api.name,
    style: api.style,
    inputs: api.inputs,
    root: api.root,
    options: api.options as LintTarget['options'] & object,
  };
  if (api.readRoots) target.readRoots = api.readRoots;
  if (api.maxInputBytes !== undefined) target.maxInputBytes = api.maxInputBytes;
  if (api.lint) target.lint = api.lint;
  return target;
}
