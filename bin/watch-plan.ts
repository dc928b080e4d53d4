/**
 * What `codegen --watch` watches: everything one generation reads (the config file, each input and
 * the files next to it, files it `$ref`s, GraphQL documents, proto include paths, template
 * overrides), as folders. A file is watched through its folder, so a save by rename/replace, a
 * deletion and a re-creation are all seen.
 */
import { existsSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { ApiConfig } from '../generators/core/config/config.js';
import { sharedRuntimeFolder } from '../generators/core/pipeline/shared-runtime.js';

/** A folder to watch. `scope`: every file beneath it ('tree'), every file directly in it ('folder'), or only these entries. */
export interface WatchTarget {
  folder: string;
  scope: 'tree' | 'folder' | Set<string>;
}

export interface WatchPlan {
  targets: WatchTarget[];
  /** Paths whose changes are codegen's own writes (output folders, handler stubs): never a reason to run. */
  ignored: string[];
}

/**
 * `alwaysWatched`: files watched whatever the config says (the config file itself, even while
 * invalid); `referenced`: files the inputs were last seen to `$ref`.
 */
export function watchPlan(apis: ApiConfig[], alwaysWatched: string[], referenced: string[] = []): WatchPlan {
  const files = new Map<string, Set<string>>();
  const folders = new Set<string>();
  const trees = new Set<string>();
  const addFile = (file: string) => {
    const folder = dirname(file);
    if (!files.has(folder)) files.set(folder, new Set());
    files.get(folder)!.add(basename(file));
  };
  // A path that may be a file or a folder (documents): a folder is watched whole, anything else
  // through its parent, so that creating it later is seen too.
  const addFileOrTree = (path: string) => (isFolder(path) ? trees.add(path) : addFile(path));

  alwaysWatched.forEach((file) => addFile(resolve(file)));
  referenced.forEach(addFile);
  for (const api of apis) {
    // The input's whole folder: schemas split into files usually keep them side by side.
    api.inputs.forEach((input) => folders.add(dirname(input)));
    api.documents.forEach(addFileOrTree);
    if (api.templates) addFileOrTree(api.templates);
    for (const path of includePaths(api)) addFileOrTree(path);
    // Without include paths, imports resolve beneath the inputs' folders; a project root is
    // watched one level deep only, to keep node_modules out of the watch.
    if (api.style === 'proto' && includePaths(api).length === 0) {
      for (const input of api.inputs) (isProjectRoot(dirname(input)) ? folders : trees).add(dirname(input));
    }
  }
  return {
    targets: [
      ...[...files].map(([folder, names]): WatchTarget => ({ folder, scope: names })),
      ...[...folders].map((folder): WatchTarget => ({ folder, scope: 'folder' })),
      ...[...trees].map((folder): WatchTarget => ({ folder, scope: 'tree' })),
    ],
    ignored: [...apis.flatMap((api) => [api.output, ...(api.handlers ? [api.handlers] : [])]), ...sharedRuntime(apis)],
  };
}

/** The folder `runtime: shared` APIs write their runtime files to: codegen's own writes too. */
function sharedRuntime(apis: ApiConfig[]): string[] {
  const sharing = apis.filter((api) => api.runtime === 'shared');
  return sharing.length > 0 ? [sharedRuntimeFolder(sharing.map((api) => api.output))] : [];
}

/** proto `options.includePaths`, relative to the config's folder (or absolute). */
function includePaths(api: ApiConfig): string[] {
  if (api.style !== 'proto') return [];
  const paths = (api.options as Record<string, unknown>).includePaths;
  if (!Array.isArray(paths)) return [];
  return paths.filter((path): path is string => typeof path === 'string').map((path) => resolve(api.root, path));
}

function isProjectRoot(folder: string): boolean {
  return existsSync(join(folder, 'node_modules')) || existsSync(join(folder, '.git'));
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
