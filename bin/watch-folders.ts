/**
 * Keeps one `fs.watch` per folder of a watch plan and reports relevant changes. A folder that does
 * not exist (an input's folder deleted, a templates folder not created yet) is watched through its
 * nearest existing parent, and re-watched once it exists again; a folder replaced by a new one
 * (same path, new inode) is re-watched too. Watch failures are warnings, never fatal.
 */
import { watch, statSync, type FSWatcher } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import type { WatchPlan } from './watch-plan.js';

interface Watched {
  folder: string;
  recursive: boolean;
  /** Entry names that matter (non-recursive watches); undefined: every file in (or beneath) the folder. */
  names?: Set<string>;
  inode: number;
  watcher: FSWatcher;
}

/** Never a reason to regenerate: dependencies, VCS data, editor swap/backup/temp files, hidden files. */
const NOISE = /(^|[\\/])(node_modules|\.git)([\\/]|$)|(^|[\\/])\.[^\\/]*$|~$|\.sw[a-p]$|\.tmp$|(^|[\\/])4913$/;

export class FolderWatchers {
  readonly #watched = new Map<string, Watched>();
  readonly #warned = new Set<string>();
  #ignored: string[] = [];

  /** `onChange`: a relevant path changed (or a watch broke); `warn`: a folder cannot be watched. */
  constructor(
    private readonly onChange: () => void,
    private readonly warn: (message: string) => void,
  ) {}

  /** Watches what `plan` asks for, reusing the watches that still fit and closing the others. */
  update(plan: WatchPlan): void {
    this.#ignored = plan.ignored;
    const wanted = new Map<string, { folder: string; recursive: boolean; names?: Set<string> }>();
    for (const target of plan.targets) {
      const existing = nearestFolder(target.folder);
      if (existing === undefined) continue;
      // Missing folder (or a file where a folder is expected): watch the parent for the first missing step.
      const scope = existing === target.folder ? target.scope : new Set([relative(existing, target.folder).split(sep)[0]!]);
      const recursive = scope === 'tree';
      const names = typeof scope === 'string' ? undefined : scope;
      const key = `${recursive ? 'tree' : 'folder'}:${existing}`;
      const entry = wanted.get(key);
      if (!entry) wanted.set(key, { folder: existing, recursive, names: names && new Set(names) });
      // Merging: a whole folder wins over a few of its entries.
      else if (entry.names && names) names.forEach((name) => entry.names!.add(name));
      else entry.names = undefined;
    }
    for (const [key, watched] of this.#watched) {
      if (!wanted.has(key) || inodeOf(watched.folder) !== watched.inode) this.#close(key);
    }
    for (const [key, entry] of wanted) {
      const watched = this.#watched.get(key);
      if (watched) watched.names = entry.names;
      else this.#open(key, entry.folder, entry.recursive, entry.names);
    }
  }

  close(): void {
    for (const key of [...this.#watched.keys()]) this.#close(key);
  }

  #open(key: string, folder: string, recursive: boolean, names: Set<string> | undefined): void {
    const inode = inodeOf(folder);
    if (inode === undefined) return;
    try {
      const watcher = watch(folder, { recursive }, (_event, name) => this.#changed(key, name?.toString()));
      // A watch that breaks (folder gone, too many watches) is dropped; the next run re-plans it.
      watcher.on('error', () => {
        this.#close(key);
        this.onChange();
      });
      this.#watched.set(key, { folder, recursive, names, inode, watcher });
    } catch (cause) {
      const code = (cause as NodeJS.ErrnoException).code ?? String(cause);
      if (this.#warned.has(`${folder}:${code}`)) return;
      this.#warned.add(`${folder}:${code}`);
      const hint = code === 'ENOSPC' ? ' (the system limit on watches is reached; raise fs.inotify.max_user_watches)' : '';
      this.warn(`codegen: cannot watch ${folder}: ${(cause as Error).message}${hint}; changes there are not seen`);
    }
  }

  #close(key: string): void {
    this.#watched.get(key)?.watcher.close();
    this.#watched.delete(key);
  }

  #changed(key: string, name: string | undefined): void {
    const watched = this.#watched.get(key);
    if (!watched) return;
    // Without a name (rare; the folder itself changed) the change may matter: run.
    if (name !== undefined && name !== '') {
      if (watched.names && !watched.names.has(name.split(/[\\/]/)[0]!)) return;
      if (!watched.names && NOISE.test(name)) return;
      const path = join(watched.folder, name);
      // Our own writes: in an output folder, or creating the folders above one (`out/` for `out/api`).
      if (this.#ignored.some((ignored) => path === ignored || path.startsWith(ignored + sep) || ignored.startsWith(path + sep))) return;
    }
    this.onChange();
  }
}

/** `path` if it is a folder, else its nearest parent that is one. */
function nearestFolder(path: string): string | undefined {
  for (let folder = path; ; folder = dirname(folder)) {
    try {
      if (statSync(folder).isDirectory()) return folder;
    } catch {
      // missing: try the parent
    }
    if (dirname(folder) === folder) return undefined;
  }
}

function inodeOf(folder: string): number | undefined {
  try {
    return statSync(folder).ino;
  } catch {
    return undefined;
  }
}
