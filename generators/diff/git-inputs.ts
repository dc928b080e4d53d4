/**
 * `git:REF` sides of `codegen diff`: the config's inputs as they were at a git revision, written
 * into a temporary folder laid out like the repository, so the loaders read them (and their
 * `$ref`s and imports) exactly as they read the working tree. Only regular files under the
 * folders the inputs live in (and proto include paths) are written, each within the size cap;
 * symbolic links and submodules are skipped, so nothing outside those folders is read.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';
import type { ApiConfig } from '../core/config/config.js';
import { UsageError } from '../core/diagnostics.js';
import type { DiffSide } from './index.js';

const DEFAULT_MAX_BYTES = 64 * 1024 * 1024;

export interface GitRevision {
  /** The ref as the user wrote it, shown in locations: `git:HEAD~1:schemas/openapi/tasks.yaml`. */
  ref: string;
  /** Folder the revision's files are written under (`<tmp>/git:<ref>/` mirrors the repository). */
  root: string;
  /** Folder to show paths from: the parent of the `git:<ref>` folder. */
  displayRoot: string;
  repository: string;
  /** Folders already written (APIs of one config share them). */
  written: Set<string>;
  cleanup: () => void;
}

function git(cwd: string, args: string[], maxBuffer = 256 * 1024 * 1024): Buffer {
  return execFileSync('git', args, { cwd, maxBuffer, stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Checks REF names a commit of the repository `cwd` is in; the folder its files go to. */
export function openRevision(ref: string, cwd: string): GitRevision {
  // A ref that looks like an option, or climbs out of the temporary folder, is refused before git sees it.
  if (ref === '' || ref.startsWith('-') || !/^[\w.~^/@{}-]+$/.test(ref) || ref.split('/').includes('..')) {
    throw new UsageError(`git:${ref}: not a revision codegen reads; write git:<branch>, git:<tag>, git:<commit> or git:HEAD~1`);
  }
  let repository: string;
  try {
    repository = git(cwd, ['rev-parse', '--show-toplevel']).toString().trim();
  } catch {
    throw new UsageError(`git:${ref}: ${cwd} is not inside a git repository`);
  }
  try {
    git(repository, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]);
  } catch {
    throw new UsageError(`git:${ref}: no such revision in ${repository} (see \`git log --oneline\`)`);
  }
  const displayRoot = mkdtempSync(join(tmpdir(), 'codegen-diff-'));
  const root = join(displayRoot, `git:${ref}`);
  mkdirSync(root, { recursive: true });
  return { ref, root, displayRoot, repository, written: new Set(), cleanup: () => rmSync(displayRoot, { recursive: true, force: true }) };
}

/** Writes the folders an API reads at the revision and returns the API's side of the diff. */
export function apiAtRevision(api: ApiConfig, revision: GitRevision): DiffSide {
  const inRepo = (path: string) => {
    const rel = relative(revision.repository, path);
    return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel)) ? rel.split(sep).join('/') : undefined;
  };
  const includePaths = api.style === 'proto' ? ((api.options as { includePaths?: string[] }).includePaths ?? []) : [];
  // What the loaders may read ($refs, imports): the project root and allowRead, as for generation.
  const readRoots = (api.readRoots ?? [api.root]).filter((folder) => inRepo(folder) !== undefined);
  const folders = [...new Set([...api.inputs.map((input) => dirname(input)), ...includePaths, ...readRoots])];
  for (const folder of folders) {
    const rel = inRepo(folder);
    if (rel === undefined) throw new UsageError(`git:${revision.ref}: ${folder} is outside the repository ${revision.repository}`);
    writeTree(revision, rel, api.maxInputBytes ?? DEFAULT_MAX_BYTES);
  }
  const moved = (path: string) => join(revision.root, inRepo(path) ?? '');
  return {
    files: api.inputs.map(moved),
    includePaths: includePaths.length > 0 ? includePaths.map(moved) : undefined,
    readRoots: readRoots.map(moved),
    displayRoot: revision.displayRoot,
  };
}

/** Files a loader reads: schemas and what they import or reference (not the project's code). */
const SCHEMA_FILE = /\.(ya?ml|json|proto|graphqls?|gql)$/i;

function writeTree(revision: GitRevision, folder: string, maxBytes: number): void {
  if (revision.written.has(folder)) return;
  revision.written.add(folder);
  const listing = git(revision.repository, [
    'ls-tree',
    '-r',
    '-z',
    '-l',
    '--full-tree',
    revision.ref,
    '--',
    folder === '' ? '.' : folder,
  ]).toString();
  const wanted: { object: string; path: string }[] = [];
  for (const entry of listing.split('\0')) {
    if (!entry) continue;
    const tab = entry.indexOf('\t');
    const [mode, type, object, size] = entry.slice(0, tab).split(/ +/);
    const path = entry.slice(tab + 1);
    // Regular files only: no symbolic links (120000), no submodules (commit); within the size cap.
    if (type !== 'blob' || (mode !== '100644' && mode !== '100755') || object === undefined || !SCHEMA_FILE.test(path)) continue;
    if (path.split('/').some((part) => part === '..' || part === '' || part === '.') || Number(size) > maxBytes) continue;
    wanted.push({ object, path });
  }
  if (wanted.length === 0) return;
  // One `git cat-file --batch` for all of them: `<object> blob <size>\n<bytes>\n` each, in order.
  const out = execFileSync('git', ['cat-file', '--batch'], {
    cwd: revision.repository,
    input: wanted.map((w) => w.object).join('\n') + '\n',
    maxBuffer: 1 << 30,
  });
  let offset = 0;
  for (const { path } of wanted) {
    const newline = out.indexOf(10, offset);
    const header = out.subarray(offset, newline).toString().split(' ');
    const size = Number(header[2]);
    const target = join(revision.root, ...path.split('/'));
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, out.subarray(newline + 1, newline + 1 + size));
    offset = newline + 1 + size + 1;
  }
}

/** `<tmp>/git:HEAD~1/schemas/x.yaml` shown as `git:HEAD~1/schemas/x.yaml` → `git:HEAD~1:schemas/x.yaml`. */
export function showRevisionPath(file: string, revision: GitRevision): string {
  const prefix = `git:${revision.ref}/`;
  return file.startsWith(prefix) ? `git:${revision.ref}:${file.slice(prefix.length)}` : file;
}
