/**
 * Where this package keeps what it copies and renders: `templates/` and `runtime/`, found from both
 * `generators/core/pipeline` (tests) and `dist/generators/core/pipeline` (the installed package).
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** `templates/` of this package, found from both `generators/core` and `dist/generators/core`. */
export const BUILTIN_TEMPLATES = findBuiltinTemplates();

/** `runtime/` of this package: the TypeScript modules copied into every output that needs them. */
export const BUILTIN_RUNTIME = join(dirname(BUILTIN_TEMPLATES), 'runtime');

function findBuiltinTemplates(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i++) {
    if (existsSync(join(dir, 'templates', 'partials'))) return join(dir, 'templates');
    dir = dirname(dir);
  }
  throw new Error('codegen: cannot find its templates/ folder');
}
