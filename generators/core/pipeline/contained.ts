/** Path containment for output folders: nothing codegen writes or deletes may lie outside one. */
import { relative, resolve } from 'node:path';

/**
 * The absolute path of `path` (relative, `/`-separated) inside `folder`, or undefined when it would
 * land outside it (`..`, an absolute path, a drive letter, a NUL byte) or is the folder itself.
 */
export function resolveInside(folder: string, path: string): string | undefined {
  if (path.includes('\0') || /^([\\/]|[A-Za-z]:)/.test(path)) return undefined;
  const target = resolve(folder, path);
  const inside = relative(folder, target);
  if (inside === '' || inside.startsWith('..') || resolve(folder, inside) !== target) return undefined;
  return target;
}
