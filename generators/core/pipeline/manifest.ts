/**
 * The ownership manifest: `.codegen-manifest` in each output folder lists the files codegen
 * generated there, one sorted `/`-separated path per line. The writer tells its files from the
 * user's by this list, not by what a file says, so a template (the header included) may render
 * anything. It holds paths only: no timestamps or versions (output stays deterministic) and no
 * content hashes (it changes only when the set of files does, so it diffs and merges cleanly;
 * `--check` already finds hand edits by comparing whole contents).
 */
import { readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { resolveInside } from './contained.js';
import { CodegenError, type Diagnostic } from '../diagnostics.js';
import { displayPath } from './paths.js';

export const MANIFEST_NAME = '.codegen-manifest';

const INTRO = '# Files codegen generated in this folder; it updates and removes only these. Do not edit: run `npx codegen`.';

/** The manifest listing `paths` (relative to the output folder). */
export function renderManifest(paths: string[]): string {
  return `${[INTRO, ...[...paths].sort()].join('\n')}\n`;
}

export interface Manifest {
  /** The manifest's text as found on disk. */
  text: string;
  /** Absolute paths of the files it lists, each inside the folder. */
  files: Set<string>;
}

/**
 * Reads `folder`'s manifest; undefined when there is none (output of a version before manifests).
 * A line that is not a plain path inside the folder is an error located at that line, never
 * skipped: a tampered or corrupted manifest must not steer what the writer deletes.
 */
export async function readManifest(folder: string): Promise<Manifest | undefined> {
  const file = join(folder, MANIFEST_NAME);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (cause) {
    if ((cause as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new CodegenError({
      severity: 'error',
      message: `cannot read codegen's manifest: ${(cause as Error).message}`,
      location: { file: displayPath(file), line: 1, column: 1 },
      hint: `delete ${displayPath(file)} and run codegen again`,
    });
  }
  const files = new Set<string>();
  const problems: Diagnostic[] = [];
  text.split('\n').forEach((raw, index) => {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line === '' || line.startsWith('#')) return;
    const target = resolveInside(folder, line);
    // Only the form the writer itself writes: `./a`, `a//b` or `a/../b` mean someone else wrote it.
    if (target && relative(folder, target).split(sep).join('/') === line) {
      files.add(target);
      return;
    }
    problems.push({
      severity: 'error',
      location: { file: displayPath(file), line: index + 1, column: 1 },
      message: `${JSON.stringify(line)} is not a plain relative path inside the output folder ${displayPath(folder)}`,
      hint: "codegen's manifest lists only files it generated in this folder; delete this line (or restore the manifest from version control) and run codegen again",
    });
  });
  if (problems.length) throw new CodegenError(problems);
  return { text, files };
}
