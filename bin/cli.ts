/**
 * The `codegen` command line. Exit codes: 0 ok, 1 bad input or stale output (--check), 2 usage.
 */
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { Command, CommanderError, Option } from 'commander';
import { EMIT_KINDS, findConfig, inlineConfig, loadConfig, type ApiConfig, type EmitKind } from '../generators/core/config/config.js';
import { CodegenError, UsageError, formatDiagnostic } from '../generators/core/diagnostics.js';
import { missingPackagesReport } from '../generators/core/pipeline/dependencies.js';
import { tsconfigWarnings } from '../generators/core/pipeline/tsconfig-check.js';
import { generate } from '../generators/core/pipeline/generate.js';
import { RunMemo } from '../generators/core/pipeline/run-memo.js';
import { optionsHelp } from '../generators/core/config/options-docs.js';
import { displayPath } from '../generators/core/pipeline/paths.js';
import { applyPlan, differences, planWrites, type PlannedChange } from '../generators/core/pipeline/writer.js';
import { watchAndRegenerate } from './watch.js';
import { lintCommand } from './lint.js';
import { diffCommand } from './diff.js';
import { mockCommand } from './mock.js';
import { detectNamed, findSchemas, planApis, starterConfig } from './init.js';

interface RunOptions {
  check?: boolean;
  watch?: boolean;
  quiet?: boolean;
  strict?: boolean;
}

const EXAMPLES = `
Examples:
  $ codegen                                   generate every API in ./codegen.config.*
  $ codegen --check                           exit 1 if committed output is stale (for CI)
  $ codegen --watch                           regenerate whenever a schema changes
  $ codegen generate api.yaml -o src/api      one OpenAPI file, no config needed
  $ codegen generate api.yaml -o src/api --emit types,validators
  $ codegen init                              write a codegen.config.yaml for the schemas found here
  $ codegen init api.yaml schema.graphql x.proto   ... or for these files (style detected from content)
  $ codegen lint                              check every API against the conventions (exit 1 on errors)
  $ codegen lint api.yaml --format sarif      ... one file, as SARIF for GitHub code scanning
  $ codegen diff old.yaml new.yaml            breaking / dangerous / safe changes (exit 1 on breaking)
  $ codegen diff git:main                     every API in the config: main against the working tree
  $ codegen mock rest --port 4010 --seed 7    serve API rest from its schema (examples, else generated values)`;

export async function main(argv: string[]): Promise<number> {
  const log = { out: (text: string) => process.stdout.write(`${text}\n`), err: (text: string) => process.stderr.write(`${text}\n`) };
  let exitCode = 0;
  const program = new Command('codegen')
    .description(
      'Schema-first TypeScript code generator: OpenAPI, GraphQL, Protocol Buffers and AsyncAPI → types, validators, clients and servers.',
    )
    .option('-c, --config <file>', 'config file (default: ./codegen.config.{yaml,yml,json,mjs,js})')
    .option('--check', 'do not write; exit 1 and list files that are stale, missing or extra')
    .option('-w, --watch', 'regenerate when an input changes')
    .option('-q, --quiet', 'print only errors')
    .option('--strict', 'spec mistakes codegen otherwise reads one obvious way, with a warning, are errors')
    .addHelpText('after', `${EXAMPLES}\n${optionsHelp()}`)
    // `codegen generate x -q`: options after a subcommand are the subcommand's own.
    .enablePositionalOptions()
    .exitOverride()
    .configureOutput({ writeOut: (text) => process.stdout.write(text), writeErr: (text) => process.stderr.write(text) })
    .action(async (options: RunOptions & { config?: string }) => {
      const file = options.config ?? findConfig(process.cwd());
      if (!file)
        throw new UsageError(
          'no codegen.config.* in this folder; run `codegen init` to create one, or use `codegen generate <input> -o <dir>`',
        );
      exitCode = await run(() => loadConfig(file), options, log, [resolve(file)]);
    });

  program
    .command('generate')
    .description('generate from one input file, without a config')
    .argument('<input>', 'schema file (OpenAPI 3.x or AsyncAPI 3 JSON/YAML, GraphQL SDL, .proto)')
    .requiredOption('-o, --output <dir>', 'output folder')
    .addOption(new Option('--emit <kinds>', `comma-separated: ${EMIT_KINDS.join(', ')}`).default('types,validators,client'))
    .option('-t, --templates <dir>', 'folder of template overrides')
    .option('-d, --documents <paths...>', 'GraphQL operation documents (files or folders) for the typed client')
    .option('--allow-read <folders...>', "folders outside the input's folder that $refs and imports may read")
    .option('--check', 'do not write; exit 1 if the output folder is stale')
    .option('-w, --watch', 'regenerate when the input changes')
    .option('-q, --quiet', 'print only errors')
    .option('--strict', 'spec mistakes codegen otherwise reads one obvious way, with a warning, are errors')
    .exitOverride()
    .action(
      async (
        input: string,
        options: RunOptions & { output: string; emit: string; templates?: string; documents?: string[]; allowRead?: string[] },
      ) => {
        const emit = options.emit
          .split(',')
          .map((kind) => kind.trim())
          .filter(Boolean) as EmitKind[];
        const unknown = emit.filter((kind) => !EMIT_KINDS.includes(kind));
        if (unknown.length) throw new UsageError(`--emit: unknown output ${unknown.join(', ')}; expected ${EMIT_KINDS.join(', ')}`);
        exitCode = await run(
          async () => inlineConfig(input, options.output, emit, options.templates, options.documents, options.allowRead),
          options,
          log,
          [],
        );
      },
    );

  program
    .command('init')
    .description('write a commented codegen.config.yaml: one API per schema file (found in this folder, or the files given)')
    .argument('[schemas...]', 'schema files: OpenAPI/AsyncAPI (.yaml/.json), GraphQL (.graphql), .proto; default: search this folder')
    .option('-f, --force', 'overwrite an existing config')
    .exitOverride()
    .action(async (schemas: string[], options: { force?: boolean }) => {
      const cwd = process.cwd();
      const existing = findConfig(cwd);
      if (existing && !options.force) throw new UsageError(`${displayPath(existing)} already exists (use --force to overwrite it)`);
      const apis = planApis(schemas.length > 0 ? detectNamed(schemas, cwd) : findSchemas(cwd), cwd);
      const file = 'codegen.config.yaml';
      await writeFile(resolve(cwd, file), starterConfig(apis));
      if (apis.length === 0)
        log.out(`wrote ${file} with a commented example of every style (no schema found here); uncomment one and run \`npx codegen\``);
      else
        log.out(`wrote ${file}: ${apis.map((api) => `${api.name} (${api.style})`).join(', ')}\nnext: review it, then run \`npx codegen\``);
    });

  // The lint rules bring graphql and protobuf-es: loaded only when the command line names lint (no other command runs it or shows its help).
  const lintRules = argv.includes('lint') ? (await import('../generators/lint/registry.js')).RULES : [];
  program.addCommand(lintCommand(log, (code) => (exitCode = code), lintRules));
  program.addCommand(diffCommand(log, (code) => (exitCode = code)));
  program.addCommand(mockCommand(log, (code) => (exitCode = code)));

  try {
    await program.parseAsync(argv, { from: 'user' });
    return exitCode;
  } catch (cause) {
    if (cause instanceof CommanderError) return cause.exitCode === 0 ? 0 : 2;
    if (cause instanceof UsageError) {
      log.err(`codegen: ${cause.message}`);
      return 2;
    }
    if (cause instanceof CodegenError) {
      log.err(cause.message);
      return 1;
    }
    throw cause;
  }
}

