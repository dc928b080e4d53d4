/**
 * The programmatic API, for build tools (a Vite plugin, an Nx or Turborepo task, a script): the
 * same steps as the `codegen` command, returning results instead of printing them and throwing
 * `CodegenError` (with every located diagnostic) instead of exiting.
 *
 *   import { generate, check } from 'codegen-ts';
 *   const result = await generate({ cwd: 'packages/api' });
 *   if (!(await check()).upToDate) process.exitCode = 1;
 */
import { resolve } from 'node:path';
import { findConfig, loadConfig as loadConfigFile, type ApiConfig, type ConfigInput } from './core/config/config.js';
import { missingPackagesReport, type MissingPackagesReport } from './core/pipeline/dependencies.js';
import { UsageError, type Diagnostic } from './core/diagnostics.js';
import { generate as generateSets } from './core/pipeline/generate.js';
import { applyPlan, differences, planWrites, type Difference } from './core/pipeline/writer.js';

export type { ApiConfig, ApiConfigInput, ConfigInput, EmitKind } from './core/config/config.js';
export type { InputStyle } from './core/config/input-style.js';
export type { MissingPackagesReport } from './core/pipeline/dependencies.js';
export type { Difference } from './core/pipeline/writer.js';
export { CodegenError, formatDiagnostic, UsageError, type Diagnostic, type SourceLocation } from './core/diagnostics.js';

/** Where the config is: an explicit file, or the `codegen.config.*` found in `cwd`. */
export interface ConfigSource {
  /** The config file; default: `codegen.config.{yaml,yml,json,mjs,js}` in `cwd`. */
  config?: string;
  /** Folder to look for the config in (default: `process.cwd()`). */
  cwd?: string;
  /** Already loaded APIs (from `loadConfig`), instead of reading a config file. */
  apis?: ApiConfig[];
  /** As `--strict`: spec mistakes read one obvious way (warnings otherwise) are errors, for every API. */
  strict?: boolean;
}

export interface GenerateResult {
  /** Absolute paths of files created or rewritten (handler scaffolds included). */
  written: string[];
  /** Absolute paths of files whose content was already right (not touched). */
  unchanged: string[];
  /** Absolute paths of generated files removed because the schema no longer produces them. */
  deleted: string[];
  /** Schema lint findings that did not stop generation. */
  warnings: Diagnostic[];
  /** Packages the generated code imports that the project's package.json lacks, with install commands. */
  missingPackages: MissingPackagesReport;
}

export interface CheckResult {
  /** True when every generated file on disk is exactly what the schemas produce. */
  upToDate: boolean;
  /** Files that differ: `missing` (not on disk), `stale` (other content), `extra` (no longer generated). */
  differences: Difference[];
  /** How many generated files were compared. */
  files: number;
  warnings: Diagnostic[];
  /** As for `generate`; `codegen --check` fails when `missingPackages.missing` is true. */
  missingPackages: MissingPackagesReport;
}

/** Reads and validates a config file; every problem is a located `CodegenError`. */
export async function loadConfig(file?: string, cwd = process.cwd()): Promise<ApiConfig[]> {
  const path = file ? resolve(cwd, file) : findConfig(cwd);
  if (!path) throw new UsageError(`no codegen.config.* in ${cwd}; run \`codegen init\` to create one`);
  return loadConfigFile(path);
}

function strictIf(strict: boolean | undefined, apis: ApiConfig[]): ApiConfig[] {
  return strict ? apis.map((api) => ({ ...api, strict: true })) : apis;
}

/** Generates every API and writes the result atomically (nothing is written if any API fails). */
export async function generate(source: ConfigSource = {}): Promise<GenerateResult> {
  const apis = strictIf(source.strict, source.apis ?? (await loadConfig(source.config, source.cwd)));
  const sets = await generateSets(apis);
  const summary = await applyPlan(await planWrites(sets));
  return { ...summary, warnings: sets.flatMap((set) => set.warnings ?? []), missingPackages: missingPackagesReport(sets) };
}

/** Compares what the schemas generate with what is on disk, writing nothing (`codegen --check`). */
export async function check(source: ConfigSource = {}): Promise<CheckResult> {
  const apis = strictIf(source.strict, source.apis ?? (await loadConfig(source.config, source.cwd)));
  const sets = await generateSets(apis);
  const plan = await planWrites(sets);
  const changed = differences(plan);
  return {
    upToDate: changed.length === 0,
    differences: changed,
    files: plan.length,
    warnings: sets.flatMap((set) => set.warnings ?? []),
    missingPackages: missingPackagesReport(sets),
  };
}

/** Types a `codegen.config.mjs`/`.js` (`export default defineConfig({ apis: [...] })`); returns it unchanged. */
export function defineConfig(config: ConfigInput): ConfigInput {
  return config;
}
