/**
 * What codegen reads. Input files named by the user (the config's `input`, `documents`, the
 * command line) are read wherever they are; files reached through an input (`$ref`s, proto
 * imports, files found in a `documents` folder) are read only when their real path (symlinks
 * resolved) lies inside one of the allowed folders: the project root, the folders the config
 * allows with `allowRead`, and for proto the include paths. Either way only regular files are read
 * (never a device, FIFO, socket or folder), and only up to a size cap checked before reading.
 *
 * A refusal says why by the path alone: nothing of a file that was not meant to be read is ever
 * quoted, so a `$ref` to a secret cannot print it.
 */
import { closeSync, constants, fstatSync, openSync, readSync, realpathSync, statSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';

/** Default size cap per input file: 64 MiB, five times GitHub's 13 MB REST description. */
export const DEFAULT_MAX_INPUT_BYTES = 64 * 1024 * 1024;

export interface ReadScope {
  /** Folders that files reached through an input may lie in (absolute). */
  roots: readonly string[];
  /** Size cap per file, in bytes; default DEFAULT_MAX_INPUT_BYTES. */
  maxBytes?: number;
}

/**
 * A file that was read, or why it was not (in words that quote nothing of it): `outside` the
 * allowed folders, not a regular file (`type`), over the cap (`size`), or an error from the system.
 */
export type ReadResult = { ok: true; text: string } | { ok: false; why: string; refused: 'outside' | 'type' | 'size' | false };

export class InputFiles {
  readonly roots: readonly string[];
  readonly maxBytes: number;
  private realRoots: string[] | undefined;

  constructor(scope: ReadScope) {
    this.roots = [...new Set(scope.roots.map((root) => resolve(root)))];
    this.maxBytes = scope.maxBytes ?? DEFAULT_MAX_INPUT_BYTES;
  }

  /** A file the user named: read wherever it is, if it is a regular file within the cap. */
  readNamed(path: string): ReadResult {
    return readRegular(resolve(path), this.maxBytes);
  }

  /** A file reached through an input: read only when its real path is inside an allowed folder. */
  readReached(path: string): ReadResult {
    const real = realPath(resolve(path));
    if (real === undefined) return { ok: false, why: 'no such file', refused: false };
    if (!this.allows(real)) {
      return {
        ok: false,
        refused: 'outside',
        why:
          real === resolve(path)
            ? 'it is outside the folders codegen reads'
            : `it leads (through a symbolic link) to ${real}, outside the folders codegen reads`,
      };
    }
    return readRegular(real, this.maxBytes);
  }

  /** Whether a real path lies inside one of the allowed folders. */
  allows(real: string): boolean {
    this.realRoots ??= this.roots.map((root) => realPath(root) ?? root);
    return this.realRoots.some((root) => isInside(root, real));
  }
}

/** `path` with every symbolic link resolved, or undefined when it does not exist. */
export function realPath(path: string): string | undefined {
  try {
    return realpathSync.native(path);
  } catch {
    return undefined;
  }
}

export function isInside(folder: string, path: string): boolean {
  const rel = relative(folder, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/**
 * Reads a regular file of at most `maxBytes`. The type and size are checked with stat before the
 * file is opened (opening a FIFO would block, reading /dev/zero would never end), and again on the
 * open descriptor, so a file swapped in between is caught too; reading stops one byte past the cap.
 * `head`: read only the first bytes (for detecting a file's style), whatever the size.
 */
export function readRegular(path: string, maxBytes: number, head?: number): ReadResult {
  const refused = checkStat(path, maxBytes);
  if (refused) return refused;
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (cause) {
    return { ok: false, refused: false, why: errnoText(cause) };
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) return { ok: false, refused: 'type', why: 'it is not a regular file' };
    if (stats.size > maxBytes) return overCap(stats.size, maxBytes);
    const buffer = Buffer.allocUnsafe(head ?? Math.min(stats.size, maxBytes) + 1);
    let length = 0;
    for (let n = 1; n > 0 && length < buffer.length; length += n) n = readSync(fd, buffer, length, buffer.length - length, null);
    // The file grew between stat and read: the cap holds all the same.
    if (head === undefined && length > maxBytes)
      return { ok: false, refused: 'size', why: `it grew past the limit of ${sizeText(maxBytes)} per input file while being read` };
    return { ok: true, text: buffer.toString('utf8', 0, length) };
  } catch (cause) {
    return { ok: false, refused: false, why: errnoText(cause) };
  } finally {
    closeSync(fd);
  }
}

function checkStat(path: string, maxBytes: number): ReadResult | undefined {
  let stats;
  try {
    stats = statSync(path);
  } catch (cause) {
    return { ok: false, refused: false, why: errnoText(cause) };
  }
  if (stats.isDirectory()) return { ok: false, refused: 'type', why: 'it is a folder' };
  if (!stats.isFile()) return { ok: false, refused: 'type', why: 'it is not a regular file (a device, FIFO or socket)' };
  if (stats.size > maxBytes) return overCap(stats.size, maxBytes);
  return undefined;
}

function overCap(size: number, maxBytes: number): ReadResult {
  return { ok: false, refused: 'size', why: `it is ${sizeText(size)}, over the limit of ${sizeText(maxBytes)} per input file` };
}

/** `64 MiB`, `1.5 MiB`, `900 bytes`. */
export function sizeText(bytes: number): string {
  const MiB = 1024 * 1024;
  if (bytes < MiB) return `${bytes} bytes`;
  return bytes % MiB === 0 ? `${bytes / MiB} MiB` : `${(bytes / MiB).toFixed(1)} MiB`;
}

function errnoText(cause: unknown): string {
  const code = (cause as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return 'no such file';
  if (code === 'EISDIR') return 'it is a folder';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  return code ?? String((cause as Error).message);
}

/**
 * The hint for a refused file, by why it was refused: where codegen reads and how to allow one more
 * folder; what a reference must name; how to raise the cap. `show` writes paths relative to the project.
 */
export function refusalHint(
  refused: 'outside' | 'type' | 'size',
  files: InputFiles,
  refusedPath: string,
  show: (path: string) => string,
): string {
  if (refused === 'type') return 'a reference must name a regular file, not a folder, device, FIFO or socket';
  if (refused === 'size')
    return `raise the limit with \`maxInputBytes\` in the API's entry in codegen.config if the file is meant to be this large`;
  const folders = files.roots.map(show).join(', ');
  return `codegen reads referenced files only inside ${folders}; move the file there, or allow its folder with \`allowRead: [${show(dirname(refusedPath))}]\` in the API's entry in codegen.config (\`--allow-read\` on the command line)`;
}

/** `path` relative to `root` with `/` separators (`.` for the root), or absolute when that reads better (`/etc`, not `../../../etc`). */
export function showPath(root: string, path: string): string {
  const rel = relative(root, path).split(sep).join('/');
  if (rel === '') return '.';
  return rel.startsWith('../..') || isAbsolute(rel) ? path : rel;
}
