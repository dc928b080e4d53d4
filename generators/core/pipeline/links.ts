/**
 * Writes stay where they are meant to be: a path below a folder (an output folder, the project root
 * for handler files) must not pass through a symbolic link that leads out of that folder, or
 * writing it would land elsewhere. The folder itself may be a link: the user made it on purpose.
 */
import { lstat, readlink, realpath } from 'node:fs/promises';
import { isAbsolute, join, relative, sep } from 'node:path';
import { error } from '../diagnostics.js';
import { displayPath } from './paths.js';

/**
 * Throws when `file` (inside `folder`) or a folder on the way to it is a symbolic link whose real
 * location is outside `folder`'s real location, or a dangling link (writing it would create its
 * target, wherever that is). Parts that do not exist yet are fine: codegen creates them as folders.
 */
export async function checkNoLinkOut(folder: string, file: string): Promise<void> {
  const realFolder = await realpath(folder).catch(() => undefined);
  if (realFolder === undefined) return; // not created yet: nothing inside it can be a link
  const parts = relative(folder, file)
    .split(sep)
    .filter((part) => part !== '');
  let current = folder;
  for (const part of parts) {
    current = join(current, part);
    const stats = await lstat(current).catch(() => undefined);
    if (!stats) return;
    if (!stats.isSymbolicLink()) continue;
    const real = await realpath(current).catch(() => undefined);
    if (real !== undefined && isInside(realFolder, real)) continue;
    const target = real ?? (await readlink(current).catch(() => '?'));
    throw error(
      `refusing to write ${displayPath(file)}: ${displayPath(current)} is a symbolic link to ${target}, ${real === undefined ? 'which does not exist' : 'outside'} ${displayPath(folder)}`,
      undefined,
      `remove the link; codegen writes only inside ${displayPath(folder)} (the folder itself may be a link, links inside it may not lead out)`,
    );
  }
}

function isInside(folder: string, path: string): boolean {
  const rel = relative(folder, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}
