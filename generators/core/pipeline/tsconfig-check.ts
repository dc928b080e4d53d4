/**
 * A warning for outputs that ship `.js` + `.d.ts` modules (`validators: js`) into a project whose
 * tsconfig emits to an `outDir` without `allowJs`: `tsc` would not copy those `.js` files, and the
 * built program would fail at start-up with ERR_MODULE_NOT_FOUND. Only the nearest tsconfig.json
 * above the output is read, and only when its `include` reaches the output (no `extends` chain):
 * a setting it does not state is not guessed.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { findNodeAtLocation, type Node, parseTree } from 'jsonc-parser';
import type { GeneratedFile } from './output.js';
import { displayPath } from './paths.js';

function nearestTsconfig(folder: string): string | undefined {
  for (let dir = resolve(folder); ; dir = dirname(dir)) {
    const candidate = join(dir, 'tsconfig.json');
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) return undefined;
  }
}

function lineCol(text: string, offset: number): string {
  const before = text.slice(0, offset).split('\n');
  return `${before.length}:${(before.at(-1)?.length ?? 0) + 1}`;
}

const isTrue = (node: Node | undefined) => node?.type === 'boolean' && node.value === true;

/**
 * Whether the tsconfig's `include` can take files of `folder`: each pattern's folder part before
 * its first wildcard holds it or lies inside it. No `include` and no `files` means everything.
 */
function includes(tree: Node, tsconfigDir: string, folder: string): boolean {
  const include = findNodeAtLocation(tree, ['include']);
  if (!include) return !findNodeAtLocation(tree, ['files']);
  const target = resolve(folder);
  const inside = (path: string, folder: string) => path === folder || path.startsWith(`${folder}/`);
  return (include.children ?? []).some((pattern) => {
    if (typeof pattern.value !== 'string') return false;
    const wildcard = pattern.value.search(/[*?]/);
    // A folder of its own (`"src"`), or the folder part before the first wildcard (`"src/**/*.ts"`).
    const literal = wildcard < 0 ? pattern.value : pattern.value.slice(0, wildcard);
    const base = resolve(tsconfigDir, wildcard < 0 || literal.endsWith('/') ? literal : dirname(literal));
    return inside(target, base) || inside(base, target);
  });
}

/** One located warning per tsconfig that would drop generated `.js` files from its build. */
export function tsconfigWarnings(sets: { folder: string; files: GeneratedFile[] }[], cwd = process.cwd()): string[] {
  const warned = new Set<string>();
  const lines: string[] = [];
  for (const set of sets) {
    const js = set.files.filter((file) => file.path.endsWith('.js')).map((file) => file.path);
    if (js.length === 0) continue;
    const file = nearestTsconfig(set.folder);
    if (!file || warned.has(file)) continue;
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    const tree = parseTree(text, [], { allowTrailingComma: true });
    if (!tree) continue;
    const outDir = findNodeAtLocation(tree, ['compilerOptions', 'outDir']);
    if (!outDir || isTrue(findNodeAtLocation(tree, ['compilerOptions', 'noEmit']))) continue;
    if (isTrue(findNodeAtLocation(tree, ['compilerOptions', 'allowJs']))) continue;
    if (!includes(tree, dirname(file), set.folder)) continue;
    warned.add(file);
    lines.push(
      `${displayPath(file, cwd)}:${lineCol(text, outDir.offset)}: warning: tsc emits to outDir without allowJs, so the build will lack ` +
        `${js.join(', ')} of ${displayPath(set.folder, cwd)}`,
      `  hint: set "allowJs": true in compilerOptions and let "include" take the .js files (e.g. "src", not "src/**/*.ts"); the .d.ts files keep the check cheap. Or set options.validators: ts for this API`,
    );
  }
  return lines;
}
