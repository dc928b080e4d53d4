import { relative, sep } from 'node:path';

/** A path as shown to users and written into headers: relative to `from`, with `/` separators. */
export function displayPath(file: string, from = process.cwd()): string {
  const path = relative(from, file) || '.';
  return sep === '/' ? path : path.split(sep).join('/');
}

/** A relative ESM import specifier from `fromDir` to `target`, always starting with `./` or `../`. */
export function importSpecifier(fromDir: string, target: string): string {
  const path = relative(fromDir, target).split(sep).join('/');
  return path.startsWith('.') ? path : `./${path}`;
}
