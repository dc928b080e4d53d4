/**
 * `runtime: shared`. The runtime files (templates/runtime, written to `<output>/runtime/`) are the
 * same for every API, so APIs that set `runtime: shared` get one copy of them, in `runtime/` beside
 * their output folders (in the deepest folder holding all of them: `out/rest` and `out/graphql`
 * share `out/runtime`), written as an output folder of its own with its own manifest. Their other
 * generated files import from there instead of `./runtime/`. Generators stay unaware of it: this is
 * a pass over what they produced.
 */
import { dirname, isAbsolute, join, posix, relative, sep } from 'node:path';
import { error } from '../diagnostics.js';
import { importSpecifiers } from './import-specifiers.js';
import type { GeneratedFile } from './output.js';
import type { OutputSet } from './writer.js';

const RUNTIME = 'runtime';

/** What this pass reads of an API's config (the config checks folders with it too, so it cannot import the config). */
export interface RuntimeSharer {
  name: string;
  output: string;
  root: string;
  runtime?: 'shared';
}

/** The shared runtime folder for these output folders: `runtime/` in the deepest folder that holds them all. */
export function sharedRuntimeFolder(outputs: string[]): string {
  const parents = outputs.map((output) => dirname(output).split(sep));
  let common = parents[0] ?? [];
  for (const parent of parents.slice(1)) {
    let same = 0;
    while (same < common.length && same < parent.length && common[same] === parent[same]) same++;
    common = common.slice(0, same);
  }
  return join(common.join(sep) || sep, RUNTIME);
}

/**
 * Why `folder` cannot be the shared runtime folder: it is, holds or lies inside an output folder.
 * Returns the API whose output is in the way, or undefined when the folder is free.
 */
export function sharedRuntimeClash<Api extends RuntimeSharer>(folder: string, apis: Api[]): Api | undefined {
  return apis.find((api) => isWithin(api.output, folder) || isWithin(folder, api.output));
}

/** The output sets with the runtime files of `runtime: shared` APIs moved into one shared set. */
export function shareRuntime(apis: RuntimeSharer[], sets: OutputSet[]): OutputSet[] {
  const sharing = apis.flatMap((api, index) => (api.runtime === 'shared' ? [index] : []));
  if (sharing.length === 0) return sets;
  const folder = sharedRuntimeFolder(sharing.map((index) => apis[index]!.output));
  const runtime = new Map<string, { content: string; api: string }>();
  const result = sets.map((set, index) => {
    if (!sharing.includes(index)) return set;
    const api = apis[index]!;
    const files: GeneratedFile[] = [];
    for (const file of set.files) {
      if (!file.path.startsWith(`${RUNTIME}/`)) {
        files.push({ path: file.path, content: importFromShared(file, set.folder, folder) });
        continue;
      }
      const name = file.path.slice(RUNTIME.length + 1);
      const earlier = runtime.get(name);
      if (earlier && earlier.content !== file.content) {
        throw error(
          `APIs ${JSON.stringify(earlier.api)} and ${JSON.stringify(api.name)} would write different runtime/${name} to the shared runtime folder ${relative(api.root, folder) || '.'}`,
          undefined,
          'their `templates` overrides differ: give them the same `templates`, or remove `runtime: shared` from one of them',
        );
      }
      runtime.set(name, { content: file.content, api: api.name });
    }
    return { ...set, files };
  });
  const files = [...runtime].map(([path, { content }]) => ({ path, content })).sort((a, b) => (a.path < b.path ? -1 : 1));
  return [...result, { folder, files, root: apis[sharing[0]!]!.root }];
}

/** `file` with its imports of `./runtime/…` (from any depth) pointing into the shared folder. */
function importFromShared(file: GeneratedFile, output: string, shared: string): string {
  const fileFolder = posix.dirname(file.path);
  let content = file.content;
  const specifiers = new Set(
    importSpecifiers(file.content)
      .map(({ specifier }) => specifier)
      .filter((specifier) => specifier.startsWith('.')),
  );
  for (const specifier of specifiers) {
    const target = posix.normalize(posix.join(fileFolder, specifier));
    if (!target.startsWith(`${RUNTIME}/`)) continue;
    let moved = relative(join(output, fileFolder), join(shared, target.slice(RUNTIME.length + 1)))
      .split(sep)
      .join('/');
    if (!moved.startsWith('.')) moved = `./${moved}`;
    const quoted = new RegExp(`(\\b(?:from|import)\\s*\\(?\\s*)(["'])${specifier.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}\\2`, 'g');
    content = content.replace(quoted, (_match, before: string, quote: string) => `${before}${quote}${moved}${quote}`);
  }
  return content;
}

function isWithin(folder: string, path: string): boolean {
  const inside = relative(folder, path);
  return inside === '' || (!inside.startsWith('..') && !isAbsolute(inside));
}
