// The realtime runtimes as a generated API ships them, for the `ws-server` and `sse-server`
// benchmarks: the modules runtime/<name>.ts copied into `<dir>/ts/runtime/`, then transpiled to
// plain JS in `<dir>/js/runtime/` (bench/lib/grpc-transpile.js), so the measured server processes
// run no module hooks. `<dir>` is under bench/.work, inside the repository, so the runtime's
// `import ... from "ws"` resolves from the project's node_modules.
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { transpileTree } from './grpc-transpile.js';
import { ROOT } from './tools.js';

/**
 * Copies and transpiles the runtime modules `entries` (e.g. `ws-server`) and every runtime module
 * they import (runtime/manifest.json, as the generator closes over it) into `dir`; resolves with
 * the folder of the JS (its `runtime/` holds the files), or with `{ reason }` when it cannot.
 *
 * @param {string} dir
 * @param {readonly string[]} entries
 * @returns {Promise<{ js: string } | { reason: string }>}
 */
export async function buildRuntime(dir, entries) {
  const ts = join(dir, 'ts');
  const js = join(dir, 'js');
  rmSync(ts, { recursive: true, force: true });
  mkdirSync(join(ts, 'runtime'), { recursive: true });
  for (const name of runtimeClosure(entries)) {
    const module = join(ROOT, 'runtime', `${name}.ts`);
    if (!existsSync(module)) return { reason: `no runtime module runtime/${name}.ts` };
    copyFileSync(module, join(ts, 'runtime', `${name}.ts`));
  }
  transpileTree(ts, js);
  return { js };
}

/** `entries` and the runtime modules they import, directly or not. */
function runtimeClosure(entries) {
  const { modules } = JSON.parse(readFileSync(join(ROOT, 'runtime', 'manifest.json'), 'utf8'));
  const names = new Set();
  const visit = (name) => {
    if (names.has(name)) return;
    names.add(name);
    for (const imported of modules[name]?.imports ?? []) visit(imported);
  };
  entries.forEach(visit);
  return [...names];
}
