/**
 * The runtime files an output needs, derived rather than listed: the runtime modules its generated
 * files import (`./runtime/x.js`, `../runtime/x.js` from a subfolder), closed over the modules' own
 * imports (runtime/manifest.json), each written as `runtime/<name>.ts` by TemplateRenderer.runtime.
 * Style generators write no runtime file: this pass runs on what they return.
 */
import { posix } from 'node:path';
import { fileImportSpecifiers } from './import-specifiers.js';
import type { GeneratedFile } from './output.js';
import { memoized, type ScopedMemo } from './run-memo.js';
import { runtimeClosure, runtimeModules } from './runtime-modules.js';
import type { TemplateRenderer } from './templates.js';

const RUNTIME = 'runtime/';

/** `files` and the runtime files they need (those already among them are kept as they are). */
export function withRuntimeFiles(files: GeneratedFile[], templates: TemplateRenderer, memo?: ScopedMemo): GeneratedFile[] {
  const written = new Set(files.filter((file) => file.path.startsWith(RUNTIME)).map((file) => file.path));
  const added: GeneratedFile[] = [];
  const seen = new Set<string>();
  // Scanning a file for imports is a function of its text: under --watch an unchanged file is not scanned again.
  const pending = [
    ...new Set(
      files.flatMap((file) =>
        memoized(
          memo,
          `imports:${file.path}`,
          () => file.content,
          () => importedRuntimeModules([file]),
        ),
      ),
    ),
  ].sort();
  for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
    if (seen.has(name)) continue;
    seen.add(name);
    const path = `${RUNTIME}${name}.ts`;
    if (written.has(path)) continue;
    const content = templates.runtime(name);
    added.push({ path, content });
    pending.push(...runtimeImports(name, content, templates));
  }
  return added.length === 0 ? files : [...files, ...added];
}

/**
 * The files under `runtime/` (`graphql-server.ts`, …) that `file` needs, directly or through each
 * other: what a graphql-codegen setup lists as outputs of our `runtime` plugin.
 */
export function runtimeFilesOf(file: GeneratedFile): string[] {
  return runtimeClosure(importedRuntimeModules([file])).map((name) => `${name}.ts`);
}

/** The runtime modules `files` import, by name (from a runtime file too: `./x.js` beside it). */
export function importedRuntimeModules(files: readonly GeneratedFile[]): string[] {
  const names = new Set<string>();
  for (const file of files) {
    const folder = posix.dirname(file.path);
    for (const { specifier } of fileImportSpecifiers(file)) {
      if (!specifier.startsWith('.')) continue;
      const target = posix.join(folder, specifier);
      if (target.startsWith(RUNTIME) && target.endsWith('.js') && !target.slice(RUNTIME.length).includes('/'))
        names.add(target.slice(RUNTIME.length, -'.js'.length));
    }
  }
  return [...names].sort();
}

/**
 * The runtime modules runtime module `name` imports: the manifest's, or, when the user's templates
 * replace the module, what their file imports (scanned only then: the scan of every module costs ~60 ms).
 */
function runtimeImports(name: string, content: string, templates: TemplateRenderer): string[] {
  const builtin = runtimeModules().get(name);
  if (builtin && templates.runtimeOverride(name) === undefined) return builtin.imports;
  return importedRuntimeModules([{ path: `${RUNTIME}${name}.ts`, content }]);
}