type Log = { out: (text: string) => void; err: (text: string) => void };

async function run(configure: () => Promise<ApiConfig[]>, options: RunOptions, log: Log, extraWatched: string[]): Promise<number> {
  // Under --watch the same missing packages would be named after every save: say it once per change.
  let lastNeeds = '';
  let lastBuildWarnings = '';
  // Under --watch each run reuses what the previous one computed from the same inputs.
  const memo = options.watch ? new RunMemo() : undefined;
  const once = async (loaded?: ApiConfig[]): Promise<{ code: number; apis?: ApiConfig[] }> => {
    const started = performance.now();
    const configured = loaded ?? (await configure());
    const apis = options.strict ? configured.map((api) => ({ ...api, strict: true })) : configured;
    memo?.begin();
    const sets = await generate(apis, memo);
    memo?.end();
    if (!options.quiet) for (const warning of sets.flatMap((set) => set.warnings ?? [])) log.err(formatDiagnostic(warning));
    const buildWarnings = options.quiet ? [] : tsconfigWarnings(sets);
    if (buildWarnings.join('\n') !== lastBuildWarnings) buildWarnings.forEach((line) => log.err(line));
    lastBuildWarnings = options.watch ? buildWarnings.join('\n') : '';
    const plan = await planWrites(sets);
    // Packages the output imports that the project lacks: printed even with --quiet (the output
    // cannot compile without them), and a failure of --check (CI must catch it).
    const needs = missingPackagesReport(sets);
    if (options.check) {
      const code = reportCheck(plan, log, options.quiet);
      needs.lines.forEach((line) => log.err(line));
      return { code: needs.missing ? 1 : code, apis };
    }
    const summary = await applyPlan(plan);
    if (!options.quiet) {
      for (const file of summary.written) log.out(`  wrote    ${displayPath(file)}`);
      for (const file of summary.deleted) log.out(`  removed  ${displayPath(file)}`);
      const ms = Math.round(performance.now() - started);
      log.out(
        `codegen: ${summary.written.length} written, ${summary.unchanged.length} unchanged, ${summary.deleted.length} removed in ${ms} ms`,
      );
    }
    if (needs.lines.join('\n') !== lastNeeds) needs.lines.forEach((line) => log.err(line));
    lastNeeds = options.watch ? needs.lines.join('\n') : '';
    return { code: 0, apis };
  };

  if (!options.watch) return (await once()).code;
  return watchAndRegenerate({ configure, generate: once, alwaysWatched: extraWatched, log });
}

function reportCheck(plan: PlannedChange[], log: Log, quiet?: boolean): number {
  const problems = differences(plan);
  for (const { file, state } of problems) log.err(`  ${state.padEnd(7)}  ${displayPath(file)}`);
  if (problems.length > 0) {
    log.err(`codegen --check: ${problems.length} generated file(s) differ from the schemas; run \`npx codegen\` and commit the result`);
    return 1;
  }
  if (!quiet) log.out(`codegen --check: ${plan.length} files up to date`);
  return 0;
}
