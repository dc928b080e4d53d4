// The realtime runtimes as a generated API ships them, for the `ws-server` and `sse-server`
// benchmarks: templates/runtime/<name>.ts.hbs rendered with the built TemplateRenderer
// (dist/generators/core/pipeline/templates.js, from `npm run build`) into `<dir>/ts/runtime/`, then
// transpiled to plain JS in `<dir>/js/runtime/` (bench/lib/grpc-transpile.js), so the measured
// server processes run no module hooks. `<dir>` is under bench/.work, inside the repository, so the
// rendered `import ... from "ws"` resolves from the project's node_modules.
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { transpileTree } from './grpc-transpile.js';
import { ROOT } from './tools.js';

const RENDERER = join(ROOT, 'dist/generators/core/pipeline/templates.js');

/**
 * Renders and transpiles the runtime files `names` (e.g. `ws-server`) into `dir`; resolves with the
 * folder of the JS (its `runtime/` holds the files), or with `{ reason }` when it cannot.
 *
 * @param {string} dir
 * @param {readonly string[]} names
 * @returns {Promise<{ js: string } | { reason: string }>}
 */
export async function buildRuntime(dir, names) {
  if (!existsSync(RENDERER)) return { reason: 'dist/generators/core/pipeline/templates.js is missing: run `npm run build` first' };
  const { TemplateRenderer } = await import(pathToFileURL(RENDERER).href);
  const renderer = new TemplateRenderer();
  const ts = join(dir, 'ts');
  const js = join(dir, 'js');
  rmSync(ts, { recursive: true, force: true });
  mkdirSync(join(ts, 'runtime'), { recursive: true });
  try {
    for (const name of names) {
      writeFileSync(join(ts, 'runtime', `${name}.ts`), renderer.render(`runtime/${name}.ts.hbs`, { source: 'bench' }));
    }
  } catch (error) {
    return { reason: `rendering the runtime failed: ${error.message}` };
  }
  transpileTree(ts, js);
  return { js };
}
