/**
 * The runtime modules (runtime/*.ts) as tests reach them. In-process, a test imports them like any
 * module (`import { createEventLog } from '../runtime/sse-store.js'`); code a test writes into a
 * folder (generated validators) imports the module itself through `runtimeSpecifier`. Only a check
 * that needs the files on disk beside other files (a type-check, a child process, a bundle) copies them.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import ts from 'typescript';
import { ROOT } from './cli.js';

const RUNTIME = join(ROOT, 'runtime');

/** The specifier by which a `.ts` file in `folder` imports runtime/<name>.ts itself (vitest maps `.js` to `.ts`). */
export function runtimeSpecifier(folder: string, name: string): string {
  const path = relative(folder, join(RUNTIME, `${name}.js`))
    .split(sep)
    .join('/');
  return path.startsWith('.') ? path : `./${path}`;
}

/** The source of runtime/<name>.ts. */
function runtimeSource(name: string): string {
  return readFileSync(join(RUNTIME, `${name}.ts`), 'utf8');
}

/** Copies runtime/<name>.ts for each name into `<folder>/runtime/`, as an output holds them; returns the sources by name. */
export function copyRuntime(folder: string, names: Iterable<string>): Record<string, string> {
  mkdirSync(join(folder, 'runtime'), { recursive: true });
  const sources: Record<string, string> = {};
  for (const name of names) {
    sources[name] = runtimeSource(name);
    writeFileSync(join(folder, 'runtime', `${name}.ts`), sources[name]);
  }
  return sources;
}

/** runtime/<name>.ts as JavaScript (an ES module, types stripped), for a page or process that cannot load TypeScript. */
export function runtimeJavaScript(name: string): string {
  return ts.transpileModule(runtimeSource(name), {
    fileName: `${name}.ts`,
    compilerOptions: { module: ts.ModuleKind.ES2022, target: ts.ScriptTarget.ES2022 },
  }).outputText;
}
