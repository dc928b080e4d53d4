// Output-size accounting: files, bytes and lines of what a generator wrote.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/** Every file under `dir` (recursively), with its size in bytes and its line count. */
export function listFiles(dir) {
  if (!existsSync(dir)) return [];
  const out = [];
  const walk = (folder) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) {
        const text = readFileSync(path);
        let lines = 0;
        for (let i = 0; i < text.length; i++) if (text[i] === 10) lines++;
        if (text.length && text[text.length - 1] !== 10) lines++;
        out.push({ path: relative(dir, path), bytes: statSync(path).size, lines });
      }
    }
  };
  walk(dir);
  return out.sort((a, b) => a.path.localeCompare(b.path));
}

/**
 * Totals for the files under `dir` whose relative path passes `filter` (all by default).
 * @param {string} dir
 * @param {(path: string) => boolean} [filter]
 */
export function outputSize(dir, filter = (_path) => true) {
  const files = listFiles(dir).filter((file) => filter(file.path));
  if (!files.length) return null;
  return {
    files: files.length,
    bytes: files.reduce((sum, file) => sum + file.bytes, 0),
    lines: files.reduce((sum, file) => sum + file.lines, 0),
    list: files,
  };
}
