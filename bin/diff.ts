/**
 * `codegen diff <old> [new]`: two files or folders of one schema, or `git:REF` for every API of the
 * config as it was at that revision (against the working tree, or against another `git:REF`).
 * Exit 1 when a breaking change is not covered by a version switch (api-conventions §9).
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Command, Option } from 'commander';
import { findConfig, loadConfig, type ApiConfig } from '../generators/core/config/config.js';
import { UsageError } from '../generators/core/diagnostics.js';
import { displayPath } from '../generators/core/pipeline/paths.js';
import { formatHuman, formatJson, isError, type DiffResult } from '../generators/diff/changes.js';
import { apiAtRevision, openRevision, showRevisionPath, type GitRevision } from '../generators/diff/git-inputs.js';
import type { DiffSide } from '../generators/diff/index.js';
import { toSarif } from '../generators/diff/sarif.js';

export interface DiffOptions {
  format: string;
  config?: string;
}

/** The differs bring graphql and protobuf-es, so they load only when a diff runs. */
const differs = () => import('../generators/diff/index.js');

type Log = { out: (text: string) => void; err: (text: string) => void };

export const FORMATS = ['human', 'json', 'sarif'] as const;

export function diffCommand(log: Log, setExitCode: (code: number) => void): Command {
  return new Command('diff')
    .description(
      'changes between two versions of an API, classified breaking / dangerous / safe (exit 1 on breaking changes without a new version)',
    )
    .argument(
      '<old>',
      "old version: a schema file, a folder of .proto/.graphql files, or git:<ref> for the config's inputs at that revision",
    )
    .argument('[new]', 'new version: a file or folder; with git:<ref>, the working tree (default) or another git:<ref>')
    .option('-c, --config <file>', 'config file for git:<ref> (default: ./codegen.config.*)')
    .addOption(new Option('-f, --format <format>', 'output format').choices([...FORMATS]).default('human'))
    .exitOverride()
    .action(async (oldArg: string, newArg: string | undefined, options: DiffOptions) => {
      setExitCode(await runDiff(oldArg, newArg, options, log));
    });
}

export async function runDiff(oldArg: string, newArg: string | undefined, options: DiffOptions, log: Log): Promise<number> {
  if (!(FORMATS as readonly string[]).includes(options.format))
    throw new UsageError(`--format: unknown format ${options.format}; expected ${FORMATS.join(', ')}`);
  const results: { api?: string; result: DiffResult }[] = [];
  if (oldArg.startsWith('git:') || newArg?.startsWith('git:')) {
    if (!oldArg.startsWith('git:')) throw new UsageError('with git:REF, the old side is the revision: codegen diff git:<ref> [git:<ref>]');
    results.push(...(await diffRevisions(oldArg.slice(4), newArg?.startsWith('git:') ? newArg.slice(4) : undefined, newArg, options)));
  } else {
    if (newArg === undefined)
      throw new UsageError("codegen diff needs two versions: codegen diff <old> <new>, or codegen diff git:<ref> for the config's inputs");
    const { diffSides, sideOf } = await differs();
    results.push({ result: await diffSides(sideOf(oldArg), sideOf(newArg)) });
  }
  if (options.format === 'sarif') {
    log.out(JSON.stringify(toSarif(results), null, 2));
  } else if (options.format === 'json') {
    const items = results.map(({ api, result }) => ({
      ...(api === undefined ? {} : { api }),
      ...(JSON.parse(formatJson(result)) as object),
    }));
    log.out(JSON.stringify(items.length === 1 && results[0]?.api === undefined ? items[0] : items, null, 2));
  } else {
    for (const { api, result } of results) {
      if (api !== undefined) log.out(`${api}:`);
      log.out(formatHuman(result));
    }
  }
  return results.some(({ result }) => result.changes.some(isError)) ? 1 : 0;
}

async function diffRevisions(
  oldRef: string,
  newRef: string | undefined,
  newArg: string | undefined,
  options: DiffOptions,
): Promise<{ api: string; result: DiffResult }[]> {
  if (newArg !== undefined && newRef === undefined)
    throw new UsageError('with git:REF, the new side is the working tree or another git:REF, not a file');
  const file = options.config ?? findConfig(process.cwd());
  if (!file)
    throw new UsageError(
      'git:REF compares the inputs of codegen.config.*, and there is none in this folder; give two files instead: codegen diff <old> <new>',
    );
  const apis = await loadConfig(resolve(file));
  const revisions: GitRevision[] = [];
  try {
    const before = openRevision(oldRef, process.cwd());
    revisions.push(before);
    const after = newRef === undefined ? undefined : openRevision(newRef, process.cwd());
    if (after) revisions.push(after);
    const out: { api: string; result: DiffResult }[] = [];
    const { diffSides } = await differs();
    for (const api of apis) {
      const oldSide = apiAtRevision(api, before);
      const newSide: DiffSide = after ? apiAtRevision(api, after) : workingTree(api);
      const missing = [...oldSide.files, ...newSide.files].find((input) => !existsSync(input));
      if (missing !== undefined) {
        // An API added (or removed) between the two versions: nothing to compare it with.
        const side = oldSide.files.includes(missing) ? before : after;
        out.push({
          api: api.name,
          result: {
            style: api.style,
            changes: [
              {
                kind: oldSide.files.includes(missing) ? 'api-added' : 'api-removed',
                class: oldSide.files.includes(missing) ? 'safe' : 'breaking',
                message: `${api.name}: ${displayPath(missing, side ? join(side.displayRoot, `git:${side.ref}`) : api.root)} does not exist at ${side ? `git:${side.ref}` : 'the working tree'}`,
                wire: 'the whole API',
                code: 'the whole generated output',
              },
            ],
          },
        });
        continue;
      }
      const result = await diffSides(oldSide, newSide, api.style);
      for (const change of result.changes) {
        if (!change.location) continue;
        for (const revision of revisions) change.location = { ...change.location, file: showRevisionPath(change.location.file, revision) };
      }
      out.push({ api: api.name, result });
    }
    return out;
  } finally {
    for (const revision of revisions) revision.cleanup();
  }
}

function workingTree(api: ApiConfig): DiffSide {
  const includePaths = api.style === 'proto' ? (api.options as { includePaths?: string[] }).includePaths : undefined;
  return {
    files: api.inputs,
    ...(includePaths && includePaths.length > 0 ? { includePaths } : {}),
    displayRoot: api.root,
    readRoots: api.readRoots ?? [api.root],
  };
}
